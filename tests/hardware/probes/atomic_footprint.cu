// Atomic throughput against the footprint the atomics spread over (CUDA; run on the device
// machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/atomic_footprint.cu -o /tmp/af && /tmp/af
// What the timing model's atomic units rest on: how many atomics a cycle the device retires
// when n threads each add to one of `words` 4-byte counters, the counter chosen
// - hash:   by a hash of the thread index (a warp's lanes on ~32 distinct lines);
// - line:   by the thread index (a warp's 32 lanes on one 128-byte line, 32 addresses);
// - sector: by the thread index times 8 (a warp's lanes each on its own 32-byte sector);
// - hashf:  as hash, adding 1.0f to float counters;
// - hashr:  as hash, the old value stored (ATOM with a return instead of RED).
// Each line: kind, words, n, median us of 9 runs after two warm-ups, atomics per ns.
// None of these configurations is one of the validation suites' (tests/validation).
#include <cstdio>
#include <cuda_runtime.h>
#include "../probe.h"

__global__ void add_hash(unsigned *c, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&c[hash_u32(unsigned(i) + 12345u) & mask], 1u);
}
__global__ void add_line(unsigned *c, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&c[unsigned(i) & mask], 1u);
}
__global__ void add_sector(unsigned *c, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&c[(unsigned(i) * 8u) & mask], 1u);
}
__global__ void add_hash_f(float *c, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&c[hash_u32(unsigned(i) + 12345u) & mask], 1.0f);
}
__global__ void add_hash_ret(unsigned *c, unsigned *old, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) old[i] = atomicAdd(&c[hash_u32(unsigned(i) + 12345u) & mask], 1u);
}

int main() {
  const int nmax = 1 << 24;
  const unsigned wmax = 1u << 24;
  unsigned *c, *old;
  if (cudaMalloc(&c, size_t(wmax) * 4) != cudaSuccess ||
      cudaMalloc(&old, size_t(nmax) * 4) != cudaSuccess) {
    std::printf("error cudaMalloc\n");
    return 1;
  }
  cudaMemset(c, 0, size_t(wmax) * 4);
  const unsigned words[] = {16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1u << 20, 1u << 22,
                            1u << 24};
  const int ns[] = {1 << 22, 1 << 24};
  for (int n : ns)
    for (unsigned w : words) {
      unsigned mask = w - 1;
      int blocks = n / 256;
      auto row = [&](const char *kind, float us) {
        std::printf("%s words=%u n=%d us=%.2f per_ns=%.2f\n", kind, w, n, us, n / (us * 1e3f));
      };
      row("hash", median_us([&] { add_hash<<<blocks, 256>>>(c, mask, n); }));
      row("line", median_us([&] { add_line<<<blocks, 256>>>(c, mask, n); }));
      if (w >= 256)
        row("sector", median_us([&] { add_sector<<<blocks, 256>>>(c, mask, n); }));
      row("hashf", median_us([&] { add_hash_f<<<blocks, 256>>>((float *)c, mask, n); }));
      row("hashr", median_us([&] { add_hash_ret<<<blocks, 256>>>(c, old, mask, n); }));
    }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("done: %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
