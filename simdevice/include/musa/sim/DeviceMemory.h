// DeviceMemory: one device's global memory, carved from a reserved host address range.
//
// The whole device size is reserved up front (PROT_NONE, no swap reservation), so a 48 GiB
// device fits on a smaller host until it is touched. The range is a shared mapping of one
// sparse memfd, so another process can map an allocation (IPC memory handles: it opens the
// memfd through /proc/<pid>/fd); where memfd is unavailable it falls back to private memory
// and sharing is refused. Allocations are committed with
// read/write access; freed ranges go back to PROT_NONE, so a kernel that touches freed or
// never-allocated device memory faults, and FaultGuard turns that into an illegal-address
// error instead of silent corruption. The allocation table answers bounds and pointer queries.
#pragma once

#include <cstddef>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace musa::sim {

class DeviceMemory {
public:
  /// Allocation granularity and alignment, as CUDA guarantees at least 256 bytes.
  static constexpr size_t Alignment = 256;

  explicit DeviceMemory(uint64_t capacity);
  ~DeviceMemory();
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;

  /// Null when the device is out of memory (or size is zero). `tag` is the caller's
  /// classification of the allocation (e.g. managed), returned by find().
  void *allocate(size_t size, uint32_t tag = 0);
  /// False if `ptr` is not the start of a live allocation.
  bool free(void *ptr);
  /// Memory pools keep freed blocks for reuse: park() makes a live allocation look freed
  /// (touches fault, find() no longer sees it) while it keeps its address range and pages;
  /// unpark() makes it (or a live allocation, whose pages stay untouched) live for a new
  /// request of at most its page-rounded size. free() of a parked block releases it. False if
  /// `ptr` is not such a block (or `size` is 0 or too big).
  bool park(void *ptr);
  bool unpark(void *ptr, size_t size, uint32_t tag);
  /// Frees everything (device reset), including mappings of other processes' memory.
  void freeAll();

  /// The memfd behind the device range (-1 if memory is not shareable) and where `p` lies in it.
  int shareableFd() const { return fd_; }
  uint64_t offsetOf(const void *p) const { return uint64_t(static_cast<const char *>(p) - base_); }
  /// Maps [offset, offset+size) of another process's device memfd (`fd`, borrowed) into a
  /// free part of this device's range, as a live allocation with `tag`. Null on failure.
  void *mapForeign(int fd, uint64_t offset, size_t size, uint32_t tag);
  /// Undoes mapForeign; false if `p` is not such a mapping's start.
  bool unmapForeign(void *p);

  /// Virtual memory management (the driver API's muMemAddressReserve, muMemMap, ...).
  /// reserve() sets aside `size` bytes of the device range, aligned to `alignment` (a power of
  /// two), at `hint` if that stretch is free, that no allocation will take; null if there is
  /// no room. map() puts [offset, offset+size) of `fd` (a physical allocation, borrowed) at
  /// [p, p+size) inside one reservation and over no other mapping, as a live allocation with
  /// `tag` that no access is allowed to until protect(). unmap() and protect() take a range
  /// made of whole mappings, one after another; unreserve() a whole reservation holding no
  /// mapping. Each is false (and changes nothing) when the range breaks those rules.
  void *reserve(size_t size, size_t alignment, uintptr_t hint);
  bool unreserve(void *p, size_t size);
  bool map(void *p, size_t size, int fd, uint64_t offset, uint32_t tag);
  bool unmap(void *p, size_t size);
  bool protect(void *p, size_t size, bool read, bool write);
  struct Mapping {
    char *base;
    size_t size;
    bool read, write;
  };
  /// The mapping holding `p` (accessible or not), if any.
  std::optional<Mapping> mappingAt(const void *p) const;
  /// Gives the whole pages inside [p, p+size) back to the host (they read as zeros after;
  /// memory mapped from elsewhere keeps its contents). False unless the range lies in one
  /// live allocation.
  bool discard(void *p, size_t size);
  /// Physical memory made apart from the device range (muMemCreate) counts as used: charge()
  /// is false if `bytes` more do not fit in the capacity.
  bool charge(size_t bytes);
  void uncharge(size_t bytes);

  struct Range {
    char *base;
    size_t size;
    uint32_t tag;
  };
  /// The live allocation containing `ptr` (its requested size), if any; for a mapping, the
  /// run of mappings one after another that holds it.
  std::optional<Range> find(const void *ptr) const;
  /// True if [ptr, ptr+size) lies inside one live allocation.
  bool contains(const void *ptr, size_t size) const;
  /// True if `ptr` lies inside this device's reserved range (live or not).
  bool owns(const void *ptr) const;

  uint64_t capacity() const { return capacity_; }
  /// The start of the device range and the end of the highest range ever allocated in it
  /// (the part kernels can have touched), for the timing model's footprint bitmap.
  const char *base() const { return base_; }
  uint64_t highWater() const { return highWater_.load(std::memory_order_relaxed); }
  uint64_t used() const;

private:
  void *takeRange(size_t rounded);
  void returnRange(uintptr_t start, size_t size);
  void release(uintptr_t start, size_t size, bool foreign);
  void restoreBacking(void *p, size_t size);

  char *base_ = nullptr;
  uint64_t capacity_ = 0;
  std::atomic<uint64_t> highWater_{0};
  int fd_ = -1;
  mutable std::mutex mutex_;
  struct Block {
    size_t requested;
    size_t rounded;
    uint32_t tag;
    bool foreign; // a mapping of another process's memory
    bool parked = false; // held by a memory pool for reuse; invisible to find()
    bool mapped = false; // a virtual memory mapping (map())
    bool read = false, write = false; // mapped: the access protect() gave
  };
  std::map<uintptr_t, Block> live_;  // start -> sizes
  std::map<uintptr_t, size_t> free_; // start -> size, coalesced
  std::map<uintptr_t, size_t> reserved_; // reserve(): start -> size
  uint64_t used_ = 0;
  uint64_t physical_ = 0; // charge()d
  /// The mappings making up exactly [start, start+size), one after another; empty if none.
  std::vector<std::map<uintptr_t, Block>::iterator> wholeMappings(uintptr_t start, size_t size);
};

} // namespace musa::sim
