// The occupancy API: musaOccupancy* entry points over musa/sim/Occupancy.h (the same count the
// cooperative-launch limit and the timing model use).
#include "ApiShell.h"
#include "backend/Backend.h"
#include "FatBinaryRegistry.h"
#include "Runtime.h"

#include "musa/sim/Occupancy.h"

using namespace musa::rt;
namespace sim = musa::sim;

namespace {

/// The current device's profile and the kernel's static shared memory, after validating both.
musaError_t resolve(const void *func, const sim::DeviceProfile *&profile, uint64_t &staticBytes) {
  Device *device = Runtime::get().currentDevice();
  if (!device)
    return musaErrorNoDevice;
  if (!func)
    return musaErrorInvalidDeviceFunction;
  const sim::KernelEntry *kernel = nullptr;
  if (musaError_t e = FatBinaryRegistry::get().findKernel(func, kernel))
    return e;
  profile = &device->profile();
  staticBytes = kernel->staticSharedBytes;
  return musaSuccess;
}

musaError_t maxActiveBlocks(int *numBlocks, const void *func, int blockSize,
                            size_t dynamicSMemSize, unsigned int flags) {
  if (!numBlocks || blockSize <= 0 ||
      (flags & ~unsigned(musaOccupancyDisableCachingOverride)) != 0)
    return musaErrorInvalidValue;
  const sim::DeviceProfile *profile = nullptr;
  uint64_t staticBytes = 0;
  if (musaError_t e = resolve(func, profile, staticBytes))
    return e;
  // The caching override (global loads cached in L1) changes no limit the profile has.
  *numBlocks = sim::residentBlocksPerMultiprocessor(*profile, uint64_t(blockSize),
                                                    staticBytes + dynamicSMemSize);
  return musaSuccess;
}

} // namespace

extern "C" musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                     const void *func,
                                                                     int blockSize,
                                                                     size_t dynamicSMemSize) {
  MUSA_BACKEND_HOOK(musaOccupancyMaxActiveBlocksPerMultiprocessor, numBlocks, func, blockSize, dynamicSMemSize);
  return apiCall([&] { return maxActiveBlocks(numBlocks, func, blockSize, dynamicSMemSize, 0); });
}

extern "C" musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, numBlocks, func, blockSize, dynamicSMemSize, flags);
  return apiCall(
      [&] { return maxActiveBlocks(numBlocks, func, blockSize, dynamicSMemSize, flags); });
}

extern "C" musaError_t musaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                                 const void *func, int numBlocks,
                                                                 int blockSize) {
  MUSA_BACKEND_HOOK(musaOccupancyAvailableDynamicSMemPerBlock, dynamicSmemSize, func, numBlocks, blockSize);
  return apiCall([&] {
    if (!dynamicSmemSize || numBlocks <= 0 || blockSize <= 0)
      return musaErrorInvalidValue;
    const sim::DeviceProfile *profile = nullptr;
    uint64_t staticBytes = 0;
    if (musaError_t e = resolve(func, profile, staticBytes))
      return e;
    *dynamicSmemSize = size_t(sim::availableDynamicSharedPerBlock(
        *profile, uint64_t(blockSize), uint64_t(numBlocks), staticBytes));
    return musaSuccess;
  });
}
