// Heap allocation in kernels: each block mallocs a scratch buffer (shared pointer through __shared__), fills and reduces it, and frees it; new/delete of a small struct per thread; musaDeviceSetLimit for the heap size.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

struct Node {
  int value;
  int square;
};

__global__ void scratchSum(int *out, int len) {
  __shared__ int *buf;
  if (threadIdx.x == 0)
    buf = (int *)malloc(len * sizeof(int));
  __syncthreads();
  if (buf == nullptr) {
    if (threadIdx.x == 0)
      out[blockIdx.x] = -1;
    return;
  }
  for (int i = threadIdx.x; i < len; i += blockDim.x)
    buf[i] = blockIdx.x + i;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < len; ++i)
      s += buf[i];
    out[blockIdx.x] = s;
    free(buf);
  }
}

__global__ void perThreadNew(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Node *nd = new Node{i, i * i};
  out[i] = nd ? nd->square - nd->value : -1;
  delete nd;
}

int main() {
  size_t heap = 32u << 20;
  CHECK(musaDeviceSetLimit(musaLimitMallocHeapSize, heap));
  size_t got = 0;
  CHECK(musaDeviceGetLimit(&got, musaLimitMallocHeapSize));
  const int blocks = 64, len = 4096;
  int *dOut, out[blocks];
  CHECK(musaMalloc(&dOut, sizeof out));
  scratchSum<<<blocks, 128>>>(dOut, len);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(out, dOut, sizeof out, musaMemcpyDeviceToHost));
  bool ok = got == heap;
  for (int b = 0; b < blocks; ++b)
    ok = ok && out[b] == b * len + len * (len - 1) / 2;
  const int threads = 2048;
  int *dSq, sq[threads];
  CHECK(musaMalloc(&dSq, sizeof sq));
  perThreadNew<<<threads / 256, 256>>>(dSq);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(sq, dSq, sizeof sq, musaMemcpyDeviceToHost));
  for (int i = 0; i < threads; ++i)
    ok = ok && sq[i] == i * i - i;
  printf("device_malloc: %d block buffers of %d ints, %d thread objects, %s\n", blocks, len, threads,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
