// The runtime: its devices (one per profile), the handles programs pass (streams, events),
// pinned and registered host memory, and the exit handler.
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

thread_local int threadDevice = -1; // -1: no device set or chosen yet (currentOrdinal)

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

Device *Runtime::currentDevice() { return device(currentOrdinal()); }

int Runtime::currentOrdinal() {
  if (threadDevice < 0) {
    // The thread's first call without musaSetDevice: the runtime picks the device, once, as
    // CUDA makes a context current on the thread then.
    std::lock_guard lock(validMutex_);
    threadDevice = validDevices_.empty() ? 0 : validDevices_.front();
  }
  return threadDevice;
}

void Runtime::setCurrentOrdinal(int ordinal) { threadDevice = ordinal; }

void Runtime::setValidDevices(std::vector<int> devices) {
  std::lock_guard lock(validMutex_);
  validDevices_ = std::move(devices);
}

std::shared_ptr<Stream> Runtime::resolveStream(musaStream_t handle) {
  Device *current = currentDevice();
  if (!current)
    return nullptr;
  if (handle == nullptr && perThreadDefault())
    handle = musaStreamPerThread;
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
  const int device = currentOrdinal();
  std::lock_guard lock(hostMutex_);
  host_[uintptr_t(p)] = {static_cast<char *>(p), size, flags, false, device};
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
  const int device = currentOrdinal();
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
  host_[start] = {static_cast<char *>(p), size, flags, true, device};
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

namespace {
/// Address ranges that are not device allocations but count as device memory: device
/// variables (symbols), and runtime records device code reads. Independent of the Runtime
/// object, so the fat-binary registry can add ranges before the runtime exists (its
/// construction asks that registry for the device code's architecture), and never destroyed.
struct RangeTables {
  std::mutex mutex;
  std::map<uintptr_t, size_t> symbols, kernelReadable;
  static RangeTables &get() {
    static RangeTables *tables = new RangeTables;
    return *tables;
  }
  /// The range of `ranges` holding `p`, if any (under `mutex`).
  static std::optional<std::pair<uintptr_t, size_t>> holding(const std::map<uintptr_t, size_t> &ranges,
                                                               const void *p) {
    auto it = ranges.upper_bound(uintptr_t(p));
    if (it == ranges.begin() || uintptr_t(p) >= std::prev(it)->first + std::prev(it)->second)
      return std::nullopt;
    return *std::prev(it);
  }
};
} // namespace

std::optional<Runtime::DevicePointer> Runtime::findDevicePointer(const void *p) {
  if (Device *d = deviceOwning(p)) {
    auto range = d->memory().find(p);
    if (!range)
      return std::nullopt;
    return DevicePointer{d, *range};
  }
  RangeTables &t = RangeTables::get();
  std::optional<std::pair<uintptr_t, size_t>> symbol;
  {
    std::lock_guard lock(t.mutex);
    symbol = RangeTables::holding(t.symbols, p);
  }
  if (!symbol || !currentDevice())
    return std::nullopt;
  return DevicePointer{currentDevice(),
                       {reinterpret_cast<char *>(symbol->first), symbol->second, SymbolAllocation}};
}

bool Runtime::kernelReachable(const void *p) {
  Runtime &rt = get();
  if (rt.deviceOwning(p) || rt.findHost(p))
    return true;
  RangeTables &t = RangeTables::get();
  std::lock_guard lock(t.mutex);
  return RangeTables::holding(t.symbols, p) || RangeTables::holding(t.kernelReadable, p);
}

bool Runtime::pinnedHost(const void *p) { return get().findHost(p).has_value(); }

bool Runtime::anyPinnedHost() {
  std::lock_guard lock(hostMutex_);
  return !host_.empty();
}

void Runtime::registerKernelReadable(const void *base, size_t size) {
  RangeTables &t = RangeTables::get();
  std::lock_guard lock(t.mutex);
  t.kernelReadable[uintptr_t(base)] = size;
}

void Runtime::unregisterKernelReadable(const void *base) {
  RangeTables &t = RangeTables::get();
  std::lock_guard lock(t.mutex);
  t.kernelReadable.erase(uintptr_t(base));
}

void Runtime::registerSymbolRange(char *base, size_t size) {
  RangeTables &t = RangeTables::get();
  std::lock_guard lock(t.mutex);
  t.symbols[uintptr_t(base)] = size;
}

} // namespace musa::rt

namespace {
std::atomic<bool> perThreadDefaultStream{false};
} // namespace

bool musa::rt::Runtime::perThreadDefault() {
  return perThreadDefaultStream.load(std::memory_order_relaxed);
}

namespace musa::rt::backend {
bool perThreadDefaultStream() { return Runtime::perThreadDefault(); } // declared in Forward.h
} // namespace musa::rt::backend

extern "C" void __musaSimUsePerThreadDefaultStream(void) {
  perThreadDefaultStream.store(true, std::memory_order_relaxed);
}
