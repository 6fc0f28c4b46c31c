// A bandwidthTest-style host program in plain C++: host-to-device, device-to-host and
// device-to-device copies from pageable and pinned memory, timed with events, data verified.
#include <musa_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      std::printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

static float timeCopy(void *dst, const void *src, size_t bytes, musaMemcpyKind kind, int reps) {
  musaEvent_t start, stop;
  CHECK(musaEventCreate(&start));
  CHECK(musaEventCreate(&stop));
  CHECK(musaEventRecord(start, 0));
  for (int r = 0; r < reps; ++r)
    CHECK(musaMemcpyAsync(dst, src, bytes, kind, 0));
  CHECK(musaEventRecord(stop, 0));
  CHECK(musaEventSynchronize(stop));
  float ms = 0.0f;
  CHECK(musaEventElapsedTime(&ms, start, stop));
  CHECK(musaEventDestroy(start));
  CHECK(musaEventDestroy(stop));
  return ms;
}

int main() {
  const size_t bytes = 8u << 20;
  const int reps = 4;
  std::vector<unsigned char> pageable(bytes), back(bytes);
  for (size_t i = 0; i < bytes; ++i)
    pageable[i] = (unsigned char)(i * 31 + 7);
  unsigned char *pinned, *dA, *dB;
  CHECK(musaMallocHost(&pinned, bytes));
  CHECK(musaMalloc(&dA, bytes));
  CHECK(musaMalloc(&dB, bytes));
  for (size_t i = 0; i < bytes; ++i)
    pinned[i] = (unsigned char)(i * 13 + 1);
  float ms[5];
  ms[0] = timeCopy(dA, pageable.data(), bytes, musaMemcpyHostToDevice, reps);
  ms[1] = timeCopy(dA, pinned, bytes, musaMemcpyHostToDevice, reps);
  ms[2] = timeCopy(dB, dA, bytes, musaMemcpyDeviceToDevice, reps);
  ms[3] = timeCopy(back.data(), dB, bytes, musaMemcpyDeviceToHost, reps);
  ms[4] = timeCopy(pinned, dB, bytes, musaMemcpyDeviceToHost, reps);
  const char *names[] = {"H2D pageable", "H2D pinned", "D2D", "D2H pageable", "D2H pinned"};
  bool ok = true;
  for (int k = 0; k < 5; ++k) {
    double gbs = ms[k] > 0 ? (double)bytes * reps / (ms[k] * 1e6) : 0.0;
    std::printf("  %-13s %8.3f ms  %7.2f GB/s\n", names[k], ms[k], gbs);
    ok = ok && ms[k] > 0.0f;
  }
  for (size_t i = 0; i < bytes; ++i)
    ok = ok && back[i] == (unsigned char)(i * 13 + 1) && pinned[i] == back[i];
  CHECK(musaFreeHost(pinned));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  std::printf("host_bandwidth: %zu MiB x %d per direction, %s\n", bytes >> 20, reps,
              ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
