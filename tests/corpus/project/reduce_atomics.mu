// Global atomics as a reduction: atomicAdd of a sum, atomicMin/atomicMax of extremes, one atomic per block after a shared-memory pre-reduction.
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

__global__ void stats(const int *in, int n, unsigned long long *sum, int *mn, int *mx) {
  __shared__ int sMin, sMax;
  __shared__ unsigned long long sSum;
  if (threadIdx.x == 0) {
    sMin = INT_MAX;
    sMax = INT_MIN;
    sSum = 0;
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMin(&sMin, in[i]);
    atomicMax(&sMax, in[i]);
    atomicAdd(&sSum, (unsigned long long)(long long)in[i]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicMin(mn, sMin);
    atomicMax(mx, sMax);
    atomicAdd(sum, sSum);
  }
}

int main() {
  const int n = 1 << 18;
  int *h = (int *)malloc(n * sizeof(int));
  long long ref = 0;
  int rmin = INT_MAX, rmax = INT_MIN;
  unsigned seed = 12345;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1664525u + 1013904223u;
    h[i] = (int)(seed >> 8) % 200001 - 100000;
    ref += h[i];
    rmin = h[i] < rmin ? h[i] : rmin;
    rmax = h[i] > rmax ? h[i] : rmax;
  }
  int *din, *dmin, *dmax;
  unsigned long long *dsum;
  CHECK(musaMalloc(&din, n * sizeof(int)));
  CHECK(musaMalloc(&dmin, sizeof(int)));
  CHECK(musaMalloc(&dmax, sizeof(int)));
  CHECK(musaMalloc(&dsum, sizeof(unsigned long long)));
  CHECK(musaMemcpy(din, h, n * sizeof(int), musaMemcpyHostToDevice));
  int initMin = INT_MAX, initMax = INT_MIN;
  CHECK(musaMemcpy(dmin, &initMin, sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dmax, &initMax, sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemset(dsum, 0, sizeof(unsigned long long)));
  stats<<<(n + 255) / 256, 256>>>(din, n, dsum, dmin, dmax);
  CHECK(musaGetLastError());
  int gmin, gmax;
  unsigned long long gsum;
  CHECK(musaMemcpy(&gmin, dmin, sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&gmax, dmax, sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&gsum, dsum, sizeof(gsum), musaMemcpyDeviceToHost));
  bool ok = (long long)gsum == ref && gmin == rmin && gmax == rmax;
  printf("reduce_atomics: sum %lld min %d max %d (host %lld %d %d), %s\n", (long long)gsum, gmin,
         gmax, ref, rmin, rmax, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
