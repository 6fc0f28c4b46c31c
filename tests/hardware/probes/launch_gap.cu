// Launch overhead probe (CUDA; run on the device machine):
//   nvcc -O2 -arch=sm_90 tests/hardware/probes/launch_gap.cu -o /tmp/lg && /tmp/lg
// - single: one tiny kernel between two events on an idle GPU (launch latency as events see it);
// - burst: N tiny kernels issued back to back between two events (host and GPU overlap);
// - queued: the same N kernels issued while a long kernel keeps the GPU busy, timed from the
//   end of the long kernel: the GPU's own gap between queued launches, host cost hidden;
// - host: wall time of N launch calls on the host.
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tiny(int *p) { if (threadIdx.x == 0) atomicAdd(p, 1); }
__global__ void busy(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}

int main() {
  int *p;
  cudaMalloc(&p, sizeof(int));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto ms = [&] { float t; cudaEventElapsedTime(&t, a, b); return t; };
  for (int i = 0; i < 100; ++i) tiny<<<1, 32>>>(p);
  cudaDeviceSynchronize();
  float best = 1e9;
  for (int r = 0; r < 21; ++r) {
    cudaEventRecord(a); tiny<<<1, 32>>>(p); cudaEventRecord(b); cudaEventSynchronize(b);
    best = ms() < best ? ms() : best;
  }
  std::printf("RESULT single us=%.2f\n", best * 1000);
  for (int n : {10, 100, 1000}) {
    float burst = 1e9, queued = 1e9;
    double host = 1e9;
    for (int r = 0; r < 11; ++r) {
      cudaEventRecord(a);
      auto h0 = std::chrono::steady_clock::now();
      for (int k = 0; k < n; ++k) tiny<<<1, 32>>>(p);
      auto h1 = std::chrono::steady_clock::now();
      cudaEventRecord(b); cudaEventSynchronize(b);
      burst = ms() < burst ? ms() : burst;
      double hu = std::chrono::duration<double, std::micro>(h1 - h0).count();
      host = hu < host ? hu : host;
      busy<<<1, 1>>>(2000000LL * (n / 10 + 1)); // ~1 ms per 10 launches at 1.98 GHz
      cudaEventRecord(a);
      for (int k = 0; k < n; ++k) tiny<<<1, 32>>>(p);
      cudaEventRecord(b); cudaEventSynchronize(b);
      queued = ms() < queued ? ms() : queued;
    }
    std::printf("RESULT launches=%d burst_us_per_launch=%.3f queued_us_per_launch=%.3f "
                "host_us_per_call=%.3f\n", n, burst * 1000 / n, queued * 1000 / n, host / n);
  }
  return 0;
}
