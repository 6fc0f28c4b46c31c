// Stream-ordered allocation: musaMallocAsync/musaFreeAsync in a loop of allocate-compute-free on two streams, the default pool's release threshold, and musaMallocFromPoolAsync from a created pool with its used-memory counter.
#include <musa_runtime.h>
#include <stdint.h>
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

__global__ void iota(int *a, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = base + i;
}
__global__ void sumTo(const int *a, int n, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(out, (unsigned long long)a[i]);
}

int main() {
  const int n = 1 << 14, rounds = 8;
  int dev = 0;
  musaMemPool_t pool;
  CHECK(musaDeviceGetDefaultMemPool(&pool, dev));
  uint64_t threshold = 1 << 24;
  CHECK(musaMemPoolSetAttribute(pool, musaMemPoolAttrReleaseThreshold, &threshold));
  musaStream_t s[2];
  unsigned long long *dSum[2], sums[2][rounds];
  for (int k = 0; k < 2; ++k) {
    CHECK(musaStreamCreateWithFlags(&s[k], musaStreamNonBlocking));
    CHECK(musaMalloc(&dSum[k], rounds * sizeof(unsigned long long)));
    CHECK(musaMemset(dSum[k], 0, rounds * sizeof(unsigned long long)));
  }
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < 2; ++k) {
      int *tmp;
      CHECK(musaMallocAsync(&tmp, n * sizeof(int), s[k]));
      iota<<<n / 256, 256, 0, s[k]>>>(tmp, n, r * 1000 + k);
      sumTo<<<n / 256, 256, 0, s[k]>>>(tmp, n, dSum[k] + r);
      CHECK(musaFreeAsync(tmp, s[k]));
    }
  // An explicit pool.
  musaMemPoolProps props = {};
  props.allocType = musaMemAllocationTypePinned;
  props.location.type = musaMemLocationTypeDevice;
  props.location.id = dev;
  musaMemPool_t own;
  CHECK(musaMemPoolCreate(&own, &props));
  int *fromPool;
  CHECK(musaMallocFromPoolAsync((void **)&fromPool, n * sizeof(int), own, s[0]));
  iota<<<n / 256, 256, 0, s[0]>>>(fromPool, n, 5);
  CHECK(musaStreamSynchronize(s[0]));
  uint64_t used = 0;
  CHECK(musaMemPoolGetAttribute(own, musaMemPoolAttrUsedMemCurrent, &used));
  int last;
  CHECK(musaMemcpy(&last, fromPool + n - 1, sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaFreeAsync(fromPool, s[0]));
  CHECK(musaDeviceSynchronize());
  CHECK(musaGetLastError());
  bool ok = used >= n * sizeof(int) && last == 5 + n - 1;
  for (int k = 0; k < 2; ++k) {
    CHECK(musaMemcpy(sums[k], dSum[k], sizeof sums[k], musaMemcpyDeviceToHost));
    for (int r = 0; r < rounds; ++r) {
      unsigned long long ref = (unsigned long long)n * (r * 1000 + k) + (unsigned long long)n * (n - 1) / 2;
      ok = ok && sums[k][r] == ref;
    }
    CHECK(musaStreamDestroy(s[k]));
    CHECK(musaFree(dSum[k]));
  }
  CHECK(musaMemPoolDestroy(own));
  printf("mem_pool_async: %d rounds on 2 streams, created pool used %llu bytes, %s\n", rounds,
         (unsigned long long)used, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
