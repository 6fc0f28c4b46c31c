// The runtime's live state: simulated devices, streams and host allocations.
//
// Mutable global state is deliberate here: the MUSA API is a process-wide C interface. It is
// created on first use (Runtime::get) and every table is guarded by its own mutex.
#pragma once

#include "musa_runtime_api.h"

#include "MemoryPool.h"

#include "musa/graph/Capture.h"
#include "musa/graph/Graph.h"
#include "musa/sim/DeviceHeap.h"
#include "musa/sim/DeviceMemory.h"
#include "musa/sim/DeviceProfile.h"
#include "musa/sim/StreamQueue.h"
#include "musa/sim/Timing.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace musa::rt {

class Device;
struct Capture;

/// Allocation tags in DeviceMemory (what kind of device allocation a range is).
enum AllocationTag : uint32_t {
  PlainAllocation = 0,
  ManagedAllocation = 1,
  ArrayAllocation = 2,
  IpcAllocation = 3, // another process's memory, mapped by musaIpcOpenMemHandle
  SymbolAllocation = 4, // a __device__ / __constant__ variable (lives in JIT'd code's data)
  GraphAllocation = 5,  // made by a graph's memory allocation node
  PoolAllocation = 6,   // stream-ordered, from a memory pool (MemoryPool.h)
  HeapAllocation = 7,   // the device heap of malloc()/new in kernels (one range)
  VirtualAllocation = 8, // a mapping of the driver API's muMemMap (VirtualMemoryApi.cpp)
  ExternalAllocation = 9, // a buffer mapped from external memory (ExternalMemoryApi.cpp)
  PoolImportAllocation = 10 // a pool allocation another pool exported (PoolSharingApi.cpp)
};

class Device;
/// musaFree of a buffer mapped from external memory: unmaps it; false if `p` is not one.
bool freeExternalBuffer(Device &device, void *p);

/// L2 persistence as CUDA reports it on every GPU since compute capability 8.0: up to three
/// quarters of the L2 may be set aside for persisting accesses (musaLimitPersistingL2CacheSize,
/// persistingL2CacheMaxSize), and an access policy window spans at most 128 MiB
/// (accessPolicyMaxWindowSize; both measured on the H200: 39321600 and 134217728). The simulator's L2 has no set-aside part: these are the
/// figures programs size their windows by, and the values they set are kept and read back.
inline size_t persistingL2MaxSize(const sim::DeviceProfile &p) {
  return size_t(p.l2CacheSize) / 4 * 3;
}
inline constexpr size_t AccessPolicyMaxWindowSize = 134217728;

/// The priority range every simulated device reports (CUDA's on current GPUs): 0 is the least
/// urgent, -5 the most; requests outside the range are clamped, as CUDA does.
inline constexpr int LeastPriority = 0, GreatestPriority = -5;
inline int clampPriority(int priority) {
  return std::clamp(priority, GreatestPriority, LeastPriority);
}

/// CUDA's checks of an access policy window (streams and kernel nodes): it spans at most
/// AccessPolicyMaxWindowSize bytes, hitRatio lies in [0, 1], the properties are named ones and
/// a miss cannot persist.
inline bool validAccessPolicyWindow(const musaAccessPolicyWindow &w) {
  auto named = [](musaAccessProperty p) {
    return p == musaAccessPropertyNormal || p == musaAccessPropertyStreaming ||
           p == musaAccessPropertyPersisting;
  };
  return w.num_bytes <= AccessPolicyMaxWindowSize && w.hitRatio >= 0.0f && w.hitRatio <= 1.0f &&
         named(w.hitProp) && named(w.missProp) && w.missProp != musaAccessPropertyPersisting;
}

/// musaDeviceSetLimit's values other than the heap size (which DeviceHeap keeps).
struct DeviceLimits {
  size_t stackSize = 1024;          // bytes per thread, CUDA's default
  size_t printfFifoSize = 8650752;  // bytes, what the H100 and H200 report (CUDA 13)
  size_t pendingLaunchCount = 2048; // device-side launches waiting to run, CUDA's default
  size_t maxL2FetchGranularity = 64;
  size_t persistingL2CacheSize = 0;
};

/// Memory of graph allocation nodes on one device: reserved while a graph holds the node,
/// in use between the node's run and its free (a free node, musaFree or musaFreeAsync).
struct GraphMemoryPool {
  std::mutex mutex;
  uint64_t usedCurrent = 0, usedHigh = 0, reservedCurrent = 0, reservedHigh = 0;
  struct Block {
    size_t size;
    bool inUse;
    uint64_t id;
  };
  std::map<const void *, Block> blocks;
  uint64_t nextId = 0;
  /// Returns the reservation's id, which release() needs.
  uint64_t reserve(const void *p, size_t size);
  /// False if reservation `id` of `p` is gone (musaDeviceReset freed all device memory; the
  /// address may belong to another allocation by now, which must not be freed).
  bool release(const void *p, uint64_t id);
  /// musaDeviceReset: every reservation is gone with the device's memory.
  void clear();
  void setInUse(const void *p, bool inUse);
  bool owns(const void *p);
  bool inUse(const void *p);
};

/// A stream: an in-order queue on one device. The handle users hold is a Stream*.
struct Stream {
  /// musaStreamGetId: unique among the process's streams, never reused.
  static inline std::atomic<unsigned long long> lastId{0};
  const unsigned long long id = ++lastId;
  Device *device = nullptr;
  unsigned flags = musaStreamDefault;
  std::atomic<int> priority = 0; // lower is more urgent, as in CUDA
  // Stream attributes (musaStreamSetAttribute): kept and read back; the simulated L2 has no
  // persisting part, and host waits are condition-variable waits whatever the policy.
  std::mutex attributesMutex;
  musaAccessPolicyWindow accessPolicyWindow{};
  musaSynchronizationPolicy syncPolicy = musaSyncPolicyAuto;
  bool legacy = false; // the device's stream 0
  bool perThread = false;
  sim::StreamQueue queue;
  /// Simulated time of this stream's work (read and written only by its operations).
  sim::Timeline timeline;
  // Stream capture (Capture.h): the capture this stream records into, and the nodes the next
  // captured operation depends on. `capture` is atomic: any thread may ask whether a stream
  // captures while another ends the capture; `captureTail` is guarded by the capture's mutex.
  std::atomic<std::shared_ptr<Capture>> capture;
  graph::CaptureTail captureTail;
  /// Operations queued here that wait for the host program and have not finished: host
  /// functions, callbacks, external semaphore waits (holdsForHost; counted in differential
  /// mode only). Differential mode does not wait for a stream they hold: the program may
  /// release it only later.
  std::shared_ptr<std::atomic<int>> hostHolds = std::make_shared<std::atomic<int>>(0);
};

/// `op` counted in `stream.hostHolds` from now until it has run (or is dropped unrun); in
/// any mode but differential, `op` itself.
std::function<void()> holdsForHost(Stream &stream, std::function<void()> op);

/// The point an event marks in a stream: completed when the stream's work before it is done.
class EventStamp {
public:
  virtual ~EventStamp() = default;
  virtual void complete(double timeMs) = 0;
  virtual bool done() const = 0;
  virtual void wait() const = 0;
  virtual double timeMs() const = 0;
};

/// A stamp seen only by this process.
class LocalStamp final : public EventStamp {
public:
  void complete(double timeMs) override;
  bool done() const override;
  void wait() const override;
  double timeMs() const override { return timeMs_; }

private:
  mutable std::mutex mutex_;
  mutable std::condition_variable doneCv_;
  bool done_ = false;
  double timeMs_ = 0;
};

/// The time an event record stamps: the running operation's simulated time under the timing
/// model (its timeline's end so far), host wall-clock time with MUSA_SIM_TIMING=wall.
double stampTimeMs();
/// Waits for `stamp`; in simulated time the running operation's timeline moves on to it.
void waitForStamp(const EventStamp &stamp);

class SharedEventPage; // interprocess event state (SharedEvent.h)

/// An event. Each record replaces the stamp; waits hold the stamp they saw, so destroying or
/// re-recording an event never disturbs work already waiting on it. An interprocess event
/// keeps its state in a page shared with the processes that opened its handle.
struct Event {
  Device *device = nullptr;
  unsigned flags = musaEventDefault;
  std::mutex mutex;
  std::shared_ptr<EventStamp> stamp; // local events: null until first recorded
  std::shared_ptr<SharedEventPage> shared; // interprocess events
  // Recorded during a stream capture: the capture, and the nodes a stream that waits on the
  // event comes to depend on (the recording stream's dependencies then: fork and join).
  std::weak_ptr<Capture> capturedIn;
  std::vector<graph::Node *> capturedDeps;

  /// A stamp for a new record of this event.
  std::shared_ptr<EventStamp> newStamp();
  /// The stamp of the latest record (in any process, for interprocess events), or null.
  std::shared_ptr<EventStamp> latestStamp();
};

class Device {
public:
  Device(int ordinal, sim::DeviceProfile profile);

  int ordinal() const { return ordinal_; }
  const sim::DeviceProfile &profile() const { return profile_; }
  sim::DeviceMemory &memory() { return *memory_; }
  Stream &legacyStream() { return *legacy_; }
  const std::shared_ptr<Stream> &legacyStreamHandle() { return legacy_; }

  /// Enqueues `op` on `stream` with legacy-default-stream ordering: work on the legacy stream
  /// waits for all earlier work on blocking streams, and work on a blocking stream waits for
  /// earlier legacy-stream work. Non-blocking streams order only with themselves.
  /// Returns the ticket of the operation in `stream`'s queue.
  uint64_t submit(Stream &stream, std::function<void()> op);
  /// Waits for all work on all of this device's streams, destroyed ones with work left
  /// included.
  void synchronize();

  /// Streams are shared: work that waits on a stream, and API calls using it, keep it alive
  /// while a concurrent musaStreamDestroy removes it from the table. When the last holder
  /// lets go, the stream retires: its queued work still runs, nobody waits for it, and the
  /// stream (its worker thread included) is freed once that work is done.
  std::shared_ptr<Stream> createStream(unsigned flags, int priority, bool perThread = false);
  /// Removes `stream` from the live streams (returns at once); false if it is not a live
  /// stream of this device.
  bool destroyStream(Stream *stream);
  /// The live stream `stream` points to, or null.
  std::shared_ptr<Stream> findStream(const Stream *stream);
  /// Calls `fn` for the legacy stream and every live user or per-thread stream.
  void forEachStream(const std::function<void(Stream &)> &fn);
  /// Whether work submitted to `stream` now would wait behind an unfinished operation that
  /// waits for the host (Stream::hostHolds), on it or, by legacy ordering, on another stream.
  bool heldByHost(const Stream &stream);

  /// The sticky error of a device fault, or musaSuccess.
  musaError_t stickyError() const { return sticky_.load(); }
  void setStickyError(musaError_t error);
  /// musaDeviceReset: waits for work, frees memory, streams and events, clears the sticky
  /// error.
  void reset();

  /// Interprocess events get a fresh shared page unless `shared` (an opened handle) is given.
  /// Events are shared like streams: an API call using one keeps it alive while another
  /// thread destroys it (musaEventDestroy, musaDeviceReset).
  std::shared_ptr<Event> createEvent(unsigned flags,
                                     std::shared_ptr<SharedEventPage> shared = nullptr);
  bool destroyEvent(const Event *event);
  /// The live event `event` points to, or null.
  std::shared_ptr<Event> findEvent(const Event *event);

  /// Flags of musaSetDeviceFlags; peer devices this one may access.
  std::atomic<unsigned> flags{0};
  std::mutex peerMutex;
  std::set<int> peers;
  /// The latest simulated time the host has waited for (synchronize calls, synchronous
  /// copies): work submitted afterwards starts no earlier, as on hardware.
  void observe(double ns);
  void observe(const Stream &stream) { observe(stream.timeline.readyNs.load()); }
  double hostNowNs() const { return hostNow_.load(); }
  /// A launch call on the host (a kernel or a graph): the host's simulated time moves on by
  /// the profile's host_launch_us (plus host_launch_cold_us, decaying over
  /// host_launch_warmup_calls, for the first calls after the host waited), so work it submits
  /// next starts no earlier (launches issued back to back run at the host's rate when kernels
  /// are shorter than that).
  void hostLaunchCall();
  /// Another call that submits work and returns before it runs (a memset of device memory):
  /// the host's simulated time moves on by `us`.
  void hostCall(double us);

private:
  int ordinal_;
  sim::DeviceProfile profile_;
  std::unique_ptr<sim::DeviceMemory> memory_;
  std::shared_ptr<Stream> legacy_;
  std::mutex streamsMutex_;
  std::map<const Stream *, std::shared_ptr<Stream>> streams_; // user and per-thread streams
  /// Streams with no holder left whose work is still running (keys in retirement order).
  std::mutex retiringMutex_;
  std::condition_variable retired_;
  std::set<uint64_t> retiring_;
  uint64_t retireCount_ = 0;
  void retire(Stream *stream);
  std::mutex eventsMutex_;
  std::map<const Event *, std::shared_ptr<Event>> events_;
  std::atomic<musaError_t> sticky_{musaSuccess};
  std::atomic<double> hostNow_{0};
  std::atomic<uint32_t> launchesSinceWait_{0}; // launch calls since the host last waited

public:
  /// Captures in progress on this device's streams.
  std::mutex capturesMutex;
  std::set<std::shared_ptr<Capture>> captures;
  GraphMemoryPool graphMemory;
  /// Stream-ordered allocation (musaMallocAsync, musaMemPool_t).
  MemoryPools pools{*this};
  /// The engines that place this device's operations in simulated time (declared after
  /// profile_, which initialises it).
  sim::DeviceClock clock{profile_.asyncEngineCount};
  sim::L2Residency l2; // what the timing model takes the device's L2 to hold
  double l2Capacity() const {
    return double(profile_.l2CacheSize) / std::max(1, profile_.l2Partitions);
  }
  /// malloc()/free() in kernels (declared after memory_, which it allocates from).
  sim::DeviceHeap heap{*memory_, HeapAllocation};
  std::mutex limitsMutex;
  DeviceLimits limits;
  /// Grids device code launched that have not completed (with their own children), against
  /// musaLimitDevRuntimePendingLaunchCount (musa/sim/ChildGrids.h).
  std::atomic<size_t> pendingDeviceLaunches{0};
};

class Runtime {
public:
  static Runtime &get();

  /// Why no device is available (bad profile), or empty.
  const std::string &initError() const { return initError_; }
  int deviceCount() const { return int(devices_.size()); }
  Device *device(int ordinal);
  /// The calling host thread's current device (null if there is none).
  Device *currentDevice();
  /// Its ordinal. A thread that never called musaSetDevice gets the first of the valid
  /// devices (setValidDevices) at its first call that asks, and keeps it.
  int currentOrdinal();
  void setCurrentOrdinal(int ordinal);
  /// musaSetValidDevices: the devices a thread that never set one may be given, in order of
  /// preference (checked by the caller); empty restores the default, every device in ordinal
  /// order. CUDA tries them in turn until one initialises: a simulated device always does, so
  /// the first is the one chosen.
  void setValidDevices(std::vector<int> devices);

  /// Resolves a stream handle: 0 and musaStreamLegacy name the current device's legacy
  /// stream, musaStreamPerThread the calling thread's own stream. Null if the handle is not a
  /// live stream.
  std::shared_ptr<Stream> resolveStream(musaStream_t handle);
  /// --default-stream per-thread (__musaSimUsePerThreadDefaultStream, called before main by
  /// the program's own constructor, so it does not create the runtime): stream 0 names the
  /// per-thread stream.
  static bool perThreadDefault();
  /// A live event, or null.
  std::shared_ptr<Event> resolveEvent(musaEvent_t handle);

  /// Device that owns the device pointer `p`, if any.
  Device *deviceOwning(const void *p);

  /// Host memory the runtime knows: allocated pinned (musaMallocHost / musaHostAlloc) or
  /// registered (musaHostRegister).
  struct HostRange {
    char *base;
    size_t size;
    unsigned flags;
    bool registered;
    int device; // current when it was allocated or registered (musaPointerGetAttributes)
  };
  void *allocateHost(size_t size, unsigned flags);
  /// False if `p` is not the start of a pinned allocation.
  bool freeHost(void *p);
  /// musaErrorHostMemoryAlreadyRegistered if [p, p+size) overlaps a known range.
  musaError_t registerHost(void *p, size_t size, unsigned flags);
  bool unregisterHost(void *p);
  /// The pinned or registered range containing `p`, if any.
  std::optional<HostRange> findHost(const void *p);

  /// Where a pointer lives: a device allocation (with its device) or known host memory.
  struct DevicePointer {
    Device *device;
    sim::DeviceMemory::Range range;
  };
  std::optional<DevicePointer> findDevicePointer(const void *p);
  /// Makes a device variable's storage count as device memory (copies, pointer queries).
  /// Variables live in the JIT'd code's data, one copy shared by all simulated devices.
  static void registerSymbolRange(char *base, size_t size);
  /// Whether a kernel may access `p` (MUSA_SIM_MEMCHECK=1 asks for addresses outside the
  /// thread's stack and shared memory): device memory of any device, pinned, mapped or
  /// registered host memory, or a device variable. Pageable host memory is not.
  static bool kernelReachable(const void *p);
  /// Whether `p` is pinned, mapped or registered host memory (GridLaunch::hostMemory).
  static bool pinnedHost(const void *p);
  /// Whether any host memory is pinned, mapped or registered now (a launch asks pinnedHost
  /// about the addresses outside device memory its blocks touch only then).
  bool anyPinnedHost();
  /// Runtime memory device code reads (or writes) directly although no API call hands it out as device
  /// memory (texture and surface records): reachable for kernelReachable, nothing else.
  static void registerKernelReadable(const void *base, size_t size);
  static void unregisterKernelReadable(const void *base);

private:
  Runtime();
  std::vector<std::unique_ptr<Device>> devices_;
  std::string initError_;
  std::mutex validMutex_;
  std::vector<int> validDevices_; // musaSetValidDevices (empty: the default order)
  std::mutex hostMutex_;
  std::map<uintptr_t, HostRange> host_;
};

} // namespace musa::rt
