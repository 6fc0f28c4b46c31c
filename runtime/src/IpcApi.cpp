// Inter-process memory and event handles.
//
// A handle names the exporting process and a descriptor it holds: the device memfd (memory)
// or the event's shared page. The importing process opens /proc/<pid>/fd/<fd>, which gives
// it its own descriptor of the same memory, and maps it. Handles are plain bytes, so they
// can travel through pipes, files or command lines as in CUDA.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Runtime.h"
#include "SharedEvent.h"

#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

using namespace musa::rt;

namespace {

constexpr char MemMagic[8] = {'M', 'S', 'I', 'M', 'I', 'P', 'C', 'M'};
constexpr char EventMagic[8] = {'M', 'S', 'I', 'M', 'I', 'P', 'C', 'E'};

struct HandleBody {
  char magic[8];
  int32_t pid;
  int32_t fd;
  uint64_t offset;
  uint64_t size;
  int32_t device;
};
static_assert(sizeof(HandleBody) <= MUSA_IPC_HANDLE_SIZE);

template <class Handle> void pack(Handle &h, const HandleBody &body) {
  std::memset(h.reserved, 0, sizeof h.reserved);
  std::memcpy(h.reserved, &body, sizeof body);
}

template <class Handle> bool unpack(const Handle &h, const char (&magic)[8], HandleBody &body) {
  std::memcpy(&body, h.reserved, sizeof body);
  return std::memcmp(body.magic, magic, sizeof magic) == 0 && body.pid > 0 && body.fd >= 0;
}

/// Our own descriptor of another process's descriptor, or -1.
int openForeign(int pid, int fd) {
  std::string path = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
  return ::open(path.c_str(), O_RDWR | O_CLOEXEC);
}

} // namespace

extern "C" musaError_t musaIpcGetMemHandle(musaIpcMemHandle_t *handle, void *devPtr) {
  MUSA_BACKEND_HOOK(musaIpcGetMemHandle, handle, devPtr);
  return apiCall([&] {
    if (!handle || !devPtr)
      return musaErrorInvalidValue;
    auto where = Runtime::get().findDevicePointer(devPtr);
    if (!where || where->range.tag != PlainAllocation)
      return musaErrorInvalidValue; // only musaMalloc memory can be shared
    musa::sim::DeviceMemory &memory = where->device->memory();
    if (memory.shareableFd() < 0)
      return musaErrorNotSupported;
    HandleBody body{};
    std::memcpy(body.magic, MemMagic, sizeof MemMagic);
    body.pid = getpid();
    body.fd = memory.shareableFd();
    body.offset = memory.offsetOf(where->range.base);
    body.size = where->range.size;
    body.device = where->device->ordinal();
    pack(*handle, body);
    return musaSuccess;
  });
}

extern "C" musaError_t musaIpcOpenMemHandle(void **devPtr, musaIpcMemHandle_t handle,
                                            unsigned int flags) {
  MUSA_BACKEND_HOOK(musaIpcOpenMemHandle, devPtr, handle, flags);
  return apiCall([&] {
    HandleBody body;
    if (!devPtr || (flags & ~unsigned(musaIpcMemLazyEnablePeerAccess)) ||
        !unpack(handle, MemMagic, body))
      return musaErrorInvalidValue;
    if (body.pid == getpid())
      return musaErrorDeviceUninitialized; // CUDA refuses handles of the calling process
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    int fd = openForeign(body.pid, body.fd);
    if (fd < 0)
      return musaErrorMapBufferObjectFailed; // the exporter has gone, or forbids access
    void *p = d->memory().mapForeign(fd, body.offset, body.size, IpcAllocation);
    close(fd); // the mapping keeps the memory
    if (!p)
      return musaErrorMapBufferObjectFailed;
    *devPtr = p;
    return musaSuccess;
  });
}

extern "C" musaError_t musaIpcCloseMemHandle(void *devPtr) {
  MUSA_BACKEND_HOOK(musaIpcCloseMemHandle, devPtr);
  return apiCall([&] {
    if (!devPtr)
      return musaErrorInvalidValue;
    auto where = Runtime::get().findDevicePointer(devPtr);
    if (!where || where->range.tag != IpcAllocation || where->range.base != devPtr)
      return musaErrorInvalidValue;
    where->device->synchronize();
    return where->device->memory().unmapForeign(devPtr) ? musaSuccess : musaErrorInvalidValue;
  });
}

extern "C" musaError_t musaIpcGetEventHandle(musaIpcEventHandle_t *handle, musaEvent_t event) {
  MUSA_BACKEND_HOOK(musaIpcGetEventHandle, handle, event);
  return apiCall([&] {
    if (!handle)
      return musaErrorInvalidValue;
    std::shared_ptr<Event> e = Runtime::get().resolveEvent(event);
    if (!e)
      return musaErrorInvalidResourceHandle;
    if (!(e->flags & musaEventInterprocess) || !e->shared)
      return musaErrorInvalidResourceHandle;
    HandleBody body{};
    std::memcpy(body.magic, EventMagic, sizeof EventMagic);
    body.pid = getpid();
    body.fd = e->shared->fd();
    body.device = e->device->ordinal();
    pack(*handle, body);
    return musaSuccess;
  });
}

extern "C" musaError_t musaIpcOpenEventHandle(musaEvent_t *event, musaIpcEventHandle_t handle) {
  MUSA_BACKEND_HOOK(musaIpcOpenEventHandle, event, handle);
  return apiCall([&] {
    HandleBody body;
    if (!event || !unpack(handle, EventMagic, body))
      return musaErrorInvalidValue;
    if (body.pid == getpid())
      return musaErrorDeviceUninitialized;
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    auto page = SharedEventPage::open(body.pid, body.fd);
    if (!page)
      return musaErrorMapBufferObjectFailed;
    std::shared_ptr<Event> e =
        d->createEvent(musaEventInterprocess | musaEventDisableTiming, std::move(page));
    if (!e)
      return musaErrorMemoryAllocation;
    *event = reinterpret_cast<musaEvent_t>(e.get());
    return musaSuccess;
  });
}
