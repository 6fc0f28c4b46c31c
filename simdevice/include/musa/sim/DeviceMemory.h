// DeviceMemory: one device's global memory, carved from a reserved host address range.
//
// The whole device size is reserved up front (PROT_NONE, no swap reservation), so a 48 GiB
// device fits on a smaller host until it is touched. Allocations are committed with
// read/write access; freed ranges go back to PROT_NONE, so a kernel that touches freed or
// never-allocated device memory faults, and FaultGuard turns that into an illegal-address
// error instead of silent corruption. The allocation table answers bounds and pointer queries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>

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
  /// Frees everything (device reset).
  void freeAll();

  struct Range {
    char *base;
    size_t size;
    uint32_t tag;
  };
  /// The live allocation containing `ptr` (its requested size), if any.
  std::optional<Range> find(const void *ptr) const;
  /// True if [ptr, ptr+size) lies inside one live allocation.
  bool contains(const void *ptr, size_t size) const;
  /// True if `ptr` lies inside this device's reserved range (live or not).
  bool owns(const void *ptr) const;

  uint64_t capacity() const { return capacity_; }
  uint64_t used() const;

private:
  char *base_ = nullptr;
  uint64_t capacity_ = 0;
  mutable std::mutex mutex_;
  struct Block {
    size_t requested;
    size_t rounded;
    uint32_t tag;
  };
  std::map<uintptr_t, Block> live_;  // start -> sizes
  std::map<uintptr_t, size_t> free_; // start -> size, coalesced
  uint64_t used_ = 0;
};

} // namespace musa::sim
