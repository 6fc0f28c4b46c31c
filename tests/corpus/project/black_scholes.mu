// Black-Scholes European call and put prices (the BlackScholes sample's formula) with expf, logf, sqrtf and erff on the device, against a double-precision host reference.
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

__device__ __host__ inline float cndf(float d) { return 0.5f * (1.0f + erff(d * 0.70710678118f)); }

__global__ void blackScholes(float *call, float *put, const float *S, const float *X, const float *T,
                             float r, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float sqrtT = sqrtf(T[i]);
  float d1 = (logf(S[i] / X[i]) + (r + 0.5f * v * v) * T[i]) / (v * sqrtT);
  float d2 = d1 - v * sqrtT;
  float expRT = expf(-r * T[i]);
  call[i] = S[i] * cndf(d1) - X[i] * expRT * cndf(d2);
  put[i] = X[i] * expRT * cndf(-d2) - S[i] * cndf(-d1);
}

int main() {
  const int n = 1 << 18;
  const float r = 0.02f, v = 0.30f;
  float *S = (float *)malloc(n * sizeof(float)), *X = (float *)malloc(n * sizeof(float));
  float *T = (float *)malloc(n * sizeof(float));
  float *call = (float *)malloc(n * sizeof(float)), *put = (float *)malloc(n * sizeof(float));
  unsigned seed = 11;
  auto uniform = [&](float lo, float hi) {
    seed = seed * 1664525u + 1013904223u;
    return lo + (hi - lo) * ((seed >> 8) / 16777216.0f);
  };
  for (int i = 0; i < n; ++i) {
    S[i] = uniform(5.0f, 30.0f);
    X[i] = uniform(1.0f, 100.0f);
    T[i] = uniform(0.25f, 10.0f);
  }
  float *dS, *dX, *dT, *dC, *dP;
  CHECK(musaMalloc(&dS, n * sizeof(float)));
  CHECK(musaMalloc(&dX, n * sizeof(float)));
  CHECK(musaMalloc(&dT, n * sizeof(float)));
  CHECK(musaMalloc(&dC, n * sizeof(float)));
  CHECK(musaMalloc(&dP, n * sizeof(float)));
  CHECK(musaMemcpy(dS, S, n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dX, X, n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dT, T, n * sizeof(float), musaMemcpyHostToDevice));
  blackScholes<<<(n + 255) / 256, 256>>>(dC, dP, dS, dX, dT, r, v, n);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(call, dC, n * sizeof(float), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(put, dP, n * sizeof(float), musaMemcpyDeviceToHost));
  double maxErr = 0.0;
  for (int i = 0; i < n; ++i) {
    double sq = sqrt((double)T[i]);
    double d1 = (log((double)S[i] / X[i]) + (r + 0.5 * v * v) * T[i]) / (v * sq), d2 = d1 - v * sq;
    double e = exp(-(double)r * T[i]);
    double c = S[i] * 0.5 * erfc(-d1 / sqrt(2.0)) - X[i] * e * 0.5 * erfc(-d2 / sqrt(2.0));
    double p = X[i] * e * 0.5 * erfc(d2 / sqrt(2.0)) - S[i] * 0.5 * erfc(d1 / sqrt(2.0));
    double err = fmax(fabs(call[i] - c), fabs(put[i] - p));
    if (err > maxErr)
      maxErr = err;
  }
  bool ok = maxErr < 5e-3; // prices up to 100: float cancellation in the put
  printf("black_scholes: %d options, max abs error %.3g, %s\n", n, maxErr, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
