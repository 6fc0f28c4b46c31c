// First-fit allocator over a reserved, shareable address range, with a coalescing free list.
#include "musa/sim/DeviceMemory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace musa::sim {

namespace {
size_t roundUp(size_t n, size_t a) { return (n + a - 1) / a * a; }
constexpr size_t PageSize = 4096;
} // namespace

DeviceMemory::DeviceMemory(uint64_t capacity) : capacity_(roundUp(capacity, PageSize)) {
  int fd = memfd_create("musa-sim-device", MFD_CLOEXEC);
  if (fd >= 0 && ftruncate(fd, off_t(capacity_)) != 0) {
    close(fd);
    fd = -1;
  }
  void *p = fd >= 0 ? mmap(nullptr, capacity_, PROT_NONE, MAP_SHARED | MAP_NORESERVE, fd, 0)
                    : mmap(nullptr, capacity_, PROT_NONE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    if (fd >= 0)
      close(fd);
    capacity_ = 0;
    return;
  }
  fd_ = fd;
  base_ = static_cast<char *>(p);
  free_[uintptr_t(base_)] = capacity_;
}

DeviceMemory::~DeviceMemory() {
  if (base_)
    munmap(base_, capacity_);
  if (fd_ >= 0)
    close(fd_);
}

void *DeviceMemory::takeRange(size_t rounded) {
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < rounded)
      continue;
    uintptr_t start = it->first;
    size_t remaining = it->second - rounded;
    free_.erase(it);
    if (remaining)
      free_[start + rounded] = remaining;
    uint64_t end = start + rounded - uintptr_t(base_);
    if (end > highWater_.load(std::memory_order_relaxed))
      highWater_.store(end, std::memory_order_relaxed);
    return reinterpret_cast<void *>(start);
  }
  return nullptr;
}

void DeviceMemory::returnRange(uintptr_t start, size_t size) {
  auto next = free_.lower_bound(start);
  if (next != free_.end() && start + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      prev->second += size;
      return;
    }
  }
  free_[start] = size;
}

void *DeviceMemory::allocate(size_t size, uint32_t tag) {
  if (size == 0 || size > capacity_)
    return nullptr;
  // Page granularity keeps protection exact: a freed neighbour never shares a page.
  size_t rounded = roundUp(size, PageSize);
  std::lock_guard lock(mutex_);
  void *p = takeRange(rounded);
  if (!p)
    return nullptr;
  if (mprotect(p, rounded, PROT_READ | PROT_WRITE) != 0) {
    returnRange(uintptr_t(p), rounded); // the host refused to commit
    return nullptr;
  }
  live_[uintptr_t(p)] = {size, rounded, tag, false};
  used_ += rounded;
  return p;
}

void DeviceMemory::release(uintptr_t start, size_t size, bool foreign) {
  auto *p = reinterpret_cast<void *>(start);
  if (foreign) {
    // Put our own (hole-punched, hence empty) backing back under the range.
    int flags = fd_ >= 0 ? MAP_SHARED | MAP_FIXED | MAP_NORESERVE
                         : MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE;
    mmap(p, size, PROT_NONE, flags, fd_, fd_ >= 0 ? off_t(offsetOf(p)) : 0);
  } else {
    // Return the pages to the host and make later touches fault.
    if (fd_ >= 0)
      fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(offsetOf(p)), off_t(size));
    else
      madvise(p, size, MADV_DONTNEED);
    mprotect(p, size, PROT_NONE);
  }
  returnRange(start, size);
}

bool DeviceMemory::free(void *ptr) {
  std::lock_guard lock(mutex_);
  auto it = live_.find(uintptr_t(ptr));
  if (it == live_.end() || it->second.foreign)
    return false;
  Block block = it->second;
  live_.erase(it);
  used_ -= block.rounded;
  release(uintptr_t(ptr), block.rounded, false);
  return true;
}

bool DeviceMemory::park(void *ptr) {
  std::lock_guard lock(mutex_);
  auto it = live_.find(uintptr_t(ptr));
  if (it == live_.end() || it->second.foreign || it->second.parked)
    return false;
  // The contents stay (the pages are kept), but any touch faults until unpark().
  mprotect(ptr, it->second.rounded, PROT_NONE);
  it->second.parked = true;
  return true;
}

bool DeviceMemory::unpark(void *ptr, size_t size, uint32_t tag) {
  std::lock_guard lock(mutex_);
  auto it = live_.find(uintptr_t(ptr));
  if (it == live_.end() || it->second.foreign || size == 0 || size > it->second.rounded)
    return false;
  if (it->second.parked && mprotect(ptr, it->second.rounded, PROT_READ | PROT_WRITE) != 0)
    return false;
  it->second.parked = false;
  it->second.requested = size;
  it->second.tag = tag;
  return true;
}

void *DeviceMemory::mapForeign(int fd, uint64_t offset, size_t size, uint32_t tag) {
  if (size == 0 || offset % PageSize)
    return nullptr;
  size_t rounded = roundUp(size, PageSize);
  std::lock_guard lock(mutex_);
  void *p = takeRange(rounded);
  if (!p)
    return nullptr;
  void *m = mmap(p, rounded, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, off_t(offset));
  if (m == MAP_FAILED) {
    release(uintptr_t(p), rounded, true);
    return nullptr;
  }
  live_[uintptr_t(p)] = {size, rounded, tag, true};
  return p;
}

bool DeviceMemory::unmapForeign(void *ptr) {
  std::lock_guard lock(mutex_);
  auto it = live_.find(uintptr_t(ptr));
  if (it == live_.end() || !it->second.foreign)
    return false;
  size_t rounded = it->second.rounded;
  live_.erase(it);
  release(uintptr_t(ptr), rounded, true);
  return true;
}

void DeviceMemory::freeAll() {
  std::lock_guard lock(mutex_);
  if (!base_)
    return;
  for (auto &[start, block] : live_)
    if (block.foreign)
      release(start, block.rounded, true);
  if (fd_ >= 0)
    fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, off_t(capacity_));
  else
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
  if (uintptr_t(ptr) >= it->first + it->second.requested || it->second.parked)
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
