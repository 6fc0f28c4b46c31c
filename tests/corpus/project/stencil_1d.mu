// 1D stencil of radius 3 with a shared-memory tile and halo (the introductory CUDA C stencil), repeated over 10 time steps by ping-ponging buffers.
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

#define RADIUS 3
#define BLOCK 128

__global__ void stencil(const int *in, int *out, int n) {
  __shared__ int temp[BLOCK + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x + RADIUS;
  temp[l] = g < n ? in[g] : 0;
  if (threadIdx.x < RADIUS) {
    temp[l - RADIUS] = g - RADIUS >= 0 ? in[g - RADIUS] : 0;
    temp[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
  }
  __syncthreads();
  if (g < n) {
    int r = 0;
    for (int o = -RADIUS; o <= RADIUS; ++o)
      r += temp[l + o];
    out[g] = r % 1000003;
  }
}

int main() {
  const int n = 1 << 16, steps = 10;
  int *h = (int *)malloc(n * sizeof(int)), *t = (int *)malloc(n * sizeof(int));
  int *res = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = i % 10;
  int *d0, *d1;
  CHECK(musaMalloc(&d0, n * sizeof(int)));
  CHECK(musaMalloc(&d1, n * sizeof(int)));
  CHECK(musaMemcpy(d0, h, n * sizeof(int), musaMemcpyHostToDevice));
  for (int s = 0; s < steps; ++s) {
    stencil<<<n / BLOCK, BLOCK>>>(d0, d1, n);
    int *x = d0;
    d0 = d1;
    d1 = x;
    for (int i = 0; i < n; ++i) {
      int r = 0;
      for (int o = -RADIUS; o <= RADIUS; ++o)
        r += i + o >= 0 && i + o < n ? h[i + o] : 0;
      t[i] = r % 1000003;
    }
    int *y = h;
    h = t;
    t = y;
  }
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, d0, n * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if (res[i] != h[i] && bad++ < 5)
      printf("out[%d] = %d, expected %d\n", i, res[i], h[i]);
  printf("stencil_1d: n=%d, %d steps, %s\n", n, steps, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
