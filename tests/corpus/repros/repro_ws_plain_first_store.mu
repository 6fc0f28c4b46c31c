// Minimal repro: a warp writes its values with a plain (non-volatile) store and reduces them at
// once through a volatile pointer (no __syncthreads/__syncwarp: one warp, lockstep). The plain
// store gets no lockstep point, so lane 0 runs on to `v[0 + 16]` before lane 16 has stored.
// SYNC adds __syncwarp() after the plain store (the modern form) to check the expected value.
#include <musa_runtime.h>
#include <stdio.h>
template <bool SYNC> __global__ void k(const int *in, int *out) {
  __shared__ int s[32];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  if (SYNC) __syncwarp();
  if (t < 16) {
    volatile int *v = s;
    v[t] += v[t + 16]; v[t] += v[t + 8]; v[t] += v[t + 4]; v[t] += v[t + 2]; v[t] += v[t + 1];
  }
  if (t == 0) *out = s[0];
}
int main() {
  int h[32], r, *d, *o, fails = 0;
  for (int i = 0; i < 32; i++) h[i] = i + 1; // 528
  musaMalloc(&d, 128); musaMalloc(&o, 4);
  musaMemcpy(d, h, 128, musaMemcpyHostToDevice);
  for (int sync = 0; sync < 2; sync++) {
    if (sync) k<true><<<1, 32>>>(d, o); else k<false><<<1, 32>>>(d, o);
    musaMemcpy(&r, o, 4, musaMemcpyDeviceToHost);
    printf("%s: %d (expected 528)\n", sync ? "with __syncwarp" : "legacy", r);
    fails += r != 528;
  }
  printf("repro_ws_plain_first_store: %s\n", fails ? "FAILED" : "PASSED");
  return fails != 0;
}
