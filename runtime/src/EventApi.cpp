// Event entry points and musaStreamWaitEvent.
//
// Event times are the simulated time of the record's position in its stream (the timing
// model), or host wall-clock time when the stream reaches it (MUSA_SIM_TIMING=wall).
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Runtime.h"
#include "Capture.h"
#include "GraphWork.h"

#include <algorithm>
#include <chrono>

using namespace musa::rt;

namespace musa::rt {

double stampTimeMs() {
  sim::Timeline *timeline = sim::currentTimeline();
  if (sim::timingModelOn() && timeline)
    return timeline->readyNs.load() / 1e6;
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

void waitForStamp(const EventStamp &stamp) {
  stamp.wait();
  sim::Timeline *timeline = sim::currentTimeline();
  if (sim::timingModelOn() && timeline)
    timeline->readyNs = std::max(timeline->readyNs.load(), stamp.timeMs() * 1e6);
}

} // namespace musa::rt

namespace {

constexpr unsigned KnownEventFlags =
    musaEventBlockingSync | musaEventDisableTiming | musaEventInterprocess;

std::shared_ptr<EventStamp> currentStamp(Event &event) { return event.latestStamp(); }

musaError_t record(musaEvent_t handle, musaStream_t streamHandle, unsigned flags) {
  if (flags & ~unsigned(musaEventRecordExternal))
    return musaErrorInvalidValue;
  std::shared_ptr<Event> event = Runtime::get().resolveEvent(handle);
  if (!event)
    return musaErrorInvalidResourceHandle;
  std::shared_ptr<Stream> stream = Runtime::get().resolveStream(streamHandle);
  if (!stream)
    return musaErrorInvalidResourceHandle;
  if (stream->device != event->device)
    return musaErrorInvalidResourceHandle; // CUDA: event and stream must share a context
  if (Capture::active(*stream)) {
    // Inside a capture a record only notes the stream's dependencies: a stream that waits on
    // the event joins the capture after them (fork and join), and no node is made, as in
    // CUDA. An External record becomes an event-record node (spec/DECISIONS.md, point 9).
    std::vector<musa::graph::Node *> deps;
    if (flags & musaEventRecordExternal) {
      if (musaError_t e = Capture::addNode(*stream, musa::graph::NodeType::EventRecord,
                                           std::make_unique<EventWork>(handle, true)))
        return e;
      deps = stream->captureTail.nodes();
    } else {
      std::shared_ptr<Capture> capture = stream->capture.load();
      if (!capture)
        return musaErrorStreamCaptureInvalidated; // ended by another thread meanwhile
      std::lock_guard lock(capture->mutex);
      if (capture->invalidated)
        return musaErrorStreamCaptureInvalidated;
      deps = stream->captureTail.nodes();
    }
    std::lock_guard lock(event->mutex);
    event->capturedIn = stream->capture.load();
    event->capturedDeps = std::move(deps);
    return musaSuccess;
  }
  if (stream->legacy)
    if (musaError_t e = Capture::checkLegacyUse(*stream->device))
      return e;
  {
    std::lock_guard lock(event->mutex);
    event->capturedIn.reset(); // recorded for real again: no longer a capture's point
    event->capturedDeps.clear();
  }
  std::shared_ptr<EventStamp> stamp = event->newStamp();
  const double recordNs = stream->device->profile().eventRecordUs * 1000;
  stream->device->submit(*stream, [stamp, recordNs] {
    double timeMs = stampTimeMs();
    musa::sim::Timeline *timeline = musa::sim::currentTimeline();
    if (timeline && musa::sim::timingModelOn()) {
      // The record holds the front end: the stream's next kernel starts no earlier.
      double floor = timeMs * 1e6 + recordNs;
      if (timeline->kernelFloorNs.load() < floor)
        timeline->kernelFloorNs = floor;
    }
    // The stream's ticket and the event complete together: a query of either after the
    // other was seen complete finds it complete too.
    musa::sim::StreamQueue::completeRunning([&] { stamp->complete(timeMs); });
  });
  return musaSuccess;
}

} // namespace

extern "C" musaError_t musaEventCreateWithFlags(musaEvent_t *event, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaEventCreateWithFlags, event, flags);
  return apiCall([&] {
    if (!event || (flags & ~KnownEventFlags))
      return musaErrorInvalidValue;
    // CUDA: an interprocess event must also disable timing.
    if ((flags & musaEventInterprocess) && !(flags & musaEventDisableTiming))
      return musaErrorInvalidValue;
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    std::shared_ptr<Event> created = d->createEvent(flags);
    if (!created)
      return musaErrorMemoryAllocation; // no shared page for an interprocess event
    *event = reinterpret_cast<musaEvent_t>(created.get());
    return musaSuccess;
  });
}

extern "C" musaError_t musaEventCreate(musaEvent_t *event) {
  MUSA_BACKEND_HOOK(musaEventCreate, event);
  return musaEventCreateWithFlags(event, musaEventDefault);
}

extern "C" musaError_t musaEventRecord(musaEvent_t event, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaEventRecord, event, stream);
  return apiCall([&] { return record(event, stream, musaEventRecordDefault); });
}

extern "C" musaError_t musaEventRecordWithFlags(musaEvent_t event, musaStream_t stream,
                                                unsigned int flags) {
  MUSA_BACKEND_HOOK(musaEventRecordWithFlags, event, stream, flags);
  // Outside a capture an External record is a plain record (spec/DECISIONS.md, point 9).
  return apiCall([&] { return record(event, stream, flags); });
}

namespace {
/// Querying or waiting on an event last recorded inside a live capture conflicts with it.
bool recordedInCapture(Event &event) {
  std::lock_guard lock(event.mutex);
  auto capture = event.capturedIn.lock();
  if (!capture)
    return false;
  std::lock_guard inner(capture->mutex);
  return !capture->invalidated && !capture->ended;
}
} // namespace

extern "C" musaError_t musaEventQuery(musaEvent_t handle) {
  MUSA_BACKEND_HOOK(musaEventQuery, handle);
  return apiCall([&] {
    std::shared_ptr<Event> event = Runtime::get().resolveEvent(handle);
    if (!event)
      return musaErrorInvalidResourceHandle;
    if (recordedInCapture(*event))
      return Capture::invalidateAll(*event->device, musaErrorStreamCaptureUnsupported);
    auto stamp = currentStamp(*event);
    return !stamp || stamp->done() ? musaSuccess : musaErrorNotReady;
  });
}

extern "C" musaError_t musaEventSynchronize(musaEvent_t handle) {
  MUSA_BACKEND_HOOK(musaEventSynchronize, handle);
  return apiCall([&] {
    std::shared_ptr<Event> event = Runtime::get().resolveEvent(handle);
    if (!event)
      return musaErrorInvalidResourceHandle;
    if (recordedInCapture(*event))
      return Capture::invalidateAll(*event->device, musaErrorStreamCaptureUnsupported);
    if (auto stamp = currentStamp(*event)) {
      stamp->wait();
      if (musa::sim::timingModelOn())
        event->device->observe(stamp->timeMs() * 1e6);
    }
    releasePoolMemoryAboveThresholds();
    return event->device->stickyError();
  });
}

extern "C" musaError_t musaEventElapsedTime(float *ms, musaEvent_t startHandle,
                                            musaEvent_t endHandle) {
  MUSA_BACKEND_HOOK(musaEventElapsedTime, ms, startHandle, endHandle);
  return apiCall([&] {
    if (!ms)
      return musaErrorInvalidValue;
    std::shared_ptr<Event> start = Runtime::get().resolveEvent(startHandle);
    std::shared_ptr<Event> end = Runtime::get().resolveEvent(endHandle);
    if (!start || !end)
      return musaErrorInvalidResourceHandle;
    if ((start->flags | end->flags) & musaEventDisableTiming)
      return musaErrorInvalidResourceHandle;
    // CUDA: "cudaEventElapsedTime() will fail if the two input events are associated to
    // different devices" (their contexts' clocks are not comparable).
    if (start->device != end->device)
      return musaErrorInvalidResourceHandle;
    auto a = currentStamp(*start), b = currentStamp(*end);
    if (!a || !b)
      return musaErrorInvalidResourceHandle; // never recorded
    if (!a->done() || !b->done())
      return musaErrorNotReady;
    *ms = float(b->timeMs() - a->timeMs());
    return musaSuccess;
  });
}

extern "C" musaError_t musaEventDestroy(musaEvent_t handle) {
  MUSA_BACKEND_HOOK(musaEventDestroy, handle);
  return apiCall([&] {
    std::shared_ptr<Event> event = Runtime::get().resolveEvent(handle);
    if (!event)
      return musaErrorInvalidResourceHandle;
    // Pending records and waits hold their stamp, so they complete normally.
    return event->device->destroyEvent(event.get()) ? musaSuccess
                                                    : musaErrorInvalidResourceHandle;
  });
}

extern "C" musaError_t musaStreamWaitEvent(musaStream_t streamHandle, musaEvent_t handle,
                                           unsigned int flags) {
  MUSA_BACKEND_HOOK(musaStreamWaitEvent, streamHandle, handle, flags);
  return apiCall([&] {
    if (flags & ~unsigned(musaEventWaitExternal))
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(streamHandle);
    std::shared_ptr<Event> event = Runtime::get().resolveEvent(handle);
    if (!stream || !event)
      return musaErrorInvalidResourceHandle;
    std::shared_ptr<Capture> capture;
    std::vector<musa::graph::Node *> recorded;
    {
      std::lock_guard lock(event->mutex);
      capture = event->capturedIn.lock();
      recorded = event->capturedDeps;
    }
    if (capture) {
      // Waiting on an event recorded in a capture joins that capture (fork/join).
      std::lock_guard lock(capture->mutex);
      std::shared_ptr<Capture> own = stream->capture.load();
      if (own && own != capture) {
        // Two independent captures may not merge: both become invalid, as on hardware.
        capture->invalidated = true;
        std::lock_guard other(own->mutex);
        own->invalidated = true;
        return musaErrorStreamCaptureIsolation;
      }
      if (!own) {
        stream->capture = capture;
        stream->captureTail.clear();
      }
      stream->captureTail.merge(recorded);
      return musaSuccess;
    }
    auto stamp = currentStamp(*event);
    if (!stamp)
      return musaSuccess; // waiting on a never-recorded event is a no-op
    stream->device->submit(*stream, [stamp] { waitForStamp(*stamp); });
    return musaSuccess;
  });
}
