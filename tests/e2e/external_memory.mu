// External memory: memory another API exported as a file descriptor, imported with
// musaImportExternalMemory and mapped as device buffers (as Vulkan interop programs do with
// the descriptor vkGetMemoryFdKHR gives). Here the exporter is a memfd the host maps (what a
// kernel writes the host sees at once) and a driver-API allocation exported with
// muMemExportToShareableHandle. Also: buffers at an offset inside a page, two buffers over one
// memory, buffers outliving the destroyed memory object, and the errors for misuse.
// Built with -lmusa.
#include "check.h"

#include <musa.h>
#include <sys/mman.h>
#include <unistd.h>

__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= 2;
}

static musaExternalMemory_t importFd(int fd, unsigned long long size, musaError_t *e) {
  musaExternalMemoryHandleDesc desc = {};
  desc.type = musaExternalMemoryHandleTypeOpaqueFd;
  desc.handle.fd = fd;
  desc.size = size;
  musaExternalMemory_t ext = nullptr;
  *e = musaImportExternalMemory(&ext, &desc);
  return ext;
}

static void *buffer(musaExternalMemory_t ext, unsigned long long offset, unsigned long long size,
                    musaError_t *e) {
  musaExternalMemoryBufferDesc b = {};
  b.offset = offset;
  b.size = size;
  void *p = nullptr;
  *e = musaExternalMemoryGetMappedBuffer(&p, ext, &b);
  return p;
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  const size_t bytes = 1 << 20;
  int fd = memfd_create("exporter", 0);
  CHECK(fd >= 0 && ftruncate(fd, bytes) == 0, "memfd");
  int *host = (int *)mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  CHECK(host != MAP_FAILED, "mmap");
  for (size_t i = 0; i < bytes / 4; ++i)
    host[i] = int(i);

  musaError_t e;
  musaExternalMemory_t ext = importFd(dup(fd), bytes, &e);
  CHECK_MUSA(e);
  // A buffer starting inside a page (offset 1 KiB + 256 B), 64 Ki ints.
  const size_t offset = 1280, n = 1 << 16;
  int *buf = (int *)buffer(ext, offset, n * 4, &e);
  CHECK_MUSA(e);
  musaPointerAttributes attr;
  CHECK_MUSA(musaPointerGetAttributes(&attr, buf));
  CHECK(attr.type == musaMemoryTypeDevice, "a mapped buffer has type %d", int(attr.type));
  twice<<<unsigned(n / 256), 256>>>(buf, int(n));
  CHECK_MUSA(musaDeviceSynchronize());
  int first = offset / 4;
  CHECK(host[first] == 2 * first && host[first + n - 1] == 2 * (first + int(n) - 1) &&
            host[first - 1] == first - 1 && host[first + n] == first + int(n),
        "the exporter sees %d %d %d %d", host[first - 1], host[first], host[first + n - 1],
        host[first + n]);
  printf("kernel wrote the exporter's memory: host reads %d at word %d\n", host[first], first);
  // A second buffer over the whole memory reads the same words; copies work on it.
  int *whole = (int *)buffer(ext, 0, bytes, &e);
  CHECK_MUSA(e);
  int got[2] = {0, 0};
  CHECK_MUSA(musaMemcpy(got, whole + first, 8, musaMemcpyDeviceToHost));
  CHECK(got[0] == 2 * first && got[1] == 2 * (first + 1), "second buffer reads %d %d", got[0],
        got[1]);
  host[7] = -7;
  CHECK_MUSA(musaMemcpy(got, whole + 7, 4, musaMemcpyDefault));
  CHECK(got[0] == -7, "a host write reads back as %d", got[0]);

  // Misuse.
  void *p = nullptr;
  musaExternalMemoryBufferDesc past = {};
  past.offset = bytes - 4;
  past.size = 8;
  CHECK(musaExternalMemoryGetMappedBuffer(&p, ext, &past) == musaErrorInvalidValue,
        "a buffer past the end was mapped");
  musaExternalMemoryHandleDesc win = {};
  win.type = musaExternalMemoryHandleTypeOpaqueWin32;
  win.size = bytes;
  musaExternalMemory_t bad = nullptr;
  CHECK(musaImportExternalMemory(&bad, &win) == musaErrorNotSupported, "a Win32 handle imported");
  importFd(fd, 0, &e);
  CHECK(e == musaErrorInvalidValue, "size 0 gave %s", musaGetErrorName(e));
  importFd(fd, 2 * bytes, &e);
  CHECK(e == musaErrorInvalidValue, "a size beyond the descriptor's gave %s", musaGetErrorName(e));
  importFd(-1, bytes, &e);
  CHECK(e == musaErrorInvalidValue, "descriptor -1 gave %s", musaGetErrorName(e));
  musaGetLastError();

  // Destroying the memory object leaves its buffers until they are freed.
  CHECK_MUSA(musaDestroyExternalMemory(ext));
  CHECK(musaDestroyExternalMemory(ext) == musaErrorInvalidResourceHandle, "destroyed twice");
  musaGetLastError();
  twice<<<1, 256>>>(whole, 256);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(host[7] == -14, "after destroy the buffer still writes: %d", host[7]);
  CHECK_MUSA(musaFree(buf));
  CHECK(musaFree(buf) == musaErrorInvalidValue, "a buffer freed twice");
  musaGetLastError();
  CHECK_MUSA(musaFree(whole));
  munmap(host, bytes);
  close(fd);

  // A driver-API allocation exported as a descriptor and imported here.
  CHECK(muInit(0) == MUSA_SUCCESS, "muInit");
  MUcontext ctx;
  muDevicePrimaryCtxRetain(&ctx, 0);
  muCtxSetCurrent(ctx);
  MUmemAllocationProp prop = {};
  prop.type = MU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = MU_MEM_LOCATION_TYPE_DEVICE;
  prop.requestedHandleTypes = MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t g = 0;
  muMemGetAllocationGranularity(&g, &prop, MU_MEM_ALLOC_GRANULARITY_MINIMUM);
  MUmemGenericAllocationHandle h;
  CHECK(muMemCreate(&h, g, &prop, 0) == MUSA_SUCCESS, "muMemCreate");
  MUdeviceptr va = 0;
  muMemAddressReserve(&va, g, 0, 0, 0);
  muMemMap(va, g, 0, h, 0);
  MUmemAccessDesc acc = {{MU_MEM_LOCATION_TYPE_DEVICE, 0}, MU_MEM_ACCESS_FLAGS_PROT_READWRITE};
  muMemSetAccess(va, g, &acc, 1);
  CHECK(muMemsetD32(va, 21, g / 4) == MUSA_SUCCESS, "memset");
  int shared = -1;
  CHECK(muMemExportToShareableHandle(&shared, h, MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) ==
            MUSA_SUCCESS,
        "export");
  musaExternalMemory_t fromDriver = importFd(shared, g, &e);
  CHECK_MUSA(e);
  int *view = (int *)buffer(fromDriver, g / 2, g / 2, &e);
  CHECK_MUSA(e);
  twice<<<4, 256>>>(view, 1024);
  CHECK_MUSA(musaDeviceSynchronize());
  int seen[2] = {0, 0};
  muMemcpyDtoH(seen, va + g / 2, 4);
  muMemcpyDtoH(seen + 1, va + g / 2 - 4, 4);
  CHECK(seen[0] == 42 && seen[1] == 21, "the driver allocation reads %d %d", seen[0], seen[1]);
  printf("driver allocation through external memory: %d beside %d\n", seen[0], seen[1]);
  CHECK_MUSA(musaFree(view));
  CHECK_MUSA(musaDestroyExternalMemory(fromDriver));
  muMemUnmap(va, g);
  muMemAddressFree(va, g);
  muMemRelease(h);
  return finish("external_memory");
}
