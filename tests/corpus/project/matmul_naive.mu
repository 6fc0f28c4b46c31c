// Naive matrix multiply C = A*B, one thread per output element, 192x160 times 160x224.
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

__global__ void matmul(const float *A, const float *B, float *C, int M, int K, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

int main() {
  const int M = 192, K = 160, N = 224;
  float *A = (float *)malloc(M * K * sizeof(float)), *B = (float *)malloc(K * N * sizeof(float));
  float *C = (float *)malloc(M * N * sizeof(float));
  // Small integers: every product and sum is exact in float, so the check is exact.
  for (int i = 0; i < M * K; ++i)
    A[i] = (float)(i % 7 - 3);
  for (int i = 0; i < K * N; ++i)
    B[i] = (float)(i % 5 - 2);
  float *dA, *dB, *dC;
  CHECK(musaMalloc(&dA, M * K * sizeof(float)));
  CHECK(musaMalloc(&dB, K * N * sizeof(float)));
  CHECK(musaMalloc(&dC, M * N * sizeof(float)));
  CHECK(musaMemcpy(dA, A, M * K * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B, K * N * sizeof(float), musaMemcpyHostToDevice));
  dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);
  matmul<<<grid, block>>>(dA, dB, dC, M, K, N);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(C, dC, M * N * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float ref = 0.0f;
      for (int k = 0; k < K; ++k)
        ref += A[i * K + k] * B[k * N + j];
      if (C[i * N + j] != ref && bad++ < 5)
        printf("C[%d][%d] = %f, expected %f\n", i, j, C[i * N + j], ref);
    }
  printf("matmul_naive: %dx%dx%d, %s\n", M, K, N, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
