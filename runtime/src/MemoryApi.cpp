// Device, pitched and managed allocation entry points.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Runtime.h"
#include "Capture.h"
#include "ManagedAdvice.h"

using namespace musa::rt;

namespace {

size_t roundUp(size_t n, size_t a) { return a ? (n + a - 1) / a * a : n; }

musaError_t allocate(void **out, size_t size, AllocationTag tag) {
  if (!out)
    return musaErrorInvalidValue;
  if (musaError_t e = Capture::checkUnsafeCall())
    return e;
  Device *d = Runtime::get().currentDevice();
  if (!d)
    return musaErrorNoDevice;
  if (musaError_t e = d->stickyError())
    return e;
  if (size == 0) {
    *out = nullptr;
    return musaSuccess;
  }
  void *p = d->memory().allocate(size, tag);
  if (!p)
    return musaErrorOutOfMemory;
  if (tag == ManagedAllocation) // advice given to memory freed by a device reset
    ManagedAdvice::get().forget(uintptr_t(p), uintptr_t(p) + size);
  *out = p;
  return musaSuccess;
}

/// Pitch for rows of `width` bytes: the profile's texture alignment, as CUDA pads rows.
size_t pitchFor(size_t width) {
  Device *d = Runtime::get().currentDevice();
  return roundUp(width, d ? size_t(d->profile().textureAlignment) : 512);
}

/// A live managed allocation holding [p, p+count), or an error.
musaError_t managedRange(const void *p, size_t count, uintptr_t *allocLo = nullptr,
                         uintptr_t *allocHi = nullptr) {
  if (!p || count == 0)
    return musaErrorInvalidValue;
  auto where = Runtime::get().findDevicePointer(p);
  if (!where || where->range.tag != ManagedAllocation ||
      static_cast<const char *>(p) + count > where->range.base + where->range.size)
    return musaErrorInvalidValue;
  if (allocLo)
    *allocLo = uintptr_t(where->range.base), *allocHi = *allocLo + where->range.size;
  return musaSuccess;
}

} // namespace

extern "C" musaError_t musaMalloc(void **devPtr, size_t size) {
  MUSA_BACKEND_HOOK(musaMalloc, devPtr, size);
  return apiCall([&] { return allocate(devPtr, size, PlainAllocation); });
}

extern "C" musaError_t musaFree(void *devPtr) {
  MUSA_BACKEND_HOOK(musaFree, devPtr);
  return apiCall([&] {
    if (!devPtr)
      return musaSuccess;
    auto where = Runtime::get().findDevicePointer(devPtr);
    if (where && where->range.tag == ExternalAllocation) { // may start inside its first page
      where->device->synchronize();
      return freeExternalBuffer(*where->device, devPtr) ? musaSuccess : musaErrorInvalidValue;
    }
    if (where && where->range.tag == PoolImportAllocation && where->range.base == devPtr) {
      where->device->synchronize();
      return where->device->memory().unmapForeign(devPtr) ? musaSuccess : musaErrorInvalidValue;
    }
    // Arrays have their own free; the device heap is freed only by kernels, as in CUDA.
    if (!where || where->range.base != devPtr || where->range.tag == ArrayAllocation ||
        where->range.tag == HeapAllocation)
      return musaErrorInvalidValue;
    if (musaError_t e = Capture::checkUnsafeCall())
      return e;
    // musaFree synchronises: kernels still using the memory finish first.
    where->device->synchronize();
    if (where->range.tag == GraphAllocation) {
      // Graph memory goes back to its graph's pool (the graph may allocate it again).
      where->device->graphMemory.setInUse(devPtr, false);
      return musaSuccess;
    }
    if (where->range.tag == PoolAllocation) // back to its memory pool, as CUDA allows
      return where->device->pools.freeNow(devPtr) ? musaSuccess : musaErrorInvalidValue;
    if (!where->device->memory().free(devPtr))
      return musaErrorInvalidValue;
    if (where->range.tag == ManagedAllocation)
      ManagedAdvice::get().forget(uintptr_t(devPtr), uintptr_t(devPtr) + where->range.size);
    return musaSuccess;
  });
}

extern "C" musaError_t musaMallocPitch(void **devPtr, size_t *pitch, size_t width,
                                       size_t height) {
  MUSA_BACKEND_HOOK(musaMallocPitch, devPtr, pitch, width, height);
  return apiCall([&] {
    if (!devPtr || !pitch)
      return musaErrorInvalidValue;
    size_t rowPitch = pitchFor(width);
    if (height && rowPitch > SIZE_MAX / height)
      return musaErrorOutOfMemory;
    void *p = nullptr;
    if (musaError_t e = allocate(&p, rowPitch * height, PlainAllocation))
      return e;
    *devPtr = p;
    *pitch = rowPitch;
    return musaSuccess;
  });
}

extern "C" musaError_t musaMalloc3D(musaPitchedPtr *pitchedDevPtr, musaExtent extent) {
  MUSA_BACKEND_HOOK(musaMalloc3D, pitchedDevPtr, extent);
  return apiCall([&] {
    if (!pitchedDevPtr)
      return musaErrorInvalidValue;
    size_t rowPitch = pitchFor(extent.width);
    size_t rows = extent.height * extent.depth;
    if (extent.height && rows / extent.height != extent.depth)
      return musaErrorOutOfMemory;
    if (rows && rowPitch > SIZE_MAX / rows)
      return musaErrorOutOfMemory;
    void *p = nullptr;
    if (musaError_t e = allocate(&p, rowPitch * rows, PlainAllocation))
      return e;
    *pitchedDevPtr = {p, rowPitch, extent.width, extent.height};
    return musaSuccess;
  });
}

extern "C" musaError_t musaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaMallocManaged, devPtr, size, flags);
  return apiCall([&] {
    // AttachSingle is accepted as the guide shows (spec/DECISIONS.md, point 10).
    if (flags != musaMemAttachGlobal && flags != musaMemAttachHost &&
        flags != musaMemAttachSingle)
      return musaErrorInvalidValue;
    // Zero bytes succeed with a null pointer, as musaMalloc (measured on CUDA 13, H200).
    // Device memory is host memory here, so one allocation serves host and device alike.
    return allocate(devPtr, size, ManagedAllocation);
  });
}

namespace {
/// The device a location names, or musaCpuDeviceId for the host; false if it names neither.
bool deviceOfLocation(const musaMemLocation &location, int &device) {
  switch (location.type) {
  case musaMemLocationTypeDevice: device = location.id; return true;
  case musaMemLocationTypeHost:
  case musaMemLocationTypeHostNuma: // one host memory: every NUMA node is the host
  case musaMemLocationTypeHostNumaCurrent: device = musaCpuDeviceId; return true;
  default: return false;
  }
}

musaMemLocation locationOf(int device) {
  return device == musaCpuDeviceId ? musaMemLocation{musaMemLocationTypeHost, 0}
                                   : musaMemLocation{musaMemLocationTypeDevice, device};
}

musaError_t prefetch(const void *devPtr, size_t count, int dstDevice, musaStream_t streamHandle,
                     musaMemLocation where) {
  uintptr_t lo = 0, hi = 0;
  if (musaError_t e = managedRange(devPtr, count, &lo, &hi))
    return e;
  if (dstDevice != musaCpuDeviceId && !Runtime::get().device(dstDevice))
    return musaErrorInvalidDevice;
  std::shared_ptr<Stream> stream = Runtime::get().resolveStream(streamHandle);
  if (!stream)
    return musaErrorInvalidResourceHandle;
  // Migration has nothing to move (one memory); the prefetch still takes its place in the
  // stream so later work is ordered after it, as on hardware.
  stream->device->submit(*stream, [] {});
  // musaMemRangeAttributeLastPrefetchLocation: what was asked for, done or not (as in CUDA).
  ManagedAdvice::get().prefetched(uintptr_t(devPtr), uintptr_t(devPtr) + count, lo, hi, where);
  return musaSuccess;
}

musaError_t advise(const void *devPtr, size_t count, musaMemoryAdvise advice, int device,
                   musaMemLocation where) {
  uintptr_t lo = 0, hi = 0;
  if (musaError_t e = managedRange(devPtr, count, &lo, &hi))
    return e;
  if (advice < musaMemAdviseSetReadMostly || advice > musaMemAdviseUnsetAccessedBy)
    return musaErrorInvalidValue;
  bool needsDevice = advice != musaMemAdviseSetReadMostly &&
                     advice != musaMemAdviseUnsetReadMostly;
  if (needsDevice && device != musaCpuDeviceId && !Runtime::get().device(device))
    return musaErrorInvalidDevice;
  // Advice changes where pages would live, which one shared memory makes moot: it has no
  // effect on results, and is kept per page for musaMemRangeGetAttribute(s).
  ManagedAdvice::get().advise(uintptr_t(devPtr), uintptr_t(devPtr) + count, lo, hi, advice, where);
  return musaSuccess;
}
} // namespace

extern "C" musaError_t musaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                            musaStream_t streamHandle) {
  MUSA_BACKEND_HOOK(musaMemPrefetchAsync, devPtr, count, dstDevice, streamHandle);
  return apiCall(
      [&] { return prefetch(devPtr, count, dstDevice, streamHandle, locationOf(dstDevice)); });
}

extern "C" musaError_t musaMemPrefetchAsync_v2(const void *devPtr, size_t count,
                                               musaMemLocation location, unsigned int flags,
                                               musaStream_t streamHandle) {
  MUSA_BACKEND_HOOK(musaMemPrefetchAsync_v2, devPtr, count, location, flags, streamHandle);
  return apiCall([&] {
    int device = 0;
    if (flags != 0 || !deviceOfLocation(location, device)) // CUDA defines no flags yet
      return musaErrorInvalidValue;
    return prefetch(devPtr, count, device, streamHandle, location);
  });
}

extern "C" musaError_t musaStreamAttachMemAsync(musaStream_t streamHandle, void *devPtr,
                                                size_t length, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaStreamAttachMemAsync, streamHandle, devPtr, length, flags);
  return apiCall([&] {
    if (flags != musaMemAttachGlobal && flags != musaMemAttachHost &&
        flags != musaMemAttachSingle)
      return musaErrorInvalidValue;
    auto where = Runtime::get().findDevicePointer(devPtr);
    if (!devPtr || !where || where->range.tag != ManagedAllocation ||
        where->range.base != static_cast<char *>(devPtr))
      return musaErrorInvalidValue; // the start of a managed allocation
    if (length != 0 && length != where->range.size)
      return musaErrorInvalidValue; // zero or the whole allocation
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(streamHandle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    if (flags == musaMemAttachSingle && stream->legacy)
      return musaErrorInvalidValue; // single-stream attachment names a stream
    // Attachment decides which host accesses a device without concurrent managed access
    // allows while kernels run; the simulator's one memory allows all of them, so only its
    // place in the stream (work after it is ordered after it) remains to do.
    stream->device->submit(*stream, [] {});
    return musaSuccess;
  });
}

extern "C" musaError_t musaMemAdvise(const void *devPtr, size_t count,
                                     enum musaMemoryAdvise advice, int device) {
  MUSA_BACKEND_HOOK(musaMemAdvise, devPtr, count, advice, device);
  return apiCall([&] { return advise(devPtr, count, advice, device, locationOf(device)); });
}

extern "C" musaError_t musaMemAdvise_v2(const void *devPtr, size_t count,
                                        enum musaMemoryAdvise advice, musaMemLocation location) {
  MUSA_BACKEND_HOOK(musaMemAdvise_v2, devPtr, count, advice, location);
  return apiCall([&] {
    int device = 0;
    bool needsLocation = advice != musaMemAdviseSetReadMostly &&
                         advice != musaMemAdviseUnsetReadMostly;
    if (!deviceOfLocation(location, device)) {
      if (needsLocation)
        return musaErrorInvalidValue;
      device = musaCpuDeviceId; // read-mostly advice ignores the location, as in CUDA
    }
    // A location naming no device is an invalid value here, not an invalid device (measured:
    // CUDA 13 on the H200, tests/hardware/passthrough_h200.txt; prefetch says invalid device).
    if (needsLocation && device != musaCpuDeviceId && !Runtime::get().device(device))
      return musaErrorInvalidValue;
    return advise(devPtr, count, advice, device, location);
  });
}

extern "C" musaError_t musaMemRangeGetAttribute(void *data, size_t dataSize,
                                                enum musaMemRangeAttribute attribute,
                                                const void *devPtr, size_t count) {
  MUSA_BACKEND_HOOK(musaMemRangeGetAttribute, data, dataSize, attribute, devPtr, count);
  return apiCall([&] {
    uintptr_t lo = 0, hi = 0;
    if (musaError_t e = managedRange(devPtr, count, &lo, &hi))
      return e;
    return ManagedAdvice::get().query(data, dataSize, attribute, uintptr_t(devPtr),
                                      uintptr_t(devPtr) + count, lo, hi);
  });
}

extern "C" musaError_t musaMemRangeGetAttributes(void **data, size_t *dataSizes,
                                                 enum musaMemRangeAttribute *attributes,
                                                 size_t numAttributes, const void *devPtr,
                                                 size_t count) {
  MUSA_BACKEND_HOOK(musaMemRangeGetAttributes, data, dataSizes, attributes, numAttributes, devPtr,
                    count);
  return apiCall([&] {
    if (!data || !dataSizes || !attributes || numAttributes == 0)
      return musaErrorInvalidValue;
    uintptr_t lo = 0, hi = 0;
    if (musaError_t e = managedRange(devPtr, count, &lo, &hi))
      return e;
    for (size_t k = 0; k < numAttributes; ++k)
      if (musaError_t e = ManagedAdvice::get().query(data[k], dataSizes[k], attributes[k],
                                                     uintptr_t(devPtr), uintptr_t(devPtr) + count,
                                                     lo, hi))
        return e;
    return musaSuccess;
  });
}
