// Stream capture entry points and the capture bookkeeping every submission path consults.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Capture.h"
#include "GraphWork.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <vector>

using namespace musa::rt;
namespace graph = musa::graph;

namespace musa::rt {

musaGraph_t adoptCapturedGraph(std::unique_ptr<graph::Graph> g); // GraphApi.cpp
graph::Graph *findUserGraph(musaGraph_t handle);                  // GraphApi.cpp
/// Marks a graph as being captured into (musaGraphDestroy refuses it) or not.
void setCapturing(musaGraph_t handle, bool capturing);             // GraphApi.cpp
/// Destroys a graph a failed capture created.
void discardCapturedGraph(musaGraph_t handle);                     // GraphApi.cpp

std::string KernelWork::label() const {
  const PreparedLaunch &l = *launch_;
  auto d = [](dim3 v) {
    return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
  };
  return sim::demangle(l.config.kernel->name) + " <<<" + d(l.grid) + ", " + d(l.block) + ">>>";
}

void EventWork::run() {
  std::shared_ptr<Event> event = Runtime::get().resolveEvent(event_);
  if (!event)
    return; // destroyed while the graph existed: CUDA leaves this undefined; we skip it
  if (record_)
    event->newStamp()->complete(stampTimeMs());
  else if (auto stamp = event->latestStamp())
    waitForStamp(*stamp);
}

musaError_t Capture::addNode(Stream &stream, graph::NodeType type,
                             std::unique_ptr<graph::NodeWork> work) {
  std::shared_ptr<Capture> capture = stream.capture.load();
  if (!capture)
    return musaErrorStreamCaptureInvalidated; // ended by another thread meanwhile
  std::lock_guard lock(capture->mutex);
  if (capture->invalidated)
    return musaErrorStreamCaptureInvalidated;
  stream.captureTail.append(*capture->graph, type, std::move(work));
  return musaSuccess;
}

musaError_t Capture::route(Stream &stream, graph::NodeType type,
                           const std::function<std::unique_ptr<graph::NodeWork>()> &makeWork,
                           bool &captured) {
  captured = false;
  if (active(stream)) {
    captured = true;
    return addNode(stream, type, makeWork());
  }
  return stream.legacy ? checkLegacyUse(*stream.device) : musaSuccess;
}

thread_local musaStreamCaptureMode threadCaptureMode = musaStreamCaptureModeGlobal;

musaError_t Capture::checkUnsafeCall() {
  if (threadCaptureMode == musaStreamCaptureModeRelaxed)
    return musaSuccess;
  Runtime &rt = Runtime::get();
  musaError_t result = musaSuccess;
  for (int i = 0; i < rt.deviceCount(); ++i) {
    Device &device = *rt.device(i);
    std::lock_guard lock(device.capturesMutex);
    for (auto &c : device.captures) {
      bool mine = c->thread == std::this_thread::get_id();
      bool prohibits = (mine && c->mode != musaStreamCaptureModeRelaxed) ||
                       (!mine && c->mode == musaStreamCaptureModeGlobal);
      if (!prohibits)
        continue;
      std::lock_guard inner(c->mutex);
      c->invalidated = true;
      result = musaErrorStreamCaptureUnsupported;
    }
  }
  return result;
}

musaError_t Capture::invalidateAll(Device &device, musaError_t error) {
  std::lock_guard lock(device.capturesMutex);
  for (auto &c : device.captures) {
    std::lock_guard inner(c->mutex);
    c->invalidated = true;
  }
  return error;
}

musaError_t Capture::checkLegacyUse(Device &device) {
  bool blockingCapture = false;
  {
    std::lock_guard lock(device.capturesMutex);
    for (auto &c : device.captures)
      blockingCapture |= !(c->origin->flags & musaStreamNonBlocking);
  }
  // The legacy stream would synchronise with the capturing stream (spec/DECISIONS.md, 8), in
  // every capture mode (tests/hardware/capture_corner_cases.h200.txt).
  return blockingCapture ? invalidateAll(device, musaErrorStreamCaptureImplicit) : musaSuccess;
}

} // namespace musa::rt

namespace {

std::atomic<unsigned long long> nextCaptureId{1};

using musa::rt::findUserGraph;

/// Detaches every stream of the device from `capture`; returns the streams' dependency tails
/// other than the origin's.
std::vector<graph::Node *> detach(Device &device, const std::shared_ptr<Capture> &capture) {
  std::vector<graph::Node *> otherTails;
  auto detachStream = [&](Stream &s) {
    if (s.capture.load() != capture)
      return;
    std::lock_guard lock(capture->mutex);
    if (&s != capture->origin)
      otherTails.insert(otherTails.end(), s.captureTail.nodes().begin(),
                        s.captureTail.nodes().end());
    s.capture.store(nullptr);
    s.captureTail.clear();
  };
  device.forEachStream(detachStream);
  return otherTails;
}

/// Detaches `capture` from the device's streams and from the device's list of captures, and
/// lets its graph be destroyed again; returns the tails of the streams other than the origin.
std::vector<graph::Node *> finish(Device &device, const std::shared_ptr<Capture> &capture) {
  std::vector<graph::Node *> otherTails = detach(device, capture);
  {
    std::lock_guard lock(device.capturesMutex);
    device.captures.erase(capture);
  }
  setCapturing(capture->userGraph, false);
  return otherTails;
}

} // namespace

namespace musa::rt {

void Capture::abandon(Device &device, const std::shared_ptr<Capture> &capture) {
  {
    std::lock_guard lock(capture->mutex);
    capture->invalidated = true;
  }
  if (!capture->claimEnd())
    return; // musaStreamEndCapture (or another abandon) got there first
  finish(device, capture);
  if (capture->ownsGraph)
    discardCapturedGraph(capture->userGraph);
}

void Capture::streamDestroyed(Stream &stream) {
  std::shared_ptr<Capture> capture = stream.capture.load();
  if (!capture)
    return;
  if (capture->origin == &stream) {
    // Its origin could end it, and the origin is gone: end it now, or the process would keep
    // refusing allocations and legacy-stream work for a capture nobody can finish.
    abandon(*stream.device, capture);
  } else {
    std::lock_guard lock(capture->mutex);
    capture->invalidated = true; // musaStreamEndCapture on the origin reports it
  }
  stream.capture.store(nullptr);
  stream.captureTail.clear();
}

void Capture::abandonAll(Device &device) {
  std::vector<std::shared_ptr<Capture>> all;
  {
    std::lock_guard lock(device.capturesMutex);
    all.assign(device.captures.begin(), device.captures.end());
  }
  for (auto &capture : all)
    abandon(device, capture);
}

} // namespace musa::rt


extern "C" {

/// Whether every edge-data entry is the default (all zero).
static bool defaultEdges(const musaGraphEdgeData *data, size_t n) {
  for (size_t i = 0; data && i < n; ++i) {
    const unsigned char *b = reinterpret_cast<const unsigned char *>(&data[i]);
    for (size_t k = 0; k < sizeof(musaGraphEdgeData); ++k)
      if (b[k])
        return false;
  }
  return true;
}

static musaError_t beginCapture(musaStream_t handle, musaStreamCaptureMode mode,
                                graph::Graph *into, musaGraph_t userGraph,
                                const musaGraphNode_t *deps, size_t numDeps) {
  if (mode < musaStreamCaptureModeGlobal || mode > musaStreamCaptureModeRelaxed)
    return musaErrorInvalidValue;
  std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
  if (!stream)
    return musaErrorInvalidResourceHandle;
  if (stream->legacy)
    return musaErrorStreamCaptureUnsupported; // the legacy stream cannot be captured
  if (stream->capture.load())
    return musaErrorIllegalState;
  auto capture = std::make_shared<Capture>();
  if (into) {
    for (size_t i = 0; i < numDeps; ++i)
      if (!into->owns(reinterpret_cast<graph::Node *>(deps[i])))
        return musaErrorInvalidValue;
    capture->graph = into;
    capture->userGraph = userGraph;
  } else {
    auto fresh = std::make_unique<graph::Graph>();
    capture->graph = fresh.get();
    capture->userGraph = adoptCapturedGraph(std::move(fresh));
    capture->ownsGraph = true;
  }
  setCapturing(capture->userGraph, true);
  capture->mode = mode;
  capture->id = nextCaptureId++;
  capture->origin = stream.get();
  capture->thread = std::this_thread::get_id();
  stream->capture = capture;
  stream->captureTail.clear();
  if (into)
    stream->captureTail.merge({reinterpret_cast<graph::Node *const *>(deps),
                               reinterpret_cast<graph::Node *const *>(deps) + numDeps});
  std::lock_guard lock(stream->device->capturesMutex);
  stream->device->captures.insert(capture);
  return musaSuccess;
}

musaError_t musaStreamBeginCaptureToGraph(musaStream_t handle, musaGraph_t graph,
                                          const musaGraphNode_t *deps,
                                          const musaGraphEdgeData *edgeData, size_t numDeps,
                                          enum musaStreamCaptureMode mode) {
  MUSA_BACKEND_HOOK(musaStreamBeginCaptureToGraph, handle, graph, deps, edgeData, numDeps, mode);
  return apiCall([&] {
    graph::Graph *into = findUserGraph(graph);
    if (!into || (numDeps && !deps))
      return musaErrorInvalidValue;
    if (!defaultEdges(edgeData, numDeps))
      return musaErrorNotSupported; // only default edge data (spec/DECISIONS.md 13)
    return beginCapture(handle, mode, into, graph, deps, numDeps);
  });
}

musaError_t musaStreamUpdateCaptureDependencies(musaStream_t handle, musaGraphNode_t *deps,
                                                size_t numDeps, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaStreamUpdateCaptureDependencies, handle, deps, numDeps, flags);
  return apiCall([&] {
    if (flags > musaStreamSetCaptureDependencies || (numDeps && !deps))
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    std::shared_ptr<Capture> capture = stream->capture.load();
    if (!capture)
      return musaErrorIllegalState;
    std::lock_guard lock(capture->mutex);
    std::vector<graph::Node *> nodes(reinterpret_cast<graph::Node **>(deps),
                                     reinterpret_cast<graph::Node **>(deps) + numDeps);
    return stream->captureTail.update(*capture->graph, nodes,
                                      flags == musaStreamSetCaptureDependencies)
               ? musaSuccess
               : musaErrorInvalidValue;
  });
}

musaError_t musaThreadExchangeStreamCaptureMode(enum musaStreamCaptureMode *mode) {
  MUSA_BACKEND_HOOK(musaThreadExchangeStreamCaptureMode, mode);
  return apiCall([&] {
    if (!mode || *mode < musaStreamCaptureModeGlobal || *mode > musaStreamCaptureModeRelaxed)
      return musaErrorInvalidValue;
    // Per host thread, as CUDA: the caller's mode is swapped with the one passed in.
    std::swap(threadCaptureMode, *mode);
    return musaSuccess;
  });
}

musaError_t musaStreamBeginCapture(musaStream_t handle, enum musaStreamCaptureMode mode) {
  MUSA_BACKEND_HOOK(musaStreamBeginCapture, handle, mode);
  return apiCall([&] { return beginCapture(handle, mode, nullptr, nullptr, nullptr, 0); });
}

musaError_t musaStreamEndCapture(musaStream_t handle, musaGraph_t *graphOut) {
  MUSA_BACKEND_HOOK(musaStreamEndCapture, handle, graphOut);
  return apiCall([&] {
    if (!graphOut)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    std::shared_ptr<Capture> capture = stream->capture.load();
    if (!capture)
      return musaErrorIllegalState; // not capturing
    if (capture->origin != stream.get())
      return musaErrorStreamCaptureUnmatched; // capture must end in the stream that began it
    // CUDA: unless begun in relaxed mode, the capture ends on the thread that began it (the
    // capture goes on; that thread may still end it).
    if (capture->mode != musaStreamCaptureModeRelaxed &&
        capture->thread != std::this_thread::get_id())
      return musaErrorStreamCaptureWrongThread;
    if (!capture->claimEnd())
      return musaErrorStreamCaptureInvalidated; // a reset or the origin's destruction ended it
    Device &device = *stream->device;
    std::vector<graph::Node *> originTails = stream->captureTail.nodes();
    std::vector<graph::Node *> otherTails = finish(device, capture);
    *graphOut = nullptr;
    musaError_t result = musaSuccess;
    bool invalidated;
    {
      std::lock_guard lock(capture->mutex);
      invalidated = capture->invalidated;
    }
    if (invalidated)
      result = musaErrorStreamCaptureInvalidated;
    if (!result && !graph::joinedBack(originTails, otherTails))
      result = musaErrorStreamCaptureUnjoined; // forked work never joined back
    if (!result)
      *graphOut = capture->userGraph;
    else if (capture->ownsGraph)
      discardCapturedGraph(capture->userGraph);
    return result;
  });
}

musaError_t musaStreamGetCaptureInfo(musaStream_t handle, enum musaStreamCaptureStatus *status,
                                     unsigned long long *id, musaGraph_t *graph,
                                     const musaGraphNode_t **deps, size_t *numDeps) {
  MUSA_BACKEND_HOOK(musaStreamGetCaptureInfo, handle, status, id, graph, deps, numDeps);
  return apiCall([&] {
    if (!status)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    std::shared_ptr<Capture> capture = stream->capture.load();
    if (!capture) {
      *status = musaStreamCaptureStatusNone;
      return musaSuccess;
    }
    std::lock_guard lock(capture->mutex);
    *status = capture->invalidated ? musaStreamCaptureStatusInvalidated
                                   : musaStreamCaptureStatusActive;
    if (id)
      *id = capture->id;
    if (graph)
      *graph = reinterpret_cast<musaGraph_t>(capture->graph);
    if (deps)
      *deps = reinterpret_cast<const musaGraphNode_t *>(stream->captureTail.nodes().data());
    if (numDeps)
      *numDeps = stream->captureTail.nodes().size();
    return musaSuccess;
  });
}

musaError_t musaStreamGetCaptureInfo_v3(musaStream_t handle, enum musaStreamCaptureStatus *status,
                                        unsigned long long *id, musaGraph_t *graph,
                                        const musaGraphNode_t **deps,
                                        const musaGraphEdgeData **edgeData, size_t *numDeps) {
  MUSA_BACKEND_HOOK(musaStreamGetCaptureInfo_v3, handle, status, id, graph, deps, edgeData,
                    numDeps);
  // Every captured edge carries default data: zeroed entries, one per dependency, valid until
  // this thread asks again (CUDA: until the next call that changes the capture).
  thread_local std::vector<musaGraphEdgeData> zeroEdges;
  size_t count = 0;
  musaError_t e = musaStreamGetCaptureInfo(handle, status, id, graph, deps, &count);
  if (e == musaSuccess) {
    if (numDeps)
      *numDeps = count;
    if (edgeData) {
      zeroEdges.assign(std::max<size_t>(count, 1), musaGraphEdgeData{});
      *edgeData = count ? zeroEdges.data() : nullptr;
    }
  }
  return e;
}

musaError_t musaStreamUpdateCaptureDependencies_v2(musaStream_t handle, musaGraphNode_t *deps,
                                                   const musaGraphEdgeData *edgeData,
                                                   size_t numDeps, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaStreamUpdateCaptureDependencies_v2, handle, deps, edgeData, numDeps,
                    flags);
  if (!defaultEdges(edgeData, numDeps))
    return recordError(musaErrorNotSupported); // spec/DECISIONS.md 13
  return musaStreamUpdateCaptureDependencies(handle, deps, numDeps, flags);
}

/// The guide's one-argument form (spec/DECISIONS.md, 11).
musaError_t musaStreamIsCapturing(musaStream_t handle) {
  MUSA_BACKEND_HOOK(musaStreamIsCapturing, handle);
  return apiCall([&] {
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    std::shared_ptr<Capture> capture = stream->capture.load();
    if (!capture)
      return musaErrorInvalidValue;
    std::lock_guard lock(capture->mutex);
    return capture->invalidated ? musaErrorStreamCaptureInvalidated : musaSuccess;
  });
}

} // extern "C"
