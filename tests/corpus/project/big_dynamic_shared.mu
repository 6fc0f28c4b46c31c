// More than 48 KiB of dynamic shared memory via musaFuncSetAttribute(MaxDynamicSharedMemorySize) up to sharedMemPerBlockOptin (refused before opting in), a block-wide histogram+sort in that space, and __launch_bounds__ read back through musaFuncGetAttributes with an over-sized launch refused.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

// Each block counting-sorts its 'per' keys (values < 4096) entirely in dynamic shared memory:
// int counts[4096] then int keys[per].
__global__ void blockSortShared(const int *in, int *out, int per) {
  extern __shared__ int smem[];
  int *counts = smem;
  int *keys = smem + 4096;
  const int *src = in + (size_t)blockIdx.x * per;
  for (int k = threadIdx.x; k < 4096; k += blockDim.x)
    counts[k] = 0;
  for (int k = threadIdx.x; k < per; k += blockDim.x)
    keys[k] = src[k];
  __syncthreads();
  for (int k = threadIdx.x; k < per; k += blockDim.x)
    atomicAdd(&counts[keys[k]], 1);
  __syncthreads();
  if (threadIdx.x == 0) { // serial exclusive scan, simple on purpose
    int run = 0;
    for (int k = 0; k < 4096; ++k) {
      int c = counts[k];
      counts[k] = run;
      run += c;
    }
  }
  __syncthreads();
  for (int v = threadIdx.x; v < 4096; v += blockDim.x) {
    int start = counts[v], end = v + 1 < 4096 ? counts[v + 1] : per;
    for (int k = start; k < end; ++k)
      keys[k] = v;
  }
  __syncthreads();
  for (int k = threadIdx.x; k < per; k += blockDim.x)
    out[(size_t)blockIdx.x * per + k] = keys[k];
}

__global__ void __launch_bounds__(128, 4) bounded(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x * 2;
}

int main() {
  musaDeviceProp prop;
  CHECK(musaGetDeviceProperties(&prop, 0));
  bool ok = true;
  size_t optin = prop.sharedMemPerBlockOptin, dflt = prop.sharedMemPerBlock;
  // the largest key count that fits the opt-in limit, at most 24576 keys (112 KiB in all)
  int per = (int)((optin - 4096 * 4) / 4);
  if (per > 24576)
    per = 24576;
  size_t bytes = (4096 + (size_t)per) * 4;
  const int blocks = 6;
  int n = blocks * per;
  int *h = (int *)malloc(n * 4), *r = (int *)malloc(n * 4);
  for (int i = 0; i < n; ++i)
    h[i] = (int)(((unsigned)i * 2654435761u) >> 20) % 4096;
  int *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(din, h, n * 4, musaMemcpyHostToDevice));
  musaFuncAttributes fa;
  CHECK(musaFuncGetAttributes(&fa, blockSortShared));
  printf("sharedMemPerBlock %zu, optin %zu, using %zu bytes; default maxDynamicSharedSizeBytes %d\n", dflt, optin, bytes, fa.maxDynamicSharedSizeBytes);
  if (bytes > dflt) {
    blockSortShared<<<blocks, 256, bytes>>>(din, dout, per);
    musaError_t e = musaGetLastError();
    printf("launch before opt-in: %s\n", musaGetErrorName(e));
    ok = ok && e != musaSuccess;
  }
  CHECK(musaFuncSetAttribute(blockSortShared, musaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  CHECK(musaFuncGetAttributes(&fa, blockSortShared));
  ok = ok && fa.maxDynamicSharedSizeBytes == (int)bytes;
  musaError_t tooMuch = musaFuncSetAttribute(blockSortShared, musaFuncAttributeMaxDynamicSharedMemorySize, (int)optin + 1024);
  ok = ok && tooMuch != musaSuccess;
  musaGetLastError();
  blockSortShared<<<blocks, 256, bytes>>>(din, dout, per);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(r, dout, n * 4, musaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; ++b) {
    int cnt[4096] = {0};
    for (int k = 0; k < per; ++k)
      cnt[h[b * per + k]]++;
    int pos = 0;
    for (int v = 0; v < 4096; ++v)
      for (int c = 0; c < cnt[v]; ++c, ++pos)
        if (r[b * per + pos] != v && bad++ < 3) {
          printf("block %d pos %d: %d want %d\n", b, pos, r[b * per + pos], v);
        }
  }
  ok = ok && bad == 0;

  musaFuncAttributes fb;
  CHECK(musaFuncGetAttributes(&fb, bounded));
  int *dx;
  CHECK(musaMalloc(&dx, 4096 * 4));
  bounded<<<4, 128>>>(dx);
  CHECK(musaGetLastError());
  bounded<<<2, 256>>>(dx);
  musaError_t over = musaGetLastError();
  printf("__launch_bounds__(128): maxThreadsPerBlock %d, 256-thread launch: %s\n", fb.maxThreadsPerBlock, musaGetErrorName(over));
  ok = ok && fb.maxThreadsPerBlock == 128 && over != musaSuccess;
  int hx[512];
  CHECK(musaMemcpy(hx, dx, sizeof hx, musaMemcpyDeviceToHost));
  for (int i = 0; i < 512; ++i)
    ok = ok && hx[i] == (i % 128) * 2;
  printf("big_dynamic_shared: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
