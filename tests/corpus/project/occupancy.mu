// The occupancy API: musaOccupancyMaxPotentialBlockSize (with and without dynamic shared memory) picks a block size that is then used to launch, and musaOccupancyMaxActiveBlocksPerMultiprocessor agrees with the profile's limits.
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

__global__ void square(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = a[i] * a[i];
}

__global__ void withShared(float *a, int n) {
  extern __shared__ float s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? a[i] : 0.0f;
  __syncthreads();
  if (i < n)
    a[i] = s[blockDim.x - 1 - threadIdx.x];
}

int main() {
  int minGrid = 0, blockSize = 0;
  CHECK(musaOccupancyMaxPotentialBlockSize(&minGrid, &blockSize, square, 0, 0));
  musaDeviceProp p;
  CHECK(musaGetDeviceProperties(&p, 0));
  bool ok = blockSize > 0 && blockSize <= p.maxThreadsPerBlock && blockSize % p.warpSize == 0 &&
            minGrid >= p.multiProcessorCount;
  int active = 0;
  CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&active, square, blockSize, 0));
  ok = ok && active >= 1 && active * blockSize <= p.maxThreadsPerMultiProcessor;
  const int n = 1 << 18;
  float *d, *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 100);
  CHECK(musaMalloc(&d, n * sizeof(float)));
  CHECK(musaMemcpy(d, h, n * sizeof(float), musaMemcpyHostToDevice));
  int grid = (n + blockSize - 1) / blockSize;
  square<<<grid, blockSize>>>(d, n);
  CHECK(musaGetLastError());
  // With a per-block shared memory demand: a block size limit and bytes per block.
  int minGrid2 = 0, blockSize2 = 0;
  CHECK(musaOccupancyMaxPotentialBlockSize(&minGrid2, &blockSize2, withShared, 4096, 512));
  ok = ok && blockSize2 > 0 && blockSize2 <= 512;
  int active2 = 0;
  CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&active2, withShared, blockSize2, 4096));
  ok = ok && active2 >= 1 && (size_t)active2 * 4096 <= p.sharedMemPerMultiprocessor;
  withShared<<<(n + blockSize2 - 1) / blockSize2, blockSize2, blockSize2 * sizeof(float)>>>(d, n);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(h, d, n * sizeof(float), musaMemcpyDeviceToHost));
  for (int i = 0; i < n && ok; ++i) {
    int b = i / blockSize2, t = i % blockSize2, j = b * blockSize2 + blockSize2 - 1 - t;
    float ref = j < n ? (float)(j % 100) * (float)(j % 100) : 0.0f;
    ok = h[i] == ref;
  }
  printf("occupancy: block %d (min grid %d, %d active/SM), shared variant block %d (%d active/SM), %s\n",
         blockSize, minGrid, active, blockSize2, active2, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
