// min and max as CUDA code uses them unqualified: on the host (musa_runtime.h's overloads for mixed integer widths, float and double) and on the device, with std::min untouched; a clamp kernel checked against the host's own min/max.
#include <musa_runtime.h>
#include <algorithm>
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

__global__ void clampAll(const int *in, int *out, const float *fin, float *fout, long long *lout, int n,
                         int lo, int hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = max(lo, min(in[i], hi));
    fout[i] = fmaxf(-1.0f, min(fin[i], 1.0f));
    lout[i] = max((long long)in[i] * 100000, -5000000000ll + i);
  }
}

int main() {
  const int n = 10000, lo = -100, hi = 250;
  int *in = (int *)malloc(n * sizeof(int)), *out = (int *)malloc(n * sizeof(int));
  float *fin = (float *)malloc(n * sizeof(float)), *fout = (float *)malloc(n * sizeof(float));
  long long *lout = (long long *)malloc(n * sizeof(long long));
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 7919) % 1001 - 500;
    fin[i] = (float)in[i] / 300.0f;
  }
  int *din, *dout;
  float *dfin, *dfout;
  long long *dl;
  CHECK(musaMalloc(&din, n * sizeof(int)));
  CHECK(musaMalloc(&dout, n * sizeof(int)));
  CHECK(musaMalloc(&dfin, n * sizeof(float)));
  CHECK(musaMalloc(&dfout, n * sizeof(float)));
  CHECK(musaMalloc(&dl, n * sizeof(long long)));
  CHECK(musaMemcpy(din, in, n * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dfin, fin, n * sizeof(float), musaMemcpyHostToDevice));
  clampAll<<<(n + 255) / 256, 256>>>(din, dout, dfin, dfout, dl, n, lo, hi);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(out, dout, n * sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(fout, dfout, n * sizeof(float), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(lout, dl, n * sizeof(long long), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    // Host side: the same unqualified calls, with mixed widths as CUDA's overloads allow.
    int ref = max(lo, min(in[i], hi));
    float fref = max(-1.0f, min(fin[i], 1.0f));
    long long lref = max((long long)in[i] * 100000, -5000000000ll + i);
    bad += out[i] != ref || fout[i] != fref || lout[i] != lref;
  }
  unsigned u = 7;
  bool ok = !bad && min(u, 3) == 3u && max(2.5, 1.0f) == 2.5 && min(-1, 2u) == 2u /* as CUDA: unsigned */;
  ok = ok && std::min(3, 4) == 3 && std::max<long>(5L, 6L) == 6L;
  printf("host_min_max: %d clamped values, %s\n", n, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
