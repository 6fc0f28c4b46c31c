// The driver API's virtual memory management as programs use it (CUDA's vectorAddMMAP sample
// and the "growable buffer" pattern): physical allocations made with muMemCreate, mapped into
// reserved address ranges, given access, used by kernels and copies through the runtime; one
// allocation seen at two addresses; a buffer grown in place by reserving the range after it;
// a shareable allocation exported as a file descriptor and imported again; the errors each
// call gives for misuse; and last, a kernel writing a read-only mapping (an illegal address).
// Built with -lmusa. tests/hardware/hw-session20.sh builds it as CUDA (mu* -> cu*).
#include "check.h"

#include <musa.h>
#include <unistd.h>

#define CHECK_MU(call)                                                                      \
  do {                                                                                      \
    MUresult r_ = (call);                                                                   \
    const char *n_ = nullptr;                                                               \
    muGetErrorName(r_, &n_);                                                                \
    CHECK(r_ == MUSA_SUCCESS, "%s returned %s", #call, n_ ? n_ : "?");                     \
  } while (0)
#define EXPECT_MU(want, call)                                                               \
  do {                                                                                      \
    MUresult r_ = (call);                                                                   \
    const char *n_ = nullptr;                                                               \
    muGetErrorName(r_, &n_);                                                                \
    CHECK(r_ == (want), "%s returned %s, expected %s", #call, n_ ? n_ : "?", #want);       \
  } while (0)

__global__ void vectorAdd(const float *a, const float *b, float *c, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

__global__ void stamp(unsigned *p, size_t n, unsigned base) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = base + unsigned(i);
}

static MUmemAllocationProp deviceProp(int shareable) {
  MUmemAllocationProp prop = {};
  prop.type = MU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = MU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  if (shareable)
    prop.requestedHandleTypes = MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return prop;
}

static MUmemAccessDesc readWrite() {
  MUmemAccessDesc acc = {};
  acc.location.type = MU_MEM_LOCATION_TYPE_DEVICE;
  acc.location.id = 0;
  acc.flags = MU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return acc;
}

/// vectorAddMMAP's allocation: `chunks` physical allocations of `chunk` bytes mapped one after
/// another into one reservation, with access for device 0. Returns the address (0 on failure).
static MUdeviceptr simpleMalloc(size_t chunk, int chunks, MUmemGenericAllocationHandle *handles) {
  MUdeviceptr va = 0;
  CHECK_MU(muMemAddressReserve(&va, chunk * chunks, 0, 0, 0));
  MUmemAllocationProp prop = deviceProp(0);
  for (int i = 0; i < chunks; ++i) {
    CHECK_MU(muMemCreate(&handles[i], chunk, &prop, 0));
    CHECK_MU(muMemMap(va + i * chunk, chunk, 0, handles[i], 0));
    // The mapping holds the memory; the handle can go at once.
    CHECK_MU(muMemRelease(handles[i]));
  }
  MUmemAccessDesc acc = readWrite();
  CHECK_MU(muMemSetAccess(va, chunk * chunks, &acc, 1));
  return va;
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  CHECK_MU(muInit(0));
  MUdevice dev;
  MUcontext ctx;
  CHECK_MU(muDeviceGet(&dev, 0));
  CHECK_MU(muDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_MU(muCtxSetCurrent(ctx));

  MUmemAllocationProp prop = deviceProp(0);
  size_t g = 0, rec = 0;
  CHECK_MU(muMemGetAllocationGranularity(&g, &prop, MU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CHECK_MU(muMemGetAllocationGranularity(&rec, &prop, MU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  CHECK(g == (2u << 20) && rec == g, "granularity %zu / %zu, expected 2 MiB", g, rec);
  printf("granularity %zu KiB\n", g >> 10);

  // 1. vectorAddMMAP: three vectors, each two chunks mapped back to back; the kernel's
  // blocks cross from one physical allocation into the next.
  size_t n = 3 * g / 4 + 1000; // floats: 1.5 chunks and a bit, rounded up to two chunks
  size_t bytes = n * sizeof(float), chunk = g;
  int chunks = int((bytes + chunk - 1) / chunk);
  MUmemGenericAllocationHandle ha[4], hb[4], hc[4];
  size_t freeBefore = 0, total = 0;
  CHECK_MU(muMemGetInfo(&freeBefore, &total));
  MUdeviceptr a = simpleMalloc(chunk, chunks, ha), b = simpleMalloc(chunk, chunks, hb),
              c = simpleMalloc(chunk, chunks, hc);
  size_t freeAfter = 0;
  CHECK_MU(muMemGetInfo(&freeAfter, &total));
  if (!onHardware()) // other processes share the GPU's memory
    CHECK(freeBefore - freeAfter == 3 * chunks * chunk, "free memory fell by %zu, expected %zu",
          freeBefore - freeAfter, 3 * chunks * chunk);
  float *ha_ = (float *)malloc(bytes), *hb_ = (float *)malloc(bytes), *hc_ = (float *)malloc(bytes);
  for (size_t i = 0; i < n; ++i)
    ha_[i] = float(i % 1000), hb_[i] = float(i % 7) * 0.5f;
  CHECK_MU(muMemcpyHtoD(a, ha_, bytes));
  CHECK_MUSA(musaMemcpy((void *)b, hb_, bytes, musaMemcpyHostToDevice));
  vectorAdd<<<unsigned((n + 255) / 256), 256>>>((const float *)a, (const float *)b, (float *)c, n);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MU(muMemcpyDtoH(hc_, c, bytes));
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    bad += hc_[i] != ha_[i] + hb_[i];
  CHECK(bad == 0, "%zu wrong sums", bad);
  printf("vectorAddMMAP: %zu floats over %d chunks each, %zu wrong\n", n, chunks, bad);
  musaPointerAttributes attr;
  CHECK_MUSA(musaPointerGetAttributes(&attr, (void *)(c + 100)));
  CHECK(attr.type == musaMemoryTypeDevice && attr.device == 0, "mapped memory is type %d",
        int(attr.type));
  MUdeviceptr base = 0;
  size_t size = 0;
  CHECK_MU(muMemGetAddressRange(&base, &size, c + chunk + 12));
  printf("address range of a second chunk: offset %lld, %zu chunk(s)\n", (long long)(base - c),
         size / chunk);
  if (!onHardware()) // the mapping itself (the probe asks what the GPU answers)
    CHECK(base == c + chunk && size == chunk, "address range at %lld, %zu bytes",
          (long long)(base - c), size);
  // The handle of a mapping, from any address in it.
  MUmemGenericAllocationHandle again = 0;
  CHECK_MU(muMemRetainAllocationHandle(&again, (void *)(a + chunk + 64)));
  MUmemAllocationProp got = {};
  CHECK_MU(muMemGetAllocationPropertiesFromHandle(&got, again));
  CHECK(got.type == MU_MEM_ALLOCATION_TYPE_PINNED && got.location.type == MU_MEM_LOCATION_TYPE_DEVICE &&
            got.location.id == 0,
        "properties %d %d %d", int(got.type), int(got.location.type), got.location.id);
  CHECK_MU(muMemRelease(again));
  unsigned long long flags = 0;
  MUmemLocation loc = {MU_MEM_LOCATION_TYPE_DEVICE, 0};
  CHECK_MU(muMemGetAccess(&flags, &loc, a + 8));
  CHECK(flags == MU_MEM_ACCESS_FLAGS_PROT_READWRITE, "access %llu", flags);
  free(ha_);
  free(hb_);
  free(hc_);
  for (MUdeviceptr p : {a, b, c}) {
    CHECK_MU(muMemUnmap(p, chunks * chunk));
    CHECK_MU(muMemAddressFree(p, chunks * chunk));
  }
  size_t freeEnd = 0;
  CHECK_MU(muMemGetInfo(&freeEnd, &total));
  if (!onHardware())
    CHECK(freeEnd == freeBefore, "unmapping released handles gave back %zu of %zu",
          freeEnd - freeAfter, freeBefore - freeAfter);

  // 2. One allocation at two addresses: what a kernel writes through one, the other reads.
  MUmemGenericAllocationHandle h;
  CHECK_MU(muMemCreate(&h, g, &prop, 0));
  MUdeviceptr v1 = 0, v2 = 0;
  CHECK_MU(muMemAddressReserve(&v1, g, 0, 0, 0));
  CHECK_MU(muMemAddressReserve(&v2, g, 0, 0, 0));
  CHECK_MU(muMemMap(v1, g, 0, h, 0));
  CHECK_MU(muMemMap(v2, g, 0, h, 0));
  MUmemAccessDesc acc = readWrite();
  CHECK_MU(muMemSetAccess(v1, g, &acc, 1));
  CHECK_MU(muMemSetAccess(v2, g, &acc, 1));
  stamp<<<64, 128>>>((unsigned *)v1, g / 4, 1000);
  CHECK_MUSA(musaDeviceSynchronize());
  unsigned seen[2] = {0, 0};
  CHECK_MU(muMemcpyDtoH(seen, v2 + 4 * 4096, 8));
  CHECK(seen[0] == 1000 + 4096 && seen[1] == 1000 + 4097, "alias reads %u %u", seen[0], seen[1]);
  CHECK_MU(muMemsetD32(v2 + 8, 77, 1));
  CHECK_MU(muMemcpyDtoH(seen, v1 + 8, 4));
  CHECK(seen[0] == 77, "memset through the alias: %u", seen[0]);
  printf("alias: one allocation at two addresses, %u then %u\n", 1000 + 4096, seen[0]);

  // Misuse, each refused with the GPU's error.
  MUmemGenericAllocationHandle hx = 0;
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemCreate(&hx, g + 4096, &prop, 0));
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemCreate(&hx, 0, &prop, 0));
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemGetAllocationGranularity(
                                          nullptr, &prop, MU_MEM_ALLOC_GRANULARITY_MINIMUM));
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemMap(v1, g, 0, h, 0)); // already mapped there
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemUnmap(v1, g / 2));     // part of a mapping
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemAddressFree(v1, g / 2)); // part of a reservation
  MUdeviceptr vx = 0;
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemAddressReserve(&vx, 4096, 0, 0, 0));
  // A mapping starts at its allocation's start, in whole granules, within it: otherwise
  // NOT_SUPPORTED, as the H100 answers (tests/hardware/session21/results.txt); flags: invalid.
  CHECK_MU(muMemAddressReserve(&vx, 2 * g, 0, 0, 0));
  EXPECT_MU(MUSA_ERROR_NOT_SUPPORTED, muMemMap(vx, g, g, h, 0));     // an offset
  EXPECT_MU(MUSA_ERROR_NOT_SUPPORTED, muMemMap(vx, 4096, 0, h, 0));  // part of a granule
  EXPECT_MU(MUSA_ERROR_NOT_SUPPORTED, muMemMap(vx, 2 * g, 0, h, 0)); // beyond the allocation
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemMap(vx, g, 0, h, 1));
  CHECK_MU(muMemAddressFree(vx, 2 * g));
  MUmemAllocationProp hostProp = prop; // the granularity is answered for the host too
  hostProp.location.type = MU_MEM_LOCATION_TYPE_HOST;
  size_t hostGranularity = 0;
  CHECK_MU(muMemGetAllocationGranularity(&hostGranularity, &hostProp,
                                         MU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CHECK(hostGranularity == g, "host granularity %zu", hostGranularity);
  CHECK_MU(muMemRelease(h)); // the mappings keep it
  CHECK_MU(muMemcpyDtoH(seen, v1 + 4 * 4096, 4));
  CHECK(seen[0] == 1000 + 4096, "after release the mapping reads %u", seen[0]);
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemRelease(h)); // no references left
  CHECK_MU(muMemUnmap(v1, g));
  CHECK_MU(muMemUnmap(v2, g));
  musaError_t unmapped = musaMemcpy(seen, (void *)v1, 4, musaMemcpyDeviceToHost);
  CHECK(unmapped == musaErrorInvalidValue, "a copy from an unmapped range gave %s",
        musaGetErrorName(unmapped));
  musaGetLastError();
  CHECK_MU(muMemAddressFree(v1, g));
  CHECK_MU(muMemAddressFree(v2, g));

  // 3. A buffer that grows in place: reserve the range right after it and map more there.
  MUdeviceptr buf = 0;
  CHECK_MU(muMemAddressReserve(&buf, 2 * g, 0, 0, 0));
  MUmemGenericAllocationHandle h1, h2;
  CHECK_MU(muMemCreate(&h1, 2 * g, &prop, 0));
  CHECK_MU(muMemMap(buf, 2 * g, 0, h1, 0));
  CHECK_MU(muMemSetAccess(buf, 2 * g, &acc, 1));
  stamp<<<32, 256>>>((unsigned *)buf, 2 * g / 4, 0);
  MUdeviceptr more = 0;
  CHECK_MU(muMemAddressReserve(&more, 2 * g, 0, buf + 2 * g, 0));
  if (more == buf + 2 * g) {
    CHECK_MU(muMemCreate(&h2, 2 * g, &prop, 0));
    CHECK_MU(muMemMap(more, 2 * g, 0, h2, 0));
    CHECK_MU(muMemSetAccess(more, 2 * g, &acc, 1));
    stamp<<<32, 256>>>((unsigned *)more, 2 * g / 4, unsigned(2 * g / 4));
    CHECK_MUSA(musaDeviceSynchronize());
    unsigned edge[2];
    CHECK_MU(muMemcpyDtoH(edge, buf + 2 * g - 4, 8)); // across the two allocations
    CHECK(edge[0] == 2 * g / 4 - 1 && edge[1] == 2 * g / 4, "grown buffer reads %u %u", edge[0],
          edge[1]);
    printf("grown in place: 4 MiB -> 8 MiB, the seam reads %u %u\n", edge[0], edge[1]);
    // One call unmaps the two mappings (of two reservations) together.
    CHECK_MU(muMemUnmap(buf, 4 * g));
    CHECK_MU(muMemRelease(h2));
    CHECK_MU(muMemAddressFree(more, 2 * g));
  } else {
    CHECK(onHardware(), "the range after the buffer was free but not given");
    CHECK_MUSA(musaDeviceSynchronize());
    muMemUnmap(buf, 2 * g);
    if (more)
      CHECK_MU(muMemAddressFree(more, 2 * g));
  }
  CHECK_MU(muMemRelease(h1));
  CHECK_MU(muMemAddressFree(buf, 2 * g));

  // 4. A shareable allocation: exported as a file descriptor, imported back.
  MUmemAllocationProp sprop = deviceProp(1);
  MUmemGenericAllocationHandle hs = 0, hi = 0;
  CHECK_MU(muMemCreate(&hs, g, &sprop, 0));
  int fd = -1;
  EXPECT_MU(MUSA_ERROR_INVALID_VALUE,
            muMemCreate(&hx, g, &prop, 0) == MUSA_SUCCESS
                ? muMemExportToShareableHandle(&fd, hx, MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0)
                : MUSA_ERROR_UNKNOWN); // made without a shareable handle type
  muMemRelease(hx);
  CHECK_MU(muMemExportToShareableHandle(&fd, hs, MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  CHECK(fd >= 0, "exported fd %d", fd);
  CHECK_MU(muMemImportFromShareableHandle(&hi, (void *)(long)fd,
                                          MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  MUdeviceptr vs = 0, vi = 0;
  CHECK_MU(muMemAddressReserve(&vs, g, 0, 0, 0));
  CHECK_MU(muMemAddressReserve(&vi, g, 0, 0, 0));
  CHECK_MU(muMemMap(vs, g, 0, hs, 0));
  CHECK_MU(muMemMap(vi, g, 0, hi, 0));
  CHECK_MU(muMemSetAccess(vs, g, &acc, 1));
  CHECK_MU(muMemSetAccess(vi, g, &acc, 1));
  CHECK_MU(muMemsetD32(vs, 0xabcdef, g / 4));
  CHECK_MU(muMemcpyDtoH(seen, vi + g - 4, 4));
  CHECK(seen[0] == 0xabcdef, "the imported allocation reads %x", seen[0]);
  printf("exported and imported: %x\n", seen[0]);
  CHECK_MU(muMemUnmap(vs, g));
  CHECK_MU(muMemUnmap(vi, g));
  CHECK_MU(muMemAddressFree(vs, g));
  CHECK_MU(muMemAddressFree(vi, g));
  CHECK_MU(muMemRelease(hi));
  if (hi != hs)
    CHECK_MU(muMemRelease(hs));
  close(fd);

  // 5. A device reset frees the device's address range, mappings included; the physical
  // allocation stays until its handle is released, then its memory comes back.
  if (!onHardware()) { // what a reset does to driver-API objects differs between drivers
    size_t freeFirst = 0;
    CHECK_MU(muMemGetInfo(&freeFirst, &total));
    MUmemGenericAllocationHandle hz;
    MUdeviceptr vz = 0;
    CHECK_MU(muMemCreate(&hz, g, &prop, 0));
    CHECK_MU(muMemAddressReserve(&vz, g, 0, 0, 0));
    CHECK_MU(muMemMap(vz, g, 0, hz, 0));
    CHECK_MU(muMemSetAccess(vz, g, &acc, 1));
    CHECK_MU(muMemsetD32(vz, 5, g / 4));
    CHECK_MUSA(musaDeviceReset());
    CHECK_MU(muCtxSetCurrent(ctx));
    EXPECT_MU(MUSA_ERROR_INVALID_VALUE, muMemUnmap(vz, g)); // the reset took it
    MUdeviceptr vy = 0; // the same allocation mapped again after the reset
    CHECK_MU(muMemAddressReserve(&vy, g, 0, 0, 0));
    CHECK_MU(muMemMap(vy, g, 0, hz, 0));
    CHECK_MU(muMemSetAccess(vy, g, &acc, 1));
    CHECK_MU(muMemcpyDtoH(seen, vy + 400, 4));
    CHECK(seen[0] == 5, "the allocation after a reset reads %u", seen[0]);
    CHECK_MU(muMemUnmap(vy, g));
    CHECK_MU(muMemAddressFree(vy, g));
    CHECK_MU(muMemRelease(hz));
    size_t freeReset = 0;
    CHECK_MU(muMemGetInfo(&freeReset, &total));
    CHECK(freeReset == freeFirst, "after a reset and a release %zu bytes stay charged",
          freeFirst - freeReset);
    printf("device reset: mapping gone, allocation kept (reads %u), memory back\n", seen[0]);
  }

  // 6. Last (the error is sticky): a kernel writing memory mapped read-only.
  MUmemGenericAllocationHandle hr;
  MUdeviceptr ro = 0;
  CHECK_MU(muMemCreate(&hr, g, &prop, 0));
  CHECK_MU(muMemAddressReserve(&ro, g, 0, 0, 0));
  CHECK_MU(muMemMap(ro, g, 0, hr, 0));
  MUmemAccessDesc readOnly = acc;
  readOnly.flags = MU_MEM_ACCESS_FLAGS_PROT_READ;
  CHECK_MU(muMemSetAccess(ro, g, &readOnly, 1));
  CHECK_MU(muMemGetAccess(&flags, &loc, ro));
  CHECK(flags == MU_MEM_ACCESS_FLAGS_PROT_READ, "read-only access reads back %llu", flags);
  stamp<<<4, 64>>>((unsigned *)ro, 256, 0);
  musaError_t e = musaDeviceSynchronize();
  CHECK(e == musaErrorIllegalAddress, "writing a read-only mapping gave %s",
        musaGetErrorName(e));
  printf("kernel writing a read-only mapping: %s\n", musaGetErrorName(e));
  return finish("virtual_memory");
}
