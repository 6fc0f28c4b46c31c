// musaDeviceSetLimit / musaDeviceGetLimit: the current device's stack, printf FIFO and heap
// sizes (and CUDA's other limits, with CUDA's answers where the simulator has no such thing).
#include "ApiShell.h"
#include "Runtime.h"
#include "backend/Backend.h"

#include "musa/sim/FiberStackPool.h"

#include <cstdio>

using namespace musa::rt;

namespace {

/// Kernels with dynamic parallelism do not run here, and the profiles have no persisting L2.
bool unsupported(musaLimit limit) {
  return limit == musaLimitDevRuntimeSyncDepth || limit == musaLimitDevRuntimePendingLaunchCount ||
         limit == musaLimitPersistingL2CacheSize || limit < musaLimitStackSize ||
         limit > musaLimitPersistingL2CacheSize;
}

} // namespace

extern "C" musaError_t musaDeviceSetLimit(musaLimit limit, size_t value) {
  MUSA_BACKEND_HOOK(musaDeviceSetLimit, limit, value);
  return apiCall([&] {
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    if (unsupported(limit))
      return musaErrorUnsupportedLimit;
    switch (limit) {
    case musaLimitStackSize: {
      // Each GPU thread runs on a simulator stack of fixed size; a larger per-thread stack
      // cannot be honoured.
      size_t most = musa::sim::FiberStackPool::stackSize();
      if (value > most) {
        std::fprintf(stderr,
                     "musa-sim: musaLimitStackSize of %zu bytes exceeds the simulator's thread "
                     "stack (%zu bytes); raise MUSA_SIM_STACK_SIZE\n",
                     value, most);
        return musaErrorInvalidValue;
      }
      std::lock_guard lock(d->limitsMutex);
      d->limits.stackSize = value;
      return musaSuccess;
    }
    case musaLimitPrintfFifoSize: {
      std::lock_guard lock(d->limitsMutex);
      d->limits.printfFifoSize = value; // printf writes straight to stdout: no FIFO to fill
      return musaSuccess;
    }
    case musaLimitMallocHeapSize:
      if (value > d->memory().capacity())
        return musaErrorMemoryAllocation;
      // As CUDA: fixed once a kernel has used the heap.
      return d->heap.setSize(value) ? musaSuccess : musaErrorInvalidValue;
    case musaLimitMaxL2FetchGranularity: {
      if (value > 128)
        return musaErrorInvalidValue;
      std::lock_guard lock(d->limitsMutex);
      d->limits.maxL2FetchGranularity = value;
      return musaSuccess;
    }
    default:
      return musaErrorUnsupportedLimit;
    }
  });
}

extern "C" musaError_t musaDeviceGetLimit(size_t *value, musaLimit limit) {
  MUSA_BACKEND_HOOK(musaDeviceGetLimit, value, limit);
  return apiCall([&] {
    if (!value)
      return musaErrorInvalidValue;
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    if (unsupported(limit))
      return musaErrorUnsupportedLimit;
    if (limit == musaLimitMallocHeapSize) {
      *value = d->heap.size();
      return musaSuccess;
    }
    std::lock_guard lock(d->limitsMutex);
    switch (limit) {
    case musaLimitStackSize: *value = d->limits.stackSize; break;
    case musaLimitPrintfFifoSize: *value = d->limits.printfFifoSize; break;
    case musaLimitMaxL2FetchGranularity: *value = d->limits.maxL2FetchGranularity; break;
    default: return musaErrorUnsupportedLimit;
    }
    return musaSuccess;
  });
}
