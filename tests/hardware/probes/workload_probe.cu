// Workload-mechanism probe (CUDA; run on the device machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/workload_probe.cu -o /tmp/wp && /tmp/wp
// Measures, with events (median of 9 runs after two warm-ups), what the timing model's
// constant-cache, atomic, integer-division, kernel-concurrency, launch and small-copy
// mechanisms rest on. No configuration here is one of the validation suites' (tests/validation),
// so what is taken from here is not fitted to them.
// - const_k: 2^20 threads read a __constant__ table 64 times; a warp's lanes touch k distinct
//   addresses per read (k = 1 .. 32).
// - atomic_scatter: 2^22 atomicAdd (float, or unsigned) to hashed addresses among `slots`.
// - divide: 2^22 threads, 16 unsigned (or signed, or 64-bit) divisions and remainders each by
//   a run-time divisor.
// - concurrent: S streams, each 8 launches of B one-warp blocks running a dependent FMA chain
//   of 8192 steps; and full-GPU launches (264 x 256 threads) on 1 and 4 streams.
// - launches: N empty kernels on a stream; a graph of N empty kernel nodes; a graph of N
//   memset nodes.
// - small copies: 50 x (4 KB memset), 50 x (4 KB copy) for each kind.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include "../probe.h"
#include <vector>

#define CHECK(x)                                                                             \
  do {                                                                                       \
    cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                 \
      std::printf("error %s at %d\n", cudaGetErrorString(e_), __LINE__);                     \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

__constant__ float c_table[1024];

__global__ void const_k(float *out, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int lane = (threadIdx.x & 31) % k;
  float s = 0.f;
  for (int it = 0; it < 64; ++it) s += c_table[(it * 41 + lane * 7) & 1023];
  out[i] = s;
}

__global__ void scatter_f(float *slots, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&slots[hash_u32(i) & mask], 1.0f);
}
__global__ void scatter_u(unsigned *slots, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&slots[hash_u32(i) & mask], 1u);
}

template <class T> __global__ void divide(const T *in, T *out, int n, T d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T x = in[i], acc = 0;
  for (int k = 0; k < 16; ++k) {
    acc += x / d + x % d;
    x = x * T(1664525) + T(1013904223);
  }
  out[i] = acc;
}

__global__ void fma_chain(float *out, int steps) {
  float x = threadIdx.x * 1e-3f, y = 0.999f;
  for (int s = 0; s < steps; ++s) x = fmaf(x, y, 0.5f);
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void empty_kernel() {}

int main() {
  std::printf("# nvcc -O3 -arch=sm_90 tests/hardware/probes/workload_probe.cu -o /tmp/wp && /tmp/wp\n");
  const int n = 1 << 22;
  float *f;
  unsigned *u;
  CHECK(cudaMalloc(&f, (1 << 24) * sizeof(float)));
  CHECK(cudaMalloc(&u, (1 << 24) * sizeof(unsigned)));
  CHECK(cudaMemset(u, 1, (1 << 24) * sizeof(unsigned)));
  std::vector<float> table(1024);
  for (int i = 0; i < 1024; ++i) table[i] = float(i % 13);
  CHECK(cudaMemcpyToSymbol(c_table, table.data(), sizeof(float) * 1024));

  for (int k : {1, 2, 4, 8, 16, 32})
    std::printf("RESULT const_k n=1048576 iters=64 k=%d us=%.2f\n", k,
                median_us([&] { const_k<<<4096, 256>>>(f, 1 << 20, k); }));
  for (int slots : {1 << 10, 1 << 14, 1 << 18, 1 << 20, 1 << 22, 1 << 24}) {
    float tf = median_us([&] { scatter_f<<<n / 256, 256>>>(f, slots - 1, n); });
    float tu = median_us([&] { scatter_u<<<n / 256, 256>>>(u, slots - 1, n); });
    std::printf("RESULT atomic_scatter n=4194304 slots=%d float_us=%.2f unsigned_us=%.2f\n",
                slots, tf, tu);
  }
  for (int m : {1 << 20, 1 << 22}) {
    float t32 = median_us([&] { divide<unsigned><<<m / 256, 256>>>(u, u + m, m, 1000003u); });
    float ts = median_us([&] { divide<int><<<m / 256, 256>>>((int *)u, (int *)u + m, m, 1000003); });
    float t64 = median_us([&] {
      divide<unsigned long long><<<m / 256, 256>>>((unsigned long long *)u,
                                                   (unsigned long long *)u + m, m, 1000003ull);
    });
    std::printf("RESULT divide n=%d u32_us=%.2f s32_us=%.2f u64_us=%.2f\n", m, t32, ts, t64);
  }

  cudaStream_t streams[8];
  for (auto &s : streams) CHECK(cudaStreamCreate(&s));
  for (int blocks : {16, 64, 132})
    for (int ns : {1, 2, 4, 8}) {
      float t = median_us([&] {
        for (int l = 0; l < 8; ++l)
          for (int s = 0; s < ns; ++s) fma_chain<<<blocks, 32, 0, streams[s]>>>(f, 8192);
      });
      std::printf("RESULT concurrent blocks=%d threads=32 steps=8192 streams=%d launches_per_stream=8 us=%.2f\n",
                  blocks, ns, t);
    }
  for (int ns : {1, 4}) {
    float t = median_us([&] {
      for (int l = 0; l < 8; ++l)
        for (int s = 0; s < ns; ++s) fma_chain<<<264, 256, 0, streams[s]>>>(f, 2048);
    });
    std::printf("RESULT concurrent blocks=264 threads=256 steps=2048 streams=%d launches_per_stream=8 us=%.2f\n", ns, t);
  }

  for (int count : {1, 10, 100}) {
    float ts = median_us([&] { for (int l = 0; l < count; ++l) empty_kernel<<<1, 32, 0, streams[0]>>>(); });
    cudaGraph_t g;
    cudaGraphExec_t ge;
    CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
    for (int l = 0; l < count; ++l) empty_kernel<<<1, 32, 0, streams[0]>>>();
    CHECK(cudaStreamEndCapture(streams[0], &g));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    float tg = median_us([&] { CHECK(cudaGraphLaunch(ge, streams[0])); });
    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamBeginCapture(streams[0], cudaStreamCaptureModeGlobal));
    for (int l = 0; l < count; ++l) CHECK(cudaMemsetAsync(u + l * 1024, 0, 4096, streams[0]));
    CHECK(cudaStreamEndCapture(streams[0], &g));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    float tm = median_us([&] { CHECK(cudaGraphLaunch(ge, streams[0])); });
    CHECK(cudaGraphExecDestroy(ge));
    CHECK(cudaGraphDestroy(g));
    std::printf("RESULT launches n=%d stream_us=%.2f graph_kernels_us=%.2f graph_memsets_us=%.2f\n",
                count, ts, tg, tm);
  }

  void *pinned, *pageable = std::malloc(1 << 20);
  CHECK(cudaMallocHost(&pinned, 1 << 20));
  for (int bytes : {4096, 65536}) {
    float tms = median_us([&] { for (int r = 0; r < 50; ++r) CHECK(cudaMemset(u, 0, bytes)); });
    float tmsa = median_us([&] { for (int r = 0; r < 50; ++r) CHECK(cudaMemsetAsync(u, 0, bytes)); });
    float td2h = median_us([&] { for (int r = 0; r < 50; ++r) CHECK(cudaMemcpy(pinned, u, bytes, cudaMemcpyDeviceToHost)); });
    float th2d = median_us([&] { for (int r = 0; r < 50; ++r) CHECK(cudaMemcpy(u, pinned, bytes, cudaMemcpyHostToDevice)); });
    float td2hp = median_us([&] { for (int r = 0; r < 50; ++r) CHECK(cudaMemcpy(pageable, u, bytes, cudaMemcpyDeviceToHost)); });
    float th2dp = median_us([&] { for (int r = 0; r < 50; ++r) CHECK(cudaMemcpy(u, pageable, bytes, cudaMemcpyHostToDevice)); });
    float td2d = median_us([&] { for (int r = 0; r < 50; ++r) CHECK(cudaMemcpy(u + (1 << 20), u, bytes, cudaMemcpyDeviceToDevice)); });
    float td2ha = median_us([&] { for (int r = 0; r < 50; ++r) CHECK(cudaMemcpyAsync(pinned, u, bytes, cudaMemcpyDeviceToHost)); });
    std::printf("RESULT small_copies bytes=%d reps=50 memset_us=%.2f memset_async_us=%.2f d2h_pinned_us=%.2f "
                "h2d_pinned_us=%.2f d2h_pageable_us=%.2f h2d_pageable_us=%.2f d2d_us=%.2f d2h_pinned_async_us=%.2f\n",
                bytes, tms, tmsa, td2h, th2d, td2hp, th2dp, td2d, td2ha);
  }
  CHECK(cudaDeviceSynchronize());
  return 0;
}
