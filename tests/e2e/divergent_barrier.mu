// A __syncthreads that only some threads reach is reported as a launch failure, not a hang.
#include "check.h"

__global__ void halfBarrier(int *out) {
  if (threadIdx.x < 16) {
    __syncthreads();
    out[threadIdx.x] = 1;
  }
}

int main() {
  int *d;
  CHECK_MUSA(musaMalloc(&d, 64 * sizeof(int)));
  halfBarrier<<<2, 64>>>(d);
  // The launch itself is valid; the kernel may already have faulted asynchronously by now.
  musaError_t launched = musaGetLastError();
  CHECK(launched == musaSuccess || launched == musaErrorLaunchFailure, "launch returned %s",
        musaGetErrorName(launched));
  musaError_t e = musaDeviceSynchronize();
  CHECK(e == musaErrorLaunchFailure, "synchronize returned %s", musaGetErrorName(e));
  // The error is sticky until musaDeviceReset.
  CHECK(musaGetLastError() == musaErrorLaunchFailure, "not sticky");
  CHECK(musaMalloc(&d, 4) == musaErrorLaunchFailure, "musaMalloc after a fault succeeded");
  CHECK_MUSA(musaDeviceReset());
  CHECK_MUSA(musaMalloc(&d, 4));
  return finish("divergent_barrier");
}
