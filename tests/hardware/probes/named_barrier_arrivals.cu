// How a GPU counts a named barrier's arrivals (PTX bar.sync a, b / bar.arrive a, b).
// Each case runs in a process of its own (hw-session19.sh): a case that deadlocks on the GPU
// hangs until its timeout, which is the answer.
//   partial     block 64: warp 0 bar.sync 1, 64; of warp 1 only lane 0 arrives (bar.arrive 1,
//               64), its other lanes have exited. Per-warp counting completes; per-thread
//               counting (1 + 32 < 64) hangs.
//   exited      block 128: warps 1..3 exit, warp 0 bar.sync 1 (no count: the whole block).
//   exitedcount block 128: warps 2 and 3 exit, warps 0 and 1 bar.sync 1, 128.
#include <cstdio>
#include <cstring>

__global__ void partial(int *out) {
  if (threadIdx.x >= 32 && threadIdx.x != 32)
    return;
  if (threadIdx.x == 32)
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  else
    asm volatile("bar.sync 1, 64;" ::: "memory");
  atomicAdd(out, 1);
}

__global__ void exited(int *out) {
  if (threadIdx.x >= 32)
    return;
  asm volatile("bar.sync 1;" ::: "memory");
  atomicAdd(out, 1);
}

__global__ void exitedCount(int *out) {
  if (threadIdx.x >= 64)
    return;
  asm volatile("bar.sync 1, 128;" ::: "memory");
  atomicAdd(out, 1);
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "partial";
  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  if (!strcmp(which, "partial"))
    partial<<<1, 64>>>(d);
  else if (!strcmp(which, "exited"))
    exited<<<1, 128>>>(d);
  else
    exitedCount<<<1, 128>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s: %s, %d thread(s) passed the barrier\n", which, cudaGetErrorName(e), h);
  return 0;
}
