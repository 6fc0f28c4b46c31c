// Device faults as sticky errors: a write through a freed pointer gives musaErrorIllegalAddress at musaDeviceSynchronize, every later call reports it until musaDeviceReset; then a kernel assert gives musaErrorAssert, a misaligned int load musaErrorMisalignedAddress, and __trap musaErrorLaunchFailure, each cleared by a reset; normal work runs after each reset.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#include <assert.h>
#include <string.h>

__global__ void writeTo(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = i;
}
__global__ void checkPositive(const int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    assert(p[i] >= 0);
}
__global__ void misaligned(const char *base, int *out) {
  const int *q = reinterpret_cast<const int *>(base + 2);
  out[threadIdx.x] = q[threadIdx.x];
}
__global__ void trapper(int *out) {
  if (threadIdx.x == 5)
    __trap();
  out[threadIdx.x] = 1;
}

static bool sane() {
  int *d = nullptr;
  if (musaMalloc(&d, 256 * sizeof(int)) != musaSuccess)
    return false;
  writeTo<<<2, 128>>>(d, 256);
  int h[256];
  if (musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost) != musaSuccess)
    return false;
  musaFree(d);
  for (int i = 0; i < 256; ++i)
    if (h[i] != i)
      return false;
  return true;
}

int main() {
  bool ok = true;
  ok = ok && sane();
  // 1. illegal address
  int *d;
  CHECK(musaMalloc(&d, 1024 * sizeof(int)));
  CHECK(musaFree(d));
  writeTo<<<4, 256>>>(d, 1024);
  musaError_t launch = musaGetLastError();
  musaError_t sync = musaDeviceSynchronize();
  musaError_t last = musaGetLastError();
  int *e = nullptr;
  musaError_t mall = musaMalloc(&e, 16);
  musaError_t sync2 = musaDeviceSynchronize();
  printf("freed write: launch %s, sync %s, last %s, malloc %s, sync again %s\n", musaGetErrorName(launch),
         musaGetErrorName(sync), musaGetErrorName(last), musaGetErrorName(mall), musaGetErrorName(sync2));
  // the launch itself is valid; the fault may already be visible if the kernel has finished
  ok = ok && (launch == musaSuccess || launch == musaErrorIllegalAddress) && sync == musaErrorIllegalAddress && last == musaErrorIllegalAddress &&
       mall == musaErrorIllegalAddress && sync2 == musaErrorIllegalAddress;
  CHECK(musaDeviceReset());
  ok = ok && musaGetLastError() == musaSuccess && sane();

  // 2. assert
  int h[512];
  for (int i = 0; i < 512; ++i)
    h[i] = i == 300 ? -1 : i;
  CHECK(musaMalloc(&d, sizeof h));
  CHECK(musaMemcpy(d, h, sizeof h, musaMemcpyHostToDevice));
  checkPositive<<<2, 256>>>(d, 512);
  sync = musaDeviceSynchronize();
  musaError_t cpy = musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost);
  printf("assert: sync %s, copy after %s\n", musaGetErrorName(sync), musaGetErrorName(cpy));
  ok = ok && sync == musaErrorAssert && cpy == musaErrorAssert;
  CHECK(musaDeviceReset());
  musaGetLastError();
  ok = ok && sane();

  // 3. misaligned
  char *c;
  int *o;
  CHECK(musaMalloc(&c, 4096));
  CHECK(musaMalloc(&o, 4096));
  misaligned<<<1, 32>>>(c, o);
  sync = musaDeviceSynchronize();
  printf("misaligned: sync %s\n", musaGetErrorName(sync));
  ok = ok && sync == musaErrorMisalignedAddress;
  CHECK(musaDeviceReset());
  musaGetLastError();
  ok = ok && sane();

  // 4. trap
  CHECK(musaMalloc(&o, 4096));
  trapper<<<1, 32>>>(o);
  sync = musaDeviceSynchronize();
  printf("trap: sync %s\n", musaGetErrorName(sync));
  ok = ok && sync == musaErrorLaunchFailure;
  CHECK(musaDeviceReset());
  musaGetLastError();
  ok = ok && sane();
  printf("fault_sticky: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
