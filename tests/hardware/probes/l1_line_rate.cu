// L1 tag-lookup rate probe (CUDA; run on the device machine):
//   nvcc -O2 -arch=sm_90 tests/hardware/probes/l1_line_rate.cu -o /tmp/l1r && /tmp/l1r
// Warps gather 4-byte words so that each warp access touches k distinct 128-byte lines
// (k = 1, 2, 4, 8, 16, 32: lane l reads line (l % k) of a window, at word l / k of it), from a
// window that stays in L1 (24 KB all blocks share) or one only L2 holds (a 16 MB array, the window
// moving by a line each step). Each thread issues 4 independent loads a step, 1024 steps;
// 132 x 8 blocks of 256 threads. Prints the SM cycles per warp access (kernel cycles x SMs /
// warp accesses): what one line's lookup costs the SM when k lines share an access.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)

__global__ void gather(const unsigned *data, unsigned words, int k, int steps, int l1,
                       unsigned *out, unsigned mul, unsigned mask) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  // Word offset of this lane inside a step's window: line (lane % k), word (lane / k).
  unsigned inWindow = unsigned(lane % k) * 32 + unsigned(lane / k);
  unsigned base = l1 ? 0u : (blockIdx.x * 977u * 32u) % words; // L1: one 24 KB region
  unsigned acc = 0;
  for (int s = 0; s < steps; ++s) {
    // mul (1) and mask (15) come at run time: the compiler cannot see that the L1 window
    // repeats and hoist the loads out of the loop
    unsigned step = l1 ? ((unsigned(s) * mul * 4u + unsigned(warp)) & mask) * 128u
                       : unsigned(s * 4 + warp) * 32u * 33u;
    unsigned o = (base + step) % (words - 4 * 32 * 32);
#pragma unroll
    for (int u = 0; u < 4; ++u)
      acc += data[(o + inWindow + unsigned(u) * 1024u) % words] ^ unsigned(u);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount, clockKHz = 0;
  CHECK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
  std::printf("device %s, %d SMs, %d kHz\n", prop.name, sms, clockKHz);
  const unsigned words = 4u << 20; // 16 MB
  unsigned *data, *out;
  CHECK(cudaMalloc(&data, size_t(words) * 4));
  CHECK(cudaMemset(data, 1, size_t(words) * 4));
  const int blocks = sms * 8, threads = 256, steps = 1024;
  CHECK(cudaMalloc(&out, size_t(blocks) * threads * 4));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int l1 = 1; l1 >= 0; --l1)
    for (int k : {1, 2, 4, 8, 16, 32}) {
      gather<<<blocks, threads>>>(data, words, k, 16, l1, out, 1u, 15u);
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaEventRecord(a));
      gather<<<blocks, threads>>>(data, words, k, steps, l1, out, 1u, 15u);
      CHECK(cudaEventRecord(b));
      CHECK(cudaEventSynchronize(b));
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, a, b));
      double accesses = double(blocks) * threads / 32 * steps * 4;
      double cycles = ms * 1e-3 * clockKHz * 1e3;
      std::printf("%-3s lines/access %2d  kernel %8.3f ms  SM cycles per warp access %6.2f  "
                  "per line %5.2f\n", l1 ? "L1" : "L2", k, ms, cycles * sms / accesses,
                  cycles * sms / accesses / k);
    }
  return 0;
}
