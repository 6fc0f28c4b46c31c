// 1D convolution with the mask in __constant__ memory (set by musaMemcpyToSymbol) and the input tile plus halo staged in shared memory.
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

#define MASK 9
#define RADIUS (MASK / 2)
#define BLOCK 256

__constant__ float c_mask[MASK];

__global__ void convolve(const float *in, float *out, int n) {
  __shared__ float tile[BLOCK + 2 * RADIUS];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  tile[threadIdx.x + RADIUS] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < RADIUS) {
    int left = i - RADIUS, right = i + BLOCK;
    tile[threadIdx.x] = left >= 0 ? in[left] : 0.0f;
    tile[threadIdx.x + BLOCK + RADIUS] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < MASK; ++k)
      acc += c_mask[k] * tile[threadIdx.x + k];
    out[i] = acc;
  }
}

int main() {
  const int n = (1 << 18) + 5;
  float mask[MASK];
  for (int k = 0; k < MASK; ++k)
    mask[k] = (float)(k + 1) / 16.0f;
  float *h = (float *)malloc(n * sizeof(float)), *res = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 23);
  CHECK(musaMemcpyToSymbol(c_mask, mask, sizeof mask));
  float *din, *dout;
  CHECK(musaMalloc(&din, n * sizeof(float)));
  CHECK(musaMalloc(&dout, n * sizeof(float)));
  CHECK(musaMemcpy(din, h, n * sizeof(float), musaMemcpyHostToDevice));
  convolve<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(din, dout, n);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dout, n * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    float ref = 0.0f;
    for (int k = 0; k < MASK; ++k) {
      int j = i - RADIUS + k;
      if (j >= 0 && j < n)
        ref += mask[k] * h[j];
    }
    if (fabsf(ref - res[i]) > 1e-4f && bad++ < 5)
      printf("out[%d] = %f, expected %f\n", i, res[i], ref);
  }
  printf("conv1d_constant: n=%d mask %d, %s\n", n, MASK, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
