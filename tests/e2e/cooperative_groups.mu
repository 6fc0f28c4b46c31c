// Cooperative groups: block, static tiles with shuffles and reduce, dynamic tiles, grid rank.
#include "check.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void groups(int *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int scratch[256];
  scratch[block.thread_rank()] = int(block.thread_rank());
  block.sync();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  int sum = cg::reduce(tile, scratch[block.thread_rank()], cg::plus<int>());
  int best = cg::reduce(tile, scratch[block.thread_rank()] * 7 % 13, cg::greater<int>());
  int first = tile.shfl(int(block.thread_rank()), 0);
  unsigned votes = tile.ballot(tile.thread_rank() < 4);
  cg::thread_group dyn = cg::tiled_partition(block, 8);
  dyn.sync();
  cg::grid_group grid = cg::this_grid();
  int r = block.thread_rank();
  out[r * 6 + 0] = sum;
  out[r * 6 + 1] = best;
  out[r * 6 + 2] = first;
  out[r * 6 + 3] = int(tile.meta_group_rank()) * 100 + int(tile.thread_rank());
  out[r * 6 + 4] = __popc(votes) * 1000 + int(dyn.thread_rank()) * 10 + int(dyn.size() == 8);
  out[r * 6 + 5] = int(grid.thread_rank() - blockIdx.x * block.size()) == r && grid.size() == 2 * block.size();
}

int main() {
  const int n = 128;
  int h[n * 6], *d;
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  groups<<<2, n>>>(d);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  for (int r = 0; r < n; ++r) {
    int base = r / 16 * 16, sum = 0, best = 0;
    for (int k = base; k < base + 16; ++k)
      sum += k, best = best > k * 7 % 13 ? best : k * 7 % 13;
    CHECK(h[r * 6 + 0] == sum, "tile sum at %d: %d vs %d", r, h[r * 6], sum);
    CHECK(h[r * 6 + 1] == best, "tile max at %d", r);
    CHECK(h[r * 6 + 2] == base, "tile shfl at %d: %d", r, h[r * 6 + 2]);
    CHECK(h[r * 6 + 3] == (r / 16) * 100 + r % 16, "tile ranks at %d", r);
    CHECK(h[r * 6 + 4] == 4000 + (r % 8) * 10 + 1, "ballot/dynamic tile at %d: %d", r, h[r * 6 + 4]);
    CHECK(h[r * 6 + 5] == 1, "grid rank at %d", r);
  }
  // A cooperative launch runs when the grid fits on the device at once and is refused otherwise.
  void *args[] = {&d};
  CHECK_MUSA(musaLaunchCooperativeKernel(groups, dim3(2), dim3(n), args, 0, 0));
  CHECK_MUSA(musaDeviceSynchronize());
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  unsigned tooMany = unsigned(prop.multiProcessorCount) * prop.maxBlocksPerMultiProcessor + 1;
  CHECK(musaLaunchCooperativeKernel(groups, dim3(tooMany), dim3(n), args, 0, 0) ==
            musaErrorCooperativeLaunchTooLarge, "oversized cooperative grid accepted");
  musaGetLastError();
  return finish("cooperative_groups");
}
