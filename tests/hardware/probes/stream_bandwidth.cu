// DRAM streaming probe (CUDA; run on the device machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/stream_bandwidth.cu -o /tmp/sb && /tmp/sb
// What bandwidth kernels reach when they stream through DRAM, by size and by the mix of reads
// and writes: read-only (a sum), write-only (a fill), read+write (a copy, one float or one
// float4 per thread, and grid-stride), at 16 MB to 2 GB per array. Events, median of 9 after
// two warm-ups; the arrays are touched in that order, so arrays larger than L2 come from DRAM.
// For the timing model's dram_efficiency (simdevice/TIMING.md): the validation suites show
// 2.3-2.5 TB/s on 128 MB read+write streams where the model assumes about 4.1.
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include "../probe.h"
#include <vector>

__global__ void copy1(const float *in, float *out, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i];
}
__global__ void copy4(const float4 *in, float4 *out, size_t n4) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n4) out[i] = in[i];
}
__global__ void copy_gs(const float *in, float *out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}
__global__ void fill(float *out, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = 1.0f;
}
__global__ void sum4(const float4 *in, float *out, size_t n4) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  float4 v = i < n4 ? in[i] : make_float4(0, 0, 0, 0);
  float s = v.x + v.y + v.z + v.w;
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0 && s == -1.0f) out[0] = s; // never true: keeps the loads
}

int main() {
  std::printf("# nvcc -O3 -arch=sm_90 tests/hardware/probes/stream_bandwidth.cu -o /tmp/sb && /tmp/sb\n");
  std::printf("# GB/s counts the bytes the kernel reads plus the bytes it writes\n");
  size_t most = size_t(2) << 30;
  float *a, *b;
  cudaMalloc(&a, most);
  cudaMalloc(&b, most);
  cudaMemset(a, 0, most);
  cudaMemset(b, 0, most);
  for (size_t bytes : {size_t(16) << 20, size_t(64) << 20, size_t(128) << 20, size_t(512) << 20,
                       size_t(2) << 30}) {
    size_t n = bytes / 4, n4 = n / 4;
    unsigned blocks = unsigned((n + 255) / 256), blocks4 = unsigned((n4 + 255) / 256);
    float tc = median_us([&] { copy1<<<blocks, 256>>>(a, b, n); });
    float tc4 = median_us([&] { copy4<<<blocks4, 256>>>((float4 *)a, (float4 *)b, n4); });
    float tgs = median_us([&] { copy_gs<<<132 * 8, 256>>>(a, b, n); });
    float tf = median_us([&] { fill<<<blocks, 256>>>(b, n); });
    float ts = median_us([&] { sum4<<<blocks4, 256>>>((float4 *)a, b, n4); });
    double mb = bytes / 1e6;
    std::printf("RESULT stream bytes=%zu copy_us=%.2f copy_GBs=%.0f copy4_us=%.2f copy4_GBs=%.0f "
                "copy_gridstride_us=%.2f copy_gridstride_GBs=%.0f fill_us=%.2f fill_GBs=%.0f "
                "sum_us=%.2f sum_GBs=%.0f\n",
                bytes, tc, 2e3 * mb / tc, tc4, 2e3 * mb / tc4, tgs, 2e3 * mb / tgs, tf,
                1e3 * mb / tf, ts, 1e3 * mb / ts);
  }
  std::printf("error: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
