// Timing-validation suite 2 ("mechanisms"): kernels and copies whose time is set by a
// mechanism the first suite does not exercise: same-address and warp-uniform atomics,
// compare-and-swap retry loops, local memory indexed at run time, dependent load chains,
// half2 arithmetic, vector loads, L2-resident re-reads, grids that under-fill the GPU, launch
// bursts, pitched 2D copies, pageable copies, thread-per-row gemv, integer hashing, a
// shared-memory-tiled convolution with weights passed by value, dependent FMA chains, special
// functions, shared-memory atomics and divergent branches. Built and run like
// timing_suite.mu (see README.md); the model was not fitted to these.
//
// Usage: timing_mechanisms [R]   R timed repeats per config (default 1), after one warm-up.
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

// Every thread adds to one counter (compilers aggregate a warp's same-address atomics).
__global__ void atomic_one_address(unsigned *counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(counter, 1u);
}

// Every thread adds to its block's bin (one address per warp, 64 addresses in all).
__global__ void atomic_block_bins(unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[blockIdx.x % 64], 1u);
}

// A float sum built from an atomicCAS retry loop, over `slots` addresses.
__global__ void cas_add(float *slots, int nslots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned *addr = reinterpret_cast<unsigned *>(&slots[i % nslots]);
  unsigned old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed, __float_as_uint(__uint_as_float(assumed) + 1.0f));
  } while (old != assumed);
}

// A per-thread array indexed by data: it lives in local memory.
__global__ void local_array(const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a[32];
  for (int k = 0; k < 32; ++k) a[k] = float(k + i % 7);
  float s = 0.f;
  int j = idx[i];
  for (int k = 0; k < 32; ++k) {
    s += a[j];
    j = (j * 5 + 3) & 31;
  }
  out[i] = s;
}

// Each thread follows its own chain of `steps` dependent loads through `next`.
__global__ void pointer_chase(const int *next, int *out, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = i * 97;
  for (int s = 0; s < steps; ++s) p = next[p];
  out[i] = p;
}

// half2 arithmetic: 64 fused multiply-adds per element pair.
__global__ void half2_fma(const __half2 *x, __half2 *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 a = x[i], acc = y[i];
  const __half2 m = __float2half2_rn(0.5f);
  for (int k = 0; k < 64; ++k) acc = __hfma2(a, m, acc);
  y[i] = acc;
}

__global__ void float4_copy(const float4 *in, float4 *out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

// Reads a small array (L2-resident) over and over.
__global__ void l2_reread(const float *in, float *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i & (m - 1)] * 2.0f;
}

// A grid-stride vector add launched with few blocks.
__global__ void grid_stride_add(const float *a, const float *b, float *c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    c[i] = a[i] + b[i];
}

__global__ void tiny_burst(int *p) {
  if (threadIdx.x == 0) atomicAdd(p, 1);
}

// y = A x with one thread per row of a row-major matrix (each thread streams its own row).
__global__ void gemv_row(const float *A, const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c) s += A[(size_t)r * cols + c] * x[c];
  y[r] = s;
}

// y = A x with one warp per row (coalesced, shuffle reduction).
__global__ void gemv_warp(const float *A, const float *x, float *y, int rows, int cols) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (warp >= rows) return;
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += A[(size_t)warp * cols + c] * x[c];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[warp] = s;
}

__global__ void xorshift(unsigned *out, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = i * 2654435761u + 1u;
  for (int k = 0; k < rounds; ++k) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  out[i] = x;
}

struct Weights5x5 {
  float w[25];
};

// 5x5 convolution over a 16x16 shared tile with a 2-pixel halo; weights passed by value.
__global__ void conv5x5(const float *in, float *out, int nx, int ny, Weights5x5 wt) {
  __shared__ float tile[20][20];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x0 = blockIdx.x * 16 - 2, y0 = blockIdx.y * 16 - 2;
  for (int j = ty; j < 20; j += 16)
    for (int i = tx; i < 20; i += 16) {
      int gx = min(max(x0 + i, 0), nx - 1), gy = min(max(y0 + j, 0), ny - 1);
      tile[j][i] = in[gy * nx + gx];
    }
  __syncthreads();
  float s = 0.f;
  for (int dy = 0; dy < 5; ++dy)
    for (int dx = 0; dx < 5; ++dx) s += wt.w[dy * 5 + dx] * tile[ty + dy][tx + dx];
  int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
  if (x < nx && y < ny) out[y * nx + x] = s;
}

// A chain of dependent FMAs per thread (no instruction-level parallelism).
__global__ void fma_chain(float *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = float(i & 7);
  for (int k = 0; k < iters; ++k) v = v * 0.5f + 1.0f;
  out[i] = v;
}

__global__ void special_funcs(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = in[i];
  for (int k = 0; k < 8; ++k) v = sqrtf(v + 1.0f) + expf(-v);
  out[i] = v;
}

// 256-bin histogram in shared memory, merged to global at the end of the block.
__global__ void shared_histogram(const unsigned *in, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] & 255], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

// Lanes of a warp split between a long and a short path.
__global__ void divergent(float *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = float(i & 15);
  if (threadIdx.x & 1)
    for (int k = 0; k < iters; ++k) v = v * 0.999f + 0.5f;
  else
    v = v + 1.0f;
  out[i] = v;
}

// ---------------------------------------------------------------------------------------------
// Benchmarks

static void bench_atomics() {
  unsigned *counter, *bins;
  CHECK(musaMalloc(&counter, sizeof(unsigned)));
  CHECK(musaMalloc(&bins, 64 * sizeof(unsigned)));
  for (int n : {1 << 20, 1 << 22}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d", n);
    auto op = [&] { atomic_one_address<<<n / 256, 256>>>(counter, n); };
    CHECK(musaMemset(counter, 0, sizeof(unsigned)));
    warm(op);
    unsigned h = 0;
    CHECK(musaMemcpy(&h, counter, sizeof h, musaMemcpyDeviceToHost));
    if (h != unsigned(n)) fail("atomic_one_address", cfg, 0, h, n);
    report("atomic_one_address", cfg, time_median(op));
  }
  {
    int n = 1 << 22;
    const char *cfg = "n=4194304";
    auto op = [&] { atomic_block_bins<<<n / 256, 256>>>(bins, n); };
    CHECK(musaMemset(bins, 0, 64 * sizeof(unsigned)));
    warm(op);
    std::vector<unsigned> h(64);
    CHECK(musaMemcpy(h.data(), bins, 64 * sizeof(unsigned), musaMemcpyDeviceToHost));
    for (int b = 0; b < 64; ++b)
      if (h[b] != unsigned(n / 64)) { fail("atomic_block_bins", cfg, b, h[b], n / 64); break; }
    report("atomic_block_bins", cfg, time_median(op));
  }
  float *slots;
  CHECK(musaMalloc(&slots, 1024 * sizeof(float)));
  for (int nslots : {1, 1024}) {
    int n = 1 << 16;
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d,slots=%d", n, nslots);
    auto op = [&] { cas_add<<<n / 256, 256>>>(slots, nslots, n); };
    CHECK(musaMemset(slots, 0, 1024 * sizeof(float)));
    warm(op);
    std::vector<float> h(nslots);
    CHECK(musaMemcpy(h.data(), slots, nslots * sizeof(float), musaMemcpyDeviceToHost));
    double total = std::accumulate(h.begin(), h.end(), 0.0);
    if (total != n) fail("cas_add", cfg, 0, total, n);
    report("cas_add", cfg, time_median(op));
  }
  CHECK(musaFree(counter));
  CHECK(musaFree(bins));
  CHECK(musaFree(slots));
}

static void bench_local_array() {
  for (int n : {1 << 18, 1 << 20}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d", n);
    std::vector<int> idx(n);
    for (int i = 0; i < n; ++i) idx[i] = int(hash_u32(i) & 31);
    int *d_idx;
    float *d_out;
    CHECK(musaMalloc(&d_idx, n * sizeof(int)));
    CHECK(musaMalloc(&d_out, n * sizeof(float)));
    CHECK(musaMemcpy(d_idx, idx.data(), n * sizeof(int), musaMemcpyHostToDevice));
    auto op = [&] { local_array<<<n / 256, 256>>>(d_idx, d_out, n); };
    warm(op);
    std::vector<float> out(n);
    CHECK(musaMemcpy(out.data(), d_out, n * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 997) {
      float s = 0.f;
      int j = idx[i];
      for (int k = 0; k < 32; ++k) { s += float(j + i % 7); j = (j * 5 + 3) & 31; }
      if (out[i] != s) { fail("local_array", cfg, i, out[i], s); break; }
    }
    report("local_array", cfg, time_median(op));
    CHECK(musaFree(d_idx));
    CHECK(musaFree(d_out));
  }
}

static void bench_pointer_chase() {
  // Chains through a random cycle over `m` ints; configurations: one warp in a 64 MB array
  // (DRAM latency), one warp in a 1 MB array (L2 latency), 132 blocks of 32 (many chains).
  struct Config { int m, blocks, steps; const char *name; };
  const Config configs[] = {{1 << 24, 1, 2048, "m=16777216,blocks=1"},
                            {1 << 18, 1, 2048, "m=262144,blocks=1"},
                            {1 << 24, 132, 512, "m=16777216,blocks=132"}};
  for (const Config &c : configs) {
    std::vector<int> order(c.m), next(c.m);
    std::iota(order.begin(), order.end(), 0);
    for (int i = c.m - 1; i > 0; --i) std::swap(order[i], order[hash_u32(i) % unsigned(i + 1)]);
    for (int i = 0; i < c.m; ++i) next[order[i]] = order[(i + 1) % c.m];
    int *d_next, *d_out;
    int threads = c.blocks * 32;
    CHECK(musaMalloc(&d_next, c.m * sizeof(int)));
    CHECK(musaMalloc(&d_out, threads * sizeof(int)));
    CHECK(musaMemcpy(d_next, next.data(), c.m * sizeof(int), musaMemcpyHostToDevice));
    auto op = [&] { pointer_chase<<<c.blocks, 32>>>(d_next, d_out, c.steps); };
    warm(op);
    std::vector<int> out(threads);
    CHECK(musaMemcpy(out.data(), d_out, threads * sizeof(int), musaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t += 37) {
      int p = (t * 97) % c.m;
      for (int s = 0; s < c.steps; ++s) p = next[p];
      if (out[t] != p) { fail("pointer_chase", c.name, t, out[t], p); break; }
    }
    report("pointer_chase", c.name, time_median(op));
    CHECK(musaFree(d_next));
    CHECK(musaFree(d_out));
  }
}

static void bench_vector_kinds() {
  const int n = 1 << 22; // half2 pairs; floats for float4/l2/grid-stride: 4n
  __half2 *hx, *hy;
  CHECK(musaMalloc(&hx, n * sizeof(__half2)));
  CHECK(musaMalloc(&hy, n * sizeof(__half2)));
  {
    std::vector<__half2> x(n, __float2half2_rn(1.0f)), y(n, __float2half2_rn(0.0f));
    CHECK(musaMemcpy(hx, x.data(), n * sizeof(__half2), musaMemcpyHostToDevice));
    auto op = [&] { half2_fma<<<n / 256, 256>>>(hx, hy, n); };
    CHECK(musaMemcpy(hy, y.data(), n * sizeof(__half2), musaMemcpyHostToDevice));
    warm(op);
    CHECK(musaMemcpy(y.data(), hy, n * sizeof(__half2), musaMemcpyDeviceToHost));
    if (__low2float(y[123]) != 32.0f) fail("half2_fma", "n=4194304", 123, __low2float(y[123]), 32);
    report("half2_fma", "n=4194304", time_median(op));
  }
  CHECK(musaFree(hx));
  CHECK(musaFree(hy));

  const int nf = 1 << 24;
  float *a, *b, *c;
  CHECK(musaMalloc(&a, nf * sizeof(float)));
  CHECK(musaMalloc(&b, nf * sizeof(float)));
  CHECK(musaMalloc(&c, nf * sizeof(float)));
  std::vector<float> ha(nf), hb(nf), hc(nf);
  for (int i = 0; i < nf; ++i) ha[i] = float(i % 1000), hb[i] = float(i % 77);
  CHECK(musaMemcpy(a, ha.data(), nf * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(b, hb.data(), nf * sizeof(float), musaMemcpyHostToDevice));
  {
    auto op = [&] { float4_copy<<<nf / 4 / 256, 256>>>((const float4 *)a, (float4 *)c, nf / 4); };
    warm(op);
    CHECK(musaMemcpy(hc.data(), c, nf * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < nf; i += 4099)
      if (hc[i] != ha[i]) { fail("float4_copy", "n=16777216", i, hc[i], ha[i]); break; }
    report("float4_copy", "n=16777216", time_median(op));
  }
  for (int m : {1 << 18, 1 << 20}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=16777216,m=%d", m);
    auto op = [&] { l2_reread<<<nf / 256, 256>>>(a, c, nf, m); };
    warm(op);
    CHECK(musaMemcpy(hc.data(), c, nf * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < nf; i += 4099)
      if (hc[i] != 2.0f * ha[i & (m - 1)]) { fail("l2_reread", cfg, i, hc[i], 2 * ha[i & (m - 1)]); break; }
    report("l2_reread", cfg, time_median(op));
  }
  for (int blocks : {8, 66, 1056}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=4194304,blocks=%d", blocks);
    const int n4 = 1 << 22;
    auto op = [&] { grid_stride_add<<<blocks, 256>>>(a, b, c, n4); };
    warm(op);
    CHECK(musaMemcpy(hc.data(), c, n4 * sizeof(float), musaMemcpyDeviceToHost));
    for (int i = 0; i < n4; i += 4099)
      if (hc[i] != ha[i] + hb[i]) { fail("grid_stride_add", cfg, i, hc[i], ha[i] + hb[i]); break; }
    report("grid_stride_add", cfg, time_median(op));
  }
  CHECK(musaFree(a));
  CHECK(musaFree(b));
  CHECK(musaFree(c));
}

static void bench_launch_burst() {
  int *p;
  CHECK(musaMalloc(&p, sizeof(int)));
  for (int launches : {10, 100}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "launches=%d", launches);
    auto op = [&] { for (int k = 0; k < launches; ++k) tiny_burst<<<1, 32>>>(p); };
    CHECK(musaMemset(p, 0, sizeof(int)));
    warm(op);
    int h = 0;
    CHECK(musaMemcpy(&h, p, sizeof h, musaMemcpyDeviceToHost));
    if (h != launches) fail("launch_burst", cfg, 0, h, launches);
    report("launch_burst", cfg, time_median(op));
  }
  CHECK(musaFree(p));
}

static void bench_copies() {
  // Pitched 2D device-to-device: 1000 floats wide, 4096 rows.
  {
    size_t width = 1000 * sizeof(float), rows = 4096, pitchA = 0, pitchB = 0;
    char *da, *db;
    CHECK(musaMallocPitch((void **)&da, &pitchA, width, rows));
    CHECK(musaMallocPitch((void **)&db, &pitchB, width, rows));
    std::vector<unsigned char> h(width * rows);
    for (size_t i = 0; i < h.size(); ++i) h[i] = (unsigned char)hash_u32(unsigned(i));
    CHECK(musaMemcpy2D(da, pitchA, h.data(), width, width, rows, musaMemcpyHostToDevice));
    auto op = [&] { CHECK(musaMemcpy2D(db, pitchB, da, pitchA, width, rows, musaMemcpyDeviceToDevice)); };
    warm(op);
    std::vector<unsigned char> back(width * rows);
    CHECK(musaMemcpy2D(back.data(), width, db, pitchB, width, rows, musaMemcpyDeviceToHost));
    if (back != h) fail("memcpy2d_d2d", "width=4000,rows=4096", 0, 0, 1);
    report("memcpy2d_d2d", "width=4000,rows=4096", time_median(op));
    CHECK(musaFree(da));
    CHECK(musaFree(db));
  }
  // Pageable and pinned host-to-device at 16 MB.
  {
    const size_t bytes = 16u << 20;
    unsigned char *pageable = (unsigned char *)std::malloc(bytes), *pinned, *d;
    CHECK(musaMallocHost((void **)&pinned, bytes));
    CHECK(musaMalloc(&d, bytes));
    for (size_t i = 0; i < bytes; ++i) pageable[i] = pinned[i] = (unsigned char)(i * 7);
    for (int pin = 0; pin < 2; ++pin) {
      unsigned char *src = pin ? pinned : pageable;
      const char *name = pin ? "memcpy_h2d_pinned" : "memcpy_h2d_pageable";
      auto op = [&] { CHECK(musaMemcpy(d, src, bytes, musaMemcpyHostToDevice)); };
      warm(op);
      unsigned char probe = 0;
      CHECK(musaMemcpy(&probe, d + 12345, 1, musaMemcpyDeviceToHost));
      if (probe != (unsigned char)(12345 * 7)) fail(name, "bytes=16777216", 12345, probe, 0);
      report(name, "bytes=16777216", time_median(op));
    }
    std::free(pageable);
    CHECK(musaFreeHost(pinned));
    CHECK(musaFree(d));
  }
}

static void bench_gemv() {
  const int rows = 4096, cols = 4096;
  std::vector<float> A((size_t)rows * cols), x(cols);
  for (size_t i = 0; i < A.size(); ++i) A[i] = float(i % 5);
  for (int c = 0; c < cols; ++c) x[c] = float(c % 3);
  float *dA, *dx, *dy;
  CHECK(musaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(musaMalloc(&dx, cols * sizeof(float)));
  CHECK(musaMalloc(&dy, rows * sizeof(float)));
  CHECK(musaMemcpy(dA, A.data(), A.size() * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), cols * sizeof(float), musaMemcpyHostToDevice));
  std::vector<float> want(rows), y(rows);
  for (int r = 0; r < rows; ++r) {
    double s = 0;
    for (int c = 0; c < cols; ++c) s += double(A[(size_t)r * cols + c]) * x[c];
    want[r] = float(s);
  }
  for (int variant = 0; variant < 2; ++variant) {
    const char *name = variant ? "gemv_warp" : "gemv_row";
    auto op = [&] {
      if (variant) gemv_warp<<<rows * 32 / 256, 256>>>(dA, dx, dy, rows, cols);
      else gemv_row<<<rows / 128, 128>>>(dA, dx, dy, rows, cols);
    };
    warm(op);
    CHECK(musaMemcpy(y.data(), dy, rows * sizeof(float), musaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r += 31)
      if (y[r] != want[r]) { fail(name, "rows=4096,cols=4096", r, y[r], want[r]); break; }
    report(name, "rows=4096,cols=4096", time_median(op));
  }
  CHECK(musaFree(dA));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

static void bench_compute() {
  const int n = 1 << 20;
  unsigned *du;
  float *df, *din;
  CHECK(musaMalloc(&du, n * sizeof(unsigned)));
  CHECK(musaMalloc(&df, n * sizeof(float)));
  CHECK(musaMalloc(&din, n * sizeof(float)));
  {
    const int rounds = 256;
    auto op = [&] { xorshift<<<n / 256, 256>>>(du, n, rounds); };
    warm(op);
    std::vector<unsigned> h(n);
    CHECK(musaMemcpy(h.data(), du, n * sizeof(unsigned), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 9973) {
      unsigned x = i * 2654435761u + 1u;
      for (int k = 0; k < rounds; ++k) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; }
      if (h[i] != x) { fail("xorshift", "n=1048576,rounds=256", i, h[i], x); break; }
    }
    report("xorshift", "n=1048576,rounds=256", time_median(op));
  }
  for (int iters : {256, 1024}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=1048576,iters=%d", iters);
    auto op = [&] { fma_chain<<<n / 256, 256>>>(df, n, iters); };
    warm(op);
    std::vector<float> h(n);
    CHECK(musaMemcpy(h.data(), df, n * sizeof(float), musaMemcpyDeviceToHost));
    float v = 5.0f; // i = 5
    for (int k = 0; k < iters; ++k) v = v * 0.5f + 1.0f;
    if (std::fabs(h[5] - v) > 1e-5f) fail("fma_chain", cfg, 5, h[5], v);
    report("fma_chain", cfg, time_median(op));
  }
  {
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[i] = float(i % 100) * 0.01f;
    CHECK(musaMemcpy(din, in.data(), n * sizeof(float), musaMemcpyHostToDevice));
    auto op = [&] { special_funcs<<<n / 256, 256>>>(din, df, n); };
    warm(op);
    std::vector<float> h(n);
    CHECK(musaMemcpy(h.data(), df, n * sizeof(float), musaMemcpyDeviceToHost));
    float v = in[77];
    for (int k = 0; k < 8; ++k) v = std::sqrt(v + 1.0f) + std::exp(-v);
    if (std::fabs(h[77] - v) > 1e-4f) fail("special_funcs", "n=1048576", 77, h[77], v);
    report("special_funcs", "n=1048576", time_median(op));
  }
  for (int iters : {64, 512}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=1048576,iters=%d", iters);
    auto op = [&] { divergent<<<n / 256, 256>>>(df, n, iters); };
    warm(op);
    std::vector<float> h(n);
    CHECK(musaMemcpy(h.data(), df, n * sizeof(float), musaMemcpyDeviceToHost));
    if (h[2] != 3.0f) fail("divergent", cfg, 2, h[2], 3);
    report("divergent", cfg, time_median(op));
  }
  CHECK(musaFree(du));
  CHECK(musaFree(df));
  CHECK(musaFree(din));
}

static void bench_conv_and_hist() {
  const int nx = 2048, ny = 2048;
  std::vector<float> img((size_t)nx * ny);
  for (size_t i = 0; i < img.size(); ++i) img[i] = float(i % 9);
  float *din, *dout;
  CHECK(musaMalloc(&din, img.size() * sizeof(float)));
  CHECK(musaMalloc(&dout, img.size() * sizeof(float)));
  CHECK(musaMemcpy(din, img.data(), img.size() * sizeof(float), musaMemcpyHostToDevice));
  Weights5x5 wt;
  for (int k = 0; k < 25; ++k) wt.w[k] = float(k % 3);
  {
    auto op = [&] { conv5x5<<<dim3(nx / 16, ny / 16), dim3(16, 16)>>>(din, dout, nx, ny, wt); };
    warm(op);
    std::vector<float> h(img.size());
    CHECK(musaMemcpy(h.data(), dout, h.size() * sizeof(float), musaMemcpyDeviceToHost));
    int x = 100, y = 200;
    float s = 0.f;
    for (int dy = 0; dy < 5; ++dy)
      for (int dx = 0; dx < 5; ++dx) s += wt.w[dy * 5 + dx] * img[(y + dy - 2) * nx + x + dx - 2];
    if (h[y * nx + x] != s) fail("conv5x5", "nx=2048,ny=2048", y * nx + x, h[y * nx + x], s);
    report("conv5x5", "nx=2048,ny=2048", time_median(op));
  }
  {
    const int n = 1 << 22;
    std::vector<unsigned> in(n);
    for (int i = 0; i < n; ++i) in[i] = hash_u32(i);
    unsigned *d_in, *d_bins;
    CHECK(musaMalloc(&d_in, n * sizeof(unsigned)));
    CHECK(musaMalloc(&d_bins, 256 * sizeof(unsigned)));
    CHECK(musaMemcpy(d_in, in.data(), n * sizeof(unsigned), musaMemcpyHostToDevice));
    auto op = [&] { shared_histogram<<<264, 256>>>(d_in, d_bins, n); };
    CHECK(musaMemset(d_bins, 0, 256 * sizeof(unsigned)));
    warm(op);
    std::vector<unsigned> bins(256), want(256, 0);
    for (int i = 0; i < n; ++i) ++want[in[i] & 255];
    CHECK(musaMemcpy(bins.data(), d_bins, 256 * sizeof(unsigned), musaMemcpyDeviceToHost));
    if (bins != want) fail("shared_histogram", "n=4194304", 0, bins[0], want[0]);
    report("shared_histogram", "n=4194304", time_median(op));
    CHECK(musaFree(d_in));
    CHECK(musaFree(d_bins));
  }
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

int main(int argc, char **argv) {
  if (argc > 1) g_repeats = std::max(1, std::atoi(argv[1]));
  CHECK(musaEventCreate(&g_start));
  CHECK(musaEventCreate(&g_stop));
  bench_atomics();
  bench_local_array();
  bench_pointer_chase();
  bench_vector_kinds();
  bench_launch_burst();
  bench_copies();
  bench_gemv();
  bench_compute();
  bench_conv_and_hist();
  CHECK(musaEventDestroy(g_start));
  CHECK(musaEventDestroy(g_stop));
  CHECK(musaDeviceSynchronize());
  if (g_failures) {
    std::printf("FAILED %d config(s)\n", g_failures);
    return 1;
  }
  return 0;
}
