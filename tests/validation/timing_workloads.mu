// Timing-validation suite 3 ("workloads"): application-style kernels, written as a CUDA
// programmer would write them, that neither timing_suite.mu nor timing_mechanisms.mu contains:
// double-precision FMA chains, precise division and square roots, integer division by a
// run-time divisor, 64-bit hashing, a Sobel filter on a byte image, array-of-structs against
// struct-of-arrays, a misaligned copy, constant memory read warp-uniformly and per lane, an
// unpadded shared-memory transpose, a block-level scan, a bitonic sort in shared memory, CSR
// SpMV, an n-body step, Mandelbrot, Black-Scholes, float atomics to random addresses,
// ballot-based stream compaction, a 3D 7-point stencil, small kernels on four streams at once,
// memsets with small device-to-host copies, a captured graph against the same launches on a
// stream, 96 KB of dynamic shared memory per block, half-precision conversions, and a
// reduction's loads with and without instruction-level parallelism. Built and run like
// timing_suite.mu (see README.md); the model was not fitted to these.
//
// Usage: timing_workloads [R]   R timed repeats per config (default 1), after one warm-up.
// Output: RESULT <kernel> <config> <median_ms>; FAIL lines when a warm-up result is wrong.
#include <musa_runtime.h>
#include <musa_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
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

__host__ __device__ inline unsigned hash_u32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// A small integer in [-4, 4]: sums and products of a few of them are exact in float.
static float small_int(unsigned i, unsigned seed) {
  return float(int(hash_u32(i + seed) % 9) - 4);
}

// ---------------------------------------------------------------------------------------------
// Kernels

#include "timing_workloads_kernels.h"

// ---------------------------------------------------------------------------------------------
// Benchmarks

static void bench_arithmetic() {
  {
    const int n = 1 << 19;
    double *d;
    CHECK(musaMalloc(&d, n * sizeof(double)));
    std::vector<double> h(n);
    for (int iters : {128, 512}) {
      char cfg[64];
      std::snprintf(cfg, sizeof cfg, "n=%d,iters=%d", n, iters);
      auto op = [&] { dfma_chain<<<n / 256, 256>>>(d, n, iters); };
      warm(op);
      CHECK(musaMemcpy(h.data(), d, n * sizeof(double), musaMemcpyDeviceToHost));
      for (int i : {0, 5, n - 1}) {
        double v = double(i & 15);
        for (int k = 0; k < iters; ++k) v = std::fma(v, 0.999, 0.25);
        if (h[i] != v) { fail("dfma_chain", cfg, i, h[i], v); break; }
      }
      report("dfma_chain", cfg, time_median(op));
    }
    CHECK(musaFree(d));
  }
  {
    const int n = 1 << 22;
    const char *cfg = "n=4194304";
    std::vector<float> x(n), h(n);
    for (int i = 0; i < n; ++i) x[i] = float(hash_u32(i) % 10000) * 0.01f;
    float *dx, *dout;
    CHECK(musaMalloc(&dx, n * sizeof(float)));
    CHECK(musaMalloc(&dout, n * sizeof(float)));
    CHECK(musaMemcpy(dx, x.data(), n * sizeof(float), musaMemcpyHostToDevice));
    auto op = [&] { div_sqrt<<<n / 256, 256>>>(dx, dout, n); };
    warm(op);
    CHECK(musaMemcpy(h.data(), dout, n * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 97) {
      float a = x[i], v = a;
      for (int k = 0; k < 8; ++k) v = std::sqrt(v + a) / (v + 1.0f);
      if (std::fabs(h[i] - v) > 1e-6f * std::fabs(v)) { fail("div_sqrt", cfg, i, h[i], v); break; }
    }
    report("div_sqrt", cfg, time_median(op));
    CHECK(musaFree(dx));
    CHECK(musaFree(dout));
  }
  {
    const int n = 1 << 22;
    const unsigned d = 1000003;
    const char *cfg = "n=4194304,d=1000003";
    std::vector<unsigned> in(n), h(n);
    for (int i = 0; i < n; ++i) in[i] = hash_u32(i);
    unsigned *din, *dout;
    CHECK(musaMalloc(&din, n * sizeof(unsigned)));
    CHECK(musaMalloc(&dout, n * sizeof(unsigned)));
    CHECK(musaMemcpy(din, in.data(), n * sizeof(unsigned), musaMemcpyHostToDevice));
    auto op = [&] { int_divmod<<<n / 256, 256>>>(din, dout, n, d); };
    warm(op);
    CHECK(musaMemcpy(h.data(), dout, n * sizeof(unsigned), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 13) {
      unsigned x = in[i], acc = 0;
      for (int k = 0; k < 16; ++k) {
        acc += x / d + x % d;
        x = x * 1664525u + 1013904223u;
      }
      if (h[i] != acc) { fail("int_divmod", cfg, i, h[i], acc); break; }
    }
    report("int_divmod", cfg, time_median(op));
    CHECK(musaFree(din));
    CHECK(musaFree(dout));
  }
  {
    const int n = 1 << 20, rounds = 128;
    const char *cfg = "n=1048576,rounds=128";
    unsigned long long *d;
    CHECK(musaMalloc(&d, n * sizeof(unsigned long long)));
    auto op = [&] { hash64<<<n / 256, 256>>>(d, n, rounds); };
    warm(op);
    std::vector<unsigned long long> h(n);
    CHECK(musaMemcpy(h.data(), d, n * sizeof(unsigned long long), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 1021) {
      unsigned long long x = (unsigned long long)i;
      for (int k = 0; k < rounds; ++k) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        x ^= x >> 29;
      }
      if (h[i] != x) { fail("hash64", cfg, i, double(h[i]), double(x)); break; }
    }
    report("hash64", cfg, time_median(op));
    CHECK(musaFree(d));
  }
}

static void bench_sobel() {
  const int nx = 2048, ny = 2048;
  const char *cfg = "nx=2048,ny=2048";
  const size_t np = (size_t)nx * ny;
  std::vector<unsigned char> img(np), h(np);
  for (size_t i = 0; i < np; ++i) img[i] = (unsigned char)(hash_u32(unsigned(i)) & 255);
  unsigned char *din, *dout;
  CHECK(musaMalloc(&din, np));
  CHECK(musaMalloc(&dout, np));
  CHECK(musaMemcpy(din, img.data(), np, musaMemcpyHostToDevice));
  auto op = [&] { sobel_u8<<<dim3(nx / 32, ny / 8), dim3(32, 8)>>>(din, dout, nx, ny); };
  warm(op);
  CHECK(musaMemcpy(h.data(), dout, np, musaMemcpyDeviceToHost));
  for (int y = 0; y < ny; ++y) {
    bool bad = false;
    for (int x = 0; x < nx; ++x) {
      size_t c = (size_t)y * nx + x;
      int want = 0;
      if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
        auto p = [&](int dx, int dy) { return int(img[c + (long)dy * nx + dx]); };
        int gx = (p(1, -1) + 2 * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2 * p(-1, 0) + p(-1, 1));
        int gy = (p(-1, 1) + 2 * p(0, 1) + p(1, 1)) - (p(-1, -1) + 2 * p(0, -1) + p(1, -1));
        want = std::min(255, std::abs(gx) + std::abs(gy));
      }
      if (h[c] != want) {
        fail("sobel_u8", cfg, long(c), h[c], want);
        bad = true;
        break;
      }
    }
    if (bad) break;
  }
  report("sobel_u8", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

static void bench_layouts() {
  const int n = 1 << 22;
  const char *cfg = "n=4194304";
  std::vector<Vec3> aos(n);
  std::vector<float> x(n), y(n), z(n), want(n), h(n);
  for (int i = 0; i < n; ++i) {
    x[i] = aos[i].x = small_int(i, 1);
    y[i] = aos[i].y = small_int(i, 2);
    z[i] = aos[i].z = small_int(i, 3);
    want[i] = x[i] * x[i] + y[i] * y[i] + z[i] * z[i];
  }
  Vec3 *dp;
  float *dx, *dy, *dz, *dout;
  CHECK(musaMalloc(&dp, n * sizeof(Vec3)));
  CHECK(musaMalloc(&dx, n * sizeof(float)));
  CHECK(musaMalloc(&dy, n * sizeof(float)));
  CHECK(musaMalloc(&dz, n * sizeof(float)));
  CHECK(musaMalloc(&dout, n * sizeof(float)));
  CHECK(musaMemcpy(dp, aos.data(), n * sizeof(Vec3), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dy, y.data(), n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dz, z.data(), n * sizeof(float), musaMemcpyHostToDevice));
  for (int soa = 0; soa < 2; ++soa) {
    const char *name = soa ? "soa_norm2" : "aos_norm2";
    auto op = [&] {
      if (soa) soa_norm2<<<n / 256, 256>>>(dx, dy, dz, dout, n);
      else aos_norm2<<<n / 256, 256>>>(dp, dout, n);
    };
    CHECK(musaMemset(dout, 0, n * sizeof(float)));
    warm(op);
    CHECK(musaMemcpy(h.data(), dout, n * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (h[i] != want[i]) { fail(name, cfg, i, h[i], want[i]); break; }
    report(name, cfg, time_median(op));
  }
  CHECK(musaFree(dp));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
  CHECK(musaFree(dz));
  CHECK(musaFree(dout));

  // A copy whose source starts one float (4 bytes) past a 256-byte boundary.
  const int nmax = 1 << 24;
  std::vector<float> in(nmax + 1), out(nmax);
  for (int i = 0; i <= nmax; ++i) in[i] = float(i & 0xffff);
  float *din, *dcopy;
  CHECK(musaMalloc(&din, (nmax + 1) * sizeof(float)));
  CHECK(musaMalloc(&dcopy, nmax * sizeof(float)));
  CHECK(musaMemcpy(din, in.data(), (nmax + 1) * sizeof(float), musaMemcpyHostToDevice));
  for (int m : {1 << 22, 1 << 24}) {
    char mcfg[64];
    std::snprintf(mcfg, sizeof mcfg, "n=%d", m);
    auto op = [&] { copy_f32<<<m / 256, 256>>>(din + 1, dcopy, m); };
    warm(op);
    CHECK(musaMemcpy(out.data(), dcopy, m * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < m; ++i)
      if (out[i] != in[i + 1]) { fail("copy_misaligned", mcfg, i, out[i], in[i + 1]); break; }
    report("copy_misaligned", mcfg, time_median(op));
  }
  CHECK(musaFree(din));
  CHECK(musaFree(dcopy));
}

static void bench_constant() {
  const int n = 1 << 20, iters = 64;
  const char *cfg = "n=1048576,iters=64";
  std::vector<float> table(1024), h(n);
  for (int k = 0; k < 1024; ++k) table[k] = float(k % 17);
  CHECK(musaMemcpyToSymbol(c_table, table.data(), sizeof(float) * 1024));
  float *dout;
  CHECK(musaMalloc(&dout, n * sizeof(float)));
  for (int lane = 0; lane < 2; ++lane) {
    const char *name = lane ? "const_lane" : "const_uniform";
    auto op = [&] {
      if (lane) const_lane<<<n / 256, 256>>>(dout, n, iters);
      else const_uniform<<<n / 256, 256>>>(dout, n, iters);
    };
    warm(op);
    CHECK(musaMemcpy(h.data(), dout, n * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 101) {
      int b = i / 256, t = i % 256;
      float s = 0.f;
      for (int k = 0; k < iters; ++k) s += table[(k * 37 + (lane ? t * 5 : b)) & 1023];
      if (h[i] != s) { fail(name, cfg, i, h[i], s); break; }
    }
    report(name, cfg, time_median(op));
  }
  CHECK(musaFree(dout));
}

static void bench_transpose_nopad() {
  const int n = 4096;
  const char *cfg = "n=4096";
  const size_t nn = (size_t)n * n;
  std::vector<float> in(nn), h(nn);
  for (size_t i = 0; i < nn; ++i) in[i] = float(i % 100003);
  float *din, *dout;
  CHECK(musaMalloc(&din, nn * sizeof(float)));
  CHECK(musaMalloc(&dout, nn * sizeof(float)));
  CHECK(musaMemcpy(din, in.data(), nn * sizeof(float), musaMemcpyHostToDevice));
  auto op = [&] { transpose_nopad<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(din, dout, n); };
  warm(op);
  CHECK(musaMemcpy(h.data(), dout, nn * sizeof(float), musaMemcpyDeviceToHost));
  for (size_t y = 0; y < (size_t)n; ++y) {
    bool bad = false;
    for (size_t x = 0; x < (size_t)n; ++x)
      if (h[x * n + y] != in[y * n + x]) {
        fail("transpose_nopad", cfg, long(x * n + y), h[x * n + y], in[y * n + x]);
        bad = true;
        break;
      }
    if (bad) break;
  }
  report("transpose_nopad", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

static void bench_scan_sort() {
  {
    const int n = 1 << 22;
    const char *cfg = "n=4194304,block=256";
    std::vector<int> in(n), h(n);
    for (int i = 0; i < n; ++i) in[i] = int(hash_u32(i) % 16);
    int *din, *dout;
    CHECK(musaMalloc(&din, n * sizeof(int)));
    CHECK(musaMalloc(&dout, n * sizeof(int)));
    CHECK(musaMemcpy(din, in.data(), n * sizeof(int), musaMemcpyHostToDevice));
    auto op = [&] { scan_block<<<n / 256, 256>>>(din, dout, n); };
    warm(op);
    CHECK(musaMemcpy(h.data(), dout, n * sizeof(int), musaMemcpyDeviceToHost));
    int s = 0;
    for (int i = 0; i < n; ++i) {
      s = (i % 256 ? s : 0) + in[i];
      if (h[i] != s) { fail("scan_block", cfg, i, h[i], s); break; }
    }
    report("scan_block", cfg, time_median(op));
    CHECK(musaFree(din));
    CHECK(musaFree(dout));
  }
  {
    const int n = 1 << 20;
    const char *cfg = "n=1048576,segment=1024";
    std::vector<unsigned> in(n), h(n);
    for (int i = 0; i < n; ++i) in[i] = hash_u32(i + 99);
    unsigned *din, *dout;
    CHECK(musaMalloc(&din, n * sizeof(unsigned)));
    CHECK(musaMalloc(&dout, n * sizeof(unsigned)));
    CHECK(musaMemcpy(din, in.data(), n * sizeof(unsigned), musaMemcpyHostToDevice));
    auto op = [&] { bitonic_sort1024<<<n / 1024, 1024>>>(din, dout); };
    warm(op);
    CHECK(musaMemcpy(h.data(), dout, n * sizeof(unsigned), musaMemcpyDeviceToHost));
    std::vector<unsigned> want(in);
    for (int b = 0; b < n; b += 1024) std::sort(want.begin() + b, want.begin() + b + 1024);
    for (int i = 0; i < n; ++i)
      if (h[i] != want[i]) { fail("bitonic_sort1024", cfg, i, h[i], want[i]); break; }
    report("bitonic_sort1024", cfg, time_median(op));
    CHECK(musaFree(din));
    CHECK(musaFree(dout));
  }
}

static void bench_spmv() {
  // 2^18 rows of 8 to 40 nonzeros at hashed columns; values and x small integers (exact).
  const int rows = 1 << 18;
  const char *cfg = "rows=262144,nnz=8..40";
  std::vector<int> row_ptr(rows + 1, 0);
  for (int r = 0; r < rows; ++r) row_ptr[r + 1] = row_ptr[r] + 8 + int(hash_u32(r) % 33);
  const int nnz = row_ptr[rows];
  std::vector<int> col(nnz);
  std::vector<float> val(nnz), x(rows), want(rows), h(rows);
  for (int k = 0; k < nnz; ++k) {
    col[k] = int(hash_u32(k + 12345) % rows);
    val[k] = small_int(k, 7);
  }
  for (int c = 0; c < rows; ++c) x[c] = small_int(c, 8);
  for (int r = 0; r < rows; ++r) {
    float s = 0.f;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += val[k] * x[col[k]];
    want[r] = s;
  }
  int *drp, *dcol;
  float *dval, *dx, *dy;
  CHECK(musaMalloc(&drp, (rows + 1) * sizeof(int)));
  CHECK(musaMalloc(&dcol, nnz * sizeof(int)));
  CHECK(musaMalloc(&dval, nnz * sizeof(float)));
  CHECK(musaMalloc(&dx, rows * sizeof(float)));
  CHECK(musaMalloc(&dy, rows * sizeof(float)));
  CHECK(musaMemcpy(drp, row_ptr.data(), (rows + 1) * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dcol, col.data(), nnz * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dval, val.data(), nnz * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), rows * sizeof(float), musaMemcpyHostToDevice));
  auto op = [&] { spmv_csr<<<rows / 256, 256>>>(drp, dcol, dval, dx, dy, rows); };
  warm(op);
  CHECK(musaMemcpy(h.data(), dy, rows * sizeof(float), musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r)
    if (h[r] != want[r]) { fail("spmv_csr", cfg, r, h[r], want[r]); break; }
  report("spmv_csr", cfg, time_median(op));
  CHECK(musaFree(drp));
  CHECK(musaFree(dcol));
  CHECK(musaFree(dval));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

static void bench_nbody() {
  const int n = 16384, block = 128;
  const float dt = 0.01f, eps2 = 0.01f;
  const char *cfg = "n=16384,block=128";
  std::vector<float4> pos(n), vel(n), h(n);
  for (int i = 0; i < n; ++i) {
    auto u = [&](unsigned seed) { return float(hash_u32(i * 4 + seed) % 20001) * 1e-4f - 1.0f; };
    pos[i].x = u(0);
    pos[i].y = u(1);
    pos[i].z = u(2);
    pos[i].w = 1.0f + 0.5f * u(3);
    vel[i].x = vel[i].y = vel[i].z = 0.25f;
    vel[i].w = 0.f;
  }
  float4 *dpos, *dvel, *dout;
  CHECK(musaMalloc(&dpos, n * sizeof(float4)));
  CHECK(musaMalloc(&dvel, n * sizeof(float4)));
  CHECK(musaMalloc(&dout, n * sizeof(float4)));
  CHECK(musaMemcpy(dpos, pos.data(), n * sizeof(float4), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dvel, vel.data(), n * sizeof(float4), musaMemcpyHostToDevice));
  auto op = [&] { nbody_step<<<n / block, block>>>(dpos, dvel, dout, n, dt, eps2); };
  warm(op);
  CHECK(musaMemcpy(h.data(), dout, n * sizeof(float4), musaMemcpyDeviceToHost));
  // Sampled bodies against a double-precision sum, to within 1e-3 of the sum of magnitudes.
  for (int i = 0; i < n; i += 257) {
    double a[3] = {0, 0, 0}, mag = 0;
    for (int j = 0; j < n; ++j) {
      double d[3] = {double(pos[j].x) - pos[i].x, double(pos[j].y) - pos[i].y,
                     double(pos[j].z) - pos[i].z};
      double inv = 1.0 / std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2);
      double s = pos[j].w * inv * inv * inv;
      for (int k = 0; k < 3; ++k) a[k] += d[k] * s;
      mag += std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) * s;
    }
    const float got[3] = {h[i].x, h[i].y, h[i].z};
    bool bad = false;
    for (int k = 0; k < 3 && !bad; ++k) {
      double want = 0.25 + a[k] * dt;
      if (std::fabs(got[k] - want) > 1e-3 * mag * dt + 1e-6) {
        fail("nbody_step", cfg, i, got[k], want);
        bad = true;
      }
    }
    if (bad) break;
  }
  report("nbody_step", cfg, time_median(op));
  CHECK(musaFree(dpos));
  CHECK(musaFree(dvel));
  CHECK(musaFree(dout));
}

static void bench_mandelbrot() {
  const int nx = 1024, ny = 1024, max_iter = 256;
  const char *cfg = "nx=1024,ny=1024,max_iter=256";
  int *dout;
  CHECK(musaMalloc(&dout, nx * ny * sizeof(int)));
  auto op = [&] { mandelbrot<<<dim3(nx / 16, ny / 16), dim3(16, 16)>>>(dout, nx, ny, max_iter); };
  warm(op);
  std::vector<int> h(nx * ny);
  CHECK(musaMemcpy(h.data(), dout, nx * ny * sizeof(int), musaMemcpyDeviceToHost));
  // Every 4th row; a few pixels on the set's edge may round differently, so allow 16.
  int wrong = 0, first = -1;
  for (int py = 0; py < ny; py += 4)
    for (int px = 0; px < nx; ++px) {
      float cx = -2.0f + 2.5f * px / nx, cy = -1.25f + 2.5f * py / ny;
      float x = 0.f, y = 0.f;
      int it = 0;
      while (it < max_iter && std::fma(x, x, y * y) <= 4.0f) {
        float xn = std::fma(x, x, std::fma(-y, y, cx));
        y = std::fma(x + x, y, cy);
        x = xn;
        ++it;
      }
      if (h[py * nx + px] != it && wrong++ == 0) first = py * nx + px;
    }
  if (wrong > 16) fail("mandelbrot", cfg, first, wrong, 0);
  report("mandelbrot", cfg, time_median(op));
  CHECK(musaFree(dout));
}

static void bench_black_scholes() {
  const int n = 1 << 22;
  const float r = 0.02f, v = 0.30f;
  const char *cfg = "n=4194304";
  std::vector<float> S(n), X(n), T(n), call(n), put(n);
  for (int i = 0; i < n; ++i) {
    S[i] = 5.0f + float(hash_u32(3 * i) % 25001) * 1e-3f;       // 5 .. 30
    X[i] = 1.0f + float(hash_u32(3 * i + 1) % 99001) * 1e-3f;   // 1 .. 100
    T[i] = 0.25f + float(hash_u32(3 * i + 2) % 9751) * 1e-3f;   // 0.25 .. 10
  }
  float *dS, *dX, *dT, *dc, *dp;
  CHECK(musaMalloc(&dS, n * sizeof(float)));
  CHECK(musaMalloc(&dX, n * sizeof(float)));
  CHECK(musaMalloc(&dT, n * sizeof(float)));
  CHECK(musaMalloc(&dc, n * sizeof(float)));
  CHECK(musaMalloc(&dp, n * sizeof(float)));
  CHECK(musaMemcpy(dS, S.data(), n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dX, X.data(), n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dT, T.data(), n * sizeof(float), musaMemcpyHostToDevice));
  auto op = [&] { black_scholes<<<n / 256, 256>>>(dS, dX, dT, dc, dp, n, r, v); };
  warm(op);
  CHECK(musaMemcpy(call.data(), dc, n * sizeof(float), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(put.data(), dp, n * sizeof(float), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 997) {
    double s = S[i], x = X[i], t = T[i];
    double d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / (v * std::sqrt(t));
    double d2 = d1 - v * std::sqrt(t);
    double n1 = 0.5 * std::erfc(-d1 / std::sqrt(2.0)), n2 = 0.5 * std::erfc(-d2 / std::sqrt(2.0));
    double xe = x * std::exp(-r * t);
    double want_c = s * n1 - xe * n2, want_p = xe * (1 - n2) - s * (1 - n1);
    double tol = 1e-4 * (s + x);
    if (std::fabs(call[i] - want_c) > tol || std::fabs(put[i] - want_p) > tol) {
      bool c = std::fabs(call[i] - want_c) > tol;
      fail("black_scholes", cfg, i, c ? call[i] : put[i], c ? want_c : want_p);
      break;
    }
  }
  report("black_scholes", cfg, time_median(op));
  CHECK(musaFree(dS));
  CHECK(musaFree(dX));
  CHECK(musaFree(dT));
  CHECK(musaFree(dc));
  CHECK(musaFree(dp));
}

static void bench_atomics_compaction() {
  {
    const int n = 1 << 22, nslots = 1 << 20;
    const char *cfg = "n=4194304,slots=1048576";
    float *dslots;
    CHECK(musaMalloc(&dslots, nslots * sizeof(float)));
    CHECK(musaMemset(dslots, 0, nslots * sizeof(float)));
    auto op = [&] { atomic_scatter<<<n / 256, 256>>>(dslots, nslots - 1, n); };
    warm(op);
    std::vector<float> h(nslots), want(nslots, 0.f);
    for (int i = 0; i < n; ++i) want[hash_u32(i) & (nslots - 1)] += 1.0f;
    CHECK(musaMemcpy(h.data(), dslots, nslots * sizeof(float), musaMemcpyDeviceToHost));
    for (int k = 0; k < nslots; ++k)
      if (h[k] != want[k]) { fail("atomic_scatter_f32", cfg, k, h[k], want[k]); break; }
    // The repeats keep adding to the slots (not checked).
    report("atomic_scatter_f32", cfg, time_median(op));
    CHECK(musaFree(dslots));
  }
  {
    // Each op resets the counter (a 4-byte memset) and compacts.
    const int n = 1 << 22;
    const char *cfg = "n=4194304";
    std::vector<int> in(n), h(n);
    for (int i = 0; i < n; ++i) in[i] = int(hash_u32(i + 5) & 0xffff);
    int *din, *dout;
    unsigned *dcount;
    CHECK(musaMalloc(&din, n * sizeof(int)));
    CHECK(musaMalloc(&dout, n * sizeof(int)));
    CHECK(musaMalloc(&dcount, sizeof(unsigned)));
    CHECK(musaMemcpy(din, in.data(), n * sizeof(int), musaMemcpyHostToDevice));
    auto op = [&] {
      CHECK(musaMemsetAsync(dcount, 0, sizeof(unsigned), 0));
      compact_even<<<n / 256, 256>>>(din, dout, dcount, n);
    };
    warm(op);
    unsigned count = 0, want_count = 0;
    long long sum = 0, want_sum = 0;
    for (int i = 0; i < n; ++i)
      if (in[i] % 2 == 0) {
        ++want_count;
        want_sum += in[i];
      }
    CHECK(musaMemcpy(&count, dcount, sizeof count, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(h.data(), dout, n * sizeof(int), musaMemcpyDeviceToHost));
    if (count != want_count) {
      fail("compact_even", cfg, 0, count, want_count);
    } else {
      unsigned odd = 0;
      for (unsigned k = 0; k < count; ++k) {
        sum += h[k];
        odd += h[k] & 1;
      }
      if (odd || sum != want_sum) fail("compact_even", cfg, odd, double(sum), double(want_sum));
    }
    report("compact_even", cfg, time_median(op));
    CHECK(musaFree(din));
    CHECK(musaFree(dout));
    CHECK(musaFree(dcount));
  }
}

static void bench_stencil3d() {
  const int nx = 256, ny = 256, nz = 256;
  const char *cfg = "nx=256,ny=256,nz=256";
  const size_t np = (size_t)nx * ny * nz, plane = (size_t)nx * ny;
  std::vector<float> in(np), h(np);
  for (size_t i = 0; i < np; ++i) in[i] = small_int(unsigned(i), 21);
  float *din, *dout;
  CHECK(musaMalloc(&din, np * sizeof(float)));
  CHECK(musaMalloc(&dout, np * sizeof(float)));
  CHECK(musaMemcpy(din, in.data(), np * sizeof(float), musaMemcpyHostToDevice));
  dim3 grid(nx / 32, ny / 8, nz), block(32, 8);
  auto op = [&] { stencil3d_7pt<<<grid, block>>>(din, dout, nx, ny, nz); };
  warm(op);
  CHECK(musaMemcpy(h.data(), dout, np * sizeof(float), musaMemcpyDeviceToHost));
  // Small integers times powers of two: exact in any evaluation order.
  for (size_t c = 0; c < np; ++c) {
    size_t x = c % nx, y = c / nx % ny, z = c / plane;
    float want = in[c];
    if (x > 0 && y > 0 && z > 0 && x < size_t(nx - 1) && y < size_t(ny - 1) && z < size_t(nz - 1))
      want = 0.25f * in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] +
                                       in[c - plane] + in[c + plane]);
    if (h[c] != want) { fail("stencil3d_7pt", cfg, long(c), h[c], want); break; }
  }
  report("stencil3d_7pt", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

static void bench_streams() {
  // 32 launches of 64 one-warp blocks, an 8192-step FMA chain each (longer than a launch
  // call, so that streams can overlap), dealt round-robin to 4 streams (they run side by side)
  // or all on one. The streams are blocking streams, so the stop event on the legacy default
  // stream waits for all of them.
  const int blocks = 64, threads = 32, iters = 8192, launches = 32;
  const int per = blocks * threads;
  float *dout;
  CHECK(musaMalloc(&dout, (size_t)launches * per * sizeof(float)));
  musaStream_t st[4];
  for (musaStream_t &s : st) CHECK(musaStreamCreate(&s));
  std::vector<float> h((size_t)launches * per);
  for (int nstreams : {1, 4}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "streams=%d,launches=%d", nstreams, launches);
    auto op = [&] {
      for (int l = 0; l < launches; ++l)
        fma_loop<<<blocks, threads, 0, st[l % nstreams]>>>(dout + (size_t)l * per, iters);
    };
    CHECK(musaMemset(dout, 0, h.size() * sizeof(float)));
    warm(op);
    CHECK(musaMemcpy(h.data(), dout, h.size() * sizeof(float), musaMemcpyDeviceToHost));
    for (int l = 0; l < launches; ++l) {
      int i = l * per + 5 + (l % 7) * threads;
      float v = 5.0f;
      for (int k = 0; k < iters; ++k) v = std::fma(v, 0.999f, 0.5f);
      if (h[i] != v) { fail("streams_fma", cfg, i, h[i], v); break; }
    }
    report("streams_fma", cfg, time_median(op));
  }
  for (musaStream_t &s : st) CHECK(musaStreamDestroy(s));
  CHECK(musaFree(dout));
}

static void bench_small_copies() {
  // 50 rounds of: set 4 KB of device memory, copy it back to the host.
  const size_t bytes = 4096;
  const int reps = 50;
  const char *cfg = "bytes=4096,reps=50";
  unsigned char *d, *pinned, *pageable = (unsigned char *)std::malloc(bytes);
  CHECK(musaMalloc(&d, bytes));
  CHECK(musaMallocHost((void **)&pinned, bytes));
  for (int pin = 1; pin >= 0; --pin) {
    unsigned char *h = pin ? pinned : pageable;
    const char *name = pin ? "memset_d2h_pinned" : "memset_d2h_pageable";
    auto op = [&] {
      for (int k = 0; k < reps; ++k) {
        CHECK(musaMemset(d, k + 1, bytes));
        CHECK(musaMemcpy(h, d, bytes, musaMemcpyDeviceToHost));
      }
    };
    std::memset(h, 0, bytes);
    warm(op);
    for (size_t b = 0; b < bytes; ++b)
      if (h[b] != reps) { fail(name, cfg, long(b), h[b], reps); break; }
    report(name, cfg, time_median(op));
  }
  std::free(pageable);
  CHECK(musaFreeHost(pinned));
  CHECK(musaFree(d));
}

static void bench_graph() {
  // 20 one-warp kernels captured from a stream into a graph, replayed with one graph launch,
  // against the same 20 launches issued on the stream.
  const int kernels = 20;
  const char *cfg = "kernels=20";
  int *p;
  CHECK(musaMalloc(&p, sizeof(int)));
  musaStream_t s;
  CHECK(musaStreamCreate(&s));
  musaGraph_t graph;
  musaGraphExec_t exec;
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  for (int k = 0; k < kernels; ++k) bump<<<1, 32, 0, s>>>(p);
  CHECK(musaStreamEndCapture(s, &graph));
  CHECK(musaGraphInstantiate(&exec, graph, 0));
  for (int g = 1; g >= 0; --g) {
    const char *name = g ? "graph_replay" : "stream_launches";
    auto op = [&] {
      if (g) CHECK(musaGraphLaunch(exec, s));
      else for (int k = 0; k < kernels; ++k) bump<<<1, 32, 0, s>>>(p);
    };
    CHECK(musaMemset(p, 0, sizeof(int)));
    warm(op);
    int h = 0;
    CHECK(musaMemcpy(&h, p, sizeof h, musaMemcpyDeviceToHost));
    if (h != kernels) fail(name, cfg, 0, h, kernels);
    report(name, cfg, time_median(op));
  }
  CHECK(musaGraphExecDestroy(exec));
  CHECK(musaGraphDestroy(graph));
  CHECK(musaStreamDestroy(s));
  CHECK(musaFree(p));
}

static void bench_dynamic_smem() {
  // The same copy with 16 KB and with 96 KB of dynamic shared memory per 256-thread block
  // (96 KB needs the opt-in attribute and leaves room for two blocks per multiprocessor).
  const int n = 1 << 24;
  std::vector<float> in(n), h(n);
  for (int i = 0; i < n; ++i) in[i] = float(i & 0xfffff);
  float *din, *dout;
  CHECK(musaMalloc(&din, n * sizeof(float)));
  CHECK(musaMalloc(&dout, n * sizeof(float)));
  CHECK(musaMemcpy(din, in.data(), n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaFuncSetAttribute(smem_rotate_copy, musaFuncAttributeMaxDynamicSharedMemorySize,
                             96 * 1024));
  for (int kb : {16, 96}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d,smem=%dK", n, kb);
    const int len = kb * 1024 / 4, blocks = (n + len - 1) / len;
    auto op = [&] { smem_rotate_copy<<<blocks, 256, kb * 1024>>>(din, dout, n, len); };
    warm(op);
    CHECK(musaMemcpy(h.data(), dout, n * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int base = i / len * len, j = i - base;
      int src = base + (j + 1 < len ? j + 1 : 0);
      float want = src < n ? in[src] : 0.f;
      if (h[i] != want) { fail("smem_rotate_copy", cfg, i, h[i], want); break; }
    }
    report("smem_rotate_copy", cfg, time_median(op));
  }
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

static void bench_half_and_ilp() {
  const int n = 1 << 24;
  std::vector<float> in(n), h(n);
  for (int i = 0; i < n; ++i) in[i] = float(int(hash_u32(i) % 2000001) - 1000000) * 1e-3f;
  float *din, *dout;
  CHECK(musaMalloc(&din, n * sizeof(float)));
  CHECK(musaMalloc(&dout, n * sizeof(float)));
  CHECK(musaMemcpy(din, in.data(), n * sizeof(float), musaMemcpyHostToDevice));
  {
    const char *cfg = "n=16777216";
    auto op = [&] { half_roundtrip<<<n / 256, 256>>>(din, dout, n); };
    warm(op);
    CHECK(musaMemcpy(h.data(), dout, n * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 7) {
      float want = __half2float(__float2half(in[i]));
      if (h[i] != want) { fail("half_roundtrip", cfg, i, h[i], want); break; }
    }
    report("half_roundtrip", cfg, time_median(op));
  }
  {
    // 65536 threads (256 blocks of 256), 256 elements each; small integers, so both orders of
    // summation give the same exact sums.
    const int blocks = 256, threads = 256, nt = blocks * threads;
    const char *cfg = "n=16777216,threads=65536";
    for (int i = 0; i < n; ++i) in[i] = small_int(i, 31);
    CHECK(musaMemcpy(din, in.data(), n * sizeof(float), musaMemcpyHostToDevice));
    std::vector<float> want(nt, 0.f);
    for (int i = 0; i < n; ++i) want[i % nt] += in[i];
    for (int ilp = 0; ilp < 2; ++ilp) {
      const char *name = ilp ? "sum_ilp8" : "sum_stride1";
      auto op = [&] {
        if (ilp) sum_ilp8<<<blocks, threads>>>(din, dout, n);
        else sum_stride1<<<blocks, threads>>>(din, dout, n);
      };
      warm(op);
      CHECK(musaMemcpy(h.data(), dout, nt * sizeof(float), musaMemcpyDeviceToHost));
      for (int t = 0; t < nt; ++t)
        if (h[t] != want[t]) { fail(name, cfg, t, h[t], want[t]); break; }
      report(name, cfg, time_median(op));
    }
  }
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

int main(int argc, char **argv) {
  if (argc > 1) g_repeats = std::max(1, std::atoi(argv[1]));
  CHECK(musaEventCreate(&g_start));
  CHECK(musaEventCreate(&g_stop));
  bench_arithmetic();
  bench_sobel();
  bench_layouts();
  bench_constant();
  bench_transpose_nopad();
  bench_scan_sort();
  bench_spmv();
  bench_nbody();
  bench_mandelbrot();
  bench_black_scholes();
  bench_atomics_compaction();
  bench_stencil3d();
  bench_streams();
  bench_small_copies();
  bench_graph();
  bench_dynamic_smem();
  bench_half_and_ilp();
  CHECK(musaEventDestroy(g_start));
  CHECK(musaEventDestroy(g_stop));
  CHECK(musaDeviceSynchronize());
  if (g_failures) {
    std::printf("FAILED %d config(s)\n", g_failures);
    return 1;
  }
  return 0;
}
