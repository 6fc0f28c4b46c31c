// warpSize in kernels comes from the device profile and agrees with musaDeviceProp.
#include "check.h"

__global__ void readWarp(int *out) {
  out[threadIdx.x] = warpSize;
  out[64 + threadIdx.x] = threadIdx.x % warpSize;
}

int main() {
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  int *d, h[128];
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  readWarp<<<1, 64>>>(d);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t) {
    CHECK(h[t] == prop.warpSize, "thread %d saw warpSize %d, device reports %d", t, h[t],
          prop.warpSize);
    CHECK(h[64 + t] == t % prop.warpSize, "lane arithmetic");
  }
  printf("device %s warpSize %d\n", prop.name, prop.warpSize);
  return finish("warp_size");
}
