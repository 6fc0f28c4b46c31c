// Shared-memory atomicAdd throughput on the H200 by address pattern and type (run on the
// device machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/shared_atomics.cu -o /tmp/sa && /tmp/sa
// 1056 blocks of 256 threads (eight a multiprocessor), each thread 256 atomicAdds to a
// 64-word shared array, lanes of a warp on: one word, two words, 32 words in 32 banks, or a
// hashed word of 64 (what a histogram does). Prints per pattern and type the SM cycles per
// warp atomic (time x clock x SMs / warp atomics), medians of 9 runs (probe.h).
// Output: shared_atomics.h200.txt. No validation suite's configuration.
#include "../probe.h"

template <typename T>
__global__ void shared_add(T *out, int pattern) {
  __shared__ T h[64];
  if (threadIdx.x < 64) h[threadIdx.x] = T(0);
  __syncthreads();
  unsigned lane = threadIdx.x & 31, x = blockIdx.x * 7919u + threadIdx.x * 104729u;
  for (int it = 0; it < 256; ++it) {
    unsigned a;
    if (pattern == 0) a = 0;
    else if (pattern == 1) a = lane & 1;
    else if (pattern == 2) a = lane;
    else {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      a = x & 63;
    }
    atomicAdd(&h[a], T(1));
  }
  __syncthreads();
  if (threadIdx.x < 64) out[blockIdx.x * 64 + threadIdx.x] = h[threadIdx.x];
}

// The same loop with the hash but a plain shared store: the baseline of the loop's own cost.
__global__ void shared_store(float *out) {
  __shared__ float h[64];
  unsigned x = blockIdx.x * 7919u + threadIdx.x * 104729u;
  for (int it = 0; it < 256; ++it) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    h[x & 63] = float(it);
  }
  __syncthreads();
  if (threadIdx.x < 64) out[blockIdx.x * 64 + threadIdx.x] = h[threadIdx.x];
}

int main() {
  const int blocks = 1056, threads = 256;
  float *f;
  cudaMalloc(&f, blocks * 64 * 8);
  int clockKHz = 0, sms = 0;
  cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const double warpAtomics = double(blocks) * threads / 32 * 256;
  auto cycles = [&](float us) { return us * 1e-6 * clockKHz * 1e3 * sms / warpAtomics; };
  const char *names[] = {"one_word", "two_words", "32_banks", "hashed_64"};
  for (int pattern = 0; pattern < 4; ++pattern) {
    float ti = median_us([&] { shared_add<int><<<blocks, threads>>>((int *)f, pattern); });
    float tf = median_us([&] { shared_add<float><<<blocks, threads>>>(f, pattern); });
    std::printf("RESULT shared_atomic pattern=%s int_us=%.2f float_us=%.2f int_cycles_per_warp_op=%.2f "
                "float_cycles_per_warp_op=%.2f\n", names[pattern], ti, tf, cycles(ti), cycles(tf));
  }
  float ts = median_us([&] { shared_store<<<blocks, threads>>>(f); });
  std::printf("RESULT shared_store pattern=hashed_64 us=%.2f cycles_per_warp_op=%.2f\n", ts, cycles(ts));
  return cudaDeviceSynchronize() != cudaSuccess;
}
