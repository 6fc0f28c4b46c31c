// Device query for the GPU the simulator's profile is checked against (run with nvcc on the
// device machine; output saved as h200_device_query.txt). clockRate and memoryClockRate are
// gone from cudaDeviceProp in CUDA 13, so the clocks come from cudaDeviceGetAttribute.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(expr)                                                                          \
  do {                                                                                       \
    cudaError_t e_ = (expr);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      std::printf("ERROR %s: %s\n", #expr, cudaGetErrorString(e_));                          \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

static int attr(cudaDeviceAttr a, int dev) {
  int v = -1;
  CHECK(cudaDeviceGetAttribute(&v, a, dev));
  return v;
}

int main() {
  int count = 0, drv = 0, rt = 0;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rt));
  std::printf("deviceCount: %d\ndriverVersion: %d\nruntimeVersion: %d\n", count, drv, rt);
  for (int dev = 0; dev < count; ++dev) {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, dev));
    std::printf("device: %d\n", dev);
    std::printf("name: %s\n", p.name);
    std::printf("computeCapability: %d.%d\n", p.major, p.minor);
    std::printf("multiProcessorCount: %d\n", p.multiProcessorCount);
    std::printf("clockRate_kHz (attr): %d\n", attr(cudaDevAttrClockRate, dev));
    std::printf("memoryClockRate_kHz (attr): %d\n", attr(cudaDevAttrMemoryClockRate, dev));
    std::printf("memoryBusWidth_bits: %d\n", p.memoryBusWidth);
    std::printf("memoryBusWidth_bits (attr): %d\n", attr(cudaDevAttrGlobalMemoryBusWidth, dev));
    std::printf("l2CacheSize: %d\n", p.l2CacheSize);
    std::printf("persistingL2CacheMaxSize: %d\n", p.persistingL2CacheMaxSize);
    std::printf("sharedMemPerBlock: %zu\n", p.sharedMemPerBlock);
    std::printf("sharedMemPerBlockOptin: %zu\n", p.sharedMemPerBlockOptin);
    std::printf("sharedMemPerMultiprocessor: %zu\n", p.sharedMemPerMultiprocessor);
    std::printf("reservedSharedMemPerBlock: %zu\n", p.reservedSharedMemPerBlock);
    std::printf("regsPerBlock: %d\n", p.regsPerBlock);
    std::printf("regsPerMultiprocessor: %d\n", p.regsPerMultiprocessor);
    std::printf("maxThreadsPerBlock: %d\n", p.maxThreadsPerBlock);
    std::printf("maxThreadsPerMultiProcessor: %d\n", p.maxThreadsPerMultiProcessor);
    std::printf("maxBlocksPerMultiProcessor: %d\n", p.maxBlocksPerMultiProcessor);
    std::printf("warpSize: %d\n", p.warpSize);
    std::printf("totalGlobalMem: %zu\n", p.totalGlobalMem);
    std::printf("totalConstMem: %zu\n", p.totalConstMem);
    std::printf("asyncEngineCount: %d\n", p.asyncEngineCount);
    std::printf("concurrentKernels: %d\n", p.concurrentKernels);
    std::printf("unifiedAddressing: %d\n", p.unifiedAddressing);
    std::printf("managedMemory: %d\n", p.managedMemory);
    std::printf("pciBusID: %d\n", p.pciBusID);
    std::printf("maxGridSize: %d %d %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    std::printf("maxThreadsDim: %d %d %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1],
                p.maxThreadsDim[2]);
  }
  return 0;
}
