// Pointer queries: what memory a pointer is, on which device, and its range.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Runtime.h"

using namespace musa::rt;

namespace {

struct PointerInfo {
  musaMemoryType type = musaMemoryTypeUnregistered;
  int device = musaInvalidDeviceId;
  void *devicePointer = nullptr;
  void *hostPointer = nullptr;
  char *rangeStart = nullptr;
  size_t rangeSize = 0;
};

PointerInfo describe(const void *ptr) {
  PointerInfo info;
  info.hostPointer = const_cast<void *>(ptr); // unregistered memory: CUDA reports the pointer
  Runtime &rt = Runtime::get();
  auto *p = const_cast<void *>(ptr);
  auto where = rt.findDevicePointer(ptr);
  if (where && where->range.tag == HeapAllocation)
    where.reset(); // device malloc() memory: unregistered to the runtime, as the H100 reports
  if (where) {
    bool managed = where->range.tag == ManagedAllocation;
    info.type = managed ? musaMemoryTypeManaged : musaMemoryTypeDevice;
    info.device = where->device->ordinal();
    info.devicePointer = p;
    info.hostPointer = managed ? p : nullptr;
    info.rangeStart = where->range.base;
    info.rangeSize = where->range.size;
  } else if (auto host = rt.findHost(ptr)) {
    info.type = musaMemoryTypeHost;
    // CUDA: for host memory, "the device which was current when the allocation was made".
    info.device = host->device;
    info.devicePointer = p; // mapped at the same address (unified addressing)
    info.hostPointer = p;
    info.rangeStart = host->base;
    info.rangeSize = host->size;
  }
  return info;
}

} // namespace

extern "C" musaError_t musaPointerGetAttributes(musaPointerAttributes *attributes,
                                                const void *ptr) {
  MUSA_BACKEND_HOOK(musaPointerGetAttributes, attributes, ptr);
  return apiCall([&] {
    if (!attributes)
      return musaErrorInvalidValue;
    PointerInfo info = describe(ptr);
    // Unknown host memory, freed memory and null are "unregistered", not errors (CUDA 11 and
    // later; tests/hardware/runtime_corner_cases.h200.txt).
    *attributes = {info.type, info.device, info.devicePointer, info.hostPointer};
    return musaSuccess;
  });
}

extern "C" musaError_t musaPointerGetAttribute(void *data, musaPointer_attribute attribute,
                                               const void *ptr) {
  MUSA_BACKEND_HOOK(musaPointerGetAttribute, data, attribute, ptr);
  return apiCall([&] {
    if (!data || !ptr)
      return musaErrorInvalidValue;
    PointerInfo info = describe(ptr);
    if (info.type == musaMemoryTypeUnregistered)
      return musaErrorInvalidValue; // the driver API knows nothing of plain host memory
    switch (attribute) {
    case MUSA_POINTER_ATTRIBUTE_CONTEXT:
      // One primary context per device: the device record stands for it.
      *static_cast<void **>(data) = Runtime::get().device(info.device);
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_MEMORY_TYPE:
      *static_cast<unsigned *>(data) = info.type;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_DEVICE_POINTER:
      *static_cast<void **>(data) = info.devicePointer;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_HOST_POINTER:
      if (!info.hostPointer)
        return musaErrorInvalidValue;
      *static_cast<void **>(data) = info.hostPointer;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_SYNC_MEMOPS:
      *static_cast<unsigned *>(data) = 1;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_BUFFER_ID:
      *static_cast<unsigned long long *>(data) = reinterpret_cast<uintptr_t>(info.rangeStart);
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_IS_MANAGED:
      *static_cast<unsigned *>(data) = info.type == musaMemoryTypeManaged;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *static_cast<int *>(data) = info.device;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_IS_LEGACY_IPC_CAPABLE:
      *static_cast<unsigned *>(data) = 0;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      *static_cast<void **>(data) = info.rangeStart;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_RANGE_SIZE:
      *static_cast<size_t *>(data) = info.rangeSize;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_MAPPED:
      *static_cast<unsigned *>(data) = 1;
      return musaSuccess;
    case MUSA_POINTER_ATTRIBUTE_P2P_TOKENS:
      return musaErrorNotSupported;
    }
    return musaErrorInvalidValue;
  });
}

extern "C" musaError_t musaPointerGetMemoryType(musaMemoryType *type, const void *ptr) {
  MUSA_BACKEND_HOOK(musaPointerGetMemoryType, type, ptr);
  return apiCall([&] {
    if (!type || !ptr)
      return musaErrorInvalidValue;
    *type = describe(ptr).type;
    return musaSuccess;
  });
}

extern "C" musaError_t musaPointerGetDevice(int *device, const void *ptr) {
  MUSA_BACKEND_HOOK(musaPointerGetDevice, device, ptr);
  return apiCall([&] {
    if (!device || !ptr)
      return musaErrorInvalidValue;
    PointerInfo info = describe(ptr);
    if (info.type == musaMemoryTypeUnregistered)
      return musaErrorInvalidValue;
    *device = info.device;
    return musaSuccess;
  });
}
