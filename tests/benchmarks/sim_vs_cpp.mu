// Benchmark: the simulator's run time for a kernel divided by a plain C++ loop doing the same
// work in the same process (both compiled -O2). Prints one line per workload; exits non-zero
// if the simulator's results are wrong. MUSA_SIM_BENCH_SCALE=small shrinks the sizes (CI).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
  musaMemcpy(c.data(), dc, n * sizeof(float), musaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += c[i] != ref[i];
  std::printf("vector_add   n=%-9d sim %9.3f ms  C++ -O2 loop %8.3f ms  ratio %7.2f%s\n", n, sim,
              cpp, sim / cpp, wrong ? "  WRONG RESULTS" : "");
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

} // namespace

int main() {
  const char *scale = std::getenv("MUSA_SIM_BENCH_SCALE");
  bool small = scale && std::strcmp(scale, "small") == 0;
  const char *workers = std::getenv("MUSA_SIM_WORKERS");
  const char *timing = std::getenv("MUSA_SIM_TIMING");
  std::printf("simulator worker threads: %s (MUSA_SIM_WORKERS); timing model %s "
              "(MUSA_SIM_TIMING); baseline: 1 thread\n",
              workers ? workers : "all cores", timing && !std::strcmp(timing, "wall") ? "off" : "on");
  int failed = vectorAddBench(small ? 1 << 20 : 1 << 24);
  failed |= matmulBench(small ? 128 : 512);
  return failed;
}
