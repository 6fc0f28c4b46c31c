// musaPointerGetAttributes / musaPointerGetAttribute on every kind of pointer: device, pool, pinned,
// mapped, registered, managed, plain host, stack, offset (interior) pointers, freed and null pointers,
// and memory of a second device when there is one.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("mismatch %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
      ok = false;                                                      \
    }                                                                  \
  } while (0)

static bool ok = true;
static void expectAttr(const char *what, const void *p, musaMemoryType type, int dev, const void *dptr,
                       const void *hptr, bool checkDev = true) {
  musaPointerAttributes a;
  memset(&a, 0x5a, sizeof a);
  musaError_t e = musaPointerGetAttributes(&a, p);
  bool good = e == musaSuccess && a.type == type && (!checkDev || a.device == dev) &&
              a.devicePointer == dptr && a.hostPointer == hptr;
  printf("%-22s %s type %d device %d dptr %s hptr %s%s\n", what, musaGetErrorName(e), (int)a.type,
         a.device, a.devicePointer == p ? "=p" : (a.devicePointer ? "other" : "null"),
         a.hostPointer == p ? "=p" : (a.hostPointer ? "other" : "null"), good ? "" : "   <-- MISMATCH");
  if (!good) ok = false;
}

__global__ void inc(int *p) { p[threadIdx.x] += 1; }

int main() {
  int ndev = 0;
  CHECK(musaGetDeviceCount(&ndev));
  CHECK(musaSetDevice(0));
  int uva = 0, hostPtrReg = 0;
  CHECK(musaDeviceGetAttribute(&uva, musaDevAttrUnifiedAddressing, 0));
  CHECK(musaDeviceGetAttribute(&hostPtrReg, musaDevAttrCanUseHostPointerForRegisteredMem, 0));
  EXPECT(uva == 1);

  char *d;
  CHECK(musaMalloc(&d, 1 << 20));
  expectAttr("device", d, musaMemoryTypeDevice, 0, d, nullptr);
  expectAttr("device+12345", d + 12345, musaMemoryTypeDevice, 0, d + 12345, nullptr);
  expectAttr("device last byte", d + (1 << 20) - 1, musaMemoryTypeDevice, 0, d + (1 << 20) - 1, nullptr);

  // Range queries on an interior pointer.
  void *start = nullptr;
  size_t rsize = 0;
  unsigned int mtype = 0, managed = 7, mapped = 7;
  int ordinal = -1;
  CHECK(musaPointerGetAttribute(&start, MUSA_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 999));
  CHECK(musaPointerGetAttribute(&rsize, MUSA_POINTER_ATTRIBUTE_RANGE_SIZE, d + 999));
  CHECK(musaPointerGetAttribute(&mtype, MUSA_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 999));
  CHECK(musaPointerGetAttribute(&managed, MUSA_POINTER_ATTRIBUTE_IS_MANAGED, d + 999));
  CHECK(musaPointerGetAttribute(&ordinal, MUSA_POINTER_ATTRIBUTE_DEVICE_ORDINAL, d + 999));
  CHECK(musaPointerGetAttribute(&mapped, MUSA_POINTER_ATTRIBUTE_MAPPED, d + 999));
  printf("range start %s size %zu memtype %u managed %u ordinal %d mapped %u\n",
         start == d ? "=base" : "other", rsize, mtype, managed, ordinal, mapped);
  EXPECT(start == d && rsize == (1 << 20) && mtype == 2 /*CU_MEMORYTYPE_DEVICE*/ && managed == 0 &&
         ordinal == 0 && mapped == 1);

  // Stream-ordered allocation.
  char *pool;
  CHECK(musaMallocAsync(&pool, 4096, 0));
  CHECK(musaStreamSynchronize(0));
  expectAttr("musaMallocAsync", pool + 8, musaMemoryTypeDevice, 0, pool + 8, nullptr);
  CHECK(musaFreeAsync(pool, 0));
  CHECK(musaStreamSynchronize(0));

  // Pinned memory (portable + mapped under UVA).
  char *pinned;
  CHECK(musaMallocHost(&pinned, 8192));
  expectAttr("musaMallocHost", pinned, musaMemoryTypeHost, 0, pinned, pinned);
  expectAttr("musaMallocHost+100", pinned + 100, musaMemoryTypeHost, 0, pinned + 100, pinned + 100);
  char *mappedHost;
  CHECK(musaHostAlloc(&mappedHost, 8192, musaHostAllocMapped));
  void *mappedDev;
  CHECK(musaHostGetDevicePointer(&mappedDev, mappedHost, 0));
  expectAttr("musaHostAlloc mapped", mappedHost, musaMemoryTypeHost, 0, mappedDev, mappedHost);

  // Registered memory.
  char *reg = (char *)aligned_alloc(4096, 16384);
  CHECK(musaHostRegister(reg, 16384, musaHostRegisterMapped));
  void *regDev;
  CHECK(musaHostGetDevicePointer(&regDev, reg, 0));
  if (hostPtrReg) EXPECT(regDev == reg);
  expectAttr("registered", reg, musaMemoryTypeHost, 0, regDev, reg);
  expectAttr("registered+4000", reg + 4000, musaMemoryTypeHost, 0, (char *)regDev + 4000, reg + 4000);
  CHECK(musaHostUnregister(reg));
  {
    musaPointerAttributes a;
    CHECK(musaPointerGetAttributes(&a, reg));
    printf("unregistered again: type %d\n", (int)a.type);
    EXPECT(a.type == musaMemoryTypeUnregistered);
  }
  free(reg);

  // Managed memory.
  int *m;
  CHECK(musaMallocManaged(&m, 256 * sizeof(int)));
  expectAttr("managed", m, musaMemoryTypeManaged, 0, m, m);
  expectAttr("managed+3", m + 3, musaMemoryTypeManaged, 0, m + 3, m + 3);
  CHECK(musaPointerGetAttribute(&managed, MUSA_POINTER_ATTRIBUTE_IS_MANAGED, m + 3));
  EXPECT(managed == 1);
  for (int i = 0; i < 256; ++i) m[i] = i;
  inc<<<1, 256>>>(m);
  CHECK(musaDeviceSynchronize());
  EXPECT(m[0] == 1 && m[255] == 256);

  // Plain host memory: CUDA 11+ returns success and musaMemoryTypeUnregistered.
  int stackVar = 0;
  char *heap = (char *)malloc(100);
  musaPointerAttributes a;
  CHECK(musaPointerGetAttributes(&a, &stackVar));
  printf("stack: type %d device %d dptr %p hptr-is-ptr %d\n", (int)a.type, a.device, a.devicePointer,
         a.hostPointer == &stackVar);
  EXPECT(a.type == musaMemoryTypeUnregistered && a.devicePointer == nullptr);
  CHECK(musaPointerGetAttributes(&a, heap));
  EXPECT(a.type == musaMemoryTypeUnregistered && a.devicePointer == nullptr);
  free(heap);

  // Freed device memory is unregistered again.
  CHECK(musaFree(d));
  CHECK(musaPointerGetAttributes(&a, d));
  printf("freed device: type %d\n", (int)a.type);
  EXPECT(a.type == musaMemoryTypeUnregistered);
  CHECK(musaFreeHost(pinned));
  CHECK(musaPointerGetAttributes(&a, pinned));
  printf("freed pinned: type %d\n", (int)a.type);
  EXPECT(a.type == musaMemoryTypeUnregistered);

  // Null attributes argument.
  EXPECT(musaPointerGetAttributes(nullptr, m) == musaErrorInvalidValue);
  musaGetLastError();

  // Memory of device 1 seen from device 0.
  if (ndev > 1) {
    CHECK(musaSetDevice(1));
    char *d1;
    CHECK(musaMalloc(&d1, 4096));
    char *p1;
    CHECK(musaMallocHost(&p1, 4096));
    CHECK(musaSetDevice(0));
    expectAttr("device 1 memory", d1 + 1, musaMemoryTypeDevice, 1, d1 + 1, nullptr);
    expectAttr("pinned while dev 1", p1, musaMemoryTypeHost, 1, p1, p1);
    CHECK(musaPointerGetAttribute(&ordinal, MUSA_POINTER_ATTRIBUTE_DEVICE_ORDINAL, d1));
    EXPECT(ordinal == 1);
    musaPointerGetAttributes(&a, d1);
    int dev = -1;
    CHECK(musaFree(d1)); // musaFree of another device's memory works under UVA
    CHECK(musaFreeHost(p1));
    CHECK(musaGetDevice(&dev));
    EXPECT(dev == 0);
  }
  CHECK(musaFreeHost(mappedHost));
  CHECK(musaFree(m));
  printf("pointer_attributes: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
