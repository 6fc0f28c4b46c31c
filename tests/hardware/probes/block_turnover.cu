// Block turnover probe (CUDA; run on the device machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/block_turnover.cu -o /tmp/bt && /tmp/bt
// stream_bandwidth shows one-element-per-thread streams stuck at 1.6-2.7 TB/s while float4
// and grid-stride streams reach 4+. This separates what a block costs from what its memory
// traffic costs:
//  1. empty blocks: the time per wave of blocks that do nothing (launch and retire only);
//  2. the same bytes written, read or copied with N elements per thread (N = 1..16): as N
//     grows there are N times fewer blocks for the same traffic; if the time falls with the
//     number of blocks, blocks (not DRAM) bound the one-element streams;
//  3. a grid-stride version with one wave of resident blocks (no turnover at all).
// Events, median of 9 after two warm-ups. 132 SMs; "waves" counts blocks / (SMs x resident
// blocks per SM) from the occupancy API.
#include <cstdio>
#include <cuda_runtime.h>
#include "../probe.h"

__global__ void empty() {}

template <int N> __global__ void fillN(float *out) {
  size_t base = (blockIdx.x * size_t(blockDim.x)) * N + threadIdx.x;
#pragma unroll
  for (int k = 0; k < N; ++k)
    out[base + k * blockDim.x] = 1.0f;
}
template <int N> __global__ void sumN(const float *in, float *out) {
  size_t base = (blockIdx.x * size_t(blockDim.x)) * N + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int k = 0; k < N; ++k)
    s += in[base + k * blockDim.x];
  if (s == -1.0f) out[0] = s; // never true: keeps the loads
}
template <int N> __global__ void copyN(const float *in, float *out) {
  size_t base = (blockIdx.x * size_t(blockDim.x)) * N + threadIdx.x;
#pragma unroll
  for (int k = 0; k < N; ++k)
    out[base + k * blockDim.x] = in[base + k * blockDim.x];
}
__global__ void fill_gs(float *out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    out[i] = 1.0f;
}
__global__ void sum_gs(const float *in, float *out, size_t n) {
  float s = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    s += in[i];
  if (s == -1.0f) out[0] = s;
}

template <typename K> static int residentPerSm(K kernel, int threads) {
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0);
  return blocks;
}

template <int N> static void perThread(float *a, float *b, size_t n, int threads, int sms) {
  size_t blocks = n / (size_t(threads) * N);
  double mb = n * 4.0 / 1e6;
  float tf = median_us([&] { fillN<N><<<blocks, threads>>>(a); });
  float ts = median_us([&] { sumN<N><<<blocks, threads>>>(a, b); });
  float tc = median_us([&] { copyN<N><<<blocks, threads>>>(a, b); });
  double waves = double(blocks) / (double(sms) * residentPerSm(fillN<N>, threads));
  std::printf("per_thread N=%-2d threads=%-4d MB=%-6.0f blocks=%-8zu waves=%-8.1f "
              "fill_us=%-9.1f sum_us=%-9.1f copy_us=%-9.1f fill_GBs=%-6.0f sum_GBs=%-6.0f "
              "copy_GBs=%-6.0f fill_ns_per_wave=%.0f\n",
              N, threads, mb, blocks, waves, tf, ts, tc, mb * 1e-3 / (tf * 1e-6),
              mb * 1e-3 / (ts * 1e-6), 2 * mb * 1e-3 / (tc * 1e-6), tf * 1e3 / waves);
}

int main() {
  std::printf("# nvcc -O3 -arch=sm_90 tests/hardware/probes/block_turnover.cu -o /tmp/bt && /tmp/bt\n");
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int sms = prop.multiProcessorCount;
  int khz = 0;
  cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
  std::printf("# %s, %d SMs, %d MHz\n", prop.name, sms, khz / 1000);
  // 1. Empty blocks.
  for (int threads : {32, 128, 256, 1024}) {
    int resident = residentPerSm(empty, threads);
    for (int waves : {1, 4, 16, 64, 256}) {
      size_t blocks = size_t(waves) * sms * resident;
      float t = median_us([&] { empty<<<blocks, threads>>>(); });
      std::printf("empty threads=%-4d resident_per_sm=%-2d waves=%-4d blocks=%-8zu us=%-8.1f "
                  "ns_per_wave=%.0f\n",
                  threads, resident, waves, blocks, t, t * 1e3 / waves);
    }
  }
  // 2. The same traffic with N elements per thread; 3. grid-stride, one resident wave.
  size_t most = size_t(512) << 20;
  float *a, *b;
  cudaMalloc(&a, most);
  cudaMalloc(&b, most);
  cudaMemset(a, 0, most);
  cudaMemset(b, 0, most);
  for (size_t bytes : {size_t(64) << 20, size_t(512) << 20}) {
    size_t n = bytes / 4;
    for (int threads : {256, 1024}) {
      perThread<1>(a, b, n, threads, sms);
      perThread<2>(a, b, n, threads, sms);
      perThread<4>(a, b, n, threads, sms);
      perThread<8>(a, b, n, threads, sms);
      perThread<16>(a, b, n, threads, sms);
    }
    int resident = residentPerSm(fill_gs, 256);
    size_t blocks = size_t(sms) * resident;
    float tf = median_us([&] { fill_gs<<<blocks, 256>>>(a, n); });
    float ts = median_us([&] { sum_gs<<<blocks, 256>>>(a, b, n); });
    std::printf("grid_stride threads=256 MB=%-6.0f blocks=%-6zu fill_us=%-9.1f sum_us=%-9.1f "
                "fill_GBs=%-6.0f sum_GBs=%.0f\n",
                bytes / 1e6, blocks, tf, ts, bytes / 1e3 / tf, bytes / 1e3 / ts);
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("# status %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
