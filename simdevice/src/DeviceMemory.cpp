// First-fit allocator over a reserved, shareable address range, with a coalescing free list.
#include "musa/sim/DeviceMemory.h"

#include <algorithm>

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

void DeviceMemory::restoreBacking(void *p, size_t size) {
  // Put our own (hole-punched, hence empty) backing back under the range.
  int flags = fd_ >= 0 ? MAP_SHARED | MAP_FIXED | MAP_NORESERVE
                       : MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE;
  mmap(p, size, PROT_NONE, flags, fd_, fd_ >= 0 ? off_t(offsetOf(p)) : 0);
}

void DeviceMemory::release(uintptr_t start, size_t size, bool foreign) {
  auto *p = reinterpret_cast<void *>(start);
  if (foreign) {
    restoreBacking(p, size);
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
  if (it == live_.end() || it->second.foreign || it->second.mapped)
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
  if (it == live_.end() || it->second.foreign || it->second.mapped || it->second.parked)
    return false;
  // The contents stay (the pages are kept), but any touch faults until unpark().
  mprotect(ptr, it->second.rounded, PROT_NONE);
  it->second.parked = true;
  return true;
}

bool DeviceMemory::unpark(void *ptr, size_t size, uint32_t tag) {
  std::lock_guard lock(mutex_);
  auto it = live_.find(uintptr_t(ptr));
  if (it == live_.end() || it->second.foreign || it->second.mapped || size == 0 ||
      size > it->second.rounded)
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
    if (block.foreign || block.mapped)
      restoreBacking(reinterpret_cast<void *>(start), block.rounded);
  if (fd_ >= 0)
    fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, off_t(capacity_));
  else
    madvise(base_, capacity_, MADV_DONTNEED);
  mprotect(base_, capacity_, PROT_NONE);
  live_.clear();
  reserved_.clear();
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
  if (!it->second.mapped)
    return Range{reinterpret_cast<char *>(it->first), it->second.requested, it->second.tag};
  // Mappings one after another are one stretch of memory to copies and kernels (a buffer
  // grown by mapping more after it, chunks mapped back to back).
  uintptr_t low = it->first, high = it->first + it->second.rounded;
  for (auto b = it; b != live_.begin();) {
    --b;
    if (!b->second.mapped || b->first + b->second.rounded != low)
      break;
    low = b->first;
  }
  for (auto f = std::next(it); f != live_.end() && f->second.mapped && f->first == high; ++f)
    high += f->second.rounded;
  return Range{reinterpret_cast<char *>(low), high - low, it->second.tag};
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
  return used_ + physical_;
}

void *DeviceMemory::reserve(size_t size, size_t alignment, uintptr_t hint) {
  if (size == 0 || size % PageSize || (alignment & (alignment - 1)))
    return nullptr;
  alignment = std::max(alignment, PageSize);
  std::lock_guard lock(mutex_);
  // The free stretch holding [start, start + size), if any.
  auto holding = [&](uintptr_t start) {
    auto it = free_.upper_bound(start);
    if (it == free_.begin())
      return free_.end();
    --it;
    return start + size <= it->first + it->second ? it : free_.end();
  };
  uintptr_t start = 0;
  auto it = free_.end();
  if (hint && hint % alignment == 0 && (it = holding(hint)) != free_.end())
    start = hint;
  for (auto f = free_.begin(); !start && f != free_.end(); ++f) {
    uintptr_t aligned = (f->first + alignment - 1) / alignment * alignment;
    if (aligned + size <= f->first + f->second)
      start = aligned, it = f;
  }
  if (!start)
    return nullptr;
  uintptr_t from = it->first, to = it->first + it->second;
  free_.erase(it);
  if (start > from)
    free_[from] = start - from;
  if (start + size < to)
    free_[start + size] = to - (start + size);
  uint64_t end = start + size - uintptr_t(base_);
  if (end > highWater_.load(std::memory_order_relaxed))
    highWater_.store(end, std::memory_order_relaxed);
  reserved_[start] = size;
  return reinterpret_cast<void *>(start);
}

bool DeviceMemory::unreserve(void *p, size_t size) {
  std::lock_guard lock(mutex_);
  auto r = reserved_.find(uintptr_t(p));
  if (r == reserved_.end() || r->second != size)
    return false;
  auto inside = live_.lower_bound(uintptr_t(p));
  if (inside != live_.end() && inside->first < uintptr_t(p) + size)
    return false; // still mapped
  reserved_.erase(r);
  returnRange(uintptr_t(p), size);
  return true;
}

bool DeviceMemory::map(void *p, size_t size, int fd, uint64_t offset, uint32_t tag) {
  uintptr_t start = uintptr_t(p);
  if (size == 0 || size % PageSize || start % PageSize || offset % PageSize)
    return false;
  std::lock_guard lock(mutex_);
  auto r = reserved_.upper_bound(start);
  if (r == reserved_.begin() || start + size > std::prev(r)->first + std::prev(r)->second)
    return false;
  auto next = live_.lower_bound(start);
  if (next != live_.end() && next->first < start + size)
    return false;
  if (next != live_.begin() && std::prev(next)->first + std::prev(next)->second.rounded > start)
    return false;
  if (mmap(p, size, PROT_NONE, MAP_SHARED | MAP_FIXED, fd, off_t(offset)) == MAP_FAILED) {
    restoreBacking(p, size);
    return false;
  }
  Block block{size, size, tag, false};
  block.mapped = true;
  live_[start] = block;
  return true;
}

std::vector<std::map<uintptr_t, DeviceMemory::Block>::iterator>
DeviceMemory::wholeMappings(uintptr_t start, size_t size) {
  std::vector<std::map<uintptr_t, Block>::iterator> blocks;
  uintptr_t at = start;
  for (auto it = live_.find(start); at < start + size; ++it) {
    if (it == live_.end() || it->first != at || !it->second.mapped)
      return {};
    blocks.push_back(it);
    at += it->second.rounded;
  }
  return at == start + size ? blocks : decltype(blocks){};
}

bool DeviceMemory::unmap(void *p, size_t size) {
  std::lock_guard lock(mutex_);
  auto blocks = wholeMappings(uintptr_t(p), size);
  for (auto it : blocks) {
    restoreBacking(reinterpret_cast<void *>(it->first), it->second.rounded);
    live_.erase(it);
  }
  return !blocks.empty();
}

bool DeviceMemory::protect(void *p, size_t size, bool read, bool write) {
  std::lock_guard lock(mutex_);
  auto blocks = wholeMappings(uintptr_t(p), size);
  int prot = (read ? PROT_READ : 0) | (write ? PROT_WRITE : 0);
  for (auto it : blocks) {
    if (mprotect(reinterpret_cast<void *>(it->first), it->second.rounded, prot) != 0)
      return false;
    it->second.read = read;
    it->second.write = write;
  }
  return !blocks.empty();
}

std::optional<DeviceMemory::Mapping> DeviceMemory::mappingAt(const void *p) const {
  std::lock_guard lock(mutex_);
  auto it = live_.upper_bound(uintptr_t(p));
  if (it == live_.begin())
    return std::nullopt;
  --it;
  if (!it->second.mapped || uintptr_t(p) >= it->first + it->second.rounded)
    return std::nullopt;
  return Mapping{reinterpret_cast<char *>(it->first), it->second.rounded, it->second.read,
                 it->second.write};
}

bool DeviceMemory::discard(void *p, size_t size) {
  std::lock_guard lock(mutex_);
  auto it = live_.upper_bound(uintptr_t(p));
  if (it == live_.begin())
    return false;
  --it;
  uintptr_t start = uintptr_t(p);
  if (it->second.parked || start + size > it->first + it->second.requested)
    return false;
  uintptr_t from = (start + PageSize - 1) / PageSize * PageSize;
  uintptr_t to = (start + size) / PageSize * PageSize;
  if (to <= from || it->second.foreign || it->second.mapped)
    return true;
  if (fd_ >= 0)
    fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
              off_t(offsetOf(reinterpret_cast<void *>(from))), off_t(to - from));
  else
    madvise(reinterpret_cast<void *>(from), to - from, MADV_DONTNEED);
  return true;
}

bool DeviceMemory::charge(size_t bytes) {
  std::lock_guard lock(mutex_);
  if (used_ + physical_ + bytes > capacity_)
    return false;
  physical_ += bytes;
  return true;
}

void DeviceMemory::uncharge(size_t bytes) {
  std::lock_guard lock(mutex_);
  physical_ -= std::min<uint64_t>(physical_, bytes);
}

} // namespace musa::sim
