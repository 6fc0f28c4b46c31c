// DeviceHeap: the memory device-side malloc()/free() (and new/delete) take from.
//
// As on CUDA, each device has one heap of a fixed size (musaLimitMallocHeapSize, 8 MiB by
// default), shared by all kernels: an allocation stays valid across kernels until some thread
// frees it, and any thread of any kernel may free it. The heap's memory is one device
// allocation, taken from DeviceMemory when the first device malloc() runs; from then on its
// size is fixed (CUDA fixes it at the first launch of a kernel that uses malloc). malloc()
// returns null when no free range is large enough. Allocations are 16-byte aligned (CUDA
// guarantees that alignment); first fit over a coalescing free list, under one lock: device
// threads never yield while holding it, so it is safe on fibers too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace musa::sim {

class DeviceMemory;

class DeviceHeap {
public:
  static constexpr size_t DefaultSize = size_t(8) << 20;
  static constexpr size_t Alignment = 16;

  /// `tag` marks the heap's range in `memory` (the runtime's allocation kind).
  DeviceHeap(DeviceMemory &memory, uint32_t tag) : memory_(memory), tag_(tag) {}
  DeviceHeap(const DeviceHeap &) = delete;

  size_t size() const;
  /// False once the heap is in use (its size is fixed from then on).
  bool setSize(size_t bytes);
  bool committed() const;

  /// Null if `bytes` is zero or no free range fits (or the device cannot hold the heap).
  void *allocate(size_t bytes);
  /// False if `p` is not a live allocation of this heap; null is a no-op (true).
  bool free(void *p);

  /// musaDeviceReset freed all device memory: the heap is gone and back to its default size.
  void reset();

private:
  DeviceMemory &memory_;
  uint32_t tag_;
  mutable std::mutex mutex_;
  size_t size_ = DefaultSize;
  char *base_ = nullptr;
  bool failed_ = false;              // the device could not hold the heap: malloc gives null
  std::map<size_t, size_t> free_;    // offset -> bytes, coalesced
  std::map<size_t, size_t> live_;    // offset -> bytes
};

} // namespace musa::sim
