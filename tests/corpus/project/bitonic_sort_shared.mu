// Bitonic sort inside one block in shared memory (2048 keys per block, 1024 threads), sorting 32 independent segments at once.
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

#define SEG 2048

__global__ void sortSegments(int *keys) {
  __shared__ int s[SEG];
  int *seg = keys + blockIdx.x * SEG;
  for (int i = threadIdx.x; i < SEG; i += blockDim.x)
    s[i] = seg[i];
  __syncthreads();
  for (int k = 2; k <= SEG; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int i = threadIdx.x; i < SEG; i += blockDim.x) {
        int p = i ^ j;
        if (p > i) {
          bool up = (i & k) == 0;
          int a = s[i], b = s[p];
          if ((a > b) == up) {
            s[i] = b;
            s[p] = a;
          }
        }
      }
      __syncthreads();
    }
  for (int i = threadIdx.x; i < SEG; i += blockDim.x)
    seg[i] = s[i];
}

static int cmpInt(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}

int main() {
  const int segs = 32, n = segs * SEG;
  int *h = (int *)malloc(n * sizeof(int)), *res = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (int)((i * 2654435761u) >> 7) - (1 << 24);
  int *d;
  CHECK(musaMalloc(&d, n * sizeof(int)));
  CHECK(musaMemcpy(d, h, n * sizeof(int), musaMemcpyHostToDevice));
  sortSegments<<<segs, 1024>>>(d);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, d, n * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int s = 0; s < segs; ++s) {
    qsort(h + s * SEG, SEG, sizeof(int), cmpInt);
    for (int i = 0; i < SEG; ++i)
      if (res[s * SEG + i] != h[s * SEG + i] && bad++ < 5)
        printf("segment %d key %d wrong\n", s, i);
  }
  printf("bitonic_sort_shared: %d segments of %d, %s\n", segs, SEG, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
