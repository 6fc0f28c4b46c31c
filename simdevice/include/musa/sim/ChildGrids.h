// ChildGrids: the grids a running grid launches from device code (dynamic parallelism).
//
// A device-side launch (`child<<<g, b>>>(args)` in a kernel; musa_device_runtime_api.h) copies
// its arguments here and returns at once; the runtime runs the children after the launching
// grid has finished and before its launch counts as complete: each block's children in launch
// order, every child's own children before the next child, tail launches after all the rest.
// That is one of the orders the hardware may pick (children of one block's stream run in
// order; a parent cannot wait for its children since CUDA 12's CDP2). Launching a child does
// not compile anything (the launching thread may be a fiber on a small stack): the kernel is
// named by its device name and resolved when it runs.
#pragma once

#include "musa/sim/GridLauncher.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace musa::sim {

class ChildGrids {
public:
  /// The errors a device-side launch returns (the runtime API's values).
  enum Error : int32_t {
    Success = 0,
    InvalidValue = 1,           // musaErrorInvalidValue
    InvalidConfiguration = 9,   // musaErrorInvalidConfiguration
    PendingCountExceeded = 69,  // musaErrorLaunchPendingCountExceeded
    InvalidDeviceFunction = 98, // musaErrorInvalidDeviceFunction
    NotSupported = 801,         // musaErrorNotSupported
  };
  struct Child {
    std::string kernel; // device (mangled) name
    Dim3 grid, block;
    size_t sharedBytes = 0;
    bool tail = false;          // musaStreamTailLaunch: after every other child
    uint64_t launcherBlock = 0; // the launching block's linear index
    std::vector<uint32_t> sizes; // each argument's bytes
    ArgumentCopy args;
  };

  /// `pending`: the device's count of grids device code launched that have not completed
  /// (each child adds one when launched; whoever runs it takes it off once it and its own
  /// children are done); `pendingLimit`: musaLimitDevRuntimePendingLaunchCount. The GPU
  /// enforces no other nesting limit (the H100 ran a chain of 2048 grids, each launching the
  /// next, and refused the 2049th as pending past the limit).
  ChildGrids(const DeviceProfile &profile, std::atomic<size_t> &pending, size_t pendingLimit)
      : profile_(profile), pending_(pending), pendingLimit_(pendingLimit) {}
  /// A grid that faulted: its children will not run (they stop counting as pending).
  ~ChildGrids() { pending_ -= children_.size(); }

  /// From a thread of the grid (any worker, concurrently): Success, or the error the launch
  /// returns to that thread (also its last error).
  int32_t add(const ThreadContext &thread, const char *kernel, const uint32_t *config,
              size_t sharedBytes, void *stream, void **args, const uint32_t *sizes,
              uint32_t count);
  /// The thread's last launch error (cleared when `reset`).
  int32_t lastError(const ThreadContext &thread, bool reset);
  /// After the grid: the children in the order they run.
  std::vector<Child> take();

private:
  int32_t fail(const ThreadContext &thread, int32_t error);

  const DeviceProfile &profile_;
  std::atomic<size_t> &pending_;
  const size_t pendingLimit_;
  std::mutex mutex_;
  std::vector<Child> children_;
  std::atomic<bool> anyError_{false};
  std::map<std::pair<uint64_t, uint64_t>, int32_t> errors_; // (block, thread) -> last error
};

} // namespace musa::sim
