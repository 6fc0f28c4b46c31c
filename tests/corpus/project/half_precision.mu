// Half precision (musa_fp16.h): __half storage, __hadd/__hmul/__hfma and operators, __half2 paired arithmetic, conversions both ways; the host computes the same operations through the header and must agree bit for bit.
#include <musa_runtime.h>
#include <musa_fp16.h>
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

__global__ void halfOps(const __half *a, const __half *b, __half *sum, __half *fma, float *dot2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    sum[i] = __hadd(a[i], b[i]);
    fma[i] = __hfma(a[i], b[i], __float2half(0.5f)) - a[i] * __float2half(0.25f);
  }
  if (2 * i + 1 < n) {
    __half2 x = __halves2half2(a[2 * i], a[2 * i + 1]);
    __half2 y = __halves2half2(b[2 * i], b[2 * i + 1]);
    __half2 p = __hmul2(x, y);
    dot2[i] = __low2float(p) + __high2float(p);
  }
}

int main() {
  const int n = 4096;
  __half *a = (__half *)malloc(n * sizeof(__half)), *b = (__half *)malloc(n * sizeof(__half));
  __half *sum = (__half *)malloc(n * sizeof(__half)), *fma = (__half *)malloc(n * sizeof(__half));
  float *dot2 = (float *)malloc(n / 2 * sizeof(float));
  for (int i = 0; i < n; ++i) {
    a[i] = __float2half((i % 64) * 0.125f - 3.0f);
    b[i] = __float2half((i % 29) * 0.0625f + 0.1f);
  }
  __half *da, *db, *ds, *df;
  float *dd;
  CHECK(musaMalloc(&da, n * sizeof(__half)));
  CHECK(musaMalloc(&db, n * sizeof(__half)));
  CHECK(musaMalloc(&ds, n * sizeof(__half)));
  CHECK(musaMalloc(&df, n * sizeof(__half)));
  CHECK(musaMalloc(&dd, n / 2 * sizeof(float)));
  CHECK(musaMemcpy(da, a, n * sizeof(__half), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, b, n * sizeof(__half), musaMemcpyHostToDevice));
  halfOps<<<n / 256, 256>>>(da, db, ds, df, dd, n);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(sum, ds, n * sizeof(__half), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(fma, df, n * sizeof(__half), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(dot2, dd, n / 2 * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    __half s = __hadd(a[i], b[i]);
    __half f = __hfma(a[i], b[i], __float2half(0.5f)) - a[i] * __float2half(0.25f);
    if (__half_as_ushort(sum[i]) != __half_as_ushort(s) && bad++ < 5)
      printf("sum %d: %f vs %f\n", i, __half2float(sum[i]), __half2float(s));
    if (__half_as_ushort(fma[i]) != __half_as_ushort(f) && bad++ < 5)
      printf("fma %d: %f vs %f\n", i, __half2float(fma[i]), __half2float(f));
  }
  for (int i = 0; i < n / 2; ++i) {
    float ref = __half2float(__hmul(a[2 * i], b[2 * i])) + __half2float(__hmul(a[2 * i + 1], b[2 * i + 1]));
    if (dot2[i] != ref && bad++ < 5)
      printf("half2 %d: %f vs %f\n", i, dot2[i], ref);
  }
  printf("half_precision: %d halves, %s\n", n, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
