// How long a device memset takes by size on the H200 (run on the device machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/memset_sizes.cu -o /tmp/ms && /tmp/ms
// Per size, eight cudaMemset calls back to back on the default stream, timed with events
// (median of 9 runs after two warm-ups, probe.h), per memset: on one buffer with value 0, on
// one buffer with value 0x5a, on eight separate buffers with 0x5a, and eight cudaMemsetAsync
// on one buffer; and runs of 1 to 128 memsets of 64 KB. Output: memset_sizes.h200.txt. No validation suite's configuration.
#include "../probe.h"


int main() {
  const size_t sizes[] = {2 << 10, 4 << 10, 6 << 10, 8 << 10, 12 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10,
                          1 << 20, 4 << 20, 16 << 20, 64 << 20};
  unsigned char *buf[8];
  for (auto &b : buf) PROBE_CHECK(cudaMalloc(&b, 64 << 20));
  for (size_t bytes : sizes) {
    float zero = median_us([&] { for (int r = 0; r < 8; ++r) PROBE_CHECK(cudaMemset(buf[0], 0, bytes)); });
    float value = median_us([&] { for (int r = 0; r < 8; ++r) PROBE_CHECK(cudaMemset(buf[0], 0x5a, bytes)); });
    float spread = median_us([&] { for (int r = 0; r < 8; ++r) PROBE_CHECK(cudaMemset(buf[r], 0x5a, bytes)); });
    float async = median_us([&] { for (int r = 0; r < 8; ++r) PROBE_CHECK(cudaMemsetAsync(buf[0], 0, bytes)); });
    std::printf("RESULT memset bytes=%zu per_memset_us zero=%.2f value=%.2f eight_buffers=%.2f async=%.2f\n",
                bytes, zero / 8, value / 8, spread / 8, async / 8);
  }
  // Runs of n back-to-back 64 KB memsets: the first's cost against the steady rate.
  for (int n : {1, 2, 4, 8, 32, 128}) {
    float t = median_us([&] { for (int r = 0; r < n; ++r) PROBE_CHECK(cudaMemset(buf[0], 0, 64 << 10)); });
    std::printf("RESULT memset_run bytes=65536 count=%d total_us=%.2f per_memset_us=%.2f\n", n, t, t / n);
  }
  PROBE_CHECK(cudaDeviceSynchronize());
  return 0;
}
