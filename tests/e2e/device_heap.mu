// malloc/free/new/delete in kernels and the heap limit, as CUDA programs use them: a heap
// size set before the first kernel, allocations that outlive their kernel and are freed by
// another thread of another kernel, NULL once the heap is exhausted, the limit fixed once the
// heap is in use. `badfree` frees a pointer the heap did not hand out (a launch failure).
#include "check.h"

#include <string.h>

struct Node {
  int value;
  Node *next;
  __device__ Node(int v, Node *n) : value(v), next(n) {}
};

__global__ void allocate(int **slots, int words) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = (int *)malloc(words * sizeof(int));
  if (p)
    for (int k = 0; k < words; ++k)
      p[k] = i * 1000 + k;
  slots[i] = p;
}

// Another kernel: each thread checks and frees its neighbour's allocation.
__global__ void checkAndFree(int **slots, int words, int n, int *bad) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = (i + 1) % n;
  int *p = slots[j];
  if (!p) {
    atomicAdd(bad, 1);
    return;
  }
  for (int k = 0; k < words; ++k)
    if (p[k] != j * 1000 + k)
      atomicAdd(bad, 1);
  free(p);
}

__global__ void tooBig(size_t bytes, int *nulls) {
  void *p = malloc(bytes);
  if (!p)
    atomicAdd(nulls, 1);
  free(p); // free(NULL) is fine
}

__global__ void exhaust(int *got, size_t chunk, int tries) {
  int count = 0;
  for (int t = 0; t < tries; ++t)
    if (malloc(chunk))
      ++count; // never freed: fills the heap
  atomicAdd(got, count);
}

__global__ void lists(int *sums) {
  int t = threadIdx.x;
  Node *head = nullptr;
  for (int k = 1; k <= 5; ++k)
    head = new Node(k * (t + 1), head);
  int *arr = new int[8];
  for (int k = 0; k < 8; ++k)
    arr[k] = k;
  int s = 0;
  while (head) {
    s += head->value;
    Node *next = head->next;
    delete head;
    head = next;
  }
  for (int k = 0; k < 8; ++k)
    s += arr[k];
  delete[] arr;
  sums[t] = s;
}

__global__ void freeStackPointer() {
  int local[4];
  local[threadIdx.x & 3] = 1;
  free(local + (threadIdx.x & 3));
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "badfree") == 0) {
    freeStackPointer<<<1, 4>>>();
    musaError_t e = musaDeviceSynchronize();
    printf("bad free: %s\n", musaGetErrorName(e));
    CHECK(e == musaErrorLaunchFailure, "got %s", musaGetErrorName(e));
    return finish("device_heap badfree");
  }

  size_t heap = 0;
  CHECK_MUSA(musaDeviceGetLimit(&heap, musaLimitMallocHeapSize));
  CHECK(heap == 8u << 20, "default heap %zu", heap);
  // The GPU keeps at least 4 MiB (an H100: limits_rounding.h100.txt).
  CHECK_MUSA(musaDeviceSetLimit(musaLimitMallocHeapSize, 1u << 20));
  CHECK_MUSA(musaDeviceGetLimit(&heap, musaLimitMallocHeapSize));
  CHECK(heap == 4u << 20, "heap %zu", heap);

  const int n = 512, words = 16;
  int **slots, *bad;
  CHECK_MUSA(musaMalloc(&slots, n * sizeof(int *)));
  CHECK_MUSA(musaMallocManaged(&bad, 4 * sizeof(int)));
  memset(bad, 0, 4 * sizeof(int));
  allocate<<<n / 128, 128>>>(slots, words);
  CHECK_MUSA(musaDeviceSynchronize());

  // Heap memory is no allocation of the runtime's: the host cannot copy it (the H100 answers
  // musaErrorInvalidValue, whatever the copy's kind), pointer attributes call it unregistered,
  // and only kernels free it.
  int *first;
  CHECK_MUSA(musaMemcpy(&first, slots + 7, sizeof first, musaMemcpyDeviceToHost));
  int back[words];
  CHECK(musaMemcpy(back, first, sizeof back, musaMemcpyDeviceToHost) == musaErrorInvalidValue,
        "musaMemcpy from heap memory");
  CHECK(musaMemcpy(back, first, sizeof back, musaMemcpyDefault) == musaErrorInvalidValue,
        "musaMemcpy (default kind) from heap memory");
  musaGetLastError();
  musaPointerAttributes attributes;
  CHECK_MUSA(musaPointerGetAttributes(&attributes, first));
  CHECK(attributes.type == musaMemoryTypeUnregistered, "heap memory's type %d",
        int(attributes.type));
  CHECK(musaFree(first) == musaErrorInvalidValue, "musaFree of heap memory");
  musaGetLastError();
  // Fixed from now on.
  CHECK(musaDeviceSetLimit(musaLimitMallocHeapSize, 2u << 20) == musaErrorInvalidValue,
        "heap size changed after use");
  musaGetLastError();

  checkAndFree<<<n / 128, 128>>>(slots, words, n, bad);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(bad[0] == 0, "%d wrong or missing values", bad[0]);

  tooBig<<<2, 64>>>(8u << 20, bad + 1);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(bad[1] == 128, "%d of 128 oversized mallocs returned NULL", bad[1]);

  // Everything was freed, so the whole heap is available again: 256 KiB chunks fit 16 times
  // in 4 MiB, whoever asks, and the 17th fails (the H100's allocator, with its own overhead,
  // fits 13: hw-session12b.sh).
  exhaust<<<1, 8>>>(bad + 2, 256u << 10, 4);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(bad[2] == 16 || (reachesHardware() && bad[2] > 0 && bad[2] < 16),
        "%d of 32 chunks of 256 KiB fit a 4 MiB heap", bad[2]);

  // The heap is full now; new in kernels returns NULL, so reset and start over.
  CHECK_MUSA(musaDeviceReset());
  CHECK_MUSA(musaDeviceGetLimit(&heap, musaLimitMallocHeapSize));
  CHECK(heap == 8u << 20, "reset restores the default heap, got %zu", heap);
  int *sums;
  CHECK_MUSA(musaMallocManaged(&sums, 64 * sizeof(int)));
  lists<<<1, 64>>>(sums);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int t = 0; t < 64; ++t)
    CHECK(sums[t] == 15 * (t + 1) + 28, "thread %d sum %d", t, sums[t]);

  // The other limits.
  size_t v = 0;
  CHECK_MUSA(musaDeviceGetLimit(&v, musaLimitStackSize));
  CHECK(v == 1024, "default stack %zu", v);
  CHECK_MUSA(musaDeviceSetLimit(musaLimitStackSize, 8192));
  CHECK_MUSA(musaDeviceGetLimit(&v, musaLimitStackSize));
  CHECK(v == 8192, "stack %zu", v);
  CHECK(musaDeviceSetLimit(musaLimitStackSize, size_t(1) << 40) == musaErrorInvalidValue,
        "absurd stack accepted");
  CHECK_MUSA(musaDeviceGetLimit(&v, musaLimitPrintfFifoSize));
  CHECK(v == 8650752, "default printf FIFO %zu", v); // the H100's and H200's
  // The heap was used since the reset: its size is fixed (even a size the GPU would accept
  // before, as more than the device has: LimitApiTest).
  CHECK(musaDeviceSetLimit(musaLimitMallocHeapSize, size_t(1) << 50) == musaErrorInvalidValue,
        "heap resized after use");
  CHECK(musaDeviceGetLimit(&v, musaLimitDevRuntimeSyncDepth) == musaErrorUnsupportedLimit,
        "dynamic parallelism limit");
  musaGetLastError();
  return finish("device_heap");
}
