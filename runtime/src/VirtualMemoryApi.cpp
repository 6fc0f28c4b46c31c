// The driver API's virtual memory management: muMemCreate makes a physical allocation (a memfd
// of its own, charged to its device's memory), muMemAddressReserve sets aside a stretch of a
// device's address range, muMemMap maps an allocation there (inaccessible until
// muMemSetAccess), so one allocation can appear at several addresses and a buffer can grow by
// mapping more memory after it. An allocation made with POSIX file descriptors requested
// exports as a real file descriptor another process can import and map. Mapped memory is
// device memory to the rest of the runtime (copies, kernels, pointer queries); a kernel that
// touches a mapping it has no access to, or writes a read-only one, faults with an illegal
// address, as on a GPU.
#include "Runtime.h"
#include "backend/Backend.h"
// After the runtime's headers: musa.h declares the runtime's C++ overloads too.
#include "DriverShell.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

namespace {

using musa::rt::Device;
using musa::rt::Runtime;
using musa::rt::VirtualAllocation;
using namespace musa::drv;

/// GPUs map device memory in 2 MiB pages: the granularity of sizes, offsets and addresses.
constexpr size_t Granularity = size_t(2) << 20;

struct Physical {
  int fd = -1;
  size_t size = 0;
  MUmemAllocationProp prop{};
  Device *charged = nullptr; // its device's memory, unless imported from another process
  ino_t inode = 0;
  unsigned handles = 0;  // the handle's references: made, retained, imported
  unsigned mappings = 0; // mappings of it still in place
};

struct Table {
  std::mutex mutex;
  MUmemGenericAllocationHandle next = 0x100000;
  std::map<MUmemGenericAllocationHandle, std::shared_ptr<Physical>> handles;
  std::map<uintptr_t, MUmemGenericAllocationHandle> mappings; // mapping start -> allocation
};

Table &table() {
  static Table *t = new Table; // used from atexit handlers too: never destroyed
  return *t;
}

/// Frees `p` once neither a handle nor a mapping holds it. Caller holds the table's lock.
void dropIfUnused(Table &t, MUmemGenericAllocationHandle h) {
  auto it = t.handles.find(h);
  if (it == t.handles.end() || it->second->handles || it->second->mappings)
    return;
  Physical &p = *it->second;
  if (p.charged)
    p.charged->memory().uncharge(p.size);
  close(p.fd);
  t.handles.erase(it);
}

/// Forgets the mappings a device reset took away (musaDeviceReset frees the device's whole
/// address range, reservations and mappings included; the physical allocations stay, held by
/// their handles): their allocations are then released once no handle holds them either.
/// Every call that reads or makes mappings prunes first, so an address mapped again after a
/// reset never finds the old entry. Caller holds the table's lock.
void pruneReset(Table &t) {
  for (auto it = t.mappings.begin(); it != t.mappings.end();) {
    const void *start = reinterpret_cast<const void *>(it->first);
    Device *d = Runtime::get().deviceOwning(start);
    auto m = d ? d->memory().mappingAt(start) : std::nullopt;
    if (m && m->base == start) {
      ++it;
      continue;
    }
    MUmemGenericAllocationHandle h = it->second;
    it = t.mappings.erase(it);
    auto p = t.handles.find(h);
    if (p != t.handles.end()) {
      --p->second->mappings;
      dropIfUnused(t, h);
    }
  }
}

/// A live handle (one whose references have not all been released), or null.
Physical *live(Table &t, MUmemGenericAllocationHandle h) {
  auto it = t.handles.find(h);
  return it == t.handles.end() || !it->second->handles ? nullptr : it->second.get();
}

MUresult checkProp(const MUmemAllocationProp *prop) {
  if (!prop || prop->type != MU_MEM_ALLOCATION_TYPE_PINNED)
    return MUSA_ERROR_INVALID_VALUE;
  if (prop->location.type != MU_MEM_LOCATION_TYPE_DEVICE)
    return MUSA_ERROR_NOT_SUPPORTED; // host-located physical memory: not simulated
  if (prop->location.id < 0 || prop->location.id >= Runtime::get().deviceCount())
    return MUSA_ERROR_INVALID_DEVICE;
  return MUSA_SUCCESS;
}

/// The device whose address range holds [p, p+size), or null.
Device *deviceOf(MUdeviceptr p, size_t size) {
  Device *d = Runtime::get().deviceOwning(reinterpret_cast<void *>(uintptr_t(p)));
  if (!d || !size || !d->memory().owns(reinterpret_cast<void *>(uintptr_t(p + size - 1))))
    return nullptr;
  return d;
}

/// Enters the current context. The physical memory here is the simulator's: with the hardware
/// backend (whose kernels run on the GPU) the calls are refused.
bool entered(MUresult &r) {
  MUctx_st *ctx = nullptr;
  r = musa::rt::backend::routing() ? MUSA_ERROR_NOT_SUPPORTED : enter(ctx);
  return r == MUSA_SUCCESS;
}

} // namespace

extern "C" {

MUresult muMemGetAllocationGranularity(size_t *granularity, const MUmemAllocationProp *prop,
                                       MUmemAllocationGranularity_flags option) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!granularity || (option != MU_MEM_ALLOC_GRANULARITY_MINIMUM &&
                       option != MU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
    return MUSA_ERROR_INVALID_VALUE;
  // The H100 answers for any location, a device it does not have and the host included
  // (tests/hardware/session21/results.txt: 2 MiB each); only the type is checked.
  if (!prop || prop->type != MU_MEM_ALLOCATION_TYPE_PINNED)
    return MUSA_ERROR_INVALID_VALUE;
  *granularity = Granularity;
  return MUSA_SUCCESS;
}

MUresult muMemCreate(MUmemGenericAllocationHandle *handle, size_t size,
                     const MUmemAllocationProp *prop, unsigned long long flags) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!handle || !size || size % Granularity || flags)
    return MUSA_ERROR_INVALID_VALUE;
  if (MUresult e = checkProp(prop))
    return e;
  if (prop->requestedHandleTypes & ~MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
    return MUSA_ERROR_NOT_SUPPORTED; // Windows and fabric handles
  Device *d = Runtime::get().device(prop->location.id);
  if (!d || !d->memory().charge(size))
    return MUSA_ERROR_OUT_OF_MEMORY;
  int fd = memfd_create("musa-sim-vmm", MFD_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ftruncate(fd, off_t(size)) != 0 || fstat(fd, &st) != 0) {
    if (fd >= 0)
      close(fd);
    d->memory().uncharge(size);
    return MUSA_ERROR_OUT_OF_MEMORY;
  }
  auto p = std::make_shared<Physical>();
  p->fd = fd;
  p->size = size;
  p->prop = *prop;
  p->charged = d;
  p->inode = st.st_ino;
  p->handles = 1;
  Table &t = table();
  std::lock_guard lock(t.mutex);
  *handle = t.next++;
  t.handles[*handle] = std::move(p);
  return MUSA_SUCCESS;
}

MUresult muMemRelease(MUmemGenericAllocationHandle handle) {
  MUresult r;
  if (!entered(r))
    return r;
  Table &t = table();
  std::lock_guard lock(t.mutex);
  pruneReset(t);
  Physical *p = live(t, handle);
  if (!p)
    return MUSA_ERROR_INVALID_VALUE;
  --p->handles;
  dropIfUnused(t, handle);
  return MUSA_SUCCESS;
}

MUresult muMemAddressReserve(MUdeviceptr *ptr, size_t size, size_t alignment, MUdeviceptr addr,
                             unsigned long long flags) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!ptr || !size || size % Granularity || flags || (alignment & (alignment - 1)))
    return MUSA_ERROR_INVALID_VALUE;
  Device *d = Runtime::get().currentDevice();
  void *p = d ? d->memory().reserve(size, std::max(alignment, Granularity), uintptr_t(addr))
              : nullptr;
  if (!p)
    return MUSA_ERROR_OUT_OF_MEMORY;
  *ptr = MUdeviceptr(uintptr_t(p));
  return MUSA_SUCCESS;
}

MUresult muMemAddressFree(MUdeviceptr ptr, size_t size) {
  MUresult r;
  if (!entered(r))
    return r;
  Device *d = deviceOf(ptr, size);
  if (!d || !d->memory().unreserve(reinterpret_cast<void *>(uintptr_t(ptr)), size))
    return MUSA_ERROR_INVALID_VALUE;
  return MUSA_SUCCESS;
}

MUresult muMemMap(MUdeviceptr ptr, size_t size, size_t offset,
                  MUmemGenericAllocationHandle handle, unsigned long long flags) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!size || ptr % Granularity || flags)
    return MUSA_ERROR_INVALID_VALUE;
  Table &t = table();
  std::lock_guard lock(t.mutex);
  pruneReset(t);
  Physical *p = live(t, handle);
  if (!p)
    return MUSA_ERROR_INVALID_HANDLE;
  // As the H100's driver answers (tests/hardware/session21/results.txt): a mapping starts at
  // the allocation's start (CUDA: "offset currently must be zero"), in whole granules, within
  // the allocation; anything else is NOT_SUPPORTED, not INVALID_VALUE.
  if (offset || size % Granularity || size > p->size)
    return MUSA_ERROR_NOT_SUPPORTED;
  Device *d = deviceOf(ptr, size);
  if (!d || !d->memory().map(reinterpret_cast<void *>(uintptr_t(ptr)), size, p->fd, offset,
                             VirtualAllocation))
    return MUSA_ERROR_INVALID_VALUE; // outside a reservation, or over a mapping
  ++p->mappings;
  t.mappings[uintptr_t(ptr)] = handle;
  return MUSA_SUCCESS;
}

MUresult muMemUnmap(MUdeviceptr ptr, size_t size) {
  MUresult r;
  if (!entered(r))
    return r;
  Device *d = deviceOf(ptr, size);
  if (!d)
    return MUSA_ERROR_INVALID_VALUE;
  Table &t = table();
  std::lock_guard lock(t.mutex);
  pruneReset(t);
  // The mappings it covers, whole, before they go (unmap() checks the range is made of them).
  std::vector<uintptr_t> starts;
  for (auto it = t.mappings.lower_bound(uintptr_t(ptr));
       it != t.mappings.end() && it->first < ptr + size; ++it)
    starts.push_back(it->first);
  // Work queued on the device may still use the memory: it finishes first, as on a GPU.
  d->synchronize();
  if (!d->memory().unmap(reinterpret_cast<void *>(uintptr_t(ptr)), size))
    return MUSA_ERROR_INVALID_VALUE;
  for (uintptr_t s : starts) {
    MUmemGenericAllocationHandle h = t.mappings[s];
    t.mappings.erase(s);
    auto it = t.handles.find(h);
    if (it != t.handles.end()) {
      --it->second->mappings;
      dropIfUnused(t, h);
    }
  }
  return MUSA_SUCCESS;
}

MUresult muMemSetAccess(MUdeviceptr ptr, size_t size, const MUmemAccessDesc *desc, size_t count) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!desc || !count)
    return MUSA_ERROR_INVALID_VALUE;
  Device *d = deviceOf(ptr, size);
  if (!d)
    return MUSA_ERROR_INVALID_VALUE;
  // The simulated devices share one address space: the access of the mapping's own device is
  // the one kernels and copies meet; other devices' entries are checked and kept alike.
  bool read = false, write = false, named = false;
  for (size_t i = 0; i < count; ++i) {
    const MUmemAccessDesc &a = desc[i];
    if (a.location.type != MU_MEM_LOCATION_TYPE_DEVICE)
      return MUSA_ERROR_INVALID_VALUE;
    if (a.location.id < 0 || a.location.id >= Runtime::get().deviceCount())
      return MUSA_ERROR_INVALID_DEVICE;
    if (a.flags != MU_MEM_ACCESS_FLAGS_PROT_NONE && a.flags != MU_MEM_ACCESS_FLAGS_PROT_READ &&
        a.flags != MU_MEM_ACCESS_FLAGS_PROT_READWRITE)
      return MUSA_ERROR_INVALID_VALUE;
    if (Runtime::get().device(a.location.id) == d || !named) {
      named = named || Runtime::get().device(a.location.id) == d;
      read = a.flags != MU_MEM_ACCESS_FLAGS_PROT_NONE;
      write = a.flags == MU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    }
  }
  d->synchronize();
  if (!d->memory().protect(reinterpret_cast<void *>(uintptr_t(ptr)), size, read, write))
    return MUSA_ERROR_INVALID_VALUE;
  return MUSA_SUCCESS;
}

MUresult muMemGetAccess(unsigned long long *flags, const MUmemLocation *location,
                        MUdeviceptr ptr) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!flags || !location || location->type != MU_MEM_LOCATION_TYPE_DEVICE)
    return MUSA_ERROR_INVALID_VALUE;
  if (location->id < 0 || location->id >= Runtime::get().deviceCount())
    return MUSA_ERROR_INVALID_DEVICE;
  Device *d = deviceOf(ptr, 1);
  auto m = d ? d->memory().mappingAt(reinterpret_cast<void *>(uintptr_t(ptr))) : std::nullopt;
  if (!m)
    return MUSA_ERROR_INVALID_VALUE;
  *flags = m->write ? MU_MEM_ACCESS_FLAGS_PROT_READWRITE
                    : m->read ? MU_MEM_ACCESS_FLAGS_PROT_READ : MU_MEM_ACCESS_FLAGS_PROT_NONE;
  return MUSA_SUCCESS;
}

MUresult muMemGetAllocationPropertiesFromHandle(MUmemAllocationProp *prop,
                                                MUmemGenericAllocationHandle handle) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!prop)
    return MUSA_ERROR_INVALID_VALUE;
  Table &t = table();
  std::lock_guard lock(t.mutex);
  Physical *p = live(t, handle);
  if (!p)
    return MUSA_ERROR_INVALID_VALUE;
  *prop = p->prop;
  return MUSA_SUCCESS;
}

MUresult muMemRetainAllocationHandle(MUmemGenericAllocationHandle *handle, void *addr) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!handle)
    return MUSA_ERROR_INVALID_VALUE;
  Device *d = deviceOf(MUdeviceptr(uintptr_t(addr)), 1);
  auto m = d ? d->memory().mappingAt(addr) : std::nullopt;
  if (!m)
    return MUSA_ERROR_INVALID_VALUE;
  Table &t = table();
  std::lock_guard lock(t.mutex);
  pruneReset(t);
  auto it = t.mappings.find(uintptr_t(m->base));
  if (it == t.mappings.end())
    return MUSA_ERROR_INVALID_VALUE;
  ++t.handles.at(it->second)->handles;
  *handle = it->second;
  return MUSA_SUCCESS;
}

MUresult muMemExportToShareableHandle(void *shareableHandle, MUmemGenericAllocationHandle handle,
                                      MUmemAllocationHandleType handleType,
                                      unsigned long long flags) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!shareableHandle || flags)
    return MUSA_ERROR_INVALID_VALUE;
  Table &t = table();
  std::lock_guard lock(t.mutex);
  Physical *p = live(t, handle);
  if (!p)
    return MUSA_ERROR_INVALID_VALUE;
  if (handleType != MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
    return MUSA_ERROR_NOT_SUPPORTED;
  if (!(p->prop.requestedHandleTypes & MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
    return MUSA_ERROR_INVALID_VALUE; // not made shareable
  int fd = dup(p->fd);
  if (fd < 0)
    return MUSA_ERROR_OUT_OF_MEMORY;
  *static_cast<int *>(shareableHandle) = fd;
  return MUSA_SUCCESS;
}

MUresult muMemImportFromShareableHandle(MUmemGenericAllocationHandle *handle, void *osHandle,
                                        MUmemAllocationHandleType shHandleType) {
  MUresult r;
  if (!entered(r))
    return r;
  if (!handle)
    return MUSA_ERROR_INVALID_VALUE;
  if (shHandleType != MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
    return MUSA_ERROR_NOT_SUPPORTED;
  intptr_t raw = reinterpret_cast<intptr_t>(osHandle);
  struct stat st {};
  char link[64], target[128] = {};
  snprintf(link, sizeof link, "/proc/self/fd/%d", int(raw));
  // Only an allocation this simulator exported (in this process or another) can be mapped.
  if (raw < 0 || raw > INT_MAX || fstat(int(raw), &st) != 0 ||
      readlink(link, target, sizeof target - 1) < 0 ||
      std::string_view(target).find("musa-sim-vmm") == std::string_view::npos)
    return MUSA_ERROR_INVALID_VALUE;
  Table &t = table();
  std::lock_guard lock(t.mutex);
  for (auto &[h, p] : t.handles)
    if (p->handles && p->inode == st.st_ino) {
      ++p->handles; // this process's own allocation: the same handle
      *handle = h;
      return MUSA_SUCCESS;
    }
  int fd = dup(int(raw));
  if (fd < 0)
    return MUSA_ERROR_OUT_OF_MEMORY;
  auto p = std::make_shared<Physical>();
  p->fd = fd;
  p->size = size_t(st.st_size);
  p->prop.type = MU_MEM_ALLOCATION_TYPE_PINNED;
  p->prop.requestedHandleTypes = MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  p->prop.location = {MU_MEM_LOCATION_TYPE_DEVICE, Runtime::get().currentOrdinal()};
  p->inode = st.st_ino;
  p->handles = 1;
  *handle = t.next++;
  t.handles[*handle] = std::move(p);
  return MUSA_SUCCESS;
}

} // extern "C"
