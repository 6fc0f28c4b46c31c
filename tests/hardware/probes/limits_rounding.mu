// limits_rounding.mu: how musaDeviceSetLimit rounds what it is given (read back with
// musaDeviceGetLimit), for the heap, the printf FIFO, the stack and the device runtime's
// pending launch count; what the heap accepts before and after a kernel used malloc(); and
// what the runtime API does with a pointer device malloc() returned (copy, free, attributes).
// Output: lines `what value -> status readback`.
#include <cstdio>

__global__ void useHeap(int **slot) {
  int *p = (int *)malloc(64);
  if (p) p[0] = 7;
  *slot = p;
}

static void trySet(const char *name, musaLimit limit, size_t v) {
  musaError_t e = musaDeviceSetLimit(limit, v);
  size_t back = 0;
  musaDeviceGetLimit(&back, limit);
  printf("%s %zu -> %s %zu\n", name, v, musaGetErrorName(e), back);
  musaGetLastError();
}

int main() {
  size_t sizes[] = {0, 1, 1000, 1u << 20, 3u << 20, (4u << 20) + 1, 5u << 20, 9u << 20, 33u << 20};
  for (size_t v : sizes) trySet("heap", musaLimitMallocHeapSize, v);
  size_t fifo[] = {0, 1000, 1u << 20, 3u << 20};
  for (size_t v : fifo) trySet("printf_fifo", musaLimitPrintfFifoSize, v);
  size_t stacks[] = {0, 1, 100, 1000, 1025, 4096, 5000};
  for (size_t v : stacks) trySet("stack", musaLimitStackSize, v);
  size_t pending[] = {0, 1, 4, 31, 33, 40, 100, 2049, 5000};
  for (size_t v : pending) trySet("pending", musaLimitDevRuntimePendingLaunchCount, v);
  trySet("heap_huge_fresh", musaLimitMallocHeapSize, size_t(1) << 50);
  trySet("heap_back", musaLimitMallocHeapSize, 8u << 20);
  int **slot;
  musaMallocManaged(&slot, sizeof(int *));
  useHeap<<<1, 1>>>(slot);
  musaError_t e = musaDeviceSynchronize();
  printf("launch_with_heap %s ptr_nonnull %d\n", musaGetErrorName(e), *slot != nullptr);
  int back = 0;
  e = musaMemcpy(&back, *slot, 4, musaMemcpyDeviceToHost);
  printf("memcpy_from_heap %s %d\n", musaGetErrorName(e), back);
  musaGetLastError();
  e = musaMemcpy(&back, *slot, 4, musaMemcpyDefault);
  printf("memcpy_default_from_heap %s %d\n", musaGetErrorName(e), back);
  musaGetLastError();
  musaPointerAttributes attr;
  e = musaPointerGetAttributes(&attr, *slot);
  printf("attributes_of_heap %s type %d\n", musaGetErrorName(e), (int)attr.type);
  musaGetLastError();
  e = musaMemset(*slot, 0, 4);
  printf("memset_heap %s\n", musaGetErrorName(e));
  musaGetLastError();
  e = musaFree(*slot);
  printf("free_heap %s\n", musaGetErrorName(e));
  musaGetLastError();
  trySet("heap_after_use", musaLimitMallocHeapSize, 16u << 20);
  trySet("heap_after_use_same", musaLimitMallocHeapSize, 8u << 20);
  trySet("printf_after_use", musaLimitPrintfFifoSize, 2u << 20);
  trySet("stack_after_use", musaLimitStackSize, 2048);
  return 0;
}
