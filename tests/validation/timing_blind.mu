// Timing-validation suite 6 ("blind"): kernels written on 2026-12-04 by a helper that did not
// read the timing model (its source, notes or accuracy records), and measured on the H200 once
// so that its first figure is out of sample. Kinds the other five suites lack: a 32x32-tiled
// matmul with 1024-thread blocks on a non-square shape, a double-precision GEMM with a
// register-prefetched, double-buffered shared-memory K loop, a 1024-point radix-2 complex FFT
// in shared memory (one transform a 512-thread block), a full prefix sum in three kernels
// (block scans, a scan of the block sums, adding the offsets back; launch-bound and DRAM-sized),
// a 2x2 max-pool over many channels, a 3x3 convolution over 16 input and 32 output channels
// with weights in constant memory, a warp-per-row softmax over short rows, a transposed GEMV
// with the vector slice cached in shared memory and float atomics for the partial sums, a
// struct-of-arrays particle update over six arrays, a shared-memory-tiled k-NN distance matrix,
// an odd-even transposition sort of 256-key segments, a predicate bitmap packed with
// __ballot_sync, a Needleman-Wunsch anti-diagonal wavefront in shared memory, table-driven
// CRC32 of 1 KB chunks with 32-thread blocks, 64-bit modular exponentiation, an RMSNorm with
// __launch_bounds__(1024) blocks, a lookup-table interpolation with 40 KB of static shared
// memory in a grid-stride loop, musaMemset2D on a pitched allocation, musaMemcpyAsync
// device-to-device copies of four sizes, a captured fork-join graph of five small kernels,
// an im2col for a 3x3 convolution, rotary position embedding, and per-row int8 quantisation.
// Built and run like timing_suite.mu (see README.md).
//
// Usage: timing_blind [R]   R timed repeats per config (default 1), after one warm-up.
// Output: RESULT <kernel> <config> <median_ms>; FAIL lines when a warm-up result is wrong.
#include <musa_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

#include "suite_harness.h"

#include "timing_blind_linalg.h"
#include "timing_blind_streams.h"

// ---- 1024-point complex FFT, radix 2, in shared memory: one transform a 512-thread block ----
// tw[k] = exp(-2 pi i k / 1024), k < 512. Input loaded in bit-reversed order, then ten stages
// of one butterfly a thread.
__global__ void fft1024_radix2(const float2 *in, float2 *out, const float2 *tw) {
  __shared__ float2 s[1024];
  const float2 *src = in + size_t(blockIdx.x) * 1024;
  int t = threadIdx.x;
  for (int i = t; i < 1024; i += 512) s[__brev(unsigned(i)) >> 22] = src[i];
  __syncthreads();
  for (int half = 1; half < 1024; half <<= 1) {
    int j = t & (half - 1);
    int i0 = ((t - j) << 1) + j, i1 = i0 + half;
    float2 w = tw[j * (512 / half)];
    float2 a = s[i0], b = s[i1];
    float2 bw = make_float2(b.x * w.x - b.y * w.y, b.x * w.y + b.y * w.x);
    s[i0] = make_float2(a.x + bw.x, a.y + bw.y);
    s[i1] = make_float2(a.x - bw.x, a.y - bw.y);
    __syncthreads();
  }
  float2 *dst = out + size_t(blockIdx.x) * 1024;
  for (int i = t; i < 1024; i += 512) dst[i] = s[i];
}

static void bench_fft() {
  const int batch = 2048, n = 1024;
  const char *cfg = "batch=2048,n=1024";
  size_t total = size_t(batch) * n;
  std::vector<float2> x(total), tw(512);
  for (size_t i = 0; i < total; ++i)
    x[i] = make_float2(float(int(hash_u32(unsigned(i)) % 2001) - 1000) / 1000.f,
                       float(int(hash_u32(unsigned(i) + 5u) % 2001) - 1000) / 1000.f);
  const double pi = 3.14159265358979323846;
  for (int k = 0; k < 512; ++k)
    tw[k] = make_float2(float(std::cos(-2.0 * pi * k / n)), float(std::sin(-2.0 * pi * k / n)));
  float2 *dx, *dy, *dtw;
  CHECK(musaMalloc(&dx, total * sizeof(float2)));
  CHECK(musaMalloc(&dy, total * sizeof(float2)));
  CHECK(musaMalloc(&dtw, 512 * sizeof(float2)));
  CHECK(musaMemcpy(dx, x.data(), total * sizeof(float2), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dtw, tw.data(), 512 * sizeof(float2), musaMemcpyHostToDevice));
  auto op = [&] { fft1024_radix2<<<batch, 512>>>(dx, dy, dtw); };
  warm(op);
  std::vector<float2> y(total);
  CHECK(musaMemcpy(y.data(), dy, total * sizeof(float2), musaMemcpyDeviceToHost));
  bool bad = false;
  for (int b : {0, 777, batch - 1}) {
    const float2 *xb = &x[size_t(b) * n];
    for (int k = 0; k < n && !bad; k += 37) {
      double re = 0, im = 0;
      for (int m = 0; m < n; ++m) {
        double ang = -2.0 * pi * double((long(m) * k) % n) / n;
        re += xb[m].x * std::cos(ang) - xb[m].y * std::sin(ang);
        im += xb[m].x * std::sin(ang) + xb[m].y * std::cos(ang);
      }
      float2 got = y[size_t(b) * n + k];
      if (!near(got.x, re, 2e-3)) { fail("fft1024_radix2", cfg, long(b) * n + k, got.x, re); bad = true; }
      else if (!near(got.y, im, 2e-3)) { fail("fft1024_radix2", cfg, long(b) * n + k, got.y, im); bad = true; }
    }
  }
  report("fft1024_radix2", cfg, time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
  CHECK(musaFree(dtw));
}

// ---- inclusive prefix sum in three kernels: 1024-int block scans (4 ints a thread, warp
// shuffles), one 1024-thread block scanning the block sums, then the offsets added back ----
__global__ void scan_blocks1024(const int4 *in, int4 *out, int *sums) {
  __shared__ int warp_tot[8];
  int t = threadIdx.x, lane = t & 31, w = t >> 5;
  size_t idx = size_t(blockIdx.x) * 256 + t;
  int4 v = in[idx];
  v.y += v.x;
  v.z += v.y;
  v.w += v.z;
  int x = v.w;
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) warp_tot[w] = x;
  __syncthreads();
  if (w == 0) {
    int s = lane < 8 ? warp_tot[lane] : 0;
    for (int o = 1; o < 8; o <<= 1) {
      int y = __shfl_up_sync(0xffffffffu, s, o);
      if (lane >= o) s += y;
    }
    if (lane < 8) warp_tot[lane] = s;
  }
  __syncthreads();
  int excl = x - v.w + (w ? warp_tot[w - 1] : 0);
  v.x += excl;
  v.y += excl;
  v.z += excl;
  v.w += excl;
  out[idx] = v;
  if (t == 255) sums[blockIdx.x] = warp_tot[7];
}

// Replaces sums[0..nb) by their exclusive prefix sums.
__global__ void scan_block_sums(int *sums, int nb) {
  __shared__ int tot[1024];
  int t = threadIdx.x, per = (nb + 1023) / 1024;
  int begin = min(t * per, nb), end = min(begin + per, nb);
  int s = 0;
  for (int i = begin; i < end; ++i) s += sums[i];
  tot[t] = s;
  __syncthreads();
  for (int o = 1; o < 1024; o <<= 1) {
    int y = t >= o ? tot[t - o] : 0;
    __syncthreads();
    tot[t] += y;
    __syncthreads();
  }
  int run = tot[t] - s;
  for (int i = begin; i < end; ++i) {
    int v = sums[i];
    sums[i] = run;
    run += v;
  }
}

__global__ void scan_add_offsets(int4 *out, const int *offs) {
  size_t idx = size_t(blockIdx.x) * 256 + threadIdx.x;
  int o = offs[blockIdx.x];
  int4 v = out[idx];
  v.x += o;
  v.y += o;
  v.z += o;
  v.w += o;
  out[idx] = v;
}

static void bench_scan() {
  for (int n : {1 << 16, 1 << 25}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%d,kernels=3", n);
    const int nb = n / 1024;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = int(hash_u32(unsigned(i) + 3u) % 4);
    int *din, *dout, *dsums;
    CHECK(musaMalloc(&din, size_t(n) * 4));
    CHECK(musaMalloc(&dout, size_t(n) * 4));
    CHECK(musaMalloc(&dsums, size_t(nb) * 4));
    CHECK(musaMemcpy(din, in.data(), size_t(n) * 4, musaMemcpyHostToDevice));
    auto op = [&] {
      scan_blocks1024<<<nb, 256>>>((const int4 *)din, (int4 *)dout, dsums);
      scan_block_sums<<<1, 1024>>>(dsums, nb);
      scan_add_offsets<<<nb, 256>>>((int4 *)dout, dsums);
    };
    warm(op);
    std::vector<int> out(n);
    CHECK(musaMemcpy(out.data(), dout, size_t(n) * 4, musaMemcpyDeviceToHost));
    long run = 0;
    for (int i = 0; i < n; ++i) {
      run += in[i];
      if ((i % 997 == 0 || i == n - 1) && out[i] != run) { fail("scan_3phase", cfg, i, out[i], double(run)); break; }
    }
    report("scan_3phase", cfg, time_median(op));
    CHECK(musaFree(din));
    CHECK(musaFree(dout));
    CHECK(musaFree(dsums));
  }
}

// ---- 2x2 max-pool, stride 2, over planar channels; a 32x8 block, float2 loads --------------
__global__ void maxpool2x2(const float *in, float *out, int w, int h) {
  int ox = blockIdx.x * 32 + threadIdx.x, oy = blockIdx.y * 8 + threadIdx.y, c = blockIdx.z;
  int ow = w / 2, oh = h / 2;
  const float *p = in + size_t(c) * w * h + size_t(2 * oy) * w + 2 * ox;
  float2 a = *(const float2 *)p, b = *(const float2 *)(p + w);
  out[size_t(c) * ow * oh + size_t(oy) * ow + ox] = fmaxf(fmaxf(a.x, a.y), fmaxf(b.x, b.y));
}

static void bench_maxpool() {
  const int nc = 128, w = 512, h = 512;
  const char *cfg = "nc=128,512x512";
  size_t n = size_t(nc) * w * h, on = n / 4;
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = float(int(hash_u32(unsigned(i)) % 20001) - 10000) * 0.01f;
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, on * 4));
  CHECK(musaMemcpy(din, in.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { maxpool2x2<<<dim3(w / 2 / 32, h / 2 / 8, nc), dim3(32, 8)>>>(din, dout, w, h); };
  warm(op);
  std::vector<float> out(on);
  CHECK(musaMemcpy(out.data(), dout, on * 4, musaMemcpyDeviceToHost));
  const int ow = w / 2, oh = h / 2;
  for (size_t i = 0; i < on; i += 1031) {
    size_t c = i / (size_t(ow) * oh);
    int oy = int(i / ow % oh), ox = int(i % ow);
    const float *p = &in[c * w * h + size_t(2 * oy) * w + 2 * ox];
    float want = std::max(std::max(p[0], p[1]), std::max(p[w], p[w + 1]));
    if (out[i] != want) { fail("maxpool2x2", cfg, long(i), out[i], want); break; }
  }
  report("maxpool2x2", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ---- 3x3 convolution, 16 input and 32 output channels, zero padding, weights in constant
// memory (read warp-uniformly); one output pixel of one output channel a thread ------------
#define CONV_CIN 16
#define CONV_COUT 32
__constant__ float c_w3[CONV_COUT * CONV_CIN * 9];

__global__ void conv3x3_mc(const float *in, float *out, int h, int w) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y, co = blockIdx.z;
  float s = 0.f;
  for (int ci = 0; ci < CONV_CIN; ++ci) {
    const float *p = in + size_t(ci) * h * w;
    const float *wt = c_w3 + (co * CONV_CIN + ci) * 9;
    for (int ky = 0; ky < 3; ++ky) {
      int yy = y + ky - 1;
      if (yy < 0 || yy >= h) continue;
      for (int kx = 0; kx < 3; ++kx) {
        int xx = x + kx - 1;
        if (xx < 0 || xx >= w) continue;
        s += wt[ky * 3 + kx] * p[size_t(yy) * w + xx];
      }
    }
  }
  out[(size_t(co) * h + y) * w + x] = s;
}

static void bench_conv3x3() {
  const int h = 128, w = 128;
  const char *cfg = "cin=16,cout=32,128x128";
  size_t in_n = size_t(CONV_CIN) * h * w, out_n = size_t(CONV_COUT) * h * w;
  std::vector<float> in(in_n), wt(CONV_COUT * CONV_CIN * 9);
  for (size_t i = 0; i < in_n; ++i) in[i] = float(hash_u32(unsigned(i) + 11u) % 8);
  for (size_t i = 0; i < wt.size(); ++i) wt[i] = float(int(hash_u32(unsigned(i) + 999u) % 5) - 2);
  CHECK(musaMemcpyToSymbol(c_w3, wt.data(), wt.size() * 4));
  float *din, *dout;
  CHECK(musaMalloc(&din, in_n * 4));
  CHECK(musaMalloc(&dout, out_n * 4));
  CHECK(musaMemcpy(din, in.data(), in_n * 4, musaMemcpyHostToDevice));
  auto op = [&] { conv3x3_mc<<<dim3(w / 16, h / 16, CONV_COUT), dim3(16, 16)>>>(din, dout, h, w); };
  warm(op);
  std::vector<float> out(out_n);
  CHECK(musaMemcpy(out.data(), dout, out_n * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < out_n; i += 211) {
    int co = int(i / (size_t(h) * w)), y = int(i / w % h), x = int(i % w);
    float want = 0.f;  // small integers: exact
    for (int ci = 0; ci < CONV_CIN; ++ci)
      for (int ky = 0; ky < 3; ++ky)
        for (int kx = 0; kx < 3; ++kx) {
          int yy = y + ky - 1, xx = x + kx - 1;
          if (yy < 0 || yy >= h || xx < 0 || xx >= w) continue;
          want += wt[(co * CONV_CIN + ci) * 9 + ky * 3 + kx] * in[(size_t(ci) * h + yy) * w + xx];
        }
    if (out[i] != want) { fail("conv3x3_mc", cfg, long(i), out[i], want); break; }
  }
  report("conv3x3_mc", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ---- softmax over 128-float rows, one warp a row (a float4 a lane), four rows a block ------
__global__ void softmax_warp128(const float4 *x, float4 *y, int rows) {
  int row = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x & 31;
  if (row >= rows) return;
  float4 v = x[size_t(row) * 32 + lane];
  float m = fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  v.x = expf(v.x - m);
  v.y = expf(v.y - m);
  v.z = expf(v.z - m);
  v.w = expf(v.w - m);
  float s = (v.x + v.y) + (v.z + v.w);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  float inv = 1.f / s;
  y[size_t(row) * 32 + lane] = make_float4(v.x * inv, v.y * inv, v.z * inv, v.w * inv);
}

static void bench_softmax_warp() {
  const int rows = 131072, cols = 128;
  const char *cfg = "rows=131072,cols=128";
  size_t n = size_t(rows) * cols;
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = float(int(hash_u32(unsigned(i)) % 16001) - 8000) / 1000.f;
  float *dx, *dy;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&dy, n * 4));
  CHECK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { softmax_warp128<<<rows / 4, 128>>>((const float4 *)dx, (float4 *)dy, rows); };
  warm(op);
  std::vector<float> y(n);
  CHECK(musaMemcpy(y.data(), dy, n * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 1021) {
    const float *xr = &x[size_t(r) * cols];
    double m = *std::max_element(xr, xr + cols), s = 0;
    for (int c = 0; c < cols; ++c) s += std::exp(xr[c] - m);
    for (int c = 0; c < cols; c += 7) {
      double want = std::exp(xr[c] - m) / s, got = y[size_t(r) * cols + c];
      if (std::fabs(got - want) > 1e-5 * want + 1e-9) { fail("softmax_warp128", cfg, long(r) * cols + c, got, want); r = rows; break; }
    }
  }
  report("softmax_warp128", cfg, time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- particle update over six struct-of-arrays float arrays (drag, gravity, floor bounce) ---
__host__ __device__ inline void particle_step(float &x, float &y, float &z, float &vx, float &vy,
                                              float &vz, float dt) {
  vx += -0.1f * vx * dt;
  vy += -0.1f * vy * dt;
  vz += (-9.81f - 0.1f * vz) * dt;
  x += vx * dt;
  y += vy * dt;
  z += vz * dt;
  if (z < 0.f) {
    z = -z;
    vz = -0.8f * vz;
  }
}

__global__ void particles_soa(float *px, float *py, float *pz, float *vx, float *vy, float *vz,
                              int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = px[i], y = py[i], z = pz[i], u = vx[i], v = vy[i], w = vz[i];
  particle_step(x, y, z, u, v, w, dt);
  px[i] = x;
  py[i] = y;
  pz[i] = z;
  vx[i] = u;
  vy[i] = v;
  vz[i] = w;
}

static void bench_particles() {
  const int n = 1 << 22;
  const char *cfg = "n=4194304,arrays=6";
  const float dt = 0.01f;
  std::vector<float> h[6];
  for (int a = 0; a < 6; ++a) {
    h[a].resize(n);
    for (int i = 0; i < n; ++i) {
      float r = float(hash_u32(unsigned(i) * 6u + unsigned(a)) % 20000) / 1000.f;  // [0, 20)
      h[a][i] = a == 2 ? r * 0.5f : (a < 3 ? r - 10.f : (r - 10.f) * 2.f);
    }
  }
  float *d[6];
  for (int a = 0; a < 6; ++a) {
    CHECK(musaMalloc(&d[a], size_t(n) * 4));
    CHECK(musaMemcpy(d[a], h[a].data(), size_t(n) * 4, musaMemcpyHostToDevice));
  }
  auto op = [&] { particles_soa<<<n / 512, 512>>>(d[0], d[1], d[2], d[3], d[4], d[5], n, dt); };
  warm(op);
  std::vector<float> g[6];
  for (int a = 0; a < 6; ++a) {
    g[a].resize(n);
    CHECK(musaMemcpy(g[a].data(), d[a], size_t(n) * 4, musaMemcpyDeviceToHost));
  }
  for (int i = 0; i < n; i += 509) {
    float s[6];
    for (int a = 0; a < 6; ++a) s[a] = h[a][i];
    particle_step(s[0], s[1], s[2], s[3], s[4], s[5], dt);
    int a = 0;
    for (; a < 6; ++a)
      if (!near(g[a][i], s[a], 1e-5)) break;
    if (a < 6) { fail("particles_soa", cfg, long(a) * n + i, g[a][i], s[a]); break; }
  }
  report("particles_soa", cfg, time_median(op));
  for (int a = 0; a < 6; ++a) CHECK(musaFree(d[a]));
}

// ---- odd-even transposition sort of 256-key segments, a 128-thread block a segment ---------
__global__ void oddeven_sort256(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[256];
  size_t base = size_t(blockIdx.x) * 256;
  int t = threadIdx.x;
  s[t] = in[base + t];
  s[t + 128] = in[base + t + 128];
  __syncthreads();
  for (int phase = 0; phase < 256; ++phase) {
    int i = 2 * t + (phase & 1);
    if (i + 1 < 256) {
      unsigned a = s[i], b = s[i + 1];
      if (a > b) {
        s[i] = b;
        s[i + 1] = a;
      }
    }
    __syncthreads();
  }
  out[base + t] = s[t];
  out[base + t + 128] = s[t + 128];
}

static void bench_oddeven() {
  const int n = 1 << 17;
  const char *cfg = "n=131072,segment=256";
  std::vector<unsigned> in(n);
  for (int i = 0; i < n; ++i) in[i] = hash_u32(unsigned(i) * 3u + 1u);
  unsigned *din, *dout;
  CHECK(musaMalloc(&din, size_t(n) * 4));
  CHECK(musaMalloc(&dout, size_t(n) * 4));
  CHECK(musaMemcpy(din, in.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  auto op = [&] { oddeven_sort256<<<n / 256, 128>>>(din, dout); };
  warm(op);
  std::vector<unsigned> out(n), want(in);
  CHECK(musaMemcpy(out.data(), dout, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int b = 0; b < n; b += 256) std::sort(want.begin() + b, want.begin() + b + 256);
  for (int i = 0; i < n; ++i)
    if (out[i] != want[i]) { fail("oddeven_sort256", cfg, i, out[i], want[i]); break; }
  report("oddeven_sort256", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ---- predicate bitmap: each warp packs (x > threshold) of its 32 floats with __ballot_sync --
__global__ void ballot_pack(const float *x, unsigned *bits, float thr, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool p = i < n && x[i] > thr;
  unsigned m = __ballot_sync(0xffffffffu, p);
  if ((threadIdx.x & 31) == 0 && i < n) bits[i >> 5] = m;
}

static void bench_ballot_pack() {
  const int n = 1 << 26;
  const char *cfg = "n=67108864";
  const float thr = 0.3f;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = float(hash_u32(unsigned(i) ^ 0x2545f491u) % 1000) / 1000.f;
  float *dx;
  unsigned *db;
  CHECK(musaMalloc(&dx, size_t(n) * 4));
  CHECK(musaMalloc(&db, size_t(n / 32) * 4));
  CHECK(musaMemcpy(dx, x.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  auto op = [&] { ballot_pack<<<n / 256, 256>>>(dx, db, thr, n); };
  warm(op);
  std::vector<unsigned> bits(n / 32);
  CHECK(musaMemcpy(bits.data(), db, size_t(n / 32) * 4, musaMemcpyDeviceToHost));
  for (int wd = 0; wd < n / 32; wd += 37) {
    unsigned want = 0;
    for (int l = 0; l < 32; ++l) want |= unsigned(x[size_t(wd) * 32 + l] > thr) << l;
    if (bits[wd] != want) { fail("ballot_pack", cfg, wd, bits[wd], want); break; }
  }
  report("ballot_pack", cfg, time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(db));
}

// ---- Needleman-Wunsch: a 64x64 score matrix a 64-thread block, filled by anti-diagonals ----
// Match +2, mismatch -1, linear gap; writes the last row of each matrix.
__global__ void nw_wavefront64(const unsigned char *a, const unsigned char *b, int *last_row,
                               int gap) {
  __shared__ int S[65][65];
  __shared__ unsigned char sa[64], sb[64];
  int t = threadIdx.x;
  size_t p = blockIdx.x;
  sa[t] = a[p * 64 + t];
  sb[t] = b[p * 64 + t];
  S[0][t + 1] = -(t + 1) * gap;
  S[t + 1][0] = -(t + 1) * gap;
  if (t == 0) S[0][0] = 0;
  __syncthreads();
  int i = t + 1;
  for (int k = 2; k <= 128; ++k) {
    int j = k - i;
    if (j >= 1 && j <= 64) {
      int sub = sa[i - 1] == sb[j - 1] ? 2 : -1;
      S[i][j] = max(S[i - 1][j - 1] + sub, max(S[i - 1][j], S[i][j - 1]) - gap);
    }
    __syncthreads();
  }
  last_row[p * 64 + t] = S[64][t + 1];
}

static void bench_nw() {
  const int pairs = 4096, gap = 1;
  const char *cfg = "pairs=4096,len=64";
  size_t n = size_t(pairs) * 64;
  std::vector<unsigned char> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = (unsigned char)("ACGT"[hash_u32(unsigned(i)) % 4]);
    // b mostly follows a, so the alignments are not all noise.
    unsigned h = hash_u32(unsigned(i) + 0x9999u);
    b[i] = h % 4 ? a[i] : (unsigned char)("ACGT"[(h >> 4) % 4]);
  }
  unsigned char *da, *db;
  int *dr;
  CHECK(musaMalloc(&da, n));
  CHECK(musaMalloc(&db, n));
  CHECK(musaMalloc(&dr, n * 4));
  CHECK(musaMemcpy(da, a.data(), n, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, b.data(), n, musaMemcpyHostToDevice));
  auto op = [&] { nw_wavefront64<<<pairs, 64>>>(da, db, dr, gap); };
  warm(op);
  std::vector<int> got(n);
  CHECK(musaMemcpy(got.data(), dr, n * 4, musaMemcpyDeviceToHost));
  std::vector<int> S(65 * 65);
  for (int p = 0; p < pairs; p += 41) {
    for (int j = 0; j <= 64; ++j) S[j] = -j * gap;
    for (int i = 1; i <= 64; ++i) {
      S[i * 65] = -i * gap;
      for (int j = 1; j <= 64; ++j) {
        int sub = a[size_t(p) * 64 + i - 1] == b[size_t(p) * 64 + j - 1] ? 2 : -1;
        S[i * 65 + j] = std::max(S[(i - 1) * 65 + j - 1] + sub,
                                 std::max(S[(i - 1) * 65 + j], S[i * 65 + j - 1]) - gap);
      }
    }
    int j = 1;
    for (; j <= 64; ++j)
      if (got[size_t(p) * 64 + j - 1] != S[64 * 65 + j]) break;
    if (j <= 64) { fail("nw_wavefront64", cfg, long(p) * 64 + j - 1, got[size_t(p) * 64 + j - 1], S[64 * 65 + j]); break; }
  }
  report("nw_wavefront64", cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dr));
}

// ---- CRC32 (reflected, 0xEDB88320) of 1 KB chunks, a thread a chunk, the table in shared ----
__global__ void crc32_chunks(const unsigned *data, const unsigned *table, unsigned *crc,
                            int chunk_words) {
  __shared__ unsigned tab[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) tab[i] = table[i];
  __syncthreads();
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned *p = data + size_t(c) * chunk_words;
  unsigned r = 0xffffffffu;
  for (int k = 0; k < chunk_words; ++k) {
    unsigned v = p[k];
    r = tab[(r ^ v) & 0xffu] ^ (r >> 8);
    r = tab[(r ^ (v >> 8)) & 0xffu] ^ (r >> 8);
    r = tab[(r ^ (v >> 16)) & 0xffu] ^ (r >> 8);
    r = tab[(r ^ (v >> 24)) & 0xffu] ^ (r >> 8);
  }
  crc[c] = ~r;
}

static void bench_crc32() {
  const int bytes = 1 << 24, chunk = 1024, chunks = bytes / chunk;
  const char *cfg = "bytes=16777216,chunk=1024,block=32";
  std::vector<unsigned> table(256);
  for (unsigned i = 0; i < 256; ++i) {
    unsigned c = i;
    for (int k = 0; k < 8; ++k) c = c & 1u ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  std::vector<unsigned> data(bytes / 4);
  for (size_t i = 0; i < data.size(); ++i) data[i] = hash_u32(unsigned(i) + 0x51u);
  unsigned *dd, *dt, *dc;
  CHECK(musaMalloc(&dd, bytes));
  CHECK(musaMalloc(&dt, 256 * 4));
  CHECK(musaMalloc(&dc, size_t(chunks) * 4));
  CHECK(musaMemcpy(dd, data.data(), bytes, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dt, table.data(), 256 * 4, musaMemcpyHostToDevice));
  auto op = [&] { crc32_chunks<<<chunks / 32, 32>>>(dd, dt, dc, chunk / 4); };
  warm(op);
  std::vector<unsigned> got(chunks);
  CHECK(musaMemcpy(got.data(), dc, size_t(chunks) * 4, musaMemcpyDeviceToHost));
  const unsigned char *bp = reinterpret_cast<const unsigned char *>(data.data());
  for (int c = 0; c < chunks; c += 7) {
    unsigned r = 0xffffffffu;
    for (int k = 0; k < chunk; ++k) r = table[(r ^ bp[size_t(c) * chunk + k]) & 0xffu] ^ (r >> 8);
    r = ~r;
    if (got[c] != r) { fail("crc32_chunks", cfg, c, got[c], r); break; }
  }
  report("crc32_chunks", cfg, time_median(op));
  CHECK(musaFree(dd));
  CHECK(musaFree(dt));
  CHECK(musaFree(dc));
}

// ---- modular exponentiation with 64-bit products and a run-time 64-bit modulus ---------------
__global__ void modpow_u64(const unsigned *base, const unsigned *ex, unsigned *out,
                           unsigned long long p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long b = base[i] % p, r = 1;
  unsigned e = ex[i];
  while (e) {
    if (e & 1u) r = r * b % p;
    b = b * b % p;
    e >>= 1;
  }
  out[i] = unsigned(r);
}

static void bench_modpow() {
  const int n = 1 << 20;
  const unsigned long long p = 4294967291ull;  // largest prime below 2^32
  const char *cfg = "n=1048576,exp_bits=32";
  std::vector<unsigned> base(n), ex(n);
  for (int i = 0; i < n; ++i) {
    base[i] = hash_u32(unsigned(i) + 17u);
    ex[i] = hash_u32(unsigned(i) * 13u + 5u) | 0x80000000u;
  }
  unsigned *db, *de, *dout;
  CHECK(musaMalloc(&db, size_t(n) * 4));
  CHECK(musaMalloc(&de, size_t(n) * 4));
  CHECK(musaMalloc(&dout, size_t(n) * 4));
  CHECK(musaMemcpy(db, base.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(de, ex.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  auto op = [&] { modpow_u64<<<n / 256, 256>>>(db, de, dout, p, n); };
  warm(op);
  std::vector<unsigned> out(n);
  CHECK(musaMemcpy(out.data(), dout, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 257) {
    unsigned long long b = base[i] % p, r = 1;
    for (unsigned e = ex[i]; e; e >>= 1) {
      if (e & 1u) r = r * b % p;
      b = b * b % p;
    }
    if (out[i] != unsigned(r)) { fail("modpow_u64", cfg, i, out[i], double(r)); break; }
  }
  report("modpow_u64", cfg, time_median(op));
  CHECK(musaFree(db));
  CHECK(musaFree(de));
  CHECK(musaFree(dout));
}

// ---- RMSNorm over 8192-float rows: one __launch_bounds__(1024) block a row, two float4 a
// thread held in registers ------------------------------------------------------------------
__global__ void __launch_bounds__(1024) rmsnorm_1024(const float4 *x, const float4 *w, float4 *y) {
  __shared__ float red[32];
  const int cols4 = 2048;
  int t = threadIdx.x, lane = t & 31, wp = t >> 5;
  const float4 *xr = x + size_t(blockIdx.x) * cols4;
  float4 a = xr[t], b = xr[t + 1024];
  float s = (a.x * a.x + a.y * a.y) + (a.z * a.z + a.w * a.w) + (b.x * b.x + b.y * b.y) +
            (b.z * b.z + b.w * b.w);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) red[wp] = s;
  __syncthreads();
  if (wp == 0) {
    s = red[lane];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) red[0] = s;
  }
  __syncthreads();
  float r = rsqrtf(red[0] * (1.f / (cols4 * 4)) + 1e-6f);
  float4 wa = w[t], wb = w[t + 1024];
  float4 *yr = y + size_t(blockIdx.x) * cols4;
  yr[t] = make_float4(a.x * r * wa.x, a.y * r * wa.y, a.z * r * wa.z, a.w * r * wa.w);
  yr[t + 1024] = make_float4(b.x * r * wb.x, b.y * r * wb.y, b.z * r * wb.z, b.w * r * wb.w);
}

static void bench_rmsnorm() {
  const int rows = 4096, cols = 8192;
  const char *cfg = "rows=4096,cols=8192,block=1024";
  size_t n = size_t(rows) * cols;
  std::vector<float> x(n), w(cols);
  for (size_t i = 0; i < n; ++i) x[i] = float(int(hash_u32(unsigned(i) + 2u) % 4001) - 2000) / 1000.f;
  for (int c = 0; c < cols; ++c) w[c] = 0.75f + float(c % 11) * 0.05f;
  float *dx, *dw, *dy;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&dy, n * 4));
  CHECK(musaMalloc(&dw, size_t(cols) * 4));
  CHECK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dw, w.data(), size_t(cols) * 4, musaMemcpyHostToDevice));
  auto op = [&] { rmsnorm_1024<<<rows, 1024>>>((const float4 *)dx, (const float4 *)dw, (float4 *)dy); };
  warm(op);
  std::vector<float> y(n);
  CHECK(musaMemcpy(y.data(), dy, n * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 257) {
    const float *xr = &x[size_t(r) * cols];
    double ss = 0;
    for (int c = 0; c < cols; ++c) ss += double(xr[c]) * xr[c];
    double rs = 1.0 / std::sqrt(ss / cols + 1e-6);
    for (int c = 0; c < cols; c += 61) {
      double want = xr[c] * rs * w[c], got = y[size_t(r) * cols + c];
      if (!near(got, want, 1e-4)) { fail("rmsnorm_1024", cfg, long(r) * cols + c, got, want); r = rows; break; }
    }
  }
  report("rmsnorm_1024", cfg, time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(dw));
  CHECK(musaFree(dy));
}

// ---- piecewise-linear lookup table of 10240 floats (40 KB static shared memory a block), a
// grid-stride loop over the inputs -----------------------------------------------------------
#define LUT_N 10240
__host__ __device__ inline float lut_eval(const float *tab, float x) {
  float f = x * float(LUT_N - 1);
  int k = int(f) < LUT_N - 2 ? int(f) : LUT_N - 2;
  float a = f - float(k);
  return tab[k] + a * (tab[k + 1] - tab[k]);
}

__global__ void lut_interp_smem40k(const float *lut, const float *x, float *y, int n) {
  __shared__ float tab[LUT_N];
  for (int i = threadIdx.x; i < LUT_N; i += blockDim.x) tab[i] = lut[i];
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = lut_eval(tab, x[i]);
}

static void bench_lut() {
  const int n = 1 << 24, blocks = 1320;
  const char *cfg = "n=16777216,table=40K,grid=1320x256";
  std::vector<float> lut(LUT_N), x(n);
  for (int k = 0; k < LUT_N; ++k) lut[k] = float(std::sin(k * 0.001)) * 10.f;
  for (int i = 0; i < n; ++i) x[i] = float(hash_u32(unsigned(i) + 77u) % 1000000) / 1000000.f;
  float *dl, *dx, *dy;
  CHECK(musaMalloc(&dl, LUT_N * 4));
  CHECK(musaMalloc(&dx, size_t(n) * 4));
  CHECK(musaMalloc(&dy, size_t(n) * 4));
  CHECK(musaMemcpy(dl, lut.data(), LUT_N * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  auto op = [&] { lut_interp_smem40k<<<blocks, 256>>>(dl, dx, dy, n); };
  warm(op);
  std::vector<float> y(n);
  CHECK(musaMemcpy(y.data(), dy, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 499) {
    float want = lut_eval(lut.data(), x[i]);
    if (!near(y[i], want, 1e-5)) { fail("lut_interp_smem40k", cfg, i, y[i], want); break; }
  }
  report("lut_interp_smem40k", cfg, time_median(op));
  CHECK(musaFree(dl));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- rotary position embedding (rotate-half form) of a [tokens][heads][128] query tensor,
// cos/sin read from a [tokens][64] float2 table; a 64-thread block a (token, head) ----------
__global__ void rope_rotary(const float *q, const float2 *cs, float *out, int heads) {
  int d = threadIdx.x, h = blockIdx.x, tk = blockIdx.y;
  size_t base = (size_t(tk) * heads + h) * 128;
  float2 c = cs[size_t(tk) * 64 + d];
  float a = q[base + d], b = q[base + d + 64];
  out[base + d] = a * c.x - b * c.y;
  out[base + d + 64] = b * c.x + a * c.y;
}

static void bench_rope() {
  const int tokens = 4096, heads = 32;
  const char *cfg = "tokens=4096,heads=32,dim=128";
  size_t n = size_t(tokens) * heads * 128;
  std::vector<float> q(n);
  std::vector<float2> cs(size_t(tokens) * 64);
  for (size_t i = 0; i < n; ++i) q[i] = float(int(hash_u32(unsigned(i) + 8u) % 2001) - 1000) / 500.f;
  for (int t = 0; t < tokens; ++t)
    for (int d = 0; d < 64; ++d) {
      double ang = t * std::pow(10000.0, -d / 64.0);
      cs[size_t(t) * 64 + d] = make_float2(float(std::cos(ang)), float(std::sin(ang)));
    }
  float *dq, *dout;
  float2 *dcs;
  CHECK(musaMalloc(&dq, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMalloc(&dcs, cs.size() * sizeof(float2)));
  CHECK(musaMemcpy(dq, q.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dcs, cs.data(), cs.size() * sizeof(float2), musaMemcpyHostToDevice));
  auto op = [&] { rope_rotary<<<dim3(heads, tokens), 64>>>(dq, dcs, dout, heads); };
  warm(op);
  std::vector<float> out(n);
  CHECK(musaMemcpy(out.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i += 1003) {
    size_t base = i / 128 * 128, t = i / (size_t(heads) * 128);
    int d = int(i % 128), dd = d % 64;
    float2 c = cs[t * 64 + dd];
    double a = q[base + dd], b = q[base + dd + 64];
    double want = d < 64 ? a * c.x - b * c.y : b * c.x + a * c.y;
    if (!near(out[i], want, 1e-5)) { fail("rope_rotary", cfg, long(i), out[i], want); break; }
  }
  report("rope_rotary", cfg, time_median(op));
  CHECK(musaFree(dq));
  CHECK(musaFree(dout));
  CHECK(musaFree(dcs));
}

// ---- symmetric int8 quantisation of 1024-float rows: a warp a row finds the absolute maximum
// with shuffles, then writes char4s and the row's scale ---------------------------------------
__global__ void quant_int8_rows(const float4 *x, char4 *q, float *scale, int rows) {
  int row = blockIdx.x * 8 + threadIdx.x / 32, lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float4 *xr = x + size_t(row) * 256;
  float4 v[8];
  float m = 0.f;
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    v[j] = xr[lane + 32 * j];
    m = fmaxf(m, fmaxf(fmaxf(fabsf(v[j].x), fabsf(v[j].y)), fmaxf(fabsf(v[j].z), fabsf(v[j].w))));
  }
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float inv = m > 0.f ? 127.f / m : 0.f;
  char4 *qr = q + size_t(row) * 256;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    qr[lane + 32 * j] = make_char4((signed char)__float2int_rn(v[j].x * inv),
                                   (signed char)__float2int_rn(v[j].y * inv),
                                   (signed char)__float2int_rn(v[j].z * inv),
                                   (signed char)__float2int_rn(v[j].w * inv));
  if (lane == 0) scale[row] = m / 127.f;
}

static void bench_quant_int8() {
  const int rows = 16384, cols = 1024;
  const char *cfg = "rows=16384,cols=1024";
  size_t n = size_t(rows) * cols;
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = float(int(hash_u32(unsigned(i) + 4u) % 60001) - 30000) / 7000.f;
  float *dx, *ds;
  char4 *dq;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&dq, n));
  CHECK(musaMalloc(&ds, size_t(rows) * 4));
  CHECK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { quant_int8_rows<<<rows / 8, 256>>>((const float4 *)dx, dq, ds, rows); };
  warm(op);
  std::vector<signed char> q(n);
  std::vector<float> sc(rows);
  CHECK(musaMemcpy(q.data(), dq, n, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(sc.data(), ds, size_t(rows) * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 97) {
    const float *xr = &x[size_t(r) * cols];
    float m = 0.f;
    for (int c = 0; c < cols; ++c) m = std::max(m, std::fabs(xr[c]));
    if (!near(sc[r], m / 127.f, 1e-6)) { fail("quant_int8_rows", cfg, r, sc[r], m / 127.f); break; }
    float inv = 127.f / m;
    int c = 0;
    for (; c < cols; c += 3)
      if (std::abs(int(q[size_t(r) * cols + c]) - int(std::lrint(xr[c] * inv))) > 1) break;
    if (c < cols) { fail("quant_int8_rows", cfg, long(r) * cols + c, q[size_t(r) * cols + c], double(std::lrint(xr[c] * inv))); break; }
  }
  report("quant_int8_rows", cfg, time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(dq));
  CHECK(musaFree(ds));
}

int main(int argc, char **argv) {
  if (argc > 1) g_repeats = std::max(1, std::atoi(argv[1]));
  CHECK(musaEventCreate(&g_start));
  CHECK(musaEventCreate(&g_stop));
  bench_matmul_tile32();
  bench_dgemm();
  bench_fft();
  bench_scan();
  bench_maxpool();
  bench_conv3x3();
  bench_softmax_warp();
  bench_gemv_t();
  bench_particles();
  bench_knn();
  bench_oddeven();
  bench_ballot_pack();
  bench_nw();
  bench_crc32();
  bench_modpow();
  bench_rmsnorm();
  bench_lut();
  bench_memset2d();
  bench_memcpy_async_d2d();
  bench_graph_fork_join();
  bench_im2col();
  bench_rope();
  bench_quant_int8();
  CHECK(musaEventDestroy(g_start));
  CHECK(musaEventDestroy(g_stop));
  CHECK(musaDeviceSynchronize());
  if (g_failures) {
    std::printf("FAILED %d config(s)\n", g_failures);
    return 1;
  }
  return 0;
}
