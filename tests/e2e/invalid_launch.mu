// Impossible launch configurations are reported by musaGetLastError and the kernel does not run.
#include "check.h"

__global__ void mark(int *flag) { *flag = 1; }

static void expectRefused(const char *what, musaError_t got, int *d) {
  CHECK(got == musaErrorInvalidConfiguration, "%s: got %s", what, musaGetErrorName(got));
  int flag = -1;
  CHECK_MUSA(musaMemcpy(&flag, d, sizeof flag, musaMemcpyDeviceToHost));
  CHECK(flag == 0, "%s: the kernel ran", what);
}

int main() {
  int *d;
  CHECK_MUSA(musaMalloc(&d, sizeof(int)));
  CHECK_MUSA(musaMemset(d, 0, sizeof(int)));
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));

  mark<<<1, prop.maxThreadsPerBlock + 1>>>(d);
  expectRefused("too many threads per block", musaGetLastError(), d);
  CHECK(musaGetLastError() == musaSuccess, "musaGetLastError did not reset");

  mark<<<dim3(1, 0, 1), 32>>>(d);
  expectRefused("zero grid dimension", musaGetLastError(), d);

  mark<<<1, dim3(8, 8, 128)>>>(d);
  expectRefused("block z above the limit", musaGetLastError(), d);

  mark<<<1, 32, prop.sharedMemPerBlockOptin + 1>>>(d);
  expectRefused("too much dynamic shared memory", musaGetLastError(), d);

  // musaPeekAtLastError does not reset.
  mark<<<1, 0>>>(d);
  CHECK(musaPeekAtLastError() == musaErrorInvalidConfiguration, "peek lost the error");
  CHECK(musaPeekAtLastError() == musaErrorInvalidConfiguration, "peek reset the error");
  CHECK(musaGetLastError() == musaErrorInvalidConfiguration, "get lost the error");
  CHECK(musaGetLastError() == musaSuccess, "get did not reset");

  // A valid launch still works afterwards.
  mark<<<1, 1>>>(d);
  CHECK_MUSA(musaGetLastError());
  int flag = 0;
  CHECK_MUSA(musaMemcpy(&flag, d, sizeof flag, musaMemcpyDeviceToHost));
  CHECK(flag == 1, "valid launch did not run");
  printf("error name: %s = %d\n", musaGetErrorName(musaErrorInvalidConfiguration),
         (int)musaErrorInvalidConfiguration);
  return finish("invalid_launch");
}
