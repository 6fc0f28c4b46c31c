// __activemask() inside a divergent branch must name only the lanes that took the branch.
// Warp-aggregated atomic increment (NVIDIA's "warp-aggregated atomics" idiom) used to filter
// positive elements: with a too-wide mask the leader's shuffle waits for lanes that never come.
#include <musa_runtime.h>
#include <cstdio>
__device__ int atomicAggInc(int *ctr) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  int change = __popc(active);
  int lane = threadIdx.x % 32;
  unsigned rank = __popc(active & ((1u << lane) - 1));
  int res = 0;
  if (rank == 0) res = atomicAdd(ctr, change);
  res = __shfl_sync(active, res, leader);
  return res + rank;
}
__global__ void filter(const int *in, int *out, int *n, unsigned *masks, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  if (in[i] > 0) {
    masks[i] = __activemask();
    out[atomicAggInc(n)] = in[i];
  }
}
int main() {
  const int N = 64;
  int *in, *out, *n; unsigned *masks;
  musaMallocManaged(&in, N * sizeof(int)); musaMallocManaged(&out, N * sizeof(int));
  musaMallocManaged(&n, sizeof(int)); musaMallocManaged(&masks, N * sizeof(unsigned));
  for (int i = 0; i < N; ++i) { in[i] = (i % 3 == 0) ? i + 1 : -i; masks[i] = 0; }
  *n = 0;
  filter<<<1, N>>>(in, out, n, masks, N);
  musaError_t e = musaDeviceSynchronize();
  int want = 0; for (int i = 0; i < N; ++i) want += in[i] > 0;
  unsigned wantMask = 0; for (int l = 0; l < 32; ++l) if (l % 3 == 0) wantMask |= 1u << l;
  printf("sync: %s, count %d (want %d), __activemask in branch lane 0: 0x%08x (want 0x%08x)\n",
         musaGetErrorName(e), *n, want, masks[0], wantMask);
  bool ok = e == musaSuccess && *n == want && masks[0] == wantMask;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
