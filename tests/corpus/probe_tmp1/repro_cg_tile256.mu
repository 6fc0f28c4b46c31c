// Minimal repro: tiled_partition<256> (CUDA 12 allows tiles of up to 1024 threads) fails to
// compile: static_assert "tile size must be a power of two no larger than a warp".
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  auto t = cg::tiled_partition<256>(cg::this_thread_block());
  t.sync();
  out[threadIdx.x] = t.thread_rank() + 1000 * t.meta_group_rank();
}
int main() {
  int *d; musaMallocManaged(&d, 512 * 4);
  k<<<1, 512>>>(d);
  musaDeviceSynchronize();
  bool ok = true;
  for (int i = 0; i < 512; ++i) ok &= d[i] == i % 256 + 1000 * (i / 256);
  printf("repro_cg_tile256 %s\n", ok ? "PASSED" : "FAILED");
  return !ok;
}
