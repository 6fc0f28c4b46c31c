// Float sum with warp shuffles: each warp reduces with __shfl_down_sync, warp leaders meet in shared memory, works for any warpSize.
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

__inline__ __device__ float warpReduceSum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void blockSum(const float *in, float *partial, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v += in[i];
  v = warpReduceSum(v);
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  int warps = (blockDim.x + warpSize - 1) / warpSize;
  if (warp == 0) {
    v = lane < warps ? warpSums[lane] : 0.0f;
    v = warpReduceSum(v);
    if (lane == 0)
      partial[blockIdx.x] = v;
  }
}

int main() {
  const int n = 1 << 20, blocks = 64, threads = 512;
  float *h = (float *)malloc(n * sizeof(float));
  double ref = 0.0;
  for (int i = 0; i < n; ++i) {
    h[i] = (float)((i * 7) % 101) / 64.0f; // exact in float, sums stay exact
    ref += h[i];
  }
  float *din, *dpart;
  CHECK(musaMalloc(&din, n * sizeof(float)));
  CHECK(musaMalloc(&dpart, blocks * sizeof(float)));
  CHECK(musaMemcpy(din, h, n * sizeof(float), musaMemcpyHostToDevice));
  blockSum<<<blocks, threads>>>(din, dpart, n);
  CHECK(musaGetLastError());
  blockSum<<<1, threads>>>(dpart, dpart, blocks);
  CHECK(musaGetLastError());
  float sum = 0.0f;
  CHECK(musaMemcpy(&sum, dpart, sizeof(float), musaMemcpyDeviceToHost));
  int ws = 0;
  CHECK(musaDeviceGetAttribute(&ws, musaDevAttrWarpSize, 0));
  CHECK(musaFree(din));
  CHECK(musaFree(dpart));
  bool ok = fabs(sum - ref) <= 1e-6 * ref;
  printf("reduce_warp_shuffle: warpSize %d, sum %.1f (host %.1f), %s\n", ws, sum, ref,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
