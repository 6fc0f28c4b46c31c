// Dynamic shared memory (extern __shared__ sized at launch): reverse each block's segment of an array for several block sizes, and split one dynamic allocation into two typed arrays.
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

__global__ void reverseBlocks(int *a) {
  extern __shared__ int s[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  s[t] = a[base + t];
  __syncthreads();
  a[base + t] = s[blockDim.x - 1 - t];
}

__global__ void mixedTypes(const float *in, double *out, int n) {
  extern __shared__ unsigned char raw[];
  double *sd = (double *)raw;                  // n doubles first (8-byte aligned)
  float *sf = (float *)(raw + n * sizeof(double)); // then n floats
  int t = threadIdx.x;
  sf[t] = in[t];
  sd[t] = (double)in[t] * 2.0;
  __syncthreads();
  out[t] = sd[n - 1 - t] + sf[(t + 1) % n];
}

int main() {
  bool ok = true;
  const int blocks = 64;
  int sizes[] = {32, 128, 256, 1024};
  for (int bs : sizes) {
    int n = blocks * bs;
    int *h = (int *)malloc(n * sizeof(int)), *d;
    for (int i = 0; i < n; ++i)
      h[i] = i;
    CHECK(musaMalloc(&d, n * sizeof(int)));
    CHECK(musaMemcpy(d, h, n * sizeof(int), musaMemcpyHostToDevice));
    reverseBlocks<<<blocks, bs, bs * sizeof(int)>>>(d);
    CHECK(musaGetLastError());
    CHECK(musaMemcpy(h, d, n * sizeof(int), musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int b = i / bs, t = i % bs;
      if (h[i] != b * bs + bs - 1 - t) {
        printf("block size %d: element %d = %d\n", bs, i, h[i]);
        ok = false;
        break;
      }
    }
    CHECK(musaFree(d));
    free(h);
  }
  const int m = 200;
  float in[m];
  double out[m];
  for (int i = 0; i < m; ++i)
    in[i] = i * 0.5f;
  float *din;
  double *dout;
  CHECK(musaMalloc(&din, sizeof in));
  CHECK(musaMalloc(&dout, sizeof out));
  CHECK(musaMemcpy(din, in, sizeof in, musaMemcpyHostToDevice));
  mixedTypes<<<1, m, m * (sizeof(double) + sizeof(float))>>>(din, dout, m);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(out, dout, sizeof out, musaMemcpyDeviceToHost));
  for (int t = 0; t < m; ++t)
    ok = ok && out[t] == in[m - 1 - t] * 2.0 + in[(t + 1) % m];
  printf("dynamic_shared: 4 block sizes and a mixed-type layout, %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
