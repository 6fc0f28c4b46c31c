// The dense linear-algebra kernels of timing_blind.mu (suite 6): a 32x32-tile matmul, a
// double-buffered DGEMM, a transposed GEMV, a k-NN distance tile and im2col. Included by that
// program only, after suite_harness.h.
#pragma once

// ---- matmul with 32x32 shared tiles, one output a thread of a 32x32-thread block ------------
// C (M x N) = A (M x K) * B (K x N), all row-major; M, N, K multiples of 32.
__global__ void matmul_tile32(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[32][32], Bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float s = 0.f;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = A[size_t(row) * K + k0 + tx];
    Bs[ty][tx] = B[size_t(k0 + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 32; ++k) s += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[size_t(row) * N + col] = s;
}

static void bench_matmul_tile32() {
  const int M = 768, N = 512, K = 1024;
  const char *cfg = "M=768,N=512,K=1024";
  std::vector<float> A(size_t(M) * K), B(size_t(K) * N);
  for (size_t i = 0; i < A.size(); ++i) A[i] = float(int(hash_u32(unsigned(i)) % 5) - 2);
  for (size_t i = 0; i < B.size(); ++i) B[i] = float(int(hash_u32(unsigned(i) + 91u) % 3) - 1);
  float *dA, *dB, *dC;
  CHECK(musaMalloc(&dA, A.size() * 4));
  CHECK(musaMalloc(&dB, B.size() * 4));
  CHECK(musaMalloc(&dC, size_t(M) * N * 4));
  CHECK(musaMemcpy(dA, A.data(), A.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), B.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { matmul_tile32<<<dim3(N / 32, M / 32), dim3(32, 32)>>>(dA, dB, dC, M, N, K); };
  warm(op);
  std::vector<float> C(size_t(M) * N);
  CHECK(musaMemcpy(C.data(), dC, C.size() * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < C.size(); i += 1013) {
    int r = int(i / N), c = int(i % N);
    float want = 0.f;  // small integers: exact in any order
    for (int k = 0; k < K; ++k) want += A[size_t(r) * K + k] * B[size_t(k) * N + c];
    if (C[i] != want) { fail("matmul_tile32", cfg, long(i), C[i], want); break; }
  }
  report("matmul_tile32", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  CHECK(musaFree(dC));
}

// ---- DGEMM, 16x16 tiles, the next K tile prefetched into registers and a second buffer ------
__global__ void dgemm_dbuf16(const double *A, const double *B, double *C, int n) {
  __shared__ double As[2][16][16], Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  const int tiles = n / 16;
  As[0][ty][tx] = A[size_t(row) * n + tx];
  Bs[0][ty][tx] = B[size_t(ty) * n + col];
  __syncthreads();
  double s = 0.0;
  for (int t = 0; t < tiles; ++t) {
    int cur = t & 1;
    double a_next = 0.0, b_next = 0.0;
    if (t + 1 < tiles) {
      a_next = A[size_t(row) * n + (t + 1) * 16 + tx];
      b_next = B[size_t((t + 1) * 16 + ty) * n + col];
    }
#pragma unroll
    for (int k = 0; k < 16; ++k) s = fma(As[cur][ty][k], Bs[cur][k][tx], s);
    if (t + 1 < tiles) {
      As[cur ^ 1][ty][tx] = a_next;
      Bs[cur ^ 1][ty][tx] = b_next;
    }
    __syncthreads();
  }
  C[size_t(row) * n + col] = s;
}

static void bench_dgemm() {
  const int n = 512;
  const char *cfg = "M=N=K=512,fp64";
  size_t nn = size_t(n) * n;
  std::vector<double> A(nn), B(nn);
  for (size_t i = 0; i < nn; ++i) {
    A[i] = double(int(hash_u32(unsigned(i)) % 2001) - 1000) / 1000.0;
    B[i] = double(int(hash_u32(unsigned(i) ^ 0xabcdefu) % 2001) - 1000) / 1000.0;
  }
  double *dA, *dB, *dC;
  CHECK(musaMalloc(&dA, nn * 8));
  CHECK(musaMalloc(&dB, nn * 8));
  CHECK(musaMalloc(&dC, nn * 8));
  CHECK(musaMemcpy(dA, A.data(), nn * 8, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), nn * 8, musaMemcpyHostToDevice));
  auto op = [&] { dgemm_dbuf16<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(dA, dB, dC, n); };
  warm(op);
  std::vector<double> C(nn);
  CHECK(musaMemcpy(C.data(), dC, nn * 8, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < nn; i += 733) {
    int r = int(i / n), c = int(i % n);
    double want = 0.0;
    for (int k = 0; k < n; ++k) want += A[size_t(r) * n + k] * B[size_t(k) * n + c];
    if (!near(C[i], want, 1e-11)) { fail("dgemm_dbuf16", cfg, long(i), C[i], want); break; }
  }
  report("dgemm_dbuf16", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  CHECK(musaFree(dC));
}

// ---- transposed GEMV y = A^T x: a thread a column over a 512-row slice, the slice of x in
// shared memory, partial sums added with float atomics ---------------------------------------
__global__ void gemv_t_smem(const float *A, const float *x, float *y, int cols) {
  __shared__ float xs[512];
  int c = blockIdx.x * 128 + threadIdx.x, r0 = blockIdx.y * 512;
  for (int i = threadIdx.x; i < 512; i += 128) xs[i] = x[r0 + i];
  __syncthreads();
  const float *p = A + size_t(r0) * cols + c;
  float s = 0.f;
#pragma unroll 8
  for (int r = 0; r < 512; ++r) s += p[size_t(r) * cols] * xs[r];
  atomicAdd(&y[c], s);
}

static void bench_gemv_t() {
  const int rows = 8192, cols = 4096;
  const char *cfg = "rows=8192,cols=4096,split=16";
  size_t n = size_t(rows) * cols;
  std::vector<float> A(n), x(rows);
  for (size_t i = 0; i < n; ++i) A[i] = float(int(hash_u32(unsigned(i) + 7u) % 5) - 2);
  for (int r = 0; r < rows; ++r) x[r] = float(int(hash_u32(unsigned(r) + 1234u) % 7) - 3);
  float *dA, *dx, *dy;
  CHECK(musaMalloc(&dA, n * 4));
  CHECK(musaMalloc(&dx, size_t(rows) * 4));
  CHECK(musaMalloc(&dy, size_t(cols) * 4));
  CHECK(musaMemcpy(dA, A.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x.data(), size_t(rows) * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    CHECK(musaMemsetAsync(dy, 0, size_t(cols) * 4));
    gemv_t_smem<<<dim3(cols / 128, rows / 512), 128>>>(dA, dx, dy, cols);
  };
  warm(op);
  std::vector<float> y(cols);
  CHECK(musaMemcpy(y.data(), dy, size_t(cols) * 4, musaMemcpyDeviceToHost));
  for (int c = 0; c < cols; c += 13) {
    float want = 0.f;  // small integers: exact in any order
    for (int r = 0; r < rows; ++r) want += A[size_t(r) * cols + c] * x[r];
    if (y[c] != want) { fail("gemv_t_smem", cfg, c, y[c], want); break; }
  }
  report("gemv_t_smem", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
}

// ---- k-NN squared-distance matrix, 32-dimensional points, 16x16 tiles in shared memory ------
__global__ void knn_dist_tile(const float *Q, const float *R, float *D, int nr) {
  __shared__ float qs[16][33], rs[16][33];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  int qbase = blockIdx.y * 16, rbase = blockIdx.x * 16;
  for (int i = tid; i < 512; i += 256) {
    int row = i / 32, d = i % 32;
    qs[row][d] = Q[size_t(qbase + row) * 32 + d];
    rs[row][d] = R[size_t(rbase + row) * 32 + d];
  }
  __syncthreads();
  float s = 0.f;
#pragma unroll
  for (int d = 0; d < 32; ++d) {
    float df = qs[ty][d] - rs[tx][d];
    s += df * df;
  }
  D[size_t(qbase + ty) * nr + rbase + tx] = s;
}

static void bench_knn() {
  const int nq = 2048, nr = 2048, dim = 32;
  const char *cfg = "q=2048,r=2048,d=32";
  std::vector<float> Q(size_t(nq) * dim), R(size_t(nr) * dim);
  for (size_t i = 0; i < Q.size(); ++i) Q[i] = float(hash_u32(unsigned(i)) % 16);
  for (size_t i = 0; i < R.size(); ++i) R[i] = float(hash_u32(unsigned(i) + 0x1000000u) % 16);
  float *dQ, *dR, *dD;
  size_t dn = size_t(nq) * nr;
  CHECK(musaMalloc(&dQ, Q.size() * 4));
  CHECK(musaMalloc(&dR, R.size() * 4));
  CHECK(musaMalloc(&dD, dn * 4));
  CHECK(musaMemcpy(dQ, Q.data(), Q.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dR, R.data(), R.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { knn_dist_tile<<<dim3(nr / 16, nq / 16), dim3(16, 16)>>>(dQ, dR, dD, nr); };
  warm(op);
  std::vector<float> D(dn);
  CHECK(musaMemcpy(D.data(), dD, dn * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < dn; i += 1999) {
    size_t q = i / nr, r = i % nr;
    float want = 0.f;  // small integers: exact
    for (int d = 0; d < dim; ++d) {
      float df = Q[q * dim + d] - R[r * dim + d];
      want += df * df;
    }
    if (D[i] != want) { fail("knn_dist_tile", cfg, long(i), D[i], want); break; }
  }
  report("knn_dist_tile", cfg, time_median(op));
  CHECK(musaFree(dQ));
  CHECK(musaFree(dR));
  CHECK(musaFree(dD));
}

// ---- im2col for a 3x3, pad-1 convolution: (c*9) x (h*w) column matrix, a thread an entry ---
__global__ void im2col3x3(const float *in, float *col, int c, int h, int w) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x, hw = h * w;
  if (idx >= c * 9 * hw) return;
  int p = idx % hw, row = idx / hw;
  int ci = row / 9, kk = row % 9;
  int y = p / w + kk / 3 - 1, x = p % w + kk % 3 - 1;
  col[idx] = (y >= 0 && y < h && x >= 0 && x < w) ? in[(size_t(ci) * h + y) * w + x] : 0.f;
}

static void bench_im2col() {
  const int c = 64, h = 56, w = 56;
  const char *cfg = "c=64,56x56,k=3";
  size_t in_n = size_t(c) * h * w, out_n = in_n * 9;
  std::vector<float> in(in_n);
  for (size_t i = 0; i < in_n; ++i) in[i] = float(i % 1000) + 1.f;
  float *din, *dcol;
  CHECK(musaMalloc(&din, in_n * 4));
  CHECK(musaMalloc(&dcol, out_n * 4));
  CHECK(musaMemcpy(din, in.data(), in_n * 4, musaMemcpyHostToDevice));
  auto op = [&] { im2col3x3<<<int((out_n + 255) / 256), 256>>>(din, dcol, c, h, w); };
  warm(op);
  std::vector<float> col(out_n);
  CHECK(musaMemcpy(col.data(), dcol, out_n * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < out_n; i += 29) {
    int p = int(i % (h * w)), row = int(i / (h * w));
    int ci = row / 9, kk = row % 9, y = p / w + kk / 3 - 1, x = p % w + kk % 3 - 1;
    float want = (y >= 0 && y < h && x >= 0 && x < w) ? in[(size_t(ci) * h + y) * w + x] : 0.f;
    if (col[i] != want) { fail("im2col3x3", cfg, long(i), col[i], want); break; }
  }
  report("im2col3x3", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dcol));
}
