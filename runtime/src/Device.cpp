// A device: its stream queues and their ordering in simulated time, synchronisation, reset,
// events and their stamps, and the graph memory it reserves.
#include "Runtime.h"

#include "Capture.h"
#include "FatBinaryRegistry.h"
#include "SharedEvent.h"
#include "backend/Backend.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <unistd.h>

namespace musa::rt {

Device::Device(int ordinal, sim::DeviceProfile profile)
    : ordinal_(ordinal), profile_(std::move(profile)),
      memory_(std::make_unique<sim::DeviceMemory>(profile_.totalGlobalMem)),
      legacy_(std::make_shared<Stream>()) {
  legacy_->device = this;
  legacy_->legacy = true;
}

uint64_t Device::submit(Stream &stream, std::function<void()> op) {
  // Each wait holds its stream, so a stream destroyed meanwhile stays alive until then.
  std::vector<std::pair<std::shared_ptr<Stream>, uint64_t>> waits;
  if (stream.legacy) {
    std::lock_guard lock(streamsMutex_);
    for (auto &[raw, s] : streams_)
      if (!(s->flags & musaStreamNonBlocking))
        waits.push_back({s, s->queue.lastTicket()});
  } else if (!(stream.flags & musaStreamNonBlocking)) {
    waits.push_back({legacy_, legacy_->queue.lastTicket()});
  }
  // The operation runs with its stream's timeline current; in simulated time it starts no
  // earlier than the work it waited for, nor than what the host had seen when it was issued.
  double floor = hostNowNs();
  return stream.queue.enqueue([&stream, floor, waits = std::move(waits), op = std::move(op)] {
    sim::TimelineScope scope(&stream.timeline);
    // The start is computed before it is published: another stream whose operation waits for
    // this stream's earlier ticket reads its timeline meanwhile, and must not see this
    // operation's floor (the host time of a later call) before this operation has run.
    double ready = std::max(stream.timeline.readyNs.load(), floor);
    stream.timeline.aheadNs = std::max(0.0, stream.timeline.readyNs.load() - floor);
    for (auto &[other, ticket] : waits) {
      other->queue.waitUntil(ticket);
      ready = std::max(ready, other->timeline.readyNs.load());
    }
    stream.timeline.readyNs = ready;
    op();
  });
}

void Device::hostLaunchCall() {
  if (!sim::timingModelOn())
    return;
  const uint32_t k = launchesSinceWait_.fetch_add(1, std::memory_order_relaxed);
  const double cold = std::exp(-double(k) / profile_.hostLaunchWarmupCalls);
  double step = (profile_.hostLaunchUs + profile_.hostLaunchColdUs * cold) * 1000,
         seen = hostNow_.load();
  while (!hostNow_.compare_exchange_weak(seen, seen + step)) {
  }
}

void Device::hostCall(double us) {
  if (!sim::timingModelOn())
    return;
  double seen = hostNow_.load();
  while (!hostNow_.compare_exchange_weak(seen, seen + us * 1000)) {
  }
}

void Device::observe(double ns) {
  launchesSinceWait_.store(0, std::memory_order_relaxed); // the host waited: its launch path cools
  double seen = hostNow_.load();
  while (ns > seen && !hostNow_.compare_exchange_weak(seen, ns)) {
  }
}

void Device::synchronize() {
  // Streams retired before this call: their work counts as this device's work.
  std::unique_lock retiringLock(retiringMutex_);
  uint64_t retiredBefore = retireCount_;
  retired_.wait(retiringLock,
                [&] { return retiring_.empty() || *retiring_.begin() > retiredBefore; });
  retiringLock.unlock();
  legacy_->queue.synchronize();
  observe(*legacy_);
  std::vector<std::shared_ptr<Stream>> streams;
  {
    std::lock_guard lock(streamsMutex_);
    for (auto &entry : streams_)
      streams.push_back(entry.second);
  }
  for (auto &s : streams) {
    s->queue.synchronize();
    observe(*s);
  }
}

void Device::retire(Stream *stream) {
  uint64_t key;
  {
    std::lock_guard lock(retiringMutex_);
    key = ++retireCount_;
    retiring_.insert(key);
  }
  stream->queue.retire([this, stream, key] {
    std::unique_ptr<Stream> owned(stream); // freed on its own worker, after its work
    owned.reset();
    {
      std::lock_guard lock(retiringMutex_);
      retiring_.erase(key);
    }
    retired_.notify_all();
  });
}

std::shared_ptr<Stream> Device::createStream(unsigned flags, int priority, bool perThread) {
  std::shared_ptr<Stream> stream(std::make_unique<Stream>().release(),
                                 [this](Stream *s) { retire(s); });
  stream->device = this;
  stream->flags = flags;
  stream->priority = priority;
  stream->perThread = perThread;
  std::lock_guard lock(streamsMutex_);
  streams_[stream.get()] = stream;
  return stream;
}

bool Device::destroyStream(Stream *stream) {
  std::shared_ptr<Stream> owned = findStream(stream);
  if (!owned)
    return false;
  Capture::streamDestroyed(*owned); // a capture in progress ends invalidated
  {
    std::lock_guard lock(streamsMutex_);
    auto it = streams_.find(stream);
    if (it == streams_.end())
      return false; // destroyed by another thread meanwhile
    streams_.erase(it);
  }
  // Returns at once: pending work still completes, and whoever holds the stream last (this
  // call, or work waiting on it) retires it without waiting.
  return true;
}

uint64_t GraphMemoryPool::reserve(const void *p, size_t size) {
  std::lock_guard lock(mutex);
  uint64_t id = ++nextId;
  blocks[p] = {size, false, id};
  reservedCurrent += size;
  reservedHigh = std::max(reservedHigh, reservedCurrent);
  return id;
}

bool GraphMemoryPool::release(const void *p, uint64_t id) {
  std::lock_guard lock(mutex);
  auto it = blocks.find(p);
  if (it == blocks.end() || it->second.id != id)
    return false;
  if (it->second.inUse)
    usedCurrent -= it->second.size;
  reservedCurrent -= it->second.size;
  blocks.erase(it);
  return true;
}

void GraphMemoryPool::clear() {
  std::lock_guard lock(mutex);
  blocks.clear();
  usedCurrent = reservedCurrent = 0;
}

void GraphMemoryPool::setInUse(const void *p, bool inUse) {
  std::lock_guard lock(mutex);
  auto it = blocks.find(p);
  if (it == blocks.end() || it->second.inUse == inUse)
    return;
  it->second.inUse = inUse;
  if (inUse) {
    usedCurrent += it->second.size;
    usedHigh = std::max(usedHigh, usedCurrent);
  } else {
    usedCurrent -= it->second.size;
  }
}

bool GraphMemoryPool::inUse(const void *p) {
  std::lock_guard lock(mutex);
  auto it = blocks.find(p);
  return it != blocks.end() && it->second.inUse;
}

bool GraphMemoryPool::owns(const void *p) {
  std::lock_guard lock(mutex);
  return blocks.count(p) != 0;
}

void Device::forEachStream(const std::function<void(Stream &)> &fn) {
  std::vector<std::shared_ptr<Stream>> all{legacy_};
  {
    std::lock_guard lock(streamsMutex_);
    for (auto &entry : streams_)
      all.push_back(entry.second);
  }
  for (auto &s : all)
    fn(*s);
}

bool Device::heldByHost(const Stream &stream) {
  if (*stream.hostHolds > 0)
    return true;
  if (stream.flags & musaStreamNonBlocking)
    return false;
  if (!stream.legacy)
    return *legacy_->hostHolds > 0;
  std::lock_guard lock(streamsMutex_);
  for (auto &[raw, s] : streams_)
    if (!(s->flags & musaStreamNonBlocking) && *s->hostHolds > 0)
      return true;
  return false;
}

std::function<void()> holdsForHost(Stream &stream, std::function<void()> op) {
  if (backend::mode() != backend::Mode::Diff) // only differential mode reads the count
    return op;
  struct Hold {
    std::shared_ptr<std::atomic<int>> count;
    explicit Hold(std::shared_ptr<std::atomic<int>> c) : count(std::move(c)) { ++*count; }
    ~Hold() { --*count; }
  };
  auto hold = std::make_shared<Hold>(stream.hostHolds);
  return [hold = std::move(hold), op = std::move(op)]() mutable {
    op();
    hold.reset();
  };
}

std::shared_ptr<Stream> Device::findStream(const Stream *stream) {
  std::lock_guard lock(streamsMutex_);
  auto it = streams_.find(stream);
  return it == streams_.end() ? nullptr : it->second;
}

void Device::setStickyError(musaError_t error) {
  musaError_t expected = musaSuccess;
  sticky_.compare_exchange_strong(expected, error);
}

void Device::reset() {
  synchronize();
  std::map<const Stream *, std::shared_ptr<Stream>> streams;
  {
    std::lock_guard lock(streamsMutex_);
    streams.swap(streams_); // holders elsewhere keep theirs alive until done
  }
  streams.clear();
  std::map<const Event *, std::shared_ptr<Event>> events;
  {
    std::lock_guard lock(eventsMutex_);
    events.swap(events_); // calls using one keep it until they return
  }
  events.clear();
  memory_->freeAll();
  graphMemory.clear(); // graphs still holding allocation nodes must not free the addresses
  pools.reset();
  heap.reset();
  {
    std::lock_guard lock(limitsMutex);
    limits = DeviceLimits{}; // limits belong to the context a reset destroys
  }
  {
    std::lock_guard lock(peerMutex);
    peers.clear();
  }
  flags = 0;
  sticky_ = musaSuccess;
}

std::shared_ptr<Event> Device::createEvent(unsigned eventFlags,
                                           std::shared_ptr<SharedEventPage> shared) {
  auto event = std::make_shared<Event>();
  event->device = this;
  event->flags = eventFlags;
  if (eventFlags & musaEventInterprocess) {
    event->shared = shared ? std::move(shared) : SharedEventPage::create();
    if (!event->shared)
      return nullptr;
  }
  std::lock_guard lock(eventsMutex_);
  events_[event.get()] = event;
  return event;
}

bool Device::destroyEvent(const Event *event) {
  std::shared_ptr<Event> owned; // freed outside the lock, by its last holder
  std::lock_guard lock(eventsMutex_);
  auto it = events_.find(event);
  if (it == events_.end())
    return false;
  owned = std::move(it->second);
  events_.erase(it);
  return true;
}

std::shared_ptr<Event> Device::findEvent(const Event *event) {
  std::lock_guard lock(eventsMutex_);
  auto it = events_.find(event);
  return it == events_.end() ? nullptr : it->second;
}

std::shared_ptr<EventStamp> Event::newStamp() {
  std::shared_ptr<EventStamp> next =
      shared ? shared->stampForNextRecord() : std::make_shared<LocalStamp>();
  std::lock_guard lock(mutex);
  stamp = next;
  return next;
}

std::shared_ptr<EventStamp> Event::latestStamp() {
  if (shared)
    return shared->stampForLatestRecord();
  std::lock_guard lock(mutex);
  return stamp;
}

void LocalStamp::complete(double timeMs) {
  {
    std::lock_guard lock(mutex_);
    timeMs_ = timeMs;
    done_ = true;
  }
  doneCv_.notify_all();
}

bool LocalStamp::done() const {
  std::lock_guard lock(mutex_);
  return done_;
}

void LocalStamp::wait() const {
  std::unique_lock lock(mutex_);
  doneCv_.wait(lock, [&] { return done_; });
}

} // namespace musa::rt
