// Inclusive scan with __shfl_up_sync inside each warp, then across the warps of a block, then across blocks with a second pass (any warpSize).
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

__device__ int warpInclusiveScan(int v) {
  int lane = threadIdx.x % warpSize;
  for (int d = 1; d < warpSize; d *= 2) {
    int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v += up;
  }
  return v;
}

__global__ void blockScan(const int *in, int *out, int *blockTotals, int n) {
  __shared__ int warpTotals[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  v = warpInclusiveScan(v);
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == warpSize - 1)
    warpTotals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int warps = blockDim.x / warpSize;
    int t = lane < warps ? warpTotals[lane] : 0;
    t = warpInclusiveScan(t);
    if (lane < warps)
      warpTotals[lane] = t;
  }
  __syncthreads();
  if (warp > 0)
    v += warpTotals[warp - 1];
  if (i < n)
    out[i] = v;
  if (blockTotals && threadIdx.x == blockDim.x - 1)
    blockTotals[blockIdx.x] = v;
}

__global__ void addCarry(int *out, const int *scannedTotals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && i < n)
    out[i] += scannedTotals[blockIdx.x - 1];
}

int main() {
  const int threads = 512, n = threads * 300 + 17;
  const int blocks = (n + threads - 1) / threads; // 301 <= threads: one block scans the totals
  int *h = (int *)malloc(n * sizeof(int)), *res = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = 1 + i % 5;
  int *din, *dout, *dtot;
  CHECK(musaMalloc(&din, n * sizeof(int)));
  CHECK(musaMalloc(&dout, n * sizeof(int)));
  CHECK(musaMalloc(&dtot, threads * sizeof(int)));
  CHECK(musaMemcpy(din, h, n * sizeof(int), musaMemcpyHostToDevice));
  blockScan<<<blocks, threads>>>(din, dout, dtot, n);
  blockScan<<<1, threads>>>(dtot, dtot, nullptr, blocks);
  addCarry<<<blocks, threads>>>(dout, dtot, n);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dout, n * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0, acc = 0;
  for (int i = 0; i < n; ++i) {
    acc += h[i];
    if (res[i] != acc && bad++ < 5)
      printf("mismatch at %d: %d != %d\n", i, res[i], acc);
  }
  printf("scan_warp_shuffle: %d elements, last %d, %s\n", n, res[n - 1], bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
