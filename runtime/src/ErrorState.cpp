// Per-host-thread last error and the error name/message tables.
#include "ApiShell.h"
#include "Runtime.h"

#include "musa_error_text.h"

namespace musa::rt {

namespace {
thread_local musaError_t threadLastError = musaSuccess;
} // namespace

musaError_t recordError(musaError_t error) {
  // musaErrorNotReady (a query of unfinished work) is a status, not an error: as in CUDA it
  // never becomes the last error, so polling a stream or event leaves musaGetLastError clean.
  if (error != musaSuccess && error != musaErrorNotReady)
    threadLastError = error;
  return error;
}

musaError_t lastError(bool reset) {
  musaError_t error = threadLastError;
  if (reset)
    threadLastError = musaSuccess;
  // A sticky device fault is reported until musaDeviceReset, whatever was cleared.
  if (error == musaSuccess)
    if (Device *device = Runtime::get().currentDevice())
      error = device->stickyError();
  return error;
}

const char *errorName(musaError_t error) {
  return __musa_error_text(error, 1); // "unrecognized error code" as CUDA documents
}

const char *errorString(musaError_t error) { return __musa_error_text(error, 0); }

} // namespace musa::rt

using namespace musa::rt;

extern "C" musaError_t musaGetLastError(void) { return lastError(true); }
extern "C" musaError_t musaPeekAtLastError(void) { return lastError(false); }
extern "C" const char *musaGetErrorString(musaError_t error) { return errorString(error); }
extern "C" const char *musaGetErrorName(musaError_t error) { return errorName(error); }
