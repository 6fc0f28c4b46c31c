// Do a block's memory wait and its compute overlap, or add, when a barrier separates them?
// Built for the H200 with nvcc through the validation suites' mapping header, and for the
// simulator with musa-sim-cc (so the model's predictions can be set beside the measurements):
//   nvcc -O2 -arch=sm_90 -x cu -I tests/validation/cuda tests/hardware/probes/phase_overlap.mu -o /tmp/po && /tmp/po
//   build/bin/musa-sim-cc tests/hardware/probes/phase_overlap.mu -O2 -o /tmp/po && MUSA_SIM_PROFILE=h200 /tmp/po 1
// Each 256-thread block loads one float a thread from a 64 MB array (coalesced, DRAM),
// optionally waits at __syncthreads, runs a dependent chain of `chain` FMAs on it and stores
// it; dynamic shared memory limits the blocks a multiprocessor holds (1, 2, 4 or 8).
// Output: phase_overlap.h200.txt, RESULT lines as the validation suites print them.
#include <musa_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <vector>

template <bool Barrier>
__global__ void phase(const float *in, float *out, int chain) {
  extern __shared__ float pad[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  if (Barrier) __syncthreads();
  for (int k = 0; k < chain; ++k) v = v * 1.0001f + 0.5f;
  if (threadIdx.x == 0 && chain < 0) pad[0] = v; // keeps the shared memory request
  out[i] = v;
}

int main(int argc, char **argv) {
  const int n = 1 << 24, threads = 256;
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
  float *in, *out;
  musaMalloc(&in, size_t(n) * 4);
  musaMalloc(&out, size_t(n) * 4);
  musaMemset(in, 0, size_t(n) * 4);
  musaEvent_t a, b;
  musaEventCreate(&a);
  musaEventCreate(&b);
  for (int perSM : {1, 2, 4, 8})
    for (int chain : {0, 64, 256})
      for (int barrier = 0; barrier < 2; ++barrier) {
        size_t smem = size_t(200 << 10) / perSM;
        auto k = barrier ? phase<true> : phase<false>;
        musaFuncSetAttribute((const void *)k, musaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
        int blocks = n / threads / (perSM == 1 ? 8 : 1); // keep the one-block case short
        std::vector<float> t;
        for (int r = 0; r < repeats; ++r) {
          musaEventRecord(a);
          k<<<blocks, threads, smem>>>(in, out, chain);
          musaEventRecord(b);
          musaEventSynchronize(b);
          float ms = 0;
          musaEventElapsedTime(&ms, a, b);
          t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        float median = t[t.size() / 2];
        musaError_t e = musaGetLastError();
        std::printf("RESULT phase_%s blocks_per_sm=%d,chain=%d,blocks=%d %.6f%s\n",
                    barrier ? "barrier" : "plain", perSM, chain, blocks, median,
                    e == musaSuccess ? "" : musaGetErrorString(e));
      }
  return 0;
}
