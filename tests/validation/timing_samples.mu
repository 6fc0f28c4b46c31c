// Timing-validation suite 9 ("samples"): kernels in the style of the NVIDIA CUDA Samples and of
// textbook (PMPP) teaching programs, written on 2026-12-05 by a helper that did not read the
// timing model, to be measured on the H200 once so that its first figure is out of sample.
// The code is this suite's own; only the shapes of the samples (block sizes, tiling, per-thread
// work, launch sequences) follow the originals. Each config and what it stresses:
//
// Linear algebra, reductions, atomics (timing_samples_core.h)
//   matrixMul block=16 / block=32     the sample's shared-tile K loop: 16x16 tiles on
//                                     2048x2048x2048 (compute- and shared-load-bound), 32x32
//                                     tiles (1024-thread blocks) at the sample's default
//                                     320x320x640 (200 blocks, short)
//   reduce0/3/4/6                     the reduction ladder on 4M ints, relaunched on the partials
//                                     to one value: divergent modulo test (dynamic shared
//                                     memory), add during load with sequential addressing, last
//                                     warp by tile shuffles (512 threads), grid-stride with 64
//                                     blocks and warp tiles
//   threadFenceReduction 4M / 64K     one pass: 64 blocks, __threadfence, atomicInc ticket,
//                                     the last block sums the partials (DRAM-sized, and small)
//   histogram64                       per-thread byte counters in shared memory (64 threads, 63
//                                     words each: 1041 blocks), then a 64-block merge kernel
//   filter_warp_aggregated / naive    keep positive ints through one global counter: leader
//                                     atomics of coalesced_threads() groups vs one per element
//   atomic_intrinsics                 ten kinds of atomics (add, exch, max, min, inc, dec, CAS,
//                                     and, or, xor), every thread on the same ten words
//   scalarProd                        512 dot products of 8192 floats, a block each (128 blocks,
//                                     1024 shared accumulators, strided tree)
//   conjugateGradient                 10 CG iterations on a 1M-row tridiagonal CSR matrix, 7
//                                     launches each (SpMV, two-stage dots, AXPYs), scalars kept
//                                     on the device (L2-resident vectors, launch-bound mix)
//   vectorAdd_zerocopy                vectorAdd on mapped pinned host memory (every access over
//                                     the host link)
//   transposeDiagonal 4096x1024       32x33 shared tile, 32x8 threads, diagonal block
//                                     reordering (the sample's general, non-square mapping)
// Finance, random numbers, sorting (timing_samples_finance.h)
//   BlackScholes_f2                   2M options, two a thread through float2, __expf/__logf/
//                                     __fdividef and the CND polynomial
//   BlackScholes_fp64                 1M options in double: exp, log, sqrt, division
//   binomialOptions 128 / 1024        a block an option, values in registers, 2 barriers a step:
//                                     128 options x 1024 steps (fewer blocks than SMs, 8 values
//                                     a thread), and the sample's 1024 options x 2048 steps (16)
//   MonteCarlo                        96 options (a block each), 131072 paths: xorshift,
//                                     Box-Muller (logf, sqrtf, sincosf), expf payoffs, a tree
//   SobolQRNG                         Gray-code XOR of shared direction numbers (integer loop
//                                     with a data-dependent trip count), 16 dims x 256K points
//   bitonicSort                       2^20 key/value pairs: shared sort of 1024-key chunks, then
//                                     55 global merge steps and 10 shared merges (66 launches)
//   mergeSort_shared                  1024-key chunks merged in shared memory by binary-search
//                                     ranks (10 stages, 2 barriers each)
//   mergeSort_global                  10 global merge passes, every key binary-searching its
//                                     partner run in global memory (dependent L2 loads)
// Image and signal processing (this file)
//   convolutionRows / Columns         the sample's separable radius-8 filter on 2048x2048:
//                                     16x4 threads x 8 results (rows), 16x8 x 8 (columns),
//                                     shared tiles with an apron, taps in constant memory
//   fastWalshTransform 2^22 / 2^16    radix-4 global passes down to 1024-point batches, then a
//                                     shared-memory kernel for the last 10 levels (DRAM-sized,
//                                     and a small launch-bound one)
//   dct8x8                            8x8 DCT of a 2048x2048 image: 32x16 tiles of 64 threads,
//                                     column then row transforms through a stride-33 shared
//                                     tile, coefficients from constant memory
//   boxFilter_x                       radius-14 running box filter, one thread a row (32 blocks
//                                     of 64, every warp load uncoalesced), 2048x2048
//   recursiveGaussian                 Deriche IIR down and back up each column, one thread a
//                                     column (32 blocks), a dependent recurrence an element
//   nbody 4096 / 16384                all-pairs float4 forces in 256-body shared tiles with
//                                     rsqrtf, then the integration (16 and 64 blocks, fewer than
//                                     the SMs); one step, and 10 ping-pong steps for 16384
//   dwtHaar1D                         a 2^20 Haar wavelet: 1024 blocks of 512 threads take 10
//                                     levels in shared memory with halving active threads, then
//                                     one block the last 10
//   FDTD3d                            radius-4 3D stencil on 256x256x64: 32x16 blocks marching
//                                     in z with register queues and a shared xy tile (128 blocks)
//
// Built and run like timing_suite.mu (see README.md).
//
// Usage: timing_samples [R] [name]  R timed repeats per config (default 1), after one warm-up;
//                                   name (optional) runs only the benches whose name holds it.
// Output: RESULT <kernel> <config> <median_ms>; FAIL lines when a warm-up result is wrong.
#include <musa_runtime.h>
#include <cooperative_groups.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "suite_harness.h"

namespace cg = cooperative_groups;

// time_median with an untimed preparation before each timed run (for in-place kernels).
template <class P, class F> static float time_median_prep(P prep, F op) {
  std::vector<float> t;
  for (int r = 0; r < g_repeats; ++r) {
    prep();
    CHECK(musaDeviceSynchronize());
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

static float frand(unsigned i, unsigned salt) { return float(hash_u32(i * 2654435761u + salt) % 100000) / 100000.f; }

#include "timing_samples_core.h"

#include "timing_samples_finance.h"

// ================================ convolutionSeparable =======================================
#define CS_R 8
__constant__ float c_ckernel[2 * CS_R + 1];

// rows: 16x4 threads, 8 results a thread along x, one 16-wide halo step each side
__global__ void conv_rows(float *dst, const float *src, int W, int H) {
  __shared__ float s[4][(8 + 2) * 16];
  int baseX = (blockIdx.x * 8 - 1) * 16 + threadIdx.x, baseY = blockIdx.y * 4 + threadIdx.y;
  src += size_t(baseY) * W + baseX;
  dst += size_t(baseY) * W + baseX;
  int ty = threadIdx.y, tx = threadIdx.x;
#pragma unroll
  for (int i = 1; i < 9; ++i) s[ty][tx + i * 16] = src[i * 16];
  s[ty][tx] = baseX >= 0 ? src[0] : 0.f;
  s[ty][tx + 9 * 16] = W - baseX > 9 * 16 ? src[9 * 16] : 0.f;
  __syncthreads();
#pragma unroll
  for (int i = 1; i < 9; ++i) {
    float sum = 0.f;
#pragma unroll
    for (int j = -CS_R; j <= CS_R; ++j) sum += c_ckernel[CS_R - j] * s[ty][tx + i * 16 + j];
    dst[i * 16] = sum;
  }
}

// columns: 16x8 threads, 8 results a thread along y, one 8-high halo step each side
__global__ void conv_cols(float *dst, const float *src, int W, int H) {
  __shared__ float s[16][(8 + 2) * 8 + 1];
  int baseX = blockIdx.x * 16 + threadIdx.x, baseY = (blockIdx.y * 8 - 1) * 8 + threadIdx.y;
  src += size_t(baseY) * W + baseX;
  dst += size_t(baseY) * W + baseX;
  int ty = threadIdx.y, tx = threadIdx.x;
#pragma unroll
  for (int i = 1; i < 9; ++i) s[tx][ty + i * 8] = src[size_t(i) * 8 * W];
  s[tx][ty] = baseY >= 0 ? src[0] : 0.f;
  s[tx][ty + 9 * 8] = H - baseY > 9 * 8 ? src[size_t(9) * 8 * W] : 0.f;
  __syncthreads();
#pragma unroll
  for (int i = 1; i < 9; ++i) {
    float sum = 0.f;
#pragma unroll
    for (int j = -CS_R; j <= CS_R; ++j) sum += c_ckernel[CS_R - j] * s[tx][ty + i * 8 + j];
    dst[size_t(i) * 8 * W] = sum;
  }
}

static void bench_convsep() {
  const int W = 2048, H = 2048;
  size_t n = size_t(W) * H;
  float k[2 * CS_R + 1], ks = 0;
  for (int i = 0; i <= 2 * CS_R; ++i) ks += (k[i] = float(std::exp(-double((i - CS_R) * (i - CS_R)) / 18.0)));
  for (float &v : k) v /= ks;
  CHECK(musaMemcpyToSymbol(c_ckernel, k, sizeof k));
  std::vector<float> img(n);
  for (size_t i = 0; i < n; ++i) img[i] = frand(unsigned(i), 7u);
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(din, img.data(), n * 4, musaMemcpyHostToDevice));
  std::vector<float> got(n);
  for (int cols = 0; cols < 2; ++cols) {
    const char *kname = cols ? "convolutionColumns" : "convolutionRows";
    const char *cfg = cols ? "2048x2048,radius=8,block=16x8" : "2048x2048,radius=8,block=16x4";
    auto op = [&] {
      if (cols) conv_cols<<<dim3(W / 16, H / 64), dim3(16, 8)>>>(dout, din, W, H);
      else conv_rows<<<dim3(W / 128, H / 4), dim3(16, 4)>>>(dout, din, W, H);
    };
    warm(op);
    CHECK(musaMemcpy(got.data(), dout, n * 4, musaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i += 1013) {
      int x = int(i % W), y = int(i / W);
      double s = 0;
      for (int j = -CS_R; j <= CS_R; ++j) {
        int xx = cols ? x : x + j, yy = cols ? y + j : y;
        if (xx >= 0 && xx < W && yy >= 0 && yy < H) s += double(k[CS_R - j]) * img[size_t(yy) * W + xx];
      }
      if (!near(got[i], s, 1e-5)) { fail(kname, cfg, long(i), got[i], s); break; }
    }
    report(kname, cfg, time_median(op));
  }
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ================================= fastWalshTransform ========================================
// radix-4 butterflies over batches of N (stride N/4), grid.y = batch count
__global__ void fwt_batch2(float *dst, const float *src, int stride) {
  int pos = blockIdx.x * blockDim.x + threadIdx.x, N = blockDim.x * gridDim.x * 4;
  src += size_t(blockIdx.y) * N;
  dst += size_t(blockIdx.y) * N;
  int lo = pos & (stride - 1), i0 = ((pos - lo) << 2) + lo;
  int i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
  float D0 = src[i0], D1 = src[i1], D2 = src[i2], D3 = src[i3], T;
  T = D0; D0 = D0 + D2; D2 = T - D2;
  T = D1; D1 = D1 + D3; D3 = T - D3;
  T = D0; dst[i0] = D0 + D1; dst[i1] = T - D1;
  T = D2; dst[i2] = D2 + D3; dst[i3] = T - D3;
}

// the last log2N levels of each 2^log2N batch in shared memory, blockDim = N / 4
__global__ void fwt_batch1(float *dst, const float *src, int log2N) {
  extern __shared__ float s_fwt[];
  const int N = 1 << log2N;
  src += size_t(blockIdx.x) * N;
  dst += size_t(blockIdx.x) * N;
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) s_fwt[pos] = src[pos];
  int stride = N;
  for (; stride >= 4; stride >>= 2) { // radix-4 stages with strides N/4, N/16, ...
    int st = stride >> 2, pos = threadIdx.x, lo = pos & (st - 1), i0 = ((pos - lo) << 2) + lo;
    __syncthreads();
    float D0 = s_fwt[i0], D1 = s_fwt[i0 + st], D2 = s_fwt[i0 + 2 * st], D3 = s_fwt[i0 + 3 * st], T;
    T = D0; D0 = D0 + D2; D2 = T - D2;
    T = D1; D1 = D1 + D3; D3 = T - D3;
    T = D0; s_fwt[i0] = D0 + D1; s_fwt[i0 + st] = T - D1;
    T = D2; s_fwt[i0 + 2 * st] = D2 + D3; s_fwt[i0 + 3 * st] = T - D3;
  }
  if (log2N & 1) { // a last radix-2 stage
    __syncthreads();
    for (int pos = threadIdx.x; pos < N / 2; pos += blockDim.x) {
      int i0 = pos << 1;
      float D0 = s_fwt[i0], D1 = s_fwt[i0 + 1];
      s_fwt[i0] = D0 + D1;
      s_fwt[i0 + 1] = D0 - D1;
    }
  }
  __syncthreads();
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) dst[pos] = s_fwt[pos];
}

static void bench_fwt() {
  for (int log2Data : {22, 16}) {
    const int n = 1 << log2Data;
    char cfg[48];
    int passes = (log2Data - 10) / 2;
    std::snprintf(cfg, sizeof cfg, "n=%d,radix4_passes=%d", n, passes);
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = float(int(hash_u32(unsigned(i) + 55u) % 3) - 1);
    float *din, *dout;
    CHECK(musaMalloc(&din, size_t(n) * 4));
    CHECK(musaMalloc(&dout, size_t(n) * 4));
    CHECK(musaMemcpy(din, h.data(), size_t(n) * 4, musaMemcpyHostToDevice));
    auto op = [&] {
      const float *src = din;
      int log2N = log2Data, M = 1;
      for (; log2N > 11; log2N -= 2, M <<= 2) {
        int N = 1 << log2N;
        fwt_batch2<<<dim3(N / 4 / 256, M), 256>>>(dout, src, N / 4);
        src = dout;
      }
      int N = 1 << log2N;
      fwt_batch1<<<n / N, N / 4, N * sizeof(float)>>>(dout, src, log2N);
    };
    warm(op);
    std::vector<float> got(n);
    CHECK(musaMemcpy(got.data(), dout, size_t(n) * 4, musaMemcpyDeviceToHost));
    std::vector<double> ref(h.begin(), h.end());
    for (int st = 1; st < n; st <<= 1)
      for (int i = 0; i < n; i += 2 * st)
        for (int j = i; j < i + st; ++j) {
          double a = ref[j], b = ref[j + st];
          ref[j] = a + b;
          ref[j + st] = a - b;
        }
    for (int i = 0; i < n; ++i)
      if (got[i] != ref[i]) { fail("fastWalshTransform", cfg, i, got[i], ref[i]); break; }
    report("fastWalshTransform", cfg, time_median(op));
    CHECK(musaFree(din));
    CHECK(musaFree(dout));
  }
}

// ====================================== dct8x8 ===============================================
__constant__ float c_dct[64]; // c_dct[k * 8 + n] = C(k) cos((2n + 1) k pi / 16)

__device__ inline void dct8_strided(float *p, int stride) {
  float v[8], o[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) v[i] = p[i * stride];
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    float s = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) s += c_dct[k * 8 + i] * v[i];
    o[k] = s;
  }
#pragma unroll
  for (int k = 0; k < 8; ++k) p[k * stride] = o[k];
}

// a 32x16 tile a block (4x2 DCT blocks), threads (8, 4, 2): column then row transforms
__global__ void dct8x8(float *dst, const float *src, int W) {
  __shared__ float tile[16 * 33];
  int tx = threadIdx.x, bxi = threadIdx.y, byi = threadIdx.z;
  int x0 = blockIdx.x * 32, y0 = blockIdx.y * 16;
  int col = bxi * 8 + tx, row0 = byi * 8;
  for (int i = 0; i < 8; ++i) tile[(row0 + i) * 33 + col] = src[size_t(y0 + row0 + i) * W + x0 + col];
  __syncthreads();
  dct8_strided(&tile[row0 * 33 + col], 33); // column tx of this 8x8 block
  __syncthreads();
  dct8_strided(&tile[(row0 + tx) * 33 + bxi * 8], 1); // row tx of this 8x8 block
  __syncthreads();
  for (int i = 0; i < 8; ++i) dst[size_t(y0 + row0 + i) * W + x0 + col] = tile[(row0 + i) * 33 + col];
}

static void bench_dct() {
  const int W = 2048, H = 2048;
  const char *cfg = "2048x2048,tile=32x16,threads=64";
  float c[64];
  for (int k = 0; k < 8; ++k)
    for (int i = 0; i < 8; ++i)
      c[k * 8 + i] = float((k ? std::sqrt(0.25) : std::sqrt(0.125)) * std::cos((2 * i + 1) * k * 3.14159265358979323846 / 16));
  CHECK(musaMemcpyToSymbol(c_dct, c, sizeof c));
  size_t n = size_t(W) * H;
  std::vector<float> img(n), got(n);
  for (size_t i = 0; i < n; ++i) img[i] = float(hash_u32(unsigned(i) + 8u) % 256);
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(din, img.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { dct8x8<<<dim3(W / 32, H / 16), dim3(8, 4, 2)>>>(dout, din, W); };
  warm(op);
  CHECK(musaMemcpy(got.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (size_t b = 0; b < n / 64; b += 977) {
    int bx = int(b % (W / 8)) * 8, by = int(b / (W / 8)) * 8;
    for (int u = 0; u < 8; ++u)
      for (int v = 0; v < 8; ++v) { // coefficient (row u, column v)
        double s = 0;
        for (int y = 0; y < 8; ++y)
          for (int x = 0; x < 8; ++x) s += double(c[u * 8 + y]) * c[v * 8 + x] * img[size_t(by + y) * W + bx + x];
        float g = got[size_t(by + u) * W + bx + v];
        if (std::fabs(g - s) > 0.02) { fail("dct8x8", cfg, long(b), g, s); b = n; u = v = 8; }
      }
  }
  report("dct8x8", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ==================================== boxFilter ==============================================
// running-sum box filter with clamped edges, one thread a row (the sample's x pass)
__global__ void box_x(const float *id, float *od, int w, int h, int r) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= h) return;
  float scale = 1.0f / float(2 * r + 1);
  id += size_t(y) * w;
  od += size_t(y) * w;
  float t = id[0] * r;
  for (int x = 0; x <= r; ++x) t += id[x];
  od[0] = t * scale;
  for (int x = 1; x <= r; ++x) { t += id[x + r] - id[0]; od[x] = t * scale; }
  for (int x = r + 1; x < w - r; ++x) { t += id[x + r] - id[x - r - 1]; od[x] = t * scale; }
  for (int x = w - r; x < w; ++x) { t += id[w - 1] - id[x - r - 1]; od[x] = t * scale; }
}

static void bench_box() {
  const int w = 2048, h = 2048, r = 14;
  const char *cfg = "2048x2048,radius=14,thread_per_row";
  size_t n = size_t(w) * h;
  std::vector<float> img(n), got(n);
  for (size_t i = 0; i < n; ++i) img[i] = frand(unsigned(i), 3u);
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(din, img.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { box_x<<<h / 64, 64>>>(din, dout, w, h, r); };
  warm(op);
  CHECK(musaMemcpy(got.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i += 523) {
    int x = int(i % w), y = int(i / w);
    double s = 0;
    for (int d = -r; d <= r; ++d) s += img[size_t(y) * w + std::min(std::max(x + d, 0), w - 1)];
    s /= (2 * r + 1);
    if (std::fabs(got[i] - s) > 1e-4) { fail("boxFilter_x", cfg, long(i), got[i], s); break; }
  }
  report("boxFilter_x", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ================================= recursiveGaussian =========================================
struct Deriche {
  float a0, a1, a2, a3, b1, b2, coefp, coefn;
};

__global__ void recursive_gaussian(const float *id, float *od, int w, int h, Deriche c) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w) return;
  id += x;
  od += x;
  float xp = id[0], yb = c.coefp * xp, yp = yb; // clamp-to-edge start
  for (int y = 0; y < h; ++y) {
    float xc = id[size_t(y) * w];
    float yc = c.a0 * xc + c.a1 * xp - c.b1 * yp - c.b2 * yb;
    od[size_t(y) * w] = yc;
    xp = xc; yb = yp; yp = yc;
  }
  float xn = id[size_t(h - 1) * w], xa = xn, yn = c.coefn * xn, ya = yn;
  for (int y = h - 1; y >= 0; --y) {
    float xc = id[size_t(y) * w];
    float yc = c.a2 * xn + c.a3 * xa - c.b1 * yn - c.b2 * ya;
    xa = xn; xn = xc; ya = yn; yn = yc;
    od[size_t(y) * w] += yc;
  }
}

static void bench_recursive_gaussian() {
  const int w = 2048, h = 2048;
  const char *cfg = "2048x2048,sigma=10,thread_per_column";
  const double sigma = 10.0, alpha = 1.695 / sigma, ema = std::exp(-alpha), ema2 = std::exp(-2 * alpha);
  double k = (1 - ema) * (1 - ema) / (1 + 2 * alpha * ema - ema2);
  double a0 = k, a1 = k * (alpha - 1) * ema, a2 = k * (alpha + 1) * ema, a3 = -k * ema2;
  double b1 = -2 * ema, b2 = ema2;
  Deriche c = {float(a0), float(a1), float(a2), float(a3), float(b1), float(b2),
               float((a0 + a1) / (1 + b1 + b2)), float((a2 + a3) / (1 + b1 + b2))};
  size_t n = size_t(w) * h;
  std::vector<float> img(n), got(n);
  for (size_t i = 0; i < n; ++i) img[i] = frand(unsigned(i), 21u);
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(din, img.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { recursive_gaussian<<<w / 64, 64>>>(din, dout, w, h, c); };
  warm(op);
  CHECK(musaMemcpy(got.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (int x = 0; x < w; x += 173) { // the same recurrence in double for a few columns
    std::vector<double> out(h);
    double xp = img[x], yb = c.coefp * xp, yp = yb;
    for (int y = 0; y < h; ++y) {
      double xc = img[size_t(y) * w + x], yc = c.a0 * xc + c.a1 * xp - c.b1 * yp - c.b2 * yb;
      out[y] = yc;
      xp = xc; yb = yp; yp = yc;
    }
    double xn = img[size_t(h - 1) * w + x], xa = xn, yn = c.coefn * xn, ya = yn;
    for (int y = h - 1; y >= 0; --y) {
      double xc = img[size_t(y) * w + x], yc = c.a2 * xn + c.a3 * xa - c.b1 * yn - c.b2 * ya;
      xa = xn; xn = xc; ya = yn; yn = yc;
      out[y] += yc;
    }
    int y = 0;
    for (; y < h; ++y)
      if (std::fabs(got[size_t(y) * w + x] - out[y]) > 1e-4) break;
    if (y < h) { fail("recursiveGaussian", cfg, long(size_t(y) * w + x), got[size_t(y) * w + x], out[y]); break; }
  }
  report("recursiveGaussian", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ====================================== nbody ================================================
// all pairs, bodies staged 256 at a time in shared memory; pos.w is the mass
__device__ inline float3 body_body(float3 ai, float4 bi, float4 bj, float soft2) {
  float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
  float d2 = r.x * r.x + r.y * r.y + r.z * r.z + soft2;
  float inv = rsqrtf(d2);
  float s = bj.w * inv * inv * inv;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

__global__ void nbody_integrate(float4 *newPos, float4 *newVel, const float4 *oldPos, const float4 *oldVel,
                                float dt, float damping, float soft2, int n) {
  __shared__ float4 sh[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = oldPos[i];
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (int tile = 0; tile < n / 256; ++tile) {
    sh[threadIdx.x] = oldPos[tile * 256 + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < 256; ++j) a = body_body(a, p, sh[j], soft2);
    __syncthreads();
  }
  float4 v = oldVel[i];
  v.x = (v.x + a.x * dt) * damping;
  v.y = (v.y + a.y * dt) * damping;
  v.z = (v.z + a.z * dt) * damping;
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
  newPos[i] = p;
  newVel[i] = v;
}

static void bench_nbody() {
  for (int n : {4096, 16384}) {
    const int iters = n == 4096 ? 1 : 10; // the larger one like the sample's benchmark mode
    char cfg[48];
    std::snprintf(cfg, sizeof cfg, "bodies=%d,threads=256,iters=%d", n, iters);
    const float dt = 0.01f, damp = 0.995f, soft2 = 0.01f;
    std::vector<float4> pos(n), vel(n);
    for (int i = 0; i < n; ++i) {
      pos[i] = make_float4(frand(i, 1) * 20 - 10, frand(i, 2) * 20 - 10, frand(i, 3) * 20 - 10, 0.5f + frand(i, 4));
      vel[i] = make_float4(frand(i, 5) - 0.5f, frand(i, 6) - 0.5f, frand(i, 7) - 0.5f, 0.f);
    }
    float4 *d[4];
    for (int a = 0; a < 4; ++a) CHECK(musaMalloc(&d[a], size_t(n) * sizeof(float4)));
    auto prep = [&] {
      CHECK(musaMemcpy(d[0], pos.data(), size_t(n) * sizeof(float4), musaMemcpyHostToDevice));
      CHECK(musaMemcpy(d[1], vel.data(), size_t(n) * sizeof(float4), musaMemcpyHostToDevice));
    };
    auto op = [&] { // ping-pong between the two position/velocity pairs
      for (int it = 0; it < iters; ++it) {
        int s = (it & 1) * 2, t = 2 - s;
        nbody_integrate<<<n / 256, 256>>>(d[t], d[t + 1], d[s], d[s + 1], dt, damp, soft2, n);
      }
    };
    prep();
    warm(op);
    std::vector<float4> np(n);
    CHECK(musaMemcpy(np.data(), d[iters & 1 ? 2 : 0], size_t(n) * sizeof(float4), musaMemcpyDeviceToHost));
    if (iters == 1)
      for (int i = 0; i < n; i += 331) {
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < n; ++j) {
          double rx = pos[j].x - pos[i].x, ry = pos[j].y - pos[i].y, rz = pos[j].z - pos[i].z;
          double d2 = rx * rx + ry * ry + rz * rz + soft2, s = pos[j].w / (d2 * std::sqrt(d2));
          ax += rx * s, ay += ry * s, az += rz * s;
        }
        double vx = (vel[i].x + ax * dt) * damp, want = pos[i].x + vx * dt;
        if (std::fabs(np[i].x - want) > 1e-4) { fail("nbody", cfg, i, np[i].x, want); break; }
      }
    else
      for (int i = 0; i < n; ++i) // 10 small steps: every body finite and moved little
        if (!(std::fabs(np[i].x - pos[i].x) < 1.0f) || np[i].w != pos[i].w) { fail("nbody", cfg, i, np[i].x, pos[i].x); break; }
    report("nbody", cfg, time_median_prep(prep, op));
    for (int a = 0; a < 4; ++a) CHECK(musaFree(d[a]));
  }
}

// ===================================== dwtHaar1D =============================================
// Each block takes 2 * blockDim inputs through all levels in shared memory: level l leaves
// blockDim >> l threads working; details go to out[(n >> (l + 1)) + ...], the block's
// approximation to approx[blockIdx.x].
__global__ void dwt_haar(const float *in, float *out, float *approx, int n) {
  extern __shared__ float s_dwt[];
  const float rs2 = 0.70710678118654752f;
  int t = threadIdx.x, nb = blockDim.x;
  float a = in[blockIdx.x * 2 * nb + 2 * t], b = in[blockIdx.x * 2 * nb + 2 * t + 1];
  out[(n >> 1) + blockIdx.x * nb + t] = (a - b) * rs2;
  s_dwt[t] = (a + b) * rs2;
  int level = 1;
  for (int active = nb >> 1; active > 0; active >>= 1, ++level) {
    __syncthreads();
    float x = 0.f, y = 0.f;
    if (t < active) { x = s_dwt[2 * t]; y = s_dwt[2 * t + 1]; }
    __syncthreads();
    if (t < active) {
      out[(n >> (level + 1)) + blockIdx.x * active + t] = (x - y) * rs2;
      s_dwt[t] = (x + y) * rs2;
    }
  }
  if (t == 0) approx[blockIdx.x] = s_dwt[0];
}

static void bench_dwt() {
  const int n = 1 << 20;
  const char *cfg = "n=1048576,blocks=1024+1,threads=512";
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = frand(unsigned(i), 12u) - 0.5f;
  float *din, *dout, *dapx, *dapx2;
  CHECK(musaMalloc(&din, size_t(n) * 4));
  CHECK(musaMalloc(&dout, size_t(n) * 4));
  CHECK(musaMalloc(&dapx, 1024 * 4));
  CHECK(musaMalloc(&dapx2, 4));
  CHECK(musaMemcpy(din, h.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    dwt_haar<<<n / 1024, 512, 512 * 4>>>(din, dout, dapx, n);
    dwt_haar<<<1, 512, 512 * 4>>>(dapx, dout, dapx2, 1024);
  };
  warm(op);
  std::vector<float> got(n);
  float top = 0;
  CHECK(musaMemcpy(got.data(), dout, size_t(n) * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&top, dapx2, 4, musaMemcpyDeviceToHost));
  got[0] = top;
  std::vector<double> cur(h.begin(), h.end()), ref(n);
  for (int len = n; len > 1; len >>= 1) {
    std::vector<double> nx(len / 2);
    for (int i = 0; i < len / 2; ++i) {
      nx[i] = (cur[2 * i] + cur[2 * i + 1]) * std::sqrt(0.5);
      ref[len / 2 + i] = (cur[2 * i] - cur[2 * i + 1]) * std::sqrt(0.5);
    }
    cur.swap(nx);
  }
  ref[0] = cur[0];
  for (int i = 0; i < n; ++i)
    if (std::fabs(got[i] - ref[i]) > 1e-4) { fail("dwtHaar1D", cfg, i, got[i], ref[i]); break; }
  report("dwtHaar1D", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
  CHECK(musaFree(dapx));
  CHECK(musaFree(dapx2));
}

// ====================================== FDTD3d ===============================================
// radius-4 stencil; volumes padded by 4 on every side; a 32x16 block marches through z,
// keeping the 4 planes behind and in front of its point in registers and the current xy plane
// (with its apron) in shared memory
#define FD_R 4
__constant__ float c_fd[FD_R + 1];

__global__ void fdtd3d(float *out, const float *in, int dimx, int dimy, int dimz) {
  __shared__ float tile[16 + 2 * FD_R][32 + 2 * FD_R];
  int tx = threadIdx.x, ty = threadIdx.y;
  int gx = blockIdx.x * 32 + tx, gy = blockIdx.y * 16 + ty;
  int sy = dimx + 2 * FD_R;
  size_t sz = size_t(sy) * (dimy + 2 * FD_R);
  size_t idx = size_t(gy + FD_R) * sy + gx + FD_R; // plane 0 (padding)
  float behind[FD_R], infront[FD_R], cur;
#pragma unroll
  for (int i = FD_R - 2; i >= 0; --i) behind[i] = in[idx + (FD_R - 2 - i) * sz];
  cur = in[idx + (FD_R - 1) * sz];
#pragma unroll
  for (int i = 0; i < FD_R; ++i) infront[i] = in[idx + (FD_R + i) * sz];
  idx += (FD_R - 1) * sz;
  for (int z = 0; z < dimz; ++z) {
#pragma unroll
    for (int i = FD_R - 1; i > 0; --i) behind[i] = behind[i - 1];
    behind[0] = cur;
    cur = infront[0];
#pragma unroll
    for (int i = 0; i < FD_R - 1; ++i) infront[i] = infront[i + 1];
    idx += sz;
    infront[FD_R - 1] = in[idx + FD_R * sz];
    __syncthreads();
    if (ty < FD_R) {
      tile[ty][tx + FD_R] = in[idx - FD_R * sy];
      tile[ty + 16 + FD_R][tx + FD_R] = in[idx + 16 * sy];
    }
    if (tx < FD_R) {
      tile[ty + FD_R][tx] = in[idx - FD_R];
      tile[ty + FD_R][tx + 32 + FD_R] = in[idx + 32];
    }
    tile[ty + FD_R][tx + FD_R] = cur;
    __syncthreads();
    float v = c_fd[0] * cur;
#pragma unroll
    for (int i = 1; i <= FD_R; ++i)
      v += c_fd[i] * (infront[i - 1] + behind[i - 1] + tile[ty + FD_R - i][tx + FD_R] + tile[ty + FD_R + i][tx + FD_R] +
                      tile[ty + FD_R][tx + FD_R - i] + tile[ty + FD_R][tx + FD_R + i]);
    out[idx] = v;
  }
}

static void bench_fdtd() {
  const int dx = 256, dy = 256, dz = 64;
  const char *cfg = "256x256x64,radius=4,block=32x16";
  const float coef[FD_R + 1] = {-0.9f, 0.2f, 0.1f, 0.05f, 0.025f};
  CHECK(musaMemcpyToSymbol(c_fd, coef, sizeof coef));
  const int px = dx + 2 * FD_R, py = dy + 2 * FD_R, pz = dz + 2 * FD_R;
  size_t n = size_t(px) * py * pz;
  std::vector<float> h(n);
  for (size_t i = 0; i < n; ++i) h[i] = frand(unsigned(i), 44u);
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(din, h.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemset(dout, 0, n * 4));
  auto op = [&] { fdtd3d<<<dim3(dx / 32, dy / 16), dim3(32, 16)>>>(dout, din, dx, dy, dz); };
  warm(op);
  std::vector<float> got(n);
  CHECK(musaMemcpy(got.data(), dout, n * 4, musaMemcpyDeviceToHost));
  auto at = [&](int x, int y, int z) { return double(h[(size_t(z) * py + y) * px + x]); };
  for (size_t s = 0; s < size_t(dx) * dy * dz; s += 1009) {
    int x = int(s % dx) + FD_R, y = int(s / dx % dy) + FD_R, z = int(s / (size_t(dx) * dy)) + FD_R;
    double v = coef[0] * at(x, y, z);
    for (int i = 1; i <= FD_R; ++i)
      v += coef[i] * (at(x - i, y, z) + at(x + i, y, z) + at(x, y - i, z) + at(x, y + i, z) + at(x, y, z - i) + at(x, y, z + i));
    float g = got[(size_t(z) * py + y) * px + x];
    if (std::fabs(g - v) > 1e-5) { fail("FDTD3d", cfg, long(s), g, v); break; }
  }
  report("FDTD3d", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

int main(int argc, char **argv) {
  if (argc > 1) g_repeats = std::max(1, std::atoi(argv[1]));
  const char *only = argc > 2 ? argv[2] : nullptr;
  CHECK(musaEventCreate(&g_start));
  CHECK(musaEventCreate(&g_stop));
  struct Bench {
    const char *name;
    void (*fn)();
  };
  const Bench benches[] = {
      {"matrixMul", bench_matrixmul},
      {"reduction", bench_reduction},
      {"threadFenceReduction", bench_threadfence},
      {"histogram64", bench_histogram64},
      {"warpAggregatedAtomics", bench_filter},
      {"simpleAtomicIntrinsics", bench_atomic_intrinsics},
      {"scalarProd", bench_scalarprod},
      {"conjugateGradient", bench_cg},
      {"simpleZeroCopy", bench_zerocopy},
      {"BlackScholes", bench_blackscholes},
      {"binomialOptions", bench_binomial},
      {"MonteCarlo", bench_montecarlo},
      {"SobolQRNG", bench_sobol},
      {"sortingNetworks", bench_bitonic},
      {"mergeSort", bench_mergesort},
      {"convolutionSeparable", bench_convsep},
      {"transpose", bench_transpose},
      {"fastWalshTransform", bench_fwt},
      {"dct8x8", bench_dct},
      {"boxFilter", bench_box},
      {"recursiveGaussian", bench_recursive_gaussian},
      {"nbody", bench_nbody},
      {"dwtHaar1D", bench_dwt},
      {"FDTD3d", bench_fdtd},
  };
  for (const Bench &b : benches)
    if (!only || std::strstr(b.name, only)) b.fn();
  CHECK(musaEventDestroy(g_start));
  CHECK(musaEventDestroy(g_stop));
  CHECK(musaDeviceSynchronize());
  if (g_failures) {
    std::printf("FAILED %d config(s)\n", g_failures);
    return 1;
  }
  return 0;
}
