// Memory pools shared between processes. A pool made with musaMemHandleTypePosixFileDescriptor
// exports a descriptor of its device's memory (the memfd behind the device range), which the
// program passes to another process (over a Unix socket, as CUDA programs do); the importer's
// pool maps the pointers the exporter exports: each export is where the allocation lies in
// that memory and its size, so what one process writes the other reads. Imported pointers are
// freed (unmapped) with musaFree or musaFreeAsync; an imported pool allocates nothing.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "MemoryPool.h"
#include "Runtime.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <string_view>

using namespace musa::rt;

namespace {

constexpr char PointerMagic[8] = {'M', 'S', 'I', 'M', 'P', 'T', 'R', '1'};

struct PointerBody {
  char magic[8];
  uint64_t offset; // in the exporter's device memory
  uint64_t size;
};
static_assert(sizeof(PointerBody) <= sizeof(musaMemPoolPtrExportData));

/// Whether `fd` is a musa-sim device's memory (the only memory a pool can share).
bool deviceMemoryFd(int fd) {
  struct stat st {};
  char link[64], target[128] = {};
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  return fd >= 0 && fstat(fd, &st) == 0 && readlink(link, target, sizeof target - 1) > 0 &&
         std::string_view(target).find("musa-sim-device") != std::string_view::npos;
}

} // namespace

extern "C" {

musaError_t musaMemPoolExportToShareableHandle(void *shareableHandle, musaMemPool_t memPool,
                                               musaMemAllocationHandleType handleType,
                                               unsigned int flags) {
  MUSA_BACKEND_HOOK(musaMemPoolExportToShareableHandle, shareableHandle, memPool, handleType,
                    flags);
  return apiCall([&] {
    if (!shareableHandle || flags || handleType != musaMemHandleTypePosixFileDescriptor)
      return musaErrorInvalidValue;
    Device *device = nullptr;
    MemoryPool *pool = findPool(memPool, &device);
    if (!pool || pool->importedFd >= 0 ||
        !(pool->props.handleTypes & musaMemHandleTypePosixFileDescriptor))
      return musaErrorInvalidValue; // made without a shareable handle type
    int memory = device->memory().shareableFd();
    if (memory < 0)
      return musaErrorNotSupported;
    int fd = dup(memory);
    if (fd < 0)
      return musaErrorMemoryAllocation;
    *static_cast<int *>(shareableHandle) = fd;
    return musaSuccess;
  });
}

musaError_t musaMemPoolImportFromShareableHandle(musaMemPool_t *memPool, void *shareableHandle,
                                                 musaMemAllocationHandleType handleType,
                                                 unsigned int flags) {
  MUSA_BACKEND_HOOK(musaMemPoolImportFromShareableHandle, memPool, shareableHandle, handleType,
                    flags);
  return apiCall([&] {
    intptr_t raw = reinterpret_cast<intptr_t>(shareableHandle);
    if (!memPool || flags || handleType != musaMemHandleTypePosixFileDescriptor || raw < 0 ||
        raw > INT_MAX || !deviceMemoryFd(int(raw)))
      return musaErrorInvalidValue;
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    int fd = fcntl(int(raw), F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
      return musaErrorMemoryAllocation;
    musaMemPoolProps props{};
    props.allocType = musaMemAllocationTypePinned;
    props.handleTypes = musaMemHandleTypePosixFileDescriptor;
    props.location = {musaMemLocationTypeDevice, d->ordinal()};
    MemoryPool *pool = d->pools.create(props);
    pool->importedFd = fd;
    *memPool = handleOf(pool);
    return musaSuccess;
  });
}

musaError_t musaMemPoolExportPointer(musaMemPoolPtrExportData *exportData, void *ptr) {
  MUSA_BACKEND_HOOK(musaMemPoolExportPointer, exportData, ptr);
  return apiCall([&] {
    if (!exportData || !ptr)
      return musaErrorInvalidValue;
    auto where = Runtime::get().findDevicePointer(ptr);
    if (!where || where->range.tag != PoolAllocation || where->range.base != ptr)
      return musaErrorInvalidValue;
    MemoryPool *pool = where->device->pools.poolOf(ptr);
    if (!pool || !(pool->props.handleTypes & musaMemHandleTypePosixFileDescriptor))
      return musaErrorInvalidValue; // its pool cannot be shared
    PointerBody body{};
    std::memcpy(body.magic, PointerMagic, sizeof PointerMagic);
    body.offset = where->device->memory().offsetOf(ptr);
    body.size = where->range.size;
    *exportData = musaMemPoolPtrExportData{};
    std::memcpy(exportData->reserved, &body, sizeof body);
    return musaSuccess;
  });
}

musaError_t musaMemPoolImportPointer(void **ptr, musaMemPool_t memPool,
                                     musaMemPoolPtrExportData *exportData) {
  MUSA_BACKEND_HOOK(musaMemPoolImportPointer, ptr, memPool, exportData);
  return apiCall([&] {
    if (!ptr || !exportData)
      return musaErrorInvalidValue;
    PointerBody body;
    std::memcpy(&body, exportData->reserved, sizeof body);
    if (std::memcmp(body.magic, PointerMagic, sizeof PointerMagic) != 0 || !body.size)
      return musaErrorInvalidValue;
    Device *device = nullptr;
    MemoryPool *pool = findPool(memPool, &device);
    if (!pool || pool->importedFd < 0)
      return musaErrorInvalidValue; // only an imported pool maps exported pointers
    void *p = device->memory().mapForeign(pool->importedFd, body.offset, body.size,
                                          PoolImportAllocation);
    if (!p)
      return musaErrorInvalidValue;
    *ptr = p;
    return musaSuccess;
  });
}

} // extern "C"
