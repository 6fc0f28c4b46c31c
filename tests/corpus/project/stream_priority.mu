// Stream priorities: musaDeviceGetStreamPriorityRange, streams created with the lowest and highest priority and queried back with musaStreamGetPriority/GetFlags, each running work that must complete correctly.
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

__global__ void work(int *a, int n, int tag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = a[i] * 3 + tag;
}

int main() {
  int least = 0, greatest = 0;
  CHECK(musaDeviceGetStreamPriorityRange(&least, &greatest));
  bool ok = greatest <= least; // numerically lower means more urgent
  musaStream_t low, high;
  CHECK(musaStreamCreateWithPriority(&low, musaStreamNonBlocking, least));
  CHECK(musaStreamCreateWithPriority(&high, musaStreamNonBlocking, greatest));
  int pl = 99, ph = 99;
  unsigned flags = 0;
  CHECK(musaStreamGetPriority(low, &pl));
  CHECK(musaStreamGetPriority(high, &ph));
  CHECK(musaStreamGetFlags(high, &flags));
  ok = ok && pl == least && ph == greatest && flags == musaStreamNonBlocking;
  const int n = 1 << 16;
  int *a, *b;
  CHECK(musaMalloc(&a, n * sizeof(int)));
  CHECK(musaMalloc(&b, n * sizeof(int)));
  CHECK(musaMemset(a, 0, n * sizeof(int)));
  CHECK(musaMemset(b, 0, n * sizeof(int)));
  for (int r = 0; r < 4; ++r) {
    work<<<n / 256, 256, 0, low>>>(a, n, 1);
    work<<<n / 256, 256, 0, high>>>(b, n, 2);
  }
  CHECK(musaStreamSynchronize(low));
  CHECK(musaStreamSynchronize(high));
  CHECK(musaGetLastError());
  int ha, hb;
  CHECK(musaMemcpy(&ha, a + n - 1, sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&hb, b + n - 1, sizeof(int), musaMemcpyDeviceToHost));
  ok = ok && ha == 40 && hb == 80; // ((0*3+t)*3+t)*3+t)*3+t = 40t
  CHECK(musaStreamDestroy(low));
  CHECK(musaStreamDestroy(high));
  printf("stream_priority: range [%d, %d], %s\n", least, greatest, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
