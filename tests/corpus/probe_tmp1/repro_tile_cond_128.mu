// Minimal repro: sub-warp tiles (tiled_partition<8>) where only some tiles take a branch and
// use a tile collective. On 128-lane warps (default MTT S4000 profile) a tile's 32-bit mask
// also names the lanes at the same positions in the other three 32-lane quarters (tiles 4, 8
// and 12 further on); when those tiles do not take the branch, tile.sync()/tile.shfl never
// complete. Expected (CUDA): PASSED.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  cg::thread_block block = cg::this_thread_block();
  auto t8 = cg::tiled_partition<8>(block);
  int v = threadIdx.x;
  if (t8.meta_group_rank() % 3 == 0) {      // tiles 0, 3, 6, 9, ... work
    v = t8.shfl(v, 0);
    t8.sync();
  }
  __syncthreads();
  out[threadIdx.x] = v;
}
int main() {
  int *d; musaMalloc(&d, 128 * 4);
  k<<<1, 128>>>(d);
  musaError_t e = musaDeviceSynchronize();
  int h[128]; bool ok = e == musaSuccess;
  if (ok) { musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost);
    for (int i = 0; i < 128; ++i) ok &= h[i] == ((i / 8) % 3 == 0 ? i / 8 * 8 : i); }
  printf("%s; repro_tile_cond_128 %s\n", musaGetErrorName(e), ok ? "PASSED" : "FAILED");
  return !ok;
}
