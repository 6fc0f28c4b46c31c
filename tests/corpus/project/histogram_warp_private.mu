// 64-bin histogram with one private sub-histogram per warp in shared memory (the histogram64 sample's idea), summed per block and then across blocks.
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

#define BINS 64

__global__ void histogram64(const unsigned int *data, int n, unsigned int *partial) {
  extern __shared__ unsigned int sub[]; // warps * BINS
  int warps = blockDim.x / warpSize, warp = threadIdx.x / warpSize;
  for (int i = threadIdx.x; i < warps * BINS; i += blockDim.x)
    sub[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&sub[warp * BINS + (data[i] >> 2) % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    unsigned s = 0;
    for (int w = 0; w < warps; ++w)
      s += sub[w * BINS + b];
    partial[blockIdx.x * BINS + b] = s;
  }
}

__global__ void mergeHistograms(const unsigned int *partial, int blocks, unsigned int *hist) {
  int b = threadIdx.x;
  unsigned s = 0;
  for (int k = 0; k < blocks; ++k)
    s += partial[k * BINS + b];
  hist[b] = s;
}

int main() {
  const int n = 1 << 19, blocks = 32, threads = 256;
  int ws = 0;
  CHECK(musaDeviceGetAttribute(&ws, musaDevAttrWarpSize, 0));
  unsigned int *h = (unsigned int *)malloc(n * sizeof(unsigned int));
  unsigned ref[BINS] = {0}, res[BINS];
  for (int i = 0; i < n; ++i) {
    h[i] = (unsigned)(i * 2654435761u);
    ++ref[(h[i] >> 2) % BINS];
  }
  unsigned int *dd, *dp, *dh;
  CHECK(musaMalloc(&dd, n * sizeof(unsigned int)));
  CHECK(musaMalloc(&dp, blocks * BINS * sizeof(unsigned int)));
  CHECK(musaMalloc(&dh, BINS * sizeof(unsigned int)));
  CHECK(musaMemcpy(dd, h, n * sizeof(unsigned int), musaMemcpyHostToDevice));
  size_t shmem = (threads / ws) * BINS * sizeof(unsigned int);
  histogram64<<<blocks, threads, shmem>>>(dd, n, dp);
  mergeHistograms<<<1, BINS>>>(dp, blocks, dh);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dh, sizeof res, musaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < BINS; ++b)
    if (res[b] != ref[b] && bad++ < 5)
      printf("bin %d: %u != %u\n", b, res[b], ref[b]);
  printf("histogram_warp_private: %d warps/block, %s\n", threads / ws, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
