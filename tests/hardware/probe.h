// Shared by the hardware probes (compiled with nvcc on the device machine): SHOW prints one
// "case: error name" line and clears the error so the next case starts clean.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define SHOW(name, expr)                                                                     \
  do {                                                                                       \
    cudaError_t e_ = (expr);                                                                 \
    std::printf("%s: %s\n", name, cudaGetErrorName(e_));                                     \
    cudaGetLastError();                                                                      \
  } while (0)

// Ends the probe with the error's name and line when a runtime call fails.
#define PROBE_CHECK(expr)                                                                    \
  do {                                                                                       \
    cudaError_t e_ = (expr);                                                                 \
    if (e_ != cudaSuccess) {                                                                 \
      std::printf("error %s at %d\n", cudaGetErrorString(e_), __LINE__);                    \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

// The median of 9 event-timed runs of `op` on the default stream, after two warm-ups, in
// microseconds (the timing probes under probes/). An event call that fails ends the probe.
template <typename F> static float median_us(F op) {
  auto check = [](cudaError_t e) {
    if (e != cudaSuccess) {
      std::printf("error %s in median_us\n", cudaGetErrorString(e));
      std::exit(1);
    }
  };
  static cudaEvent_t ea, eb;
  if (!ea) {
    check(cudaEventCreate(&ea));
    check(cudaEventCreate(&eb));
  }
  op();
  op();
  check(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int r = 0; r < 9; ++r) {
    check(cudaEventRecord(ea));
    op();
    check(cudaEventRecord(eb));
    check(cudaEventSynchronize(eb));
    float ms;
    check(cudaEventElapsedTime(&ms, ea, eb));
    t.push_back(ms * 1000);
  }
  std::sort(t.begin(), t.end());
  return t[4];
}

// A 32-bit integer hash (lowbias32) for probes that scatter their accesses.
__device__ __forceinline__ unsigned hash_u32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}
