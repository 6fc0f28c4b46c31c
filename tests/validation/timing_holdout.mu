// Timing-validation suite 4 ("holdout"): kernels written on 2026-12-04 after every mechanism
// and constant of the model was in place, and measured on the H200 once, so that its first
// figure is out of sample. Kinds the other three suites lack: a row softmax (block
// reductions with exp), fp64 and byte streaming, a 3-byte-struct image conversion, an
// index-array gather and a permuting scatter, a k-means assignment against constant memory,
// a Monte-Carlo estimate with a per-block atomic, a register-blocked matmul, a
// cooperative-groups reduction, a warp-per-row argmax, a warp-shuffle scan, a kernel of
// independent FMA chains, a double-precision tiled transpose, a one-block reduction, a
// contended atomicMax, precise powf/logf, and small pinned copies one after another.
// Built and run like timing_suite.mu (see README.md).
//
// Usage: timing_holdout [R]   R timed repeats per config (default 1), after one warm-up.
// Output: RESULT <kernel> <config> <median_ms>; FAIL lines when a warm-up result is wrong.
#include <cooperative_groups.h>
#include <musa_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace cg = cooperative_groups;

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

template <class F> static void warm(F op) {
  op();
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
}

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

static void fail(const char *kernel, const char *config, long idx, double got, double want) {
  std::printf("FAIL %s %s at %ld: got %g want %g\n", kernel, config, idx, got, want);
  ++g_failures;
}

static bool near(double got, double want, double tol) {
  return std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want));
}

static unsigned hash_u32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// ---- row softmax: one 256-thread block per row -------------------------------------------
__device__ float block_reduce(float v, float *scratch, bool take_max) {
  for (int o = 16; o > 0; o >>= 1) {
    float w = __shfl_xor_sync(0xffffffffu, v, o);
    v = take_max ? fmaxf(v, w) : v + w;
  }
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) scratch[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? scratch[lane] : (take_max ? -INFINITY : 0.f);
    for (int o = 16; o > 0; o >>= 1) {
      float w = __shfl_xor_sync(0xffffffffu, v, o);
      v = take_max ? fmaxf(v, w) : v + w;
    }
    if (lane == 0) scratch[0] = v;
  }
  __syncthreads();
  v = scratch[0];
  __syncthreads();
  return v;
}

__global__ void softmax_rows(const float *x, float *y, int cols) {
  __shared__ float scratch[32];
  const float *row = x + size_t(blockIdx.x) * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
  m = block_reduce(m, scratch, true);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(row[c] - m);
  s = block_reduce(s, scratch, false);
  float inv = 1.f / s;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    y[size_t(blockIdx.x) * cols + c] = __expf(row[c] - m) * inv;
}

static void bench_softmax() {
  const int rows = 8192, cols = 1024;
  size_t n = size_t(rows) * cols;
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = float(hash_u32(unsigned(i)) % 1000) / 250.f;
  float *dx, *dy;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&dy, n * 4));
  CHECK(musaMemcpy(dx, h.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { softmax_rows<<<rows, 256>>>(dx, dy, cols); };
  warm(op);
  std::vector<float> out(n);
  CHECK(musaMemcpy(out.data(), dy, n * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 1021) {
    double sum = 0;
    for (int c = 0; c < cols; ++c) sum += out[size_t(r) * cols + c];
    if (!near(sum, 1.0, 1e-3)) { fail("softmax_rows", "rows=8192,cols=1024", r, sum, 1.0); break; }
  }
  report("softmax_rows", "rows=8192,cols=1024", time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- fp64 and byte streaming ----------------------------------------------------------------
__global__ void daxpy(double a, const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void add_u8(const unsigned char *a, const unsigned char *b, unsigned char *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = (unsigned char)(a[i] + b[i]);
}

static void bench_streaming() {
  {
    const int n = 1 << 24;
    std::vector<double> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = i % 97, y[i] = i % 13;
    double *dx, *dy;
    CHECK(musaMalloc(&dx, n * 8.0));
    CHECK(musaMalloc(&dy, n * 8.0));
    CHECK(musaMemcpy(dx, x.data(), n * 8.0, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(dy, y.data(), n * 8.0, musaMemcpyHostToDevice));
    auto op = [&] { daxpy<<<n / 256, 256>>>(2.0, dx, dy, n); };
    warm(op);
    std::vector<double> out(n);
    CHECK(musaMemcpy(out.data(), dy, n * 8.0, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 4099)
      if (out[i] != 2.0 * x[i] + y[i]) {
        fail("daxpy", "n=16777216", i, out[i], 2.0 * x[i] + y[i]);
        break;
      }
    report("daxpy", "n=16777216", time_median(op));
    CHECK(musaFree(dx));
    CHECK(musaFree(dy));
  }
  {
    const int n = 1 << 26;
    std::vector<unsigned char> a(n), b(n);
    for (int i = 0; i < n; ++i) a[i] = (unsigned char)i, b[i] = (unsigned char)(i >> 8);
    unsigned char *da, *db, *dc;
    CHECK(musaMalloc(&da, n));
    CHECK(musaMalloc(&db, n));
    CHECK(musaMalloc(&dc, n));
    CHECK(musaMemcpy(da, a.data(), n, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(db, b.data(), n, musaMemcpyHostToDevice));
    auto op = [&] { add_u8<<<n / 256, 256>>>(da, db, dc, n); };
    warm(op);
    std::vector<unsigned char> c(n);
    CHECK(musaMemcpy(c.data(), dc, n, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 999)
      if (c[i] != (unsigned char)(a[i] + b[i])) {
        fail("add_u8", "n=67108864", i, c[i], a[i] + b[i]);
        break;
      }
    report("add_u8", "n=67108864", time_median(op));
    CHECK(musaFree(da));
    CHECK(musaFree(db));
    CHECK(musaFree(dc));
  }
}

// ---- RGB (3-byte struct) to gray -----------------------------------------------------------
__global__ void rgb_to_gray(const uchar3 *rgb, unsigned char *gray, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  uchar3 p = rgb[y * w + x];
  gray[y * w + x] = (unsigned char)((77 * p.x + 150 * p.y + 29 * p.z) >> 8);
}

static void bench_rgb() {
  const int w = 4096, h = 4096;
  size_t n = size_t(w) * h;
  std::vector<uchar3> img(n);
  for (size_t i = 0; i < n; ++i)
    img[i] = make_uchar3((unsigned char)i, (unsigned char)(i >> 3), (unsigned char)(i >> 7));
  uchar3 *drgb;
  unsigned char *dgray;
  CHECK(musaMalloc(&drgb, n * sizeof(uchar3)));
  CHECK(musaMalloc(&dgray, n));
  CHECK(musaMemcpy(drgb, img.data(), n * sizeof(uchar3), musaMemcpyHostToDevice));
  auto op = [&] { rgb_to_gray<<<dim3(w / 32, h / 8), dim3(32, 8)>>>(drgb, dgray, w, h); };
  warm(op);
  std::vector<unsigned char> g(n);
  CHECK(musaMemcpy(g.data(), dgray, n, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i += 7777) {
    int want = (77 * img[i].x + 150 * img[i].y + 29 * img[i].z) >> 8;
    if (g[i] != want) { fail("rgb_to_gray", "4096x4096", long(i), g[i], want); break; }
  }
  report("rgb_to_gray", "4096x4096", time_median(op));
  CHECK(musaFree(drgb));
  CHECK(musaFree(dgray));
}

// ---- gather through an index array, scatter through a permutation --------------------------
__global__ void gather_idx(const float *in, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

__global__ void scatter_perm(const float *in, float *out, int n, int mul) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[int((long long)i * mul & (n - 1))] = in[i];
}

static void bench_gather_scatter() {
  const int n = 1 << 22, m = 1 << 24;
  std::vector<int> idx(n);
  for (int i = 0; i < n; ++i) idx[i] = int(hash_u32(unsigned(i) * 3u + 1u) % unsigned(m));
  std::vector<float> in(m);
  for (int i = 0; i < m; ++i) in[i] = float(i % 1024);
  float *din, *dout;
  int *didx;
  CHECK(musaMalloc(&din, m * 4));
  CHECK(musaMalloc(&dout, m * 4));
  CHECK(musaMalloc(&didx, n * 4));
  CHECK(musaMemcpy(din, in.data(), m * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(didx, idx.data(), n * 4, musaMemcpyHostToDevice));
  auto gather = [&] { gather_idx<<<n / 256, 256>>>(din, didx, dout, n); };
  warm(gather);
  std::vector<float> out(n);
  CHECK(musaMemcpy(out.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 1001)
    if (out[i] != in[idx[i]]) {
      fail("gather_idx", "n=4194304,m=16777216", i, out[i], in[idx[i]]);
      break;
    }
  report("gather_idx", "n=4194304,m=16777216", time_median(gather));
  // An odd multiplier permutes 0..m-1: each warp's 32 stores land 4 KB-odd apart.
  const int mul = 1025;
  auto scatter = [&] { scatter_perm<<<m / 256, 256>>>(din, dout, m, mul); };
  warm(scatter);
  std::vector<float> s(m);
  CHECK(musaMemcpy(s.data(), dout, m * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < m; i += 4097) {
    int j = int((long long)i * mul & (m - 1));
    if (s[j] != in[i]) { fail("scatter_perm", "n=16777216,mul=1025", i, s[j], in[i]); break; }
  }
  report("scatter_perm", "n=16777216,mul=1025", time_median(scatter));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
  CHECK(musaFree(didx));
}

// ---- k-means assignment against centroids in constant memory --------------------------------
__constant__ float4 c_centroids[32];

__global__ void kmeans_assign(const float4 *pts, int *label, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 p = pts[i];
  float best = 3.0e38f;
  int arg = 0;
  for (int c = 0; c < k; ++c) {
    float4 q = c_centroids[c];
    float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
    float d = dx * dx + dy * dy + dz * dz;
    if (d < best) best = d, arg = c;
  }
  label[i] = arg;
}

static void bench_kmeans() {
  const int n = 1 << 22, k = 32;
  std::vector<float4> pts(n), cent(k);
  for (int i = 0; i < n; ++i)
    pts[i] = make_float4(float(hash_u32(i) % 1000), float(hash_u32(i + n) % 1000),
                         float(hash_u32(i + 2 * n) % 1000), 0.f);
  for (int c = 0; c < k; ++c)
    cent[c] = make_float4(float(c * 31 % 1000), float(c * 97 % 1000), float(c * 53 % 1000), 0.f);
  CHECK(musaMemcpyToSymbol(c_centroids, cent.data(), k * sizeof(float4)));
  float4 *dp;
  int *dl;
  CHECK(musaMalloc(&dp, n * sizeof(float4)));
  CHECK(musaMalloc(&dl, n * 4));
  CHECK(musaMemcpy(dp, pts.data(), n * sizeof(float4), musaMemcpyHostToDevice));
  auto op = [&] { kmeans_assign<<<n / 256, 256>>>(dp, dl, n, k); };
  warm(op);
  std::vector<int> l(n);
  CHECK(musaMemcpy(l.data(), dl, n * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 5003) {
    float best = 3.0e38f;
    int arg = 0;
    for (int c = 0; c < k; ++c) {
      float dx = pts[i].x - cent[c].x, dy = pts[i].y - cent[c].y, dz = pts[i].z - cent[c].z;
      float d = dx * dx + dy * dy + dz * dz;
      if (d < best) best = d, arg = c;
    }
    if (l[i] != arg) { fail("kmeans_assign", "n=4194304,k=32", i, l[i], arg); break; }
  }
  report("kmeans_assign", "n=4194304,k=32", time_median(op));
  CHECK(musaFree(dp));
  CHECK(musaFree(dl));
}

// ---- Monte-Carlo pi: per-thread xorshift samples, block reduction, one atomic a block ------
__global__ void mc_pi(unsigned long long *hits, int samples) {
  __shared__ unsigned counts[256];
  unsigned s = 2463534242u ^ (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u;
  unsigned in = 0;
  for (int k = 0; k < samples; ++k) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    float x = (s & 0xffff) / 65536.f, y = (s >> 16) / 65536.f;
    in += x * x + y * y < 1.f;
  }
  counts[threadIdx.x] = in;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) counts[threadIdx.x] += counts[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(hits, (unsigned long long)counts[0]);
}

static void bench_mc_pi() {
  const int blocks = 4096, samples = 256;
  unsigned long long *dh;
  CHECK(musaMalloc(&dh, 8));
  auto op = [&] {
    CHECK(musaMemsetAsync(dh, 0, 8));
    mc_pi<<<blocks, 256>>>(dh, samples);
  };
  warm(op);
  unsigned long long h = 0;
  CHECK(musaMemcpy(&h, dh, 8, musaMemcpyDeviceToHost));
  double pi = 4.0 * double(h) / (double(blocks) * 256 * samples);
  if (!near(pi, 3.14159, 0.01)) fail("mc_pi", "threads=1048576,samples=256", 0, pi, 3.14159);
  report("mc_pi", "threads=1048576,samples=256", time_median(op));
  CHECK(musaFree(dh));
}

// ---- register-blocked matmul: 64x64 tiles, 4x4 outputs a thread -----------------------------
__global__ void matmul_reg4x4(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][64], Bs[16][64];
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  int row0 = blockIdx.y * 64 + ty * 4, col0 = blockIdx.x * 64 + tx * 4;
  float acc[4][4] = {};
  for (int t = 0; t < n; t += 16) {
    for (int e = threadIdx.x; e < 16 * 64; e += 256) {
      int r = e / 16, c = e % 16; // A tile: 64 rows x 16 columns, stored transposed
      As[c][r] = A[size_t(blockIdx.y * 64 + r) * n + t + c];
      int br = e / 64, bc = e % 64; // B tile: 16 rows x 64 columns
      Bs[br][bc] = B[size_t(t + br) * n + blockIdx.x * 64 + bc];
    }
    __syncthreads();
    for (int k = 0; k < 16; ++k) {
      float a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty * 4 + i], b[i] = Bs[k][tx * 4 + i];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) C[size_t(row0 + i) * n + col0 + j] = acc[i][j];
}

static void bench_matmul_reg() {
  const int n = 1024;
  size_t nn = size_t(n) * n;
  std::vector<float> A(nn), B(nn);
  for (size_t i = 0; i < nn; ++i) A[i] = float(i % 7) - 3.f, B[i] = float(i % 5) - 2.f;
  float *dA, *dB, *dC;
  CHECK(musaMalloc(&dA, nn * 4));
  CHECK(musaMalloc(&dB, nn * 4));
  CHECK(musaMalloc(&dC, nn * 4));
  CHECK(musaMemcpy(dA, A.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), nn * 4, musaMemcpyHostToDevice));
  auto op = [&] { matmul_reg4x4<<<dim3(n / 64, n / 64), 256>>>(dA, dB, dC, n); };
  warm(op);
  std::vector<float> C(nn);
  CHECK(musaMemcpy(C.data(), dC, nn * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < n; r += 331) {
    int c = (r * 7) % n;
    double want = 0;
    for (int k = 0; k < n; ++k) want += double(A[size_t(r) * n + k]) * B[size_t(k) * n + c];
    if (C[size_t(r) * n + c] != float(want)) {
      fail("matmul_reg4x4", "n=1024", r, C[size_t(r) * n + c], want);
      break;
    }
  }
  report("matmul_reg4x4", "n=1024", time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  CHECK(musaFree(dC));
}

// ---- cooperative-groups reduction, warp-per-row argmax, warp-shuffle scan --------------------
__global__ void cg_reduce(const float *in, float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v += in[i];
  for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
  if (tile.thread_rank() == 0) atomicAdd(out, v);
}

__global__ void row_argmax(const float *x, int *arg, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= rows) return;
  const float *row = x + size_t(warp) * cols;
  float best = -INFINITY;
  int at = 0;
  for (int c = lane; c < cols; c += 32)
    if (row[c] > best) best = row[c], at = c;
  for (int o = 16; o > 0; o >>= 1) {
    float b = __shfl_down_sync(0xffffffffu, best, o);
    int a = __shfl_down_sync(0xffffffffu, at, o);
    if (b > best || (b == best && a < at)) best = b, at = a;
  }
  if (lane == 0) arg[warp] = at;
}

__global__ void warp_scan(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  int v = i < n ? in[i] : 0;
  for (int o = 1; o < 32; o <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += u;
  }
  if (i < n) out[i] = v;
}

static void bench_warp_level() {
  const int n = 1 << 24;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = float(hash_u32(unsigned(i)) % 4096);
  float *dx, *dsum;
  int *di;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&dsum, 4));
  CHECK(musaMalloc(&di, n * 4));
  CHECK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
  auto reduce = [&] {
    CHECK(musaMemsetAsync(dsum, 0, 4));
    cg_reduce<<<1056, 256>>>(dx, dsum, n);
  };
  warm(reduce);
  float sum = 0;
  CHECK(musaMemcpy(&sum, dsum, 4, musaMemcpyDeviceToHost));
  double want = 0;
  for (int i = 0; i < n; ++i) want += x[i];
  if (!near(sum, want, 1e-4)) fail("cg_reduce", "n=16777216,blocks=1056", 0, sum, want);
  report("cg_reduce", "n=16777216,blocks=1056", time_median(reduce));

  const int rows = 1 << 16, cols = 256;
  auto argmax = [&] { row_argmax<<<rows * 32 / 256, 256>>>(dx, di, rows, cols); };
  warm(argmax);
  std::vector<int> a(rows);
  CHECK(musaMemcpy(a.data(), di, rows * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 999) {
    int at = 0;
    for (int c = 1; c < cols; ++c)
      if (x[size_t(r) * cols + c] > x[size_t(r) * cols + at]) at = c;
    if (a[r] != at) { fail("row_argmax", "rows=65536,cols=256", r, a[r], at); break; }
  }
  report("row_argmax", "rows=65536,cols=256", time_median(argmax));

  std::vector<int> xi(n);
  for (int i = 0; i < n; ++i) xi[i] = int(hash_u32(unsigned(i)) % 16);
  int *dxi;
  CHECK(musaMalloc(&dxi, n * 4));
  CHECK(musaMemcpy(dxi, xi.data(), n * 4, musaMemcpyHostToDevice));
  auto scan = [&] { warp_scan<<<n / 256, 256>>>(dxi, di, n); };
  warm(scan);
  std::vector<int> s(n);
  CHECK(musaMemcpy(s.data(), di, n * 4, musaMemcpyDeviceToHost));
  for (int w = 0; w < n / 32; w += 1013) {
    int acc = 0;
    for (int l = 0; l < 32; ++l) {
      acc += xi[w * 32 + l];
      if (s[w * 32 + l] != acc) {
        fail("warp_scan", "n=16777216", w * 32 + l, s[w * 32 + l], acc);
        w = n;
        break;
      }
    }
  }
  report("warp_scan", "n=16777216", time_median(scan));
  CHECK(musaFree(dx));
  CHECK(musaFree(dsum));
  CHECK(musaFree(di));
  CHECK(musaFree(dxi));
}

// ---- eight independent FMA chains a thread (instruction-level parallelism) -------------------
__global__ void fma_ilp8(float *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a[8];
  for (int k = 0; k < 8; ++k) a[k] = float(i % 13 + k) * 0.001f;
  for (int it = 0; it < iters; ++it)
    for (int k = 0; k < 8; ++k) a[k] = a[k] * 0.9999f + 0.0001f;
  float s = 0.f;
  for (int k = 0; k < 8; ++k) s += a[k];
  out[i] = s;
}

static void bench_fma_ilp() {
  const int threads = 1 << 20, iters = 512;
  float *d;
  CHECK(musaMalloc(&d, threads * 4));
  auto op = [&] { fma_ilp8<<<threads / 256, 256>>>(d, iters); };
  warm(op);
  float h = 0;
  CHECK(musaMemcpy(&h, d, 4, musaMemcpyDeviceToHost));
  if (!(h > 0.f && h < 8.f)) fail("fma_ilp8", "threads=1048576,iters=512", 0, h, 1.0);
  report("fma_ilp8", "threads=1048576,iters=512", time_median(op));
  CHECK(musaFree(d));
}

// ---- double-precision tiled transpose (padded tile) ------------------------------------------
__global__ void transpose_f64(const double *in, double *out, int n) {
  __shared__ double tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[size_t(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[size_t(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

static void bench_transpose_f64() {
  const int n = 4096;
  size_t nn = size_t(n) * n;
  std::vector<double> h(nn);
  for (size_t i = 0; i < nn; ++i) h[i] = double(i);
  double *din, *dout;
  CHECK(musaMalloc(&din, nn * 8));
  CHECK(musaMalloc(&dout, nn * 8));
  CHECK(musaMemcpy(din, h.data(), nn * 8, musaMemcpyHostToDevice));
  auto op = [&] { transpose_f64<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(din, dout, n); };
  warm(op);
  std::vector<double> o(nn);
  CHECK(musaMemcpy(o.data(), dout, nn * 8, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < nn; i += 10007) {
    size_t r = i / n, c = i % n;
    if (o[c * n + r] != h[i]) {
      fail("transpose_f64", "n=4096", long(i), o[c * n + r], h[i]);
      break;
    }
  }
  report("transpose_f64", "n=4096", time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ---- one block reduces everything (an under-filled GPU) --------------------------------------
__global__ void one_block_sum(const float *in, float *out, int n) {
  __shared__ float s[1024];
  float v = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) v += in[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = s[0];
}

// ---- contended atomicMax: 2^22 threads onto 64 addresses -----------------------------------
__global__ void atomic_max64(const int *in, int *slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMax(&slots[i % 64], in[i]);
}

static void bench_small_grid_and_atomics() {
  const int n = 1 << 20;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = float(i % 8);
  float *dx, *ds;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&ds, 4));
  CHECK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { one_block_sum<<<1, 1024>>>(dx, ds, n); };
  warm(op);
  float s = 0;
  CHECK(musaMemcpy(&s, ds, 4, musaMemcpyDeviceToHost));
  if (s != 3.5f * n) fail("one_block_sum", "n=1048576", 0, s, 3.5 * n);
  report("one_block_sum", "n=1048576", time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(ds));

  const int m = 1 << 22;
  std::vector<int> v(m);
  for (int i = 0; i < m; ++i) v[i] = int(hash_u32(unsigned(i)) % 1000000);
  int *dv, *dslots;
  CHECK(musaMalloc(&dv, m * 4));
  CHECK(musaMalloc(&dslots, 64 * 4));
  CHECK(musaMemcpy(dv, v.data(), m * 4, musaMemcpyHostToDevice));
  CHECK(musaMemset(dslots, 0, 64 * 4));
  auto amax = [&] { atomic_max64<<<m / 256, 256>>>(dv, dslots, m); };
  warm(amax);
  std::vector<int> slots(64), want(64, 0);
  CHECK(musaMemcpy(slots.data(), dslots, 64 * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) want[i % 64] = std::max(want[i % 64], v[i]);
  for (int k = 0; k < 64; ++k)
    if (slots[k] != want[k]) { fail("atomic_max64", "n=4194304", k, slots[k], want[k]); break; }
  report("atomic_max64", "n=4194304", time_median(amax));
  CHECK(musaFree(dv));
  CHECK(musaFree(dslots));
}

// ---- precise powf and logf -------------------------------------------------------------------
__global__ void pow_log(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = powf(x[i], 2.5f) + logf(x[i] + 1.f);
}

static void bench_pow_log() {
  const int n = 1 << 22;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = 0.5f + float(i % 1000) / 100.f;
  float *dx, *dy;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&dy, n * 4));
  CHECK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { pow_log<<<n / 256, 256>>>(dx, dy, n); };
  warm(op);
  std::vector<float> y(n);
  CHECK(musaMemcpy(y.data(), dy, n * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 997) {
    double want = std::pow(double(x[i]), 2.5) + std::log(double(x[i]) + 1.0);
    if (!near(y[i], want, 1e-5)) { fail("pow_log", "n=4194304", i, y[i], want); break; }
  }
  report("pow_log", "n=4194304", time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- small pinned copies, one after another --------------------------------------------------
static void bench_small_pinned_copies() {
  const size_t bytes = 4096;
  const int copies = 50;
  void *host, *dev;
  CHECK(musaMallocHost(&host, bytes));
  CHECK(musaMalloc(&dev, bytes));
  for (size_t i = 0; i < bytes; ++i) static_cast<unsigned char *>(host)[i] = (unsigned char)i;
  auto op = [&] {
    for (int k = 0; k < copies; ++k) {
      CHECK(musaMemcpyAsync(dev, host, bytes, musaMemcpyHostToDevice, 0));
      CHECK(musaMemcpyAsync(host, dev, bytes, musaMemcpyDeviceToHost, 0));
    }
  };
  warm(op);
  for (size_t i = 0; i < bytes; i += 61)
    if (static_cast<unsigned char *>(host)[i] != (unsigned char)i) {
      fail("pinned_pingpong", "bytes=4096,copies=100", long(i),
           static_cast<unsigned char *>(host)[i], double((unsigned char)i));
      break;
    }
  report("pinned_pingpong", "bytes=4096,copies=100", time_median(op));
  CHECK(musaFreeHost(host));
  CHECK(musaFree(dev));
}

int main(int argc, char **argv) {
  if (argc > 1) g_repeats = std::max(1, std::atoi(argv[1]));
  CHECK(musaEventCreate(&g_start));
  CHECK(musaEventCreate(&g_stop));
  bench_softmax();
  bench_streaming();
  bench_rgb();
  bench_gather_scatter();
  bench_kmeans();
  bench_mc_pi();
  bench_matmul_reg();
  bench_warp_level();
  bench_fma_ilp();
  bench_transpose_f64();
  bench_small_grid_and_atomics();
  bench_pow_log();
  bench_small_pinned_copies();
  CHECK(musaEventDestroy(g_start));
  CHECK(musaEventDestroy(g_stop));
  CHECK(musaDeviceSynchronize());
  if (g_failures) {
    std::printf("FAILED %d config(s)\n", g_failures);
    return 1;
  }
  return 0;
}
