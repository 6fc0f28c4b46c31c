// The occupancy API as samples use it: pick a launch configuration with
// musaOccupancyMaxPotentialBlockSize, report the theoretical occupancy, size a cooperative
// grid from musaOccupancyMaxActiveBlocksPerMultiprocessor; every answer checked against the
// device's limits and against what the launches then accept.
#include "check.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void square(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = data[i] * data[i];
}

// 16 KiB of static shared memory: shared memory is what limits residency.
// __launch_bounds__(192): the calculator must not suggest more (CUDA's template caps its
// search at the kernel's maxThreadsPerBlock), and what it suggests must launch.
__global__ void __launch_bounds__(192) bounded(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ void tiled(float *out) {
  __shared__ float tile[4096];
  tile[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void scaled(float *data) {
  extern __shared__ float staging[];
  staging[threadIdx.x] = data[threadIdx.x];
  data[threadIdx.x] = staging[threadIdx.x] * 2.0f;
}

// Each block stages its count in dynamic shared memory (sized to limit residency).
__global__ void gridCount(int *counter, int *seen) {
  extern __shared__ int staged[];
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    atomicAdd(counter, 1);
  grid.sync();
  if (threadIdx.x == 0) {
    staged[0] = *counter;
    seen[blockIdx.x] = staged[0];
  }
}

int main() {
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  int coop = 0;
  CHECK_MUSA(musaDeviceGetAttribute(&coop, musaDevAttrCooperativeLaunch, 0));
  CHECK(prop.cooperativeLaunch == 1 && coop == 1, "cooperativeLaunch reads %d/%d",
        prop.cooperativeLaunch, coop);

  // 1. The sample's pattern: let the runtime choose the block size, then launch with it.
  int minGridSize = 0, blockSize = 0;
  CHECK_MUSA(musaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, square, 0, 0));
  CHECK(blockSize > 0 && blockSize <= prop.maxThreadsPerBlock && blockSize % prop.warpSize == 0,
        "block size %d", blockSize);
  int active = 0;
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&active, square, blockSize, 0));
  CHECK(minGridSize == active * prop.multiProcessorCount, "min grid %d, %d per SM", minGridSize,
        active);
  // No block size does better: try every whole-warp size through the C API.
  int bestThreads = 0;
  for (int size = prop.warpSize; size <= prop.maxThreadsPerBlock; size += prop.warpSize) {
    int blocks = 0;
    CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)square,
                                                             size, 0));
    CHECK(blocks >= 1 && blocks <= prop.maxBlocksPerMultiProcessor &&
              blocks * size <= prop.maxThreadsPerMultiProcessor,
          "%d blocks of %d threads exceed the SM's limits", blocks, size);
    bestThreads = blocks * size > bestThreads ? blocks * size : bestThreads;
  }
  CHECK(active * blockSize == bestThreads, "chosen %d x %d threads, best is %d", active,
        blockSize, bestThreads);
  double occupancy = (double)(active * blockSize) / prop.maxThreadsPerMultiProcessor;
  printf("square: block size %d, min grid %d, theoretical occupancy %.0f%%\n", blockSize,
         minGridSize, occupancy * 100);
  const int n = 100000;
  float *h = (float *)malloc(n * sizeof(float)), *d;
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 100);
  CHECK_MUSA(musaMalloc(&d, n * sizeof(float)));
  CHECK_MUSA(musaMemcpy(d, h, n * sizeof(float), musaMemcpyHostToDevice));
  square<<<(n + blockSize - 1) / blockSize, blockSize>>>(d, n);
  CHECK_MUSA(musaMemcpy(h, d, n * sizeof(float), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 997)
    CHECK(h[i] == (float)((i % 100) * (i % 100)), "square[%d] = %f", i, h[i]);

  // 2. A block size limit is honoured.
  CHECK_MUSA(musaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, square, 0, 100));
  CHECK(blockSize > 0 && blockSize <= 100, "limit 100 gave block size %d", blockSize);

  // 2b. So is the kernel's __launch_bounds__, and the suggestion launches.
  CHECK_MUSA(musaOccupancyMaxPotentialBlockSize(&minGridSize, &blockSize, bounded, 0, 0));
  CHECK(blockSize > 0 && blockSize <= 192, "__launch_bounds__(192) gave block size %d",
        blockSize);
  {
    int *ones;
    CHECK_MUSA(musaMalloc(&ones, size_t(minGridSize) * blockSize * sizeof(int)));
    bounded<<<minGridSize, blockSize>>>(ones);
    CHECK_MUSA(musaGetLastError());
    CHECK_MUSA(musaDeviceSynchronize());
    CHECK_MUSA(musaFree(ones));
  }

  // 3. Shared memory limits residency: 16 KiB static per block.
  int blocks = 0;
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tiled, prop.warpSize, 0));
  CHECK(blocks == (int)(prop.sharedMemPerMultiprocessor / 16384), "tiled: %d per SM, %zu / 16K",
        blocks, prop.sharedMemPerMultiprocessor);
  // Static plus dynamic beyond the per-block limit cannot run at all; nor can a block too big.
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tiled, prop.warpSize,
                                                           prop.sharedMemPerBlockOptin));
  CHECK(blocks == 0, "over-sized shared memory gave %d blocks", blocks);
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, square,
                                                           prop.maxThreadsPerBlock + 1, 0));
  CHECK(blocks == 0, "over-sized block gave %d blocks", blocks);
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      &blocks, square, prop.warpSize, 0, musaOccupancyDisableCachingOverride));
  CHECK(blocks == prop.maxBlocksPerMultiProcessor, "warp-sized blocks: %d per SM", blocks);

  // 4. Dynamic shared memory left for two resident blocks of 128 threads.
  size_t avail = 0;
  CHECK_MUSA(musaOccupancyAvailableDynamicSMemPerBlock(&avail, tiled, 2, 128));
  CHECK(avail + 16384 <= prop.sharedMemPerMultiprocessor / 2 && avail > 0, "available %zu", avail);
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tiled, 128, avail));
  CHECK(blocks >= 2, "with the available %zu bytes only %d blocks fit", avail, blocks);
  if (avail + 16384 < prop.sharedMemPerBlockOptin) {
    CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, tiled, 128, avail + 1));
    CHECK(blocks < 2, "one byte more than available still fits %d blocks", blocks);
  }

  // 5. Dynamic shared memory that grows with the block (a float per thread).
  auto bytesFor = [](int size) { return (size_t)size * sizeof(float); };
  CHECK_MUSA(musaOccupancyMaxPotentialBlockSizeVariableSMem(&minGridSize, &blockSize, scaled,
                                                            bytesFor));
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scaled, blockSize,
                                                           bytesFor(blockSize)));
  CHECK(blockSize > 0 && minGridSize == blocks * prop.multiProcessorCount,
        "variable smem: block %d grid %d", blockSize, minGridSize);
  float *d2;
  CHECK_MUSA(musaMalloc(&d2, blockSize * sizeof(float)));
  CHECK_MUSA(musaMemcpy(d2, h, blockSize * sizeof(float), musaMemcpyHostToDevice));
  scaled<<<1, blockSize, bytesFor(blockSize)>>>(d2);
  float *back = (float *)malloc(blockSize * sizeof(float));
  CHECK_MUSA(musaMemcpy(back, d2, blockSize * sizeof(float), musaMemcpyDeviceToHost));
  for (int i = 0; i < blockSize; ++i)
    CHECK(back[i] == 2 * h[i], "scaled[%d]", i);

  // 6. A cooperative grid sized from the occupancy API runs; one block more is refused. Each
  // block takes the most shared memory a block may have, so few blocks fit at once.
  const int threads = 32;
  const size_t big = prop.sharedMemPerBlockOptin;
  // Past sharedMemPerBlock (48 KiB on an H200) a kernel must opt in, as on hardware.
  CHECK_MUSA(musaFuncSetAttribute((const void *)gridCount,
                                  musaFuncAttributeMaxDynamicSharedMemorySize, (int)big));
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, gridCount, threads, big));
  CHECK(blocks == (int)(prop.sharedMemPerMultiprocessor / big), "gridCount: %d per SM", blocks);
  int gridBlocks = blocks * prop.multiProcessorCount;
  int *counter, *seen;
  CHECK_MUSA(musaMalloc(&counter, sizeof(int)));
  CHECK_MUSA(musaMalloc(&seen, (gridBlocks + 1) * sizeof(int)));
  CHECK_MUSA(musaMemset(counter, 0, sizeof(int)));
  void *args[] = {&counter, &seen};
  CHECK_MUSA(musaLaunchCooperativeKernel((void *)gridCount, gridBlocks, threads, args, big, 0));
  int *hseen = (int *)malloc(gridBlocks * sizeof(int));
  CHECK_MUSA(musaMemcpy(hseen, seen, gridBlocks * sizeof(int), musaMemcpyDeviceToHost));
  for (int b = 0; b < gridBlocks; ++b)
    CHECK(hseen[b] == gridBlocks, "block %d saw %d of %d blocks", b, hseen[b], gridBlocks);
  CHECK(musaLaunchCooperativeKernel((void *)gridCount, gridBlocks + 1, threads, args, big, 0) ==
            musaErrorCooperativeLaunchTooLarge,
        "a grid one block beyond the occupancy was accepted");
  musaGetLastError();

  // 7. Bad arguments.
  CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, square, 128, 0) ==
            musaErrorInvalidValue, "null result accepted");
  CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, square, 0, 0) ==
            musaErrorInvalidValue, "block size 0 accepted");
  CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, square, 128, 0, 4) ==
            musaErrorInvalidValue, "unknown flag accepted");
  CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void *)&prop, 128, 0) ==
            musaErrorInvalidDeviceFunction, "a non-kernel accepted");
  CHECK(musaOccupancyMaxPotentialBlockSize(nullptr, &blockSize, square) == musaErrorInvalidValue,
        "null min grid accepted");
  musaGetLastError();
  musaFree(d);
  musaFree(d2);
  musaFree(counter);
  musaFree(seen);
  free(h);
  free(back);
  free(hseen);
  return finish("occupancy");
}
