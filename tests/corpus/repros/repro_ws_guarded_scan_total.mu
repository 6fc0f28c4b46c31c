// Minimal repro: a Kogge-Stone warp scan guarded by `if (lane >= o)`, then every lane reads the
// warp total v[31]. On lockstep hardware the warp reconverges after each `if`, so the read sees
// the finished scan (32). In the simulator lanes 0..15 skip the `lane >= 16` step (lane 0 skips
// all five), run on to the read of v[31] and take it before lane 31's last steps.
// SYNCWARP=1 adds __syncwarp() before the read (the modern form) to check the expected value.
#include <musa_runtime.h>
#include <stdio.h>
template <bool SYNC> __global__ void k(int *out) {
  __shared__ int s[32];
  volatile int *v = s;
  unsigned lane = threadIdx.x;
  v[lane] = 1;
  if (lane >= 1) v[lane] += v[lane - 1];
  if (lane >= 2) v[lane] += v[lane - 2];
  if (lane >= 4) v[lane] += v[lane - 4];
  if (lane >= 8) v[lane] += v[lane - 8];
  if (lane >= 16) v[lane] += v[lane - 16];
  if (SYNC) __syncwarp();
  out[lane] = v[31];
}
int main() {
  int r[32], *d; musaMalloc(&d, 128);
  int fails = 0;
  for (int sync = 0; sync < 2; sync++) {
    if (sync) k<true><<<1, 32>>>(d); else k<false><<<1, 32>>>(d);
    musaMemcpy(r, d, 128, musaMemcpyDeviceToHost);
    int bad = 0; for (int i = 0; i < 32; i++) bad += r[i] != 32;
    printf("%s: lane0 read %d, lane16 read %d (expected 32), %d lanes wrong\n", sync ? "with __syncwarp" : "legacy", r[0], r[16], bad);
    fails += bad != 0;
  }
  printf("repro_ws_guarded_scan_total: %s\n", fails ? "FAILED" : "PASSED");
  return fails != 0;
}
