// Minimal repro: meta_group_rank()/meta_group_size() of a tile partitioned from a tile count
// within the parent (CUDA: "rank of the group within the set of tiles partitioned from a parent
// group"); the simulator counts tiles over the whole block.
// tile<4> of tile<32> in a 64-thread block: expected meta_group_size 8, ranks 0..7.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *rank, int *size) {
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  auto t4 = cg::tiled_partition<4>(t32);
  rank[threadIdx.x] = t4.meta_group_rank();
  size[threadIdx.x] = t4.meta_group_size();
}
int main() {
  int *r, *s; musaMallocManaged(&r, 256); musaMallocManaged(&s, 256);
  k<<<1, 64>>>(r, s); musaDeviceSynchronize();
  bool ok = true;
  for (int i = 0; i < 64; ++i) ok &= r[i] == (i % 32) / 4 && s[i] == 8;
  printf("thread 40: meta_group_rank %d (expected 2), meta_group_size %d (expected 8); repro_cg_nested_meta %s\n",
         r[40], s[40], ok ? "PASSED" : "FAILED");
  return !ok;
}
