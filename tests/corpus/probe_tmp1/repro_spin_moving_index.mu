// Minimal repro: a spin loop whose polled address is a loop-carried index (the decoupled
// look-back shape: poll slot j until it is ready, then move to j-1) is not recognised as a
// spin, so the waiting thread never yields. Warp 0 waits for slots warp 1 fills.
// Expected (CUDA, Volta+): prints PASSED. Simulator: hangs with no diagnostic.
#include <cstdio>
__global__ void k(int *flag, int *out) {
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (lane != 0) return;
  if (warp == 1) {
    for (int i = 0; i < 4; ++i) atomicExch(&flag[i], 1);
    return;
  }
  int j = 3, seen = 0;
  while (j >= 0) {
    if (((volatile int *)flag)[j] == 0) continue;   // same slot again
    ++seen;
    --j;
  }
  *out = seen;
}
int main() {
  int warp; musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0);
  int *flag, *out, h = 0;
  musaMalloc(&flag, 16); musaMalloc(&out, 4);
  musaMemset(flag, 0, 16);
  k<<<1, 2 * warp>>>(flag, out);
  musaError_t e = musaMemcpy(&h, out, 4, musaMemcpyDeviceToHost);
  printf("repro_spin_moving_index %s\n", e == musaSuccess && h == 4 ? "PASSED" : "FAILED");
  return !(e == musaSuccess && h == 4);
}
