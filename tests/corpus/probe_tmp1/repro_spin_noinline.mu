// Minimal repro: the polled read sits in a __noinline__ helper, so the loop in the caller is
// not recognised as a spin and the waiting warp never lets the producer warp run.
// Expected (CUDA, Volta+): prints PASSED. Simulator: hangs with no diagnostic.
#include <cstdio>
__device__ __noinline__ int ready(const volatile int *p) { return *p; }
__global__ void k(int *flag, int *out) {
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (lane != 0) return;
  if (warp == 1) { out[1] = 42; __threadfence(); atomicExch(flag, 1); return; }
  while (!ready(flag)) {
  }
  out[0] = ((volatile int *)out)[1];
}
int main() {
  int warp; musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0);
  int *flag, *out, h[2] = {};
  musaMalloc(&flag, 4); musaMalloc(&out, 8);
  musaMemset(flag, 0, 4);
  k<<<1, 2 * warp>>>(flag, out);
  musaError_t e = musaMemcpy(h, out, 8, musaMemcpyDeviceToHost);
  printf("repro_spin_noinline %s\n", e == musaSuccess && h[0] == 42 ? "PASSED" : "FAILED");
  return !(e == musaSuccess && h[0] == 42);
}
