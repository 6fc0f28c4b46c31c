// probe_session11.mu: what the eleventh session inferred but did not measure. grid.sync() in an
// ordinary launch of a grid the GPU holds at once (is_valid() was true there) and of a larger
// grid's is_valid(); the device heap and printf FIFO limits of a program built without -rdc;
// a host copy of memory device malloc() returned. Lines `name value`; run it with stdbuf -o0
// (session 11's H100 run died without output). grid.sync() in an ordinary launch comes last.
#include <cooperative_groups.h>
#include <cstdio>
namespace cg = cooperative_groups;

__global__ void gridSum(const int *in, int *partial, int *out, int *valid) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int acc;
  if (threadIdx.x == 0) acc = 0;
  __syncthreads();
  atomicAdd(&acc, in[grid.thread_rank()]);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = acc;
  if (blockIdx.x == 0 && threadIdx.x == 0) *valid = grid.is_valid();
  grid.sync();
  if (threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    out[blockIdx.x] = t;
  }
}
__global__ void validOnly(int *valid) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *valid = cg::this_grid().is_valid();
}
__global__ void heapAlloc(int **p) {
  int *q = (int *)malloc(64);
  if (q) for (int i = 0; i < 16; ++i) q[i] = 1000 + i;
  *p = q;
}

int main() {
  int sms = 0, perSM = 0;
  musaDeviceGetAttribute(&sms, musaDevAttrMultiProcessorCount, 0);
  musaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, gridSum, 64, 0);
  int blocks = sms, threads = 64, n = blocks * threads;
  int *in, *partial, *out, *valid;
  musaMallocManaged(&in, n * 4); musaMallocManaged(&partial, blocks * 4);
  musaMallocManaged(&out, blocks * 4); musaMallocManaged(&valid, 4);
  for (int i = 0; i < n; ++i) in[i] = i % 10;
  int expect = 0; for (int i = 0; i < n; ++i) expect += in[i];
  musaError_t e;
  int big = sms * perSM * 4;
  *valid = -1;
  validOnly<<<big, threads>>>(valid);
  e = musaDeviceSynchronize();
  printf("is_valid_larger_grid status %s blocks %d valid %d\n", musaGetErrorName(e), big, *valid);
  size_t v = 0;
  musaDeviceGetLimit(&v, musaLimitMallocHeapSize); printf("heap_default %zu\n", v);
  musaDeviceGetLimit(&v, musaLimitPrintfFifoSize); printf("printf_fifo_default %zu\n", v);
  musaDeviceGetLimit(&v, musaLimitStackSize); printf("stack_default %zu\n", v);
  e = musaDeviceSetLimit(musaLimitMallocHeapSize, 1u << 20);
  musaDeviceGetLimit(&v, musaLimitMallocHeapSize);
  printf("heap_set_1MiB %s reads %zu\n", musaGetErrorName(e), v);
  int **slot; musaMallocManaged(&slot, sizeof(int *));
  heapAlloc<<<1, 1>>>(slot);
  musaDeviceSynchronize();
  int back[16] = {};
  e = musaMemcpy(back, *slot, sizeof back, musaMemcpyDeviceToHost);
  printf("memcpy_from_heap %s value %d\n", musaGetErrorName(e), back[3]);
  musaGetLastError();
  e = musaDeviceSetLimit(musaLimitMallocHeapSize, size_t(1) << 50);
  printf("heap_set_2^50_after_use %s\n", musaGetErrorName(e));
  musaGetLastError();
  musaDeviceReset();
  e = musaDeviceSetLimit(musaLimitMallocHeapSize, size_t(1) << 50);
  printf("heap_set_2^50_fresh %s\n", musaGetErrorName(e));
  musaGetLastError();
  e = musaDeviceSetLimit(musaLimitDevRuntimeSyncDepth, 4);
  printf("set_sync_depth %s\n", musaGetErrorName(e));
  e = musaDeviceSetLimit(musaLimitDevRuntimePendingLaunchCount, 4);
  musaDeviceGetLimit(&v, musaLimitDevRuntimePendingLaunchCount);
  printf("pending_set_4 %s reads %zu\n", musaGetErrorName(e), v);
  // Last (the H100 run of session 11 died without output, probably here): grid.sync() in an
  // ordinary launch; a fresh context after the reset above.
  musaMallocManaged(&in, n * 4); musaMallocManaged(&partial, blocks * 4);
  musaMallocManaged(&out, blocks * 4); musaMallocManaged(&valid, 4);
  for (int i = 0; i < n; ++i) in[i] = i % 10;
  fflush(stdout);
  *valid = -1;
  gridSum<<<blocks, threads>>>(in, partial, out, valid);
  e = musaDeviceSynchronize();
  int right = 0; for (int b = 0; b < blocks; ++b) right += out[b] == expect;
  printf("ordinary_grid_sync status %s valid %d blocks_right %d of %d\n", musaGetErrorName(e),
         *valid, right, blocks);
  return 0;
}
