// Monte Carlo estimate of pi: each thread runs its own linear congruential generator, hits are counted per block in shared memory and added with atomicAdd; the host replays the same generators.
#include <musa_runtime.h>
#include <math.h>
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

#define SAMPLES 256

__device__ __host__ inline unsigned lcg(unsigned &s) {
  s = s * 1664525u + 1013904223u;
  return s;
}

__global__ void countHits(unsigned long long *hits) {
  __shared__ unsigned blockHits;
  if (threadIdx.x == 0)
    blockHits = 0;
  __syncthreads();
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = tid * 2654435761u + 1u;
  unsigned mine = 0;
  for (int k = 0; k < SAMPLES; ++k) {
    unsigned x = lcg(s) >> 16, y = lcg(s) >> 16; // 16-bit coordinates: exact integer test
    mine += (unsigned long long)x * x + (unsigned long long)y * y < (1ull << 32) ? 1u : 0u;
  }
  atomicAdd(&blockHits, mine);
  __syncthreads();
  if (threadIdx.x == 0)
    atomicAdd(hits, (unsigned long long)blockHits);
}

int main() {
  const int blocks = 128, threads = 256;
  unsigned long long *dHits, hits = 0;
  CHECK(musaMalloc(&dHits, sizeof hits));
  CHECK(musaMemset(dHits, 0, sizeof hits));
  countHits<<<blocks, threads>>>(dHits);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(&hits, dHits, sizeof hits, musaMemcpyDeviceToHost));
  unsigned long long ref = 0;
  for (unsigned tid = 0; tid < (unsigned)(blocks * threads); ++tid) {
    unsigned s = tid * 2654435761u + 1u;
    for (int k = 0; k < SAMPLES; ++k) {
      unsigned x = lcg(s) >> 16, y = lcg(s) >> 16;
      ref += (unsigned long long)x * x + (unsigned long long)y * y < (1ull << 32) ? 1u : 0u;
    }
  }
  double total = (double)blocks * threads * SAMPLES, pi = 4.0 * hits / total;
  bool ok = hits == ref && fabs(pi - M_PI) < 0.01;
  printf("monte_carlo_pi: %.0f samples, pi ~ %.5f, %s\n", total, pi, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
