// Device query (the deviceQuery sample): device count, musaGetDeviceProperties fields within sane ranges and matching musaDeviceGetAttribute, driver and runtime versions, memory info.
#include <musa_runtime.h>
#include <math.h>
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

int main() {
  int count = 0;
  CHECK(musaGetDeviceCount(&count));
  bool ok = count >= 1;
  for (int dev = 0; dev < count; ++dev) {
    musaDeviceProp p;
    CHECK(musaGetDeviceProperties(&p, dev));
    printf("device %d: %s, compute %d.%d, %d SMs, warp %d, %zu MiB, %zu KiB shared/block, "
           "%d threads/block, grid %d x %d x %d, L2 %d KiB\n",
           dev, p.name, p.major, p.minor, p.multiProcessorCount, p.warpSize,
           p.totalGlobalMem >> 20, p.sharedMemPerBlock >> 10, p.maxThreadsPerBlock, p.maxGridSize[0],
           p.maxGridSize[1], p.maxGridSize[2], p.l2CacheSize >> 10);
    ok = ok && strlen(p.name) > 0 && p.multiProcessorCount > 0 && (p.warpSize == 32 || p.warpSize == 128);
    ok = ok && p.totalGlobalMem >= (64ull << 20) && p.sharedMemPerBlock >= 16 * 1024;
    ok = ok && p.maxThreadsPerBlock >= 256 && p.maxThreadsDim[0] >= 256 && p.maxGridSize[0] >= 65535;
    ok = ok && p.regsPerBlock > 0 && p.clockRate > 0 && p.major > 0;
    int attr = 0;
    CHECK(musaDeviceGetAttribute(&attr, musaDevAttrMultiProcessorCount, dev));
    ok = ok && attr == p.multiProcessorCount;
    CHECK(musaDeviceGetAttribute(&attr, musaDevAttrMaxThreadsPerBlock, dev));
    ok = ok && attr == p.maxThreadsPerBlock;
    CHECK(musaDeviceGetAttribute(&attr, musaDevAttrWarpSize, dev));
    ok = ok && attr == p.warpSize;
  }
  int driver = 0, runtime = 0;
  CHECK(musaDriverGetVersion(&driver));
  CHECK(musaRuntimeGetVersion(&runtime));
  size_t freeMem = 0, totalMem = 0;
  CHECK(musaMemGetInfo(&freeMem, &totalMem));
  ok = ok && driver > 0 && runtime > 0 && freeMem > 0 && freeMem <= totalMem;
  int current = -1;
  CHECK(musaGetDevice(&current));
  ok = ok && current == 0;
  printf("device_query: %d device(s), driver %d, runtime %d, %s\n", count, driver, runtime,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
