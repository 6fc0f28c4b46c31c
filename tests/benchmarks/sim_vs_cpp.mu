// Benchmark: the simulator's run time for a kernel divided by a plain C++ loop doing the same
// work in the same process (both compiled -O2). Prints one line per workload; exits non-zero
// if the simulator's results are wrong. MUSA_SIM_BENCH_SCALE=small shrinks the sizes (CI).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#define TILE 16

__global__ void vectorAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

__global__ void matmulTiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// Classic shared-memory tree reduction: log2(256) = 8 barriers per block.
__global__ void blockReduce(const float *in, float *out, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// Shuffle-based reduction: each warp reduces its lanes with __shfl_down_sync, lane 0 of each
// warp adds the warp's sum to the block's slot.
__global__ void warpReduce(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % warpSize == 0)
    atomicAdd(&out[blockIdx.x], v);
}

__global__ void tinyBlocks(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x; }

namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

template <class F> double bestOf(int reps, F f) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    double t0 = nowMs();
    f();
    best = std::min(best, nowMs() - t0);
  }
  return best;
}

// Keeps the baseline's result observable so the compiler cannot drop the loop.
volatile float sink;

int vectorAddBench(int n) {
  std::vector<float> a(n), b(n), c(n), ref(n);
  for (int i = 0; i < n; ++i)
    a[i] = float(i % 1000), b[i] = float(i % 777) * 0.5f;
  float *da, *db, *dc;
  musaMalloc(&da, n * sizeof(float));
  musaMalloc(&db, n * sizeof(float));
  musaMalloc(&dc, n * sizeof(float));
  musaMemcpy(da, a.data(), n * sizeof(float), musaMemcpyHostToDevice);
  musaMemcpy(db, b.data(), n * sizeof(float), musaMemcpyHostToDevice);
  int block = 256, grid = (n + block - 1) / block;
  vectorAdd<<<grid, block>>>(da, db, dc, n); // warm-up: JIT and first-touch
  musaDeviceSynchronize();
  double sim = bestOf(5, [&] {
    vectorAdd<<<grid, block>>>(da, db, dc, n);
    musaDeviceSynchronize();
  });
  double cpp = bestOf(5, [&] {
    for (int i = 0; i < n; ++i)
      ref[i] = a[i] + b[i];
    sink = ref[n / 2];
  });
  // The machine's own ceiling for this memory-bound loop on two cores: the same loop split
  // over two host threads (context for the ratio; the simulator gets two workers).
  double cpp2 = bestOf(5, [&] {
    std::thread half([&] {
      for (int i = n / 2; i < n; ++i)
        ref[i] = a[i] + b[i];
    });
    for (int i = 0; i < n / 2; ++i)
      ref[i] = a[i] + b[i];
    half.join();
    sink = ref[n / 2];
  });
  musaMemcpy(c.data(), dc, n * sizeof(float), musaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += c[i] != ref[i];
  std::printf("vector_add   n=%-9d sim %9.3f ms  C++ -O2 loop %8.3f ms  ratio %7.2f%s\n", n, sim,
              cpp, sim / cpp, wrong ? "  WRONG RESULTS" : "");
  std::printf("vector_add   the same loop on two host threads %8.3f ms  ratio %7.2f (this "
              "machine's two-core ceiling)\n", cpp2, cpp2 / cpp);
  musaFree(da);
  musaFree(db);
  musaFree(dc);
  return wrong != 0;
}

int matmulBench(int n) {
  std::vector<float> A(n * n), B(n * n), C(n * n), ref(n * n);
  for (int i = 0; i < n * n; ++i)
    A[i] = float(i % 17) * 0.25f, B[i] = float(i % 13) * 0.5f;
  float *dA, *dB, *dC;
  musaMalloc(&dA, n * n * sizeof(float));
  musaMalloc(&dB, n * n * sizeof(float));
  musaMalloc(&dC, n * n * sizeof(float));
  musaMemcpy(dA, A.data(), n * n * sizeof(float), musaMemcpyHostToDevice);
  musaMemcpy(dB, B.data(), n * n * sizeof(float), musaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
  matmulTiled<<<grid, block>>>(dA, dB, dC, n);
  musaDeviceSynchronize();
  double sim = bestOf(3, [&] {
    matmulTiled<<<grid, block>>>(dA, dB, dC, n);
    musaDeviceSynchronize();
  });
  // The same arithmetic as the kernel: one dot product per output, k in order.
  double cpp = bestOf(3, [&] {
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k)
          acc += A[r * n + k] * B[k * n + c];
        ref[r * n + c] = acc;
      }
    sink = ref[n];
  });
  musaMemcpy(C.data(), dC, n * n * sizeof(float), musaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n * n; ++i)
    wrong += std::fabs(C[i] - ref[i]) > 1e-3f * std::fabs(ref[i]) + 1e-3f;
  std::printf("matmul_tiled n=%-9d sim %9.3f ms  C++ -O2 loop %8.3f ms  ratio %7.2f%s\n", n, sim,
              cpp, sim / cpp, wrong ? "  WRONG RESULTS" : "");
  musaFree(dA);
  musaFree(dB);
  musaFree(dC);
  return wrong != 0;
}

/// Per-block sums of `in` by `kernel`, checked against a C++ loop; prints the ratio.
template <class Launch>
int reductionBench(const char *name, int n, int block, Launch launch) {
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i)
    in[i] = float(i % 13) - 6.0f;
  int blocks = (n + block - 1) / block;
  std::vector<float> out(blocks), ref(blocks);
  float *dIn, *dOut;
  musaMalloc(&dIn, n * sizeof(float));
  musaMalloc(&dOut, blocks * sizeof(float));
  musaMemcpy(dIn, in.data(), n * sizeof(float), musaMemcpyHostToDevice);
  musaMemset(dOut, 0, blocks * sizeof(float));
  launch(dIn, dOut, blocks);
  musaDeviceSynchronize();
  musaMemcpy(out.data(), dOut, blocks * sizeof(float), musaMemcpyDeviceToHost);
  double sim = bestOf(3, [&] {
    launch(dIn, dOut, blocks);
    musaDeviceSynchronize();
  });
  double cpp = bestOf(3, [&] {
    for (int b = 0; b < blocks; ++b) {
      float acc = 0.0f;
      for (int k = b * block; k < std::min(n, (b + 1) * block); ++k)
        acc += in[k];
      ref[b] = acc;
    }
    sink = ref[blocks / 2];
  });
  int wrong = 0;
  for (int b = 0; b < blocks; ++b)
    wrong += std::fabs(out[b] - ref[b]) > 1e-3f;
  std::printf("%-12s n=%-9d sim %9.3f ms  C++ -O2 loop %8.3f ms  ratio %7.2f%s\n", name, n, sim,
              cpp, sim / cpp, wrong ? "  WRONG RESULTS" : "");
  musaFree(dIn);
  musaFree(dOut);
  return wrong != 0;
}

/// A grid of many tiny blocks: what each block costs the simulator.
int tinyBlocksBench(int blocks) {
  const int threads = 32;
  int *d;
  musaMalloc(&d, size_t(blocks) * threads * sizeof(int));
  tinyBlocks<<<blocks, threads>>>(d);
  musaDeviceSynchronize();
  double sim = bestOf(3, [&] {
    tinyBlocks<<<blocks, threads>>>(d);
    musaDeviceSynchronize();
  });
  std::vector<int> h(size_t(blocks) * threads);
  musaMemcpy(h.data(), d, h.size() * sizeof(int), musaMemcpyDeviceToHost);
  int wrong = 0;
  for (size_t i = 0; i < h.size(); ++i)
    wrong += h[i] != int(i / threads);
  std::printf("tiny_blocks  %d blocks of %d threads: %.1f ms (%.0f ns per block)%s\n", blocks,
              threads, sim, sim * 1e6 / blocks, wrong ? "  WRONG RESULTS" : "");
  musaFree(d);
  return wrong != 0;
}

} // namespace

int main() {
  const char *scale = std::getenv("MUSA_SIM_BENCH_SCALE");
  bool small = scale && std::strcmp(scale, "small") == 0;
  const char *workers = std::getenv("MUSA_SIM_WORKERS");
  const char *timing = std::getenv("MUSA_SIM_TIMING");
  std::printf("simulator worker threads: %s (MUSA_SIM_WORKERS); timing model %s "
              "(MUSA_SIM_TIMING); baseline: 1 thread\n",
              workers ? workers : "all cores", timing && !std::strcmp(timing, "wall") ? "off" : "on");
  // MUSA_SIM_BENCH_ONLY=name runs one benchmark (for profiling it).
  const char *only = std::getenv("MUSA_SIM_BENCH_ONLY");
  auto wanted = [&](const char *name) { return !only || std::strcmp(only, name) == 0; };
  int failed = 0;
  if (wanted("vector_add"))
    failed |= vectorAddBench(small ? 1 << 20 : 1 << 24);
  if (wanted("matmul_tiled"))
    failed |= matmulBench(small ? 128 : 512);
  if (wanted("block_reduce"))
    failed |= reductionBench("block_reduce", small ? 1 << 18 : 1 << 22, 256,
                             [](const float *in, float *out, int blocks) {
                               blockReduce<<<blocks, 256>>>(in, out, blocks * 256);
                             });
  if (wanted("warp_reduce"))
    failed |= reductionBench("warp_reduce", small ? 1 << 18 : 1 << 22, 256,
                             [](const float *in, float *out, int blocks) {
                               musaMemsetAsync(out, 0, blocks * sizeof(float));
                               warpReduce<<<blocks, 256>>>(in, out, blocks * 256);
                             });
  if (wanted("tiny_blocks"))
    failed |= tinyBlocksBench(small ? 1 << 16 : 1 << 20);
  return failed;
}
