// External memory: a file descriptor another API (or process) exported, imported as device
// memory. An OpaqueFd import takes the descriptor (the runtime closes it when the external
// memory is destroyed); musaExternalMemoryGetMappedBuffer maps a range of it into the
// device's address range, where kernels, copies and pointer queries see it as device memory
// and musaFree unmaps it. The descriptor may be anything the host can map: a memfd, a file,
// or a driver-API allocation exported with muMemExportToShareableHandle, so what one side
// writes the other reads. Mipmapped arrays over external memory are not built.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Runtime.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>

using namespace musa::rt;

namespace {

struct External {
  External(int fd, unsigned long long size) : fd(fd), size(size) {}
  External(const External &) = delete;
  ~External() { close(fd); }
  int fd;
  unsigned long long size;
};

struct ExternalTable {
  std::mutex mutex;
  std::map<const External *, std::shared_ptr<External>> live;
  /// Mapped buffers: the pointer handed out -> where its mapping starts (a mapping begins at
  /// the page holding the buffer's offset).
  std::map<uintptr_t, void *> buffers;
  static ExternalTable &get() {
    static ExternalTable *t = new ExternalTable; // used from atexit handlers: never destroyed
    return *t;
  }
};

constexpr uint64_t PageBytes = 4096;

} // namespace

namespace musa::rt {

/// musaFree of a mapped buffer (MemoryApi.cpp): unmaps it. False if `p` is not one.
bool freeExternalBuffer(Device &device, void *p) {
  auto &t = ExternalTable::get();
  std::lock_guard lock(t.mutex);
  auto it = t.buffers.find(uintptr_t(p));
  if (it == t.buffers.end() || !device.memory().unmapForeign(it->second))
    return false;
  t.buffers.erase(it);
  return true;
}

} // namespace musa::rt

extern "C" {

musaError_t musaImportExternalMemory(musaExternalMemory_t *extMem_out,
                                     const musaExternalMemoryHandleDesc *desc) {
  MUSA_BACKEND_HOOK(musaImportExternalMemory, extMem_out, desc);
  return apiCall([&] {
    if (!extMem_out || !desc || desc->size == 0 || (desc->flags & ~musaExternalMemoryDedicated))
      return musaErrorInvalidValue;
    if (desc->type < musaExternalMemoryHandleTypeOpaqueFd ||
        desc->type > musaExternalMemoryHandleTypeNvSciBuf)
      return musaErrorInvalidValue;
    if (desc->type != musaExternalMemoryHandleTypeOpaqueFd)
      return musaErrorNotSupported; // Win32, Direct3D and NvSciBuf handles do not exist here
    struct stat st {};
    int fd = desc->handle.fd;
    if (fd < 0 || fstat(fd, &st) != 0)
      return musaErrorInvalidValue;
    // A descriptor of memory smaller than the size asked for cannot back it.
    if ((S_ISREG(st.st_mode) || st.st_size > 0) && uint64_t(st.st_size) < desc->size)
      return musaErrorInvalidValue;
    if (!Runtime::get().currentDevice())
      return musaErrorNoDevice;
    auto ext = std::make_shared<External>(fd, desc->size);
    auto &t = ExternalTable::get();
    std::lock_guard lock(t.mutex);
    t.live[ext.get()] = ext;
    *extMem_out = reinterpret_cast<musaExternalMemory_t>(const_cast<External *>(ext.get()));
    return musaSuccess;
  });
}

musaError_t musaExternalMemoryGetMappedBuffer(void **devPtr, musaExternalMemory_t extMem,
                                              const musaExternalMemoryBufferDesc *bufferDesc) {
  MUSA_BACKEND_HOOK(musaExternalMemoryGetMappedBuffer, devPtr, extMem, bufferDesc);
  return apiCall([&] {
    if (!devPtr || !bufferDesc || bufferDesc->flags || bufferDesc->size == 0)
      return musaErrorInvalidValue;
    auto &t = ExternalTable::get();
    std::lock_guard lock(t.mutex);
    auto it = t.live.find(reinterpret_cast<const External *>(extMem));
    if (it == t.live.end())
      return musaErrorInvalidResourceHandle;
    const External &ext = *it->second;
    if (bufferDesc->offset > ext.size || bufferDesc->size > ext.size - bufferDesc->offset)
      return musaErrorInvalidValue;
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    uint64_t skew = bufferDesc->offset % PageBytes;
    void *base = d->memory().mapForeign(ext.fd, bufferDesc->offset - skew,
                                        size_t(bufferDesc->size + skew), ExternalAllocation);
    if (!base)
      return musaErrorMemoryAllocation; // no room in the device's range, or not mappable
    void *p = static_cast<char *>(base) + skew;
    t.buffers[uintptr_t(p)] = base;
    *devPtr = p;
    return musaSuccess;
  });
}

musaError_t musaExternalMemoryGetMappedMipmappedArray(
    musaMipmappedArray_t *mipmap, musaExternalMemory_t extMem,
    const musaExternalMemoryMipmappedArrayDesc *mipmapDesc) {
  MUSA_BACKEND_HOOK(musaExternalMemoryGetMappedMipmappedArray, mipmap, extMem, mipmapDesc);
  return apiCall([&] {
    if (!mipmap || !mipmapDesc)
      return musaErrorInvalidValue;
    auto &t = ExternalTable::get();
    std::lock_guard lock(t.mutex);
    if (!t.live.count(reinterpret_cast<const External *>(extMem)))
      return musaErrorInvalidResourceHandle;
    std::fprintf(stderr, "musa-sim: musaExternalMemoryGetMappedMipmappedArray: arrays over "
                         "external memory are not simulated (map a buffer instead)\n");
    return musaErrorNotSupported;
  });
}

musaError_t musaDestroyExternalMemory(musaExternalMemory_t extMem) {
  MUSA_BACKEND_HOOK(musaDestroyExternalMemory, extMem);
  return apiCall([&] {
    auto &t = ExternalTable::get();
    std::lock_guard lock(t.mutex);
    // Buffers mapped from it stay until musaFree (their mappings hold the memory).
    return t.live.erase(reinterpret_cast<const External *>(extMem))
               ? musaSuccess
               : musaErrorInvalidResourceHandle;
  });
}

} // extern "C"
