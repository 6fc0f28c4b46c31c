// Warp collectives whose 32-bit mask means one 32-lane warp, on profiles whose warps are wider
// (MTT S4000: 128 lanes, where bit i names lanes i, i+32, i+64, i+96): the lanes of other
// quarters waiting at a block barrier or at another collective do not hold them up. The
// cooperative-groups block reduction (only tile 0 reduces the partials), a warp-aggregated
// atomic whose lanes go on afterwards, a ballot-derived mask that differs between quarters,
// and tile<8> collectives in a branch only some tiles take. On 32-lane profiles each is the
// ordinary CUDA code it is.
#include <musa_runtime.h>
#include <cooperative_groups.h>

#include "check.h"

namespace cg = cooperative_groups;

__global__ void blockSum(const int *in, int *out) {
  __shared__ int part[32];
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int v = cg::reduce(tile, in[threadIdx.x], cg::plus<int>());
  if (tile.thread_rank() == 0)
    part[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    int w = tile.thread_rank() < tile.meta_group_size() ? part[tile.thread_rank()] : 0;
    w = cg::reduce(tile, w, cg::plus<int>());
    if (tile.thread_rank() == 0)
      part[0] = w;
  }
  block.sync();
  if (threadIdx.x == 0)
    *out = part[0];
}

__device__ int aggregatedIncrement(int *counter) {
  // The mask names lanes of the caller's 32-lane quarter; shuffle lanes count the whole warp.
  unsigned active = __activemask();
  int quarter = int(threadIdx.x % warpSize) / 32 * 32;
  int leader = quarter + __ffs(active) - 1, lane = threadIdx.x % 32;
  int rank = __popc(active & ((1u << lane) - 1));
  int first = 0;
  if (rank == 0)
    first = atomicAdd(counter, __popc(active));
  return __shfl_sync(active, first, leader) + rank;
}

__global__ void compact(const int *in, int *out, int *count, int *perBlock) {
  __shared__ int kept;
  if (threadIdx.x == 0)
    kept = 0;
  __syncthreads();
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v > 0) {
    out[aggregatedIncrement(count)] = v;
    atomicAdd(&kept, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    perBlock[blockIdx.x] = kept;
}

__global__ void ballotMask(int *out) {
  unsigned lane = threadIdx.x % 32;
  int n = 1 + int(threadIdx.x / 32); // 1 lane of the first 32 threads, 2 of the next, ...
  unsigned mask = __ballot_sync(0xffffffffu, int(lane) < n);
  int s = 1;
  if (int(lane) < n)
    s += __shfl_down_sync(mask, s, 1);
  out[threadIdx.x] = s;
}

__global__ void someTiles(int *out) {
  auto t8 = cg::tiled_partition<8>(cg::this_thread_block());
  int v = threadIdx.x;
  if (t8.meta_group_rank() % 3 == 0) {
    v = t8.shfl(v, 0);
    t8.sync();
  }
  __syncthreads();
  out[threadIdx.x] = v;
}

int main() {
  const int n = 256;
  int *in = nullptr, *out = nullptr, *count = nullptr, *perBlock = nullptr;
  CHECK_MUSA(musaMallocManaged(&in, n * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&out, n * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&count, sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&perBlock, sizeof(int)));

  for (int i = 0; i < n; ++i)
    in[i] = i;
  blockSum<<<1, n>>>(in, out);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(out[0] == n * (n - 1) / 2, "block sum %d", out[0]);

  int positives = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = i % 3 == 0 ? i + 1 : -i;
    positives += in[i] > 0;
  }
  *count = 0;
  compact<<<1, n>>>(in, out, count, perBlock);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(*count == positives && perBlock[0] == positives, "compaction kept %d (block %d), want %d",
        *count, perBlock[0], positives);
  long long kept = 0, want = 0;
  for (int i = 0; i < *count && i < n; ++i)
    kept += out[i];
  for (int i = 0; i < n; ++i)
    want += in[i] > 0 ? in[i] : 0;
  CHECK(kept == want, "compacted values sum to %lld, want %lld", kept, want);

  ballotMask<<<1, 128>>>(out);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int t = 0; t < 128; ++t) {
    int lane = t % 32, lanes = 1 + t / 32;
    // A lane whose source lane (lane + 1) is outside the mask gets an undefined value on the
    // GPU: only lanes with a named source are checked (1 + their neighbour's 1).
    if (lane + 1 < lanes)
      CHECK(out[t] == 2, "ballot mask, thread %d: %d", t, out[t]);
    if (lane >= lanes)
      CHECK(out[t] == 1, "ballot mask, thread %d outside: %d", t, out[t]);
  }

  someTiles<<<1, 128>>>(out);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int t = 0; t < 128; ++t)
    CHECK(out[t] == ((t / 8) % 3 == 0 ? t / 8 * 8 : t), "tile<8> in a branch, thread %d: %d", t,
          out[t]);

  CHECK_MUSA(musaFree(in));
  CHECK_MUSA(musaFree(out));
  CHECK_MUSA(musaFree(count));
  CHECK_MUSA(musaFree(perBlock));
  return finish("quarter_collectives");
}
