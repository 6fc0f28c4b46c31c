// Tiled matrix multiply through 16x16 shared-memory tiles (the matrixMul sample's scheme), 256x256, with sizes that are not tile multiples handled by zero padding.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

#define TILE 16

__global__ void matmulTiled(const float *A, const float *B, float *C, int M, int K, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + tx, bk = t * TILE + ty;
    As[ty][tx] = row < M && ak < K ? A[row * K + ak] : 0.0f;
    Bs[ty][tx] = bk < K && col < N ? B[bk * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

int main() {
  const int M = 256, K = 250, N = 200;
  float *A = (float *)malloc(M * K * sizeof(float)), *B = (float *)malloc(K * N * sizeof(float));
  float *C = (float *)malloc(M * N * sizeof(float));
  for (int i = 0; i < M * K; ++i)
    A[i] = (float)((i * 3) % 11 - 5) * 0.5f;
  for (int i = 0; i < K * N; ++i)
    B[i] = (float)((i * 7) % 9 - 4) * 0.25f;
  float *dA, *dB, *dC;
  CHECK(musaMalloc(&dA, M * K * sizeof(float)));
  CHECK(musaMalloc(&dB, K * N * sizeof(float)));
  CHECK(musaMalloc(&dC, M * N * sizeof(float)));
  CHECK(musaMemcpy(dA, A, M * K * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B, K * N * sizeof(float), musaMemcpyHostToDevice));
  dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmulTiled<<<grid, block>>>(dA, dB, dC, M, K, N);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(C, dC, M * N * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0.0;
      for (int k = 0; k < K; ++k)
        ref += (double)A[i * K + k] * B[k * N + j];
      if (fabs(C[i * N + j] - ref) > 1e-3 && bad++ < 5)
        printf("C[%d][%d] = %f, expected %f\n", i, j, C[i * N + j], ref);
    }
  printf("matmul_tiled: %dx%dx%d, %s\n", M, K, N, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
