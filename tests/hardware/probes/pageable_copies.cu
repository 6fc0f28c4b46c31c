// Pageable against pinned host copies by direction and size on the H200 (run on the device
// machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/pageable_copies.cu -o /tmp/pc && /tmp/pc
// Per size and direction, one synchronous cudaMemcpy from or to a malloc'd host buffer that
// was written first (pageable: the driver stages it through pinned bounce buffers), and from
// or to cudaMallocHost memory (median of 9 event-timed runs after two warm-ups, probe.h).
// Also the pageable copies into a freshly malloc'd buffer never touched before (its pages
// are faulted in during the copy). Output: pageable_copies.h200.txt. Asked by the first
// suite's memcpy_h2d_pageable 64 MB (8.9 ms measured; the model had one pageable factor for
// both directions).
#include "../probe.h"

#include <cstring>

int main() {
  const size_t sizes[] = {4 << 10, 64 << 10, 256 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20,
                          16 << 20, 32 << 20, 64 << 20, 256 << 20};
  const size_t most = 256 << 20;
  unsigned char *dev = nullptr, *pinned = nullptr;
  PROBE_CHECK(cudaMalloc(&dev, most));
  PROBE_CHECK(cudaMallocHost(&pinned, most));
  auto *host = static_cast<unsigned char *>(std::malloc(most));
  std::memset(host, 1, most);
  std::memset(pinned, 1, most);
  for (size_t bytes : sizes) {
    float h2d = median_us([&] { PROBE_CHECK(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice)); });
    float d2h = median_us([&] { PROBE_CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost)); });
    float h2dPinned =
        median_us([&] { PROBE_CHECK(cudaMemcpy(dev, pinned, bytes, cudaMemcpyHostToDevice)); });
    float d2hPinned =
        median_us([&] { PROBE_CHECK(cudaMemcpy(pinned, dev, bytes, cudaMemcpyDeviceToHost)); });
    std::printf("RESULT copy bytes=%zu pageable_h2d_us=%.1f pageable_d2h_us=%.1f pinned_h2d_us=%.1f "
                "pinned_d2h_us=%.1f pageable_h2d_GBs=%.2f pageable_d2h_GBs=%.2f\n",
                bytes, h2d, d2h, h2dPinned, d2hPinned, bytes / (h2d * 1e3), bytes / (d2h * 1e3));
  }
  // Into or out of host memory never touched before: one copy each, timed with events.
  cudaEvent_t a, b;
  PROBE_CHECK(cudaEventCreate(&a));
  PROBE_CHECK(cudaEventCreate(&b));
  for (size_t bytes : {size_t(1) << 20, size_t(16) << 20, size_t(64) << 20}) {
    for (int dir = 0; dir < 2; ++dir) {
      auto *fresh = static_cast<unsigned char *>(std::malloc(bytes));
      PROBE_CHECK(cudaEventRecord(a));
      if (dir == 0)
        PROBE_CHECK(cudaMemcpy(dev, fresh, bytes, cudaMemcpyHostToDevice));
      else
        PROBE_CHECK(cudaMemcpy(fresh, dev, bytes, cudaMemcpyDeviceToHost));
      PROBE_CHECK(cudaEventRecord(b));
      PROBE_CHECK(cudaEventSynchronize(b));
      float ms = 0;
      PROBE_CHECK(cudaEventElapsedTime(&ms, a, b));
      std::printf("RESULT untouched_copy bytes=%zu dir=%s us=%.1f\n", bytes, dir ? "d2h" : "h2d",
                  ms * 1e3);
      std::free(fresh);
    }
  }
  std::free(host);
  PROBE_CHECK(cudaFreeHost(pinned));
  PROBE_CHECK(cudaFree(dev));
  return 0;
}
