// MemoryPools: the stream-ordered allocator of one device (musaMemPool_t, musaMallocAsync).
//
// A pool hands out device allocations and keeps freed ones for reuse. A block's life:
//   in use --musaFreeAsync--> freeing --the stream reaches the free--> cached --reuse--> in use
// (musaFree and a pool's destruction take the short ways). Cached blocks are parked in
// DeviceMemory: their pages stay reserved (they count in the pool's reserved bytes and in
// musaMemGetInfo) but a touch faults and pointer queries fail, exactly as for freed memory,
// so a use after free is caught as it is for musaMalloc'd memory.
//
// Reuse follows CUDA's rules, simplified where the simulator cannot tell more:
// - a block being freed on stream S may serve a later allocation on S at once (stream order
//   puts every use of the old allocation before any use of the new one);
// - a cached block (its free has run, so nothing uses it) serves any stream when the pool
//   allows opportunistic reuse, otherwise only the stream that freed it;
// - reuse across streams through event dependencies (musaMemPoolReuseFollowEventDependencies)
//   is not attempted: the flag is stored and reported, and declining a reuse is always
//   correct (a fresh allocation is made instead).
// Memory above the release threshold goes back to the device at the next synchronisation
// (stream, event or device), as CUDA documents; musaMemPoolTrimTo releases at once.
// A block is reused only for requests of at least half its size, so the used counters stay
// close to what the program asked for.
#pragma once

#include "musa_runtime_api.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace musa::rt {

class Device;
struct Stream;

/// One pool. Guarded by its MemoryPools' mutex. The handle users hold is its id, never
/// reused, so a destroyed pool's handle stays invalid even when its memory is recycled.
struct MemoryPool {
  uint64_t id = 0;
  musaMemPoolProps props{};
  bool isDefault = false;
  bool destroyed = false; // musaMemPoolDestroy'd with allocations outstanding
  int reuseFollowEventDependencies = 1;
  int reuseAllowOpportunistic = 1;
  int reuseAllowInternalDependencies = 1;
  uint64_t releaseThreshold = 0;
  uint64_t reservedCurrent = 0, reservedHigh = 0, usedCurrent = 0, usedHigh = 0;
  std::map<int, musaMemAccessFlags> peerAccess; // other devices' access (default: none)
  /// Imported with musaMemPoolImportFromShareableHandle: the exporter's device memory (a
  /// descriptor this pool owns), from which it maps exported pointers; it allocates nothing.
  int importedFd = -1;
};

class MemoryPools {
public:
  explicit MemoryPools(Device &device);
  MemoryPools(const MemoryPools &) = delete;

  MemoryPool *defaultPool() { return default_; }
  /// The pool musaMallocAsync uses (musaDeviceSetMemPool).
  MemoryPool *current();
  void setCurrent(MemoryPool *pool);
  /// The live (not destroyed) pool of this device with handle `id`, or null.
  MemoryPool *live(uint64_t id);
  /// A new pool with `props` (already validated).
  MemoryPool *create(const musaMemPoolProps &props);
  /// The pool of the in-use allocation starting at `p`, or null.
  MemoryPool *poolOf(const void *p);
  /// Destroys a live non-default pool: cached memory goes back now, outstanding allocations
  /// when they are freed. False if it is not a live user pool.
  bool destroy(MemoryPool *pool);

  /// An allocation of `size` (> 0) bytes for use in `stream`'s order, or null when the pool
  /// (its maxSize) or the device is out of memory.
  void *allocate(MemoryPool &pool, size_t size, const std::shared_ptr<Stream> &stream);
  /// musaFreeAsync: marks `p` (an in-use pool allocation's start) as being freed on `stream`
  /// and returns the ticket finishFree needs, or 0 if `p` is no such allocation.
  uint64_t beginFree(const void *p, const std::shared_ptr<Stream> &stream);
  /// Runs when the stream reaches the free: the block is cached (unless it was reused on the
  /// same stream meanwhile, which the ticket tells).
  void finishFree(const void *p, uint64_t ticket);
  /// musaFree after synchronising: false if `p` is not an in-use pool allocation's start.
  bool freeNow(const void *p);

  /// Releases cached blocks of `pool` until it reserves at most `keep` bytes (or none are
  /// cached).
  void trim(MemoryPool &pool, uint64_t keep);
  /// At a synchronisation point: every pool gives back what exceeds its release threshold.
  void releaseAboveThreshold();

  musaError_t getAttribute(MemoryPool &pool, musaMemPoolAttr attr, void *value);
  musaError_t setAttribute(MemoryPool &pool, musaMemPoolAttr attr, const void *value);
  musaError_t setAccess(MemoryPool &pool, const musaMemAccessDesc *descs, size_t count);
  musaError_t getAccess(MemoryPool &pool, const musaMemLocation &where,
                        musaMemAccessFlags &flags);

  /// musaDeviceReset freed all device memory: user pools are gone, the default pool is new.
  void reset();

private:
  enum class State { InUse, Freeing, Cached };
  struct Block {
    MemoryPool *pool;
    size_t size; // page-rounded: what the pool reserves for it
    State state;
    std::weak_ptr<Stream> freedOn;
    uint64_t ticket = 0;
  };
  using BlockMap = std::map<const void *, Block>;

  void *reuse(MemoryPool &pool, size_t size, size_t rounded, const std::shared_ptr<Stream> &s);
  void release(BlockMap::iterator it); // gives a parked or in-use block back to the device
  void releaseCached(MemoryPool &pool, uint64_t keep);
  void cache(BlockMap::iterator it);
  void eraseIfDone(MemoryPool *pool);
  MemoryPool *makeDefault();

  Device &device_;
  std::mutex mutex_;
  std::map<uint64_t, std::unique_ptr<MemoryPool>> pools_; // by id
  MemoryPool *default_ = nullptr;
  MemoryPool *current_ = nullptr;
  BlockMap blocks_;
  uint64_t nextTicket_ = 1;
};

/// A synchronisation point (stream, event or device): every pool of every device gives back
/// the cached memory above its release threshold, as CUDA does at these points.
void releasePoolMemoryAboveThresholds();

/// The live pool a handle names, and its device; null if the handle is not a live pool.
MemoryPool *findPool(musaMemPool_t handle, Device **device);
inline musaMemPool_t handleOf(const MemoryPool *pool) {
  return reinterpret_cast<musaMemPool_t>(uintptr_t(pool->id));
}

} // namespace musa::rt
