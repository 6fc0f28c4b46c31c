// Stream entry points.
#include "ApiShell.h"
#include "Runtime.h"

using namespace musa::rt;

extern "C" musaError_t musaStreamCreateWithFlags(musaStream_t *stream, unsigned int flags) {
  return apiCall([&] {
    if (!stream || (flags & ~unsigned(musaStreamNonBlocking)))
      return musaErrorInvalidValue;
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    *stream = reinterpret_cast<musaStream_t>(d->createStream(flags, 0));
    return musaSuccess;
  });
}

extern "C" musaError_t musaStreamCreate(musaStream_t *stream) {
  return musaStreamCreateWithFlags(stream, musaStreamDefault);
}

extern "C" musaError_t musaStreamDestroy(musaStream_t handle) {
  return apiCall([&] {
    if (!handle || handle == musaStreamLegacy || handle == musaStreamPerThread)
      return musaErrorInvalidResourceHandle;
    auto *stream = reinterpret_cast<Stream *>(handle);
    for (int i = 0; i < Runtime::get().deviceCount(); ++i)
      if (Runtime::get().device(i)->destroyStream(stream))
        return musaSuccess;
    return musaErrorInvalidResourceHandle;
  });
}

extern "C" musaError_t musaStreamSynchronize(musaStream_t handle) {
  return apiCall([&] {
    Stream *stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    stream->queue.synchronize();
    return stream->device->stickyError();
  });
}

extern "C" musaError_t musaStreamQuery(musaStream_t handle) {
  return apiCall([&] {
    Stream *stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    if (musaError_t e = stream->device->stickyError())
      return e;
    return stream->queue.idle() ? musaSuccess : musaErrorNotReady;
  });
}
