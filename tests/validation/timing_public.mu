// Timing-validation suite 8 ("public"): kernels in the style of public GPU benchmark suites
// (Rodinia, PolyBench-GPU, SHOC, Parboil, HeCBench, microbenchmark papers), written on
// 2026-12-05 by a helper that did not read the timing model, to be measured on the H200 once so
// that its first figure is out of sample. The code is this suite's own; only the shapes of the
// benchmarks (data layouts, block shapes, per-thread work) follow the originals. Each config
// and what it stresses:
//
// Rodinia (timing_public_kernels.h)
//   hotspot_tile 512x512,iters=8    eight dependent launches of a 16x16 shared tile with halo
//                                    (small grid, launch- and latency-bound)
//   hotspot_tile 4096x4096,iters=1  the same tile kernel on a DRAM-sized grid (bandwidth)
//   srad 2048x2048,kernels=2        two streaming kernels: 1 in / 5 out, then 6 in / 1 out,
//                                    divisions, clamped neighbour reads through the cache
//   backprop_layerforward           16x16 blocks, shared products, modulo-tested tree reduction
//                                    with a barrier a level (65536 small blocks)
//   backprop_adjust_weights         2 read-modify-write arrays and 2 broadcast vectors
//   lud_blocked n=1024              190 launches: 1-block diagonal factorisations (30 barriers),
//                                    panel solves, shrinking trailing updates (launch-bound tail)
//   lavamd_boxes                    fp64 exp() per particle pair, neighbour boxes staged in
//                                    shared memory, 100 of 128 threads busy, edge-box imbalance
//   streamcluster_gain              dimension-major 256-float points (coalesced, DRAM-bound),
//                                    shared candidate, shared float atomics on 20 bins
//   pathfinder_pyramid              5 launches of a 20-row shared-memory pyramid with 2
//                                    barriers a row, integer min, overlapping blocks
//   cfd_flux                        Euler flux: 5 SoA variables, 4 gathered neighbours, ~300
//                                    flops with sqrt and division per element, wall/far-field
//                                    branches, register-heavy
//   btree_find                      a 128-thread block per query, 3 dependent levels through
//                                    shared memory (latency-bound, 65536 tiny blocks)
// PolyBench-GPU (timing_public_linalg_md.h)
//   gesummv_rows n=4096             thread-per-row walks of two matrices (uncoalesced, L1
//                                    reuse), only 16 blocks
//   syrk_naive n=1024,m=512         one output a thread, strided A[j][k] column reads (L1-bound)
//   covariance m=n=256              3 kernels: column means, centring, then a triangular
//                                    thread-per-column covariance loop (serial, imbalanced)
//   gramschmidt n=128               384 launches: a one-warp norm, a scale, a column update
// SHOC (timing_public_linalg_md.h)
//   md_lj f32 / f64                 Lennard-Jones forces over a 128-entry neighbour list
//                                    (column-major list, gathered float4 / 32-byte positions)
//   md5_search                      64 rounds of MD5 a key (integer add/logic/rotate bound)
// Parboil
//   mriq_computeq                   sinf/cosf (full precision) of k-space phases from 32 KB of
//                                    constant memory, 2 launches of 1024 samples
//   coulomb_dcs                     direct Coulomb summation: rsqrtf per atom and grid point,
//                                    atoms in constant memory, 8 points a thread, 128 blocks
//   lbm_d2q9 512x512 / 2048x2048    pull-streaming lattice Boltzmann: 9 SoA loads from
//                                    neighbours and 9 stores a cell (L2-resident vs DRAM)
//   sad_4x4                         sums of absolute differences of 4x4 byte blocks over a
//                                    17x17 search window, frames tiled in shared memory
// HeCBench
//   bsearch_lower                   24 dependent loads a thread into a 64 MB sorted array
//   bilateral_gray                  7x7 bilateral filter: __expf range weights, constant
//                                    spatial weights, clamped cached reads
// Image processing
//   integral_image 2048x2048        a block-wide row scan (uchar4 in, uint4 out, shuffles),
//                                    then a thread-per-column serial scan (16 blocks)
// Microbenchmarks
//   const_cache_lookup uniform      warp-uniform constant-memory indices (broadcast)
//   const_cache_lookup lane_indexed 32 distinct constant addresses a warp (serialised)
//   mixbench_fp32 fma=2/32/256      a compute-intensity sweep over the same streaming kernel
//                                    (4 independent FMA chains a thread): memory-bound,
//                                    balanced, compute-bound
//
// Built and run like timing_suite.mu (see README.md).
//
// Usage: timing_public [R] [name]   R timed repeats per config (default 1), after one warm-up;
//                                   name (optional) runs only the benches whose name holds it.
// Output: RESULT <kernel> <config> <median_ms>; FAIL lines when a warm-up result is wrong.
#include <musa_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "suite_harness.h"

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

#include "timing_public_kernels.h"

#include "timing_public_linalg_md.h"

// ==================================== Parboil ================================================

// ---- mri-q: Q at each voxel, the sum over k-space samples of phiMag * (cos, sin)(2 pi k.x),
// the samples in constant memory, one launch a 1024-sample chunk ----------------------------
#define MRIQ_K 2048
__constant__ float4 c_kval[MRIQ_K];  // kx, ky, kz, |phi|^2

__global__ void mriq_computeq(const float *x, const float *y, const float *z, float *qr,
                              float *qi, int kbase, int kcount, int accumulate) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float sx = x[t], sy = y[t], sz = z[t];
  float r = accumulate ? qr[t] : 0.f, im = accumulate ? qi[t] : 0.f;
  for (int k = kbase; k < kbase + kcount; ++k) {
    float4 kv = c_kval[k];
    float arg = 6.2831853f * (kv.x * sx + kv.y * sy + kv.z * sz);
    r += kv.w * cosf(arg);
    im += kv.w * sinf(arg);
  }
  qr[t] = r;
  qi[t] = im;
}

static void bench_mriq() {
  const int nx = 131072;
  const char *cfg = "voxels=131072,k=2048,launches=2";
  std::vector<float4> kv(MRIQ_K);
  for (int k = 0; k < MRIQ_K; ++k) {
    auto u = [&](unsigned s) { return float(hash_u32(unsigned(k) * 4u + s) % 100000) / 100000.f; };
    kv[k] = make_float4(32.f * u(0) - 16.f, 32.f * u(1) - 16.f, 32.f * u(2) - 16.f, u(3));
  }
  CHECK(musaMemcpyToSymbol(c_kval, kv.data(), sizeof(float4) * MRIQ_K));
  std::vector<float> x(nx), y(nx), z(nx);
  for (int i = 0; i < nx; ++i) {
    x[i] = float(hash_u32(unsigned(i) * 3u + 11u) % 100000) / 100000.f - 0.5f;
    y[i] = float(hash_u32(unsigned(i) * 3u + 12u) % 100000) / 100000.f - 0.5f;
    z[i] = float(hash_u32(unsigned(i) * 3u + 13u) % 100000) / 100000.f - 0.5f;
  }
  float *d[5];
  for (int a = 0; a < 5; ++a) CHECK(musaMalloc(&d[a], size_t(nx) * 4));
  CHECK(musaMemcpy(d[0], x.data(), size_t(nx) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d[1], y.data(), size_t(nx) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d[2], z.data(), size_t(nx) * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    for (int c = 0; c < MRIQ_K / 1024; ++c)
      mriq_computeq<<<nx / 256, 256>>>(d[0], d[1], d[2], d[3], d[4], c * 1024, 1024, c > 0);
  };
  warm(op);
  std::vector<float> qr(nx), qi(nx);
  CHECK(musaMemcpy(qr.data(), d[3], size_t(nx) * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(qi.data(), d[4], size_t(nx) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < nx; i += 4099) {
    double r = 0, im = 0, mag = 0;
    for (int k = 0; k < MRIQ_K; ++k) {
      double arg = 2.0 * 3.14159265358979323846 * (double(kv[k].x) * x[i] + double(kv[k].y) * y[i] + double(kv[k].z) * z[i]);
      r += kv[k].w * std::cos(arg);
      im += kv[k].w * std::sin(arg);
      mag += kv[k].w;
    }
    if (std::fabs(qr[i] - r) > 2e-4 * mag) { fail("mriq_computeq", cfg, i, qr[i], r); break; }
    if (std::fabs(qi[i] - im) > 2e-4 * mag) { fail("mriq_computeq", cfg, i, qi[i], im); break; }
  }
  report("mriq_computeq", cfg, time_median(op));
  for (int a = 0; a < 5; ++a) CHECK(musaFree(d[a]));
}

// ---- direct Coulomb summation on one lattice plane: atoms (x, y, dz^2, q) in constant memory;
// a 16x16 block covers 128x16 points, each thread 8 points 16 apart along x ------------------
#define DCS_ATOMS 1536
__constant__ float4 c_atoms[DCS_ATOMS];

__global__ void coulomb_dcs(float *energy, int w, float spacing, int natoms) {
  int x0 = blockIdx.x * 128 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  float cy = y * spacing;
  float e[8];
#pragma unroll
  for (int u = 0; u < 8; ++u) e[u] = 0.f;
  for (int a = 0; a < natoms; ++a) {
    float4 at = c_atoms[a];
    float dy = cy - at.y;
    float dyz2 = dy * dy + at.z;
#pragma unroll
    for (int u = 0; u < 8; ++u) {
      float dx = (x0 + 16 * u) * spacing - at.x;
      e[u] += at.w * rsqrtf(dx * dx + dyz2);
    }
  }
#pragma unroll
  for (int u = 0; u < 8; ++u) energy[size_t(y) * w + x0 + 16 * u] = e[u];
}

static void bench_dcs() {
  const int w = 512, h = 512;
  const float spacing = 0.1f;
  const char *cfg = "grid=512x512,atoms=1536";
  std::vector<float4> atoms(DCS_ATOMS);
  for (int a = 0; a < DCS_ATOMS; ++a) {
    auto u = [&](unsigned s) { return float(hash_u32(unsigned(a) * 4u + s + 900u) % 100000) / 100000.f; };
    float dz = 0.5f + 4.5f * u(2);
    atoms[a] = make_float4(w * spacing * u(0), h * spacing * u(1), dz * dz, 2.f * u(3) - 1.f);
  }
  CHECK(musaMemcpyToSymbol(c_atoms, atoms.data(), sizeof(float4) * DCS_ATOMS));
  float *de;
  CHECK(musaMalloc(&de, size_t(w) * h * 4));
  auto op = [&] { coulomb_dcs<<<dim3(w / 128, h / 16), dim3(16, 16)>>>(de, w, spacing, DCS_ATOMS); };
  warm(op);
  std::vector<float> e(size_t(w) * h);
  CHECK(musaMemcpy(e.data(), de, e.size() * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < e.size(); i += 1777) {
    int x = int(i % w), y = int(i / w);
    double want = 0, mag = 0;
    for (int a = 0; a < DCS_ATOMS; ++a) {
      double dx = double(float(x) * spacing) - atoms[a].x, dy = double(float(y) * spacing) - atoms[a].y;
      double t = atoms[a].w / std::sqrt(dx * dx + dy * dy + atoms[a].z);
      want += t;
      mag += std::fabs(t);
    }
    if (std::fabs(e[i] - want) > 5e-5 * mag) { fail("coulomb_dcs", cfg, long(i), e[i], want); break; }
  }
  report("coulomb_dcs", cfg, time_median(op));
  CHECK(musaFree(de));
}

// ---- lattice Boltzmann D2Q9, pull scheme: each cell gathers its 9 distributions from its
// upstream neighbours (periodic), BGK collision, 9 stores; structure-of-arrays ----------------
// directions: 0 rest, 1 E, 2 N, 3 W, 4 S, 5 NE, 6 NW, 7 SW, 8 SE
PUB_HD inline void lbm_collide(const float f[9], float out[9], float omega) {
  const int ex[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1};
  const int ey[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
  const float wt[9] = {4.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};
  float rho = 0.f, mx = 0.f, my = 0.f;
#pragma unroll
  for (int q = 0; q < 9; ++q) {
    rho += f[q];
    mx += ex[q] * f[q];
    my += ey[q] * f[q];
  }
  float ux = mx / rho, uy = my / rho;
  float usq = 1.5f * (ux * ux + uy * uy);
#pragma unroll
  for (int q = 0; q < 9; ++q) {
    float eu = ex[q] * ux + ey[q] * uy;
    float feq = wt[q] * rho * (1.f + 3.f * eu + 4.5f * eu * eu - usq);
    out[q] = f[q] - omega * (f[q] - feq);
  }
}

__global__ void lbm_d2q9(const float *fin, float *fout, int w, int h, float omega) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  size_t N = size_t(w) * h;
  int xm = x == 0 ? w - 1 : x - 1, xp = x == w - 1 ? 0 : x + 1;
  int ym = y == 0 ? h - 1 : y - 1, yp = y == h - 1 ? 0 : y + 1;
  size_t r = size_t(y) * w, rm = size_t(ym) * w, rp = size_t(yp) * w;
  float f[9], o[9];
  f[0] = fin[r + x];
  f[1] = fin[N + r + xm];
  f[2] = fin[2 * N + rm + x];
  f[3] = fin[3 * N + r + xp];
  f[4] = fin[4 * N + rp + x];
  f[5] = fin[5 * N + rm + xm];
  f[6] = fin[6 * N + rm + xp];
  f[7] = fin[7 * N + rp + xp];
  f[8] = fin[8 * N + rp + xm];
  lbm_collide(f, o, omega);
#pragma unroll
  for (int q = 0; q < 9; ++q) fout[q * N + r + x] = o[q];
}

static void bench_lbm() {
  const float omega = 1.7f;
  for (int n : {512, 2048}) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "%dx%d,soa", n, n);
    size_t N = size_t(n) * n;
    std::vector<float> f(9 * N);
    for (size_t c = 0; c < N; ++c) {
      float rho = 1.f + float(hash_u32(unsigned(c) * 3u) % 1000) / 20000.f;
      float ux = float(int(hash_u32(unsigned(c) * 3u + 1u) % 1001) - 500) / 10000.f;
      float uy = float(int(hash_u32(unsigned(c) * 3u + 2u) % 1001) - 500) / 10000.f;
      const int ex[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1}, ey[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
      const float wt[9] = {4.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 9, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};
      for (int q = 0; q < 9; ++q) {
        float eu = ex[q] * ux + ey[q] * uy;
        f[q * N + c] = wt[q] * rho * (1.f + 3.f * eu + 4.5f * eu * eu - 1.5f * (ux * ux + uy * uy)) *
                       (1.f + float(hash_u32(unsigned(c * 9 + q) + 1234567u) % 100) / 10000.f);
      }
    }
    float *din, *dout;
    CHECK(musaMalloc(&din, 9 * N * 4));
    CHECK(musaMalloc(&dout, 9 * N * 4));
    CHECK(musaMemcpy(din, f.data(), 9 * N * 4, musaMemcpyHostToDevice));
    auto op = [&] { lbm_d2q9<<<dim3(n / 128, n), 128>>>(din, dout, n, n, omega); };
    warm(op);
    std::vector<float> g(9 * N);
    CHECK(musaMemcpy(g.data(), dout, 9 * N * 4, musaMemcpyDeviceToHost));
    const int ex[9] = {0, 1, 0, -1, 0, 1, -1, -1, 1}, ey[9] = {0, 0, 1, 0, -1, 1, 1, -1, -1};
    for (size_t c = 0; c < N; c += 1009) {
      int x = int(c % n), y = int(c / n);
      float fi[9], o[9];
      for (int q = 0; q < 9; ++q)
        fi[q] = f[q * N + size_t((y - ey[q] + n) % n) * n + (x - ex[q] + n) % n];
      lbm_collide(fi, o, omega);
      int q = 0;
      for (; q < 9; ++q)
        if (!near(g[q * N + c], o[q], 1e-5)) break;
      if (q < 9) { fail("lbm_d2q9", cfg, long(q * N + c), g[q * N + c], o[q]); break; }
    }
    report("lbm_d2q9", cfg, time_median(op));
    CHECK(musaFree(din));
    CHECK(musaFree(dout));
  }
}

// ---- sad: sums of absolute differences of every 4x4 block of a byte frame against a
// reference frame at all 17x17 offsets within +-8 pixels; a 256-thread block takes a 16x16
// region (16 blocks), its 32x32 search area in shared memory, one offset a thread ------------
__global__ void sad_4x4(const unsigned char *cur, const unsigned char *ref, unsigned short *sads,
                        int w, int h) {
  __shared__ unsigned char sc[16][16], sr[32][32];
  int t = threadIdx.x, x0 = blockIdx.x * 16, y0 = blockIdx.y * 16;
  sc[t / 16][t % 16] = cur[size_t(y0 + t / 16) * w + x0 + t % 16];
  for (int i = t; i < 1024; i += 256) {
    int gx = min(max(x0 - 8 + i % 32, 0), w - 1), gy = min(max(y0 - 8 + i / 32, 0), h - 1);
    sr[i / 32][i % 32] = ref[size_t(gy) * w + gx];
  }
  __syncthreads();
  int mbw = w / 4;
  for (int pos = t; pos < 289; pos += 256) {
    int dy = pos / 17, dx = pos % 17;
    for (int mb = 0; mb < 16; ++mb) {
      int my = (mb / 4) * 4, mx = (mb % 4) * 4;
      unsigned s = 0;
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) s += abs(int(sc[my + r][mx + c]) - int(sr[my + r + dy][mx + c + dx]));
      size_t mbi = size_t(blockIdx.y * 4 + mb / 4) * mbw + blockIdx.x * 4 + mb % 4;
      sads[mbi * 289 + pos] = (unsigned short)s;
    }
  }
}

static void bench_sad() {
  const int w = 1280, h = 720;
  const char *cfg = "1280x720,range=8";
  size_t n = size_t(w) * h, nmb = n / 16;
  std::vector<unsigned char> cur(n), ref(n);
  for (size_t i = 0; i < n; ++i) {
    int x = int(i % w), y = int(i / w);
    ref[i] = (unsigned char)((x * 3 + y * 5 + (hash_u32(unsigned(i)) % 32)) & 255);
    cur[i] = (unsigned char)(((x + 2) * 3 + (y + 1) * 5 + (hash_u32(unsigned(i) + 1u) % 32)) & 255);
  }
  unsigned char *dcur, *dref;
  unsigned short *dsad;
  CHECK(musaMalloc(&dcur, n));
  CHECK(musaMalloc(&dref, n));
  CHECK(musaMalloc(&dsad, nmb * 289 * 2));
  CHECK(musaMemcpy(dcur, cur.data(), n, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dref, ref.data(), n, musaMemcpyHostToDevice));
  auto op = [&] { sad_4x4<<<dim3(w / 16, h / 16), 256>>>(dcur, dref, dsad, w, h); };
  warm(op);
  std::vector<unsigned short> sads(nmb * 289);
  CHECK(musaMemcpy(sads.data(), dsad, sads.size() * 2, musaMemcpyDeviceToHost));
  for (size_t s = 0; s < sads.size(); s += 773) {
    size_t mb = s / 289;
    int pos = int(s % 289), dy = pos / 17 - 8, dx = pos % 17 - 8;
    int bx = int(mb % (w / 4)) * 4, by = int(mb / (w / 4)) * 4;
    unsigned want = 0;
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < 4; ++c) {
        int gx = std::min(std::max(bx + c + dx, 0), w - 1), gy = std::min(std::max(by + r + dy, 0), h - 1);
        want += unsigned(std::abs(int(cur[size_t(by + r) * w + bx + c]) - int(ref[size_t(gy) * w + gx])));
      }
    if (sads[s] != want) { fail("sad_4x4", cfg, long(s), sads[s], want); break; }
  }
  report("sad_4x4", cfg, time_median(op));
  CHECK(musaFree(dcur));
  CHECK(musaFree(dref));
  CHECK(musaFree(dsad));
}

// ==================================== HeCBench ===============================================

// ---- binary search (lower bound) of 4M random keys in a sorted 16M-key array ----------------
__global__ void bsearch_lower(const unsigned *a, int n, const unsigned *q, int *out, int nq) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  unsigned key = q[i];
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    if (a[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  out[i] = lo;
}

static void bench_bsearch() {
  const int n = 1 << 24, nq = 1 << 22;
  const char *cfg = "n=16777216,queries=4194304";
  std::vector<unsigned> a(n), q(nq);
  for (int i = 0; i < n; ++i) a[i] = unsigned(i) * 4u + (hash_u32(unsigned(i) + 3u) & 3u);
  for (int i = 0; i < nq; ++i) q[i] = hash_u32(unsigned(i) * 7u + 1u) % (unsigned(n) * 4u);
  unsigned *da, *dq;
  int *dout;
  CHECK(musaMalloc(&da, size_t(n) * 4));
  CHECK(musaMalloc(&dq, size_t(nq) * 4));
  CHECK(musaMalloc(&dout, size_t(nq) * 4));
  CHECK(musaMemcpy(da, a.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dq, q.data(), size_t(nq) * 4, musaMemcpyHostToDevice));
  auto op = [&] { bsearch_lower<<<nq / 256, 256>>>(da, n, dq, dout, nq); };
  warm(op);
  std::vector<int> out(nq);
  CHECK(musaMemcpy(out.data(), dout, size_t(nq) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < nq; i += 127) {
    int want = int(std::lower_bound(a.begin(), a.end(), q[i]) - a.begin());
    if (out[i] != want) { fail("bsearch_lower", cfg, i, out[i], want); break; }
  }
  report("bsearch_lower", cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(dq));
  CHECK(musaFree(dout));
}

// ---- bilateral filter of a float image, radius 3: spatial weights from constant memory, range
// weights __expf(-(d^2) / (2 sigma_r^2)), clamped edges, a 16x16 block -----------------------
__constant__ float c_gspatial[7];

__global__ void bilateral_gray(const float *in, float *out, int w, int h, float inv2sr2) {
  int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  float c = in[size_t(y) * w + x], sum = 0.f, wsum = 0.f;
  for (int dy = -3; dy <= 3; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    for (int dx = -3; dx <= 3; ++dx) {
      int xx = min(max(x + dx, 0), w - 1);
      float v = in[size_t(yy) * w + xx], d = v - c;
      float wt = c_gspatial[dy + 3] * c_gspatial[dx + 3] * __expf(-d * d * inv2sr2);
      sum += wt * v;
      wsum += wt;
    }
  }
  out[size_t(y) * w + x] = sum / wsum;
}

static void bench_bilateral() {
  const int w = 2048, h = 2048;
  const char *cfg = "2048x2048,radius=3";
  const float sr = 0.1f, inv2sr2 = 1.f / (2.f * sr * sr);
  float gs[7];
  for (int i = 0; i < 7; ++i) gs[i] = float(std::exp(-double((i - 3) * (i - 3)) / (2.0 * 2.0 * 2.0)));
  CHECK(musaMemcpyToSymbol(c_gspatial, gs, sizeof gs));
  size_t n = size_t(w) * h;
  std::vector<float> img(n);
  for (size_t i = 0; i < n; ++i) {
    int x = int(i % w), y = int(i / w);
    img[i] = 0.5f + 0.3f * float(std::sin(x * 0.01) * std::cos(y * 0.013)) + float(hash_u32(unsigned(i) + 2024u) % 1000) / 10000.f;
  }
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(din, img.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { bilateral_gray<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(din, dout, w, h, inv2sr2); };
  warm(op);
  std::vector<float> out(n);
  CHECK(musaMemcpy(out.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i += 1231) {
    int x = int(i % w), y = int(i / w);
    double c = img[i], sum = 0, ws = 0;
    for (int dy = -3; dy <= 3; ++dy)
      for (int dx = -3; dx <= 3; ++dx) {
        int xx = std::min(std::max(x + dx, 0), w - 1), yy = std::min(std::max(y + dy, 0), h - 1);
        double v = img[size_t(yy) * w + xx], d = v - c;
        double wt = double(gs[dy + 3]) * gs[dx + 3] * std::exp(-d * d * inv2sr2);
        sum += wt * v;
        ws += wt;
      }
    if (!near(out[i], sum / ws, 5e-5)) { fail("bilateral_gray", cfg, long(i), out[i], sum / ws); break; }
  }
  report("bilateral_gray", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ================================ Image processing ===========================================

// ---- integral image of a byte image: each 512-thread block scans one 2048-pixel row (a uchar4
// a thread, shuffles, warp totals in shared memory); then one thread a column adds down the rows
__global__ void integral_rows(const uchar4 *img, uint4 *rows) {
  __shared__ unsigned wtot[16];
  int t = threadIdx.x, lane = t & 31, wp = t >> 5;
  size_t i = size_t(blockIdx.x) * blockDim.x + t;
  uchar4 p = img[i];
  unsigned a = p.x, b = a + p.y, c = b + p.z, d = c + p.w;
  unsigned s = d;
  for (int o = 1; o < 32; o <<= 1) {
    unsigned v = __shfl_up_sync(0xffffffffu, s, o);
    if (lane >= o) s += v;
  }
  if (lane == 31) wtot[wp] = s;
  __syncthreads();
  if (wp == 0) {
    unsigned v = lane < 16 ? wtot[lane] : 0u;
    for (int o = 1; o < 16; o <<= 1) {
      unsigned u = __shfl_up_sync(0xffffffffu, v, o);
      if (lane >= o) v += u;
    }
    if (lane < 16) wtot[lane] = v;
  }
  __syncthreads();
  unsigned off = s - d + (wp ? wtot[wp - 1] : 0u);
  rows[i] = make_uint4(a + off, b + off, c + off, d + off);
}

__global__ void integral_cols(const unsigned *rows, unsigned *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= w) return;
  unsigned s = 0;
  for (int y = 0; y < h; ++y) {
    s += rows[size_t(y) * w + x];
    out[size_t(y) * w + x] = s;
  }
}

static void bench_integral() {
  const int w = 2048, h = 2048;
  const char *cfg = "2048x2048,u8";
  size_t n = size_t(w) * h;
  std::vector<unsigned char> img(n);
  for (size_t i = 0; i < n; ++i) img[i] = (unsigned char)(hash_u32(unsigned(i) + 4711u) & 255);
  unsigned char *dimg;
  unsigned *drows, *dout;
  CHECK(musaMalloc(&dimg, n));
  CHECK(musaMalloc(&drows, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(dimg, img.data(), n, musaMemcpyHostToDevice));
  auto op = [&] {
    integral_rows<<<h, w / 4>>>((const uchar4 *)dimg, (uint4 *)drows);
    integral_cols<<<w / 128, 128>>>(drows, dout, w, h);
  };
  warm(op);
  std::vector<unsigned> out(n), ref(n);
  CHECK(musaMemcpy(out.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (int y = 0; y < h; ++y) {
    unsigned rs = 0;
    for (int x = 0; x < w; ++x) {
      rs += img[size_t(y) * w + x];
      ref[size_t(y) * w + x] = rs + (y ? ref[size_t(y - 1) * w + x] : 0u);
    }
  }
  for (size_t i = 0; i < n; i += 101)
    if (out[i] != ref[i]) { fail("integral_image", cfg, long(i), out[i], ref[i]); break; }
  report("integral_image", cfg, time_median(op));
  CHECK(musaFree(dimg));
  CHECK(musaFree(drows));
  CHECK(musaFree(dout));
}

// ================================= Microbenchmarks ===========================================

// ---- constant-cache access: a 256-float table read 64 times a thread, at an index that is the
// same across the warp, or a different one for each lane ---------------------------------------
__constant__ float c_tab[256];

template <bool LANE> __global__ void const_cache_lookup(const float *x, float *y, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  float v = x[i], acc = 0.f;
  for (int k = 0; k < iters; ++k) {
    int idx = LANE ? ((lane * 8 + k) & 255) : ((k * 5 + int(blockIdx.x)) & 255);
    acc = fmaf(c_tab[idx], v, acc);
  }
  y[i] = acc;
}

static void bench_const_cache() {
  const int n = 1 << 20, iters = 64;
  std::vector<float> tab(256), x(n);
  for (int k = 0; k < 256; ++k) tab[k] = float(int(hash_u32(unsigned(k) + 9u) % 2001) - 1000) / 1000.f;
  for (int i = 0; i < n; ++i) x[i] = float(hash_u32(unsigned(i) + 10u) % 1000) / 1000.f;
  CHECK(musaMemcpyToSymbol(c_tab, tab.data(), 256 * 4));
  float *dx, *dy;
  CHECK(musaMalloc(&dx, size_t(n) * 4));
  CHECK(musaMalloc(&dy, size_t(n) * 4));
  CHECK(musaMemcpy(dx, x.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  for (int lanes = 0; lanes < 2; ++lanes) {
    const char *cfg = lanes ? "lane_indexed,n=1048576,iters=64" : "uniform,n=1048576,iters=64";
    auto op = [&] {
      if (lanes) const_cache_lookup<true><<<n / 256, 256>>>(dx, dy, iters);
      else const_cache_lookup<false><<<n / 256, 256>>>(dx, dy, iters);
    };
    warm(op);
    std::vector<float> y(n);
    CHECK(musaMemcpy(y.data(), dy, size_t(n) * 4, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i += 333) {
      float acc = 0.f;
      for (int k = 0; k < iters; ++k) {
        int idx = lanes ? (((i & 31) * 8 + k) & 255) : ((k * 5 + i / 256) & 255);
        acc = std::fmaf(tab[idx], x[i], acc);
      }
      if (!near(y[i], acc, 1e-6)) { fail("const_cache_lookup", cfg, i, y[i], acc); break; }
    }
    report("const_cache_lookup", cfg, time_median(op));
  }
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- mixbench-style intensity sweep: 4 elements a thread (a grid apart), FMAS dependent FMAs
// on each, written to a second array ------------------------------------------------------------
template <int FMAS> __global__ void mixbench_fp32(const float *in, float *out) {
  size_t g = size_t(gridDim.x) * blockDim.x, i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float v[4];
#pragma unroll
  for (int u = 0; u < 4; ++u) v[u] = in[i + u * g];
#pragma unroll 16
  for (int k = 0; k < FMAS; ++k)
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = fmaf(v[u], 0.999f, 0.001f);
#pragma unroll
  for (int u = 0; u < 4; ++u) out[i + u * g] = v[u];
}

template <int FMAS> static void bench_mixbench_one(const float *din, float *dout, const std::vector<float> &x) {
  const int n = int(x.size());
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "fma=%d,n=16777216", FMAS);
  auto op = [&] { mixbench_fp32<FMAS><<<n / 4 / 256, 256>>>(din, dout); };
  warm(op);
  std::vector<float> y(n);
  CHECK(musaMemcpy(y.data(), dout, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 4097) {
    float v = x[i];
    for (int k = 0; k < FMAS; ++k) v = std::fmaf(v, 0.999f, 0.001f);
    if (!near(y[i], v, 1e-6)) { fail("mixbench_fp32", cfg, i, y[i], v); break; }
  }
  report("mixbench_fp32", cfg, time_median(op));
}

static void bench_mixbench() {
  const int n = 1 << 24;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = float(hash_u32(unsigned(i) + 1u) % 10000) / 1000.f;
  float *din, *dout;
  CHECK(musaMalloc(&din, size_t(n) * 4));
  CHECK(musaMalloc(&dout, size_t(n) * 4));
  CHECK(musaMemcpy(din, x.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  bench_mixbench_one<2>(din, dout, x);
  bench_mixbench_one<32>(din, dout, x);
  bench_mixbench_one<256>(din, dout, x);
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
      {"hotspot", bench_hotspot},         {"srad", bench_srad},
      {"backprop", bench_backprop},       {"lud", bench_lud},
      {"lavamd", bench_lavamd},           {"streamcluster", bench_streamcluster},
      {"pathfinder", bench_pathfinder},   {"cfd", bench_cfd},
      {"btree", bench_btree},             {"gesummv", bench_gesummv},
      {"syrk", bench_syrk},               {"covariance", bench_covariance},
      {"gramschmidt", bench_gramschmidt}, {"md_lj", bench_md},
      {"md5", bench_md5},                 {"mriq", bench_mriq},
      {"dcs", bench_dcs},                 {"lbm", bench_lbm},
      {"sad", bench_sad},                 {"bsearch", bench_bsearch},
      {"bilateral", bench_bilateral},     {"integral", bench_integral},
      {"const_cache", bench_const_cache}, {"mixbench", bench_mixbench},
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
