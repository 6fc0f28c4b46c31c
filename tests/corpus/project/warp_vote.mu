// Warp vote functions: __ballot_sync with __popc to count a predicate, __any_sync and __all_sync per warp, and __activemask; written so the 32-bit masks work on 32- and 128-lane warps (one 32-lane slice per mask).
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

__global__ void vote(const int *in, int n, int *count, int *anyFlags, int *allFlags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int pred = i < n && in[i] % 3 == 0;
  unsigned ballot = __ballot_sync(0xffffffffu, pred);
  int lane32 = threadIdx.x % 32; // masks name the lanes of one 32-lane slice
  if (lane32 == 0)
    atomicAdd(count, __popc(ballot));
  int any = __any_sync(0xffffffffu, in[i] > 1000);
  int all = __all_sync(0xffffffffu, in[i] >= 0);
  int warp = i / warpSize;
  if (threadIdx.x % warpSize == 0) {
    anyFlags[warp] = any;
    allFlags[warp] = all;
  }
  if (__activemask() == 0)
    atomicAdd(count, 1000000); // never: the whole warp is here
}

int main() {
  const int n = 1 << 14, threads = 256;
  int ws = 0;
  CHECK(musaDeviceGetAttribute(&ws, musaDevAttrWarpSize, 0));
  const int warps = n / ws;
  int *h = (int *)malloc(n * sizeof(int));
  int refCount = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 13) % 1000;
    if ((i / ws) % 5 == 0 && i % ws == 7)
      h[i] = 5000; // one large value in every fifth warp
    refCount += h[i] % 3 == 0;
  }
  int *din, *dCount, *dAny, *dAll;
  CHECK(musaMalloc(&din, n * sizeof(int)));
  CHECK(musaMalloc(&dCount, sizeof(int)));
  CHECK(musaMalloc(&dAny, warps * sizeof(int)));
  CHECK(musaMalloc(&dAll, warps * sizeof(int)));
  CHECK(musaMemset(dCount, 0, sizeof(int)));
  CHECK(musaMemcpy(din, h, n * sizeof(int), musaMemcpyHostToDevice));
  vote<<<n / threads, threads>>>(din, n, dCount, dAny, dAll);
  CHECK(musaGetLastError());
  int count, *any = (int *)malloc(warps * sizeof(int)), *all = (int *)malloc(warps * sizeof(int));
  CHECK(musaMemcpy(&count, dCount, sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(any, dAny, warps * sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(all, dAll, warps * sizeof(int), musaMemcpyDeviceToHost));
  bool ok = count == refCount;
  for (int w = 0; w < warps; ++w)
    ok = ok && (any[w] != 0) == (w % 5 == 0) && all[w] != 0;
  printf("warp_vote: warpSize %d, %d of %d match (host %d), %s\n", ws, count, n, refCount,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
