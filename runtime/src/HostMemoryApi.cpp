// Pinned, write-combined, mapped and registered host memory.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Runtime.h"
#include "Capture.h"

using namespace musa::rt;

namespace {
constexpr unsigned KnownHostAllocFlags =
    musaHostAllocPortable | musaHostAllocMapped | musaHostAllocWriteCombined;
constexpr unsigned KnownRegisterFlags = musaHostRegisterPortable | musaHostRegisterMapped |
                                        musaHostRegisterIoMemory | musaHostRegisterReadOnly;

musaError_t unregister(void *ptr) {
  if (!ptr)
    return musaErrorInvalidValue;
  if (Device *d = Runtime::get().currentDevice())
    d->synchronize();
  return Runtime::get().unregisterHost(ptr) ? musaSuccess : musaErrorHostMemoryNotRegistered;
}
} // namespace

extern "C" musaError_t musaHostAlloc(void **ptr, size_t size, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaHostAlloc, ptr, size, flags);
  return apiCall([&] {
    if (!ptr || (flags & ~KnownHostAllocFlags))
      return musaErrorInvalidValue;
    if (musaError_t e = Capture::checkUnsafeCall())
      return e;
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
  MUSA_BACKEND_HOOK(musaMallocHost, ptr, size);
  return musaHostAlloc(ptr, size, musaHostAllocDefault);
}

extern "C" musaError_t musaFreeHost(void *ptr) {
  MUSA_BACKEND_HOOK(musaFreeHost, ptr);
  return apiCall([&] {
    if (!ptr)
      return musaSuccess;
    if (Device *d = Runtime::get().currentDevice())
      d->synchronize();
    return Runtime::get().freeHost(ptr) ? musaSuccess : musaErrorInvalidValue;
  });
}

extern "C" musaError_t musaHostRegister(void *ptr, size_t size, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaHostRegister, ptr, size, flags);
  return apiCall([&] {
    if (!ptr || size == 0 || (flags & ~KnownRegisterFlags))
      return musaErrorInvalidValue;
    return Runtime::get().registerHost(ptr, size, flags);
  });
}

extern "C" musaError_t musaHostUnregister(void *ptr) {
  MUSA_BACKEND_HOOK(musaHostUnregister, ptr);
  return apiCall([&] { return unregister(ptr); });
}

extern "C" musaError_t musaMemHostUnregister(void *ptr) {
  MUSA_BACKEND_HOOK(musaMemHostUnregister, ptr);
  return apiCall([&] { return unregister(ptr); });
}

extern "C" musaError_t musaHostGetDevicePointer(void **devPtr, void *hostPtr,
                                                unsigned int flags) {
  MUSA_BACKEND_HOOK(musaHostGetDevicePointer, devPtr, hostPtr, flags);
  return apiCall([&] {
    if (!devPtr || !hostPtr || flags != 0)
      return musaErrorInvalidValue;
    if (!Runtime::get().findHost(hostPtr))
      return musaErrorInvalidValue;
    // Unified addressing: the device sees pinned host memory at the same address.
    *devPtr = hostPtr;
    return musaSuccess;
  });
}

extern "C" musaError_t musaHostGetFlags(unsigned int *flags, void *hostPtr) {
  MUSA_BACKEND_HOOK(musaHostGetFlags, flags, hostPtr);
  return apiCall([&] {
    if (!flags || !hostPtr)
      return musaErrorInvalidValue;
    auto range = Runtime::get().findHost(hostPtr);
    if (!range || range->registered)
      return musaErrorInvalidValue;
    *flags = range->flags | musaHostAllocMapped;
    return musaSuccess;
  });
}
