// Memory pools: musaDeviceGetDefaultMemPool / GetMemPool / SetMemPool, musaMemPoolCreate with a
// maxSize, musaMallocFromPoolAsync, musaMallocAsync from the device's current pool, the release
// threshold applied at synchronisation, musaMemPoolTrimTo, reserved/used counters and their high
// watermarks (reset only to zero), destroying the current pool (the default pool comes back) and
// refusing to destroy the default pool.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("mismatch %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
      ok = false;                                                      \
    }                                                                  \
  } while (0)

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}
static uint64_t attr(musaMemPool_t p, musaMemPoolAttr a) {
  uint64_t v = ~0ull;
  CHECK(musaMemPoolGetAttribute(p, a, &v));
  return v;
}

int main() {
  bool ok = true;
  int supported = 0;
  CHECK(musaDeviceGetAttribute(&supported, musaDevAttrMemoryPoolsSupported, 0));
  EXPECT(supported == 1);
  musaMemPool_t def, cur;
  CHECK(musaDeviceGetDefaultMemPool(&def, 0));
  CHECK(musaDeviceGetMemPool(&cur, 0));
  EXPECT(def == cur);

  musaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = musaMemAllocationTypePinned;
  props.location.type = musaMemLocationTypeDevice;
  props.location.id = 0;
  props.maxSize = 8u << 20;
  musaMemPool_t pool;
  CHECK(musaMemPoolCreate(&pool, &props));
  EXPECT(attr(pool, musaMemPoolAttrReleaseThreshold) == 0);
  EXPECT(attr(pool, musaMemPoolAttrReservedMemCurrent) == 0);

  musaStream_t s;
  CHECK(musaStreamCreateWithFlags(&s, musaStreamNonBlocking));
  const int n = 1 << 18; // 1 MiB
  int *a, *b;
  CHECK(musaMallocFromPoolAsync((void **)&a, n * sizeof(int), pool, s));
  CHECK(musaMallocFromPoolAsync((void **)&b, n * sizeof(int), pool, s));
  fill<<<n / 256, 256, 0, s>>>(a, n, 7);
  CHECK(musaMemcpyAsync(b, a, n * sizeof(int), musaMemcpyDeviceToDevice, s));
  int hb[4];
  CHECK(musaMemcpyAsync(hb, b + n - 4, sizeof hb, musaMemcpyDeviceToHost, s));
  CHECK(musaStreamSynchronize(s));
  EXPECT(hb[0] == 7 && hb[3] == 7);
  uint64_t used = attr(pool, musaMemPoolAttrUsedMemCurrent);
  uint64_t reserved = attr(pool, musaMemPoolAttrReservedMemCurrent);
  printf("two 1 MiB allocations: used %llu reserved %llu\n", (unsigned long long)used, (unsigned long long)reserved);
  EXPECT(used >= 2u * n * sizeof(int) && reserved >= used);
  // Past maxSize (8 MiB): out of memory.
  void *big = nullptr;
  musaError_t e = musaMallocFromPoolAsync(&big, 16u << 20, pool, s);
  printf("allocation beyond maxSize: %s\n", musaGetErrorName(e));
  EXPECT(e == musaErrorMemoryAllocation);
  musaGetLastError();

  // Free both; threshold 0: the reserve is released at the next synchronisation.
  CHECK(musaFreeAsync(a, s));
  CHECK(musaFreeAsync(b, s));
  CHECK(musaStreamSynchronize(s));
  EXPECT(attr(pool, musaMemPoolAttrUsedMemCurrent) == 0);
  printf("after free + sync (threshold 0): reserved %llu\n",
         (unsigned long long)attr(pool, musaMemPoolAttrReservedMemCurrent));
  EXPECT(attr(pool, musaMemPoolAttrReservedMemCurrent) == 0);
  EXPECT(attr(pool, musaMemPoolAttrUsedMemHigh) >= 2u * n * sizeof(int));

  // Threshold "keep everything": memory stays reserved until trimmed.
  uint64_t keep = UINT64_MAX;
  CHECK(musaMemPoolSetAttribute(pool, musaMemPoolAttrReleaseThreshold, &keep));
  CHECK(musaMallocFromPoolAsync((void **)&a, n * sizeof(int), pool, s));
  CHECK(musaFreeAsync(a, s));
  CHECK(musaStreamSynchronize(s));
  uint64_t kept = attr(pool, musaMemPoolAttrReservedMemCurrent);
  EXPECT(kept >= n * sizeof(int));
  // Trim to keep at least 512 KiB: the pool may keep up to what it had, but not more.
  CHECK(musaMemPoolTrimTo(pool, 512u << 10));
  EXPECT(attr(pool, musaMemPoolAttrReservedMemCurrent) <= kept);
  CHECK(musaMemPoolTrimTo(pool, 0));
  printf("kept %llu, after TrimTo(0) %llu\n", (unsigned long long)kept,
         (unsigned long long)attr(pool, musaMemPoolAttrReservedMemCurrent));
  EXPECT(attr(pool, musaMemPoolAttrReservedMemCurrent) == 0);
  // TrimTo leaves outstanding allocations alone.
  CHECK(musaMallocFromPoolAsync((void **)&a, n * sizeof(int), pool, s));
  CHECK(musaStreamSynchronize(s));
  CHECK(musaMemPoolTrimTo(pool, 0));
  EXPECT(attr(pool, musaMemPoolAttrReservedMemCurrent) >= n * sizeof(int));
  fill<<<n / 256, 256, 0, s>>>(a, n, 3);
  CHECK(musaStreamSynchronize(s));

  // High watermarks: reset only to zero.
  uint64_t zero = 0, five = 5;
  CHECK(musaMemPoolSetAttribute(pool, musaMemPoolAttrUsedMemHigh, &zero));
  EXPECT(attr(pool, musaMemPoolAttrUsedMemHigh) == attr(pool, musaMemPoolAttrUsedMemCurrent));
  EXPECT(musaMemPoolSetAttribute(pool, musaMemPoolAttrUsedMemHigh, &five) == musaErrorInvalidValue);
  EXPECT(musaMemPoolSetAttribute(pool, musaMemPoolAttrReservedMemCurrent, &zero) == musaErrorInvalidValue);
  musaGetLastError();

  // musaMallocAsync uses the device's current pool.
  CHECK(musaDeviceSetMemPool(0, pool));
  CHECK(musaDeviceGetMemPool(&cur, 0));
  EXPECT(cur == pool);
  uint64_t before = attr(pool, musaMemPoolAttrUsedMemCurrent);
  CHECK(musaMallocAsync((void **)&b, n * sizeof(int), s));
  CHECK(musaStreamSynchronize(s));
  EXPECT(attr(pool, musaMemPoolAttrUsedMemCurrent) >= before + n * sizeof(int));
  CHECK(musaFreeAsync(b, s));
  CHECK(musaFreeAsync(a, s));
  CHECK(musaStreamSynchronize(s));

  // Destroying the current pool makes the default pool current again.
  CHECK(musaMemPoolDestroy(pool));
  CHECK(musaDeviceGetMemPool(&cur, 0));
  EXPECT(cur == def);
  e = musaMemPoolDestroy(def);
  printf("destroy default pool: %s\n", musaGetErrorName(e));
  EXPECT(e == musaErrorInvalidValue);
  musaGetLastError();
  // The default pool still works.
  CHECK(musaMallocAsync((void **)&a, 4096, s));
  CHECK(musaFreeAsync(a, s));
  CHECK(musaStreamSynchronize(s));
  CHECK(musaStreamDestroy(s));
  printf("mem_pool_trim: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
