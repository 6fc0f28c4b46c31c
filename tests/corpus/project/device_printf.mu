// printf from device code: selected threads print their coordinates and a computed value (flushed at synchronisation), while the kernel's result is checked as usual.
#include <musa_runtime.h>
#include <math.h>
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

__global__ void greet(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i * i;
  if (threadIdx.x == 0)
    printf("device: block %d of %d says hello, thread 0 computed %d, pi ~ %.3f\n", blockIdx.x,
           gridDim.x, i * i, 3.14159f);
}

int main() {
  const int blocks = 4, threads = 64, n = blocks * threads;
  int *d, h[n];
  CHECK(musaMalloc(&d, sizeof h));
  greet<<<blocks, threads>>>(d, n);
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
  CHECK(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i)
    ok = ok && h[i] == i * i;
  printf("device_printf: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
