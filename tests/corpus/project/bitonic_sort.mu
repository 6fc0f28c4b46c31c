// Bitonic sort of 2^16 unsigned keys: one kernel per (k, j) compare-exchange stage over global memory, then checked against qsort.
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

__global__ void bitonicStep(unsigned *keys, int j, int k) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned partner = i ^ j;
  if (partner > i) {
    bool ascending = (i & k) == 0;
    unsigned a = keys[i], b = keys[partner];
    if ((a > b) == ascending) {
      keys[i] = b;
      keys[partner] = a;
    }
  }
}

static int cmpUnsigned(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return x < y ? -1 : x > y;
}

int main() {
  const int n = 1 << 16;
  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned)), *res = (unsigned *)malloc(n * sizeof(unsigned));
  unsigned seed = 99;
  for (int i = 0; i < n; ++i) {
    seed ^= seed << 13;
    seed ^= seed >> 17;
    seed ^= seed << 5;
    h[i] = seed;
  }
  unsigned *d;
  CHECK(musaMalloc(&d, n * sizeof(unsigned)));
  CHECK(musaMemcpy(d, h, n * sizeof(unsigned), musaMemcpyHostToDevice));
  int launches = 0;
  for (int k = 2; k <= n; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      bitonicStep<<<n / 256, 256>>>(d, j, k);
      ++launches;
    }
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, d, n * sizeof(unsigned), musaMemcpyDeviceToHost));
  qsort(h, n, sizeof(unsigned), cmpUnsigned);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (res[i] != h[i] && bad++ < 5)
      printf("key[%d] = %u, expected %u\n", i, res[i], h[i]);
  printf("bitonic_sort: %d keys, %d launches, %s\n", n, launches, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
