// musaDeviceReset while other host threads launch kernels, copy, record events and replay a
// graph in a loop: their calls may fail (handles the reset destroyed, memory it freed), but
// the process never crashes, and after a last reset the device works.
#include "check.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

__global__ void increment(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

int main(int argc, char **argv) {
  const int resets = argc > 1 ? std::atoi(argv[1]) : 30;
  const int n = 4096;
  std::atomic<bool> stop{false};
  std::atomic<long> rounds{0};
  std::vector<std::thread> threads;
  // The threads' host buffers outlive them: as on hardware (where using a device from other
  // threads during a reset is undefined), an asynchronous copy whose stream a reset tore down
  // while it was being submitted may still land after the reset.
  std::vector<std::vector<int>> hosts(3, std::vector<int>(n));
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      std::vector<int> &host = hosts[t];
      std::fill(host.begin(), host.end(), t);
      while (!stop) {
        musaStream_t s = nullptr;
        musaEvent_t e = nullptr;
        musaGraph_t g = nullptr;
        musaGraphExec_t exec = nullptr;
        int *d = nullptr;
        musaStreamCreate(&s);
        musaEventCreate(&e);
        musaMalloc(&d, n * sizeof(int));
        musaMemcpyAsync(d, host.data(), n * sizeof(int), musaMemcpyHostToDevice, s);
        if (t == 0 && musaStreamBeginCapture(s, musaStreamCaptureModeThreadLocal) == 0) {
          increment<<<n / 256, 256, 0, s>>>(d, n);
          if (musaStreamEndCapture(s, &g) == musaSuccess)
            musaGraphInstantiate(&exec, g, 0);
        }
        for (int k = 0; k < 4; ++k)
          increment<<<n / 256, 256, 0, k % 2 ? s : musaStreamPerThread>>>(d, n);
        if (exec)
          musaGraphLaunch(exec, s);
        musaEventRecord(e, s);
        musaStreamWaitEvent(musaStreamPerThread, e, 0);
        musaMemcpyAsync(host.data(), d, n * sizeof(int), musaMemcpyDeviceToHost, s);
        musaEventSynchronize(e);
        musaStreamSynchronize(s);
        musaGraphExecDestroy(exec);
        musaGraphDestroy(g);
        musaEventDestroy(e);
        musaStreamDestroy(s);
        musaFree(d);
        musaGetLastError();
        ++rounds;
      }
    });
  for (int r = 0; r < resets; ++r) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK_MUSA(musaDeviceReset());
  }
  stop = true;
  for (auto &th : threads)
    th.join();
  CHECK(rounds > 0, "no thread finished a round");
  CHECK_MUSA(musaDeviceReset());
  int *d, h[n];
  for (int i = 0; i < n; ++i)
    h[i] = i;
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  CHECK_MUSA(musaMemcpy(d, h, sizeof h, musaMemcpyHostToDevice));
  increment<<<n / 256, 256>>>(d, n);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[100] == 101 && h[n - 1] == n, "after the resets: %d %d", h[100], h[n - 1]);
  CHECK_MUSA(musaFree(d));
  return finish("reset_race");
}
