// Repro: integer division or remainder by zero (and INT_MIN / -1) in C device code fails the whole launch
// ("arithmetic trap (integer division by zero?)", musaErrorLaunchFailure, sticky). On GPUs integer division never
// traps: the result is unspecified (all ones for a zero divisor on NVIDIA hardware, which the simulator itself gives
// for div/rem in inline PTX, kernel-jit/src/LowerInlineAsm.cpp) and every other thread's work completes. Here only
// thread 3 divides by zero and its quotient is not even used when the divisor is 0.
#include <musa_runtime.h>
#include <stdio.h>

__global__ void average(const int *sum, const int *count, float *avg, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int q = sum[i] / count[i];  // an empty bin divides by zero; its result is discarded below
    avg[i] = count[i] ? (float)q : 0.0f;
  }
}

int main() {
  const int n = 8;
  int hs[n] = {10, 20, 30, 0, 50, 60, 70, 80}, hc[n] = {1, 2, 3, 0, 5, 6, 7, 8};
  int *s, *c;
  float *a;
  musaMalloc(&s, sizeof(hs));
  musaMalloc(&c, sizeof(hc));
  musaMalloc(&a, n * sizeof(float));
  musaMemcpy(s, hs, sizeof(hs), musaMemcpyHostToDevice);
  musaMemcpy(c, hc, sizeof(hc), musaMemcpyHostToDevice);
  average<<<1, n>>>(s, c, a, n);
  musaError_t err = musaDeviceSynchronize();
  float ha[n] = {0};
  musaError_t err2 = musaMemcpy(ha, a, sizeof(ha), musaMemcpyDeviceToHost);
  int bad = err != musaSuccess || err2 != musaSuccess;
  for (int i = 0; i < n; i++)
    bad += ha[i] != (hc[i] ? 10.0f : 0.0f);
  printf("launch: %s; copy: %s; avg[0..7] = %g %g %g %g %g %g %g %g\n", musaGetErrorString(err),
         musaGetErrorString(err2), ha[0], ha[1], ha[2], ha[3], ha[4], ha[5], ha[6], ha[7]);
  printf("repro_int_div_trap: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
