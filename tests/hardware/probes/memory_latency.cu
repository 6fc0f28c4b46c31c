// Memory latency and L2 residency probe (CUDA; run on the device machine):
//   nvcc -O2 -arch=sm_90 tests/hardware/probes/memory_latency.cu -o /tmp/ml && /tmp/ml
// 1. One thread chases a random cycle of 128-byte lines over working sets from 16 KB to 1 GB:
//    clock64 cycles per dependent load, repeated (warm: L1 or L2) and after a 512 MB sweep
//    (the chain's lines come from DRAM; beyond 128 MB with TLB misses too).
// 2. One warp whose 32 lanes chase 32 independent cycles in a 2 MB set (every access spans 32
//    lines) against one lane alone: what a line costs an uncoalesced access.
// 3. L2 residency across launches: a kernel's time right after a 512 MB sweep (cold L2) and
//    when it repeats (warm), for a pointer chase over 2 MB and for vector adds of 3 x 1 MB up
//    to 3 x 64 MB: at what footprint does a repeated launch stop finding its data in L2?
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)

__global__ void chase1(const unsigned *next, unsigned start, int steps, unsigned *out,
                       long long *cycles) {
  unsigned p = start;
  for (int s = 0; s < 64; ++s) p = next[p]; // warm the TLB and caches along the way
  long long t0 = clock64();
  for (int s = 0; s < steps; ++s) p = next[p];
  long long t1 = clock64();
  out[0] = p;
  cycles[0] = t1 - t0;
}

__global__ void chaseWarp(const unsigned *next, int lanes, int steps, unsigned *out,
                          long long *cycles) {
  unsigned p = threadIdx.x * 4099u * 32u % (1u << 19);
  p &= ~31u;
  for (int s = 0; s < 16; ++s) p = next[p];
  __syncwarp();
  long long t0 = clock64();
  if (threadIdx.x < lanes)
    for (int s = 0; s < steps; ++s) p = next[p];
  __syncwarp();
  long long t1 = clock64();
  out[threadIdx.x] = p;
  if (threadIdx.x == 0) cycles[0] = t1 - t0;
}

__global__ void chaseGrid(const unsigned *next, int steps, unsigned *out) {
  unsigned p = ((blockIdx.x * 32 + threadIdx.x) * 9973u % (1u << 19)) * 32u;
  for (int s = 0; s < steps; ++s) p = next[p];
  out[blockIdx.x * 32 + threadIdx.x] = p;
}

__global__ void add(const float *a, const float *b, float *c, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void sweep(float *p, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) p[i] += 1.0f;
}

// A random cycle over `count` 128-byte lines (32 unsigned each), first word of each line.
static std::vector<unsigned> lineCycle(size_t count, unsigned seed) {
  std::vector<unsigned> order(count);
  for (size_t i = 0; i < count; ++i) order[i] = unsigned(i);
  srand(seed);
  for (size_t i = count - 1; i > 0; --i) std::swap(order[i], order[size_t(rand()) % (i + 1)]);
  std::vector<unsigned> next(count * 32, 0);
  for (size_t i = 0; i < count; ++i) next[size_t(order[i]) * 32] = order[(i + 1) % count] * 32;
  return next;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs, L2 %d bytes\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize);
  unsigned *out;
  long long *cycles, host = 0;
  CHECK(cudaMalloc(&out, 1 << 20));
  CHECK(cudaMalloc(&cycles, 8));
  float *big;
  const size_t bigN = size_t(128) << 20; // 512 MB
  CHECK(cudaMalloc(&big, bigN * 4));
  CHECK(cudaMemset(big, 0, bigN * 4));
  auto flush = [&] { sweep<<<unsigned(bigN / 256), 256>>>(big, bigN); CHECK(cudaDeviceSynchronize()); };

  // 1. Latency by working set.
  for (size_t kb : {16, 64, 128, 512, 2048, 8192, 32768, 131072, 1048576}) {
    size_t lines = kb * 1024 / 128;
    std::vector<unsigned> next = lineCycle(lines, 7);
    unsigned *d;
    CHECK(cudaMalloc(&d, next.size() * 4));
    CHECK(cudaMemcpy(d, next.data(), next.size() * 4, cudaMemcpyHostToDevice));
    const int steps = 4096;
    chase1<<<1, 1>>>(d, 0, steps, out, cycles);
    CHECK(cudaDeviceSynchronize());
    chase1<<<1, 1>>>(d, 0, steps, out, cycles);
    CHECK(cudaMemcpy(&host, cycles, 8, cudaMemcpyDeviceToHost));
    long long warm = host;
    flush(); // the same chain again with L2 swept: DRAM (and TLB) latency where it misses
    chase1<<<1, 1>>>(d, 0, steps, out, cycles);
    CHECK(cudaMemcpy(&host, cycles, 8, cudaMemcpyDeviceToHost));
    std::printf("RESULT latency_one_thread set_kb=%zu cycles_per_load=%.1f "
                "after_l2_sweep=%.1f\n", kb, double(warm) / steps, double(host) / steps);
    CHECK(cudaFree(d));
  }

  // 2. One warp, 32 lanes with their own lines, in a 2 MB set.
  {
    std::vector<unsigned> next = lineCycle(1 << 14, 11);
    unsigned *d;
    CHECK(cudaMalloc(&d, next.size() * 4));
    CHECK(cudaMemcpy(d, next.data(), next.size() * 4, cudaMemcpyHostToDevice));
    for (int lanes : {1, 2, 8, 32}) {
      const int steps = 2048;
      chaseWarp<<<1, 32>>>(d, lanes, steps, out, cycles);
      chaseWarp<<<1, 32>>>(d, lanes, steps, out, cycles);
      CHECK(cudaMemcpy(&host, cycles, 8, cudaMemcpyDeviceToHost));
      std::printf("RESULT warp_lines set_kb=2048 lanes=%d cycles_per_step=%.1f\n", lanes,
                  double(host) / steps);
    }
    CHECK(cudaFree(d));
  }

  // 3. Cold (after a sweep of 512 MB) versus warm (repeated) launches.
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  auto timeIt = [&](auto op) {
    CHECK(cudaEventRecord(e0));
    op();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    return ms * 1000.0;
  };
  {
    std::vector<unsigned> base = lineCycle(size_t(1) << 19, 5); // 64 MB of lines
    unsigned *d;
    CHECK(cudaMalloc(&d, base.size() * 4));
    CHECK(cudaMemcpy(d, base.data(), base.size() * 4, cudaMemcpyHostToDevice));
    for (int blocks : {1, 132}) {
      auto op = [&] { chaseGrid<<<blocks, 32>>>(d, 512, out); };
      op();
      flush();
      double cold = timeIt(op);
      double warm = 1e30;
      for (int r = 0; r < 5; ++r) warm = std::min(warm, timeIt(op));
      std::printf("RESULT chase_grid blocks=%d steps=512 cold_us=%.2f warm_us=%.2f\n", blocks,
                  cold, warm);
    }
    CHECK(cudaFree(d));
  }
  for (size_t mb : {1, 4, 8, 16, 24, 32, 64}) {
    size_t n = mb << 18;
    float *a, *b, *c;
    CHECK(cudaMalloc(&a, n * 4));
    CHECK(cudaMalloc(&b, n * 4));
    CHECK(cudaMalloc(&c, n * 4));
    CHECK(cudaMemset(a, 0, n * 4));
    CHECK(cudaMemset(b, 0, n * 4));
    auto op = [&] { add<<<unsigned((n + 255) / 256), 256>>>(a, b, c, n); };
    op();
    double cold = 1e30, warm = 1e30;
    for (int r = 0; r < 3; ++r) {
      flush();
      cold = std::min(cold, timeIt(op));
    }
    for (int r = 0; r < 5; ++r) warm = std::min(warm, timeIt(op));
    std::printf("RESULT vector_add footprint_mb=%zu cold_us=%.2f warm_us=%.2f\n", 3 * mb, cold,
                warm);
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
  }
  return 0;
}
