// ChildGrids (see ChildGrids.h) and the builtins device-side launches lower to.
#include "musa/sim/ChildGrids.h"

#include "musa/sim/BlockExecutor.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace musa::sim {

namespace {
uint64_t linearBlock(const ThreadContext &t) {
  return (uint64_t(t.ctaid[2]) * t.nctaid[1] + t.ctaid[1]) * t.nctaid[0] + t.ctaid[0];
}
uint64_t linearThread(const ThreadContext &t) {
  return (uint64_t(t.tid[2]) * t.ntid[1] + t.tid[1]) * t.ntid[0] + t.tid[0];
}
// The runtime API's special device-side streams (musa_driver_types.h).
const void *const TailLaunchStream = reinterpret_cast<const void *>(0x3);
} // namespace

int32_t ChildGrids::fail(const ThreadContext &thread, int32_t error) {
  std::lock_guard lock(mutex_);
  errors_[{linearBlock(thread), linearThread(thread)}] = error;
  anyError_ = true;
  return error;
}

int32_t ChildGrids::add(const ThreadContext &thread, const char *kernel, const uint32_t *config,
                        size_t sharedBytes, void *stream, void **args, const uint32_t *sizes,
                        uint32_t count) {
  if (!kernel)
    return fail(thread, InvalidDeviceFunction);
  Child child;
  child.grid = {config[0], config[1], config[2]};
  child.block = {config[3], config[4], config[5]};
  if (std::string why = checkLaunchShape(profile_, child.grid, child.block); !why.empty()) {
    if (std::getenv("MUSA_SIM_VERBOSE"))
      std::fprintf(stderr, "musa-sim: device-side launch of '%s' refused: %s\n",
                   demangle(kernel).c_str(), why.c_str());
    return fail(thread, InvalidConfiguration);
  }
  if (count && (!args || !sizes))
    return fail(thread, InvalidValue);
  child.kernel = kernel;
  child.sharedBytes = sharedBytes;
  child.tail = stream == TailLaunchStream;
  child.launcherBlock = linearBlock(thread);
  child.sizes.assign(sizes, sizes + count);
  child.args = ArgumentCopy(child.sizes, args);
  if (pending_.fetch_add(1) >= pendingLimit_) {
    --pending_;
    return fail(thread, PendingCountExceeded);
  }
  std::lock_guard lock(mutex_);
  children_.push_back(std::move(child));
  return Success;
}

int32_t ChildGrids::lastError(const ThreadContext &thread, bool reset) {
  if (!anyError_)
    return Success;
  std::lock_guard lock(mutex_);
  auto it = errors_.find({linearBlock(thread), linearThread(thread)});
  if (it == errors_.end())
    return Success;
  int32_t error = it->second;
  if (reset)
    errors_.erase(it);
  return error;
}

std::vector<ChildGrids::Child> ChildGrids::take() {
  std::lock_guard lock(mutex_);
  std::vector<Child> out = std::move(children_);
  children_.clear();
  // Each block's children in the order its threads launched them (the vector holds them in
  // that order); tail launches after all the others.
  std::stable_sort(out.begin(), out.end(), [](const Child &a, const Child &b) {
    return std::pair(a.tail, a.launcherBlock) < std::pair(b.tail, b.launcherBlock);
  });
  return out;
}

} // namespace musa::sim

using musa::sim::ThreadContext;

extern "C" int32_t __musa_sim_launch_device(const char *kernel, const uint32_t *config,
                                            size_t sharedBytes, void *stream, void **args,
                                            const uint32_t *sizes, uint32_t count,
                                            ThreadContext *ctx) {
  musa::sim::ChildGrids *children = musa::sim::launchOf(ctx).children;
  if (!children)
    return musa::sim::ChildGrids::NotSupported;
  return children->add(*ctx, kernel, config, sharedBytes, stream, args, sizes, count);
}

extern "C" int32_t __musa_sim_device_last_error(int32_t reset, ThreadContext *ctx) {
  musa::sim::ChildGrids *children = musa::sim::launchOf(ctx).children;
  return children ? children->lastError(*ctx, reset != 0) : 0;
}
