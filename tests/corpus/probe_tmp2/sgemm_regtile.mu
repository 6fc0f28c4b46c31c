// Parboil sgemm (register tiling): mysgemmNT with TILE_N=16, TILE_TB_HEIGHT=8, each thread keeping a row of 16
// partial results in registers and B staged through a small shared tile (column-major A, transposed B); plus a
// HeCBench-style 64x64 block-tiled kernel with 4x4 register micro-tiles, float4 shared loads, __ldg,
// __launch_bounds__, __restrict__ and #pragma unroll, on sizes that are not multiples of the tile.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void mysgemmNT(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k, float alpha,
                          float beta) {
  float c[TILE_N];
  for (int i = 0; i < TILE_N; i++)
    c[i] = 0.0f;
  int mid = threadIdx.y * blockDim.x + threadIdx.x;
  int m = blockIdx.x * TILE_M + mid;
  int n = blockIdx.y * TILE_N + threadIdx.x;
  __shared__ float b_s[TILE_TB_HEIGHT][TILE_N];
  for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
    float a;
    b_s[threadIdx.y][threadIdx.x] = B[n + (i + threadIdx.y) * ldb];
    __syncthreads();
    for (int j = 0; j < TILE_TB_HEIGHT; j++) {
      a = A[m + (i + j) * lda];
      for (int kk = 0; kk < TILE_N; kk++)
        c[kk] += a * b_s[j][kk];
    }
    __syncthreads();
  }
  int t = ldc * blockIdx.y * TILE_N + m;
  for (int i = 0; i < TILE_N; i++) {
    C[t + i * ldc] = C[t + i * ldc] * beta + alpha * c[i];
  }
}

void regtileSgemm(char transa, char transb, int m, int n, int k, float alpha, const float *A, int lda,
                  const float *B, int ldb, float beta, float *C, int ldc) {
  if ((transa != 'N') && (transa != 'n')) {
    printf("unsupported value of 'transa' in regtileSgemm()\n");
    exit(1);
  }
  if ((transb != 'T') && (transb != 't')) {
    printf("unsupported value of 'transb' in regtileSgemm()\n");
    exit(1);
  }
  if ((m % TILE_M) || (n % TILE_N)) {
    printf("unsupported size of matrix. m should be multiple of %d; n should be multiple of %d\n", TILE_M, TILE_N);
    exit(1);
  }
  dim3 grid(m / TILE_M, n / TILE_N), threads(TILE_N, TILE_TB_HEIGHT);
  mysgemmNT<<<grid, threads>>>(A, lda, B, ldb, C, ldc, k, alpha, beta);
}

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define NTHREADS ((BM / TM) * (BN / TN))

__global__ void __launch_bounds__(NTHREADS) sgemm_nn_rt(int M, int N, int K, float alpha,
                                                        const float *__restrict__ A, const float *__restrict__ B,
                                                        float beta, float *__restrict__ C) {
  __shared__ __align__(16) float As[BK][BM + 4];
  __shared__ __align__(16) float Bs[BK][BN];
  const int tid = threadIdx.x;
  const int tx = tid % (BN / TN), ty = tid / (BN / TN);
  const int rowBase = blockIdx.y * BM, colBase = blockIdx.x * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j)
      acc[i][j] = 0.f;
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int l = 0; l < (BM * BK) / NTHREADS; ++l) {
      int e = tid + l * NTHREADS;
      int r = e / BK, c = e % BK;
      int gr = rowBase + r, gc = k0 + c;
      As[c][r] = (gr < M && gc < K) ? __ldg(&A[(size_t)gr * K + gc]) : 0.f;
    }
#pragma unroll
    for (int l = 0; l < (BK * BN) / NTHREADS; ++l) {
      int e = tid + l * NTHREADS;
      int r = e / BN, c = e % BN;
      int gr = k0 + r, gc = colBase + c;
      Bs[r][c] = (gr < K && gc < N) ? __ldg(B + (size_t)gr * N + gc) : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float4 a4 = *reinterpret_cast<const float4 *>(&As[kk][ty * TM]);
      float4 b4 = *reinterpret_cast<const float4 *>(&Bs[kk][tx * TN]);
      float av[TM] = {a4.x, a4.y, a4.z, a4.w};
      float bv[TN] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
          acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    int r = rowBase + ty * TM + i;
    if (r >= M)
      continue;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      int c = colBase + tx * TN + j;
      if (c < N)
        C[(size_t)r * N + c] = alpha * acc[i][j] + beta * C[(size_t)r * N + c];
    }
  }
}

static unsigned rs = 12345;
static float frand() {
  rs = rs * 1664525u + 1013904223u;
  return (float)((rs >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static int test_parboil(int m, int n, int k) {
  float alpha = 1.0f, beta = 0.5f;
  float *A = (float *)malloc(m * k * sizeof(float)), *B = (float *)malloc(n * k * sizeof(float));
  float *C = (float *)malloc(m * n * sizeof(float)), *R = (float *)malloc(m * n * sizeof(float));
  for (int i = 0; i < m * k; i++) A[i] = frand();
  for (int i = 0; i < n * k; i++) B[i] = frand();
  for (int i = 0; i < m * n; i++) C[i] = frand();
  float *dA, *dB, *dC;
  CHECK(musaMalloc((void **)&dA, m * k * sizeof(float)));
  CHECK(musaMalloc((void **)&dB, n * k * sizeof(float)));
  CHECK(musaMalloc((void **)&dC, m * n * sizeof(float)));
  CHECK(musaMemcpy(dA, A, m * k * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B, n * k * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dC, C, m * n * sizeof(float), musaMemcpyHostToDevice));
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  regtileSgemm('N', 'T', m, n, k, alpha, dA, m, dB, n, beta, dC, m);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(R, dC, m * n * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  double maxerr = 0;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      double s = 0, mag = 0;
      for (int l = 0; l < k; l++) {
        double p = (double)A[i + l * m] * B[j + l * n];
        s += p;
        mag += fabs(p);
      }
      double ref = alpha * s + beta * C[i + j * m];
      double e = fabs(R[i + j * m] - ref) / (mag + fabs(C[i + j * m]) + 1e-6);
      if (e > maxerr) maxerr = e;
      if (!(e < 1e-5)) bad++;
    }
  printf("parboil sgemm NT m=%d n=%d k=%d: %.3f ms, max scaled err %.2e%s\n", m, n, k, ms, maxerr,
         bad ? " MISMATCH" : "");
  musaFree(dA); musaFree(dB); musaFree(dC); musaEventDestroy(e0); musaEventDestroy(e1);
  free(A); free(B); free(C); free(R);
  return bad;
}

static int test_rt(int M, int N, int K) {
  float alpha = 1.5f, beta = -0.25f;
  float *A = (float *)malloc(M * K * sizeof(float)), *B = (float *)malloc(K * N * sizeof(float));
  float *C = (float *)malloc(M * N * sizeof(float)), *R = (float *)malloc(M * N * sizeof(float));
  for (int i = 0; i < M * K; i++) A[i] = frand();
  for (int i = 0; i < K * N; i++) B[i] = frand();
  for (int i = 0; i < M * N; i++) C[i] = frand();
  float *dA, *dB, *dC;
  CHECK(musaMalloc((void **)&dA, M * K * sizeof(float)));
  CHECK(musaMalloc((void **)&dB, K * N * sizeof(float)));
  CHECK(musaMalloc((void **)&dC, M * N * sizeof(float)));
  CHECK(musaMemcpy(dA, A, M * K * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B, K * N * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dC, C, M * N * sizeof(float), musaMemcpyHostToDevice));
  dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  sgemm_nn_rt<<<grid, NTHREADS>>>(M, N, K, alpha, dA, dB, beta, dC);
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  float ms;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  CHECK(musaMemcpy(R, dC, M * N * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  double maxerr = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double s = 0, mag = 0;
      for (int l = 0; l < K; l++) {
        double p = (double)A[i * K + l] * B[l * N + j];
        s += p;
        mag += fabs(p);
      }
      double ref = alpha * s + beta * C[i * N + j];
      double e = fabs(R[i * N + j] - ref) / (fabs(alpha) * mag + fabs(C[i * N + j]) + 1e-6);
      if (e > maxerr) maxerr = e;
      if (!(e < 1e-5)) {
        if (bad < 4) printf("  (%d,%d): %f vs %f\n", i, j, R[i * N + j], ref);
        bad++;
      }
    }
  printf("regtile sgemm NN M=%d N=%d K=%d (%dx%d blocks): %.3f ms, max scaled err %.2e%s\n", M, N, K, grid.x,
         grid.y, ms, maxerr, bad ? " MISMATCH" : "");
  musaFree(dA); musaFree(dB); musaFree(dC); musaEventDestroy(e0); musaEventDestroy(e1);
  free(A); free(B); free(C); free(R);
  return bad;
}

int main() {
  int bad = 0;
  bad += test_parboil(128, 16, 8);
  bad += test_parboil(256, 48, 40);
  bad += test_rt(64, 64, 64);
  bad += test_rt(100, 75, 33);
  bad += test_rt(130, 200, 17);
  bad += test_rt(5, 3, 1);
  printf("sgemm_regtile: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
