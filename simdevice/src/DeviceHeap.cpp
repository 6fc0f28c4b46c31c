// The device heap (design in DeviceHeap.h) and the builtins device malloc()/free() become.
#include "musa/sim/DeviceHeap.h"

#include "musa/sim/BlockExecutor.h"
#include "musa/sim/DeviceMemory.h"
#include "musa/sim/FaultGuard.h"
#include "musa/sim/KernelAbi.h"

#include <cstdio>

namespace musa::sim {

size_t DeviceHeap::size() const {
  std::lock_guard lock(mutex_);
  return size_;
}

bool DeviceHeap::setSize(size_t bytes) {
  std::lock_guard lock(mutex_);
  if (base_ || failed_)
    return false;
  size_ = bytes;
  return true;
}

bool DeviceHeap::committed() const {
  std::lock_guard lock(mutex_);
  return base_ != nullptr || failed_;
}

void *DeviceHeap::allocate(size_t bytes) {
  if (bytes == 0 || bytes > SIZE_MAX - Alignment)
    return nullptr;
  size_t need = (bytes + Alignment - 1) / Alignment * Alignment;
  std::lock_guard lock(mutex_);
  if (!base_ && !failed_) {
    base_ = size_ ? static_cast<char *>(memory_.allocate(size_, tag_)) : nullptr;
    failed_ = !base_;
    if (base_)
      free_[0] = size_ / Alignment * Alignment;
  }
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need)
      continue;
    size_t offset = it->first, remaining = it->second - need;
    free_.erase(it);
    if (remaining)
      free_[offset + need] = remaining;
    live_[offset] = need;
    return base_ + offset;
  }
  return nullptr;
}

bool DeviceHeap::free(void *p) {
  if (!p)
    return true;
  std::lock_guard lock(mutex_);
  if (!base_ || static_cast<char *>(p) < base_ || static_cast<char *>(p) >= base_ + size_)
    return false;
  auto it = live_.find(size_t(static_cast<char *>(p) - base_));
  if (it == live_.end())
    return false;
  size_t offset = it->first, bytes = it->second;
  live_.erase(it);
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && offset + bytes == next->first) {
    bytes += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += bytes;
      return true;
    }
  }
  free_[offset] = bytes;
  return true;
}

void DeviceHeap::reset() {
  std::lock_guard lock(mutex_);
  base_ = nullptr; // DeviceMemory::freeAll took it
  failed_ = false;
  size_ = DefaultSize;
  free_.clear();
  live_.clear();
}

} // namespace musa::sim

using musa::sim::ThreadContext;

extern "C" void *__musa_sim_malloc(size_t bytes, ThreadContext *ctx) {
  musa::sim::DeviceHeap *heap = musa::sim::launchOf(ctx).heap;
  return heap ? heap->allocate(bytes) : nullptr;
}

extern "C" void __musa_sim_free(void *p, ThreadContext *ctx) {
  musa::sim::DeviceHeap *heap = musa::sim::launchOf(ctx).heap;
  if (!p)
    return;
  if (!heap || !heap->free(p)) {
    char text[96];
    std::snprintf(text, sizeof text, "free() of %p, which device malloc() did not return", p);
    musa::sim::raiseDeviceFault(musa::sim::FaultKind::Trap, text);
  }
}
