// Minimal repro (found through cg_partitions_scan's "labeled_partition(coalesced): thread 33
// size 8/9"; any warp width, not a 128-lane matter): a reduction over the groups of a
// labeled_partition, then coalesced_threads() in straight-line code. The two label groups
// (4 and 28 lanes) take 2 and 5 shuffle rounds in cg::reduce; the simulator lets the smaller
// group run on alone and never reconverges the warp, and WarpConverge takes only the lanes
// waiting at the converge site in that round (WarpCollective.h), so coalesced_threads() gives
// each label group by itself: size 4 and 28. There is no branch in the source after the
// partition; on hardware the warp normally runs converged again after the reduction and the
// group is all 32 lanes (CUDA does not promise it without a __syncwarp: coalesced_threads() is
// the currently active threads; a __syncwarp()/tile.sync() before it makes the simulator give
// 32 too, as cg_partitions_scan in the corpus now does).
// In cg_partitions_scan it was the cg::reduce over binary_partition(t32, v >= 0) before
// `if (v % 2 == 0) coalesced_threads()`: the even lanes came back as two groups, the negative
// ones and the non-negative ones, so labeled_partition(even, v > 0) left the lane with v == 0
// (thread 42) out of the group of thread 33 (8 lanes, the host expects 9) and alone in its own.
// Expected (CUDA hardware): size 32 on every lane. Simulator: 4 on lanes 0-3, 28 on the rest.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(int *sz, int *sum) {
  int lane = threadIdx.x % 32;
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group lp = cg::labeled_partition(t32, lane < 4);   // groups of 4 and 28 lanes
  sum[threadIdx.x] = cg::reduce(lp, 1, cg::plus<int>());           // 2 vs 5 shuffle rounds
  sz[threadIdx.x] = cg::coalesced_threads().size();                // no branch: all 32
}
int main() {
  int *s, *u;
  musaMalloc(&s, 32 * 4); musaMalloc(&u, 32 * 4);
  k<<<1, 32>>>(s, u);
  int hs[32], hu[32];
  musaError_t e = musaMemcpy(hs, s, sizeof hs, musaMemcpyDeviceToHost);
  musaMemcpy(hu, u, sizeof hu, musaMemcpyDeviceToHost);
  bool ok = e == musaSuccess;
  for (int i = 0; i < 32 && ok; ++i) ok = hs[i] == 32 && hu[i] == (i < 4 ? 4 : 28);
  printf("lane 0: reduce %d coalesced size %d; lane 31: reduce %d coalesced size %d (want 4 32; 28 32)\n",
         hu[0], hs[0], hu[31], hs[31]);
  printf("repro_coalesced_after_partition %s\n", ok ? "PASSED" : "FAILED");
  return !ok;
}
