// Minimal repro: cg::this_grid().is_valid() is true in an ordinary <<<>>> launch. CUDA
// documents is_valid() as "whether the grid_group can synchronize", false unless the kernel was
// launched cooperatively; code uses it to choose between grid.sync() and a multi-kernel path.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) { *out = cg::this_grid().is_valid(); }
int main() {
  int *d; musaMallocManaged(&d, 4);
  k<<<2, 32>>>(d); musaDeviceSynchronize();
  int plain = *d;
  void *args[] = {&d};
  musaLaunchCooperativeKernel((void *)k, 2, 32, args, 0, 0); musaDeviceSynchronize();
  int coop = *d;
  bool ok = plain == 0 && coop == 1;
  printf("ordinary launch %d (expected 0), cooperative %d (expected 1); repro_grid_is_valid %s\n", plain, coop, ok ? "PASSED" : "FAILED");
  return !ok;
}
