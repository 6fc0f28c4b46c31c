// Minimal repro: the usual cooperative-groups block reduction (each tile<32> reduces, tile 0
// reduces the partials, then the block meets again) deadlocks on 128-lane warps (default
// MTT S4000 profile): tile 0's collective uses the full 32-bit mask, which the simulator reads
// as all 128 lanes of the warp, and lanes 32..127 (tiles 1..3) are waiting at block.sync().
// Expected (CUDA, any warp width): PASSED. With MUSA_SIM_PROFILE=h200 it passes.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void block_sum(const int *in, int *out) {
  __shared__ int part[32];
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int v = cg::reduce(tile, in[threadIdx.x], cg::plus<int>());
  if (tile.thread_rank() == 0) part[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    int w = tile.thread_rank() < tile.meta_group_size() ? part[tile.thread_rank()] : 0;
    w = cg::reduce(tile, w, cg::plus<int>());
    if (tile.thread_rank() == 0) part[0] = w;
  }
  block.sync();
  if (threadIdx.x == 0) *out = part[0];
}
int main() {
  int *in, *out, h = 0;
  musaMallocManaged(&in, 256 * 4); musaMalloc(&out, 4);
  for (int i = 0; i < 256; ++i) in[i] = i;
  block_sum<<<1, 256>>>(in, out);
  musaError_t e = musaDeviceSynchronize();
  if (e == musaSuccess) musaMemcpy(&h, out, 4, musaMemcpyDeviceToHost);
  bool ok = e == musaSuccess && h == 255 * 256 / 2;
  printf("%s, sum %d; repro_tile32_branch_128 %s\n", musaGetErrorName(e), h, ok ? "PASSED" : "FAILED");
  return !ok;
}
