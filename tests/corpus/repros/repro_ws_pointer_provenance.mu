// Repro (session 16): the warp reduction tail through a volatile pointer whose shared object
// MarkWarpSynchronous has to find:
//   A `float *s = (blockIdx.x & 1) ? sOdd : sEven;` (a select of two __shared__ arrays): passes
//   B ping-pong between two __shared__ buffers chosen per step by `(i & 1) ? b : a` in a loop whose
//     trip count is a kernel argument: passes (the pass follows selects and phis)
//   C the pointer computed through integer arithmetic `(volatile float *)((size_t)s + 4 * tid)`:
//     still FAILED (no shared object is found through inttoptr, so no lockstep points)
#include <musa_runtime.h>
#include <stdio.h>
#include <stddef.h>
__global__ void kA(float *out) {
  __shared__ float sEven[64], sOdd[64];
  unsigned t = threadIdx.x;
  float *s = (blockIdx.x & 1) ? sOdd : sEven;
  volatile float *v = s;
  v[t] = 1.f; v[t + 32] = 1.f;
  v[t] += v[t + 32]; v[t] += v[t + 16]; v[t] += v[t + 8]; v[t] += v[t + 4]; v[t] += v[t + 2]; v[t] += v[t + 1];
  if (t == 0) out[blockIdx.x] = v[0];
}
__global__ void kB(float *out, unsigned first) {
  __shared__ float a[64], b[64];
  unsigned t = threadIdx.x;
  volatile float *va = a;
  va[t] = 1.f; va[t + 32] = 1.f;
  unsigned i = 0;
  for (unsigned o = first; o > 0; o >>= 1, i++) {
    volatile float *src = (i & 1) ? b : a, *dst = (i & 1) ? a : b;
    dst[t] = src[t] + src[t + o];
  }
  if (t == 0) out[blockIdx.x] = ((i & 1) ? b : a)[0];
}
__global__ void kC(float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  volatile float *me = (volatile float *)((size_t)s + t * sizeof(float));
  me[0] = 1.f; me[32] = 1.f;
  for (unsigned o = 32; o > 0; o >>= 1) me[0] += *(volatile float *)((size_t)me + o * sizeof(float));
  if (t == 0) out[blockIdx.x] = s[0];
}
int main() {
  float r[2], *d; musaMalloc(&d, 8);
  int fails = 0;
  for (int k = 0; k < 3; k++) {
    if (k == 0) kA<<<2, 32>>>(d); else if (k == 1) kB<<<2, 32>>>(d, 32); else kC<<<2, 32>>>(d);
    musaMemcpy(r, d, 8, musaMemcpyDeviceToHost);
    printf("%c: %g %g (expected 64)\n", 'A' + k, r[0], r[1]);
    fails += r[0] != 64.f || r[1] != 64.f;
  }
  printf("repro_ws_pointer_provenance: %s\n", fails ? "FAILED" : "PASSED");
  return fails != 0;
}
