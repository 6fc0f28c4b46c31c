// Sum reduction in the classic shared-memory tree (sequential addressing, first add during load), applied in passes until one value is left.
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

template <unsigned BlockSize>
__global__ void reduceSum(const int *in, int *out, unsigned n) {
  __shared__ int sdata[BlockSize];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BlockSize * 2) + tid;
  int v = 0;
  if (i < n)
    v = in[i];
  if (i + BlockSize < n)
    v += in[i + BlockSize];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = BlockSize / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

int main() {
  const unsigned n = (1 << 20) + 12345;
  const unsigned threads = 256;
  int *h = (int *)malloc(n * sizeof(int));
  long long ref = 0;
  for (unsigned i = 0; i < n; ++i) {
    h[i] = (int)(i % 19) - 9;
    ref += h[i];
  }
  int *dA, *dB;
  CHECK(musaMalloc(&dA, n * sizeof(int)));
  CHECK(musaMalloc(&dB, n * sizeof(int)));
  CHECK(musaMemcpy(dA, h, n * sizeof(int), musaMemcpyHostToDevice));
  unsigned count = n;
  int passes = 0;
  while (count > 1) {
    unsigned blocks = (count + threads * 2 - 1) / (threads * 2);
    reduceSum<threads><<<blocks, threads>>>(dA, dB, count);
    CHECK(musaGetLastError());
    int *t = dA;
    dA = dB;
    dB = t;
    count = blocks;
    ++passes;
  }
  int sum = 0;
  CHECK(musaMemcpy(&sum, dA, sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  bool ok = sum == ref;
  printf("reduce_shared_tree: sum %d (host %lld) in %d passes, %s\n", sum, ref, passes,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
