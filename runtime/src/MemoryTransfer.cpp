// Validation and stream submission of copies and memsets.
#include "MemoryTransfer.h"

#include "Runtime.h"
#include "Capture.h"
#include "GraphWork.h"

#include "musa/sim/FaultGuard.h"

#include <cstdio>
#include <cstring>
#include <limits>

namespace musa::rt {

namespace {

thread_local const std::string *runningNode = nullptr; // TransferNodeScope

std::string hex(const void *p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

/// Runs `access` (the memory traffic of a copy or memset described by `what`) so that a fault
/// in it becomes `device`'s sticky musaErrorIllegalAddress with a message, as a kernel's does.
/// Nothing `access` runs may hold a lock or own memory: a fault abandons it mid-way.
void guarded(Device *device, const std::string &what, const std::function<void()> &access) {
  sim::SignalFault fault;
  bool clean = sim::runGuarded(
      [](void *fn) { (*static_cast<const std::function<void()> *>(fn))(); },
      const_cast<std::function<void()> *>(&access), fault);
  if (clean)
    return;
  std::string where = runningNode ? "graph node '" + *runningNode + "' (" + what + ")" : what;
  std::fprintf(stderr, "musa-sim: %s: illegal memory access at address %s\n", where.c_str(),
               hex(fault.address).c_str());
  if (device)
    device->setStickyError(musaErrorIllegalAddress);
}

size_t span(size_t pitch, size_t width, size_t height) {
  return height == 0 ? 0 : pitch * (height - 1) + width;
}

/// `hostWaits`: a synchronous call the host returns from only once the work is done, in
/// simulated time too (not so a memset of device memory: see transferSet).
musaError_t submit(Stream &stream, bool async, std::function<void()> op, bool hostWaits) {
  uint64_t ticket = stream.device->submit(stream, std::move(op));
  if (!async) {
    stream.queue.waitUntil(ticket);
    if (hostWaits) // the host resumes sync_return_us after the work ends
      stream.device->observe(stream.timeline.readyNs.load() +
                             stream.device->profile().syncReturnUs * 1000);
    // A synchronous copy or memset waits for the work before it, so a kernel fault there
    // (sticky from then on) is its result too, as checkCudaErrors(cudaMemcpy(...)) after a
    // launch expects.
    if (musaError_t e = stream.device->stickyError())
      return e;
  }
  return musaSuccess;
}

/// Places a finished copy or memset of `bytes` on `device`'s engines in simulated time (the
/// running operation's timeline) and reports it.
void charge(Device *device, bool copy, sim::CopyRoute route, uint64_t bytes, uint64_t rows = 1) {
  const sim::Timeline *timeline = sim::currentTimeline();
  if (!device || !sim::timingModelOn() || !timeline)
    return;
  const sim::DeviceProfile &p = device->profile();
  sim::Engine engine = copy ? sim::engineFor(route) : sim::Engine::Compute;
  sim::CopyQueue queue = sim::CopyQueue::Idle;
  if (runningNode)
    queue = sim::CopyQueue::GraphNode;
  else if (timeline->aheadNs.load() > 0)
    queue = timeline->lastEngine.load() == int(engine) ? sim::CopyQueue::SameEngine
                                                       : sim::CopyQueue::OtherEngine;
  // A graph's copy and memset nodes are on the GPU with the rest of the graph: nothing of
  // their start-up is the host's.
  const double ahead =
      runningNode ? std::numeric_limits<double>::infinity() : timeline->aheadNs.load();
  double ns = copy ? sim::copyNs(p, route, bytes, rows, queue, ahead)
                   : sim::memsetNs(p, bytes, rows, ahead);
  if (route != sim::CopyRoute::HostToHost) // it passes through L2: what the model keeps there
    device->l2.record({}, route == sim::CopyRoute::DeviceToDevice ? 2.0 * bytes : bytes,
                      device->l2Capacity()); // addresses not tracked: it only evicts
  double start = sim::chargeCurrent(device->clock, engine, ns);
  if (!sim::reportEnabled())
    return;
  static const char *const names[] = {"memcpy HtoD", "memcpy HtoD", "memcpy DtoH",
                                      "memcpy DtoH", "memcpy DtoD", "memcpy peer",
                                      "memcpy HtoH"};
  static const char *const detail[] = {"pinned", "pageable", "pinned", "pageable", "", "", ""};
  sim::ReportRow row;
  row.kind = copy ? names[int(route)] : "memset";
  row.name = copy ? detail[int(route)] : "";
  row.device = device->ordinal();
  row.startNs = start;
  row.ns = ns;
  row.bytes = bytes;
  sim::reportOperation(std::move(row));
}

sim::CopyRoute routeOf(musaMemcpyKind kind, const void *dst, const void *src, Device *dd,
                       Device *sd) {
  Runtime &rt = Runtime::get();
  switch (kind) {
  case musaMemcpyHostToDevice:
    return rt.findHost(src) ? sim::CopyRoute::HostToDevicePinned
                            : sim::CopyRoute::HostToDevicePageable;
  case musaMemcpyDeviceToHost:
    return rt.findHost(dst) ? sim::CopyRoute::DeviceToHostPinned
                            : sim::CopyRoute::DeviceToHostPageable;
  case musaMemcpyDeviceToDevice:
    return dd != sd ? sim::CopyRoute::Peer : sim::CopyRoute::DeviceToDevice;
  default:
    return sim::CopyRoute::HostToHost;
  }
}

} // namespace

Device *deviceHolding(const void *p, size_t pitch, size_t width, size_t height, bool heapToo) {
  auto where = Runtime::get().findDevicePointer(p);
  if (!where || static_cast<const char *>(p) + span(pitch, width, height) >
                    where->range.base + where->range.size ||
      (where->range.tag == HeapAllocation && !heapToo))
    return nullptr;
  return where->device;
}

musaError_t prepareCopy(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                        size_t height, musaMemcpyKind kind, std::function<void()> &work,
                        size_t slices) {
  work = nullptr;
  if (kind < musaMemcpyHostToHost || kind > musaMemcpyDefault)
    return musaErrorInvalidMemcpyDirection;
  if (width == 0 || height == 0)
    return musaSuccess;
  if (!dst || !src)
    return musaErrorInvalidValue;
  if (height > 1 && (width > dpitch || width > spitch))
    return musaErrorInvalidPitchValue;
  Runtime &rt = Runtime::get();
  if (kind == musaMemcpyDefault) {
    bool d = rt.findDevicePointer(dst).has_value(), s = rt.findDevicePointer(src).has_value();
    kind = d ? (s ? musaMemcpyDeviceToDevice : musaMemcpyHostToDevice)
             : (s ? musaMemcpyDeviceToHost : musaMemcpyHostToHost);
  }
  bool dstDevice = kind == musaMemcpyHostToDevice || kind == musaMemcpyDeviceToDevice;
  bool srcDevice = kind == musaMemcpyDeviceToHost || kind == musaMemcpyDeviceToDevice;
  Device *dd = dstDevice ? deviceHolding(dst, dpitch, width, height) : nullptr;
  Device *sd = srcDevice ? deviceHolding(src, spitch, width, height) : nullptr;
  if ((dstDevice && !dd) || (srcDevice && !sd))
    return musaErrorInvalidValue; // not (wholly) inside a live device allocation
  for (Device *d : {dd, sd})
    if (d && d->stickyError())
      return d->stickyError();
  auto *to = static_cast<char *>(dst);
  auto *from = static_cast<const char *>(src);
  sim::CopyRoute route = routeOf(kind, dst, src, dd, sd);
  Device *clockDevice = sd ? sd : (dd ? dd : rt.currentDevice());
  std::string what = "memcpy of " + std::to_string(width * height) + " B from " + hex(src) +
                     " to " + hex(dst);
  work = [=] {
    guarded(clockDevice, what, [=] {
      // memmove: overlapping ranges are undefined on hardware; this keeps the data intact.
      if (dpitch == width && spitch == width)
        std::memmove(to, from, width * height);
      else
        for (size_t row = 0; row < height; ++row)
          std::memmove(to + row * dpitch, from + row * spitch, width);
    });
    if (slices)
      charge(clockDevice, true, route, uint64_t(width) * height * slices, height * slices);
  };
  return musaSuccess;
}

musaError_t prepareSet(void *dst, size_t pitch, unsigned value, size_t elementSize, size_t width,
                       size_t height, std::function<void()> &work) {
  work = nullptr;
  if (elementSize != 1 && elementSize != 2 && elementSize != 4)
    return musaErrorInvalidValue;
  size_t rowBytes = width * elementSize;
  if (rowBytes == 0 || height == 0)
    return musaSuccess;
  if (!dst)
    return musaErrorInvalidValue;
  if (height > 1 && rowBytes > pitch)
    return musaErrorInvalidPitchValue;
  Device *device = deviceHolding(dst, pitch, rowBytes, height, true);
  if (!device)
    return musaErrorInvalidValue;
  if (musaError_t e = device->stickyError())
    return e;
  auto *to = static_cast<char *>(dst);
  std::string what = "memset of " + std::to_string(rowBytes * height) + " B at " + hex(dst);
  work = [=] {
    guarded(device, what, [=] {
      for (size_t row = 0; row < height; ++row) {
        char *line = to + row * pitch;
        if (elementSize == 1) {
          std::memset(line, int(value & 0xff), width);
          continue;
        }
        for (size_t i = 0; i < width; ++i)
          std::memcpy(line + i * elementSize, &value, elementSize); // little-endian low bytes
      }
    });
    // Rows with gaps between them are written one by one.
    charge(device, false, sim::CopyRoute::DeviceToDevice, uint64_t(rowBytes) * height,
           height > 1 && pitch > rowBytes ? height : 1);
  };
  return musaSuccess;
}

TransferNodeScope::TransferNodeScope(const std::string &label) : outer_(runningNode) {
  runningNode = &label;
}
TransferNodeScope::~TransferNodeScope() { runningNode = outer_; }

musaError_t submitWork(std::function<void()> work, musaStream_t streamHandle, bool async,
                       bool isCopy, const std::string &label, bool hostWaits) {
  Runtime &rt = Runtime::get();
  std::shared_ptr<Stream> stream = rt.resolveStream(streamHandle);
  if (!stream)
    return rt.currentDevice() ? musaErrorInvalidResourceHandle : musaErrorNoDevice;
  if (!async && Capture::active(*stream))
    return Capture::invalidateAll(*stream->device, musaErrorStreamCaptureUnsupported);
  bool captured;
  if (musaError_t e = Capture::route(
          *stream, isCopy ? graph::NodeType::Memcpy : graph::NodeType::Memset,
          [&] { return std::make_unique<TransferWork>(work, label); }, captured);
      e || captured)
    return e;
  return submit(*stream, async, std::move(work), hostWaits);
}

bool hostWaitsForCopy(const void *dst, const void *src, musaMemcpyKind kind) {
  if (kind == musaMemcpyDeviceToDevice)
    return false;
  Runtime &rt = Runtime::get();
  auto to = rt.findDevicePointer(dst), from = rt.findDevicePointer(src);
  return !(to && from && to->range.tag != ManagedAllocation &&
           from->range.tag != ManagedAllocation);
}

musaError_t transferCopy(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, musaMemcpyKind kind,
                         musaStream_t streamHandle, bool async) {
  std::function<void()> work;
  if (musaError_t e = prepareCopy(dst, dpitch, src, spitch, width, height, kind, work))
    return e;
  return work ? submitWork(std::move(work), streamHandle, async, true,
                           "memcpy " + std::to_string(width * height) + " B",
                           hostWaitsForCopy(dst, src, kind))
              : musaSuccess;
}

musaError_t transferSet(void *dst, size_t pitch, int value, size_t width, size_t height,
                        musaStream_t streamHandle, bool async) {
  std::function<void()> work;
  if (musaError_t e = prepareSet(dst, pitch, unsigned(value), 1, width, height, work))
    return e;
  // CUDA's synchronous memsets are asynchronous to the host unless they write pinned host
  // or managed memory: the host goes on at once in simulated time (here it still waits for
  // the bytes, which nothing can tell apart).
  // The call itself takes the host what the driver's rate of memsets is (the H200: 1.6 us for
  // those it puts in the command stream, 4.4 us for those it runs as a kernel).
  auto where = Runtime::get().findDevicePointer(dst);
  bool hostWaits = !where || where->range.tag == ManagedAllocation;
  if (!work)
    return musaSuccess;
  musaError_t e = submitWork(std::move(work), streamHandle, async, false,
                             "memset " + std::to_string(width * height) + " B", hostWaits);
  if (e == musaSuccess && where && (async || !hostWaits)) {
    const sim::DeviceProfile &p = where->device->profile();
    where->device->hostCall(double(width) * height > p.memsetInlineBytes ? p.memsetKernelUs
                                                                          : p.memsetLatencyUs);
  }
  return e;
}

} // namespace musa::rt
