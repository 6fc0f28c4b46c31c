// Stream-ordered allocation: musaMallocAsync, musaFreeAsync and the memory pool calls.
#include "ApiShell.h"
#include "Capture.h"
#include "GraphWork.h"
#include "MemoryPool.h"
#include "Runtime.h"
#include "backend/Backend.h"

using namespace musa::rt;

namespace {

/// A captured allocation: a memory allocation node on `device`, its address fixed now.
musaError_t captureAllocation(Stream &stream, Device &device, size_t size, void **out) {
  if (size == 0)
    return musaErrorInvalidValue;
  void *p = device.memory().allocate(size, GraphAllocation);
  if (!p)
    return musaErrorOutOfMemory;
  auto allocation = std::make_shared<GraphMemoryBlock>(&device, p, size);
  if (musaError_t e = Capture::addNode(stream, musa::graph::NodeType::MemAlloc,
                                       std::make_unique<MemAllocWork>(allocation)))
    return e;
  *out = p;
  return musaSuccess;
}

musaError_t allocateFrom(MemoryPool &pool, Device &poolDevice, void **out, size_t size,
                         musaStream_t handle) {
  std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
  if (!stream)
    return musaErrorInvalidResourceHandle;
  if (musaError_t e = poolDevice.stickyError())
    return e;
  if (pool.importedFd >= 0)
    return musaErrorInvalidValue; // an imported pool only maps what its exporter exported
  if (Capture::active(*stream))
    return captureAllocation(*stream, poolDevice, size, out);
  // The memory exists from this call on, so any later point in the stream may use it.
  // (Stream-ordered allocation is not one of the calls a capture prohibits.)
  if (size == 0) {
    *out = nullptr;
    return musaSuccess;
  }
  void *p = poolDevice.pools.allocate(pool, size, stream);
  if (!p)
    return musaErrorOutOfMemory;
  *out = p;
  return musaSuccess;
}

/// The live pool `handle` names, or the error for it.
musaError_t lookUp(musaMemPool_t handle, MemoryPool *&pool, Device *&device) {
  pool = findPool(handle, &device);
  return pool ? musaSuccess : musaErrorInvalidValue;
}

} // namespace

extern "C" musaError_t musaMallocAsync(void **devPtr, size_t size, musaStream_t handle) {
  MUSA_BACKEND_HOOK(musaMallocAsync, devPtr, size, handle);
  return apiCall([&] {
    if (!devPtr)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    Device &device = *stream->device;
    return allocateFrom(*device.pools.current(), device, devPtr, size, handle);
  });
}

extern "C" musaError_t musaMallocFromPoolAsync(void **devPtr, size_t size, musaMemPool_t memPool,
                                               musaStream_t handle) {
  MUSA_BACKEND_HOOK(musaMallocFromPoolAsync, devPtr, size, memPool, handle);
  return apiCall([&] {
    if (!devPtr)
      return musaErrorInvalidValue;
    MemoryPool *pool;
    Device *device;
    if (musaError_t e = lookUp(memPool, pool, device))
      return e;
    return allocateFrom(*pool, *device, devPtr, size, handle);
  });
}

extern "C" musaError_t musaFreeAsync(void *devPtr, musaStream_t handle) {
  MUSA_BACKEND_HOOK(musaFreeAsync, devPtr, handle);
  return apiCall([&] {
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(handle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    if (!devPtr)
      return musaSuccess;
    auto where = Runtime::get().findDevicePointer(devPtr);
    if (!where || where->range.base != devPtr ||
        (where->range.tag != PlainAllocation && where->range.tag != GraphAllocation &&
         where->range.tag != PoolAllocation && where->range.tag != PoolImportAllocation))
      return musaErrorInvalidValue;
    Device *device = where->device;
    AllocationTag tag = AllocationTag(where->range.tag);
    if (tag == PoolImportAllocation && !Capture::active(*stream)) {
      // An imported pointer: unmapped when the stream gets here.
      stream->device->submit(*stream, [device, devPtr] { device->memory().unmapForeign(devPtr); });
      return musaSuccess;
    }
    if (Capture::active(*stream)) {
      if (tag != GraphAllocation)
        return musaErrorInvalidValue; // a captured free needs memory the graph allocated
      return Capture::addNode(*stream, musa::graph::NodeType::MemFree,
                              std::make_unique<MemFreeWork>(device, devPtr));
    }
    if (tag == PoolAllocation) {
      // Reusable at once by later allocations on this stream; cached (and faulting on
      // touch) when the stream gets here.
      uint64_t ticket = device->pools.beginFree(devPtr, stream);
      if (!ticket)
        return musaErrorInvalidValue; // already being freed
      stream->device->submit(*stream,
                             [device, devPtr, ticket] { device->pools.finishFree(devPtr, ticket); });
      return musaSuccess;
    }
    // Freed when the stream reaches this point; earlier work on the stream may still use it.
    stream->device->submit(*stream, [device, devPtr, tag] {
      if (tag == GraphAllocation)
        device->graphMemory.setInUse(devPtr, false);
      else
        device->memory().free(devPtr);
    });
    return musaSuccess;
  });
}

extern "C" musaError_t musaDeviceGetDefaultMemPool(musaMemPool_t *memPool, int device) {
  MUSA_BACKEND_HOOK(musaDeviceGetDefaultMemPool, memPool, device);
  return apiCall([&] {
    if (!memPool)
      return musaErrorInvalidValue;
    Device *d = Runtime::get().device(device);
    if (!d)
      return musaErrorInvalidDevice;
    *memPool = handleOf(d->pools.defaultPool());
    return musaSuccess;
  });
}

extern "C" musaError_t musaDeviceGetMemPool(musaMemPool_t *memPool, int device) {
  MUSA_BACKEND_HOOK(musaDeviceGetMemPool, memPool, device);
  return apiCall([&] {
    if (!memPool)
      return musaErrorInvalidValue;
    Device *d = Runtime::get().device(device);
    if (!d)
      return musaErrorInvalidDevice;
    *memPool = handleOf(d->pools.current());
    return musaSuccess;
  });
}

extern "C" musaError_t musaDeviceSetMemPool(int device, musaMemPool_t memPool) {
  MUSA_BACKEND_HOOK(musaDeviceSetMemPool, device, memPool);
  return apiCall([&] {
    Device *d = Runtime::get().device(device);
    if (!d)
      return musaErrorInvalidDevice;
    MemoryPool *pool;
    Device *owner;
    if (musaError_t e = lookUp(memPool, pool, owner))
      return e;
    if (owner != d)
      return musaErrorInvalidDevice; // a device's current pool holds that device's memory
    d->pools.setCurrent(pool);
    return musaSuccess;
  });
}

namespace {
/// The device of a location-based pool call (CUDA 13): pinned pools of a device location. A
/// bad device, a null argument or another allocation type is InvalidValue (the H100's answers,
/// tests/hardware/session19/location_pools.txt); host locations and managed pools, which the
/// GPU has, are not built here: NotSupported.
musaError_t poolDevice(const musaMemLocation *location, musaMemAllocationType type,
                       Device *&device) {
  if (!location || type == musaMemAllocationTypeInvalid)
    return musaErrorInvalidValue;
  if (type != musaMemAllocationTypePinned ||
      (location->type >= musaMemLocationTypeHost &&
       location->type <= musaMemLocationTypeHostNumaCurrent))
    return musaErrorNotSupported;
  device = location->type == musaMemLocationTypeDevice ? Runtime::get().device(location->id)
                                                       : nullptr;
  return device ? musaSuccess : musaErrorInvalidValue;
}
} // namespace

namespace {
/// musaMemGetDefaultMemPool / musaMemGetMemPool: the location's default or current pool.
musaError_t locationPool(musaMemPool_t *memPool, const musaMemLocation *location,
                         musaMemAllocationType type, bool current) {
  Device *d = nullptr;
  if (!memPool)
    return musaErrorInvalidValue;
  if (musaError_t e = poolDevice(location, type, d))
    return e;
  *memPool = handleOf(current ? d->pools.current() : d->pools.defaultPool());
  return musaSuccess;
}
} // namespace

extern "C" musaError_t musaMemGetDefaultMemPool(musaMemPool_t *memPool,
                                                musaMemLocation *location,
                                                musaMemAllocationType type) {
  MUSA_BACKEND_HOOK(musaMemGetDefaultMemPool, memPool, location, type);
  return apiCall([&] { return locationPool(memPool, location, type, false); });
}

extern "C" musaError_t musaMemGetMemPool(musaMemPool_t *memPool, musaMemLocation *location,
                                         musaMemAllocationType type) {
  MUSA_BACKEND_HOOK(musaMemGetMemPool, memPool, location, type);
  return apiCall([&] { return locationPool(memPool, location, type, true); });
}

extern "C" musaError_t musaMemSetMemPool(musaMemLocation *location, musaMemAllocationType type,
                                         musaMemPool_t memPool) {
  MUSA_BACKEND_HOOK(musaMemSetMemPool, location, type, memPool);
  return apiCall([&] {
    Device *d = nullptr;
    if (musaError_t e = poolDevice(location, type, d))
      return e;
    MemoryPool *pool;
    Device *owner;
    if (!memPool || lookUp(memPool, pool, owner) || owner != d)
      return musaErrorInvalidValue; // the H100 answers so for a pool of another location too
    d->pools.setCurrent(pool);
    return musaSuccess;
  });
}

extern "C" musaError_t musaMemPoolCreate(musaMemPool_t *memPool, const musaMemPoolProps *props) {
  MUSA_BACKEND_HOOK(musaMemPoolCreate, memPool, props);
  return apiCall([&] {
    if (!memPool || !props)
      return musaErrorInvalidValue;
    if (props->allocType != musaMemAllocationTypePinned ||
        props->location.type != musaMemLocationTypeDevice)
      return musaErrorInvalidValue;
    if (props->handleTypes != musaMemHandleTypeNone &&
        props->handleTypes != musaMemHandleTypePosixFileDescriptor)
      return musaErrorInvalidValue;
    Device *d = Runtime::get().device(props->location.id);
    if (!d)
      return musaErrorInvalidDevice;
    *memPool = handleOf(d->pools.create(*props));
    return musaSuccess;
  });
}

extern "C" musaError_t musaMemPoolDestroy(musaMemPool_t memPool) {
  MUSA_BACKEND_HOOK(musaMemPoolDestroy, memPool);
  return apiCall([&] {
    MemoryPool *pool;
    Device *device;
    if (musaError_t e = lookUp(memPool, pool, device))
      return e;
    // The default pool cannot be destroyed.
    return device->pools.destroy(pool) ? musaSuccess : musaErrorInvalidValue;
  });
}

extern "C" musaError_t musaMemPoolSetAttribute(musaMemPool_t memPool, musaMemPoolAttr attr,
                                               void *value) {
  MUSA_BACKEND_HOOK(musaMemPoolSetAttribute, memPool, attr, value);
  return apiCall([&] {
    MemoryPool *pool;
    Device *device;
    if (musaError_t e = lookUp(memPool, pool, device))
      return e;
    if (!value)
      return musaErrorInvalidValue;
    return device->pools.setAttribute(*pool, attr, value);
  });
}

extern "C" musaError_t musaMemPoolGetAttribute(musaMemPool_t memPool, musaMemPoolAttr attr,
                                               void *value) {
  MUSA_BACKEND_HOOK(musaMemPoolGetAttribute, memPool, attr, value);
  return apiCall([&] {
    MemoryPool *pool;
    Device *device;
    if (musaError_t e = lookUp(memPool, pool, device))
      return e;
    if (!value)
      return musaErrorInvalidValue;
    return device->pools.getAttribute(*pool, attr, value);
  });
}

extern "C" musaError_t musaMemPoolTrimTo(musaMemPool_t memPool, size_t minBytesToKeep) {
  MUSA_BACKEND_HOOK(musaMemPoolTrimTo, memPool, minBytesToKeep);
  return apiCall([&] {
    MemoryPool *pool;
    Device *device;
    if (musaError_t e = lookUp(memPool, pool, device))
      return e;
    device->pools.trim(*pool, minBytesToKeep);
    return musaSuccess;
  });
}

extern "C" musaError_t musaMemPoolSetAccess(musaMemPool_t memPool,
                                            const musaMemAccessDesc *descList, size_t count) {
  MUSA_BACKEND_HOOK(musaMemPoolSetAccess, memPool, descList, count);
  return apiCall([&] {
    MemoryPool *pool;
    Device *device;
    if (musaError_t e = lookUp(memPool, pool, device))
      return e;
    if (count && !descList)
      return musaErrorInvalidValue;
    // Access is recorded and reported; every simulated device shares the host's memory, so
    // a peer without access is not stopped from touching the pool's memory.
    return device->pools.setAccess(*pool, descList, count);
  });
}

extern "C" musaError_t musaMemPoolGetAccess(musaMemAccessFlags *flags, musaMemPool_t memPool,
                                            musaMemLocation *location) {
  MUSA_BACKEND_HOOK(musaMemPoolGetAccess, flags, memPool, location);
  return apiCall([&] {
    MemoryPool *pool;
    Device *device;
    if (musaError_t e = lookUp(memPool, pool, device))
      return e;
    if (!flags || !location)
      return musaErrorInvalidValue;
    musaMemAccessFlags f;
    if (musaError_t e = device->pools.getAccess(*pool, *location, f))
      return e;
    *flags = f;
    return musaSuccess;
  });
}
