// Minimal repro: the warp-aggregated atomic idiom (NVIDIA blog "CUDA Pro Tip: Optimized
// Filtering with Warp-Aggregated Atomics") in a kernel whose other lanes do not exit but go
// on to a __syncthreads(). On 128-lane warps (default MTT S4000 profile) __activemask()
// reports the caller's 32-lane quarter; the quarters' masks differ, and the __shfl_sync with
// that mask never completes.
#include <cstdio>
__device__ int atomicAggInc(int *ctr) {
  unsigned active = __activemask();
  int leader = __ffs(active) - 1;
  int lane = threadIdx.x % 32;
  int rank = __popc(active & ((1u << lane) - 1));
  int res = 0;
  if (rank == 0) res = atomicAdd(ctr, __popc(active));
  res = __shfl_sync(active, res, leader);
  return res + rank;
}
__global__ void filter(const int *in, int *out, int *n, int *blockCount) {
  __shared__ int cnt;
  if (threadIdx.x == 0) cnt = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (in[i] > 0) {
    out[atomicAggInc(n)] = in[i];
    atomicAdd(&cnt, 1);
  }
  __syncthreads();
  if (threadIdx.x == 0) blockCount[blockIdx.x] = cnt;
}
int main() {
  const int N = 256;
  int *in, *out, *n, *bc;
  musaMallocManaged(&in, N * 4); musaMallocManaged(&out, N * 4);
  musaMallocManaged(&n, 4); musaMallocManaged(&bc, 4);
  int want = 0;
  for (int i = 0; i < N; ++i) { in[i] = (i % 3 == 0) ? i + 1 : -i; want += in[i] > 0; }
  *n = 0;
  filter<<<1, N>>>(in, out, n, bc);
  musaError_t e = musaDeviceSynchronize();
  bool ok = e == musaSuccess && *n == want && bc[0] == want;
  printf("%s: count %d want %d; repro_activemask_128 %s\n", musaGetErrorName(e), e ? -1 : *n, want, ok ? "PASSED" : "FAILED");
  return !ok;
}
