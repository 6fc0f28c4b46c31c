// SAXPY with a grid-stride loop (y = a*x + y), launched with fewer blocks than elements.
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

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  const float a = 2.5f;
  float *x = (float *)malloc(n * sizeof(float)), *y = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    x[i] = (float)(i % 1000) * 0.001f;
    y[i] = 1.0f - (float)(i % 77) * 0.01f;
  }
  float *dx, *dy;
  CHECK(musaMalloc(&dx, n * sizeof(float)));
  CHECK(musaMalloc(&dy, n * sizeof(float)));
  CHECK(musaMemcpy(dx, x, n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dy, y, n * sizeof(float), musaMemcpyHostToDevice));
  saxpy<<<128, 256>>>(n, a, dx, dy);
  CHECK(musaGetLastError());
  float *out = (float *)malloc(n * sizeof(float));
  CHECK(musaMemcpy(out, dy, n * sizeof(float), musaMemcpyDeviceToHost));
  float maxErr = 0.0f;
  for (int i = 0; i < n; ++i)
    maxErr = fmaxf(maxErr, fabsf(out[i] - (a * x[i] + y[i])));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
  bool ok = maxErr <= 1e-5f;
  printf("saxpy: n=%d max error %g, %s\n", n, maxErr, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
