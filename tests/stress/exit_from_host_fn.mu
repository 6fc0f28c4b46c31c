// A host function that calls exit() while kernels run on other streams: the exit handler then
// runs on a stream worker, inside that stream's operation. It must not wait for that very
// operation (the 2 s quiesce limit). exit-in-flight.sh checks the status and that nothing is
// printed; an exit handler of the program's own, which runs after the runtime's, measures how
// long the runtime's took and complains on stderr when it is anywhere near that limit.
#include "check.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

__global__ void spin(float *p, int n, int iterations) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = p[i];
  for (int k = 0; k < iterations; ++k)
    x = x * 0.999f + 0.5f;
  p[i] = x;
}

static std::chrono::steady_clock::time_point exitStart;
static std::atomic<bool> exiting{false};

static void quit(void *) {
  exitStart = std::chrono::steady_clock::now();
  exiting = true;
  std::exit(7);
}

// Registered before the runtime exists, so it runs after the runtime's handler (exit runs
// them in reverse order); the runtime then answers musaErrorCudartUnloading.
static void afterRuntimeExit() {
  if (!exiting)
    return;
  int count;
  if (musaGetDeviceCount(&count) != musaErrorCudartUnloading) {
    std::fprintf(stderr, "FAIL: this handler ran before the runtime's\n");
    return;
  }
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - exitStart)
                .count();
  // Running blocks stop at their next block, a few milliseconds; waiting for the host
  // function's own operation would take the full 2 s.
  if (ms >= 1000)
    std::fprintf(stderr, "FAIL: the runtime's exit handler took %lld ms\n", (long long)ms);
}

int main(int argc, char **argv) {
  std::atexit(afterRuntimeExit);
  const int iterations = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int n = 1 << 14;
  float *d;
  CHECK_MUSA(musaMalloc(&d, 2 * n * sizeof(float)));
  musaStream_t busy, host;
  CHECK_MUSA(musaStreamCreate(&busy));
  CHECK_MUSA(musaStreamCreate(&host));
  // The host stream's work first, so that the busy kernels (whose length cycles with the
  // argument) cannot hold the workers it needs: exit comes while they are queued or running.
  spin<<<n / 256, 256, 0, host>>>(d + n, n, 10);
  CHECK_MUSA(musaLaunchHostFunc(host, quit, nullptr));
  for (int k = 0; k < 8; ++k)
    spin<<<n / 256, 256, 0, busy>>>(d, n, iterations);
  // The host function's exit ends the process meanwhile. Once it has begun, calls return
  // musaErrorCudartUnloading (this one too, if it was waiting): then wait here for the end, as
  // a program whose other thread exits must (returning from main would race that exit).
  musaError_t e = musaDeviceSynchronize();
  if (e == musaErrorCudartUnloading)
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  std::printf("FAIL: main outlived the host function's exit (synchronize returned %s)\n",
              musaGetErrorName(e));
  return 1;
}
