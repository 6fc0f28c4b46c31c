// Minimal repro: blocks of an ordinary launch that wait for each other. 4 blocks (fewer than
// the device's multiprocessors, so all resident on a GPU) meet at a hand-made atomic barrier.
// The simulator runs an ordinary grid's blocks one after another on each host worker (2 here),
// so block 0 waits for blocks that its worker never starts: the launch ends with
// musaErrorLaunchTimeout after MUSA_SIM_SPIN_LIMIT (60 s by default), saying a GPU would hang.
// With MUSA_SIM_WORKERS=1 even two blocks that exchange a flag time out.
// Expected (CUDA): PASSED at once.
#include <cstdio>
__global__ void k(unsigned *count, int *out) {
  if (threadIdx.x == 0) {
    atomicAdd(count, 1u);
    while (atomicAdd(count, 0u) < gridDim.x) {
    }
  }
  __syncthreads();
  out[blockIdx.x] = 1;
}
int main() {
  unsigned *c; int *o;
  musaMalloc(&c, 4); musaMallocManaged(&o, 16);
  musaMemset(c, 0, 4);
  k<<<4, 64>>>(c, o);
  musaError_t e = musaDeviceSynchronize();
  printf("%s; repro_grid_barrier_ordinary %s\n", musaGetErrorName(e), e == musaSuccess ? "PASSED" : "FAILED");
  return e != musaSuccess;
}
