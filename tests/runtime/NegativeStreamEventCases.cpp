// Negative cases: streams, callbacks, events and stream capture.
#include "NegativeApiCases.h"

namespace negative {

namespace {
/// Begins a capture on `c.s` that the Ctx ends (and whose graph it destroys) afterwards.
bool beginCapture(Ctx &c, musaStreamCaptureMode mode = musaStreamCaptureModeGlobal) {
  if (musaStreamBeginCapture(c.s, mode) != musaSuccess)
    return false;
  musaStream_t s = c.s;
  c.cleanups.push_back([s] {
    musaGraph_t g = nullptr;
    musaStreamEndCapture(s, &g);
    if (g)
      musaGraphDestroy(g);
    musaGetLastError();
  });
  return true;
}
} // namespace

const char *const CapturedEvent =
    "querying or synchronising an event recorded in a live capture gives "
    "StreamCaptureUnsupported (tests/e2e/graph_capture.mu expects it); CUDA names this "
    "case musaErrorCapturedEvent (not yet measured on hardware)";

void addStreamEventCases() {
  // streams: creation
  NEG(musaStreamCreate, "nullStream", musaErrorInvalidValue, musaStreamCreate(nullptr));
  NEG(musaStreamCreateWithFlags, "nullStream", musaErrorInvalidValue,
      musaStreamCreateWithFlags(nullptr, musaStreamNonBlocking));
  NEG(musaStreamCreateWithPriority, "nullStream", musaErrorInvalidValue,
      musaStreamCreateWithPriority(nullptr, 0, 0));
  for (unsigned flags : {0x2u, 0x40u, 0x80000000u, 0xffffffffu}) {
    NEG(musaStreamCreateWithFlags, "badFlags" + std::to_string(flags), musaErrorInvalidValue,
        [&] {
          musaStream_t s;
          return musaStreamCreateWithFlags(&s, flags);
        }());
    NEG(musaStreamCreateWithPriority, "badFlags" + std::to_string(flags), musaErrorInvalidValue,
        [&] {
          musaStream_t s;
          return musaStreamCreateWithPriority(&s, flags, 0);
        }());
  }
  NEG(musaDeviceGetStreamPriorityRange, "none_bothNullIsValid", musaSuccess,
      musaDeviceGetStreamPriorityRange(nullptr, nullptr));

  // Calls that take a stream, with each kind of bad stream handle.
  struct BadStream {
    const char *name;
    musaStream_t (*get)(Ctx &);
  };
  const BadStream badStreams[] = {
      {"destroyedStream", [](Ctx &c) { return c.deadStream; }},
      {"foreignStream", [](Ctx &) { return foreign<musaStream_t>(); }},
  };
  for (const BadStream &bs : badStreams) {
    std::string arg = bs.name;
    auto get = bs.get;
    constexpr musaError_t H = musaErrorInvalidResourceHandle;
    NEG(musaStreamDestroy, arg, H, musaStreamDestroy(get(c)));
    NEG(musaStreamSynchronize, arg, H, musaStreamSynchronize(get(c)));
    NEG(musaStreamQuery, arg, H, musaStreamQuery(get(c)));
    NEG(musaStreamGetPriority, arg, H, [&] {
      int p;
      return musaStreamGetPriority(get(c), &p);
    }());
    NEG(musaStreamGetFlags, arg, H, [&] {
      unsigned f;
      return musaStreamGetFlags(get(c), &f);
    }());
    NEG(musaStreamGetDevice, arg, H, [&] {
      int d;
      return musaStreamGetDevice(get(c), &d);
    }());
    NEG(musaStreamAddCallback, arg, H,
        musaStreamAddCallback(get(c), &Ctx::noopCallback, nullptr, 0));
    NEG(musaLaunchHostFunc, arg, H, musaLaunchHostFunc(get(c), &Ctx::noop, nullptr));
    NEG(musaStreamWaitEvent, arg, H, musaStreamWaitEvent(get(c), c.e, 0));
    NEG(musaEventRecord, arg, H, musaEventRecord(c.e, get(c)));
    NEG(musaEventRecordWithFlags, arg, H, musaEventRecordWithFlags(c.e, get(c), 0));
    NEG(musaStreamBeginCapture, arg, H,
        musaStreamBeginCapture(get(c), musaStreamCaptureModeGlobal));
    NEG(musaStreamEndCapture, arg, H, [&] {
      musaGraph_t g;
      return musaStreamEndCapture(get(c), &g);
    }());
    NEG(musaStreamIsCapturing, arg, H, musaStreamIsCapturing(get(c)));
    NEG(musaStreamGetCaptureInfo, arg, H, [&] {
      musaStreamCaptureStatus st;
      return musaStreamGetCaptureInfo(get(c), &st);
    }());
    NEG(musaStreamBeginCaptureToGraph, arg, H,
        musaStreamBeginCaptureToGraph(get(c), c.other, nullptr, nullptr, 0,
                                      musaStreamCaptureModeGlobal));
    NEG(musaStreamUpdateCaptureDependencies, arg, H,
        musaStreamUpdateCaptureDependencies(get(c), nullptr, 0, 0));
    NEG(musaGraphLaunch, arg, H, musaGraphLaunch(c.exec, get(c)));
    NEG(musaGraphUpload, arg, H, musaGraphUpload(c.exec, get(c)));
    NEG(musaMallocAsync, arg, H, [&] {
      void *p;
      return musaMallocAsync(&p, 64, get(c));
    }());
    NEG(musaMallocFromPoolAsync, arg, H, [&] {
      void *p;
      return musaMallocFromPoolAsync(&p, 64, c.pool, get(c));
    }());
    NEGB(musaFreeAsync, arg, H, {
      void *p;
      if (musaMallocAsync(&p, 64, c.s) || musaStreamSynchronize(c.s))
        return musaErrorUnknown;
      c.cleanups.push_back([p] { musaFree(p); });
      return musaFreeAsync(p, get(c));
    });
    NEG(musaMemcpyToSymbolAsync, arg + "_unknownSymbolToo", musaErrorInvalidSymbol,
        musaMemcpyToSymbolAsync(static_cast<const void *>(c.host + 8), c.host, 4, 0,
                                musaMemcpyHostToDevice, get(c)));
  }
  NEG(musaStreamDestroy, "legacyNullStream", musaErrorInvalidResourceHandle,
      musaStreamDestroy(nullptr));
  NEG(musaStreamGetPriority, "nullPriority", musaErrorInvalidValue,
      musaStreamGetPriority(c.s, nullptr));
  NEG(musaStreamGetFlags, "nullFlags", musaErrorInvalidValue, musaStreamGetFlags(c.s, nullptr));
  NEG(musaStreamGetDevice, "nullDevice", musaErrorInvalidValue,
      musaStreamGetDevice(c.s, nullptr));
  NEG(musaStreamAddCallback, "nullCallback", musaErrorInvalidValue,
      musaStreamAddCallback(c.s, nullptr, nullptr, 0));
  NEG(musaStreamAddCallback, "nonZeroFlags", musaErrorInvalidValue,
      musaStreamAddCallback(c.s, &Ctx::noopCallback, nullptr, 1));
  NEG(musaLaunchHostFunc, "nullFn", musaErrorInvalidValue,
      musaLaunchHostFunc(c.s, nullptr, nullptr));
  NEG(musaLaunchHostFunc, "nullFn_legacyStream", musaErrorInvalidValue,
      musaLaunchHostFunc(nullptr, nullptr, nullptr));
  for (unsigned flags : {0x2u, 0x10u, 0xffffffffu})
    NEG(musaStreamWaitEvent, "badFlags" + std::to_string(flags), musaErrorInvalidValue,
        musaStreamWaitEvent(c.s, c.e, flags));
  NEG(musaStreamWaitEvent, "destroyedEvent", musaErrorInvalidResourceHandle,
      musaStreamWaitEvent(c.s, c.deadEvent, 0));
  NEG(musaStreamWaitEvent, "foreignEvent", musaErrorInvalidResourceHandle,
      musaStreamWaitEvent(c.s, foreign<musaEvent_t>(), 0));
  NEG(musaStreamWaitEvent, "nullEvent", musaErrorInvalidResourceHandle,
      musaStreamWaitEvent(c.s, nullptr, 0));

  // events
  NEG(musaEventCreate, "nullEvent", musaErrorInvalidValue, musaEventCreate(nullptr));
  NEG(musaEventCreateWithFlags, "nullEvent", musaErrorInvalidValue,
      musaEventCreateWithFlags(nullptr, 0));
  for (unsigned flags : {0x8u, 0x80u, 0xffffffffu})
    NEG(musaEventCreateWithFlags, "badFlags" + std::to_string(flags), musaErrorInvalidValue, [&] {
      musaEvent_t e;
      return musaEventCreateWithFlags(&e, flags);
    }());
  NEG(musaEventCreateWithFlags, "interprocessWithTiming", musaErrorInvalidValue, [&] {
    musaEvent_t e;
    return musaEventCreateWithFlags(&e, musaEventInterprocess);
  }());
  struct BadEvent {
    const char *name;
    musaEvent_t (*get)(Ctx &);
  };
  const BadEvent badEvents[] = {
      {"destroyedEvent", [](Ctx &c) { return c.deadEvent; }},
      {"foreignEvent", [](Ctx &) { return foreign<musaEvent_t>(); }},
      {"nullEvent", [](Ctx &) { return musaEvent_t(nullptr); }},
  };
  for (const BadEvent &be : badEvents) {
    std::string arg = be.name;
    auto get = be.get;
    constexpr musaError_t H = musaErrorInvalidResourceHandle;
    NEG(musaEventRecord, arg, H, musaEventRecord(get(c), c.s));
    NEG(musaEventRecordWithFlags, arg, H, musaEventRecordWithFlags(get(c), c.s, 0));
    NEG(musaEventQuery, arg, H, musaEventQuery(get(c)));
    NEG(musaEventSynchronize, arg, H, musaEventSynchronize(get(c)));
    NEG(musaEventDestroy, arg, H, musaEventDestroy(get(c)));
    NEGB(musaEventElapsedTime, arg + "_start", H, {
      float ms;
      if (musaEventRecord(c.e, c.s) || musaStreamSynchronize(c.s))
        return musaErrorUnknown;
      return musaEventElapsedTime(&ms, get(c), c.e);
    });
    NEGB(musaEventElapsedTime, arg + "_end", H, {
      float ms;
      if (musaEventRecord(c.e, c.s) || musaStreamSynchronize(c.s))
        return musaErrorUnknown;
      return musaEventElapsedTime(&ms, c.e, get(c));
    });
    NEG(musaIpcGetEventHandle, arg, H, [&] {
      musaIpcEventHandle_t h;
      return musaIpcGetEventHandle(&h, get(c));
    }());
  }
  for (unsigned flags : {0x2u, 0x80u})
    NEG(musaEventRecordWithFlags, "badFlags" + std::to_string(flags), musaErrorInvalidValue,
        musaEventRecordWithFlags(c.e, c.s, flags));
  NEG(musaEventElapsedTime, "nullMs", musaErrorInvalidValue, [&] {
    musaEventRecord(c.e, c.s);
    musaStreamSynchronize(c.s);
    return musaEventElapsedTime(nullptr, c.e, c.e);
  }());
  NEG(musaEventElapsedTime, "neitherRecorded", musaErrorInvalidResourceHandle, [&] {
    float ms;
    musaEvent_t b;
    musaEventCreate(&b);
    musaError_t r = musaEventElapsedTime(&ms, c.e, b);
    c.cleanups.push_back([b] { musaEventDestroy(b); });
    return r;
  }());
  NEGB(musaEventElapsedTime, "endNotRecorded", musaErrorInvalidResourceHandle, {
    float ms;
    musaEvent_t b;
    if (musaEventCreate(&b) || musaEventRecord(c.e, c.s) || musaStreamSynchronize(c.s))
      return musaErrorUnknown;
    c.cleanups.push_back([b] { musaEventDestroy(b); });
    return musaEventElapsedTime(&ms, c.e, b);
  });
  NEGB(musaEventElapsedTime, "startNotRecorded", musaErrorInvalidResourceHandle, {
    float ms;
    musaEvent_t b;
    if (musaEventCreate(&b) || musaEventRecord(c.e, c.s) || musaStreamSynchronize(c.s))
      return musaErrorUnknown;
    c.cleanups.push_back([b] { musaEventDestroy(b); });
    return musaEventElapsedTime(&ms, b, c.e);
  });
  NEGB(musaEventElapsedTime, "startDisableTiming", musaErrorInvalidResourceHandle, {
    float ms;
    if (musaEventRecord(c.untimed, c.s) || musaEventRecord(c.e, c.s) ||
        musaStreamSynchronize(c.s))
      return musaErrorUnknown;
    return musaEventElapsedTime(&ms, c.untimed, c.e);
  });
  NEGB(musaEventElapsedTime, "endDisableTiming", musaErrorInvalidResourceHandle, {
    float ms;
    if (musaEventRecord(c.untimed, c.s) || musaEventRecord(c.e, c.s) ||
        musaStreamSynchronize(c.s))
      return musaErrorUnknown;
    return musaEventElapsedTime(&ms, c.e, c.untimed);
  });

  // stream capture misuse
  NEG(musaStreamBeginCapture, "legacyStreamGlobalMode", musaErrorStreamCaptureUnsupported,
      musaStreamBeginCapture(nullptr, musaStreamCaptureModeGlobal));
  NEG(musaStreamBeginCapture, "legacyStreamRelaxedMode", musaErrorStreamCaptureUnsupported,
      musaStreamBeginCapture(nullptr, musaStreamCaptureModeRelaxed));
  NEG(musaStreamBeginCapture, "legacyStreamExplicit", musaErrorStreamCaptureUnsupported,
      musaStreamBeginCapture(musaStreamLegacy, musaStreamCaptureModeGlobal));
  for (int mode : {3, 99, -1})
    NEG(musaStreamBeginCapture, "badMode" + std::to_string(mode), musaErrorInvalidValue,
        musaStreamBeginCapture(c.s, musaStreamCaptureMode(mode)));
  NEGB(musaStreamBeginCapture, "alreadyCapturing", musaErrorIllegalState, {
    if (!beginCapture(c))
      return musaErrorUnknown;
    return musaStreamBeginCapture(c.s, musaStreamCaptureModeGlobal);
  });
  NEG(musaStreamEndCapture, "notCapturing", musaErrorIllegalState, [&] {
    musaGraph_t g;
    return musaStreamEndCapture(c.s, &g);
  }());
  NEG(musaStreamEndCapture, "legacyStreamNotCapturing", musaErrorIllegalState, [&] {
    musaGraph_t g;
    return musaStreamEndCapture(nullptr, &g);
  }());
  NEGB(musaStreamEndCapture, "nullGraph", musaErrorInvalidValue, {
    if (!beginCapture(c))
      return musaErrorUnknown;
    return musaStreamEndCapture(c.s, nullptr);
  });
  NEGB(musaStreamSynchronize, "capturingStream", musaErrorStreamCaptureUnsupported, {
    if (!beginCapture(c))
      return musaErrorUnknown;
    return musaStreamSynchronize(c.s);
  });
  NEGB(musaStreamQuery, "capturingStream", musaErrorStreamCaptureUnsupported, {
    if (!beginCapture(c))
      return musaErrorUnknown;
    return musaStreamQuery(c.s);
  });
  NEGB(musaMalloc, "duringGlobalCapture", musaErrorStreamCaptureUnsupported, {
    if (!beginCapture(c))
      return musaErrorUnknown;
    void *p;
    return musaMalloc(&p, 16);
  });
  // Relaxed mode: global mode could refuse the call itself as unsafe during a capture.
  NEGB(musaEventSynchronize, "eventRecordedInCapture", musaErrorCapturedEvent, {
    if (!beginCapture(c, musaStreamCaptureModeRelaxed) || musaEventRecord(c.e, c.s))
      return musaErrorUnknown;
    return musaEventSynchronize(c.e);
  }).divergence = CapturedEvent;
  NEGB(musaEventQuery, "eventRecordedInCapture", musaErrorCapturedEvent, {
    if (!beginCapture(c, musaStreamCaptureModeRelaxed) || musaEventRecord(c.e, c.s))
      return musaErrorUnknown;
    return musaEventQuery(c.e);
  }).divergence = CapturedEvent;
  // (An uncaptured stream that waits on a captured event joins the capture: no error.)
  NEGB(musaStreamWaitEvent, "capturingStreamWaitsUncapturedEvent",
       musaErrorStreamCaptureIsolation, {
         if (musaEventRecord(c.e, nullptr) || musaStreamSynchronize(nullptr))
           return musaErrorUnknown;
         if (!beginCapture(c, musaStreamCaptureModeRelaxed))
           return musaErrorUnknown;
         return musaStreamWaitEvent(c.s, c.e, 0);
       }).divergence = "a capturing stream waiting on an event recorded outside any capture "
                       "succeeds; CUDA documents StreamCaptureIsolation for a dependency that "
                       "crosses the capture boundary (not yet measured on hardware)";
  NEGB(musaMemcpy, "legacyStreamWhileBlockingStreamCaptures", musaErrorStreamCaptureImplicit, {
    musaStream_t t;
    if (musaStreamCreate(&t))
      return musaErrorUnknown;
    musaStream_t s = t;
    c.cleanups.push_back([s] {
      musaGraph_t g = nullptr;
      musaStreamEndCapture(s, &g);
      if (g)
        musaGraphDestroy(g);
      musaStreamDestroy(s);
      musaGetLastError();
    });
    if (musaStreamBeginCapture(t, musaStreamCaptureModeRelaxed))
      return musaErrorUnknown;
    return musaMemcpy(c.d, c.host, 16, musaMemcpyHostToDevice);
  });
  NEG(musaStreamBeginCaptureToGraph, "nullGraph", musaErrorInvalidValue,
      musaStreamBeginCaptureToGraph(c.s, nullptr, nullptr, nullptr, 0,
                                    musaStreamCaptureModeGlobal));
  NEG(musaStreamBeginCaptureToGraph, "nullDepsWithCount", musaErrorInvalidValue,
      musaStreamBeginCaptureToGraph(c.s, c.g, nullptr, nullptr, 1, musaStreamCaptureModeGlobal));
  NEG(musaStreamBeginCaptureToGraph, "depOfAnotherGraph", musaErrorInvalidValue,
      musaStreamBeginCaptureToGraph(c.s, c.g, &c.otherNode, nullptr, 1,
                                    musaStreamCaptureModeGlobal));
  NEG(musaStreamBeginCaptureToGraph, "legacyStream", musaErrorStreamCaptureUnsupported,
      musaStreamBeginCaptureToGraph(nullptr, c.other, nullptr, nullptr, 0,
                                    musaStreamCaptureModeGlobal));
  NEG(musaStreamBeginCaptureToGraph, "badMode", musaErrorInvalidValue,
      musaStreamBeginCaptureToGraph(c.s, c.other, nullptr, nullptr, 0,
                                    musaStreamCaptureMode(9)));
  NEG(musaStreamUpdateCaptureDependencies, "notCapturing", musaErrorIllegalState,
      musaStreamUpdateCaptureDependencies(c.s, nullptr, 0, 0));
  NEGB(musaStreamUpdateCaptureDependencies, "badFlags", musaErrorInvalidValue, {
    if (!beginCapture(c))
      return musaErrorUnknown;
    return musaStreamUpdateCaptureDependencies(c.s, nullptr, 0, 7);
  });
  NEGB(musaStreamUpdateCaptureDependencies, "nullDepsWithCount", musaErrorInvalidValue, {
    if (!beginCapture(c))
      return musaErrorUnknown;
    return musaStreamUpdateCaptureDependencies(c.s, nullptr, 1, 0);
  });
  NEGB(musaStreamUpdateCaptureDependencies, "nodeOfAnotherGraph", musaErrorInvalidValue, {
    if (!beginCapture(c))
      return musaErrorUnknown;
    musaGraphNode_t node = c.otherNode;
    return musaStreamUpdateCaptureDependencies(c.s, &node, 1, 0);
  });
  NEG(musaThreadExchangeStreamCaptureMode, "nullMode", musaErrorInvalidValue,
      musaThreadExchangeStreamCaptureMode(nullptr));
  NEG(musaThreadExchangeStreamCaptureMode, "badMode", musaErrorInvalidValue, [&] {
    musaStreamCaptureMode mode = musaStreamCaptureMode(42);
    return musaThreadExchangeStreamCaptureMode(&mode);
  }());
  NEG(musaStreamIsCapturing, "notCapturing_guideForm", musaErrorInvalidValue,
      musaStreamIsCapturing(c.s));
  NEG(musaStreamIsCapturing, "nullStatus_cudaForm", musaErrorInvalidValue,
      musaStreamIsCapturing(c.s, nullptr));
  NEG(musaStreamGetCaptureInfo, "nullStatus", musaErrorInvalidValue,
      musaStreamGetCaptureInfo(c.s, nullptr));
}

} // namespace negative
