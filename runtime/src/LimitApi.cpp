// musaDeviceSetLimit / musaDeviceGetLimit: the current device's stack, printf FIFO and heap
// sizes, pending device-side launches, the persisting L2 set-aside (and CUDA's other limits,
// with CUDA's answers where the simulator has no such thing); musaCtxResetPersistingL2Cache.
#include "ApiShell.h"
#include "Runtime.h"
#include "backend/Backend.h"

#include "musa/sim/FiberStackPool.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

using namespace musa::rt;

namespace {

/// Device-side synchronisation went with CUDA 12's dynamic parallelism (CDP2), and its depth
/// limit with it.
bool unsupported(musaLimit limit) {
  return limit == musaLimitDevRuntimeSyncDepth || limit < musaLimitStackSize ||
         limit > musaLimitPersistingL2CacheSize;
}

// How the GPU rounds what it is given (an H100, tests/hardware/probes/limits_rounding.h100.txt):
// the stack to 16 bytes, the printf FIFO to at least 512 KiB, the heap to 64 KiB and at least
// 4 MiB, the pending-launch count to at least 32.
constexpr size_t StackGranule = 16, MinPrintfFifo = 512 << 10, HeapGranule = 64 << 10,
                 MinHeap = 4 << 20, MinPendingLaunches = 32;

size_t roundUp(size_t value, size_t granule) {
  return value > SIZE_MAX - granule ? value : (value + granule - 1) / granule * granule;
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
      value = roundUp(value, StackGranule);
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
      // printf writes straight to stdout: no FIFO to fill.
      d->limits.printfFifoSize = std::max(value, MinPrintfFifo);
      return musaSuccess;
    }
    case musaLimitMallocHeapSize:
      // The GPU accepts any size and keeps what it can reserve when a kernel first allocates
      // (an H100 with 85 GB read back 17.7 GB after asking for 2^50 bytes): here at most a
      // fifth of the device's memory. As CUDA: fixed once a kernel has used the heap.
      value = std::min(std::max(roundUp(value, HeapGranule), MinHeap),
                       d->memory().capacity() / 5 / HeapGranule * HeapGranule);
      return d->heap.setSize(value) ? musaSuccess : musaErrorInvalidValue;
    case musaLimitDevRuntimePendingLaunchCount: {
      // Device-side launches a grid may have waiting to run (musa/sim/ChildGrids.h).
      std::lock_guard lock(d->limitsMutex);
      d->limits.pendingLaunchCount = std::max(value, MinPendingLaunches);
      return musaSuccess;
    }
    case musaLimitMaxL2FetchGranularity: {
      if (value > 128)
        return musaErrorInvalidValue;
      std::lock_guard lock(d->limitsMutex);
      d->limits.maxL2FetchGranularity = value;
      return musaSuccess;
    }
    case musaLimitPersistingL2CacheSize: {
      // The set-aside L2 for persisting accesses (Runtime.h): at most persistingL2CacheMaxSize.
      if (value > persistingL2MaxSize(d->profile()))
        return musaErrorInvalidValue;
      std::lock_guard lock(d->limitsMutex);
      d->limits.persistingL2CacheSize = value;
      return musaSuccess;
    }
    default:
      return musaErrorUnsupportedLimit;
    }
  });
}

extern "C" musaError_t musaCtxResetPersistingL2Cache(void) {
  MUSA_BACKEND_HOOK(musaCtxResetPersistingL2Cache);
  return apiCall([&] {
    // Every persisting line of the device's L2 becomes normal again. The simulated L2 holds no
    // persisting lines, so there is nothing to demote; the set-aside size stays as CUDA keeps it.
    return Runtime::get().currentDevice() ? musaSuccess : musaErrorNoDevice;
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
    case musaLimitDevRuntimePendingLaunchCount: *value = d->limits.pendingLaunchCount; break;
    case musaLimitMaxL2FetchGranularity: *value = d->limits.maxL2FetchGranularity; break;
    case musaLimitPersistingL2CacheSize: *value = d->limits.persistingL2CacheSize; break;
    default: return musaErrorUnsupportedLimit;
    }
    return musaSuccess;
  });
}
