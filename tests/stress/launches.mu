// Stress: T host threads (argv[1], default 16) each make L launches (argv[2], default 10,000)
// on their own stream, the per-thread default stream or the legacy stream, with event records,
// stream waits and asynchronous copies between them; every launch adds one to its thread's
// slice. Each thread checks its slice every 1,000 launches and at the end; the process must
// end with every slice at L and no error.
#include "check.h"

#include <atomic>
#include <thread>
#include <vector>

__global__ void addOne(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

int main(int argc, char **argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 16;
  const int launches = argc > 2 ? std::atoi(argv[2]) : 10000;
  const int n = 512;
  std::atomic<int> failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      auto fail = [&](const char *what, int got, int want) {
        if (failures++ < 8)
          std::printf("FAIL thread %d: %s: got %d, want %d\n", t, what, got, want);
      };
      int *d = nullptr, *host = nullptr;
      musaStream_t own = nullptr;
      musaEvent_t ev = nullptr;
      if (musaMalloc(&d, n * sizeof(int)) != musaSuccess ||
          musaMallocHost(&host, n * sizeof(int)) != musaSuccess ||
          musaStreamCreateWithFlags(&own, musaStreamNonBlocking) != musaSuccess ||
          musaEventCreateWithFlags(&ev, musaEventDisableTiming) != musaSuccess) {
        fail("set-up", 0, 1);
        return;
      }
      musaMemsetAsync(d, 0, n * sizeof(int), own);
      // Thread 0 uses the legacy stream, every fourth the per-thread one, the rest their own.
      musaStream_t s = t == 0 ? musaStreamLegacy : t % 4 == 1 ? musaStreamPerThread : own;
      musaEventRecord(ev, own);
      musaStreamWaitEvent(s, ev, 0);
      for (int k = 1; k <= launches; ++k) {
        addOne<<<(n + 127) / 128, 128, 0, s>>>(d, n);
        if (k % 97 == 0 && k < launches) { // an event hop onto the thread's own stream and back
          musaEventRecord(ev, s);
          musaStreamWaitEvent(own, ev, 0);
          addOne<<<(n + 127) / 128, 128, 0, own>>>(d, n);
          musaEventRecord(ev, own);
          musaStreamWaitEvent(s, ev, 0);
          ++k;
        }
        if (k % 1000 == 0 || k == launches) {
          musaMemcpyAsync(host, d, n * sizeof(int), musaMemcpyDeviceToHost, s);
          if (musaStreamSynchronize(s) != musaSuccess) {
            fail("synchronize", 0, 1);
            break;
          }
          if (host[0] != k || host[n - 1] != k) {
            fail("slice", host[0] != k ? host[0] : host[n - 1], k);
            break;
          }
        }
      }
      if (musaGetLastError() != musaSuccess)
        fail("last error", 1, 0);
      musaEventDestroy(ev);
      musaStreamDestroy(own);
      musaFreeHost(host);
      musaFree(d);
    });
  for (auto &th : pool)
    th.join();
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK(failures == 0, "%d failures", failures.load());
  std::printf("%d threads x %d launches checked\n", threads, launches);
  return finish("stress_launches");
}
