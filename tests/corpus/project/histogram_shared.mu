// 256-bin histogram of bytes: per-block sub-histograms in shared memory with shared atomics, merged into global memory with atomicAdd.
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

#define BINS 256

__global__ void histogram(const unsigned char *data, int n, unsigned int *hist) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b])
      atomicAdd(&hist[b], local[b]);
}

int main() {
  const int n = 1 << 20;
  unsigned char *h = (unsigned char *)malloc(n);
  unsigned int ref[BINS] = {0}, res[BINS];
  unsigned seed = 2024;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    // Skewed: low bins more frequent, so shared atomics collide.
    h[i] = (unsigned char)(((seed >> 16) & 0xff) & ((seed >> 24) | 0x0f));
    ++ref[h[i]];
  }
  unsigned char *dd;
  unsigned int *dh;
  CHECK(musaMalloc(&dd, n));
  CHECK(musaMalloc(&dh, BINS * sizeof(unsigned int)));
  CHECK(musaMemcpy(dd, h, n, musaMemcpyHostToDevice));
  CHECK(musaMemset(dh, 0, BINS * sizeof(unsigned int)));
  histogram<<<64, 256>>>(dd, n, dh);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dh, sizeof res, musaMemcpyDeviceToHost));
  int bad = 0;
  unsigned total = 0;
  for (int b = 0; b < BINS; ++b) {
    total += res[b];
    if (res[b] != ref[b] && bad++ < 5)
      printf("bin %d: %u != %u\n", b, res[b], ref[b]);
  }
  printf("histogram_shared: %u samples in %d bins, %s\n", total, BINS, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
