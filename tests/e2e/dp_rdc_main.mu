// Dynamic parallelism across files (nvcc -rdc=true): a kernel launches a kernel another file
// defines, which launches one of this file's.
#include "check.h"

__global__ void child(int *p, int v); // dp_rdc_kernels.mu
__global__ void grandchild(int *p) { p[0] += 1000; }

__global__ void parent(int *p) { child<<<1, 8>>>(p, 5); }

int main() {
  int *p = nullptr;
  CHECK_MUSA(musaMallocManaged(&p, 8 * sizeof(int)));
  parent<<<1, 1>>>(p);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(p[0] == 1005 && p[7] == 12, "child across files: %d %d", p[0], p[7]);
  return finish("dp_rdc");
}
