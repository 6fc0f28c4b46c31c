// Pinned host memory from musaMallocHost and musaHostAlloc (portable, write-combined) with musaMemcpyAsync both ways around a kernel in one stream, and musaHostGetFlags.
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

__global__ void squareInPlace(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = a[i] * a[i];
}

int main() {
  const int n = 1 << 18;
  const size_t bytes = n * sizeof(int);
  int *src, *dst, *d;
  CHECK(musaMallocHost(&src, bytes));
  CHECK(musaHostAlloc(&dst, bytes, musaHostAllocPortable));
  int *wc;
  CHECK(musaHostAlloc(&wc, bytes, musaHostAllocWriteCombined));
  unsigned flags = 0;
  CHECK(musaHostGetFlags(&flags, wc));
  bool ok = (flags & musaHostAllocWriteCombined) != 0;
  for (int i = 0; i < n; ++i)
    src[i] = i % 4096 - 2048;
  CHECK(musaMalloc(&d, bytes));
  musaStream_t s;
  CHECK(musaStreamCreateWithFlags(&s, musaStreamNonBlocking));
  CHECK(musaMemcpyAsync(d, src, bytes, musaMemcpyHostToDevice, s));
  squareInPlace<<<(n + 255) / 256, 256, 0, s>>>(d, n);
  CHECK(musaMemcpyAsync(dst, d, bytes, musaMemcpyDeviceToHost, s));
  CHECK(musaMemcpyAsync(wc, d, bytes, musaMemcpyDeviceToHost, s));
  CHECK(musaStreamSynchronize(s));
  CHECK(musaGetLastError());
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if ((dst[i] != src[i] * src[i] || wc[i] != dst[i]) && bad++ < 5)
      printf("element %d: %d\n", i, dst[i]);
  ok = ok && !bad;
  CHECK(musaStreamDestroy(s));
  CHECK(musaFree(d));
  CHECK(musaFreeHost(src));
  CHECK(musaFreeHost(dst));
  CHECK(musaFreeHost(wc));
  printf("pinned_async_copy: %d ints round trip, %s\n", n, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
