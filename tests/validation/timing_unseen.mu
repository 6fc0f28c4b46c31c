// Timing-validation suite 7 ("unseen"): kernels written on 2026-12-04 by a helper that did not
// read the timing model (its source, notes or accuracy records), and measured on the H200 once
// so that its first figure is out of sample. Kinds the other six suites lack: a 256-bin byte
// histogram with one privatised shared histogram per warp, a 3x3 median filter on a byte image
// (a min/max sorting network), a bit-packed Game of Life step (bit-sliced neighbour counts), a
// tridiagonal solver by cyclic reduction in shared memory (one 512-unknown system a block), an
// SGEMM with a 128x128 block tile and an 8x8 register tile per thread, one Gaussian-elimination
// pivot step (multipliers, then an in-place trailing update), a per-warp top-8 of 512-float rows
// (register insertion lists, then shuffle extraction), a 64-point Walsh-Hadamard transform held
// in registers (register pressure), an FMA-bound grid of exactly one full wave against the same
// with one tail block, Floyd-Warshall relaxation steps, a Hough line transform voting with
// global atomics, double-precision softplus (exp and log1p), and a DNA pattern search through
// shared memory; in timing_unseen_sparse.h a warp-per-row (vector) CSR SpMV, a segmented
// reduction by sorted keys (shuffle segmented scan, one atomic a segment piece), a merge-path
// merge of two sorted arrays, a sparse-dense dot product ending in double atomics, an embedding
// bag (warp per bag, gathered 256-byte rows), an int4-weight dequantising GEMV and an int8 GEMV
// with __dp4a; in timing_unseen_streams.h a pitched device-to-host musaMemcpy2D, pinned
// device-to-host musaMemcpyAsync of three sizes, a 256 MB memset, a captured graph of copy,
// memset and kernel nodes replayed 20 times, 16 launches on each of 8 streams, and a ping-pong
// of kernels between two streams through events. Built and run like timing_suite.mu (see
// README.md).
//
// Usage: timing_unseen [R]   R timed repeats per config (default 1), after one warm-up.
// Output: RESULT <kernel> <config> <median_ms>; FAIL lines when a warm-up result is wrong.
#include <musa_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <vector>

#include "suite_harness.h"

#include "timing_unseen_sparse.h"
#include "timing_unseen_streams.h"

// ---- 256-bin byte histogram, one shared histogram per warp, merged at the end ---------------
__global__ void hist256_warp_priv(const uchar4 *in, unsigned *hist, int n4) {
  __shared__ unsigned bins[8][256];
  unsigned *mine = bins[threadIdx.x / 32];
  for (int b = threadIdx.x; b < 8 * 256; b += blockDim.x) bins[b / 256][b % 256] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
    uchar4 v = in[i];
    atomicAdd(&mine[v.x], 1u);
    atomicAdd(&mine[v.y], 1u);
    atomicAdd(&mine[v.z], 1u);
    atomicAdd(&mine[v.w], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < 8; ++w) s += bins[w][b];
    if (s) atomicAdd(&hist[b], s);
  }
}

static void bench_hist256() {
  const int n = 1 << 25;
  const char *cfg = "n=33554432,bins=256,warps=8";
  // Bytes of a bell-shaped distribution (the sum of two uniform bytes halved), as in an image.
  std::vector<unsigned char> in(n);
  for (int i = 0; i < n; ++i) {
    unsigned h = hash_u32(unsigned(i) ^ 0xa511e9b3u);
    in[i] = (unsigned char)(((h & 255u) + ((h >> 8) & 255u)) >> 1);
  }
  unsigned char *din;
  unsigned *dh;
  CHECK(musaMalloc(&din, size_t(n)));
  CHECK(musaMalloc(&dh, 256 * 4));
  CHECK(musaMemcpy(din, in.data(), size_t(n), musaMemcpyHostToDevice));
  auto op = [&] {
    CHECK(musaMemsetAsync(dh, 0, 256 * 4));
    hist256_warp_priv<<<1056, 256>>>((const uchar4 *)din, dh, n / 4);
  };
  warm(op);
  std::vector<unsigned> got(256), want(256, 0);
  CHECK(musaMemcpy(got.data(), dh, 256 * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) ++want[in[i]];
  for (int b = 0; b < 256; ++b)
    if (got[b] != want[b]) { fail("hist256_warp_priv", cfg, b, got[b], want[b]); break; }
  report("hist256_warp_priv", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dh));
}

// ---- 3x3 median filter on a byte image, clamp-to-edge, through a shared tile ---------------
#define MED_SORT(a, b)   \
  {                      \
    int lo_ = min(a, b); \
    b = max(a, b);       \
    a = lo_;             \
  }

__global__ void median3x3_u8(const unsigned char *in, unsigned char *out, int w, int h) {
  __shared__ unsigned char tile[8 + 2][32 + 2];
  int x0 = blockIdx.x * 32, y0 = blockIdx.y * 8;
  for (int j = threadIdx.y * 32 + threadIdx.x; j < 10 * 34; j += 256) {
    int ty = j / 34, tx = j % 34;
    int gx = min(max(x0 + tx - 1, 0), w - 1), gy = min(max(y0 + ty - 1, 0), h - 1);
    tile[ty][tx] = in[size_t(gy) * w + gx];
  }
  __syncthreads();
  int tx = threadIdx.x, ty = threadIdx.y;
  int p0 = tile[ty][tx], p1 = tile[ty][tx + 1], p2 = tile[ty][tx + 2];
  int p3 = tile[ty + 1][tx], p4 = tile[ty + 1][tx + 1], p5 = tile[ty + 1][tx + 2];
  int p6 = tile[ty + 2][tx], p7 = tile[ty + 2][tx + 1], p8 = tile[ty + 2][tx + 2];
  MED_SORT(p1, p2) MED_SORT(p4, p5) MED_SORT(p7, p8) MED_SORT(p0, p1) MED_SORT(p3, p4)
  MED_SORT(p6, p7) MED_SORT(p1, p2) MED_SORT(p4, p5) MED_SORT(p7, p8) MED_SORT(p0, p3)
  MED_SORT(p5, p8) MED_SORT(p4, p7) MED_SORT(p3, p6) MED_SORT(p1, p4) MED_SORT(p2, p5)
  MED_SORT(p4, p7) MED_SORT(p4, p2) MED_SORT(p6, p4) MED_SORT(p4, p2)
  out[size_t(y0 + ty) * w + x0 + tx] = (unsigned char)p4;
}

static void bench_median3x3() {
  const int w = 4096, h = 2048;
  const char *cfg = "4096x2048,u8";
  size_t n = size_t(w) * h;
  std::vector<unsigned char> img(n);
  for (size_t i = 0; i < n; ++i) {
    int x = int(i % w), y = int(i / w);
    unsigned noise = hash_u32(unsigned(i) * 3u + 1u);
    // A smooth ramp with salt-and-pepper noise on about one pixel in sixteen.
    img[i] = (noise & 15u) == 0 ? (unsigned char)((noise >> 4) & 1u ? 255 : 0)
                                : (unsigned char)((x / 16 + y / 8) & 255);
  }
  unsigned char *din, *dout;
  CHECK(musaMalloc(&din, n));
  CHECK(musaMalloc(&dout, n));
  CHECK(musaMemcpy(din, img.data(), n, musaMemcpyHostToDevice));
  auto op = [&] { median3x3_u8<<<dim3(w / 32, h / 8), dim3(32, 8)>>>(din, dout, w, h); };
  warm(op);
  std::vector<unsigned char> out(n);
  CHECK(musaMemcpy(out.data(), dout, n, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i += 1013) {
    int x = int(i % w), y = int(i / w);
    unsigned char v[9];
    for (int k = 0; k < 9; ++k) {
      int xx = std::min(std::max(x + k % 3 - 1, 0), w - 1);
      int yy = std::min(std::max(y + k / 3 - 1, 0), h - 1);
      v[k] = img[size_t(yy) * w + xx];
    }
    std::nth_element(v, v + 4, v + 9);
    if (out[i] != v[4]) { fail("median3x3_u8", cfg, long(i), out[i], v[4]); break; }
  }
  report("median3x3_u8", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ---- Game of Life on a torus, 32 cells a word, neighbour counts in bit-sliced counters -------
// Bit j of word c in a row is cell 32 c + j.
__device__ __host__ inline void life_add(unsigned a, unsigned &s0, unsigned &s1, unsigned &s2) {
  unsigned c0 = s0 & a;
  s0 ^= a;
  unsigned c1 = s1 & c0;
  s1 ^= c0;
  s2 |= c1;  // four or more
}

__device__ __host__ inline unsigned life_word(const unsigned *g, int words, int rows, int r,
                                              int c) {
  int rl = (r + rows - 1) % rows, rr = (r + 1) % rows;
  int cl = (c + words - 1) % words, cr = (c + 1) % words;
  unsigned s0 = 0, s1 = 0, s2 = 0, self = 0;
  const int rs[3] = {rl, r, rr};
  for (int k = 0; k < 3; ++k) {
    const unsigned *row = g + size_t(rs[k]) * words;
    unsigned m = row[c], wl = row[cl], wr = row[cr];
    unsigned west = (m << 1) | (wl >> 31), east = (m >> 1) | (wr << 31);
    life_add(west, s0, s1, s2);
    life_add(east, s0, s1, s2);
    if (k == 1) self = m;
    else life_add(m, s0, s1, s2);
  }
  return ~s2 & s1 & (s0 | self);
}

__global__ void life_bitpacked(const unsigned *g, unsigned *next, int words, int rows) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y;
  if (c < words) next[size_t(r) * words + c] = life_word(g, words, rows, r, c);
}

static void bench_life() {
  const int cells = 16384, words = cells / 32, rows = 16384;
  const char *cfg = "16384x16384,bitpacked";
  size_t n = size_t(words) * rows;
  std::vector<unsigned> g(n);
  for (size_t i = 0; i < n; ++i) {
    unsigned a = hash_u32(unsigned(i) + 17u), b = hash_u32(unsigned(i) ^ 0x3c6ef372u);
    g[i] = a & b;  // about a quarter of the cells alive
  }
  unsigned *dg, *dn;
  CHECK(musaMalloc(&dg, n * 4));
  CHECK(musaMalloc(&dn, n * 4));
  CHECK(musaMemcpy(dg, g.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { life_bitpacked<<<dim3(words / 128, rows), 128>>>(dg, dn, words, rows); };
  warm(op);
  std::vector<unsigned> out(n);
  CHECK(musaMemcpy(out.data(), dn, n * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 37) {
    for (int c = 0; c < words; c += (r % 2 ? 1 : 13)) {
      unsigned want = life_word(g.data(), words, rows, r, c);
      // Cross-check one cell of the word with a plain neighbour count.
      int j = (r + c) % 32, x = c * 32 + j, alive = (g[size_t(r) * words + c] >> j) & 1u, cnt = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          if (!dx && !dy) continue;
          int yy = (r + dy + rows) % rows, xx = (x + dx + cells) % cells;
          cnt += (g[size_t(yy) * words + xx / 32] >> (xx % 32)) & 1u;
        }
      unsigned cell = (cnt == 3 || (alive && cnt == 2)) ? 1u : 0u;
      size_t e = size_t(r) * words + c;
      if (out[e] != want || ((want >> j) & 1u) != cell) {
        fail("life_bitpacked", cfg, long(e), out[e], want);
        r = rows;
        break;
      }
    }
  }
  report("life_bitpacked", cfg, time_median(op));
  CHECK(musaFree(dg));
  CHECK(musaFree(dn));
}

// ---- tridiagonal systems by cyclic reduction, one 512-unknown system a 256-thread block -----
#define CR_N 512
#define CR_STEPS 8  // log2(CR_N) - 1

__global__ void tridiag_cr(const float *ga, const float *gb, const float *gc, const float *gd,
                           float *gx) {
  __shared__ float a[CR_N], b[CR_N], c[CR_N], d[CR_N], x[CR_N];
  int t = threadIdx.x;
  size_t base = size_t(blockIdx.x) * CR_N;
  a[t] = ga[base + t], a[t + 256] = ga[base + t + 256];
  b[t] = gb[base + t], b[t + 256] = gb[base + t + 256];
  c[t] = gc[base + t], c[t + 256] = gc[base + t + 256];
  d[t] = gd[base + t], d[t + 256] = gd[base + t + 256];
  int stride = 1, active = CR_N / 2;
  for (int j = 0; j < CR_STEPS; ++j) {
    __syncthreads();
    stride *= 2;
    int delta = stride / 2;
    if (t < active) {
      int i = stride * t + stride - 1;
      int il = i - delta, ir = min(i + delta, CR_N - 1);
      float k1 = a[i] / b[il], k2 = c[i] / b[ir];
      b[i] = b[i] - c[il] * k1 - a[ir] * k2;
      d[i] = d[i] - d[il] * k1 - d[ir] * k2;
      a[i] = -a[il] * k1;
      c[i] = -c[ir] * k2;
    }
    active /= 2;
  }
  __syncthreads();
  if (t == 0) {
    int i1 = stride - 1, i2 = 2 * stride - 1;
    float det = b[i2] * b[i1] - c[i1] * a[i2];
    x[i1] = (b[i2] * d[i1] - c[i1] * d[i2]) / det;
    x[i2] = (d[i2] * b[i1] - d[i1] * a[i2]) / det;
  }
  active = 2;
  for (int j = 0; j < CR_STEPS; ++j) {
    int delta = stride / 2;
    __syncthreads();
    if (t < active) {
      int i = stride * t + delta - 1;
      if (i == delta - 1) x[i] = (d[i] - c[i] * x[i + delta]) / b[i];
      else x[i] = (d[i] - a[i] * x[i - delta] - c[i] * x[i + delta]) / b[i];
    }
    stride /= 2;
    active *= 2;
  }
  __syncthreads();
  gx[base + t] = x[t];
  gx[base + t + 256] = x[t + 256];
}

static void bench_tridiag() {
  const int systems = 8192;
  const char *cfg = "systems=8192,n=512";
  size_t n = size_t(systems) * CR_N;
  std::vector<float> a(n), b(n), c(n), d(n);
  for (size_t i = 0; i < n; ++i) {
    int row = int(i % CR_N);
    unsigned h = hash_u32(unsigned(i) * 5u + 11u);
    a[i] = row == 0 ? 0.f : float(int(h % 17) - 8) / 8.f;
    c[i] = row == CR_N - 1 ? 0.f : float(int((h >> 8) % 17) - 8) / 8.f;
    b[i] = 4.f + float((h >> 16) % 5) * 0.25f;  // diagonally dominant
    d[i] = float(int((h >> 20) % 201) - 100) / 10.f;
  }
  float *buf;
  CHECK(musaMalloc(&buf, n * 4 * 5));
  float *da = buf, *db = buf + n, *dc = buf + 2 * n, *dd = buf + 3 * n, *dx = buf + 4 * n;
  CHECK(musaMemcpy(da, a.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, b.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dc, c.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dd, d.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { tridiag_cr<<<systems, 256>>>(da, db, dc, dd, dx); };
  warm(op);
  std::vector<float> x(n);
  CHECK(musaMemcpy(x.data(), dx, n * 4, musaMemcpyDeviceToHost));
  for (int s = 0; s < systems; s += 97) {
    // Thomas algorithm in double.
    size_t o = size_t(s) * CR_N;
    std::vector<double> cp(CR_N), dp(CR_N), xs(CR_N);
    cp[0] = c[o] / b[o], dp[0] = d[o] / b[o];
    for (int i = 1; i < CR_N; ++i) {
      double m = b[o + i] - a[o + i] * cp[i - 1];
      cp[i] = c[o + i] / m;
      dp[i] = (d[o + i] - a[o + i] * dp[i - 1]) / m;
    }
    xs[CR_N - 1] = dp[CR_N - 1];
    for (int i = CR_N - 2; i >= 0; --i) xs[i] = dp[i] - cp[i] * xs[i + 1];
    for (int i = 0; i < CR_N; i += 7)
      if (!near(x[o + i], xs[i], 1e-4)) {
        fail("tridiag_cr", cfg, long(o + i), x[o + i], xs[i]);
        s = systems;
        break;
      }
  }
  report("tridiag_cr", cfg, time_median(op));
  CHECK(musaFree(buf));
}

// ---- SGEMM: 128x128 block tile, K step 8, 256 threads with an 8x8 register tile each --------
__global__ void __launch_bounds__(256) sgemm_reg8x8(const float *A, const float *B, float *C,
                                                    int M, int N, int K) {
  __shared__ float As[8][128];
  __shared__ float Bs[8][128];
  int t = threadIdx.x, tx = t % 16, ty = t / 16;
  int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;
  int ar = t / 2, ac = (t % 2) * 4;   // A tile: 128 rows x 8 columns, one float4 a thread
  int br = t / 32, bc = (t % 32) * 4; // B tile: 8 rows x 128 columns, one float4 a thread
  for (int k0 = 0; k0 < K; k0 += 8) {
    float4 av = *(const float4 *)&A[size_t(row0 + ar) * K + k0 + ac];
    float4 bv = *(const float4 *)&B[size_t(k0 + br) * N + col0 + bc];
    As[ac + 0][ar] = av.x;
    As[ac + 1][ar] = av.y;
    As[ac + 2][ar] = av.z;
    As[ac + 3][ar] = av.w;
    *(float4 *)&Bs[br][bc] = bv;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      float ra[8], rb[8];
      float4 a0 = *(const float4 *)&As[k][ty * 8], a1 = *(const float4 *)&As[k][ty * 8 + 4];
      float4 b0 = *(const float4 *)&Bs[k][tx * 8], b1 = *(const float4 *)&Bs[k][tx * 8 + 4];
      ra[0] = a0.x, ra[1] = a0.y, ra[2] = a0.z, ra[3] = a0.w;
      ra[4] = a1.x, ra[5] = a1.y, ra[6] = a1.z, ra[7] = a1.w;
      rb[0] = b0.x, rb[1] = b0.y, rb[2] = b0.z, rb[3] = b0.w;
      rb[4] = b1.x, rb[5] = b1.y, rb[6] = b1.z, rb[7] = b1.w;
#pragma unroll
      for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    float *crow = C + size_t(row0 + ty * 8 + i) * N + col0 + tx * 8;
    *(float4 *)crow = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
    *(float4 *)(crow + 4) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
  }
}

static void bench_sgemm() {
  const int M = 2048, N = 1024, K = 512;
  const char *cfg = "m=2048,n=1024,k=512";
  // Multiples of 1/16 in [-2, 2]: every product and partial sum is exact in float.
  std::vector<float> a(size_t(M) * K), b(size_t(K) * N);
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = float(int(hash_u32(unsigned(i)) % 65) - 32) / 16.f;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = float(int(hash_u32(unsigned(i) + 7u) % 65) - 32) / 16.f;
  float *da, *db, *dc;
  CHECK(musaMalloc(&da, a.size() * 4));
  CHECK(musaMalloc(&db, b.size() * 4));
  CHECK(musaMalloc(&dc, size_t(M) * N * 4));
  CHECK(musaMemcpy(da, a.data(), a.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, b.data(), b.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { sgemm_reg8x8<<<dim3(N / 128, M / 128), 256>>>(da, db, dc, M, N, K); };
  warm(op);
  std::vector<float> c(size_t(M) * N);
  CHECK(musaMemcpy(c.data(), dc, c.size() * 4, musaMemcpyDeviceToHost));
  for (size_t e = 0; e < c.size(); e += 1999) {
    size_t i = e / N, j = e % N;
    double want = 0;
    for (int k = 0; k < K; ++k) want += double(a[i * K + k]) * b[size_t(k) * N + j];
    if (c[e] != want) { fail("sgemm_reg8x8", cfg, long(e), c[e], want); break; }
  }
  report("sgemm_reg8x8", cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dc));
}

// ---- one Gaussian-elimination pivot step: multipliers, then an in-place trailing update -----
__global__ void gauss_multipliers(const float *A, float *l, int n, int k) {
  int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) l[i] = A[size_t(i) * n + k] / A[size_t(k) * n + k];
}

// Rows k+1..n-1, columns k..n-1; column k keeps the multiplier (the L factor).
__global__ void gauss_update(float *A, const float *l, int n, int k) {
  int j = k + blockIdx.x * blockDim.x + threadIdx.x;
  int i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float li = l[i];
  if (j == k) A[size_t(i) * n + j] = li;
  else A[size_t(i) * n + j] -= li * A[size_t(k) * n + j];
}

static void bench_gauss_step() {
  const int n = 4096, k = 1024;
  const char *cfg = "n=4096,k=1024";
  size_t nn = size_t(n) * n;
  std::vector<float> a(nn);
  for (size_t e = 0; e < nn; ++e) {
    size_t i = e / n, j = e % n;
    a[e] = i == j ? 8192.f : float(hash_u32(unsigned(e)) % 1024) / 1024.f;
  }
  float *dA, *dl;
  CHECK(musaMalloc(&dA, nn * 4));
  CHECK(musaMalloc(&dl, size_t(n) * 4));
  CHECK(musaMemcpy(dA, a.data(), nn * 4, musaMemcpyHostToDevice));
  const int rows = n - k - 1, cols = n - k;
  auto op = [&] {
    gauss_multipliers<<<(rows + 255) / 256, 256>>>(dA, dl, n, k);
    gauss_update<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(dA, dl, n, k);
  };
  warm(op);
  std::vector<float> out(nn);
  CHECK(musaMemcpy(out.data(), dA, nn * 4, musaMemcpyDeviceToHost));
  for (size_t e = 0; e < nn; e += 4099) {
    size_t i = e / n, j = e % n;
    float want = a[e];
    if (int(i) > k && int(j) >= k) {
      float li = a[i * n + k] / a[size_t(k) * n + k];
      want = int(j) == k ? li : a[e] - li * a[size_t(k) * n + j];
    }
    if (!near(out[e], want, 1e-6)) { fail("gauss_elim_step", cfg, long(e), out[e], want); break; }
  }
  report("gauss_elim_step", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dl));
}

// ---- top-8 of each 512-float row: a warp a row, register insertion lists, shuffle merge ------
#define TOPK 8
__global__ void topk_warp(const float *in, float *out, int rows, int len) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows) return;
  const float *r = in + size_t(row) * len;
  float top[TOPK];
#pragma unroll
  for (int j = 0; j < TOPK; ++j) top[j] = -INFINITY;
  for (int e = lane; e < len; e += 32) {
    float x = r[e];
#pragma unroll
    for (int j = TOPK - 1; j > 0; --j) top[j] = x > top[j - 1] ? top[j - 1] : fmaxf(x, top[j]);
    top[0] = fmaxf(x, top[0]);
  }
  for (int k = 0; k < TOPK; ++k) {
    float best = top[0];
    int who = lane;
    for (int o = 16; o > 0; o >>= 1) {
      float ob = __shfl_xor_sync(0xffffffffu, best, o);
      int ow = __shfl_xor_sync(0xffffffffu, who, o);
      if (ob > best || (ob == best && ow < who)) best = ob, who = ow;
    }
    if (lane == who) {
#pragma unroll
      for (int j = 0; j < TOPK - 1; ++j) top[j] = top[j + 1];
      top[TOPK - 1] = -INFINITY;
    }
    if (lane == 0) out[size_t(row) * TOPK + k] = best;
  }
}

static void bench_topk() {
  const int rows = 16384, len = 512;
  const char *cfg = "rows=16384,len=512,k=8";
  size_t n = size_t(rows) * len;
  std::vector<float> in(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = float(hash_u32(unsigned(i) ^ 0x85ebca6bu) % 100000) * 0.01f;
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, size_t(rows) * TOPK * 4));
  CHECK(musaMemcpy(din, in.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { topk_warp<<<rows / 4, 128>>>(din, dout, rows, len); };
  warm(op);
  std::vector<float> out(size_t(rows) * TOPK);
  CHECK(musaMemcpy(out.data(), dout, out.size() * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 41) {
    std::vector<float> v(in.begin() + size_t(r) * len, in.begin() + size_t(r + 1) * len);
    std::partial_sort(v.begin(), v.begin() + TOPK, v.end(), std::greater<float>());
    for (int k = 0; k < TOPK; ++k) {
      float got = out[size_t(r) * TOPK + k];
      if (got != v[k]) { fail("topk_warp", cfg, long(r) * TOPK + k, got, v[k]); r = rows; break; }
    }
  }
  report("topk_warp", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ---- 64-point Walsh-Hadamard transform in registers, four rounds with a diagonal scaling ----
// Element j of thread t's vector is at in[j * n + t]; all 64 values stay live in registers.
__host__ __device__ inline float fwht_scale(int round, int j) {
  return 0.125f * (1.f + 0.0625f * float((j * 7 + round * 3) % 5));
}

__global__ void fwht64_regs(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float v[64];
#pragma unroll
  for (int j = 0; j < 64; ++j) v[j] = in[size_t(j) * n + t];
#pragma unroll
  for (int round = 0; round < 4; ++round) {
#pragma unroll
    for (int h = 1; h < 64; h *= 2)
#pragma unroll
      for (int i = 0; i < 64; i += 2 * h)
#pragma unroll
        for (int j = i; j < i + h; ++j) {
          float x = v[j], y = v[j + h];
          v[j] = x + y;
          v[j + h] = x - y;
        }
#pragma unroll
    for (int j = 0; j < 64; ++j) v[j] *= fwht_scale(round, j);
  }
#pragma unroll
  for (int j = 0; j < 64; ++j) out[size_t(j) * n + t] = v[j];
}

static void bench_fwht64() {
  const int n = 1 << 18;
  const char *cfg = "threads=262144,points=64,rounds=4";
  size_t total = size_t(n) * 64;
  std::vector<float> in(total);
  for (size_t i = 0; i < total; ++i)
    in[i] = float(int(hash_u32(unsigned(i) + 5u) % 2001) - 1000) / 500.f;
  float *din, *dout;
  CHECK(musaMalloc(&din, total * 4));
  CHECK(musaMalloc(&dout, total * 4));
  CHECK(musaMemcpy(din, in.data(), total * 4, musaMemcpyHostToDevice));
  auto op = [&] { fwht64_regs<<<n / 128, 128>>>(din, dout, n); };
  warm(op);
  std::vector<float> out(total);
  CHECK(musaMemcpy(out.data(), dout, total * 4, musaMemcpyDeviceToHost));
  for (int t = 0; t < n; t += 2053) {
    double v[64];
    for (int j = 0; j < 64; ++j) v[j] = in[size_t(j) * n + t];
    for (int round = 0; round < 4; ++round) {
      for (int h = 1; h < 64; h *= 2)
        for (int i = 0; i < 64; i += 2 * h)
          for (int j = i; j < i + h; ++j) {
            double x = v[j], y = v[j + h];
            v[j] = x + y, v[j + h] = x - y;
          }
      for (int j = 0; j < 64; ++j) v[j] *= fwht_scale(round, j);
    }
    for (int j = 0; j < 64; j += 5) {
      float got = out[size_t(j) * n + t];
      if (!near(got, v[j], 1e-4)) {
        fail("fwht64_regs", cfg, long(j) * n + t, got, v[j]);
        t = n;
        break;
      }
    }
  }
  report("fwht64_regs", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ---- wave quantisation: equal FMA-bound blocks, exactly one full wave and one block more -----
// 132 SMs x 8 resident 256-thread blocks = 1056 blocks a wave on the H200.
__global__ void wave_fma(float *out, int iters) {
  float a = float(threadIdx.x % 32) * 0.001f, b = a + 0.5f;
  for (int k = 0; k < iters; ++k) {
    a = fmaf(a, 0.9999f, 0.0001f);
    b = fmaf(b, 0.9998f, 0.0002f);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}

static void bench_wave_tail() {
  const int iters = 1024;
  float want = 0.f;
  {
    float a = 3 * 0.001f, b = a + 0.5f;  // thread 3 of a warp
    for (int k = 0; k < iters; ++k) {
      a = std::fma(a, 0.9999f, 0.0001f);
      b = std::fma(b, 0.9998f, 0.0002f);
    }
    want = a + b;
  }
  float *dout;
  CHECK(musaMalloc(&dout, 1057 * 256 * 4));
  for (int blocks : {1056, 1057}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "blocks=%d,threads=256,iters=%d", blocks, iters);
    CHECK(musaMemset(dout, 0, 1057 * 256 * 4));
    auto op = [&] { wave_fma<<<blocks, 256>>>(dout, iters); };
    warm(op);
    float got = 0.f;
    size_t last = size_t(blocks - 1) * 256 + 35;  // thread 3 of the last block's second warp
    CHECK(musaMemcpy(&got, dout + last, 4, musaMemcpyDeviceToHost));
    if (got != want) fail(blocks == 1056 ? "wave_full" : "wave_tail", cfg, long(last), got, want);
    report(blocks == 1056 ? "wave_full" : "wave_tail", cfg, time_median(op));
  }
  CHECK(musaFree(dout));
}

// ---- Floyd-Warshall: four relaxation steps (k = 0..3) over a 4096-vertex distance matrix -----
__global__ void floyd_step(int *d, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  int via = d[size_t(i) * n + k] + d[size_t(k) * n + j];
  int &cur = d[size_t(i) * n + j];
  if (via < cur) cur = via;
}

static void bench_floyd() {
  const int n = 4096, steps = 4, inf = 1 << 28;
  const char *cfg = "n=4096,steps=4";
  size_t nn = size_t(n) * n;
  std::vector<int> g(nn);
  for (size_t e = 0; e < nn; ++e) {
    size_t i = e / n, j = e % n;
    unsigned h = hash_u32(unsigned(e) ^ 0x27d4eb2fu);
    g[e] = i == j ? 0 : (h % 8 == 0 ? int(1 + (h >> 8) % 1000) : inf);
  }
  int *dd;
  CHECK(musaMalloc(&dd, nn * 4));
  CHECK(musaMemcpy(dd, g.data(), nn * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    for (int k = 0; k < steps; ++k) floyd_step<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(dd, n, k);
  };
  warm(op);
  std::vector<int> out(nn);
  CHECK(musaMemcpy(out.data(), dd, nn * 4, musaMemcpyDeviceToHost));
  // Rows and columns 0..3 are final after step 3; every other entry needs only them.
  std::vector<int> ref(g);
  for (int k = 0; k < steps; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (j >= steps && i >= steps && (size_t(i) * n + j) % 211 != 0) continue;
        int via = ref[size_t(i) * n + k] + ref[size_t(k) * n + j];
        if (via < ref[size_t(i) * n + j]) ref[size_t(i) * n + j] = via;
      }
  for (size_t e = 0; e < nn; e += 211)
    if (out[e] != ref[e]) { fail("floyd_warshall", cfg, long(e), out[e], ref[e]); break; }
  report("floyd_warshall", cfg, time_median(op));
  CHECK(musaFree(dd));
}

// ---- Hough line transform: each edge point votes in 180 angle rows with global atomics ------
#define HOUGH_ANGLES 180
#define HOUGH_RHO 2944  // |rho| <= 1448 for a 1024x1024 image

__global__ void hough_vote(const short2 *pts, const float *cs, const float *sn, unsigned *acc,
                           int npts) {
  __shared__ float c[HOUGH_ANGLES], s[HOUGH_ANGLES];
  for (int a = threadIdx.x; a < HOUGH_ANGLES; a += blockDim.x) c[a] = cs[a], s[a] = sn[a];
  __syncthreads();
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npts) return;
  float x = pts[p].x, y = pts[p].y;
  for (int a = 0; a < HOUGH_ANGLES; ++a) {
    int rho = int(rintf(fmaf(x, c[a], y * s[a])));
    atomicAdd(&acc[a * HOUGH_RHO + rho + HOUGH_RHO / 2], 1u);
  }
}

static void bench_hough() {
  const int npts = 1 << 16;
  const char *cfg = "points=65536,angles=180,rho=2944";
  std::vector<float> cs(HOUGH_ANGLES), sn(HOUGH_ANGLES);
  for (int a = 0; a < HOUGH_ANGLES; ++a) {
    double th = a * 3.14159265358979 / HOUGH_ANGLES;
    cs[a] = float(std::cos(th)), sn[a] = float(std::sin(th));
  }
  // Half the points on eight lines, half scattered.
  std::vector<short2> pts(npts);
  for (int p = 0; p < npts; ++p) {
    unsigned h = hash_u32(unsigned(p) * 13u + 3u);
    int x = int(h % 1024), y = int((h >> 10) % 1024);
    if (p % 2 == 0) {
      int line = (p / 2) % 8;
      y = std::min(1023, std::max(0, (x * (line + 1)) / 9 + line * 90));
    }
    pts[p] = make_short2(short(x), short(y));
  }
  short2 *dp;
  float *dcs, *dsn;
  unsigned *dacc;
  const size_t cells = size_t(HOUGH_ANGLES) * HOUGH_RHO;
  CHECK(musaMalloc(&dp, npts * sizeof(short2)));
  CHECK(musaMalloc(&dcs, HOUGH_ANGLES * 4));
  CHECK(musaMalloc(&dsn, HOUGH_ANGLES * 4));
  CHECK(musaMalloc(&dacc, cells * 4));
  CHECK(musaMemcpy(dp, pts.data(), npts * sizeof(short2), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dcs, cs.data(), HOUGH_ANGLES * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dsn, sn.data(), HOUGH_ANGLES * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    CHECK(musaMemsetAsync(dacc, 0, cells * 4));
    hough_vote<<<npts / 256, 256>>>(dp, dcs, dsn, dacc, npts);
  };
  warm(op);
  std::vector<unsigned> got(cells), want(cells, 0);
  CHECK(musaMemcpy(got.data(), dacc, cells * 4, musaMemcpyDeviceToHost));
  for (int p = 0; p < npts; ++p)
    for (int a = 0; a < HOUGH_ANGLES; ++a) {
      float x = pts[p].x, y = pts[p].y;
      int rho = int(std::nearbyint(std::fma(x, cs[a], y * sn[a])));
      ++want[size_t(a) * HOUGH_RHO + rho + HOUGH_RHO / 2];
    }
  for (size_t e = 0; e < cells; ++e)
    if (got[e] != want[e]) { fail("hough_vote", cfg, long(e), got[e], want[e]); break; }
  report("hough_vote", cfg, time_median(op));
  CHECK(musaFree(dp));
  CHECK(musaFree(dcs));
  CHECK(musaFree(dsn));
  CHECK(musaFree(dacc));
}

// ---- softplus in double precision: log1p(exp(x)) ---------------------------------------------
__global__ void softplus_f64(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = log1p(exp(x[i]));
}

static void bench_softplus_f64() {
  const int n = 1 << 22;
  const char *cfg = "n=4194304";
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = double(int(hash_u32(unsigned(i) + 21u) % 400001) - 200000) * 1e-4;
  double *dx, *dy;
  CHECK(musaMalloc(&dx, size_t(n) * 8));
  CHECK(musaMalloc(&dy, size_t(n) * 8));
  CHECK(musaMemcpy(dx, x.data(), size_t(n) * 8, musaMemcpyHostToDevice));
  auto op = [&] { softplus_f64<<<n / 256, 256>>>(dx, dy, n); };
  warm(op);
  std::vector<double> y(n);
  CHECK(musaMemcpy(y.data(), dy, size_t(n) * 8, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 509) {
    double want = std::log1p(std::exp(x[i]));
    if (!near(y[i], want, 1e-13)) { fail("softplus_f64", cfg, i, y[i], want); break; }
  }
  report("softplus_f64", cfg, time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- DNA pattern search: 4 KB chunks (plus the pattern's overlap) staged in shared memory ---
#define DNA_M 12
#define DNA_CHUNK 4096
__constant__ unsigned char c_pattern[DNA_M];

__global__ void dna_search(const unsigned char *text, int n, unsigned *count, unsigned *pos,
                           int cap) {
  __shared__ unsigned char s[DNA_CHUNK + 16];
  size_t base = size_t(blockIdx.x) * DNA_CHUNK;
  const unsigned *src = (const unsigned *)(text + base);
  for (int w = threadIdx.x; w < (DNA_CHUNK + 16) / 4; w += blockDim.x)
    ((unsigned *)s)[w] = base + 4 * w + 4 <= size_t(n) ? src[w] : 0u;
  __syncthreads();
  for (int p = threadIdx.x; p < DNA_CHUNK; p += blockDim.x) {
    if (base + p + DNA_M > size_t(n)) break;
    int k = 0;
    while (k < DNA_M && s[p + k] == c_pattern[k]) ++k;
    if (k == DNA_M) {
      unsigned slot = atomicAdd(count, 1u);
      if (slot < unsigned(cap)) pos[slot] = unsigned(base + p);
    }
  }
}

static void bench_dna_search() {
  const int n = 1 << 25, cap = 4096;
  const char *cfg = "n=33554432,m=12";
  const unsigned char pattern[DNA_M] = {'G', 'A', 'T', 'T', 'A', 'C', 'A', 'C', 'G', 'T', 'A', 'G'};
  const char acgt[4] = {'A', 'C', 'G', 'T'};
  std::vector<unsigned char> text(size_t(n) + 16, 0);
  for (int i = 0; i < n; ++i) text[i] = acgt[hash_u32(unsigned(i) ^ 0x165667b1u) >> 30];
  for (int k = 0; k < 300; ++k) {  // planted copies, some overlapping a chunk edge
    size_t at = size_t(hash_u32(unsigned(k) + 999u) % unsigned(n - DNA_M));
    if (k % 10 == 0) at = size_t(k / 10 + 1) * DNA_CHUNK - 5;
    std::memcpy(&text[at], pattern, DNA_M);
  }
  std::vector<unsigned> want;
  for (int i = 0; i + DNA_M <= n; ++i)
    if (std::memcmp(&text[i], pattern, DNA_M) == 0) want.push_back(unsigned(i));
  CHECK(musaMemcpyToSymbol(c_pattern, pattern, DNA_M));
  unsigned char *dt;
  unsigned *dc, *dp;
  CHECK(musaMalloc(&dt, size_t(n) + 16));
  CHECK(musaMalloc(&dc, 4));
  CHECK(musaMalloc(&dp, cap * 4));
  CHECK(musaMemcpy(dt, text.data(), size_t(n) + 16, musaMemcpyHostToDevice));
  auto op = [&] {
    CHECK(musaMemsetAsync(dc, 0, 4));
    dna_search<<<n / DNA_CHUNK, 256>>>(dt, n, dc, dp, cap);
  };
  warm(op);
  unsigned cnt = 0;
  CHECK(musaMemcpy(&cnt, dc, 4, musaMemcpyDeviceToHost));
  std::vector<unsigned> got(std::min<unsigned>(cnt, cap));
  CHECK(musaMemcpy(got.data(), dp, got.size() * 4, musaMemcpyDeviceToHost));
  std::sort(got.begin(), got.end());
  if (cnt != want.size() || got.size() != want.size()) {
    fail("dna_search", cfg, 0, cnt, double(want.size()));
  } else if (got != want) {
    size_t k = 0;
    while (got[k] == want[k]) ++k;
    fail("dna_search", cfg, long(k), got[k], want[k]);
  }
  report("dna_search", cfg, time_median(op));
  CHECK(musaFree(dt));
  CHECK(musaFree(dc));
  CHECK(musaFree(dp));
}

int main(int argc, char **argv) {
  if (argc > 1) g_repeats = std::max(1, std::atoi(argv[1]));
  CHECK(musaEventCreate(&g_start));
  CHECK(musaEventCreate(&g_stop));
  bench_hist256();
  bench_median3x3();
  bench_life();
  bench_tridiag();
  bench_sgemm();
  bench_gauss_step();
  bench_topk();
  bench_fwht64();
  bench_wave_tail();
  bench_floyd();
  bench_hough();
  bench_softplus_f64();
  bench_dna_search();
  bench_spmv_csr_vector();
  bench_segreduce();
  bench_merge_path();
  bench_sparse_dot_f64();
  bench_embedding_bag();
  bench_gemv_int4();
  bench_gemv_dp4a();
  bench_memcpy2d_d2h();
  bench_memcpy_async_d2h();
  bench_memset_large();
  bench_graph_replay();
  bench_streams8();
  bench_event_pingpong();
  CHECK(musaEventDestroy(g_start));
  CHECK(musaEventDestroy(g_stop));
  CHECK(musaDeviceSynchronize());
  if (g_failures) {
    std::printf("FAILED %d config(s)\n", g_failures);
    return 1;
  }
  return 0;
}
