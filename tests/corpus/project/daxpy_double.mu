// DAXPY in double precision against the host; the error is measured relative to |a*x| + |y| since the device may contract a*x+y into one fused multiply-add.
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

__global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 18;
  const double a = 1.0 / 3.0;
  double *x = (double *)malloc(n * sizeof(double)), *y = (double *)malloc(n * sizeof(double));
  double *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    x[i] = sin((double)i);
    y[i] = cos((double)i);
  }
  double *dx, *dy;
  CHECK(musaMalloc(&dx, n * sizeof(double)));
  CHECK(musaMalloc(&dy, n * sizeof(double)));
  CHECK(musaMemcpy(dx, x, n * sizeof(double), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dy, y, n * sizeof(double), musaMemcpyHostToDevice));
  daxpy<<<(n + 127) / 128, 128>>>(n, a, dx, dy);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(out, dy, n * sizeof(double), musaMemcpyDeviceToHost));
  double maxRel = 0.0;
  for (int i = 0; i < n; ++i) {
    double ref = a * x[i] + y[i];
    double rel = fabs(out[i] - ref) / (fabs(a * x[i]) + fabs(y[i]) + 1e-300);
    if (rel > maxRel)
      maxRel = rel;
  }
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
  bool ok = maxRel < 1e-15;
  printf("daxpy_double: n=%d max error %.3g, %s\n", n, maxRel, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
