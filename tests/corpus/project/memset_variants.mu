// musaMemset on whole and partial buffers (byte patterns seen as ints), musaMemsetAsync in a stream, and memset after a kernel in stream order.
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

__global__ void countNonZero(const int *a, int n, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && a[i] != 0)
    atomicAdd(count, 1);
}
__global__ void fill(int *a, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = v;
}

int main() {
  const int n = 1 << 16;
  int *d, *dCount, *h = (int *)malloc(n * sizeof(int));
  CHECK(musaMalloc(&d, n * sizeof(int)));
  CHECK(musaMalloc(&dCount, sizeof(int)));
  CHECK(musaMemset(d, 0xAB, n * sizeof(int)));
  CHECK(musaMemset(d + 100, 0, 50 * sizeof(int)));
  CHECK(musaMemset((char *)d + 1000 * sizeof(int) + 1, 0x00, 2)); // middle bytes of one int
  CHECK(musaMemcpy(h, d, n * sizeof(int), musaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    unsigned ref = i >= 100 && i < 150 ? 0u : (i == 1000 ? 0xAB0000ABu : 0xABABABABu);
    ok = ok && (unsigned)h[i] == ref;
  }
  musaStream_t s;
  CHECK(musaStreamCreate(&s));
  fill<<<n / 256, 256, 0, s>>>(d, n, 7);
  CHECK(musaMemsetAsync(d, 0, n / 2 * sizeof(int), s)); // after the kernel in stream order
  CHECK(musaMemsetAsync(dCount, 0, sizeof(int), s));
  countNonZero<<<n / 256, 256, 0, s>>>(d, n, dCount);
  int count = -1;
  CHECK(musaMemcpyAsync(&count, dCount, sizeof(int), musaMemcpyDeviceToHost, s));
  CHECK(musaStreamSynchronize(s));
  CHECK(musaGetLastError());
  ok = ok && count == n / 2;
  CHECK(musaStreamDestroy(s));
  printf("memset_variants: %d non-zero after async memset (expected %d), %s\n", count, n / 2,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
