// Stream-ordered allocation as CUDA programs use it (after the streamOrderedAllocation
// samples): a pool with a release threshold serving a loop of allocate / kernel / free on two
// streams, musaMallocFromPoolAsync from an explicit pool, the pool's counters, and a kernel
// touching pool memory after its free faults. `uaf` runs only that last part.
#include "check.h"

#include <stdint.h>
#include <string.h>

__global__ void fill(float *p, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v + i;
}
__global__ void axpy(float *y, const float *x, int n, float a) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] += a * x[i];
}
__global__ void touch(int *p) { p[threadIdx.x] = 1; }

static uint64_t poolAttr(musaMemPool_t pool, musaMemPoolAttr a) {
  uint64_t v = 0;
  CHECK_MUSA(musaMemPoolGetAttribute(pool, a, &v));
  return v;
}

static int useAfterFree() {
  int *p;
  CHECK_MUSA(musaMallocAsync(&p, 256 * sizeof(int), 0));
  CHECK_MUSA(musaFreeAsync(p, 0));
  touch<<<1, 64>>>(p); // after the free in stream order: an illegal address
  musaError_t e = musaDeviceSynchronize();
  printf("use after free: %s\n", musaGetErrorName(e));
  CHECK(e == musaErrorIllegalAddress, "got %s", musaGetErrorName(e));
  return finish("mem_pools uaf");
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "uaf") == 0)
    return useAfterFree();

  int device = 0, supported = 0;
  CHECK_MUSA(musaDeviceGetAttribute(&supported, musaDevAttrMemoryPoolsSupported, device));
  CHECK(supported == 1, "memoryPoolsSupported = %d", supported);

  // The default pool keeps what it frees (threshold: everything), so the loop below reuses
  // the same memory instead of going back to the device each time.
  musaMemPool_t pool;
  CHECK_MUSA(musaDeviceGetDefaultMemPool(&pool, device));
  uint64_t threshold = UINT64_MAX;
  CHECK_MUSA(musaMemPoolSetAttribute(pool, musaMemPoolAttrReleaseThreshold, &threshold));

  const int n = 1 << 14;
  const size_t bytes = n * sizeof(float);
  musaStream_t s[2];
  for (auto &st : s)
    CHECK_MUSA(musaStreamCreateWithFlags(&st, musaStreamNonBlocking));
  float *host[2];
  for (auto &h : host)
    CHECK_MUSA(musaMallocHost(&h, bytes));

  for (int iter = 0; iter < 20; ++iter) {
    for (int k = 0; k < 2; ++k) {
      float *x, *y;
      CHECK_MUSA(musaMallocAsync(&x, bytes, s[k]));
      CHECK_MUSA(musaMallocAsync(&y, bytes, s[k]));
      fill<<<(n + 255) / 256, 256, 0, s[k]>>>(x, n, 1.0f);
      fill<<<(n + 255) / 256, 256, 0, s[k]>>>(y, n, float(iter));
      axpy<<<32, 128, 0, s[k]>>>(y, x, n, 2.0f);
      CHECK_MUSA(musaMemcpyAsync(host[k], y, bytes, musaMemcpyDeviceToHost, s[k]));
      CHECK_MUSA(musaFreeAsync(x, s[k]));
      CHECK_MUSA(musaFreeAsync(y, s[k]));
    }
    for (int k = 0; k < 2; ++k) {
      CHECK_MUSA(musaStreamSynchronize(s[k]));
      int bad = 0;
      for (int i = 0; i < n; ++i)
        bad += host[k][i] != float(iter) + i + 2.0f * (1.0f + i);
      CHECK(bad == 0, "iteration %d stream %d: %d wrong values", iter, k, bad);
    }
  }
  // Two streams with two live buffers each at most: the pool never needed more than that.
  uint64_t reservedHigh = poolAttr(pool, musaMemPoolAttrReservedMemHigh);
  printf("reserved high %llu bytes for 40 iterations of 2 x %zu bytes\n",
         (unsigned long long)reservedHigh, bytes);
  CHECK(reservedHigh >= 2 * bytes && reservedHigh <= 4 * bytes, "reserved high %llu",
        (unsigned long long)reservedHigh);
  CHECK(poolAttr(pool, musaMemPoolAttrUsedMemCurrent) == 0, "all freed");
  CHECK(poolAttr(pool, musaMemPoolAttrReservedMemCurrent) > 0, "threshold keeps memory");
  CHECK_MUSA(musaMemPoolTrimTo(pool, 0));
  CHECK(poolAttr(pool, musaMemPoolAttrReservedMemCurrent) == 0, "trimmed");

  // An explicit pool, made current, then used by name.
  musaMemPoolProps props = {};
  props.allocType = musaMemAllocationTypePinned;
  props.location.type = musaMemLocationTypeDevice;
  props.location.id = device;
  musaMemPool_t mine;
  CHECK_MUSA(musaMemPoolCreate(&mine, &props));
  float *a, *b;
  CHECK_MUSA(musaMallocFromPoolAsync(&a, bytes, mine, s[0]));
  CHECK_MUSA(musaMallocAsync(&b, bytes, mine, s[0])); // CUDA's C++ overload
  fill<<<(n + 255) / 256, 256, 0, s[0]>>>(a, n, 0.5f);
  CHECK_MUSA(musaMemcpyAsync(b, a, bytes, musaMemcpyDeviceToDevice, s[0]));
  CHECK_MUSA(musaMemcpyAsync(host[0], b, bytes, musaMemcpyDeviceToHost, s[0]));
  CHECK_MUSA(musaStreamSynchronize(s[0]));
  CHECK(host[0][n - 1] == 0.5f + (n - 1), "copy through pool memory: %f", host[0][n - 1]);
  CHECK(poolAttr(mine, musaMemPoolAttrUsedMemCurrent) == 2 * bytes, "used %llu",
        (unsigned long long)poolAttr(mine, musaMemPoolAttrUsedMemCurrent));
  CHECK_MUSA(musaFreeAsync(a, s[0]));
  CHECK_MUSA(musaFreeAsync(b, s[0]));
  CHECK_MUSA(musaStreamSynchronize(s[0]));
  // Threshold 0 (the default): the synchronisation released everything.
  CHECK(poolAttr(mine, musaMemPoolAttrReservedMemCurrent) == 0, "released at sync");
  CHECK(poolAttr(mine, musaMemPoolAttrReservedMemHigh) == 2 * bytes, "high watermark");
  CHECK_MUSA(musaMemPoolDestroy(mine));
  CHECK(musaMallocFromPoolAsync(&a, 64, mine, s[0]) == musaErrorInvalidValue,
        "destroyed pool refused");
  musaGetLastError();

  for (auto &st : s)
    CHECK_MUSA(musaStreamDestroy(st));
  for (auto &h : host)
    CHECK_MUSA(musaFreeHost(h));
  return finish("mem_pools");
}
