// Memory entry points: allocation, copies and memset.
#include "ApiShell.h"
#include "Runtime.h"

#include <cstring>

using namespace musa::rt;

namespace {

/// The device whose live allocation holds [p, p+n), or null.
Device *deviceRange(const void *p, size_t n) {
  Device *d = Runtime::get().deviceOwning(p);
  return d && d->memory().contains(p, n) ? d : nullptr;
}

/// Validates a copy and resolves musaMemcpyDefault. On success `device` is the device whose
/// streams order the copy (the current device for host-to-host copies).
musaError_t checkCopy(void *dst, const void *src, size_t count, musaMemcpyKind &kind,
                      Device *&device) {
  if (!dst || !src)
    return musaErrorInvalidValue;
  if (kind < musaMemcpyHostToHost || kind > musaMemcpyDefault)
    return musaErrorInvalidMemcpyDirection;
  Runtime &rt = Runtime::get();
  bool dstOnDevice = rt.deviceOwning(dst) != nullptr;
  bool srcOnDevice = rt.deviceOwning(src) != nullptr;
  if (kind == musaMemcpyDefault)
    kind = dstOnDevice ? (srcOnDevice ? musaMemcpyDeviceToDevice : musaMemcpyHostToDevice)
                       : (srcOnDevice ? musaMemcpyDeviceToHost : musaMemcpyHostToHost);
  Device *dstDev = nullptr, *srcDev = nullptr;
  if (kind == musaMemcpyHostToDevice || kind == musaMemcpyDeviceToDevice)
    if (!(dstDev = deviceRange(dst, count)))
      return musaErrorInvalidValue; // not (wholly) inside a live device allocation
  if (kind == musaMemcpyDeviceToHost || kind == musaMemcpyDeviceToDevice)
    if (!(srcDev = deviceRange(src, count)))
      return musaErrorInvalidValue;
  device = dstDev ? dstDev : srcDev ? srcDev : rt.currentDevice();
  if (!device)
    return musaErrorNoDevice;
  return device->stickyError();
}

musaError_t copy(void *dst, const void *src, size_t count, musaMemcpyKind kind,
                 musaStream_t handle, bool async) {
  if (count == 0)
    return musaSuccess;
  Device *device = nullptr;
  if (musaError_t e = checkCopy(dst, src, count, kind, device))
    return e;
  Stream *stream = Runtime::get().resolveStream(handle);
  if (!stream)
    return musaErrorInvalidResourceHandle;
  // Overlapping device ranges are undefined on hardware; memmove keeps the data intact.
  uint64_t ticket = stream->device->submit(*stream, [=] { std::memmove(dst, src, count); });
  if (!async)
    stream->queue.waitUntil(ticket);
  return musaSuccess;
}

musaError_t memset(void *ptr, int value, size_t count, musaStream_t handle, bool async) {
  if (count == 0)
    return musaSuccess;
  if (!ptr)
    return musaErrorInvalidValue;
  Device *device = deviceRange(ptr, count);
  if (!device)
    return musaErrorInvalidValue;
  if (musaError_t e = device->stickyError())
    return e;
  Stream *stream = Runtime::get().resolveStream(handle);
  if (!stream)
    return musaErrorInvalidResourceHandle;
  uint64_t ticket =
      stream->device->submit(*stream, [=] { std::memset(ptr, value & 0xff, count); });
  if (!async)
    stream->queue.waitUntil(ticket);
  return musaSuccess;
}

} // namespace

extern "C" musaError_t musaMalloc(void **devPtr, size_t size) {
  return apiCall([&] {
    if (!devPtr)
      return musaErrorInvalidValue;
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    if (musaError_t e = d->stickyError())
      return e;
    if (size == 0) {
      *devPtr = nullptr;
      return musaSuccess;
    }
    void *p = d->memory().allocate(size);
    if (!p)
      return musaErrorOutOfMemory;
    *devPtr = p;
    return musaSuccess;
  });
}

extern "C" musaError_t musaFree(void *devPtr) {
  return apiCall([&] {
    if (!devPtr)
      return musaSuccess;
    Device *d = Runtime::get().deviceOwning(devPtr);
    if (!d || !d->memory().find(devPtr) || d->memory().find(devPtr)->base != devPtr)
      return musaErrorInvalidValue;
    // musaFree synchronises: kernels still using the memory finish first.
    d->synchronize();
    return d->memory().free(devPtr) ? musaSuccess : musaErrorInvalidValue;
  });
}

extern "C" musaError_t musaHostAlloc(void **ptr, size_t size, unsigned int flags) {
  return apiCall([&] {
    constexpr unsigned known = musaHostAllocPortable | musaHostAllocMapped |
                               musaHostAllocWriteCombined;
    if (!ptr || (flags & ~known))
      return musaErrorInvalidValue;
    if (size == 0) {
      *ptr = nullptr;
      return musaSuccess;
    }
    void *p = Runtime::get().allocateHost(size, flags);
    if (!p)
      return musaErrorOutOfMemory;
    *ptr = p;
    return musaSuccess;
  });
}

extern "C" musaError_t musaMallocHost(void **ptr, size_t size) {
  return musaHostAlloc(ptr, size, musaHostAllocDefault);
}

extern "C" musaError_t musaFreeHost(void *ptr) {
  return apiCall([&] {
    if (!ptr)
      return musaSuccess;
    if (Device *d = Runtime::get().currentDevice())
      d->synchronize();
    return Runtime::get().freeHost(ptr) ? musaSuccess : musaErrorInvalidValue;
  });
}

extern "C" musaError_t musaMemcpy(void *dst, const void *src, size_t count,
                                  enum musaMemcpyKind kind) {
  return apiCall([&] { return copy(dst, src, count, kind, nullptr, false); });
}

extern "C" musaError_t musaMemcpyAsync(void *dst, const void *src, size_t count,
                                       enum musaMemcpyKind kind, musaStream_t stream) {
  return apiCall([&] { return copy(dst, src, count, kind, stream, true); });
}

extern "C" musaError_t musaMemset(void *devPtr, int value, size_t count) {
  return apiCall([&] { return memset(devPtr, value, count, nullptr, false); });
}

extern "C" musaError_t musaMemsetAsync(void *devPtr, int value, size_t count,
                                       musaStream_t stream) {
  return apiCall([&] { return memset(devPtr, value, count, stream, true); });
}
