// Timing-validation suite: kernels and copies with different bottlenecks (bandwidth, access
// pattern, shared-memory tiling, compute, divergence, atomics, bank conflicts, occupancy, launch
// overhead, host<->device copies). The same source builds with the simulator
// (musa-sim-cc timing_suite.mu -O2 -o ts && MUSA_SIM_PROFILE=h200 ./ts 1) and with nvcc
// through the mapping header in cuda/ (see README.md), so the simulator's timings can be set
// against a real GPU's.
//
// Usage: timing_suite [R]   R timed repeats per config (default 1), after one warm-up.
// Output, one line per config: RESULT <kernel> <config> <median_ms>; FAIL <kernel> ... when the
// warm-up's result is wrong (exit code 1 at the end).
#include <musa_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(expr)                                                                          \
  do {                                                                                       \
    musaError_t e_ = (expr);                                                                 \
    if (e_ != musaSuccess) {                                                                 \
      std::printf("ERROR %s:%d %s: %s\n", __FILE__, __LINE__, #expr, musaGetErrorString(e_)); \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)

static int g_repeats = 1;
static int g_failures = 0;
static musaEvent_t g_start, g_stop;

// Warm-up: one launch, then check that it launched and ran.
template <class F> static void warm(F op) {
  op();
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
}

// R timed repeats, one op each between two events on stream 0; returns the median in ms.
template <class F> static float time_median(F op) {
  std::vector<float> t;
  for (int r = 0; r < g_repeats; ++r) {
    CHECK(musaEventRecord(g_start, 0));
    op();
    CHECK(musaEventRecord(g_stop, 0));
    CHECK(musaEventSynchronize(g_stop));
    CHECK(musaGetLastError());
    float ms = 0.f;
    CHECK(musaEventElapsedTime(&ms, g_start, g_stop));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  size_t m = t.size() / 2;
  return t.size() % 2 ? t[m] : 0.5f * (t[m - 1] + t[m]);
}

static void report(const char *kernel, const char *config, float ms) {
  std::printf("RESULT %s %s %.6f\n", kernel, config, ms);
  std::fflush(stdout);
}

static void fail(const char *kernel, const char *config, const char *what, long idx, double got,
                 double want) {
  std::printf("FAIL %s %s %s at %ld: got %g want %g\n", kernel, config, what, idx, got, want);
  ++g_failures;
}

// Check a whole float array for exact equality (all inputs are small integers or exact).
static bool check_exact(const char *k, const char *cfg, const float *got, const float *want,
                        long n) {
  for (long i = 0; i < n; ++i)
    if (got[i] != want[i]) {
      fail(k, cfg, "value", i, got[i], want[i]);
      return false;
    }
  return true;
}

static unsigned hash_u32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// ---------------------------------------------------------------------------------------------
// Kernels

__global__ void vector_add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void strided_copy(const float *in, float *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[(long)i * stride];
}

// n x n, block 32x8, each thread 4 elements (like the tiled one, for the same grid).
__global__ void transpose_naive(const float *in, float *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y0 = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) {
    int y = y0 + j;
    if (x < n && y < n) out[(long)x * n + y] = in[(long)y * n + x];
  }
}

__global__ void transpose_tiled(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < n && y + j < n) tile[threadIdx.y + j][threadIdx.x] = in[(long)(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < n && y + j < n) out[(long)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void matmul_naive(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.f;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}

// n a multiple of 16.
__global__ void matmul_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty;
  int col = blockIdx.x * 16 + tx;
  float acc = 0.f;
  for (int t = 0; t < n; t += 16) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// Reductions: 256 threads per block, one element per thread, one partial sum per block.
__global__ void reduce_interleaved(const float *in, float *partial, int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < (unsigned)n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned st = 1; st < blockDim.x; st *= 2) {
    if (tid % (2 * st) == 0) s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = s[0];
}

__global__ void reduce_sequential(const float *in, float *partial, int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < (unsigned)n ? in[i] : 0.f;
  __syncthreads();
  for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
    if (tid < st) s[tid] += s[tid + st];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = s[0];
}

__global__ void reduce_shuffle(const float *in, float *partial, int n) {
  __shared__ float warp_sums[32];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  float v = i < (unsigned)n ? in[i] : 0.f;
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
  int lane = tid % warpSize, warp = tid / warpSize;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int nwarps = (blockDim.x + warpSize - 1) / warpSize;
    v = lane < nwarps ? warp_sums[lane] : 0.f;
    for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    if (lane == 0) partial[blockIdx.x] = v;
  }
}

// nbins a power of two.
__global__ void histogram_atomic(const unsigned *in, unsigned *bins, int n, unsigned nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i] & (nbins - 1)], 1u);
}

// 2D 5-point stencil on an nx x ny grid; borders copied. Block 32x8.
__global__ void stencil5(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  long c = (long)y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[c] = in[c];
  } else {
    out[c] = 0.5f * in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx]);
  }
}

// Shared-memory bank conflicts: 256 threads per block, each loads/stores its own shared word
// iters times. STRIDE 32 puts all 32 lanes of a warp in one bank (32-way conflict), STRIDE 1 in
// 32 different banks. The same 32 KB array in both so occupancy is the same.
template <int STRIDE> __global__ void smem_banks(float *out, int iters) {
  __shared__ float s[256 * 32];
  volatile float *vs = s;
  unsigned tid = threadIdx.x;
  unsigned idx = (tid * STRIDE) % (256 * 32);
  vs[idx] = (float)tid;
  __syncthreads();
  float v = 0.f;
  for (int it = 0; it < iters; ++it) {
    v += vs[idx];
    vs[idx] = v;
  }
  out[blockIdx.x * blockDim.x + tid] = v;
}

// Occupancy-limited copy: 48 KB of static shared memory per 64-thread block, so few blocks fit
// on a multiprocessor. The data passes through shared memory at a runtime-chosen slot so the
// array is kept.
#define OCC_WORDS (48 * 1024 / 4)
__global__ void occupancy_copy(const float *in, float *out, int n, int spread) {
  __shared__ float s[OCC_WORDS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned slot = (threadIdx.x * (unsigned)spread) % OCC_WORDS;
  s[slot] = i < n ? in[i] : 0.f;
  __syncthreads();
  if (i < n) out[i] = s[slot];
}

__global__ void tiny(int *p) {
  if (threadIdx.x == 0) p[0] = 42;
}

// ---------------------------------------------------------------------------------------------
// Benchmarks

static void fill_small_ints(std::vector<float> &v, unsigned seed) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = (float)((int)(hash_u32((unsigned)i + seed) % 9) - 4);
}

static void bench_elementwise() {
  const int sizes[] = {1 << 16, 1 << 20, 1 << 22};
  const int nmax = 1 << 22;
  std::vector<float> ha(nmax), hb(nmax), hc(nmax), want(nmax);
  fill_small_ints(ha, 1);
  fill_small_ints(hb, 2);
  float *a, *b, *c;
  CHECK(musaMalloc(&a, nmax * sizeof(float)));
  CHECK(musaMalloc(&b, nmax * sizeof(float)));
  CHECK(musaMalloc(&c, nmax * sizeof(float)));
  CHECK(musaMemcpy(a, ha.data(), nmax * sizeof(float), musaMemcpyHostToDevice));
  for (int n : sizes) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d", n);
    int grid = (n + 255) / 256;
    CHECK(musaMemcpy(b, hb.data(), n * sizeof(float), musaMemcpyHostToDevice));
    auto add = [&] { vector_add<<<grid, 256>>>(a, b, c, n); };
    warm(add);
    CHECK(musaMemcpy(hc.data(), c, n * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) want[i] = ha[i] + hb[i];
    check_exact("vector_add", cfg, hc.data(), want.data(), n);
    report("vector_add", cfg, time_median(add));

    // saxpy updates y in place: check the warm-up, then the repeats keep changing y.
    const float alpha = 2.0f;
    auto sx = [&] { saxpy<<<grid, 256>>>(alpha, a, b, n); };
    warm(sx);
    CHECK(musaMemcpy(hc.data(), b, n * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) want[i] = alpha * ha[i] + hb[i];
    check_exact("saxpy", cfg, hc.data(), want.data(), n);
    report("saxpy", cfg, time_median(sx));
  }
  CHECK(musaFree(a));
  CHECK(musaFree(b));
  CHECK(musaFree(c));
}

static void bench_strided() {
  const int strides[] = {1, 2, 4, 8, 32};
  const int sizes[] = {1 << 16, 1 << 20, 1 << 22};
  const long in_max = 1L << 25;  // 128 MB of input at most
  std::vector<float> hin(in_max), hout(1 << 22);
  for (long i = 0; i < in_max; ++i) hin[i] = (float)(i & 0xffff);
  float *in, *out;
  CHECK(musaMalloc(&in, in_max * sizeof(float)));
  CHECK(musaMalloc(&out, (1 << 22) * sizeof(float)));
  CHECK(musaMemcpy(in, hin.data(), in_max * sizeof(float), musaMemcpyHostToDevice));
  for (int s : strides) {
    char name[32];
    std::snprintf(name, sizeof name, "strided_copy_s%d", s);
    for (int n : sizes) {
      if ((long)n * s > in_max) continue;  // stride 32 stops at 2^20
      char cfg[64];
      std::snprintf(cfg, sizeof cfg, "n=%d", n);
      auto op = [&] { strided_copy<<<(n + 255) / 256, 256>>>(in, out, n, s); };
      warm(op);
      CHECK(musaMemcpy(hout.data(), out, n * sizeof(float), musaMemcpyDeviceToHost));
      for (int i = 0; i < n; ++i)
        if (hout[i] != hin[(long)i * s]) {
          fail(name, cfg, "value", i, hout[i], hin[(long)i * s]);
          break;
        }
      report(name, cfg, time_median(op));
    }
  }
  CHECK(musaFree(in));
  CHECK(musaFree(out));
}

static void bench_transpose() {
  const int sizes[] = {512, 2048};
  const int nmax = 2048;
  std::vector<float> hin((size_t)nmax * nmax), hout((size_t)nmax * nmax);
  for (size_t i = 0; i < hin.size(); ++i) hin[i] = (float)(i % 100003);
  float *in, *out;
  CHECK(musaMalloc(&in, hin.size() * sizeof(float)));
  CHECK(musaMalloc(&out, hin.size() * sizeof(float)));
  for (int n : sizes) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d", n);
    CHECK(musaMemcpy(in, hin.data(), (size_t)n * n * sizeof(float), musaMemcpyHostToDevice));
    dim3 grid(n / 32, n / 32), block(32, 8);
    for (int tiled = 0; tiled < 2; ++tiled) {
      const char *name = tiled ? "transpose_tiled" : "transpose_naive";
      CHECK(musaMemset(out, 0, (size_t)n * n * sizeof(float)));
      auto op = [&] {
        if (tiled)
          transpose_tiled<<<grid, block>>>(in, out, n);
        else
          transpose_naive<<<grid, block>>>(in, out, n);
      };
      warm(op);
      CHECK(musaMemcpy(hout.data(), out, (size_t)n * n * sizeof(float), musaMemcpyDeviceToHost));
      for (long y = 0; y < n; ++y) {
        bool bad = false;
        for (long x = 0; x < n; ++x)
          if (hout[x * n + y] != hin[y * n + x]) {
            fail(name, cfg, "value", x * n + y, hout[x * n + y], hin[y * n + x]);
            bad = true;
            break;
          }
        if (bad) break;
      }
      report(name, cfg, time_median(op));
    }
  }
  CHECK(musaFree(in));
  CHECK(musaFree(out));
}

static void bench_matmul() {
  struct Cfg { int n; bool tiled; };
  const Cfg cfgs[] = {{128, false}, {256, false}, {512, false}, {128, true}, {256, true}};
  const int nmax = 512;
  std::vector<float> hA((size_t)nmax * nmax), hB((size_t)nmax * nmax), hC((size_t)nmax * nmax);
  float *A, *B, *C;
  CHECK(musaMalloc(&A, hA.size() * sizeof(float)));
  CHECK(musaMalloc(&B, hA.size() * sizeof(float)));
  CHECK(musaMalloc(&C, hA.size() * sizeof(float)));
  for (const Cfg &cf : cfgs) {
    int n = cf.n;
    const char *name = cf.tiled ? "matmul_tiled" : "matmul_naive";
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d", n);
    std::vector<float> a((size_t)n * n), b((size_t)n * n);
    fill_small_ints(a, 11);
    fill_small_ints(b, 12);
    CHECK(musaMemcpy(A, a.data(), a.size() * sizeof(float), musaMemcpyHostToDevice));
    CHECK(musaMemcpy(B, b.data(), b.size() * sizeof(float), musaMemcpyHostToDevice));
    dim3 grid(n / 16, n / 16), block(16, 16);
    auto op = [&] {
      if (cf.tiled)
        matmul_tiled<<<grid, block>>>(A, B, C, n);
      else
        matmul_naive<<<grid, block>>>(A, B, C, n);
    };
    warm(op);
    CHECK(musaMemcpy(hC.data(), C, (size_t)n * n * sizeof(float), musaMemcpyDeviceToHost));
    // Small integer inputs: every partial sum is exact, so compare 256 sampled entries exactly.
    for (int s = 0; s < 256; ++s) {
      int r = hash_u32(2 * s + 1) % n, c = hash_u32(2 * s + 2) % n;
      float want = 0.f;
      for (int k = 0; k < n; ++k) want += a[(size_t)r * n + k] * b[(size_t)k * n + c];
      if (hC[(size_t)r * n + c] != want) {
        fail(name, cfg, "value", (long)r * n + c, hC[(size_t)r * n + c], want);
        break;
      }
    }
    report(name, cfg, time_median(op));
  }
  CHECK(musaFree(A));
  CHECK(musaFree(B));
  CHECK(musaFree(C));
}

static void bench_reduce() {
  const int sizes[] = {1 << 20, 1 << 22};
  const int nmax = 1 << 22;
  std::vector<float> hin(nmax), hpart(nmax / 256);
  fill_small_ints(hin, 21);
  float *in, *part;
  CHECK(musaMalloc(&in, nmax * sizeof(float)));
  CHECK(musaMalloc(&part, (nmax / 256) * sizeof(float)));
  CHECK(musaMemcpy(in, hin.data(), nmax * sizeof(float), musaMemcpyHostToDevice));
  const char *names[] = {"reduce_interleaved", "reduce_sequential", "reduce_shuffle"};
  for (int n : sizes) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d", n);
    int grid = n / 256;
    for (int v = 0; v < 3; ++v) {
      CHECK(musaMemset(part, 0xff, grid * sizeof(float)));
      auto op = [&] {
        if (v == 0)
          reduce_interleaved<<<grid, 256>>>(in, part, n);
        else if (v == 1)
          reduce_sequential<<<grid, 256>>>(in, part, n);
        else
          reduce_shuffle<<<grid, 256>>>(in, part, n);
      };
      warm(op);
      CHECK(musaMemcpy(hpart.data(), part, grid * sizeof(float), musaMemcpyDeviceToHost));
      for (int blk = 0; blk < grid; ++blk) {
        float want = 0.f;
        for (int t = 0; t < 256; ++t) want += hin[(size_t)blk * 256 + t];
        if (hpart[blk] != want) {
          fail(names[v], cfg, "partial", blk, hpart[blk], want);
          break;
        }
      }
      report(names[v], cfg, time_median(op));
    }
  }
  CHECK(musaFree(in));
  CHECK(musaFree(part));
}

static void bench_histogram() {
  const int sizes[] = {1 << 20, 1 << 22};
  const unsigned nbins_list[] = {16, 4096};
  const int nmax = 1 << 22;
  std::vector<unsigned> hin(nmax), hbins(4096), want(4096);
  for (int i = 0; i < nmax; ++i) hin[i] = hash_u32((unsigned)i + 77);
  unsigned *in, *bins;
  CHECK(musaMalloc(&in, nmax * sizeof(unsigned)));
  CHECK(musaMalloc(&bins, 4096 * sizeof(unsigned)));
  CHECK(musaMemcpy(in, hin.data(), nmax * sizeof(unsigned), musaMemcpyHostToDevice));
  for (unsigned nb : nbins_list) {
    char name[32];
    std::snprintf(name, sizeof name, "histogram_b%u", nb);
    for (int n : sizes) {
      char cfg[64];
      std::snprintf(cfg, sizeof cfg, "n=%d", n);
      CHECK(musaMemset(bins, 0, nb * sizeof(unsigned)));
      auto op = [&] { histogram_atomic<<<(n + 255) / 256, 256>>>(in, bins, n, nb); };
      warm(op);
      CHECK(musaMemcpy(hbins.data(), bins, nb * sizeof(unsigned), musaMemcpyDeviceToHost));
      std::fill(want.begin(), want.end(), 0u);
      for (int i = 0; i < n; ++i) ++want[hin[i] & (nb - 1)];
      for (unsigned b = 0; b < nb; ++b)
        if (hbins[b] != want[b]) {
          fail(name, cfg, "bin", b, hbins[b], want[b]);
          break;
        }
      // The repeats keep adding to the bins (not checked).
      report(name, cfg, time_median(op));
    }
  }
  CHECK(musaFree(in));
  CHECK(musaFree(bins));
}

static void bench_stencil() {
  const int sizes[] = {512, 2048};
  const int nmax = 2048;
  std::vector<float> hin((size_t)nmax * nmax), hout((size_t)nmax * nmax);
  fill_small_ints(hin, 31);
  float *in, *out;
  CHECK(musaMalloc(&in, hin.size() * sizeof(float)));
  CHECK(musaMalloc(&out, hin.size() * sizeof(float)));
  for (int n : sizes) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "nx=%d,ny=%d", n, n);
    CHECK(musaMemcpy(in, hin.data(), (size_t)n * n * sizeof(float), musaMemcpyHostToDevice));
    dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
    auto op = [&] { stencil5<<<grid, block>>>(in, out, n, n); };
    warm(op);
    CHECK(musaMemcpy(hout.data(), out, (size_t)n * n * sizeof(float), musaMemcpyDeviceToHost));
    // Small integers times powers of two: exact in any evaluation order.
    for (long y = 0; y < n; ++y) {
      bool bad = false;
      for (long x = 0; x < n; ++x) {
        long c = y * n + x;
        float want = (x == 0 || y == 0 || x == n - 1 || y == n - 1)
                         ? hin[c]
                         : 0.5f * hin[c] + 0.125f * (hin[c - 1] + hin[c + 1] + hin[c - n] + hin[c + n]);
        if (hout[c] != want) {
          fail("stencil2d_5pt", cfg, "value", c, hout[c], want);
          bad = true;
          break;
        }
      }
      if (bad) break;
    }
    report("stencil2d_5pt", cfg, time_median(op));
  }
  CHECK(musaFree(in));
  CHECK(musaFree(out));
}

static void bench_banks() {
  const int threads_list[] = {1 << 16, 1 << 18};
  const int iters = 64;
  float *out;
  CHECK(musaMalloc(&out, (1 << 18) * sizeof(float)));
  std::vector<float> hout(1 << 18);
  for (int conflict = 1; conflict >= 0; --conflict) {
    const char *name = conflict ? "smem_bank_conflict32" : "smem_conflict_free";
    for (int nt : threads_list) {
      char cfg[64];
      std::snprintf(cfg, sizeof cfg, "threads=%d,iters=%d", nt, iters);
      int grid = nt / 256;
      auto op = [&] {
        if (conflict)
          smem_banks<32><<<grid, 256>>>(out, iters);
        else
          smem_banks<1><<<grid, 256>>>(out, iters);
      };
      warm(op);
      CHECK(musaMemcpy(hout.data(), out, nt * sizeof(float), musaMemcpyDeviceToHost));
      // v doubles each iteration starting from tid: v = tid * (2^iters - 1), computed in float.
      for (int i = 0; i < nt; ++i) {
        float v = 0.f, sv = (float)(i % 256);
        for (int it = 0; it < iters; ++it) {
          v += sv;
          sv = v;
        }
        if (hout[i] != v) {
          fail(name, cfg, "value", i, hout[i], v);
          break;
        }
      }
      report(name, cfg, time_median(op));
    }
  }
  CHECK(musaFree(out));
}

static void bench_occupancy() {
  const int sizes[] = {1 << 20, 1 << 22};
  const int nmax = 1 << 22;
  std::vector<float> hin(nmax), hout(nmax);
  fill_small_ints(hin, 41);
  float *in, *out;
  CHECK(musaMalloc(&in, nmax * sizeof(float)));
  CHECK(musaMalloc(&out, nmax * sizeof(float)));
  CHECK(musaMemcpy(in, hin.data(), nmax * sizeof(float), musaMemcpyHostToDevice));
  for (int n : sizes) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d,smem=48K,block=64", n);
    auto op = [&] { occupancy_copy<<<(n + 63) / 64, 64>>>(in, out, n, 193); };
    warm(op);
    CHECK(musaMemcpy(hout.data(), out, n * sizeof(float), musaMemcpyDeviceToHost));
    check_exact("occupancy_copy_smem48k", cfg, hout.data(), hin.data(), n);
    report("occupancy_copy_smem48k", cfg, time_median(op));
  }
  CHECK(musaFree(in));
  CHECK(musaFree(out));
}

static void bench_tiny() {
  int *p;
  CHECK(musaMalloc(&p, sizeof(int)));
  CHECK(musaMemset(p, 0, sizeof(int)));
  auto op = [&] { tiny<<<1, 32>>>(p); };
  warm(op);
  int h = 0;
  CHECK(musaMemcpy(&h, p, sizeof(int), musaMemcpyDeviceToHost));
  if (h != 42) fail("tiny_launch", "blocks=1,threads=32", "value", 0, h, 42);
  report("tiny_launch", "blocks=1,threads=32", time_median(op));
  CHECK(musaFree(p));
}

static void bench_copies() {
  const size_t sizes[] = {1u << 20, 64u << 20};
  const size_t bmax = 64u << 20;
  unsigned char *pinned, *pinned2, *pageable, *pageable2, *d1, *d2;
  CHECK(musaMallocHost((void **)&pinned, bmax));
  CHECK(musaMallocHost((void **)&pinned2, bmax));
  pageable = (unsigned char *)std::malloc(bmax);
  pageable2 = (unsigned char *)std::malloc(bmax);
  if (!pageable || !pageable2) {
    std::printf("ERROR malloc failed\n");
    std::exit(2);
  }
  CHECK(musaMalloc(&d1, bmax));
  CHECK(musaMalloc(&d2, bmax));
  for (size_t i = 0; i < bmax; ++i) pinned[i] = pageable[i] = (unsigned char)(hash_u32((unsigned)i) >> 7);

  auto check_bytes = [&](const char *name, const char *cfg, const unsigned char *got,
                         const unsigned char *want, size_t n) {
    // Every 4099th byte and the last one.
    for (size_t i = 0; i < n; i += 4099)
      if (got[i] != want[i]) {
        fail(name, cfg, "byte", (long)i, got[i], want[i]);
        return;
      }
    if (got[n - 1] != want[n - 1]) fail(name, cfg, "byte", (long)n - 1, got[n - 1], want[n - 1]);
  };

  for (size_t bytes : sizes) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "bytes=%zu", bytes);
    for (int pin = 1; pin >= 0; --pin) {
      unsigned char *src = pin ? pinned : pageable;
      unsigned char *dst = pin ? pinned2 : pageable2;
      const char *h2d = pin ? "memcpy_h2d_pinned" : "memcpy_h2d_pageable";
      const char *d2h = pin ? "memcpy_d2h_pinned" : "memcpy_d2h_pageable";
      // H2D
      CHECK(musaMemset(d1, 0, bytes));
      auto up = [&] { CHECK(musaMemcpy(d1, src, bytes, musaMemcpyHostToDevice)); };
      warm(up);
      std::memset(dst, 0, bytes);
      CHECK(musaMemcpy(dst, d1, bytes, musaMemcpyDeviceToHost));
      check_bytes(h2d, cfg, dst, src, bytes);
      report(h2d, cfg, time_median(up));
      // D2H
      std::memset(dst, 0, bytes);
      auto down = [&] { CHECK(musaMemcpy(dst, d1, bytes, musaMemcpyDeviceToHost)); };
      warm(down);
      check_bytes(d2h, cfg, dst, src, bytes);
      report(d2h, cfg, time_median(down));
    }
    // D2D (d1 holds the pageable data now)
    CHECK(musaMemset(d2, 0, bytes));
    auto d2d = [&] { CHECK(musaMemcpy(d2, d1, bytes, musaMemcpyDeviceToDevice)); };
    warm(d2d);
    CHECK(musaMemcpy(pageable2, d2, bytes, musaMemcpyDeviceToHost));
    check_bytes("memcpy_d2d", cfg, pageable2, pageable, bytes);
    report("memcpy_d2d", cfg, time_median(d2d));
  }
  // Memset 64 MB
  {
    const char *cfg = "bytes=67108864";
    auto ms = [&] { CHECK(musaMemset(d2, 0x5a, bmax)); };
    warm(ms);
    CHECK(musaMemcpy(pinned2, d2, bmax, musaMemcpyDeviceToHost));
    std::vector<unsigned char> want(bmax, 0x5a);
    check_bytes("memset", cfg, pinned2, want.data(), bmax);
    report("memset", cfg, time_median(ms));
  }
  CHECK(musaFreeHost(pinned));
  CHECK(musaFreeHost(pinned2));
  std::free(pageable);
  std::free(pageable2);
  CHECK(musaFree(d1));
  CHECK(musaFree(d2));
}

int main(int argc, char **argv) {
  if (argc > 1) g_repeats = std::max(1, std::atoi(argv[1]));
  CHECK(musaEventCreate(&g_start));
  CHECK(musaEventCreate(&g_stop));
  bench_tiny();
  bench_elementwise();
  bench_strided();
  bench_transpose();
  bench_matmul();
  bench_reduce();
  bench_histogram();
  bench_stencil();
  bench_banks();
  bench_occupancy();
  bench_copies();
  CHECK(musaEventDestroy(g_start));
  CHECK(musaEventDestroy(g_stop));
  CHECK(musaDeviceSynchronize());
  if (g_failures) {
    std::printf("FAILED %d config(s)\n", g_failures);
    return 1;
  }
  return 0;
}
