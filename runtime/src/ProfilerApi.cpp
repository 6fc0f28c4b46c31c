// musaProfilerStart/musaProfilerStop: the profile report's collection range (see
// musa_profiler_api.h for the contract).
#include "musa_profiler_api.h"
#include "backend/Backend.h"

#include "ApiShell.h"
#include "Runtime.h"

#include "musa/sim/Timing.h"

using namespace musa::rt;
namespace sim = musa::sim;

namespace {

musaError_t setCollecting(bool on) {
  Runtime &rt = Runtime::get();
  // Validate first: waiting for work is refused while any device captures a stream (captured
  // work never runs), and then nothing changes.
  for (int i = 0; i < rt.deviceCount(); ++i) {
    Device *d = rt.device(i);
    std::lock_guard lock(d->capturesMutex);
    if (!d->captures.empty())
      return musaErrorStreamCaptureUnsupported;
  }
  // Work issued before the switch finishes on the side of the range it was issued on.
  for (int i = 0; i < rt.deviceCount(); ++i)
    rt.device(i)->synchronize();
  sim::setReportCollecting(on);
  return musaSuccess;
}

} // namespace

extern "C" musaError_t musaProfilerStart(void) {
  MUSA_BACKEND_HOOK(musaProfilerStart);
  return apiCall([] { return setCollecting(true); });
}

extern "C" musaError_t musaProfilerStop(void) {
  MUSA_BACKEND_HOOK(musaProfilerStop);
  return apiCall([] { return setCollecting(false); });
}
