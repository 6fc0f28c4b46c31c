// Device printf keeps each call's output whole; a failing assert prints hardware's line and
// fails the launch with musaErrorAssert (sticky until musaDeviceReset).
#include "check.h"
#include <assert.h>

__global__ void talk(int base) {
  if (threadIdx.x == 3 && blockIdx.x == 1)
    printf("block %d thread %d: %5.2f|%-4s|%c|%#x|%lld|%u\n", blockIdx.x, threadIdx.x,
           base * 0.5, "ok", 'Z', 255, -1234567890123LL, 4000000000u);
}

__global__ void checkIndex(int limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < limit);
}

int main(int argc, char **argv) {
  talk<<<2, 8>>>(7);
  CHECK_MUSA(musaDeviceSynchronize());
  fflush(stdout);
  checkIndex<<<1, 8>>>(8);
  CHECK_MUSA(musaDeviceSynchronize());
  checkIndex<<<2, 4>>>(5);
  musaError_t e = musaDeviceSynchronize();
  CHECK(e == musaErrorAssert, "failed assert gave %s", musaGetErrorName(e));
  CHECK(musaGetLastError() == musaErrorAssert, "assert error is not sticky");
  CHECK_MUSA(musaDeviceReset());
  return finish("printf_assert");
}
