// Stream capture: while a stream captures, work submitted to it becomes graph nodes instead of
// running. A capture spreads to other streams that wait on an event recorded in it (fork) and
// must be joined back into the origin stream before musaStreamEndCapture (join). The graph side
// (each stream's tail of dependencies, the join rule) is graph::CaptureTail (graph/); this
// layer keeps which streams capture, the capture modes and the errors they give.
#pragma once

#include "Runtime.h"

#include "musa/graph/Graph.h"

#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace musa::rt {

struct Capture {
  /// The graph being built: a live graph handle from the start (as in CUDA, it can be queried
  /// and extended while the capture runs, but not destroyed). musaStreamBeginCapture creates
  /// it (`ownsGraph`: discarded if the capture fails); musaStreamBeginCaptureToGraph records
  /// into the user's graph.
  graph::Graph *graph = nullptr;
  musaGraph_t userGraph = nullptr;
  bool ownsGraph = false;
  musaStreamCaptureMode mode = musaStreamCaptureModeGlobal;
  unsigned long long id = 0;
  Stream *origin = nullptr;
  std::thread::id thread;
  bool invalidated = false;
  /// Set, under `mutex`, by whichever of musaStreamEndCapture and `abandon` (a reset, the
  /// origin's destruction) ends the capture first; the other leaves the graph alone.
  bool ended = false;
  std::mutex mutex;

  /// Claims the end of the capture for the caller: false when another thread ended it already.
  bool claimEnd() {
    std::lock_guard lock(mutex);
    return !std::exchange(ended, true);
  }

  /// Whether `stream` is capturing.
  static bool active(const Stream &stream) { return stream.capture.load() != nullptr; }
  /// Records a node on a capturing stream after its current dependencies.
  static musaError_t addNode(Stream &stream, graph::NodeType type,
                             std::unique_ptr<graph::NodeWork> work);
  /// Marks the captures of `device` invalid (an operation they prohibit happened) and
  /// returns `error`.
  static musaError_t invalidateAll(Device &device, musaError_t error);
  /// Where work for `stream` goes: into its capture as a node (`captured` set), or refused
  /// because the legacy stream may not run while a blocking stream captures; otherwise the
  /// caller submits it as usual.
  static musaError_t route(Stream &stream, graph::NodeType type,
                           const std::function<std::unique_ptr<graph::NodeWork>()> &makeWork,
                           bool &captured);
  /// CUDA's rule for "potentially unsafe" calls (allocation, freeing, synchronous copies): they
  /// are refused (and the offending captures invalidated) while the calling thread has a
  /// capture that is not Relaxed, or any thread has a Global capture, unless the calling thread
  /// switched itself to Relaxed with musaThreadExchangeStreamCaptureMode.
  static musaError_t checkUnsafeCall();
  /// The error for using the legacy stream (synchronising implicitly with blocking streams)
  /// while a blocking stream of `device` captures, or musaSuccess.
  static musaError_t checkLegacyUse(Device &device);
  /// musaStreamDestroy of a capturing stream: its capture is invalidated and the stream
  /// leaves it. If the stream began the capture, nothing can end it any more, so it ends here
  /// (see `abandon`).
  static void streamDestroyed(Stream &stream);
  /// musaDeviceReset: every capture of `device` ends as `abandon` ends one.
  static void abandonAll(Device &device);
  /// Ends `capture` without a graph: every stream of `device` leaves it, it no longer counts
  /// for the capture rules (checkUnsafeCall, checkLegacyUse), and a graph it created is
  /// discarded. A graph passed to musaStreamBeginCaptureToGraph keeps what was captured.
  static void abandon(Device &device, const std::shared_ptr<Capture> &capture);
};

} // namespace musa::rt
