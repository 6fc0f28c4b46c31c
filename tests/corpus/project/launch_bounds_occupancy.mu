// __launch_bounds__ kernels sized by the occupancy API (the samples' "launch with the suggested block size" idiom): musaOccupancyMaxPotentialBlockSize must respect the kernel's maxThreadsPerBlock from musaFuncGetAttributes, the suggested launch must succeed, and a grid-stride histogram-equalisation pass computed with it must be right.
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

__global__ void __launch_bounds__(192) scaleBounded(const float *in, float *out, int n, float s) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = in[i] * s;
}
__global__ void __launch_bounds__(256, 2) countBounded(const int *in, int n, int *bins) {
  __shared__ int local[16];
  if (threadIdx.x < 16)
    local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] & 15], 1);
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
__global__ void unbounded(int *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1; }

template <class K>
static bool suggestAndCheck(const char *name, K kernel, int *bs, int *grid) {
  musaFuncAttributes fa;
  CHECK(musaFuncGetAttributes(&fa, kernel));
  CHECK(musaOccupancyMaxPotentialBlockSize(grid, bs, kernel, 0, 0));
  bool ok = *bs > 0 && *bs <= fa.maxThreadsPerBlock && *grid > 0;
  printf("%s: maxThreadsPerBlock %d, suggested block %d, min grid %d%s\n", name, fa.maxThreadsPerBlock, *bs, *grid,
         ok ? "" : "  <-- exceeds the kernel's limit");
  return ok;
}

int main() {
  bool ok = true;
  const int n = 50000;
  float *dx, *dy;
  int *di, *dbins, *du;
  CHECK(musaMalloc(&dx, n * 4));
  CHECK(musaMalloc(&dy, n * 4));
  CHECK(musaMalloc(&di, n * 4));
  CHECK(musaMalloc(&dbins, 16 * 4));
  CHECK(musaMemset(dbins, 0, 64));
  float *hx = (float *)malloc(n * 4), *hy = (float *)malloc(n * 4);
  int *hi = (int *)malloc(n * 4);
  for (int i = 0; i < n; ++i) {
    hx[i] = (float)(i % 101);
    hi[i] = (i * 31) % 1000;
  }
  CHECK(musaMemcpy(dx, hx, n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(di, hi, n * 4, musaMemcpyHostToDevice));

  int bs, grid;
  ok = suggestAndCheck("scaleBounded", scaleBounded, &bs, &grid) && ok;
  scaleBounded<<<grid, bs>>>(dx, dy, n, 3.0f);
  musaError_t e = musaGetLastError();
  printf("  launch <<<%d, %d>>>: %s\n", grid, bs, musaGetErrorName(e));
  ok = ok && e == musaSuccess;
  if (e == musaSuccess) {
    CHECK(musaMemcpy(hy, dy, n * 4, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      ok = ok && hy[i] == hx[i] * 3.0f;
  }

  ok = suggestAndCheck("countBounded", countBounded, &bs, &grid) && ok;
  countBounded<<<grid, bs>>>(di, n, dbins);
  e = musaGetLastError();
  printf("  launch <<<%d, %d>>>: %s\n", grid, bs, musaGetErrorName(e));
  ok = ok && e == musaSuccess;
  if (e == musaSuccess) {
    int bins[16], ref[16] = {0};
    CHECK(musaMemcpy(bins, dbins, sizeof bins, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      ref[hi[i] & 15]++;
    for (int b = 0; b < 16; ++b)
      ok = ok && bins[b] == ref[b];
  }

  ok = suggestAndCheck("unbounded", unbounded, &bs, &grid) && ok;
  CHECK(musaMalloc(&du, (size_t)grid * bs * 4));
  unbounded<<<grid, bs>>>(du);
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
  printf("launch_bounds_occupancy: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
