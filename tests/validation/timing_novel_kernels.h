// Linear algebra, stencils, sparse and graph kernels of timing_novel.mu (suite 8): PolyBench
// atax (both passes), 2mm and doitgen, a double-precision heat-3d, a warp-per-row CSR SpMV over
// power-law row lengths, a CSR x dense SpMM, a pull-based PageRank iteration, triangle counting
// by sorted-list merges, an int8 GEMM with __dp4a, single-query attention over 128-dim heads, a
// depthwise 3x3 convolution and a 7x7 convolution with __constant__ weights; then Rodinia nn
// distances, a cooperative-groups tiled_partition<16> row L2 normalisation, a copy-compute-copy
// pipeline over two streams and a chain of tiny kernels launched directly and as a graph.
// Included by that program only, after suite_harness.h and the cooperative_groups alias cg.
#pragma once

// The test-data hash on both sides: suite_harness.h's hash_u32.
#define tn_hash hash_u32

// A float in [0, 1) from an index and a seed.
static float tn_unit(unsigned i, unsigned seed) {
  return float(hash_u32(i * 0x9e3779b9U ^ seed) >> 8) * (1.f / 16777216.f);
}

// ---- PolyBench atax: tmp = A x (a thread a row), y = A^T tmp (a thread a column) -------------
__global__ void atax_ax(const float *A, const float *x, float *tmp, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.f;
    for (int j = 0; j < n; ++j) s += A[size_t(i) * n + j] * x[j];
    tmp[i] = s;
  }
}

__global__ void atax_aty(const float *A, const float *tmp, float *y, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) {
    float s = 0.f;
    for (int i = 0; i < m; ++i) s += A[size_t(i) * n + j] * tmp[i];
    y[j] = s;
  }
}

static void bench_atax() {
  const int m = 4096, n = 4096;
  const char *cfg = "m=4096,n=4096";
  std::vector<float> A(size_t(m) * n), x(n), tmp(m), y(n);
  for (size_t i = 0; i < A.size(); ++i) A[i] = tn_unit(unsigned(i), 11) - 0.5f;
  for (int j = 0; j < n; ++j) x[j] = tn_unit(unsigned(j), 12);
  float *dA, *dx, *dt, *dy;
  CHECK(musaMalloc(&dA, A.size() * 4));
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&dt, m * 4));
  CHECK(musaMalloc(&dy, n * 4));
  CHECK(musaMemcpy(dA, A.data(), A.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
  auto op1 = [&] { atax_ax<<<(m + 255) / 256, 256>>>(dA, dx, dt, m, n); };
  warm(op1);
  CHECK(musaMemcpy(tmp.data(), dt, m * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < m; i += 7) {
    double s = 0, a = 0;
    for (int j = 0; j < n; ++j) {
      s += double(A[size_t(i) * n + j]) * x[j];
      a += std::fabs(double(A[size_t(i) * n + j]) * x[j]);
    }
    if (std::fabs(tmp[i] - s) > 1e-4 * a + 1e-6) { fail("atax_ax", cfg, i, tmp[i], s); break; }
  }
  report("atax_ax", cfg, time_median(op1));
  auto op2 = [&] { atax_aty<<<(n + 255) / 256, 256>>>(dA, dt, dy, m, n); };
  warm(op2);
  CHECK(musaMemcpy(y.data(), dy, n * 4, musaMemcpyDeviceToHost));
  for (int j = 0; j < n; j += 7) {
    double s = 0, a = 0;
    for (int i = 0; i < m; ++i) {
      s += double(A[size_t(i) * n + j]) * tmp[i];
      a += std::fabs(double(A[size_t(i) * n + j]) * tmp[i]);
    }
    if (std::fabs(y[j] - s) > 1e-4 * a + 1e-6) { fail("atax_aty", cfg, j, y[j], s); break; }
  }
  report("atax_aty", cfg, time_median(op2));
  CHECK(musaFree(dA));
  CHECK(musaFree(dx));
  CHECK(musaFree(dt));
  CHECK(musaFree(dy));
}

// ---- PolyBench 2mm: tmp = alpha A B, E = beta D + tmp C; naive, a thread an element ----------
__global__ void mm2_first(const float *A, const float *B, float *tmp, int n, float alpha) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    float s = 0.f;
    for (int k = 0; k < n; ++k) s += alpha * A[i * n + k] * B[k * n + j];
    tmp[i * n + j] = s;
  }
}

__global__ void mm2_second(const float *tmp, const float *C, const float *D, float *E, int n,
                           float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    float s = D[i * n + j] * beta;
    for (int k = 0; k < n; ++k) s += tmp[i * n + k] * C[k * n + j];
    E[i * n + j] = s;
  }
}

static void bench_2mm() {
  const int n = 512;
  const float alpha = 1.5f, beta = 1.2f;
  const char *cfg = "n=512,block=32x8";
  size_t nn = size_t(n) * n;
  std::vector<float> A(nn), B(nn), C(nn), D(nn), E(nn);
  for (size_t i = 0; i < nn; ++i) {
    A[i] = tn_unit(unsigned(i), 21);
    B[i] = tn_unit(unsigned(i), 22);
    C[i] = tn_unit(unsigned(i), 23);
    D[i] = tn_unit(unsigned(i), 24);
  }
  float *dA, *dB, *dC, *dD, *dT, *dE;
  for (float **p : {&dA, &dB, &dC, &dD, &dT, &dE}) CHECK(musaMalloc(p, nn * 4));
  CHECK(musaMemcpy(dA, A.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dC, C.data(), nn * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dD, D.data(), nn * 4, musaMemcpyHostToDevice));
  dim3 blk(32, 8), grid(n / 32, n / 8);
  auto op = [&] {
    mm2_first<<<grid, blk>>>(dA, dB, dT, n, alpha);
    mm2_second<<<grid, blk>>>(dT, dC, dD, dE, n, beta);
  };
  warm(op);
  CHECK(musaMemcpy(E.data(), dE, nn * 4, musaMemcpyDeviceToHost));
  std::vector<double> trow(n);
  for (int i = 0; i < n; i += 37) {
    for (int j = 0; j < n; ++j) trow[j] = 0;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j) trow[j] += double(alpha) * A[size_t(i) * n + k] * B[size_t(k) * n + j];
    bool bad = false;
    for (int j = 0; j < n && !bad; j += 5) {
      double want = double(beta) * D[size_t(i) * n + j];
      for (int k = 0; k < n; ++k) want += trow[k] * C[size_t(k) * n + j];
      if (!near(E[size_t(i) * n + j], want, 1e-4)) {
        fail("polybench_2mm", cfg, long(i) * n + j, E[size_t(i) * n + j], want);
        bad = true;
      }
    }
    if (bad) break;
  }
  report("polybench_2mm", cfg, time_median(op));
  for (float *p : {dA, dB, dC, dD, dT, dE}) CHECK(musaFree(p));
}

// ---- PolyBench doitgen: sum[r][q][p] = sum_s A[r][q][s] C4[s][p] ----------------------------
__global__ void doitgen_sum(const float *A, const float *C4, float *sum, int nq, int np) {
  int p = blockIdx.x * blockDim.x + threadIdx.x, q = blockIdx.y * blockDim.y + threadIdx.y;
  int r = blockIdx.z;
  if (p < np && q < nq) {
    const float *a = A + (size_t(r) * nq + q) * np;
    float s = 0.f;
    for (int k = 0; k < np; ++k) s += a[k] * C4[k * np + p];
    sum[(size_t(r) * nq + q) * np + p] = s;
  }
}

static void bench_doitgen() {
  const int nr = 128, nq = 128, np = 64;
  const char *cfg = "nr=128,nq=128,np=64";
  size_t na = size_t(nr) * nq * np;
  std::vector<float> A(na), C4(size_t(np) * np), S(na);
  for (size_t i = 0; i < na; ++i) A[i] = tn_unit(unsigned(i), 31);
  for (size_t i = 0; i < C4.size(); ++i) C4[i] = tn_unit(unsigned(i), 32);
  float *dA, *dC, *dS;
  CHECK(musaMalloc(&dA, na * 4));
  CHECK(musaMalloc(&dC, C4.size() * 4));
  CHECK(musaMalloc(&dS, na * 4));
  CHECK(musaMemcpy(dA, A.data(), na * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dC, C4.data(), C4.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { doitgen_sum<<<dim3(np / 32, nq / 8, nr), dim3(32, 8)>>>(dA, dC, dS, nq, np); };
  warm(op);
  CHECK(musaMemcpy(S.data(), dS, na * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < na; i += 1009) {
    size_t rq = i / np, p = i % np;
    double want = 0;
    for (int k = 0; k < np; ++k) want += double(A[rq * np + k]) * C4[size_t(k) * np + p];
    if (!near(S[i], want, 1e-4)) { fail("doitgen_sum", cfg, long(i), S[i], want); break; }
  }
  report("doitgen_sum", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dC));
  CHECK(musaFree(dS));
}

// ---- PolyBench heat-3d in double precision: B = step(A), A = step(B), interior points -------
__global__ void heat3d_f64(const double *A, double *B, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x + 1, j = blockIdx.y * blockDim.y + threadIdx.y + 1;
  int i = blockIdx.z + 1;
  if (k < n - 1 && j < n - 1) {
    size_t c = (size_t(i) * n + j) * n + k, sj = n, si = size_t(n) * n;
    double a = A[c];
    B[c] = 0.125 * (A[c + si] - 2.0 * a + A[c - si]) + 0.125 * (A[c + sj] - 2.0 * a + A[c - sj]) +
           0.125 * (A[c + 1] - 2.0 * a + A[c - 1]) + a;
  }
}

static void heat3d_host(const std::vector<double> &A, std::vector<double> &B, int n) {
  size_t sj = n, si = size_t(n) * n;
  for (int i = 1; i < n - 1; ++i)
    for (int j = 1; j < n - 1; ++j)
      for (int k = 1; k < n - 1; ++k) {
        size_t c = (size_t(i) * n + j) * n + k;
        double a = A[c];
        B[c] = 0.125 * (A[c + si] - 2.0 * a + A[c - si]) + 0.125 * (A[c + sj] - 2.0 * a + A[c - sj]) +
               0.125 * (A[c + 1] - 2.0 * a + A[c - 1]) + a;
      }
}

static void bench_heat3d(int n, int steps) {
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "n=%d,steps=%d", n, steps);
  size_t nt = size_t(n) * n * n;
  std::vector<double> A(nt);
  for (size_t i = 0; i < nt; ++i) A[i] = double(hash_u32(unsigned(i) ^ 0x5eed) % 1000) * 0.01;
  double *dA, *dB;
  CHECK(musaMalloc(&dA, nt * 8));
  CHECK(musaMalloc(&dB, nt * 8));
  CHECK(musaMemcpy(dA, A.data(), nt * 8, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, A.data(), nt * 8, musaMemcpyHostToDevice));
  dim3 blk(32, 8), grid((n - 2 + 31) / 32, (n - 2 + 7) / 8, n - 2);
  auto op = [&] {
    for (int t = 0; t < steps; ++t) {
      heat3d_f64<<<grid, blk>>>(dA, dB, n);
      heat3d_f64<<<grid, blk>>>(dB, dA, n);
    }
  };
  warm(op);
  std::vector<double> hB(A), got(nt);
  for (int t = 0; t < steps; ++t) {
    heat3d_host(A, hB, n);
    heat3d_host(hB, A, n);
  }
  CHECK(musaMemcpy(got.data(), dA, nt * 8, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < nt; i += 101)
    if (!near(got[i], A[i], 1e-12)) { fail("heat3d_f64", cfg, long(i), got[i], A[i]); break; }
  report("heat3d_f64", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
}

// ---- CSR SpMV, a warp a row, rows of power-law (Pareto, alpha 1.1) lengths 1..4096 ----------
__global__ void spmv_powerlaw_warp(const int *rp, const int *ci, const float *v, const float *x,
                                   float *y, int rows) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (row >= rows) return;
  float s = 0.f;
  for (int k = rp[row] + lane; k < rp[row + 1]; k += 32) s += v[k] * x[ci[k]];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[row] = s;
}

static void bench_spmv_powerlaw() {
  const int rows = 1 << 19, cols = 1 << 19;
  std::vector<int> rp(rows + 1);
  rp[0] = 0;
  for (int r = 0; r < rows; ++r) {
    double u = (hash_u32(unsigned(r) ^ 0xabcd) + 0.5) / 4294967296.0;
    int len = int(std::min(4096.0, std::floor(std::pow(u, -1.0 / 1.1))));
    rp[r + 1] = rp[r] + len;
  }
  int nnz = rp[rows];
  char cfg[96];
  std::snprintf(cfg, sizeof cfg, "rows=%d,nnz=%d,maxlen=4096", rows, nnz);
  std::vector<int> ci(nnz);
  std::vector<float> v(nnz), x(cols), y(rows);
  for (int k = 0; k < nnz; ++k) {
    ci[k] = int(hash_u32(unsigned(k) * 3u + 1u) % unsigned(cols));
    v[k] = tn_unit(unsigned(k), 41) - 0.5f;
  }
  for (int c = 0; c < cols; ++c) x[c] = tn_unit(unsigned(c), 42);
  int *drp, *dci;
  float *dv, *dx, *dy;
  CHECK(musaMalloc(&drp, (rows + 1) * 4));
  CHECK(musaMalloc(&dci, size_t(nnz) * 4));
  CHECK(musaMalloc(&dv, size_t(nnz) * 4));
  CHECK(musaMalloc(&dx, cols * 4));
  CHECK(musaMalloc(&dy, rows * 4));
  CHECK(musaMemcpy(drp, rp.data(), (rows + 1) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dci, ci.data(), size_t(nnz) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dv, v.data(), size_t(nnz) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), cols * 4, musaMemcpyHostToDevice));
  auto op = [&] { spmv_powerlaw_warp<<<rows / 8, 256>>>(drp, dci, dv, dx, dy, rows); };
  warm(op);
  CHECK(musaMemcpy(y.data(), dy, rows * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; ++r) {
    double s = 0, a = 0;
    for (int k = rp[r]; k < rp[r + 1]; ++k) {
      s += double(v[k]) * x[ci[k]];
      a += std::fabs(double(v[k]) * x[ci[k]]);
    }
    if (std::fabs(y[r] - s) > 1e-5 * a + 1e-6) { fail("spmv_powerlaw_warp", cfg, r, y[r], s); break; }
  }
  report("spmv_powerlaw_warp", cfg, time_median(op));
  CHECK(musaFree(drp));
  CHECK(musaFree(dci));
  CHECK(musaFree(dv));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- SpMM: CSR (16 nonzeros a row) x dense 64-column B; a warp a row, nonzeros by shuffle -----
__global__ void spmm_csr_rowwarp(const int *rp, const int *ci, const float *v, const float *B,
                                 float *C, int rows) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (row >= rows) return;
  float acc0 = 0.f, acc1 = 0.f;
  int end = rp[row + 1];
  for (int base = rp[row]; base < end; base += 32) {
    int k = base + lane;
    int c = k < end ? ci[k] : 0;
    float a = k < end ? v[k] : 0.f;
    int cnt = min(32, end - base);
    for (int t = 0; t < cnt; ++t) {
      int cc = __shfl_sync(0xffffffffu, c, t);
      float aa = __shfl_sync(0xffffffffu, a, t);
      acc0 += aa * B[size_t(cc) * 64 + lane];
      acc1 += aa * B[size_t(cc) * 64 + 32 + lane];
    }
  }
  C[size_t(row) * 64 + lane] = acc0;
  C[size_t(row) * 64 + 32 + lane] = acc1;
}

static void bench_spmm() {
  const int rows = 1 << 16, cols = 1 << 16, per = 16, nnz = rows * per;
  const char *cfg = "rows=65536,nnz_per_row=16,dense_cols=64";
  std::vector<int> rp(rows + 1), ci(nnz);
  std::vector<float> v(nnz), B(size_t(cols) * 64), C(size_t(rows) * 64);
  for (int r = 0; r <= rows; ++r) rp[r] = r * per;
  for (int k = 0; k < nnz; ++k) {
    ci[k] = int(hash_u32(unsigned(k) ^ 0x77u) % unsigned(cols));
    v[k] = tn_unit(unsigned(k), 51);
  }
  for (size_t i = 0; i < B.size(); ++i) B[i] = tn_unit(unsigned(i), 52) - 0.5f;
  int *drp, *dci;
  float *dv, *dB, *dC;
  CHECK(musaMalloc(&drp, (rows + 1) * 4));
  CHECK(musaMalloc(&dci, size_t(nnz) * 4));
  CHECK(musaMalloc(&dv, size_t(nnz) * 4));
  CHECK(musaMalloc(&dB, B.size() * 4));
  CHECK(musaMalloc(&dC, C.size() * 4));
  CHECK(musaMemcpy(drp, rp.data(), (rows + 1) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dci, ci.data(), size_t(nnz) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dv, v.data(), size_t(nnz) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), B.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { spmm_csr_rowwarp<<<rows / 8, 256>>>(drp, dci, dv, dB, dC, rows); };
  warm(op);
  CHECK(musaMemcpy(C.data(), dC, C.size() * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 13) {
    bool bad = false;
    for (int j = 0; j < 64; ++j) {
      double s = 0;
      for (int k = rp[r]; k < rp[r + 1]; ++k) s += double(v[k]) * B[size_t(ci[k]) * 64 + j];
      if (!near(C[size_t(r) * 64 + j], s, 1e-5)) {
        fail("spmm_csr_rowwarp", cfg, long(r) * 64 + j, C[size_t(r) * 64 + j], s);
        bad = true;
        break;
      }
    }
    if (bad) break;
  }
  report("spmm_csr_rowwarp", cfg, time_median(op));
  CHECK(musaFree(drp));
  CHECK(musaFree(dci));
  CHECK(musaFree(dv));
  CHECK(musaFree(dB));
  CHECK(musaFree(dC));
}

// ---- one pull-based PageRank iteration: contributions, then a gather over in-edges ----------
__global__ void pr_contrib(const float *pr, const int *outdeg, float *contrib, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) contrib[v] = outdeg[v] ? pr[v] / float(outdeg[v]) : 0.f;
}

__global__ void pr_pull(const int *rp, const int *src, const float *contrib, float *pr_new, int n,
                        float damping) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    float s = 0.f;
    for (int k = rp[v]; k < rp[v + 1]; ++k) s += contrib[src[k]];
    pr_new[v] = (1.f - damping) / float(n) + damping * s;
  }
}

static void bench_pagerank() {
  const int n = 1 << 20;
  const float damping = 0.85f;
  std::vector<int> rp(n + 1), outdeg(n, 0);
  rp[0] = 0;
  for (int v = 0; v < n; ++v) rp[v + 1] = rp[v] + 2 + int(hash_u32(unsigned(v) ^ 0x1234u) % 13u);
  int m = rp[n];
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "vertices=%d,edges=%d", n, m);
  std::vector<int> src(m);
  for (int k = 0; k < m; ++k) {
    src[k] = int(hash_u32(unsigned(k) * 7u + 3u) % unsigned(n));
    ++outdeg[src[k]];
  }
  std::vector<float> pr(n), out(n);
  for (int v = 0; v < n; ++v) pr[v] = (0.5f + tn_unit(unsigned(v), 61)) / float(n);
  int *drp, *dsrc, *ddeg;
  float *dpr, *dc, *dout;
  CHECK(musaMalloc(&drp, (n + 1) * 4));
  CHECK(musaMalloc(&dsrc, size_t(m) * 4));
  CHECK(musaMalloc(&ddeg, n * 4));
  CHECK(musaMalloc(&dpr, n * 4));
  CHECK(musaMalloc(&dc, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(drp, rp.data(), (n + 1) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dsrc, src.data(), size_t(m) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(ddeg, outdeg.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dpr, pr.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    pr_contrib<<<n / 256, 256>>>(dpr, ddeg, dc, n);
    pr_pull<<<n / 256, 256>>>(drp, dsrc, dc, dout, n, damping);
  };
  warm(op);
  CHECK(musaMemcpy(out.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (int v = 0; v < n; v += 3) {
    double s = 0;
    for (int k = rp[v]; k < rp[v + 1]; ++k) s += double(pr[src[k]]) / outdeg[src[k]];
    double want = (1.0 - damping) / n + damping * s;
    if (std::fabs(out[v] - want) > 1e-4 * want) { fail("pagerank_pull", cfg, v, out[v], want); break; }
  }
  report("pagerank_pull", cfg, time_median(op));
  for (int *p : {drp, dsrc, ddeg}) CHECK(musaFree(p));
  for (float *p : {dpr, dc, dout}) CHECK(musaFree(p));
}

// ---- triangle counting: an edge a thread, merge of the two sorted higher-neighbour lists -----
__global__ void tricount_merge(const int *rp, const int *adj, const int *eu, const int *ev, int m,
                               unsigned long long *total) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned c = 0;
  if (e < m) {
    int u = eu[e], v = ev[e];
    int a = rp[u], ae = rp[u + 1], b = rp[v], be = rp[v + 1];
    while (a < ae && b < be) {
      int x = adj[a], y = adj[b];
      if (x == y) { ++c; ++a; ++b; }
      else if (x < y) ++a;
      else ++b;
    }
  }
  for (int o = 16; o > 0; o >>= 1) c += __shfl_down_sync(0xffffffffu, c, o);
  if ((threadIdx.x & 31) == 0 && c) atomicAdd(total, (unsigned long long)c);
}

static void bench_tricount() {
  // Clustered random graph: 12 neighbours drawn inside a vertex's group of 256, 4 anywhere.
  const int n = 1 << 17;
  std::vector<std::vector<int>> up(n);
  for (int u = 0; u < n; ++u)
    for (int t = 0; t < 16; ++t) {
      unsigned h = hash_u32(unsigned(u) * 16u + unsigned(t) + 0x999u);
      int v = t < 12 ? (u & ~255) + int(h & 255u) : int(h % unsigned(n));
      if (v == u) continue;
      up[std::min(u, v)].push_back(std::max(u, v));
    }
  std::vector<int> rp(n + 1), adj, eu, ev;
  rp[0] = 0;
  for (int u = 0; u < n; ++u) {
    std::sort(up[u].begin(), up[u].end());
    up[u].erase(std::unique(up[u].begin(), up[u].end()), up[u].end());
    for (int v : up[u]) {
      adj.push_back(v);
      eu.push_back(u);
      ev.push_back(v);
    }
    rp[u + 1] = int(adj.size());
  }
  int m = int(adj.size());
  unsigned long long want = 0;
  for (int e = 0; e < m; ++e) {
    int a = rp[eu[e]], ae = rp[eu[e] + 1], b = rp[ev[e]], be = rp[ev[e] + 1];
    while (a < ae && b < be) {
      if (adj[a] == adj[b]) { ++want; ++a; ++b; }
      else if (adj[a] < adj[b]) ++a;
      else ++b;
    }
  }
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "vertices=%d,edges=%d", n, m);
  int *drp, *dadj, *deu, *dev;
  unsigned long long *dtot;
  CHECK(musaMalloc(&drp, (n + 1) * 4));
  CHECK(musaMalloc(&dadj, size_t(m) * 4));
  CHECK(musaMalloc(&deu, size_t(m) * 4));
  CHECK(musaMalloc(&dev, size_t(m) * 4));
  CHECK(musaMalloc(&dtot, 8));
  CHECK(musaMemcpy(drp, rp.data(), (n + 1) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dadj, adj.data(), size_t(m) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(deu, eu.data(), size_t(m) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dev, ev.data(), size_t(m) * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    CHECK(musaMemsetAsync(dtot, 0, 8, 0));
    tricount_merge<<<(m + 255) / 256, 256>>>(drp, dadj, deu, dev, m, dtot);
  };
  warm(op);
  unsigned long long got = 0;
  CHECK(musaMemcpy(&got, dtot, 8, musaMemcpyDeviceToHost));
  if (got != want) fail("tricount_merge", cfg, 0, double(got), double(want));
  report("tricount_merge", cfg, time_median(op));
  for (int *p : {drp, dadj, deu, dev}) CHECK(musaFree(p));
  CHECK(musaFree(dtot));
}

// ---- int8 GEMM (C = A B^T, both K-contiguous) with __dp4a: 64x64 block tile, 4x4 a thread ---
__global__ void gemm_s8_dp4a(const int *A, const int *B, int *C, int M, int N, int K4) {
  __shared__ int As[64][9], Bs[64][9];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  int m0 = blockIdx.y * 64, n0 = blockIdx.x * 64;
  int acc[4][4] = {};
  for (int k0 = 0; k0 < K4; k0 += 8) {
    for (int l = 0; l < 2; ++l) {
      int idx = tid + 256 * l, r = idx >> 3, q = idx & 7;
      As[r][q] = A[size_t(m0 + r) * K4 + k0 + q];
      Bs[r][q] = B[size_t(n0 + r) * K4 + k0 + q];
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < 8; ++kk) {
      int a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        a[i] = As[ty + 16 * i][kk];
        b[i] = Bs[tx + 16 * i][kk];
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] = __dp4a(a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) C[size_t(m0 + ty + 16 * i) * N + n0 + tx + 16 * j] = acc[i][j];
}

static void bench_gemm_s8() {
  const int M = 1024, N = 1024, K = 512, K4 = K / 4;
  const char *cfg = "m=1024,n=1024,k=512,tile=64x64";
  std::vector<signed char> A(size_t(M) * K), B(size_t(N) * K);
  for (size_t i = 0; i < A.size(); ++i) A[i] = (signed char)(hash_u32(unsigned(i) ^ 0x71u) % 255u - 127);
  for (size_t i = 0; i < B.size(); ++i) B[i] = (signed char)(hash_u32(unsigned(i) ^ 0x72u) % 255u - 127);
  int *dA, *dB, *dC;
  CHECK(musaMalloc(&dA, A.size()));
  CHECK(musaMalloc(&dB, B.size()));
  CHECK(musaMalloc(&dC, size_t(M) * N * 4));
  CHECK(musaMemcpy(dA, A.data(), A.size(), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), B.size(), musaMemcpyHostToDevice));
  auto op = [&] { gemm_s8_dp4a<<<dim3(N / 64, M / 64), dim3(16, 16)>>>(dA, dB, dC, M, N, K4); };
  warm(op);
  std::vector<int> C(size_t(M) * N);
  CHECK(musaMemcpy(C.data(), dC, C.size() * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < C.size(); i += 997) {
    size_t r = i / N, c = i % N;
    int want = 0;
    for (int k = 0; k < K; ++k) want += int(A[r * K + k]) * int(B[c * K + k]);
    if (C[i] != want) { fail("gemm_s8_dp4a", cfg, long(i), C[i], want); break; }
  }
  report("gemm_s8_dp4a", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  CHECK(musaFree(dC));
}

// ---- single-query (decode) attention: a 256-thread block a head, 128-dim, L keys ------------
// Scores by a warp a key (float4 a lane), block softmax over the scores in dynamic shared memory,
// then P V with two threads a dimension.
__global__ void attn_decode_f32(const float *q, const float *K, const float *V, float *out, int L,
                                float scale) {
  extern __shared__ float sc[];
  __shared__ float red[8], part[128];
  int h = blockIdx.x, tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  float4 qv = reinterpret_cast<const float4 *>(q + size_t(h) * 128)[lane];
  const float *Kh = K + size_t(h) * L * 128, *Vh = V + size_t(h) * L * 128;
  for (int j = warp; j < L; j += 8) {
    float4 kv = reinterpret_cast<const float4 *>(Kh + size_t(j) * 128)[lane];
    float s = qv.x * kv.x + qv.y * kv.y + qv.z * kv.z + qv.w * kv.w;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) sc[j] = s * scale;
  }
  __syncthreads();
  float m = -INFINITY;
  for (int j = tid; j < L; j += 256) m = fmaxf(m, sc[j]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (lane == 0) red[warp] = m;
  __syncthreads();
  m = red[0];
  for (int w = 1; w < 8; ++w) m = fmaxf(m, red[w]);
  __syncthreads();
  float sum = 0.f;
  for (int j = tid; j < L; j += 256) {
    float e = __expf(sc[j] - m);
    sc[j] = e;
    sum += e;
  }
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  if (lane == 0) red[warp] = sum;
  __syncthreads();
  sum = 0.f;
  for (int w = 0; w < 8; ++w) sum += red[w];
  int d = tid & 127, half = tid >> 7;
  float acc = 0.f;
  for (int j = half; j < L; j += 2) acc += sc[j] * Vh[size_t(j) * 128 + d];
  if (half) part[d] = acc;
  __syncthreads();
  if (!half) out[size_t(h) * 128 + d] = (acc + part[d]) / sum;
}

static void bench_attn_decode() {
  const int heads = 128, L = 1024, D = 128;
  const char *cfg = "heads=128,keys=1024,dim=128";
  const float scale = 1.f / std::sqrt(float(D));
  size_t kv = size_t(heads) * L * D;
  std::vector<float> q(size_t(heads) * D), K(kv), V(kv), out(size_t(heads) * D);
  for (size_t i = 0; i < q.size(); ++i) q[i] = 2.f * tn_unit(unsigned(i), 71) - 1.f;
  for (size_t i = 0; i < kv; ++i) {
    K[i] = 2.f * tn_unit(unsigned(i), 72) - 1.f;
    V[i] = 2.f * tn_unit(unsigned(i), 73) - 1.f;
  }
  float *dq, *dK, *dV, *dout;
  CHECK(musaMalloc(&dq, q.size() * 4));
  CHECK(musaMalloc(&dK, kv * 4));
  CHECK(musaMalloc(&dV, kv * 4));
  CHECK(musaMalloc(&dout, out.size() * 4));
  CHECK(musaMemcpy(dq, q.data(), q.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dK, K.data(), kv * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dV, V.data(), kv * 4, musaMemcpyHostToDevice));
  auto op = [&] { attn_decode_f32<<<heads, 256, L * sizeof(float)>>>(dq, dK, dV, dout, L, scale); };
  warm(op);
  CHECK(musaMemcpy(out.data(), dout, out.size() * 4, musaMemcpyDeviceToHost));
  std::vector<double> p(L);
  for (int h = 0; h < heads; h += 5) {
    double mx = -1e300, sum = 0;
    for (int j = 0; j < L; ++j) {
      double s = 0;
      for (int d = 0; d < D; ++d) s += double(q[size_t(h) * D + d]) * K[(size_t(h) * L + j) * D + d];
      p[j] = s * scale;
      mx = std::max(mx, p[j]);
    }
    for (int j = 0; j < L; ++j) sum += (p[j] = std::exp(p[j] - mx));
    bool bad = false;
    for (int d = 0; d < D && !bad; ++d) {
      double want = 0;
      for (int j = 0; j < L; ++j) want += p[j] * V[(size_t(h) * L + j) * D + d];
      want /= sum;
      float got = out[size_t(h) * D + d];
      if (std::fabs(got - want) > 1e-4) {
        fail("attn_decode_f32", cfg, long(h) * D + d, got, want);
        bad = true;
      }
    }
    if (bad) break;
  }
  report("attn_decode_f32", cfg, time_median(op));
  for (float *p2 : {dq, dK, dV, dout}) CHECK(musaFree(p2));
}

// ---- depthwise 3x3 convolution, NCHW, zero padding 1 (MobileNet-style layer) ----------------
__global__ void dwconv3x3_nchw(const float *in, const float *w, const float *bias, float *out,
                               int C, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int nc = blockIdx.z, c = nc % C;
  if (x >= W || y >= H) return;
  const float *src = in + size_t(nc) * H * W;
  const float *k = w + c * 9;
  float s = bias[c];
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = y + dy;
    if (yy < 0 || yy >= H) continue;
    for (int dx = -1; dx <= 1; ++dx) {
      int xx = x + dx;
      if (xx < 0 || xx >= W) continue;
      s += k[(dy + 1) * 3 + dx + 1] * src[yy * W + xx];
    }
  }
  out[size_t(nc) * H * W + y * W + x] = s;
}

static void bench_dwconv() {
  const int N = 4, C = 128, H = 112, W = 112;
  const char *cfg = "n=4,c=128,h=112,w=112";
  size_t total = size_t(N) * C * H * W;
  std::vector<float> in(total), w(C * 9), b(C), out(total);
  for (size_t i = 0; i < total; ++i) in[i] = tn_unit(unsigned(i), 81) - 0.5f;
  for (int i = 0; i < C * 9; ++i) w[i] = tn_unit(unsigned(i), 82) - 0.5f;
  for (int i = 0; i < C; ++i) b[i] = tn_unit(unsigned(i), 83);
  float *din, *dw, *db, *dout;
  CHECK(musaMalloc(&din, total * 4));
  CHECK(musaMalloc(&dw, C * 9 * 4));
  CHECK(musaMalloc(&db, C * 4));
  CHECK(musaMalloc(&dout, total * 4));
  CHECK(musaMemcpy(din, in.data(), total * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dw, w.data(), C * 9 * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, b.data(), C * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    dwconv3x3_nchw<<<dim3((W + 31) / 32, (H + 7) / 8, N * C), dim3(32, 8)>>>(din, dw, db, dout, C, H, W);
  };
  warm(op);
  CHECK(musaMemcpy(out.data(), dout, total * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < total; i += 211) {
    int x = int(i % W), y = int(i / W % H), c = int(i / (size_t(W) * H) % C);
    size_t plane = i / (size_t(W) * H) * W * H;
    double s = b[c];
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int yy = y + dy, xx = x + dx;
        if (yy >= 0 && yy < H && xx >= 0 && xx < W)
          s += double(w[c * 9 + (dy + 1) * 3 + dx + 1]) * in[plane + size_t(yy) * W + xx];
      }
    if (!near(out[i], s, 1e-5)) { fail("dwconv3x3_nchw", cfg, long(i), out[i], s); break; }
  }
  report("dwconv3x3_nchw", cfg, time_median(op));
  for (float *p : {din, dw, db, dout}) CHECK(musaFree(p));
}

// ---- 7x7 convolution with __constant__ weights: 32x32 output tile, 38x38 shared tile, clamp --
__constant__ float c_w7[49];

__global__ void conv7x7_const(const float *in, float *out, int w, int h) {
  __shared__ float tile[38][39];
  int tx = threadIdx.x, ty = threadIdx.y, x0 = blockIdx.x * 32, y0 = blockIdx.y * 32;
  for (int r = ty; r < 38; r += 8) {
    int y = min(max(y0 + r - 3, 0), h - 1);
    for (int c = tx; c < 38; c += 32) {
      int x = min(max(x0 + c - 3, 0), w - 1);
      tile[r][c] = in[size_t(y) * w + x];
    }
  }
  __syncthreads();
  for (int j = 0; j < 4; ++j) {
    int r = ty + 8 * j;
    float s = 0.f;
#pragma unroll
    for (int ky = 0; ky < 7; ++ky)
#pragma unroll
      for (int kx = 0; kx < 7; ++kx) s += c_w7[ky * 7 + kx] * tile[r + ky][tx + kx];
    out[size_t(y0 + r) * w + x0 + tx] = s;
  }
}

static void bench_conv7x7() {
  const int w = 2048, h = 2048;
  const char *cfg = "2048x2048,k=7";
  size_t n = size_t(w) * h;
  float wt[49];
  for (int i = 0; i < 49; ++i) wt[i] = tn_unit(unsigned(i), 91) * (2.f / 49.f);
  CHECK(musaMemcpyToSymbol(c_w7, wt, sizeof wt));
  std::vector<float> img(n), out(n);
  for (size_t i = 0; i < n; ++i) img[i] = float(hash_u32(unsigned(i) ^ 0x4242u) % 256);
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(din, img.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { conv7x7_const<<<dim3(w / 32, h / 32), dim3(32, 8)>>>(din, dout, w, h); };
  warm(op);
  CHECK(musaMemcpy(out.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i += 4001) {
    int x = int(i % w), y = int(i / w);
    double s = 0;
    for (int ky = 0; ky < 7; ++ky)
      for (int kx = 0; kx < 7; ++kx) {
        int yy = std::min(std::max(y + ky - 3, 0), h - 1), xx = std::min(std::max(x + kx - 3, 0), w - 1);
        s += double(wt[ky * 7 + kx]) * img[size_t(yy) * w + xx];
      }
    if (!near(out[i], s, 1e-5)) { fail("conv7x7_const", cfg, long(i), out[i], s); break; }
  }
  report("conv7x7_const", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ---- Rodinia nn: Euclidean distance of (lat, lng) records to a target ------------------------
__global__ void nn_latlng_dist(const float2 *rec, float *dist, int n, float lat, float lng) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 r = rec[i];
    dist[i] = sqrtf((lat - r.x) * (lat - r.x) + (lng - r.y) * (lng - r.y));
  }
}

static void bench_nn(int n) {
  char cfg[48];
  std::snprintf(cfg, sizeof cfg, "records=%d", n);
  const float lat = 30.f, lng = 90.f;
  std::vector<float> rec(size_t(n) * 2), dist(n);
  for (size_t i = 0; i < rec.size(); ++i) rec[i] = tn_unit(unsigned(i), 141) * 180.f;
  float *dr, *dd;
  CHECK(musaMalloc(&dr, rec.size() * 4));
  CHECK(musaMalloc(&dd, size_t(n) * 4));
  CHECK(musaMemcpy(dr, rec.data(), rec.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    nn_latlng_dist<<<(n + 255) / 256, 256>>>(reinterpret_cast<const float2 *>(dr), dd, n, lat, lng);
  };
  warm(op);
  CHECK(musaMemcpy(dist.data(), dd, size_t(n) * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 3) {
    double a = lat - rec[2 * size_t(i)], b = lng - rec[2 * size_t(i) + 1];
    double want = std::sqrt(a * a + b * b);
    if (!near(dist[i], want, 1e-5)) { fail("nn_latlng_dist", cfg, i, dist[i], want); break; }
  }
  report("nn_latlng_dist", cfg, time_median(op));
  CHECK(musaFree(dr));
  CHECK(musaFree(dd));
}

// ---- row L2 normalisation of 64-float rows: a tiled_partition<16> a row, float4 a lane -------
__global__ void cg_tile16_l2norm(const float4 *x, float4 *y, int rows) {
  cg::thread_block blk = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(blk);
  int row = blockIdx.x * (blockDim.x / 16) + threadIdx.x / 16;
  if (row >= rows) return;
  float4 v = x[size_t(row) * 16 + tile.thread_rank()];
  float s = v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
  for (int o = 8; o > 0; o >>= 1) s += tile.shfl_xor(s, o);
  float inv = rsqrtf(s + 1e-12f);
  y[size_t(row) * 16 + tile.thread_rank()] = make_float4(v.x * inv, v.y * inv, v.z * inv, v.w * inv);
}

static void bench_cg_l2norm() {
  const int rows = 1 << 18;
  const char *cfg = "rows=262144,dim=64,tile=16";
  size_t n = size_t(rows) * 64;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) x[i] = tn_unit(unsigned(i), 151) - 0.5f;
  float *dx, *dy;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&dy, n * 4));
  CHECK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    cg_tile16_l2norm<<<rows / 16, 256>>>(reinterpret_cast<const float4 *>(dx),
                                         reinterpret_cast<float4 *>(dy), rows);
  };
  warm(op);
  CHECK(musaMemcpy(y.data(), dy, n * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r += 7) {
    double s = 0;
    for (int d = 0; d < 64; ++d) s += double(x[size_t(r) * 64 + d]) * x[size_t(r) * 64 + d];
    double inv = 1.0 / std::sqrt(s + 1e-12);
    int d = r % 64;
    double want = x[size_t(r) * 64 + d] * inv;
    if (!near(y[size_t(r) * 64 + d], want, 1e-5)) { fail("cg_tile16_l2norm", cfg, r, y[size_t(r) * 64 + d], want); break; }
  }
  report("cg_tile16_l2norm", cfg, time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- copy-compute-copy over two streams: 8 chunks of 4 MB, each H2D, kernel, D2H, pinned -----
__global__ void chunk_affine(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * 2.f + 1.f;
}

static void bench_stream_pipeline() {
  const size_t total = 32 << 20;
  const int chunks = 8;
  const size_t cb = total / chunks;
  const int cn = int(cb / 4);
  const char *cfg = "bytes=33554432,chunks=8,streams=2";
  float *hin, *hout, *din, *dout;
  CHECK(musaMallocHost((void **)&hin, total));
  CHECK(musaMallocHost((void **)&hout, total));
  CHECK(musaMalloc(&din, total));
  CHECK(musaMalloc(&dout, total));
  for (size_t i = 0; i < total / 4; ++i) hin[i] = float(hash_u32(unsigned(i)) % 1000);
  musaStream_t st[2];
  musaEvent_t done[2];
  for (int s = 0; s < 2; ++s) {
    CHECK(musaStreamCreate(&st[s]));
    CHECK(musaEventCreate(&done[s]));
  }
  auto op = [&] {
    for (int c = 0; c < chunks; ++c) {
      musaStream_t s = st[c & 1];
      size_t off = size_t(c) * cn;
      CHECK(musaMemcpyAsync(din + off, hin + off, cb, musaMemcpyHostToDevice, s));
      chunk_affine<<<cn / 256, 256, 0, s>>>(din + off, dout + off, cn);
      CHECK(musaMemcpyAsync(hout + off, dout + off, cb, musaMemcpyDeviceToHost, s));
    }
    for (int s = 0; s < 2; ++s) {
      CHECK(musaEventRecord(done[s], st[s]));
      CHECK(musaStreamWaitEvent(0, done[s], 0));
    }
  };
  warm(op);
  for (size_t i = 0; i < total / 4; i += 7)
    if (hout[i] != hin[i] * 2.f + 1.f) { fail("stream2_copy_compute", cfg, long(i), hout[i], hin[i] * 2.f + 1.f); break; }
  report("stream2_copy_compute", cfg, time_median(op));
  for (int s = 0; s < 2; ++s) {
    CHECK(musaStreamDestroy(st[s]));
    CHECK(musaEventDestroy(done[s]));
  }
  CHECK(musaFreeHost(hin));
  CHECK(musaFreeHost(hout));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

// ---- a chain of 48 tiny dependent kernels (two kinds alternating), direct and as a graph -----
__global__ void tiny_halve_add(float *x, float b) { x[threadIdx.x] = x[threadIdx.x] * 0.5f + b; }

__global__ void tiny_neighbour_mix(float *x) {
  __shared__ float s[256];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = 0.75f * s[threadIdx.x] + 0.25f * s[(threadIdx.x + 1) & 255];
}

static void tiny_chain_host(std::vector<float> &x, int launches) {
  std::vector<float> s(256);
  for (int l = 0; l < launches; ++l) {
    if (l % 2 == 0)
      for (int i = 0; i < 256; ++i) x[i] = x[i] * 0.5f + 1.f;
    else {
      s = x;
      for (int i = 0; i < 256; ++i) x[i] = 0.75f * s[i] + 0.25f * s[(i + 1) & 255];
    }
  }
}

static void bench_tiny_chain() {
  const int launches = 48;
  const char *cfg = "kernels=48,threads=256";
  std::vector<float> init(256), got(256);
  for (int i = 0; i < 256; ++i) init[i] = float(hash_u32(unsigned(i)) % 100);
  float *d;
  CHECK(musaMalloc(&d, 256 * 4));
  musaStream_t s;
  musaEvent_t done;
  CHECK(musaStreamCreate(&s));
  CHECK(musaEventCreate(&done));
  auto chain = [&](musaStream_t st) {
    for (int l = 0; l < launches; ++l) {
      if (l % 2 == 0) tiny_halve_add<<<1, 256, 0, st>>>(d, 1.f);
      else tiny_neighbour_mix<<<1, 256, 0, st>>>(d);
    }
  };
  musaGraph_t graph;
  musaGraphExec_t exec;
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  chain(s);
  CHECK(musaStreamEndCapture(s, &graph));
  CHECK(musaGraphInstantiate(&exec, graph, 0));
  for (int g = 0; g < 2; ++g) {
    const char *name = g ? "tiny_chain_graph" : "tiny_chain_direct";
    auto op = [&] {
      if (g) {
        CHECK(musaGraphLaunch(exec, s));
        CHECK(musaEventRecord(done, s));
        CHECK(musaStreamWaitEvent(0, done, 0));
      } else {
        chain(0);
      }
    };
    CHECK(musaMemcpy(d, init.data(), 256 * 4, musaMemcpyHostToDevice));
    warm(op);
    CHECK(musaMemcpy(got.data(), d, 256 * 4, musaMemcpyDeviceToHost));
    std::vector<float> want(init);
    tiny_chain_host(want, launches);
    for (int i = 0; i < 256; ++i)
      if (!near(got[i], want[i], 1e-5)) { fail(name, cfg, i, got[i], want[i]); break; }
    report(name, cfg, time_median(op));
  }
  CHECK(musaGraphExecDestroy(exec));
  CHECK(musaGraphDestroy(graph));
  CHECK(musaEventDestroy(done));
  CHECK(musaStreamDestroy(s));
  CHECK(musaFree(d));
}
