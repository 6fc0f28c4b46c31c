// 16x16 tiled matrix multiply with static __shared__ tiles, non-multiple-of-16 sizes.
#include "check.h"

#define TILE 16

__global__ void matmul(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

int main() {
  const int M = 70, N = 45, K = 33;
  float *A = (float *)malloc(M * K * sizeof(float)), *B = (float *)malloc(K * N * sizeof(float));
  float *C = (float *)malloc(M * N * sizeof(float));
  for (int i = 0; i < M * K; ++i)
    A[i] = float((i % 7) - 3);
  for (int i = 0; i < K * N; ++i)
    B[i] = float((i % 5) - 2) * 0.5f;
  float *dA, *dB, *dC;
  CHECK_MUSA(musaMalloc(&dA, M * K * sizeof(float)));
  CHECK_MUSA(musaMalloc(&dB, K * N * sizeof(float)));
  CHECK_MUSA(musaMalloc(&dC, M * N * sizeof(float)));
  CHECK_MUSA(musaMemcpy(dA, A, M * K * sizeof(float), musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dB, B, K * N * sizeof(float), musaMemcpyHostToDevice));
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul<<<grid, block>>>(dA, dB, dC, M, N, K);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(C, dC, M * N * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float expect = 0;
      for (int k = 0; k < K; ++k)
        expect += A[r * K + k] * B[k * N + c];
      if (C[r * N + c] != expect && bad++ < 5)
        CHECK(false, "C[%d][%d] = %f, expected %f", r, c, C[r * N + c], expect);
    }
  free(A);
  free(B);
  free(C);
  musaFree(dA);
  musaFree(dB);
  musaFree(dC);
  return finish("tiled_matmul");
}
