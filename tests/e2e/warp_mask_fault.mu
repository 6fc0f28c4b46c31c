// A warp collective called by a lane its mask does not name is a launch failure that names
// the kernel, block and thread, in every execution mode (region loops find it in the lane's
// park record, fibers when the lane arrives).
#include "check.h"

__global__ void badMask(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x < 2)
    v = __shfl_sync(0x2u, v, 1); // lane 0 calls it, but the mask names only lane 1
  __syncthreads();
  out[threadIdx.x] = v;
}

int main() {
  int *out = nullptr;
  CHECK_MUSA(musaMalloc(&out, 64 * sizeof(int)));
  badMask<<<1, 64>>>(out);
  musaError_t err = musaDeviceSynchronize();
  CHECK(err == musaErrorLaunchFailure, "got %s", musaGetErrorName(err));
  CHECK(musaGetLastError() == musaErrorLaunchFailure, "the error is sticky");
  return finish("warp_mask_fault");
}
