// Minimal repro: warp max by conditional update (argmax-style) through volatile shared memory:
//   for (o = 16; o > 0; o >>= 1) if (v[t + o] > v[t]) v[t] = v[t + o];
// Lanes that do not update in step o go straight to step o/2 and read v[t + o/2] before the
// lane that owns it has stored its step-o update (lane 0 keeps v[0] in step 32 and reads v[16]
// in step 16 while lane 16 is still between its compare and its store); on hardware all lanes
// reconverge after the `if`. SYNC adds __syncwarp() after each step.
#include <musa_runtime.h>
#include <stdio.h>
template <bool SYNC> __global__ void k(const int *in, int *out) {
  __shared__ int s[64];
  volatile int *v = s;
  unsigned t = threadIdx.x; // 32 threads
  v[t] = in[t]; v[t + 32] = in[t + 32];
  for (unsigned o = 32; o > 0; o >>= 1) {
    if (v[t + o] > v[t]) v[t] = v[t + o];
    if (SYNC) __syncwarp();
  }
  if (t == 0) *out = v[0];
}
int main() {
  int h[64], m = 0;
  for (int i = 0; i < 64; i++) h[i] = (i * 37) % 64;
  h[0] = 500;   // lane 0 keeps its own value in step 32 (no update: goes straight on to step 16)
  h[48] = 1000; // lane 16 updates in step 32; lane 0 reads v[16] in step 16
  m = 1000;
  int *d, *o, r; musaMalloc(&d, 256); musaMalloc(&o, 4);
  musaMemcpy(d, h, 256, musaMemcpyHostToDevice);
  int fails = 0;
  for (int sync = 0; sync < 2; sync++) {
    if (sync) k<true><<<1, 32>>>(d, o); else k<false><<<1, 32>>>(d, o);
    musaMemcpy(&r, o, 4, musaMemcpyDeviceToHost);
    printf("%s: max %d (expected %d)\n", sync ? "with __syncwarp" : "legacy", r, m);
    fails += r != m;
  }
  printf("repro_ws_conditional_update: %s\n", fails ? "FAILED" : "PASSED");
  return fails != 0;
}
