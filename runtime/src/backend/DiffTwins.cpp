// Differential mode (see Diff.cpp): every stream and event the program creates gets a hardware
// twin; records and waits go to the twins, so the hardware sees the program's ordering.
#include "backend/Backend.h"
#include "backend/DiffTwins.h"

#include <cstdio>
#include <map>
#include <mutex>

namespace musa::rt::backend {

namespace {

std::mutex twinMutex; // guards the maps below
std::map<musaStream_t, musaStream_t> streamTwins;
std::map<musaEvent_t, musaEvent_t> eventTwins;

/// After the simulator made `*handle` (result `simResult`), makes its hardware twin with
/// `create` and records it in `twins`.
template <class Handle, class Create>
musaError_t twin(Handle *handle, musaError_t simResult, const char *call,
                 std::map<Handle, Handle> &twins, Create &&create) {
  if (simResult || !handle)
    return simResult;
  Handle hw = nullptr;
  musaError_t h = create(&hw);
  mismatchedResult(call, simResult, h);
  if (!h) {
    std::lock_guard lock(twinMutex);
    twins[*handle] = hw;
  }
  return simResult;
}

/// Removes and returns the twin of `handle` (null if none).
template <class Handle> Handle takeTwin(std::map<Handle, Handle> &twins, Handle handle) {
  std::lock_guard lock(twinMutex);
  auto it = twins.find(handle);
  if (it == twins.end())
    return nullptr;
  Handle hw = it->second;
  twins.erase(it);
  return hw;
}

template <class Handle> Handle findTwin(const std::map<Handle, Handle> &twins, Handle handle) {
  std::lock_guard lock(twinMutex);
  auto it = twins.find(handle);
  return it == twins.end() ? nullptr : it->second;
}

/// Runs a runtime call on the simulator.
template <class Call> musaError_t onSimulator(Call &&call) {
  SimulatorScope scope;
  return call();
}

} // namespace

musaStream_t hwStream(musaStream_t s) {
  if (!s || s == musaStreamLegacy || s == musaStreamPerThread)
    return s;
  return findTwin(streamTwins, s);
}

musaEvent_t hwEvent(musaEvent_t e) { return findTwin(eventTwins, e); }

void mismatchedResult(const char *call, musaError_t sim, musaError_t hw) {
  if (sim != hw)
    std::fprintf(stderr, "musa-sim diff: %s: simulator %s, hardware %s\n", call,
                 musaGetErrorName(sim), musaGetErrorName(hw));
}

namespace diff {

musaError_t musaStreamCreate(musaStream_t *stream) {
  musaError_t e = onSimulator([&] { return ::musaStreamCreate(stream); });
  return twin(stream, e, "musaStreamCreate", streamTwins,
              [](musaStream_t *hw) { return fwd::musaStreamCreate(hw); });
}

musaError_t musaStreamCreateWithFlags(musaStream_t *stream, unsigned int flags) {
  musaError_t e = onSimulator([&] { return ::musaStreamCreateWithFlags(stream, flags); });
  return twin(stream, e, "musaStreamCreateWithFlags", streamTwins,
              [&](musaStream_t *hw) { return fwd::musaStreamCreateWithFlags(hw, flags); });
}

musaError_t musaStreamCreateWithPriority(musaStream_t *stream, unsigned int flags, int priority) {
  musaError_t e =
      onSimulator([&] { return ::musaStreamCreateWithPriority(stream, flags, priority); });
  return twin(stream, e, "musaStreamCreateWithPriority", streamTwins, [&](musaStream_t *hw) {
    return fwd::musaStreamCreateWithPriority(hw, flags, priority);
  });
}

musaError_t musaStreamDestroy(musaStream_t stream) {
  if (musaStream_t hw = takeTwin(streamTwins, stream))
    fwd::musaStreamDestroy(hw);
  return onSimulator([&] { return ::musaStreamDestroy(stream); });
}

musaError_t musaEventCreate(musaEvent_t *event) {
  musaError_t e = onSimulator([&] { return ::musaEventCreate(event); });
  return twin(event, e, "musaEventCreate", eventTwins,
              [](musaEvent_t *hw) { return fwd::musaEventCreate(hw); });
}

musaError_t musaEventCreateWithFlags(musaEvent_t *event, unsigned int flags) {
  musaError_t e = onSimulator([&] { return ::musaEventCreateWithFlags(event, flags); });
  return twin(event, e, "musaEventCreateWithFlags", eventTwins,
              [&](musaEvent_t *hw) { return fwd::musaEventCreateWithFlags(hw, flags); });
}

musaError_t musaEventDestroy(musaEvent_t event) {
  if (musaEvent_t hw = takeTwin(eventTwins, event))
    fwd::musaEventDestroy(hw);
  return onSimulator([&] { return ::musaEventDestroy(event); });
}

musaError_t musaEventRecord(musaEvent_t event, musaStream_t stream) {
  musaError_t e = onSimulator([&] { return ::musaEventRecord(event, stream); });
  // A record into a capture is a graph dependency on the simulator; the hardware's twin
  // stream is not capturing, so recording there is plain ordering.
  if (musaEvent_t hw = hwEvent(event); !e && hw)
    fwd::musaEventRecord(hw, hwStream(stream));
  return e;
}

musaError_t musaEventRecordWithFlags(musaEvent_t event, musaStream_t stream, unsigned int flags) {
  musaError_t e = onSimulator([&] { return ::musaEventRecordWithFlags(event, stream, flags); });
  if (musaEvent_t hw = hwEvent(event); !e && hw)
    fwd::musaEventRecord(hw, hwStream(stream)); // an external record is a capture's business
  return e;
}

musaError_t musaStreamWaitEvent(musaStream_t stream, musaEvent_t event, unsigned int flags) {
  musaError_t e = onSimulator([&] { return ::musaStreamWaitEvent(stream, event, flags); });
  if (musaEvent_t hw = hwEvent(event); !e && hw)
    fwd::musaStreamWaitEvent(hwStream(stream), hw, 0);
  return e;
}

musaError_t musaEventSynchronize(musaEvent_t event) {
  if (musaEvent_t hw = hwEvent(event))
    fwd::musaEventSynchronize(hw);
  return onSimulator([&] { return ::musaEventSynchronize(event); });
}

} // namespace diff
} // namespace musa::rt::backend
