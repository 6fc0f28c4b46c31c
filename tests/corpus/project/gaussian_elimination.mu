// Gaussian elimination (Rodinia gaussian's Fan1/Fan2 kernels) of a diagonally dominant 128x128 system in double precision, back substitution on the host, residual checked.
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

__global__ void fan1(const double *a, double *m, int n, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1 - t)
    m[(i + t + 1) * n + t] = a[(i + t + 1) * n + t] / a[t * n + t];
}

__global__ void fan2(double *a, double *b, const double *m, int n, int t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n - 1 - t || y >= n - t)
    return;
  int row = x + 1 + t, col = y + t;
  a[row * n + col] -= m[row * n + t] * a[t * n + col];
  if (y == 0)
    b[row] -= m[row * n + t] * b[t];
}

int main() {
  const int n = 128;
  double *a = (double *)malloc(n * n * sizeof(double)), *a0 = (double *)malloc(n * n * sizeof(double));
  double *b = (double *)malloc(n * sizeof(double)), *b0 = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    double rowSum = 0.0;
    for (int j = 0; j < n; ++j) {
      a[i * n + j] = j == i ? 0.0 : sin(i * 0.7 + j * 1.3);
      rowSum += fabs(a[i * n + j]);
    }
    a[i * n + i] = rowSum + 1.0;
    b[i] = cos(i * 0.1);
  }
  for (int i = 0; i < n * n; ++i)
    a0[i] = a[i];
  for (int i = 0; i < n; ++i)
    b0[i] = b[i];
  double *dA, *dB, *dM;
  CHECK(musaMalloc(&dA, n * n * sizeof(double)));
  CHECK(musaMalloc(&dB, n * sizeof(double)));
  CHECK(musaMalloc(&dM, n * n * sizeof(double)));
  CHECK(musaMemcpy(dA, a, n * n * sizeof(double), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, b, n * sizeof(double), musaMemcpyHostToDevice));
  CHECK(musaMemset(dM, 0, n * n * sizeof(double)));
  dim3 block2(16, 16), grid2((n + 15) / 16, (n + 15) / 16);
  for (int t = 0; t < n - 1; ++t) {
    fan1<<<(n + 127) / 128, 128>>>(dA, dM, n, t);
    fan2<<<grid2, block2>>>(dA, dB, dM, n, t);
  }
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(a, dA, n * n * sizeof(double), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(b, dB, n * sizeof(double), musaMemcpyDeviceToHost));
  double *x = (double *)malloc(n * sizeof(double));
  for (int i = n - 1; i >= 0; --i) {
    double s = b[i];
    for (int j = i + 1; j < n; ++j)
      s -= a[i * n + j] * x[j];
    x[i] = s / a[i * n + i];
  }
  double maxRes = 0.0, lower = 0.0;
  for (int i = 0; i < n; ++i) {
    double r = -b0[i];
    for (int j = 0; j < n; ++j)
      r += a0[i * n + j] * x[j];
    maxRes = fmax(maxRes, fabs(r));
    for (int j = 0; j < i; ++j)
      lower = fmax(lower, fabs(a[i * n + j]));
  }
  bool ok = maxRes < 1e-10 && lower < 1e-10;
  printf("gaussian_elimination: n=%d, residual %.3g, below-diagonal %.3g, %s\n", n, maxRes, lower,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
