// Small-copy overhead probe (CUDA; run on the device machine):
//   nvcc -O2 -arch=sm_90 tests/hardware/probes/copy_queue.cu -o /tmp/cq && /tmp/cq
// For pinned host buffers of 4 KB and 64 KB, host-to-device, device-to-host and alternating:
// - sync: one synchronous cudaMemcpy between two events on an idle GPU (best of 21): the
//   latency an isolated copy shows;
// - burst: N cudaMemcpyAsync back to back on stream 0 between two events (host and GPU
//   overlap), per copy;
// - queued: the same N copies issued while a long kernel keeps the GPU busy, timed from the
//   kernel's end: the copy engine's own cost per copy, the host's hidden;
// - host: wall time of one cudaMemcpyAsync call on the host (from the burst).
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void busy(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
}

int main() {
  const size_t maxBytes = 65536;
  void *host, *dev;
  cudaMallocHost(&host, maxBytes);
  cudaMalloc(&dev, maxBytes);
  cudaEvent_t a, b, c;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventCreate(&c);
  auto ms = [](cudaEvent_t x, cudaEvent_t y) { float t; cudaEventElapsedTime(&t, x, y); return t; };
  const char *names[] = {"h2d", "d2h", "alternate"};
  for (size_t bytes : {size_t(4096), size_t(65536)}) {
    for (int mode = 0; mode < 3; ++mode) {
      auto copy = [&](int k, bool async) {
        bool up = mode == 0 || (mode == 2 && k % 2 == 0);
        if (async)
          cudaMemcpyAsync(up ? dev : host, up ? host : dev, bytes,
                          up ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, 0);
        else
          cudaMemcpy(up ? dev : host, up ? host : dev, bytes,
                     up ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
      };
      for (int k = 0; k < 20; ++k) copy(k, true);
      cudaDeviceSynchronize();
      float sync = 1e9;
      for (int r = 0; r < 21; ++r) {
        cudaEventRecord(a); copy(r, false); cudaEventRecord(b); cudaEventSynchronize(b);
        sync = ms(a, b) < sync ? ms(a, b) : sync;
      }
      for (int n : {10, 100}) {
        float burst = 1e9, queued = 1e9;
        double hostUs = 1e9;
        for (int r = 0; r < 11; ++r) {
          cudaEventRecord(a);
          auto h0 = std::chrono::steady_clock::now();
          for (int k = 0; k < n; ++k) copy(k, true);
          auto h1 = std::chrono::steady_clock::now();
          cudaEventRecord(b);
          cudaEventSynchronize(b);
          burst = ms(a, b) < burst ? ms(a, b) : burst;
          double h = std::chrono::duration<double, std::micro>(h1 - h0).count();
          hostUs = h < hostUs ? h : hostUs;
          busy<<<1, 1>>>(2000000); // about 1 ms at 1980 MHz
          cudaEventRecord(a);
          for (int k = 0; k < n; ++k) copy(k, true);
          cudaEventRecord(c);
          cudaEventSynchronize(c);
          queued = ms(a, c) < queued ? ms(a, c) : queued;
        }
        std::printf("RESULT copy bytes=%zu mode=%s n=%d sync_us=%.2f burst_us_per_copy=%.2f "
                    "queued_us_per_copy=%.2f host_us_per_call=%.2f\n",
                    bytes, names[mode], n, sync * 1000, burst * 1000 / n, queued * 1000 / n,
                    hostUs / n);
      }
    }
  }
  std::printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
