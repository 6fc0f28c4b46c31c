// Minimal repro: a mask from __ballot_sync used by a later __shfl_down_sync, where the
// predicate differs between the 32-lane quarters of a 128-lane warp (default MTT S4000
// profile). CUDA idiom (reduction sample's reduce7, segmented reductions):
//   unsigned mask = __ballot_sync(0xffffffff, lane < n);
//   if (lane < n) s += __shfl_down_sync(mask, s, 1);
#include <cstdio>
__global__ void k(int *out) {
  unsigned lane = threadIdx.x % 32;
  int n = 1 + threadIdx.x / 32;            // 1 lane in slice 0, 2 in slice 1, ...
  unsigned mask = __ballot_sync(0xffffffffu, (int)lane < n);
  int s = 1;
  if ((int)lane < n) s += __shfl_down_sync(mask, s, 1);
  out[threadIdx.x] = s;
}
int main() {
  int *d; musaMalloc(&d, 128 * 4);
  k<<<1, 128>>>(d);
  musaError_t e = musaDeviceSynchronize();
  printf("%s\n", e == musaSuccess ? "repro_ballot_mask_128 PASSED" : "repro_ballot_mask_128 FAILED");
  return e != musaSuccess;
}
