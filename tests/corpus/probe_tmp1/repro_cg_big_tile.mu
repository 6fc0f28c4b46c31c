// Minimal repro: static tiles wider than a warp (CUDA 11+/12: tiled_partition<Size> for any
// power of two up to 1024). On 32-lane warps (MUSA_SIM_PROFILE=h200 or mtt-s5000)
// tiled_partition<64> compiles and cg::reduce returns wrong sums, silently; Size 256 and up
// do not compile at all (static_assert "no larger than a warp", limit 128) on any profile.
// Run with MUSA_SIM_PROFILE=h200. Expected: PASSED.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  auto t = cg::tiled_partition<64>(cg::this_thread_block());
  out[threadIdx.x] = cg::reduce(t, (int)threadIdx.x, cg::plus<int>());
}
int main() {
  int *d; musaMallocManaged(&d, 128 * 4);
  k<<<1, 128>>>(d);
  musaError_t e = musaDeviceSynchronize();
  bool ok = e == musaSuccess;
  for (int i = 0; ok && i < 128; ++i) ok = d[i] == (i < 64 ? 2016 : 6112);
  printf("%s, thread 0 sum %d (expected 2016); repro_cg_big_tile %s\n", musaGetErrorName(e), d[0], ok ? "PASSED" : "FAILED");
  return !ok;
}
