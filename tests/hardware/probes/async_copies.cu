// Isolated pinned copies between two events on an idle GPU, asynchronous against synchronous,
// on the H200 (run on the device machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/async_copies.cu -o /tmp/ac && /tmp/ac
// Per size and direction, the median of 9 event pairs (after two warm-ups, probe.h) around
// one cudaMemcpyAsync on stream 0 and around one cudaMemcpy; and eight of each back to back
// (per copy). The difference between the two isolated forms is what a synchronous copy adds
// before the end event: the host's return from its wait and the event's submission. Output:
// async_copies.h200.txt.
#include "../probe.h"

int main() {
  const size_t sizes[] = {4 << 10, 64 << 10, 1 << 20, 4 << 20};
  unsigned char *dev = nullptr, *host = nullptr;
  PROBE_CHECK(cudaMalloc(&dev, 4 << 20));
  PROBE_CHECK(cudaMallocHost(&host, 4 << 20));
  for (size_t bytes : sizes) {
    for (int d2h = 0; d2h < 2; ++d2h) {
      cudaMemcpyKind kind = d2h ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
      void *dst = d2h ? static_cast<void *>(host) : dev;
      const void *src = d2h ? static_cast<const void *>(dev) : host;
      float async1 = median_us([&] { PROBE_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, 0)); });
      float sync1 = median_us([&] { PROBE_CHECK(cudaMemcpy(dst, src, bytes, kind)); });
      float async8 = median_us([&] {
        for (int r = 0; r < 8; ++r) PROBE_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, 0));
      });
      float sync8 = median_us([&] {
        for (int r = 0; r < 8; ++r) PROBE_CHECK(cudaMemcpy(dst, src, bytes, kind));
      });
      std::printf("RESULT pinned_copy dir=%s bytes=%zu async_us=%.2f sync_us=%.2f "
                  "async_each_of_8_us=%.2f sync_each_of_8_us=%.2f\n",
                  d2h ? "d2h" : "h2d", bytes, async1, sync1, async8 / 8, sync8 / 8);
    }
  }
  PROBE_CHECK(cudaFreeHost(host));
  PROBE_CHECK(cudaFree(dev));
  return 0;
}
