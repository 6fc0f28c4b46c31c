// Per-device state with two devices (the programming guide's "Stream and Event Behavior" rules):
// a kernel launched into another device's stream fails, a copy into it succeeds; musaEventRecord of
// an event into another device's stream fails; musaEventElapsedTime of events of two devices fails;
// musaEventQuery/Synchronize and musaStreamWaitEvent across devices succeed, and the wait orders a
// peer copy on device 1 after a slow kernel on device 0. Also musaStreamGetDevice, the current
// device per host thread, per-device limits and musaDeviceReset of one device only.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread>
#include <atomic>
#include <chrono>
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("mismatch %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
      ok = false;                                                      \
    }                                                                  \
  } while (0)

__global__ void fill(int *p, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
static void MUSART_CB sleepHost(void *) { std::this_thread::sleep_for(std::chrono::milliseconds(100)); }

int main() {
  bool ok = true;
  int ndev = 0;
  CHECK(musaGetDeviceCount(&ndev));
  if (ndev < 2) {
    printf("multi_device_streams: PASSED (needs two devices; skipped)\n");
    return 0;
  }
  const int n = 1 << 14;
  int *d0, *d1;
  musaStream_t s0, s1;
  musaEvent_t e0, e1, t0;
  CHECK(musaSetDevice(0));
  CHECK(musaMalloc(&d0, n * sizeof(int)));
  CHECK(musaStreamCreateWithFlags(&s0, musaStreamNonBlocking));
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&t0));
  CHECK(musaSetDevice(1));
  CHECK(musaMalloc(&d1, n * sizeof(int)));
  CHECK(musaStreamCreateWithFlags(&s1, musaStreamNonBlocking));
  CHECK(musaEventCreate(&e1));
  int dev = -1;
  CHECK(musaStreamGetDevice(s0, &dev));
  EXPECT(dev == 0);
  CHECK(musaStreamGetDevice(s1, &dev));
  EXPECT(dev == 1);

  // Current device 1. Kernel into device 0's stream: fails.
  fill<<<n / 256, 256, 0, s0>>>(d0, n, 1);
  musaError_t e = musaGetLastError();
  printf("launch into other device's stream: %s\n", musaGetErrorName(e));
  EXPECT(e != musaSuccess);
  // A copy into it succeeds.
  int h[4] = {1, 2, 3, 4};
  e = musaMemcpyAsync(d0, h, sizeof h, musaMemcpyHostToDevice, s0);
  printf("copy into other device's stream: %s\n", musaGetErrorName(e));
  EXPECT(e == musaSuccess);
  CHECK(musaStreamSynchronize(s0));
  // Recording device 0's event into device 1's stream fails.
  e = musaEventRecord(e0, s1);
  printf("record event of device 0 into stream of device 1: %s\n", musaGetErrorName(e));
  EXPECT(e != musaSuccess);
  musaGetLastError();

  // Device 0: slow work (host function sleeping, then the kernel) then record e0.
  CHECK(musaSetDevice(0));
  CHECK(musaEventRecord(t0, s0));
  CHECK(musaLaunchHostFunc(s0, sleepHost, nullptr));
  fill<<<n / 256, 256, 0, s0>>>(d0, n, 1000);
  CHECK(musaGetLastError());
  CHECK(musaEventRecord(e0, s0));
  // Device 1: wait for e0 (cross-device wait), then pull device 0's data.
  CHECK(musaSetDevice(1));
  CHECK(musaStreamWaitEvent(s1, e0, 0));
  CHECK(musaMemcpyPeerAsync(d1, 1, d0, 0, n * sizeof(int), s1));
  CHECK(musaEventRecord(e1, s1));
  // Query of a device 0 event from device 1 is allowed (NotReady or Success).
  e = musaEventQuery(e0);
  printf("query of other device's pending event: %s\n", musaGetErrorName(e));
  EXPECT(e == musaErrorNotReady || e == musaSuccess);
  musaGetLastError();
  CHECK(musaEventSynchronize(e0));
  CHECK(musaEventQuery(e0));
  CHECK(musaStreamSynchronize(s1));
  int *hb = (int *)malloc(n * sizeof(int));
  CHECK(musaMemcpy(hb, d1, n * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hb[i] != 1000 + i;
  EXPECT(bad == 0);
  // Elapsed time between events of one device works, between two devices fails.
  float ms = -1;
  CHECK(musaEventElapsedTime(&ms, t0, e0));
  EXPECT(ms >= 0.0f);
  e = musaEventElapsedTime(&ms, e0, e1);
  printf("elapsed time across devices: %s\n", musaGetErrorName(e));
  EXPECT(e != musaSuccess);
  musaGetLastError();

  // The current device is per host thread: a new thread starts on device 0.
  int other = -1;
  std::thread th([&] { musaGetDevice(&other); });
  th.join();
  CHECK(musaGetDevice(&dev));
  EXPECT(other == 0 && dev == 1);
  // Limits are per device.
  size_t fifo0 = 0, fifo1 = 0;
  CHECK(musaDeviceSetLimit(musaLimitPrintfFifoSize, 4u << 20));
  CHECK(musaSetDevice(0));
  CHECK(musaDeviceGetLimit(&fifo0, musaLimitPrintfFifoSize));
  CHECK(musaSetDevice(1));
  CHECK(musaDeviceGetLimit(&fifo1, musaLimitPrintfFifoSize));
  printf("printf fifo dev0 %zu dev1 %zu\n", fifo0, fifo1);
  EXPECT(fifo1 == (4u << 20) && fifo0 != fifo1);

  // Resetting device 1 leaves device 0's memory and stream alone.
  CHECK(musaStreamDestroy(s1));
  CHECK(musaEventDestroy(e1));
  CHECK(musaDeviceReset());
  CHECK(musaSetDevice(0));
  CHECK(musaMemcpyAsync(hb, d0, n * sizeof(int), musaMemcpyDeviceToHost, s0));
  CHECK(musaStreamSynchronize(s0));
  EXPECT(hb[n - 1] == 1000 + n - 1);
  musaPointerAttributes pa;
  CHECK(musaPointerGetAttributes(&pa, d1));
  EXPECT(pa.type == musaMemoryTypeUnregistered); // device 1's allocation went with the reset

  CHECK(musaStreamDestroy(s0));
  CHECK(musaEventDestroy(e0));
  CHECK(musaEventDestroy(t0));
  CHECK(musaFree(d0));
  free(hb);
  printf("multi_device_streams: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
