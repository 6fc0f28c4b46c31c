// The driver API's virtual memory management (cuMemCreate, cuMemAddressReserve, cuMemMap,
// cuMemSetAccess, ...) on a GPU: granularity, the errors each call gives for misuse, and what
// the runtime says of mapped memory (hw-session20.sh). Built with nvcc -lcuda.
#include <cstdio>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>
#include <unistd.h>

static const char *name(CUresult r) {
  const char *s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "?";
}
#define SHOW(label, call) printf("%s: %s\n", label, name(call))

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v + i;
}

// argv[1] = noaccess | readonly: a kernel writing mapped memory it was given no access to, or
// read-only access (each poisons the context, so each runs in a process of its own).
static int fault(const char *mode, const CUmemAllocationProp &prop, size_t g) {
  CUmemGenericAllocationHandle h = 0;
  CUdeviceptr va = 0;
  cuMemCreate(&h, g, &prop, 0);
  cuMemAddressReserve(&va, g, 0, 0, 0);
  cuMemMap(va, g, 0, h, 0);
  if (!strcmp(mode, "readonly")) {
    CUmemAccessDesc acc = {};
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
    SHOW("setaccess read", cuMemSetAccess(va, g, &acc, 1));
  }
  fill<<<4, 256>>>((int *)va, 1024, 1);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  printf("%s: launch %s sync %s\n", mode, cudaGetErrorName(launch), cudaGetErrorName(sync));
  return 0;
}

int main(int argc, char **argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  cudaSetDevice(0);
  cudaFree(nullptr);
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  if (argc > 1) {
    size_t g0 = 0;
    cuMemGetAllocationGranularity(&g0, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    return fault(argv[1], prop, g0);
  }
  size_t gMin = 0, gRec = 0;
  SHOW("granularity minimum", cuMemGetAllocationGranularity(&gMin, &prop,
                                                            CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  SHOW("granularity recommended",
       cuMemGetAllocationGranularity(&gRec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  printf("granularity %zu %zu\n", gMin, gRec);
  size_t g = gMin;
  SHOW("granularity flags 7", cuMemGetAllocationGranularity(&gMin, &prop,
                                                            (CUmemAllocationGranularity_flags)7));
  SHOW("granularity null", cuMemGetAllocationGranularity(nullptr, &prop,
                                                         CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemAllocationProp badLoc = prop;
  badLoc.location.id = 9;
  SHOW("granularity device 9", cuMemGetAllocationGranularity(&gMin, &badLoc,
                                                             CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemAllocationProp hostLoc = prop;
  hostLoc.location.type = CU_MEM_LOCATION_TYPE_HOST;
  size_t gh = 0;
  SHOW("granularity host", cuMemGetAllocationGranularity(&gh, &hostLoc,
                                                         CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  printf("host granularity %zu\n", gh);

  CUmemGenericAllocationHandle h = 0, h2 = 0, hx = 0;
  SHOW("create 1 byte", cuMemCreate(&hx, 1, &prop, 0));
  SHOW("create g+4096", cuMemCreate(&hx, g + 4096, &prop, 0));
  SHOW("create 0", cuMemCreate(&hx, 0, &prop, 0));
  SHOW("create flags 1", cuMemCreate(&hx, g, &prop, 1));
  CUmemAllocationProp badType = prop;
  badType.type = CU_MEM_ALLOCATION_TYPE_INVALID;
  SHOW("create type invalid", cuMemCreate(&hx, g, &badType, 0));
  SHOW("create device 9", cuMemCreate(&hx, g, &badLoc, 0));
  SHOW("create null handle", cuMemCreate(nullptr, g, &prop, 0));
  SHOW("create 2g", cuMemCreate(&h, 2 * g, &prop, 0));
  SHOW("create g", cuMemCreate(&h2, g, &prop, 0));

  CUdeviceptr va = 0, vb = 0, vx = 0;
  SHOW("reserve 4096", cuMemAddressReserve(&vx, 4096, 0, 0, 0));
  printf("reserve 4096 gave %s\n", vx ? "an address" : "null");
  if (vx) SHOW("free 4096 reservation", cuMemAddressFree(vx, 4096));
  SHOW("reserve 0", cuMemAddressReserve(&vx, 0, 0, 0, 0));
  SHOW("reserve align 3", cuMemAddressReserve(&vx, g, 3, 0, 0));
  SHOW("reserve flags 1", cuMemAddressReserve(&vx, g, 0, 0, 1));
  SHOW("reserve 4g", cuMemAddressReserve(&va, 4 * g, 0, 0, 0));
  printf("reserve 4g aligned to g: %d\n", int(va % g == 0));
  SHOW("reserve 4g at va (taken)", cuMemAddressReserve(&vb, 4 * g, 0, va, 0));
  printf("hint taken gives %s\n", vb == va ? "same" : vb ? "other" : "null");
  if (vb && vb != va) cuMemAddressFree(vb, 4 * g);
  SHOW("reserve 2g align 4g", cuMemAddressReserve(&vb, 2 * g, 4 * g, 0, 0));
  printf("align 4g honoured: %d\n", int(vb % (4 * g) == 0));

  SHOW("map offset g of 2g handle", cuMemMap(va, g, g, h, 0));
  cuMemUnmap(va, g);
  SHOW("map size not multiple", cuMemMap(va, 4096, 0, h, 0));
  SHOW("map too big for handle", cuMemMap(va, 3 * g, 0, h, 0));
  SHOW("map outside reservation", cuMemMap(va + 4 * g, g, 0, h2, 0));
  SHOW("map flags 1", cuMemMap(va, 2 * g, 0, h, 1));
  cuMemUnmap(va, 2 * g);
  SHOW("map bad handle", cuMemMap(va, g, 0, (CUmemGenericAllocationHandle)0x1234, 0));
  SHOW("map 2g at va", cuMemMap(va, 2 * g, 0, h, 0));
  SHOW("map again over it", cuMemMap(va, g, 0, h2, 0));
  SHOW("map g at va+2g", cuMemMap(va + 2 * g, g, 0, h2, 0));
  SHOW("map same handle twice (va+3g)", cuMemMap(va + 3 * g, g, 0, h2, 0));
  unsigned long long flagsOut = 0;
  CUmemLocation loc = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  SHOW("getaccess before set", cuMemGetAccess(&flagsOut, &loc, va));
  printf("access before set %llu\n", flagsOut);
  cudaPointerAttributes attr{};
  cudaError_t ce = cudaPointerGetAttributes(&attr, (void *)va);
  printf("runtime attributes before access: %s type %d\n", cudaGetErrorName(ce), int(attr.type));
  cudaGetLastError();
  CUmemAccessDesc acc = {};
  acc.location = loc;
  acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  SHOW("setaccess partial mapping", cuMemSetAccess(va, g, &acc, 1));
  SHOW("setaccess unmapped range", cuMemSetAccess(va + 4 * g, g, &acc, 1));
  SHOW("setaccess count 0", cuMemSetAccess(va, 2 * g, &acc, 0));
  CUmemAccessDesc accBad = acc;
  accBad.flags = (CUmemAccess_flags)2;
  SHOW("setaccess flags 2", cuMemSetAccess(va, 2 * g, &accBad, 1));
  accBad.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
  SHOW("setaccess read only", cuMemSetAccess(va + 2 * g, g, &accBad, 1));
  SHOW("setaccess 3g (two mappings)", cuMemSetAccess(va, 3 * g, &acc, 1));
  SHOW("getaccess after set", cuMemGetAccess(&flagsOut, &loc, va + g));
  printf("access after set %llu\n", flagsOut);
  SHOW("getaccess unmapped", cuMemGetAccess(&flagsOut, &loc, va + 4 * g - 8));
  ce = cudaPointerGetAttributes(&attr, (void *)(va + 100));
  printf("runtime attributes: %s type %d device %d dptr==ptr %d\n", cudaGetErrorName(ce),
         int(attr.type), attr.device, int(attr.devicePointer == (void *)(va + 100)));
  CUdeviceptr base = 0;
  size_t size = 0;
  SHOW("getaddressrange", cuMemGetAddressRange(&base, &size, va + g + 5));
  printf("address range base-va %lld size/g %.3f\n", (long long)(base - va), double(size) / g);
  CUmemGenericAllocationHandle hr = 0;
  SHOW("retain at va+100", cuMemRetainAllocationHandle(&hr, (void *)(va + 100)));
  printf("retained same value as created: %d\n", int(hr == h));
  if (hr) SHOW("release retained", cuMemRelease(hr));
  SHOW("retain unmapped", cuMemRetainAllocationHandle(&hr, (void *)(va + 4 * g - 8)));
  CUmemAllocationProp got = {};
  SHOW("properties", cuMemGetAllocationPropertiesFromHandle(&got, h));
  printf("properties type %d loc %d/%d handles %d\n", int(got.type), int(got.location.type),
         got.location.id, int(got.requestedHandleTypes));

  // Use it: a kernel writes, copies read back, memset, copy between mappings.
  int n = int(2 * g / 4);
  fill<<<(n + 255) / 256, 256>>>((int *)va, n, 7);
  ce = cudaDeviceSynchronize();
  printf("kernel on mapped memory: %s\n", cudaGetErrorName(ce));
  int probe[4] = {};
  ce = cudaMemcpy(probe, (void *)(va + 4 * 1000), 16, cudaMemcpyDefault);
  printf("read back %s: %d %d %d %d\n", cudaGetErrorName(ce), probe[0], probe[1], probe[2],
         probe[3]);
  ce = cudaMemcpy((void *)(va + 2 * g), (void *)va, g, cudaMemcpyDeviceToDevice);
  printf("copy into read-only mapping: %s\n", cudaGetErrorName(ce));
  cudaGetLastError();
  // The same physical memory seen at a second address.
  SHOW("map 2g handle at vb", cuMemMap(vb, 2 * g, 0, h, 0));
  SHOW("setaccess vb", cuMemSetAccess(vb, 2 * g, &acc, 1));
  ce = cudaMemcpy(probe, (void *)(vb + 4 * 1000), 16, cudaMemcpyDefault);
  printf("alias read %s: %d %d\n", cudaGetErrorName(ce), probe[0], probe[3]);
  SHOW("release h while mapped", cuMemRelease(h));
  ce = cudaMemcpy(probe, (void *)(va + 4 * 2000), 8, cudaMemcpyDefault);
  printf("read after release %s: %d\n", cudaGetErrorName(ce), probe[0]);
  SHOW("release h again", cuMemRelease(h));
  SHOW("unmap partial", cuMemUnmap(va, g));
  SHOW("unmap across two mappings", cuMemUnmap(va, 3 * g));
  SHOW("addressfree while mapped", cuMemAddressFree(vb, 2 * g));
  SHOW("unmap va 2g", cuMemUnmap(va, 2 * g));
  SHOW("unmap va 2g again", cuMemUnmap(va, 2 * g));
  SHOW("unmap va+2g g", cuMemUnmap(va + 2 * g, g));
  SHOW("unmap va+3g g", cuMemUnmap(va + 3 * g, g));
  ce = cudaMemcpy(probe, (void *)(va + 16), 8, cudaMemcpyDefault);
  printf("runtime copy from unmapped: %s\n", cudaGetErrorName(ce));
  cudaGetLastError();
  ce = cudaPointerGetAttributes(&attr, (void *)(va + 16));
  printf("attributes unmapped: %s type %d\n", cudaGetErrorName(ce), int(attr.type));
  cudaGetLastError();
  SHOW("addressfree partial", cuMemAddressFree(va, g));
  SHOW("addressfree va 4g", cuMemAddressFree(va, 4 * g));
  SHOW("addressfree va again", cuMemAddressFree(va, 4 * g));
  SHOW("unmap vb", cuMemUnmap(vb, 2 * g));
  SHOW("addressfree vb", cuMemAddressFree(vb, 2 * g));
  SHOW("release h2", cuMemRelease(h2));
  SHOW("release 0", cuMemRelease(0));

  // Shareable handles.
  CUmemAllocationProp sh = prop;
  sh.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CUmemGenericAllocationHandle hs = 0, hn = 0, hi = 0;
  SHOW("create shareable", cuMemCreate(&hs, g, &sh, 0));
  SHOW("create plain", cuMemCreate(&hn, g, &prop, 0));
  int fd = -1;
  SHOW("export plain", cuMemExportToShareableHandle(&fd, hn, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  SHOW("export shareable", cuMemExportToShareableHandle(&fd, hs, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  printf("fd valid %d\n", int(fd >= 0));
  SHOW("export flags 1", cuMemExportToShareableHandle(&fd, hs, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
  SHOW("import", cuMemImportFromShareableHandle(&hi, (void *)(long)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  printf("imported same value: %d\n", int(hi == hs));
  SHOW("import bad fd", cuMemImportFromShareableHandle(&hx, (void *)(long)999, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  size_t freeB = 0, totalB = 0;
  cudaMemGetInfo(&freeB, &totalB);
  printf("meminfo ok\n");
  SHOW("release imported", cuMemRelease(hi));
  SHOW("release shareable", cuMemRelease(hs));
  SHOW("release plain", cuMemRelease(hn));
  if (fd >= 0) close(fd);
  return 0;
}
