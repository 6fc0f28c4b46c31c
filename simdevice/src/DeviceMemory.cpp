// First-fit allocator over a reserved address range, with coalescing free list.
#include "musa/sim/DeviceMemory.h"

#include <sys/mman.h>

namespace musa::sim {

namespace {
size_t roundUp(size_t n, size_t a) { return (n + a - 1) / a * a; }
constexpr size_t PageSize = 4096;
} // namespace

DeviceMemory::DeviceMemory(uint64_t capacity) : capacity_(roundUp(capacity, PageSize)) {
  void *p = mmap(nullptr, capacity_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (p == MAP_FAILED) {
    capacity_ = 0;
    return;
  }
  base_ = static_cast<char *>(p);
  free_[uintptr_t(base_)] = capacity_;
}

DeviceMemory::~DeviceMemory() {
  if (base_)
    munmap(base_, capacity_);
}

void *DeviceMemory::allocate(size_t size, uint32_t tag) {
  if (size == 0 || size > capacity_)
    return nullptr;
  // Page granularity keeps protection exact: a freed neighbour never shares a page.
  size_t rounded = roundUp(size, PageSize);
  std::lock_guard lock(mutex_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < rounded)
      continue;
    uintptr_t start = it->first;
    size_t remaining = it->second - rounded;
    free_.erase(it);
    if (remaining)
      free_[start + rounded] = remaining;
    if (mprotect(reinterpret_cast<void *>(start), rounded, PROT_READ | PROT_WRITE) != 0) {
      free_[start] = rounded; // give it back; the host refused to commit
      return nullptr;
    }
    live_[start] = {size, rounded, tag};
    used_ += rounded;
    return reinterpret_cast<void *>(start);
  }
  return nullptr;
}

bool DeviceMemory::free(void *ptr) {
  std::lock_guard lock(mutex_);
  auto it = live_.find(uintptr_t(ptr));
  if (it == live_.end())
    return false;
  uintptr_t start = it->first;
  size_t size = it->second.rounded;
  live_.erase(it);
  used_ -= size;
  // Drop the pages (memory returns to the host) and make later touches fault.
  madvise(reinterpret_cast<void *>(start), size, MADV_DONTNEED);
  mprotect(reinterpret_cast<void *>(start), size, PROT_NONE);
  auto next = free_.lower_bound(start);
  if (next != free_.end() && start + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      prev->second += size;
      return true;
    }
  }
  free_[start] = size;
  return true;
}

void DeviceMemory::freeAll() {
  std::lock_guard lock(mutex_);
  if (!base_)
    return;
  madvise(base_, capacity_, MADV_DONTNEED);
  mprotect(base_, capacity_, PROT_NONE);
  live_.clear();
  free_.clear();
  free_[uintptr_t(base_)] = capacity_;
  used_ = 0;
}

std::optional<DeviceMemory::Range> DeviceMemory::find(const void *ptr) const {
  std::lock_guard lock(mutex_);
  auto it = live_.upper_bound(uintptr_t(ptr));
  if (it == live_.begin())
    return std::nullopt;
  --it;
  if (uintptr_t(ptr) >= it->first + it->second.requested)
    return std::nullopt;
  return Range{reinterpret_cast<char *>(it->first), it->second.requested, it->second.tag};
}

bool DeviceMemory::contains(const void *ptr, size_t size) const {
  auto range = find(ptr);
  return range && static_cast<const char *>(ptr) + size <= range->base + range->size;
}

bool DeviceMemory::owns(const void *ptr) const {
  auto p = static_cast<const char *>(ptr);
  return base_ && p >= base_ && p < base_ + capacity_;
}

uint64_t DeviceMemory::used() const {
  std::lock_guard lock(mutex_);
  return used_;
}

} // namespace musa::sim
