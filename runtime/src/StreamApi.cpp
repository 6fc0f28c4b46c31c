// Stream entry points.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Runtime.h"
#include "Capture.h"
#include "GraphWork.h"

#include <algorithm>
#include <cstring>

using namespace musa::rt;

namespace {

musaError_t createStream(musaStream_t *stream, unsigned flags, int priority) {
  if (!stream || (flags & ~unsigned(musaStreamNonBlocking)))
    return musaErrorInvalidValue;
  Device *d = Runtime::get().currentDevice();
  if (!d)
    return musaErrorNoDevice;
  priority = clampPriority(priority);
  *stream = reinterpret_cast<musaStream_t>(d->createStream(flags, priority).get());
  return musaSuccess;
}
} // namespace

extern "C" musaError_t musaStreamCreateWithFlags(musaStream_t *stream, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaStreamCreateWithFlags, stream, flags);
  return apiCall([&] { return createStream(stream, flags, LeastPriority); });
}

extern "C" musaError_t musaStreamCreateWithPriority(musaStream_t *stream, unsigned int flags,
                                                    int priority) {
  MUSA_BACKEND_HOOK(musaStreamCreateWithPriority, stream, flags, priority);
  return apiCall([&] { return createStream(stream, flags, priority); });
}

extern "C" musaError_t musaDeviceGetStreamPriorityRange(int *leastPriority,
                                                        int *greatestPriority) {
  MUSA_BACKEND_HOOK(musaDeviceGetStreamPriorityRange, leastPriority, greatestPriority);
  return apiCall([&] {
    if (!Runtime::get().currentDevice())
      return musaErrorNoDevice;
    if (leastPriority) // either output may be null, as in CUDA
      *leastPriority = LeastPriority;
    if (greatestPriority)
      *greatestPriority = GreatestPriority;
    return musaSuccess;
  });
}

extern "C" musaError_t musaStreamGetPriority(musaStream_t handle, int *priority) {
  MUSA_BACKEND_HOOK(musaStreamGetPriority, handle, priority);
  return apiCall([&] {
    if (!priority)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    *priority = stream->priority;
    return musaSuccess;
  });
}

extern "C" musaError_t musaStreamSetAttribute(musaStream_t handle, musaStreamAttrID attr,
                                              const musaStreamAttrValue *value) {
  // Checked before a backend forwards the call: CUDA crashes on a null value (the H200 does,
  // tests/hardware/probes/launch_ex_probe.h200.txt).
  if (!value)
    return recordError(musaErrorInvalidValue);
  MUSA_BACKEND_HOOK(musaStreamSetAttribute, handle, attr, value);
  return apiCall([&] {
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    switch (attr) {
    case musaStreamAttributeAccessPolicyWindow: {
      if (!validAccessPolicyWindow(value->accessPolicyWindow))
        return musaErrorInvalidValue;
      std::lock_guard lock(stream->attributesMutex);
      stream->accessPolicyWindow = value->accessPolicyWindow;
      return musaSuccess;
    }
    case musaStreamAttributeSynchronizationPolicy: {
      musaSynchronizationPolicy policy = value->syncPolicy;
      if (policy < musaSyncPolicyAuto || policy > musaSyncPolicyBlockingSync)
        return musaErrorInvalidValue;
      std::lock_guard lock(stream->attributesMutex);
      stream->syncPolicy = policy;
      return musaSuccess;
    }
    case musaStreamAttributePriority: // later launches and graph launches use it
      stream->priority = clampPriority(value->priority);
      return musaSuccess;
    default:
      return musaErrorInvalidValue; // not an attribute of streams
    }
  });
}

extern "C" musaError_t musaStreamGetAttribute(musaStream_t handle, musaStreamAttrID attr,
                                              musaStreamAttrValue *value) {
  if (!value) // before a backend forwards it: CUDA crashes on a null value
    return recordError(musaErrorInvalidValue);
  MUSA_BACKEND_HOOK(musaStreamGetAttribute, handle, attr, value);
  return apiCall([&] {
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    musaStreamAttrValue out;
    std::memset(&out, 0, sizeof out);
    std::lock_guard lock(stream->attributesMutex);
    switch (attr) {
    case musaStreamAttributeAccessPolicyWindow: out.accessPolicyWindow = stream->accessPolicyWindow; break;
    case musaStreamAttributeSynchronizationPolicy: out.syncPolicy = stream->syncPolicy; break;
    case musaStreamAttributePriority: out.priority = stream->priority; break;
    default: return musaErrorInvalidValue;
    }
    *value = out;
    return musaSuccess;
  });
}

extern "C" musaError_t musaStreamCopyAttributes(musaStream_t dstHandle, musaStream_t srcHandle) {
  MUSA_BACKEND_HOOK(musaStreamCopyAttributes, dstHandle, srcHandle);
  return apiCall([&] {
    std::shared_ptr<Stream> dst = Runtime::get().resolveStream(dstHandle);
    std::shared_ptr<Stream> src = Runtime::get().resolveStream(srcHandle);
    if (!dst || !src)
      return musaErrorInvalidResourceHandle;
    if (dst == src)
      return musaSuccess;
    if (dst->device != src->device)
      return musaErrorDeviceUninitialized; // CUDA_ERROR_INVALID_CONTEXT: one context for both
    std::scoped_lock lock(dst->attributesMutex, src->attributesMutex);
    dst->accessPolicyWindow = src->accessPolicyWindow;
    dst->syncPolicy = src->syncPolicy;
    return musaSuccess;
  });
}

extern "C" musaError_t musaStreamGetFlags(musaStream_t handle, unsigned int *flags) {
  MUSA_BACKEND_HOOK(musaStreamGetFlags, handle, flags);
  return apiCall([&] {
    if (!flags)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    *flags = stream->flags;
    return musaSuccess;
  });
}

extern "C" musaError_t musaStreamGetId(musaStream_t handle, unsigned long long *streamId) {
  MUSA_BACKEND_HOOK(musaStreamGetId, handle, streamId);
  return apiCall([&] {
    if (!streamId)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    *streamId = stream->id;
    return musaSuccess;
  });
}

extern "C" musaError_t musaStreamGetDevice(musaStream_t handle, int *device) {
  MUSA_BACKEND_HOOK(musaStreamGetDevice, handle, device);
  return apiCall([&] {
    if (!device)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    *device = stream->device->ordinal();
    return musaSuccess;
  });
}

extern "C" musaError_t musaStreamAddCallback(musaStream_t handle, musaStreamCallback_t callback,
                                             void *userData, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaStreamAddCallback, handle, callback, userData, flags);
  return apiCall([&] {
    if (!callback || flags != 0)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    // Runs on the stream's worker once all earlier work is done; reports the device's state.
    Device *device = stream->device;
    auto call = [=] { callback(handle, device->stickyError(), userData); };
    if (Capture::active(*stream))
      return musaErrorNotPermitted; // callbacks cannot be captured (use musaLaunchHostFunc)
    if (musaError_t e = stream->legacy ? Capture::checkLegacyUse(*device) : musaSuccess)
      return e;
    stream->device->submit(*stream, holdsForHost(*stream, call));
    return musaSuccess;
  });
}

extern "C" musaError_t musaLaunchHostFunc(musaStream_t handle, musaHostFn_t fn, void *userData) {
  MUSA_BACKEND_HOOK(musaLaunchHostFunc, handle, fn, userData);
  return apiCall([&] {
    if (!fn)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    Device *device = stream->device;
    bool captured;
    if (musaError_t e = Capture::route(*stream, musa::graph::NodeType::Host,
                                       [&] { return std::make_unique<HostWork>(fn, userData); },
                                       captured);
        e || captured)
      return e;
    stream->device->submit(*stream, holdsForHost(*stream, [=] {
                             if (!device->stickyError()) // like kernels, not after a fault
                               fn(userData);
                           }));
    return musaSuccess;
  });
}

extern "C" musaError_t musaStreamCreate(musaStream_t *stream) {
  MUSA_BACKEND_HOOK(musaStreamCreate, stream);
  return musaStreamCreateWithFlags(stream, musaStreamDefault);
}

extern "C" musaError_t musaStreamDestroy(musaStream_t handle) {
  MUSA_BACKEND_HOOK(musaStreamDestroy, handle);
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
  MUSA_BACKEND_HOOK(musaStreamSynchronize, handle);
  return apiCall([&] {
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    if (Capture::active(*stream)) // waiting for captured work that never runs
      return Capture::invalidateAll(*stream->device, musaErrorStreamCaptureUnsupported);
    stream->queue.synchronize();
    stream->device->observe(*stream);
    releasePoolMemoryAboveThresholds();
    return stream->device->stickyError();
  });
}

extern "C" musaError_t musaStreamQuery(musaStream_t handle) {
  MUSA_BACKEND_HOOK(musaStreamQuery, handle);
  return apiCall([&] {
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    if (musaError_t e = stream->device->stickyError())
      return e;
    if (Capture::active(*stream))
      return Capture::invalidateAll(*stream->device, musaErrorStreamCaptureUnsupported);
    return stream->queue.idle() ? musaSuccess : musaErrorNotReady;
  });
}
