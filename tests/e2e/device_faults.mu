// Faults inside kernels become sticky errors naming the kernel; the process survives.
#include "check.h"

__global__ void writeThrough(int *p) { p[threadIdx.x] = 7; }

__global__ void trapAtThree(int *p) {
  if (threadIdx.x == 3)
    __trap();
  p[threadIdx.x] = 1;
}

__device__ int deep(int n, volatile int *sink) {
  volatile char pad[512];
  pad[n % 512] = char(n);
  sink[0] = pad[n % 512];
  return n == 0 ? 0 : deep(n - 1, sink) + 1;
}

__global__ void recurse(int *out) {
  __syncthreads(); // fibers
  out[threadIdx.x] = deep(1 << 20, out);
}

int main(int argc, char **argv) {
  int *d;
  CHECK_MUSA(musaMalloc(&d, 1024));
  if (argc > 1 && argv[1][0] == 't') {
    trapAtThree<<<1, 8>>>(d);
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorLaunchFailure, "__trap() gave %s", musaGetErrorName(e));
  } else if (argc > 1 && argv[1][0] == 's') {
    recurse<<<1, 4>>>(d);
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorLaunchFailure, "stack overflow gave %s", musaGetErrorName(e));
  } else {
    int *freed;
    CHECK_MUSA(musaMalloc(&freed, 1024));
    CHECK_MUSA(musaFree(freed));
    writeThrough<<<1, 32>>>(freed);
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorIllegalAddress, "use after free gave %s", musaGetErrorName(e));
  }
  CHECK_MUSA(musaDeviceReset());
  CHECK_MUSA(musaMalloc(&d, 1024));
  writeThrough<<<1, 32>>>(d);
  CHECK_MUSA(musaDeviceSynchronize());
  return finish("device_faults");
}
