// A host function that calls exit() while kernels run on other streams: the exit handler then
// runs on a stream worker, inside that stream's operation. It must not wait for that very
// operation (the 2 s quiesce limit): exit-in-flight.sh checks the status, the time and that
// nothing is printed.
#include "check.h"

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

static void quit(void *) { std::exit(7); }

int main(int argc, char **argv) {
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
