// Minimal repro: any-vote emulated through one volatile shared word (pre-__any code):
//   if (lane == 0) flag = 0;  if (pred) flag = 1;  any = flag;
// All accesses are at one address, so MarkWarpSynchronous leaves the function alone ("a single
// volatile flag needs no lockstep") and lanes run one after another: a lane below the first
// predicated lane reads 0. (With lockstep points it would still fail: the lanes that skip the
// `if (pred)` store make their load in the same round, before the higher lanes store.)
#include <musa_runtime.h>
#include <stdio.h>
template <bool SYNC> __global__ void k(int *out, int who) {
  volatile __shared__ int flag;
  unsigned lane = threadIdx.x;
  if (lane == 0) flag = 0;
  if (SYNC) __syncwarp();
  if (lane == who) flag = 1;
  if (SYNC) __syncwarp();
  out[lane] = flag;
}
int main() {
  int r[32], *d, fails = 0; musaMalloc(&d, 128);
  for (int sync = 0; sync < 2; sync++) {
    if (sync) k<true><<<1, 32>>>(d, 20); else k<false><<<1, 32>>>(d, 20);
    musaMemcpy(r, d, 128, musaMemcpyDeviceToHost);
    int bad = 0; for (int i = 0; i < 32; i++) bad += r[i] != 1;
    printf("%s: %d lanes read 0 (expected every lane to read 1)\n", sync ? "with __syncwarp" : "legacy", bad);
    fails += bad != 0;
  }
  printf("repro_ws_single_flag_vote: %s\n", fails ? "FAILED" : "PASSED");
  return fails != 0;
}
