// The stream-ordered allocator's pools (design in MemoryPool.h).
#include "MemoryPool.h"
#include "Runtime.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace musa::rt {

namespace {
constexpr size_t PageSize = 4096; // DeviceMemory's granularity: what a block really holds
size_t roundUp(size_t n) { return (n + PageSize - 1) / PageSize * PageSize; }

void account(uint64_t &current, uint64_t &high, int64_t delta) {
  current = uint64_t(int64_t(current) + delta);
  high = std::max(high, current);
}

/// Pool handles: process-wide, never reused (a multiple of 16, so no small integer or
/// misaligned pointer is ever mistaken for one).
std::atomic<uint64_t> nextPoolId{0x1000};
uint64_t newPoolId() { return nextPoolId.fetch_add(0x10); }
} // namespace

MemoryPools::MemoryPools(Device &device) : device_(device) {
  default_ = current_ = makeDefault();
}

MemoryPool *MemoryPools::makeDefault() {
  auto pool = std::make_unique<MemoryPool>();
  pool->props.allocType = musaMemAllocationTypePinned;
  pool->props.location = {musaMemLocationTypeDevice, device_.ordinal()};
  pool->isDefault = true;
  pool->id = newPoolId();
  MemoryPool *raw = pool.get();
  pools_[raw->id] = std::move(pool);
  return raw;
}

MemoryPool *MemoryPools::current() {
  std::lock_guard lock(mutex_);
  return current_;
}

void MemoryPools::setCurrent(MemoryPool *pool) {
  std::lock_guard lock(mutex_);
  current_ = pool;
}

MemoryPool *MemoryPools::live(uint64_t id) {
  std::lock_guard lock(mutex_);
  auto it = pools_.find(id);
  return it != pools_.end() && !it->second->destroyed ? it->second.get() : nullptr;
}

MemoryPool *MemoryPools::create(const musaMemPoolProps &props) {
  auto pool = std::make_unique<MemoryPool>();
  pool->props = props;
  pool->id = newPoolId();
  std::lock_guard lock(mutex_);
  MemoryPool *raw = pool.get();
  pools_[raw->id] = std::move(pool);
  return raw;
}

MemoryPool *MemoryPools::poolOf(const void *p) {
  std::lock_guard lock(mutex_);
  auto it = blocks_.find(p);
  return it != blocks_.end() && it->second.state == State::InUse ? it->second.pool : nullptr;
}

bool MemoryPools::destroy(MemoryPool *pool) {
  std::lock_guard lock(mutex_);
  auto it = pools_.find(pool->id);
  if (it == pools_.end() || it->second.get() != pool || pool->destroyed || pool->isDefault)
    return false;
  pool->destroyed = true;
  if (pool->importedFd >= 0) { // pointers it mapped stay until they are freed
    close(pool->importedFd);
    pool->importedFd = -1;
  }
  if (current_ == pool)
    current_ = default_; // as CUDA: the device falls back to its default pool
  releaseCached(*pool, 0);
  eraseIfDone(pool);
  return true;
}

void MemoryPools::eraseIfDone(MemoryPool *pool) {
  if (!pool->destroyed)
    return;
  for (auto &[p, block] : blocks_)
    if (block.pool == pool)
      return; // outstanding allocations still name it
  pools_.erase(pool->id);
}

void *MemoryPools::reuse(MemoryPool &pool, size_t size, size_t rounded,
                         const std::shared_ptr<Stream> &stream) {
  // Best fit among the blocks this stream may take (MemoryPool.h says which).
  BlockMap::iterator best = blocks_.end();
  for (auto it = blocks_.begin(); it != blocks_.end(); ++it) {
    Block &b = it->second;
    if (b.pool != &pool || b.state == State::InUse || b.size < rounded || b.size > 2 * rounded)
      continue;
    bool sameStream = b.freedOn.lock() == stream;
    bool allowed = b.state == State::Freeing ? sameStream
                                             : sameStream || pool.reuseAllowOpportunistic;
    if (allowed && (best == blocks_.end() || b.size < best->second.size))
      best = it;
  }
  if (best == blocks_.end())
    return nullptr;
  void *p = const_cast<void *>(best->first);
  Block &b = best->second;
  // A freeing block is still live in DeviceMemory (earlier work on its stream may be using
  // it): it only takes the new size. Its pending free sees a changed ticket and does nothing.
  if (!device_.memory().unpark(p, size, PoolAllocation))
    return nullptr;
  b.state = State::InUse;
  b.freedOn.reset();
  b.ticket = 0;
  account(pool.usedCurrent, pool.usedHigh, int64_t(b.size));
  return p;
}

void *MemoryPools::allocate(MemoryPool &pool, size_t size,
                            const std::shared_ptr<Stream> &stream) {
  size_t rounded = roundUp(size);
  std::lock_guard lock(mutex_);
  if (void *p = reuse(pool, size, rounded, stream))
    return p;
  uint64_t limit = pool.props.maxSize;
  if (limit && pool.reservedCurrent + rounded > limit) {
    releaseCached(pool, limit > rounded ? limit - rounded : 0);
    if (pool.reservedCurrent + rounded > limit)
      return nullptr;
  }
  void *p = device_.memory().allocate(size, PoolAllocation);
  if (!p) {
    // Out of device memory: give back what every pool of the device caches, then retry.
    for (auto &[raw, other] : pools_)
      releaseCached(*other, 0);
    p = device_.memory().allocate(size, PoolAllocation);
    if (!p)
      return nullptr;
  }
  blocks_[p] = {&pool, rounded, State::InUse, {}, 0};
  account(pool.reservedCurrent, pool.reservedHigh, int64_t(rounded));
  account(pool.usedCurrent, pool.usedHigh, int64_t(rounded));
  return p;
}

uint64_t MemoryPools::beginFree(const void *p, const std::shared_ptr<Stream> &stream) {
  std::lock_guard lock(mutex_);
  auto it = blocks_.find(p);
  if (it == blocks_.end() || it->second.state != State::InUse)
    return 0;
  Block &b = it->second;
  b.state = State::Freeing;
  b.freedOn = stream;
  b.ticket = nextTicket_++;
  account(b.pool->usedCurrent, b.pool->usedHigh, -int64_t(b.size));
  return b.ticket;
}

void MemoryPools::finishFree(const void *p, uint64_t ticket) {
  std::lock_guard lock(mutex_);
  auto it = blocks_.find(p);
  if (it == blocks_.end() || it->second.state != State::Freeing || it->second.ticket != ticket)
    return; // reused on its stream meanwhile, or gone with a device reset
  cache(it);
}

bool MemoryPools::freeNow(const void *p) {
  std::lock_guard lock(mutex_);
  auto it = blocks_.find(p);
  if (it == blocks_.end() || it->second.state != State::InUse)
    return false;
  account(it->second.pool->usedCurrent, it->second.pool->usedHigh, -int64_t(it->second.size));
  cache(it);
  return true;
}

void MemoryPools::cache(BlockMap::iterator it) {
  MemoryPool *pool = it->second.pool;
  if (pool->destroyed) {
    release(it); // a destroyed pool keeps nothing
    eraseIfDone(pool);
    return;
  }
  device_.memory().park(const_cast<void *>(it->first));
  it->second.state = State::Cached;
  it->second.ticket = 0;
}

void MemoryPools::release(BlockMap::iterator it) {
  MemoryPool *pool = it->second.pool;
  device_.memory().free(const_cast<void *>(it->first));
  account(pool->reservedCurrent, pool->reservedHigh, -int64_t(it->second.size));
  blocks_.erase(it);
}

void MemoryPools::releaseCached(MemoryPool &pool, uint64_t keep) {
  // Largest first: the fewest releases reach the target.
  while (pool.reservedCurrent > keep) {
    auto largest = blocks_.end();
    for (auto it = blocks_.begin(); it != blocks_.end(); ++it)
      if (it->second.pool == &pool && it->second.state == State::Cached &&
          (largest == blocks_.end() || it->second.size > largest->second.size))
        largest = it;
    if (largest == blocks_.end())
      return;
    release(largest);
  }
}

void MemoryPools::trim(MemoryPool &pool, uint64_t keep) {
  std::lock_guard lock(mutex_);
  releaseCached(pool, keep);
}

void MemoryPools::releaseAboveThreshold() {
  std::lock_guard lock(mutex_);
  for (auto &[raw, pool] : pools_)
    if (pool->reservedCurrent > pool->releaseThreshold)
      releaseCached(*pool, pool->releaseThreshold);
}

musaError_t MemoryPools::getAttribute(MemoryPool &pool, musaMemPoolAttr attr, void *value) {
  std::lock_guard lock(mutex_);
  switch (attr) {
  case musaMemPoolReuseFollowEventDependencies:
    *static_cast<int *>(value) = pool.reuseFollowEventDependencies;
    return musaSuccess;
  case musaMemPoolReuseAllowOpportunistic:
    *static_cast<int *>(value) = pool.reuseAllowOpportunistic;
    return musaSuccess;
  case musaMemPoolReuseAllowInternalDependencies:
    *static_cast<int *>(value) = pool.reuseAllowInternalDependencies;
    return musaSuccess;
  case musaMemPoolAttrReleaseThreshold:
    *static_cast<uint64_t *>(value) = pool.releaseThreshold;
    return musaSuccess;
  case musaMemPoolAttrReservedMemCurrent:
    *static_cast<uint64_t *>(value) = pool.reservedCurrent;
    return musaSuccess;
  case musaMemPoolAttrReservedMemHigh:
    *static_cast<uint64_t *>(value) = pool.reservedHigh;
    return musaSuccess;
  case musaMemPoolAttrUsedMemCurrent:
    *static_cast<uint64_t *>(value) = pool.usedCurrent;
    return musaSuccess;
  case musaMemPoolAttrUsedMemHigh:
    *static_cast<uint64_t *>(value) = pool.usedHigh;
    return musaSuccess;
  }
  return musaErrorInvalidValue;
}

musaError_t MemoryPools::setAttribute(MemoryPool &pool, musaMemPoolAttr attr,
                                      const void *value) {
  std::lock_guard lock(mutex_);
  int flag = 0;
  if (attr >= musaMemPoolReuseFollowEventDependencies &&
      attr <= musaMemPoolReuseAllowInternalDependencies) {
    flag = *static_cast<const int *>(value);
    if (flag != 0 && flag != 1)
      return musaErrorInvalidValue;
  }
  switch (attr) {
  case musaMemPoolReuseFollowEventDependencies:
    pool.reuseFollowEventDependencies = flag;
    return musaSuccess;
  case musaMemPoolReuseAllowOpportunistic:
    pool.reuseAllowOpportunistic = flag;
    return musaSuccess;
  case musaMemPoolReuseAllowInternalDependencies:
    pool.reuseAllowInternalDependencies = flag;
    return musaSuccess;
  case musaMemPoolAttrReleaseThreshold:
    pool.releaseThreshold = *static_cast<const uint64_t *>(value);
    return musaSuccess;
  case musaMemPoolAttrReservedMemHigh:
  case musaMemPoolAttrUsedMemHigh: {
    // A watermark can only be reset (to 0), which restarts it at the current value.
    if (*static_cast<const uint64_t *>(value) != 0)
      return musaErrorInvalidValue;
    if (attr == musaMemPoolAttrReservedMemHigh)
      pool.reservedHigh = pool.reservedCurrent;
    else
      pool.usedHigh = pool.usedCurrent;
    return musaSuccess;
  }
  default:
    return musaErrorInvalidValue; // the currents are read-only; unknown attributes
  }
}

musaError_t MemoryPools::setAccess(MemoryPool &pool, const musaMemAccessDesc *descs,
                                   size_t count) {
  // Validate every descriptor before changing anything.
  for (size_t i = 0; i < count; ++i) {
    const musaMemAccessDesc &d = descs[i];
    if (d.location.type != musaMemLocationTypeDevice)
      return musaErrorInvalidValue;
    if (!Runtime::get().device(d.location.id))
      return musaErrorInvalidDevice;
    // Pools map memory read-write or not at all (CUDA refuses read-only for pools).
    if (d.flags != musaMemAccessFlagsProtNone && d.flags != musaMemAccessFlagsProtReadWrite)
      return musaErrorInvalidValue;
    // The pool's own device always has read-write access.
    if (d.location.id == pool.props.location.id && d.flags != musaMemAccessFlagsProtReadWrite)
      return musaErrorInvalidValue;
  }
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < count; ++i)
    if (descs[i].location.id != pool.props.location.id)
      pool.peerAccess[descs[i].location.id] = descs[i].flags;
  return musaSuccess;
}

musaError_t MemoryPools::getAccess(MemoryPool &pool, const musaMemLocation &where,
                                   musaMemAccessFlags &flags) {
  if (where.type != musaMemLocationTypeDevice)
    return musaErrorInvalidValue;
  if (!Runtime::get().device(where.id))
    return musaErrorInvalidDevice;
  std::lock_guard lock(mutex_);
  if (where.id == pool.props.location.id) {
    flags = musaMemAccessFlagsProtReadWrite;
    return musaSuccess;
  }
  auto it = pool.peerAccess.find(where.id);
  flags = it == pool.peerAccess.end() ? musaMemAccessFlagsProtNone : it->second;
  return musaSuccess;
}

void MemoryPools::reset() {
  std::lock_guard lock(mutex_);
  blocks_.clear(); // DeviceMemory::freeAll took the memory
  pools_.clear();
  default_ = current_ = makeDefault();
}

void releasePoolMemoryAboveThresholds() {
  Runtime &rt = Runtime::get();
  for (int i = 0; i < rt.deviceCount(); ++i)
    rt.device(i)->pools.releaseAboveThreshold();
}

MemoryPool *findPool(musaMemPool_t handle, Device **device) {
  auto id = uint64_t(reinterpret_cast<uintptr_t>(handle));
  if (!id)
    return nullptr;
  Runtime &rt = Runtime::get();
  for (int i = 0; i < rt.deviceCount(); ++i)
    if (MemoryPool *pool = rt.device(i)->pools.live(id)) {
      if (device)
        *device = rt.device(i);
      return pool;
    }
  return nullptr;
}

} // namespace musa::rt
