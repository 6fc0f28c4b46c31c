// The shell every extern "C" entry point goes through: run the work function, turn escaping
// C++ exceptions into error codes (none may cross the C boundary), and record the result as
// the calling thread's last error.
#pragma once

#include "musa_runtime_api.h"

#include <new>

namespace musa::rt {

/// Records `error` as this thread's last error unless it is musaSuccess or musaErrorNotReady;
/// returns it.
musaError_t recordError(musaError_t error);
/// This thread's last error; `reset` clears it (musaGetLastError) unless it is sticky.
musaError_t lastError(bool reset);
const char *errorName(musaError_t error);
/// True once the process has begun to exit past the point where the runtime was set up (an
/// exit handler registered when it was): calls then return musaErrorCudartUnloading without
/// doing anything, as CUDA's do once its runtime is torn down, so a static destructor that
/// frees memory or destroys a stream neither waits for work still in flight nor touches what
/// exit has already destroyed.
bool runtimeUnloading() noexcept;
const char *errorString(musaError_t error);

template <class Work> musaError_t apiCall(Work &&work) noexcept {
  musaError_t result;
  if (runtimeUnloading())
    return recordError(musaErrorCudartUnloading);
  try {
    result = work();
  } catch (const std::bad_alloc &) {
    result = musaErrorOutOfMemory;
  } catch (...) {
    result = musaErrorUnknown;
  }
  return recordError(result);
}

} // namespace musa::rt
