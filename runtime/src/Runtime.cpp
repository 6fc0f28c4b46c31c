// Devices, streams and pinned host memory.
#include "Runtime.h"

#include "Capture.h"
#include "FatBinaryRegistry.h"
#include "SharedEvent.h"

#include <algorithm>
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
    stream.timeline.readyNs = std::max(stream.timeline.readyNs.load(), floor);
    for (auto &[other, ticket] : waits) {
      other->queue.waitUntil(ticket);
      stream.timeline.readyNs =
          std::max(stream.timeline.readyNs.load(), other->timeline.readyNs.load());
    }
    op();
  });
}

void Device::hostLaunchCall() {
  if (!sim::timingModelOn())
    return;
  double step = profile_.hostLaunchUs * 1000, seen = hostNow_.load();
  while (!hostNow_.compare_exchange_weak(seen, seen + step)) {
  }
}

void Device::observe(double ns) {
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

namespace {

/// The default profile: MUSA_SIM_PROFILE, else the architecture the program was built for.
std::vector<std::string> profileIds() {
  std::vector<std::string> ids;
  if (const char *env = std::getenv("MUSA_SIM_PROFILE"); env && *env) {
    std::stringstream list(env);
    for (std::string id; std::getline(list, id, ',');)
      if (!id.empty())
        ids.push_back(id);
  }
  if (ids.empty()) {
    unsigned arch = FatBinaryRegistry::get().firstArch();
    ids.push_back(arch == 31 ? "mtt-s5000" : arch == 21 ? "mtt-s80" : "mtt-s4000");
  }
  int count = 1;
  if (const char *env = std::getenv("MUSA_SIM_DEVICE_COUNT"); env && *env)
    count = std::atoi(env);
  while (int(ids.size()) < count)
    ids.push_back(ids.back());
  return ids;
}

thread_local int threadDevice = 0;

/// The calling thread's per-thread default stream on each device (created on first use; the
/// device owns it, so musaDeviceReset reclaims it and the next use creates a fresh one). When
/// the thread ends its streams are destroyed: their work still completes, then their worker
/// threads end (Device::createStream), as they would for musaStreamDestroy.
struct PerThreadStreams {
  std::map<Device *, std::shared_ptr<Stream>> byDevice;
  ~PerThreadStreams() {
    for (auto &[device, stream] : byDevice)
      device->destroyStream(stream.get());
  }
};
thread_local PerThreadStreams perThreadStreams;

} // namespace

Runtime &Runtime::get() {
  // Never destroyed: stream workers and atexit handlers may still use it while the process
  // exits, and the OS reclaims everything anyway.
  static Runtime *runtime = std::unique_ptr<Runtime>(new Runtime()).release();
  return *runtime;
}

namespace {
std::atomic<bool> unloading{false};
} // namespace

bool runtimeUnloading() noexcept { return unloading.load(std::memory_order_relaxed); }

Runtime::Runtime() {
  // Static objects constructed before this point are destroyed after the handler has run:
  // their destructors' calls get musaErrorCudartUnloading (CUDA's order too); work still
  // queued is dropped with the process.
  std::atexit([] {
    unloading = true;
    // Work still queued is dropped and running grids stop at their next block; waiting for
    // them (briefly: a host function may never return) keeps them from running while the
    // libraries under them (oneTBB's scheduler among them) are torn down.
    sim::abandonWork();
    sim::quiesce(2000);
  });
  std::vector<std::string> ids = profileIds();
  for (size_t i = 0; i < ids.size(); ++i) {
    std::string error;
    auto profile = sim::DeviceProfile::load(ids[i], error);
    if (!profile) {
      initError_ = "invalid device profile: " + error;
      std::fprintf(stderr, "musa-sim: %s\n", initError_.c_str());
      devices_.clear();
      return;
    }
    devices_.push_back(std::make_unique<Device>(int(i), std::move(*profile)));
  }
}

Device *Runtime::device(int ordinal) {
  if (ordinal < 0 || ordinal >= int(devices_.size()))
    return nullptr;
  return devices_[size_t(ordinal)].get();
}

Device *Runtime::currentDevice() { return device(threadDevice); }
int Runtime::currentOrdinal() const { return threadDevice; }
void Runtime::setCurrentOrdinal(int ordinal) { threadDevice = ordinal; }

std::shared_ptr<Stream> Runtime::resolveStream(musaStream_t handle) {
  Device *current = currentDevice();
  if (!current)
    return nullptr;
  if (handle == nullptr || handle == musaStreamLegacy)
    return current->legacyStreamHandle();
  if (handle == musaStreamPerThread) {
    std::shared_ptr<Stream> &mine = perThreadStreams.byDevice[current];
    if (!mine || !current->findStream(mine.get()))
      mine = current->createStream(musaStreamDefault, 0, true);
    return mine;
  }
  auto *stream = reinterpret_cast<const Stream *>(handle);
  for (auto &d : devices_)
    if (auto live = d->findStream(stream))
      return live;
  return nullptr;
}

std::shared_ptr<Event> Runtime::resolveEvent(musaEvent_t handle) {
  auto *event = reinterpret_cast<const Event *>(handle);
  if (!event)
    return nullptr;
  for (auto &d : devices_)
    if (auto live = d->findEvent(event))
      return live;
  return nullptr;
}

Device *Runtime::deviceOwning(const void *p) {
  for (auto &d : devices_)
    if (d->memory().owns(p))
      return d.get();
  return nullptr;
}

void *Runtime::allocateHost(size_t size, unsigned flags) {
  // Page-locked memory cannot exceed the host's physical memory: larger requests fail as
  // out of memory (and never reach the allocator with a size its rounding would wrap).
  static const uint64_t physical = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
  if (size > physical)
    return nullptr;
  void *p = std::aligned_alloc(4096, (size + 4095) / 4096 * 4096);
  if (!p)
    return nullptr;
  std::lock_guard lock(hostMutex_);
  host_[uintptr_t(p)] = {static_cast<char *>(p), size, flags, false};
  return p;
}

bool Runtime::freeHost(void *p) {
  {
    std::lock_guard lock(hostMutex_);
    auto it = host_.find(uintptr_t(p));
    if (it == host_.end() || it->second.registered)
      return false;
    host_.erase(it);
  }
  std::free(p);
  return true;
}

musaError_t Runtime::registerHost(void *p, size_t size, unsigned flags) {
  std::lock_guard lock(hostMutex_);
  uintptr_t start = uintptr_t(p), end = start + size;
  auto next = host_.lower_bound(start);
  if (next != host_.end() && next->first < end)
    return musaErrorHostMemoryAlreadyRegistered;
  if (next != host_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second.size > start)
      return musaErrorHostMemoryAlreadyRegistered;
  }
  host_[start] = {static_cast<char *>(p), size, flags, true};
  return musaSuccess;
}

bool Runtime::unregisterHost(void *p) {
  std::lock_guard lock(hostMutex_);
  auto it = host_.find(uintptr_t(p));
  if (it == host_.end() || !it->second.registered)
    return false;
  host_.erase(it);
  return true;
}

std::optional<Runtime::HostRange> Runtime::findHost(const void *p) {
  std::lock_guard lock(hostMutex_);
  auto it = host_.upper_bound(uintptr_t(p));
  if (it == host_.begin())
    return std::nullopt;
  --it;
  if (uintptr_t(p) >= it->first + it->second.size)
    return std::nullopt;
  return it->second;
}

std::optional<Runtime::DevicePointer> Runtime::findDevicePointer(const void *p) {
  if (Device *d = deviceOwning(p)) {
    auto range = d->memory().find(p);
    if (!range)
      return std::nullopt;
    return DevicePointer{d, *range};
  }
  std::lock_guard lock(symbolsMutex_);
  auto it = symbols_.upper_bound(uintptr_t(p));
  if (it == symbols_.begin())
    return std::nullopt;
  --it;
  if (uintptr_t(p) >= it->first + it->second || !currentDevice())
    return std::nullopt;
  return DevicePointer{currentDevice(),
                       {reinterpret_cast<char *>(it->first), it->second, SymbolAllocation}};
}

void Runtime::registerSymbolRange(char *base, size_t size) {
  std::lock_guard lock(symbolsMutex_);
  symbols_[uintptr_t(base)] = size;
}

} // namespace musa::rt
