// Cooperative groups: this_thread_block() for the block barrier, tiled_partition<32> tiles reducing with shfl_down and cg::reduce, thread_rank/meta_group_rank, and a dynamic tiled_partition(block, 16).
#include <musa_runtime.h>
#include <cooperative_groups.h>
#if __has_include(<cooperative_groups/reduce.h>) // where CUDA 11+ declares cg::reduce
#include <cooperative_groups/reduce.h>
#endif
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

__device__ int tileSum(cg::thread_block_tile<32> tile, int v) {
  for (int o = tile.size() / 2; o > 0; o /= 2)
    v += tile.shfl_down(v, o);
  return v; // valid in the tile's rank 0
}

__global__ void groupSums(const int *in, int *blockSums, int *tileSums, int *check) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  __shared__ int partial[32];
  int v = in[blockIdx.x * blockDim.x + block.thread_rank()];
  int s = tileSum(tile, v);
  int all = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) {
    partial[tile.meta_group_rank()] = s;
    tileSums[blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()] = all;
  }
  block.sync();
  if (block.thread_rank() == 0) {
    int total = 0;
    for (unsigned t = 0; t < tile.meta_group_size(); ++t)
      total += partial[t];
    blockSums[blockIdx.x] = total;
  }
  cg::thread_group sixteen = cg::tiled_partition(block, 16);
  if (sixteen.thread_rank() != block.thread_rank() % 16 || sixteen.size() != 16)
    atomicAdd(check, 1);
}

int main() {
  const int blocks = 16, threads = 256, n = blocks * threads, tiles = threads / 32;
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = i % 10;
  int *din, *dBlock, *dTile, *dCheck;
  CHECK(musaMalloc(&din, n * sizeof(int)));
  CHECK(musaMalloc(&dBlock, blocks * sizeof(int)));
  CHECK(musaMalloc(&dTile, blocks * tiles * sizeof(int)));
  CHECK(musaMalloc(&dCheck, sizeof(int)));
  CHECK(musaMemset(dCheck, 0, sizeof(int)));
  CHECK(musaMemcpy(din, h, n * sizeof(int), musaMemcpyHostToDevice));
  groupSums<<<blocks, threads>>>(din, dBlock, dTile, dCheck);
  CHECK(musaGetLastError());
  int bs[blocks], ts[blocks * tiles], chk;
  CHECK(musaMemcpy(bs, dBlock, sizeof bs, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(ts, dTile, sizeof ts, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&chk, dCheck, sizeof chk, musaMemcpyDeviceToHost));
  bool ok = chk == 0;
  for (int t = 0; t < blocks * tiles; ++t) {
    int ref = 0;
    for (int k = 0; k < 32; ++k)
      ref += h[t * 32 + k];
    ok = ok && ts[t] == ref;
  }
  for (int b = 0; b < blocks; ++b) {
    int ref = 0;
    for (int k = 0; k < threads; ++k)
      ref += h[b * threads + k];
    ok = ok && bs[b] == ref;
  }
  printf("cg_thread_block: %d blocks of %d tiles, block 0 sum %d, %s\n", blocks, tiles, bs[0],
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
