// A cooperative launch (musaLaunchCooperativeKernel) sized by the occupancy API, in which grid.sync() separates the phases of a whole-grid reduction: per-block partials, then block 0 sums them.
#include <musa_runtime.h>
#include <cooperative_groups.h>
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

namespace cg = cooperative_groups;

__global__ void gridSum(const int *in, int n, int *partial, int *result) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int s[256];
  int v = 0;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
    v += in[i];
  s[threadIdx.x] = v;
  block.sync();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    block.sync();
  }
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s[0];
  grid.sync(); // every block's partial is written
  if (grid.thread_rank() == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b)
      total += partial[b];
    *result = total;
  }
}

int main() {
  int dev = 0, supported = 0, sms = 0, perSM = 0;
  CHECK(musaDeviceGetAttribute(&supported, musaDevAttrCooperativeLaunch, dev));
  CHECK(musaDeviceGetAttribute(&sms, musaDevAttrMultiProcessorCount, dev));
  const int threads = 256;
  CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, gridSum, threads, 0));
  int blocks = sms * perSM;
  if (blocks > 64)
    blocks = 64; // any grid up to the co-resident limit is allowed
  const int n = 1 << 18;
  int *h = (int *)malloc(n * sizeof(int));
  long long ref = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = i % 7;
    ref += h[i];
  }
  int *din, *dpart, *dres, res = 0;
  CHECK(musaMalloc(&din, n * sizeof(int)));
  CHECK(musaMalloc(&dpart, blocks * sizeof(int)));
  CHECK(musaMalloc(&dres, sizeof(int)));
  CHECK(musaMemcpy(din, h, n * sizeof(int), musaMemcpyHostToDevice));
  int count = n;
  void *args[] = {&din, &count, &dpart, &dres};
  CHECK(musaLaunchCooperativeKernel((void *)gridSum, dim3(blocks), dim3(threads), args, 0, 0));
  CHECK(musaDeviceSynchronize());
  CHECK(musaMemcpy(&res, dres, sizeof(int), musaMemcpyDeviceToHost));
  bool ok = supported == 1 && res == ref;
  printf("cg_grid_sync: %d blocks (%d SMs x %d), sum %d (host %lld), %s\n", blocks, sms, perSM, res,
         ref, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
