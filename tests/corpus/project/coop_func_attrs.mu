// Cooperative launch limits and function attributes: musaLaunchCooperativeKernel with grid.sync()
// at exactly the co-resident grid (occupancy x SMs, with and without dynamic shared memory) and one
// block more (musaErrorCooperativeLaunchTooLarge); musaFuncGetAttributes of kernels with static
// shared memory, __launch_bounds__ and a local array; a non-kernel pointer
// (musaErrorInvalidDeviceFunction); musaFuncSetAttribute's limit on dynamic shared memory.
#include <musa_runtime.h>
#include <cooperative_groups.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
namespace cg = cooperative_groups;
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("mismatch %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
      ok = false;                                                      \
    }                                                                  \
  } while (0)

__global__ void gridSum(const int *in, int *partial, int *out, int n) {
  extern __shared__ int dyn[];
  cg::grid_group grid = cg::this_grid();
  int sum = 0;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) sum += in[i];
  atomicAdd(&partial[blockIdx.x], sum);
  grid.sync();
  if (grid.thread_rank() == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *out = t;
  }
  (void)dyn;
}

__global__ void __launch_bounds__(128) withShared(float *o) {
  __shared__ float tile[1000];
  tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = tile[127 - threadIdx.x];
}
__global__ void withLocal(const int *idx, float *o) {
  float local[64];
  for (int i = 0; i < 64; ++i) local[i] = i * 1.5f;
  o[threadIdx.x] = local[idx[threadIdx.x] & 63];
}
void notAKernel() {}

int main() {
  bool ok = true;
  musaDeviceProp prop;
  CHECK(musaGetDeviceProperties(&prop, 0));
  int coop = 0;
  CHECK(musaDeviceGetAttribute(&coop, musaDevAttrCooperativeLaunch, 0));
  EXPECT(coop == 1);
  const int n = 1 << 16;
  int *in, *partial, *out;
  CHECK(musaMalloc(&in, n * sizeof(int)));
  int *h = (int *)malloc(n * sizeof(int));
  long long expect = 0;
  for (int i = 0; i < n; ++i) { h[i] = i % 7; expect += h[i]; }
  CHECK(musaMemcpy(in, h, n * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMalloc(&out, sizeof(int)));
  int nn = n;

  const int threads = 256;
  size_t smemCases[2] = {0, 40 * 1024};
  for (size_t smem : smemCases) {
    int perSm = 0;
    CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, gridSum, threads, smem));
    int maxBlocks = perSm * prop.multiProcessorCount;
    printf("smem %zu: %d blocks per SM, %d co-resident\n", smem, perSm, maxBlocks);
    EXPECT(perSm > 0);
    CHECK(musaMalloc(&partial, (maxBlocks + 1) * sizeof(int)));
    CHECK(musaMemset(partial, 0, (maxBlocks + 1) * sizeof(int)));
    void *args[] = {&in, &partial, &out, &nn};
    musaError_t e = musaLaunchCooperativeKernel((void *)gridSum, dim3(maxBlocks + 1), dim3(threads), args, smem, 0);
    printf("one block more: %s\n", musaGetErrorName(e));
    EXPECT(e == musaErrorCooperativeLaunchTooLarge);
    EXPECT(musaGetLastError() == musaErrorCooperativeLaunchTooLarge);
    EXPECT(musaGetLastError() == musaSuccess);
    // A 2D grid with one block more is just as large.
    e = musaLaunchCooperativeKernel((void *)gridSum, dim3((maxBlocks + 2) / 2, 2), dim3(threads), args, smem, 0);
    EXPECT(e == musaErrorCooperativeLaunchTooLarge);
    musaGetLastError();
    // A smaller grid runs.
    int small = maxBlocks < 48 ? maxBlocks : 48;
    CHECK(musaLaunchCooperativeKernel((void *)gridSum, dim3(small / 2, 2), dim3(threads), args, smem, 0));
    CHECK(musaDeviceSynchronize());
    int got = 0;
    CHECK(musaMemcpy(&got, out, sizeof got, musaMemcpyDeviceToHost));
    EXPECT(got == expect);
    CHECK(musaFree(partial));
  }
  // Block too large for the device: a configuration error, not a cooperative one.
  {
    void *args[] = {&in, &partial, &out, &nn};
    musaError_t e = musaLaunchCooperativeKernel((void *)gridSum, dim3(1), dim3(prop.maxThreadsPerBlock + 1), args, 0, 0);
    printf("cooperative launch with too many threads: %s\n", musaGetErrorName(e));
    EXPECT(e == musaErrorInvalidConfiguration || e == musaErrorInvalidValue);
    musaGetLastError();
  }

  // Function attributes.
  musaFuncAttributes fa;
  CHECK(musaFuncGetAttributes(&fa, withShared));
  printf("withShared: shared %zu maxThreads %d regs %d local %zu maxDyn %d\n", fa.sharedSizeBytes,
         fa.maxThreadsPerBlock, fa.numRegs, fa.localSizeBytes, fa.maxDynamicSharedSizeBytes);
  EXPECT(fa.sharedSizeBytes == 1000 * sizeof(float) && fa.maxThreadsPerBlock == 128);
  EXPECT(fa.maxDynamicSharedSizeBytes == (int)(prop.sharedMemPerBlock - fa.sharedSizeBytes));
  CHECK(musaFuncGetAttributes(&fa, withLocal));
  printf("withLocal: shared %zu maxThreads %d regs %d local %zu\n", fa.sharedSizeBytes, fa.maxThreadsPerBlock,
         fa.numRegs, fa.localSizeBytes);
  EXPECT(fa.sharedSizeBytes == 0 && fa.maxThreadsPerBlock == prop.maxThreadsPerBlock && fa.numRegs > 0);
  CHECK(musaFuncGetAttributes(&fa, gridSum));
  EXPECT(fa.sharedSizeBytes == 0);
  musaError_t e = musaFuncGetAttributes(&fa, (const void *)notAKernel);
  printf("attributes of a host function: %s\n", musaGetErrorName(e));
  EXPECT(e == musaErrorInvalidDeviceFunction || e == musaErrorInvalidResourceHandle); // docs: InvalidDeviceFunction; H200 measured: InvalidResourceHandle
  musaGetLastError();
  EXPECT(musaFuncGetAttributes(nullptr, withLocal) == musaErrorInvalidValue);
  musaGetLastError();
  // Raising the dynamic limit: withShared has 4000 static bytes; the opt-in maximum minus those.
  int optin = (int)prop.sharedMemPerBlockOptin - (int)(1000 * sizeof(float));
  CHECK(musaFuncSetAttribute(withShared, musaFuncAttributeMaxDynamicSharedMemorySize, optin));
  EXPECT(musaFuncSetAttribute(withShared, musaFuncAttributeMaxDynamicSharedMemorySize, optin + 1) ==
         musaErrorInvalidValue);
  musaGetLastError();
  CHECK(musaFuncGetAttributes(&fa, withShared));
  EXPECT(fa.maxDynamicSharedSizeBytes == optin);
  // Launches of the two checked kernels still work.
  float *o;
  int *idx;
  CHECK(musaMalloc(&o, 128 * sizeof(float)));
  CHECK(musaMalloc(&idx, 128 * sizeof(int)));
  for (int i = 0; i < 128; ++i) h[i] = i * 3;
  CHECK(musaMemcpy(idx, h, 128 * sizeof(int), musaMemcpyHostToDevice));
  withLocal<<<1, 128>>>(idx, o);
  float ho[128];
  CHECK(musaMemcpy(ho, o, sizeof ho, musaMemcpyDeviceToHost));
  EXPECT(ho[5] == (15 & 63) * 1.5f && ho[30] == (90 & 63) * 1.5f);
  withShared<<<1, 129>>>(o); // more than __launch_bounds__
  EXPECT(musaGetLastError() == musaErrorInvalidValue);
  withShared<<<1, 128>>>(o);
  CHECK(musaMemcpy(ho, o, sizeof ho, musaMemcpyDeviceToHost));
  EXPECT(ho[0] == 127.0f && ho[127] == 0.0f);

  // Last: the whole co-resident grid (allowed by CUDA), checked without stopping the program.
  {
    int perSm = 0;
    CHECK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, gridSum, threads, 0));
    int maxBlocks = perSm * prop.multiProcessorCount;
    CHECK(musaMalloc(&partial, maxBlocks * sizeof(int)));
    CHECK(musaMemset(partial, 0, maxBlocks * sizeof(int)));
    void *args[] = {&in, &partial, &out, &nn};
    musaError_t le = musaLaunchCooperativeKernel((void *)gridSum, dim3(maxBlocks), dim3(threads), args, 0, 0);
    musaError_t se = musaDeviceSynchronize();
    int got = 0;
    musaMemcpy(&got, out, sizeof got, musaMemcpyDeviceToHost);
    printf("full co-resident grid (%d x %d): launch %s, sync %s, sum %d\n", maxBlocks, threads,
           musaGetErrorName(le), musaGetErrorName(se), got);
    EXPECT(le == musaSuccess && se == musaSuccess && got == expect);
    if (se != musaSuccess) {
      musaDeviceReset();
      printf("coop_func_attrs: %s\n", "FAILED");
      return 1;
    }
    CHECK(musaFree(partial));
  }
  CHECK(musaFree(in)); CHECK(musaFree(out)); CHECK(musaFree(o)); CHECK(musaFree(idx));
  free(h);
  printf("coop_func_attrs: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
