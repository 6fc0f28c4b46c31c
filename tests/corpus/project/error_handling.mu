// Error handling as the samples teach it: an invalid launch (too many threads per block) caught by musaGetLastError, which then resets; musaPeekAtLastError; bad arguments to musaMemcpy and musaFree; musaGetErrorName/String; work still runs afterwards.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void touch(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
  bool ok = true;
  int *d;
  CHECK(musaMalloc(&d, 4096 * sizeof(int)));
  musaDeviceProp prop;
  CHECK(musaGetDeviceProperties(&prop, 0));

  touch<<<1, prop.maxThreadsPerBlock + 1>>>(d); // more threads than a block may hold
  musaError_t peek = musaPeekAtLastError();
  musaError_t err = musaGetLastError();
  musaError_t after = musaGetLastError();
  printf("invalid launch: %s (%s)\n", musaGetErrorName(err), musaGetErrorString(err));
  ok = ok && peek == musaErrorInvalidConfiguration && err == musaErrorInvalidConfiguration &&
       after == musaSuccess;

  touch<<<dim3(1, 1, 1), dim3(1, 1, prop.maxThreadsDim[2] + 1)>>>(d); // z dimension too big
  ok = ok && musaGetLastError() == musaErrorInvalidConfiguration;

  int host[4];
  err = musaMemcpy(host, d, sizeof host, (musaMemcpyKind)42);
  printf("bad copy kind: %s\n", musaGetErrorName(err));
  ok = ok && err == musaErrorInvalidMemcpyDirection;
  musaGetLastError();

  int notDevice;
  err = musaFree(&notDevice);
  printf("free of a host pointer: %s\n", musaGetErrorName(err));
  ok = ok && err != musaSuccess;
  musaGetLastError();

  err = musaSetDevice(1000);
  ok = ok && err == musaErrorInvalidDevice;
  musaGetLastError();
  ok = ok && strcmp(musaGetErrorName(musaSuccess), "musaSuccess") == 0;

  // The context is fine: a valid launch works.
  touch<<<1, 64>>>(d);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(host, d + 60, sizeof host, musaMemcpyDeviceToHost));
  ok = ok && host[0] == 60 && host[3] == 63;
  CHECK(musaFree(d));
  printf("error_handling: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
