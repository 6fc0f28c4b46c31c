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
// PolyBench-GPU
//   gesummv_rows n=4096             thread-per-row walks of two matrices (uncoalesced, L1
//                                    reuse), only 16 blocks
//   syrk_naive n=1024,m=512         one output a thread, strided A[j][k] column reads (L1-bound)
//   covariance m=n=256              3 kernels: column means, centring, then a triangular
//                                    thread-per-column covariance loop (serial, imbalanced)
//   gramschmidt n=128               384 launches: a one-warp norm, a scale, a column update
// SHOC
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

// ================================ PolyBench-GPU ==============================================

// ---- gesummv: y = alpha A x + beta B x, one thread a row walking both rows -----------------
__global__ void gesummv_rows(const float *A, const float *B, const float *x, float *y, int n,
                             float alpha, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float ta = 0.f, tb = 0.f;
  for (int j = 0; j < n; ++j) {
    ta += A[size_t(i) * n + j] * x[j];
    tb += B[size_t(i) * n + j] * x[j];
  }
  y[i] = alpha * ta + beta * tb;
}

static void bench_gesummv() {
  const int n = 4096;
  const char *cfg = "n=4096,block=256";
  const float alpha = 1.5f, beta = 1.25f;
  size_t nn = size_t(n) * n;
  std::vector<float> A(nn), B(nn), x(n);
  for (size_t i = 0; i < nn; ++i) {
    A[i] = float(int(hash_u32(unsigned(i) * 2u) % 5) - 2);
    B[i] = float(int(hash_u32(unsigned(i) * 2u + 1u) % 5) - 2);
  }
  for (int j = 0; j < n; ++j) x[j] = float(int(hash_u32(unsigned(j) + 4242u) % 7) - 3);
  float *dA, *dB, *dx, *dy;
  CHECK(musaMalloc(&dA, nn * 4));
  CHECK(musaMalloc(&dB, nn * 4));
  CHECK(musaMalloc(&dx, size_t(n) * 4));
  CHECK(musaMalloc(&dy, size_t(n) * 4));
  CHECK(musaMemcpy(dA, A.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  auto op = [&] { gesummv_rows<<<n / 256, 256>>>(dA, dB, dx, dy, n, alpha, beta); };
  warm(op);
  std::vector<float> y(n);
  CHECK(musaMemcpy(y.data(), dy, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 7) {
    double ta = 0, tb = 0;  // small integers: the sums are exact
    for (int j = 0; j < n; ++j) {
      ta += A[size_t(i) * n + j] * x[j];
      tb += B[size_t(i) * n + j] * x[j];
    }
    double want = alpha * ta + beta * tb;
    if (!near(y[i], want, 1e-6)) { fail("gesummv_rows", cfg, i, y[i], want); break; }
  }
  report("gesummv_rows", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- syrk: C = beta C + alpha A A^T, one output a thread of a 32x8 block -------------------
__global__ void syrk_naive(const float *A, const float *Cin, float *Cout, int n, int m,
                           float alpha, float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float s = 0.f;
  for (int k = 0; k < m; ++k) s += A[size_t(i) * m + k] * A[size_t(j) * m + k];
  Cout[size_t(i) * n + j] = beta * Cin[size_t(i) * n + j] + alpha * s;
}

static void bench_syrk() {
  const int n = 1024, m = 512;
  const char *cfg = "n=1024,m=512";
  const float alpha = 1.f, beta = 2.f;
  std::vector<float> A(size_t(n) * m), C(size_t(n) * n);
  for (size_t i = 0; i < A.size(); ++i) A[i] = float(int(hash_u32(unsigned(i) + 606u) % 5) - 2);
  for (size_t i = 0; i < C.size(); ++i) C[i] = float(int(hash_u32(unsigned(i) + 707u) % 9) - 4);
  float *dA, *dC, *dO;
  CHECK(musaMalloc(&dA, A.size() * 4));
  CHECK(musaMalloc(&dC, C.size() * 4));
  CHECK(musaMalloc(&dO, C.size() * 4));
  CHECK(musaMemcpy(dA, A.data(), A.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dC, C.data(), C.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { syrk_naive<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(dA, dC, dO, n, m, alpha, beta); };
  warm(op);
  std::vector<float> O(C.size());
  CHECK(musaMemcpy(O.data(), dO, O.size() * 4, musaMemcpyDeviceToHost));
  for (size_t s = 0; s < O.size(); s += 1021) {
    int i = int(s / n), j = int(s % n);
    float acc = 0.f;  // small integers: exact
    for (int k = 0; k < m; ++k) acc += A[size_t(i) * m + k] * A[size_t(j) * m + k];
    float want = beta * C[s] + alpha * acc;
    if (O[s] != want) { fail("syrk_naive", cfg, long(s), O[s], want); break; }
  }
  report("syrk_naive", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dC));
  CHECK(musaFree(dO));
}

// ---- covariance: column means, centring, then one thread a column j1 computing its row of the
// upper triangle (j2 >= j1), each entry a loop over the n samples --------------------------
__global__ void cov_mean(const float *data, float *mean, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  float s = 0.f;
  for (int i = 0; i < n; ++i) s += data[size_t(i) * m + j];
  mean[j] = s / float(n);
}

__global__ void cov_center(float *data, const float *mean, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m) data[size_t(i) * m + j] -= mean[j];
}

__global__ void cov_covar(const float *data, float *sym, int m, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 >= m) return;
  for (int j2 = j1; j2 < m; ++j2) {
    float s = 0.f;
    for (int i = 0; i < n; ++i) s += data[size_t(i) * m + j1] * data[size_t(i) * m + j2];
    sym[size_t(j1) * m + j2] = s;
    sym[size_t(j2) * m + j1] = s;
  }
}

static void bench_covariance() {
  const int m = 256, n = 256;  // m variables (columns), n samples (rows)
  const char *cfg = "m=256,n=256,kernels=3";
  std::vector<float> data(size_t(n) * m);
  for (size_t i = 0; i < data.size(); ++i) data[i] = float(hash_u32(unsigned(i) + 8080u) % 5);
  float *dd, *dmean, *dsym, *dorig;
  CHECK(musaMalloc(&dd, data.size() * 4));
  CHECK(musaMalloc(&dorig, data.size() * 4));
  CHECK(musaMalloc(&dmean, size_t(m) * 4));
  CHECK(musaMalloc(&dsym, size_t(m) * m * 4));
  CHECK(musaMemcpy(dorig, data.data(), data.size() * 4, musaMemcpyHostToDevice));
  auto prep = [&] { CHECK(musaMemcpy(dd, dorig, data.size() * 4, musaMemcpyDeviceToDevice)); };
  auto op = [&] {
    cov_mean<<<(m + 255) / 256, 256>>>(dd, dmean, m, n);
    cov_center<<<dim3(m / 32, n / 8), dim3(32, 8)>>>(dd, dmean, m, n);
    cov_covar<<<m / 64, 64>>>(dd, dsym, m, n);
  };
  prep();
  warm(op);
  std::vector<float> sym(size_t(m) * m);
  CHECK(musaMemcpy(sym.data(), dsym, sym.size() * 4, musaMemcpyDeviceToHost));
  std::vector<double> mean(m, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) mean[j] += data[size_t(i) * m + j];
  for (int j = 0; j < m; ++j) mean[j] /= n;
  for (int s = 0; s < m * m; s += 37) {
    int j1 = s / m, j2 = s % m;
    double want = 0;
    for (int i = 0; i < n; ++i) want += (data[size_t(i) * m + j1] - mean[j1]) * (data[size_t(i) * m + j2] - mean[j2]);
    if (!near(sym[s], want, 1e-4)) { fail("covariance", cfg, s, sym[s], want); break; }
  }
  report("covariance", cfg, time_median_prep(prep, op));
  CHECK(musaFree(dd));
  CHECK(musaFree(dorig));
  CHECK(musaFree(dmean));
  CHECK(musaFree(dsym));
}

// ---- gramschmidt (modified, column by column): for each column k a one-warp norm, a scale
// of column k into Q, and a thread-per-column projection and update of the columns right of k
__global__ void gs_norm(const float *A, float *R, int n, int k) {
  int lane = threadIdx.x;
  float s = 0.f;
  for (int i = lane; i < n; i += 32) {
    float v = A[size_t(i) * n + k];
    s += v * v;
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0) R[size_t(k) * n + k] = sqrtf(s);
}

__global__ void gs_scale(const float *A, const float *R, float *Q, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) Q[size_t(i) * n + k] = A[size_t(i) * n + k] / R[size_t(k) * n + k];
}

__global__ void gs_update(float *A, const float *Q, float *R, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j <= k || j >= n) return;
  float r = 0.f;
  for (int i = 0; i < n; ++i) r += Q[size_t(i) * n + k] * A[size_t(i) * n + j];
  R[size_t(k) * n + j] = r;
  for (int i = 0; i < n; ++i) A[size_t(i) * n + j] -= Q[size_t(i) * n + k] * r;
}

static void bench_gramschmidt() {
  const int n = 128;
  const char *cfg = "n=128,launches=384";
  size_t nn = size_t(n) * n;
  std::vector<float> A(nn);
  for (size_t i = 0; i < nn; ++i) A[i] = float(hash_u32(unsigned(i) + 31337u) % 1000) / 1000.f;
  for (int i = 0; i < n; ++i) A[size_t(i) * n + i] += 4.f;
  float *dA, *dorig, *dQ, *dR;
  CHECK(musaMalloc(&dA, nn * 4));
  CHECK(musaMalloc(&dorig, nn * 4));
  CHECK(musaMalloc(&dQ, nn * 4));
  CHECK(musaMalloc(&dR, nn * 4));
  CHECK(musaMemcpy(dorig, A.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemset(dR, 0, nn * 4));
  auto prep = [&] { CHECK(musaMemcpy(dA, dorig, nn * 4, musaMemcpyDeviceToDevice)); };
  auto op = [&] {
    for (int k = 0; k < n; ++k) {
      gs_norm<<<1, 32>>>(dA, dR, n, k);
      gs_scale<<<(n + 63) / 64, 64>>>(dA, dR, dQ, n, k);
      gs_update<<<(n + 63) / 64, 64>>>(dA, dQ, dR, n, k);
    }
  };
  prep();
  warm(op);
  std::vector<float> Q(nn), R(nn);
  CHECK(musaMemcpy(Q.data(), dQ, nn * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(R.data(), dR, nn * 4, musaMemcpyDeviceToHost));
  for (size_t s = 0; s < nn; s += 53) {
    int i = int(s / n), j = int(s % n);
    double qr = 0, qq = 0;
    for (int k = 0; k <= j; ++k) qr += double(Q[size_t(i) * n + k]) * R[size_t(k) * n + j];
    for (int r = 0; r < n; ++r) qq += double(Q[size_t(r) * n + i]) * Q[size_t(r) * n + j];
    if (!near(qr, A[s], 1e-4)) { fail("gramschmidt", cfg, long(s), qr, A[s]); break; }
    if (std::fabs(qq - (i == j)) > 1e-4) { fail("gramschmidt", cfg, long(s), qq, i == j); break; }
  }
  report("gramschmidt", cfg, time_median_prep(prep, op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dorig));
  CHECK(musaFree(dQ));
  CHECK(musaFree(dR));
}

// ===================================== SHOC ==================================================

// ---- md: Lennard-Jones forces, a thread an atom, 128 neighbours from a column-major list ---
struct alignas(32) DPos4 {
  double x, y, z, w;
};

template <class P, class T>
__global__ void md_lj(const P *pos, const int *neigh, P *force, int n, int maxn, T cutsq, T lj1,
                      T lj2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  P ip = pos[i];
  T fx = 0, fy = 0, fz = 0;
  for (int j = 0; j < maxn; ++j) {
    P jp = pos[neigh[size_t(j) * n + i]];
    T dx = ip.x - jp.x, dy = ip.y - jp.y, dz = ip.z - jp.z;
    T r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < cutsq) {
      T r2inv = T(1) / r2;
      T r6inv = r2inv * r2inv * r2inv;
      T f = r2inv * r6inv * (lj1 * r6inv - lj2);
      fx += dx * f;
      fy += dy * f;
      fz += dz * f;
    }
  }
  P o;
  o.x = fx;
  o.y = fy;
  o.z = fz;
  o.w = 0;
  force[i] = o;
}

template <class P, class T> static void bench_md_one(const char *cfg) {
  const int LX = 48, LY = 48, LZ = 32, n = LX * LY * LZ, maxn = 128;
  const T cutsq = 16, lj1 = 1.5, lj2 = 2.0;
  std::vector<P> pos(n);
  for (int i = 0; i < n; ++i) {
    int x = i % LX, y = i / LX % LY, z = i / (LX * LY);
    auto jit = [&](unsigned s) { return T(int(hash_u32(unsigned(i) * 3u + s) % 401) - 200) / T(1000); };
    pos[i].x = T(x) + jit(0);
    pos[i].y = T(y) + jit(1);
    pos[i].z = T(z) + jit(2);
    pos[i].w = 0;
  }
  std::vector<int> neigh(size_t(maxn) * n);
  int offs[maxn][3], c = 0;
  for (int dz = -2; dz <= 2; ++dz)
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx)
        if (dx || dy || dz) { offs[c][0] = dx; offs[c][1] = dy; offs[c][2] = dz; ++c; }
  int extra[4][3] = {{3, 0, 0}, {-3, 0, 0}, {0, 3, 0}, {0, -3, 0}};
  for (int e = 0; e < 4; ++e, ++c)
    for (int d = 0; d < 3; ++d) offs[c][d] = extra[e][d];
  for (int i = 0; i < n; ++i) {
    int x = i % LX, y = i / LX % LY, z = i / (LX * LY);
    for (int j = 0; j < maxn; ++j) {  // periodic indices; wrapped neighbours fall outside the cutoff
      int xx = (x + offs[j][0] + LX) % LX, yy = (y + offs[j][1] + LY) % LY, zz = (z + offs[j][2] + LZ) % LZ;
      neigh[size_t(j) * n + i] = (zz * LY + yy) * LX + xx;
    }
  }
  P *dpos, *dforce;
  int *dneigh;
  CHECK(musaMalloc(&dpos, size_t(n) * sizeof(P)));
  CHECK(musaMalloc(&dforce, size_t(n) * sizeof(P)));
  CHECK(musaMalloc(&dneigh, neigh.size() * 4));
  CHECK(musaMemcpy(dpos, pos.data(), size_t(n) * sizeof(P), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dneigh, neigh.data(), neigh.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { md_lj<P, T><<<n / 128, 128>>>(dpos, dneigh, dforce, n, maxn, cutsq, lj1, lj2); };
  warm(op);
  std::vector<P> force(n);
  CHECK(musaMemcpy(force.data(), dforce, size_t(n) * sizeof(P), musaMemcpyDeviceToHost));
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-12;
  for (int i = 0; i < n; i += 101) {
    double f[3] = {0, 0, 0}, mag = 0;
    for (int j = 0; j < maxn; ++j) {
      const P &q = pos[neigh[size_t(j) * n + i]];
      double d[3] = {double(pos[i].x) - q.x, double(pos[i].y) - q.y, double(pos[i].z) - q.z};
      double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      if (r2 < cutsq) {
        double r2inv = 1.0 / r2, r6inv = r2inv * r2inv * r2inv;
        double fs = r2inv * r6inv * (double(lj1) * r6inv - double(lj2));
        for (int k = 0; k < 3; ++k) f[k] += d[k] * fs;
        mag += std::fabs(fs) * std::sqrt(r2);
      }
    }
    double got[3] = {double(force[i].x), double(force[i].y), double(force[i].z)};
    int k = 0;
    for (; k < 3; ++k)
      if (std::fabs(got[k] - f[k]) > tol * mag + 1e-9) break;
    if (k < 3) { fail("md_lj", cfg, long(i) * 3 + k, got[k], f[k]); break; }
  }
  report("md_lj", cfg, time_median(op));
  CHECK(musaFree(dpos));
  CHECK(musaFree(dforce));
  CHECK(musaFree(dneigh));
}

static void bench_md() {
  bench_md_one<float4, float>("f32,atoms=73728,neighbors=128");
  bench_md_one<DPos4, double>("f64,atoms=73728,neighbors=128");
}

// ---- md5 search: each thread hashes one 8-byte key (its index plus a base) with the 64 MD5
// steps, compares with a target digest, and the block XORs its first digest words ----------
#define MD5_ROT(x, s) (((x) << (s)) | ((x) >> (32 - (s))))
#define MD5_STEP(f, a, b, c, d, x, s, k) a = b + MD5_ROT(a + (f) + (x) + (k), s)
#define MD5_F(a, b, c, d, x, s, k) MD5_STEP(((b) & (c)) | (~(b) & (d)), a, b, c, d, x, s, k)
#define MD5_G(a, b, c, d, x, s, k) MD5_STEP(((b) & (d)) | ((c) & ~(d)), a, b, c, d, x, s, k)
#define MD5_H(a, b, c, d, x, s, k) MD5_STEP((b) ^ (c) ^ (d), a, b, c, d, x, s, k)
#define MD5_I(a, b, c, d, x, s, k) MD5_STEP((c) ^ ((b) | ~(d)), a, b, c, d, x, s, k)

// MD5 of the 8 bytes of key (little-endian), one padded 64-byte block.
PUB_HD inline void md5_key8(unsigned long long key, unsigned out[4]) {
  unsigned m[16] = {unsigned(key), unsigned(key >> 32), 0x80u, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64u, 0};
  unsigned a = 0x67452301u, b = 0xefcdab89u, c = 0x98badcfeu, d = 0x10325476u;
  MD5_F(a, b, c, d, m[0], 7, 0xd76aa478u);
  MD5_F(d, a, b, c, m[1], 12, 0xe8c7b756u);
  MD5_F(c, d, a, b, m[2], 17, 0x242070dbu);
  MD5_F(b, c, d, a, m[3], 22, 0xc1bdceeeu);
  MD5_F(a, b, c, d, m[4], 7, 0xf57c0fafu);
  MD5_F(d, a, b, c, m[5], 12, 0x4787c62au);
  MD5_F(c, d, a, b, m[6], 17, 0xa8304613u);
  MD5_F(b, c, d, a, m[7], 22, 0xfd469501u);
  MD5_F(a, b, c, d, m[8], 7, 0x698098d8u);
  MD5_F(d, a, b, c, m[9], 12, 0x8b44f7afu);
  MD5_F(c, d, a, b, m[10], 17, 0xffff5bb1u);
  MD5_F(b, c, d, a, m[11], 22, 0x895cd7beu);
  MD5_F(a, b, c, d, m[12], 7, 0x6b901122u);
  MD5_F(d, a, b, c, m[13], 12, 0xfd987193u);
  MD5_F(c, d, a, b, m[14], 17, 0xa679438eu);
  MD5_F(b, c, d, a, m[15], 22, 0x49b40821u);
  MD5_G(a, b, c, d, m[1], 5, 0xf61e2562u);
  MD5_G(d, a, b, c, m[6], 9, 0xc040b340u);
  MD5_G(c, d, a, b, m[11], 14, 0x265e5a51u);
  MD5_G(b, c, d, a, m[0], 20, 0xe9b6c7aau);
  MD5_G(a, b, c, d, m[5], 5, 0xd62f105du);
  MD5_G(d, a, b, c, m[10], 9, 0x02441453u);
  MD5_G(c, d, a, b, m[15], 14, 0xd8a1e681u);
  MD5_G(b, c, d, a, m[4], 20, 0xe7d3fbc8u);
  MD5_G(a, b, c, d, m[9], 5, 0x21e1cde6u);
  MD5_G(d, a, b, c, m[14], 9, 0xc33707d6u);
  MD5_G(c, d, a, b, m[3], 14, 0xf4d50d87u);
  MD5_G(b, c, d, a, m[8], 20, 0x455a14edu);
  MD5_G(a, b, c, d, m[13], 5, 0xa9e3e905u);
  MD5_G(d, a, b, c, m[2], 9, 0xfcefa3f8u);
  MD5_G(c, d, a, b, m[7], 14, 0x676f02d9u);
  MD5_G(b, c, d, a, m[12], 20, 0x8d2a4c8au);
  MD5_H(a, b, c, d, m[5], 4, 0xfffa3942u);
  MD5_H(d, a, b, c, m[8], 11, 0x8771f681u);
  MD5_H(c, d, a, b, m[11], 16, 0x6d9d6122u);
  MD5_H(b, c, d, a, m[14], 23, 0xfde5380cu);
  MD5_H(a, b, c, d, m[1], 4, 0xa4beea44u);
  MD5_H(d, a, b, c, m[4], 11, 0x4bdecfa9u);
  MD5_H(c, d, a, b, m[7], 16, 0xf6bb4b60u);
  MD5_H(b, c, d, a, m[10], 23, 0xbebfbc70u);
  MD5_H(a, b, c, d, m[13], 4, 0x289b7ec6u);
  MD5_H(d, a, b, c, m[0], 11, 0xeaa127fau);
  MD5_H(c, d, a, b, m[3], 16, 0xd4ef3085u);
  MD5_H(b, c, d, a, m[6], 23, 0x04881d05u);
  MD5_H(a, b, c, d, m[9], 4, 0xd9d4d039u);
  MD5_H(d, a, b, c, m[12], 11, 0xe6db99e5u);
  MD5_H(c, d, a, b, m[15], 16, 0x1fa27cf8u);
  MD5_H(b, c, d, a, m[2], 23, 0xc4ac5665u);
  MD5_I(a, b, c, d, m[0], 6, 0xf4292244u);
  MD5_I(d, a, b, c, m[7], 10, 0x432aff97u);
  MD5_I(c, d, a, b, m[14], 15, 0xab9423a7u);
  MD5_I(b, c, d, a, m[5], 21, 0xfc93a039u);
  MD5_I(a, b, c, d, m[12], 6, 0x655b59c3u);
  MD5_I(d, a, b, c, m[3], 10, 0x8f0ccc92u);
  MD5_I(c, d, a, b, m[10], 15, 0xffeff47du);
  MD5_I(b, c, d, a, m[1], 21, 0x85845dd1u);
  MD5_I(a, b, c, d, m[8], 6, 0x6fa87e4fu);
  MD5_I(d, a, b, c, m[15], 10, 0xfe2ce6e0u);
  MD5_I(c, d, a, b, m[6], 15, 0xa3014314u);
  MD5_I(b, c, d, a, m[13], 21, 0x4e0811a1u);
  MD5_I(a, b, c, d, m[4], 6, 0xf7537e82u);
  MD5_I(d, a, b, c, m[11], 10, 0xbd3af235u);
  MD5_I(c, d, a, b, m[2], 15, 0x2ad7d2bbu);
  MD5_I(b, c, d, a, m[9], 21, 0xeb86d391u);
  out[0] = a + 0x67452301u;
  out[1] = b + 0xefcdab89u;
  out[2] = c + 0x98badcfeu;
  out[3] = d + 0x10325476u;
}

__global__ void md5_search(unsigned long long base, uint4 target, int *found, unsigned *blockxor) {
  __shared__ unsigned wx[8];
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h[4];
  md5_key8(base + idx, h);
  if (h[0] == target.x && h[1] == target.y && h[2] == target.z && h[3] == target.w) *found = int(idx);
  unsigned x = h[0];
  for (int o = 16; o > 0; o >>= 1) x ^= __shfl_xor_sync(0xffffffffu, x, o);
  if ((threadIdx.x & 31) == 0) wx[threadIdx.x >> 5] = x;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned t = 0;
    for (int w = 0; w < 8; ++w) t ^= wx[w];
    blockxor[blockIdx.x] = t;
  }
}

static void bench_md5() {
  const int n = 1 << 24, blocks = n / 256, secret = 12345678;
  const unsigned long long base = 0x3132333435360000ull;
  const char *cfg = "keys=16777216,len=8";
  unsigned h[4];
  md5_key8(0x3837363534333231ull, h);  // "12345678": 25d55ad283aa400af464c76d713c07ad
  if (h[0] != 0xd25ad525u || h[1] != 0x0a40aa83u || h[2] != 0x6dc764f4u || h[3] != 0xad073c71u)
    fail("md5_search", cfg, -1, h[0], 0xd25ad525u);
  md5_key8(base + secret, h);
  uint4 target = make_uint4(h[0], h[1], h[2], h[3]);
  int *dfound;
  unsigned *dx;
  CHECK(musaMalloc(&dfound, 4));
  CHECK(musaMalloc(&dx, size_t(blocks) * 4));
  CHECK(musaMemset(dfound, 0xff, 4));
  auto op = [&] { md5_search<<<blocks, 256>>>(base, target, dfound, dx); };
  warm(op);
  int found = 0;
  std::vector<unsigned> bx(blocks);
  CHECK(musaMemcpy(&found, dfound, 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(bx.data(), dx, size_t(blocks) * 4, musaMemcpyDeviceToHost));
  if (found != secret) fail("md5_search", cfg, 0, found, secret);
  for (int b = 0; b < blocks; b += 211) {
    unsigned want = 0;
    for (int t = 0; t < 256; ++t) {
      md5_key8(base + unsigned(b * 256 + t), h);
      want ^= h[0];
    }
    if (bx[b] != want) { fail("md5_search", cfg, b, bx[b], want); break; }
  }
  report("md5_search", cfg, time_median(op));
  CHECK(musaFree(dfound));
  CHECK(musaFree(dx));
}

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
