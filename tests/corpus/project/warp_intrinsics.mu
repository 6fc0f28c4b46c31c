// Warp-level intrinsics beyond shuffles: __reduce_add_sync/__reduce_max_sync, __match_any_sync grouping equal keys, __shfl_xor_sync butterflies and __syncwarp, checked per 32-lane group so the program holds for 32- and 128-lane warps.
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

__global__ void warpOps(const int *in, int *sum, int *mx, int *matchCount, int *bfly) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  sum[i] = __reduce_add_sync(0xffffffffu, v);
  mx[i] = __reduce_max_sync(0xffffffffu, v);
  unsigned peers = __match_any_sync(0xffffffffu, v % 4);
  matchCount[i] = __popc(peers);
  int b = v;
  for (int m = 16; m > 0; m /= 2)
    b += __shfl_xor_sync(0xffffffffu, b, m, 32);
  __syncwarp();
  bfly[i] = b;
}

int main() {
  const int n = 4096;
  int ws = 0;
  CHECK(musaDeviceGetAttribute(&ws, musaDevAttrWarpSize, 0));
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (i * 37) % 101;
  int *din, *ds, *dm, *dc, *db;
  CHECK(musaMalloc(&din, n * sizeof(int)));
  CHECK(musaMalloc(&ds, n * sizeof(int)));
  CHECK(musaMalloc(&dm, n * sizeof(int)));
  CHECK(musaMalloc(&dc, n * sizeof(int)));
  CHECK(musaMalloc(&db, n * sizeof(int)));
  CHECK(musaMemcpy(din, h, n * sizeof(int), musaMemcpyHostToDevice));
  warpOps<<<n / 256, 256>>>(din, ds, dm, dc, db);
  CHECK(musaGetLastError());
  int *s = (int *)malloc(n * sizeof(int)), *m = (int *)malloc(n * sizeof(int));
  int *c = (int *)malloc(n * sizeof(int)), *b = (int *)malloc(n * sizeof(int));
  CHECK(musaMemcpy(s, ds, n * sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(m, dm, n * sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(c, dc, n * sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(b, db, n * sizeof(int), musaMemcpyDeviceToHost));
  // A full mask covers the whole warp: reductions span warpSize lanes. The butterfly is over
  // 32-lane segments (width 32); match results name lanes of the caller's 32-lane slice.
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    int w0 = i / ws * ws, g0 = i / 32 * 32, rs = 0, rm = 0, rc = 0, rb = 0;
    for (int k = w0; k < w0 + ws; ++k) {
      rs += h[k];
      rm = h[k] > rm ? h[k] : rm;
    }
    for (int k = g0; k < g0 + 32; ++k) {
      rc += h[k] % 4 == h[i] % 4;
      rb += h[k];
    }
    if ((s[i] != rs || m[i] != rm || c[i] != rc || b[i] != rb) && bad++ < 5)
      printf("lane %d: sum %d/%d max %d/%d match %d/%d butterfly %d/%d\n", i, s[i], rs, m[i], rm,
             c[i], rc, b[i], rb);
  }
  printf("warp_intrinsics: warpSize %d, %s\n", ws, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
