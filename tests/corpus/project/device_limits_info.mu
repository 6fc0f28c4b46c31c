// Device-level queries: musaMemGetInfo before/after allocations, malloc heap limit before and after
// the first kernel that uses malloc, musaDriverGetVersion/RuntimeGetVersion, musaChooseDevice,
// musaGetErrorName/String for every error code.
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

__global__ void useHeap(int *out, size_t bytes) {
  char *p = (char *)malloc(bytes);
  out[threadIdx.x] = p != nullptr;
  if (p) {
    p[0] = 1;
    free(p);
  }
}

struct Code { musaError_t v; const char *name; };
static const Code kCodes[] = {
#define MUSA_ERROR_CODE(name, value, text) {name, #name},
#include <musa_error_codes.def>
#undef MUSA_ERROR_CODE
};

int main() {
  bool ok = true;
  // Versions.
  int drv = -1, rtv = -1;
  CHECK(musaDriverGetVersion(&drv));
  CHECK(musaRuntimeGetVersion(&rtv));
  printf("driver %d runtime %d\n", drv, rtv);
  EXPECT(drv > 0 && rtv > 0);
  EXPECT(musaDriverGetVersion(nullptr) == musaErrorInvalidValue);
  EXPECT(musaRuntimeGetVersion(nullptr) == musaErrorInvalidValue);
  musaGetLastError();

  // musaChooseDevice: a device matching the current one's compute capability.
  musaDeviceProp cur, want;
  CHECK(musaGetDeviceProperties(&cur, 0));
  memset(&want, 0, sizeof want);
  want.major = cur.major;
  want.minor = cur.minor;
  int chosen = -1;
  CHECK(musaChooseDevice(&chosen, &want));
  int ndev = 0;
  CHECK(musaGetDeviceCount(&ndev));
  EXPECT(chosen >= 0 && chosen < ndev);
  EXPECT(musaChooseDevice(nullptr, &want) == musaErrorInvalidValue);
  EXPECT(musaChooseDevice(&chosen, nullptr) == musaErrorInvalidValue);
  musaGetLastError();

  // musaMemGetInfo around allocations.
  size_t free0, total0, free1, total1, free2, total2;
  CHECK(musaMemGetInfo(&free0, &total0));
  EXPECT(free0 <= total0 && total0 == cur.totalGlobalMem);
  const size_t big = 64u << 20;
  void *a;
  CHECK(musaMalloc(&a, big));
  CHECK(musaMemGetInfo(&free1, &total1));
  printf("free before %zu after alloc %zu (delta %zu)\n", free0, free1, free0 - free1);
  EXPECT(total1 == total0 && free1 <= free0 - big && free0 - free1 <= big + (8u << 20));
  CHECK(musaFree(a));
  CHECK(musaMemGetInfo(&free2, &total2));
  EXPECT(free2 >= free1 + big);
  EXPECT(musaMemGetInfo(nullptr, &total2) == musaErrorInvalidValue);
  musaGetLastError();
  // An allocation larger than what is free fails with out of memory and leaves no sticky error.
  void *huge = nullptr;
  EXPECT(musaMalloc(&huge, total0 + (1ull << 30)) == musaErrorMemoryAllocation);
  EXPECT(musaGetLastError() == musaErrorMemoryAllocation);
  EXPECT(musaGetLastError() == musaSuccess);

  // Heap limit: settable before the first launch of a kernel using malloc.
  size_t heap = 0;
  CHECK(musaDeviceGetLimit(&heap, musaLimitMallocHeapSize));
  printf("default heap %zu\n", heap);
  EXPECT(heap == 8u << 20);
  CHECK(musaDeviceSetLimit(musaLimitMallocHeapSize, 32u << 20));
  CHECK(musaDeviceGetLimit(&heap, musaLimitMallocHeapSize));
  EXPECT(heap == 32u << 20);
  int *out;
  CHECK(musaMalloc(&out, 32 * sizeof(int)));
  useHeap<<<1, 1>>>(out, 16u << 20); // 16 MiB fits in the 32 MiB heap
  CHECK(musaDeviceSynchronize());
  int got = 0;
  CHECK(musaMemcpy(&got, out, sizeof got, musaMemcpyDeviceToHost));
  EXPECT(got == 1);
  useHeap<<<1, 1>>>(out, 64u << 20); // 64 MiB does not: malloc returns NULL
  CHECK(musaDeviceSynchronize());
  CHECK(musaMemcpy(&got, out, sizeof got, musaMemcpyDeviceToHost));
  EXPECT(got == 0);
  // After a launch that used malloc, changing the heap size is refused (the heap is fixed).
  musaError_t e = musaDeviceSetLimit(musaLimitMallocHeapSize, 64u << 20);
  size_t heapAfter = 0;
  CHECK(musaDeviceGetLimit(&heapAfter, musaLimitMallocHeapSize));
  printf("set heap after use: %s, reads %zu\n", musaGetErrorName(e), heapAfter);
  EXPECT(e != musaSuccess ? heapAfter == (32u << 20) : heapAfter == (64u << 20));
  musaGetLastError();
  EXPECT(musaDeviceGetLimit(&heap, (musaLimit)0x1234) == musaErrorUnsupportedLimit);
  EXPECT(musaDeviceGetLimit(nullptr, musaLimitStackSize) == musaErrorInvalidValue);
  musaGetLastError();
  size_t stack = 0;
  CHECK(musaDeviceGetLimit(&stack, musaLimitStackSize));
  EXPECT(stack > 0);
  size_t fifo = 0;
  CHECK(musaDeviceGetLimit(&fifo, musaLimitPrintfFifoSize));
  EXPECT(fifo > 0);

  // Error names and strings for every code.
  int n = 0, bad = 0;
  for (const Code &c : kCodes) {
    const char *name = musaGetErrorName(c.v);
    const char *str = musaGetErrorString(c.v);
    if (!name || strcmp(name, c.name) != 0 || !str || !*str || strcmp(str, "unrecognized error code") == 0) {
      printf("code %d: name %s string %s\n", (int)c.v, name ? name : "(null)", str ? str : "(null)");
      ++bad;
    }
    ++n;
  }
  printf("%d error codes checked\n", n);
  EXPECT(bad == 0 && n > 100);
  EXPECT(strcmp(musaGetErrorName((musaError_t)12345), "unrecognized error code") == 0);
  EXPECT(strcmp(musaGetErrorString((musaError_t)12345), "unrecognized error code") == 0);
  EXPECT(strcmp(musaGetErrorString(musaSuccess), "no error") == 0);
  EXPECT(strcmp(musaGetErrorName(musaErrorMemoryAllocation), "musaErrorMemoryAllocation") == 0 ||
         strcmp(musaGetErrorName(musaErrorMemoryAllocation), "musaErrorOutOfMemory") == 0);
  CHECK(musaFree(out));
  printf("device_limits_info: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
