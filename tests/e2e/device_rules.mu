// Runtime rules CUDA documents that a helper's probe programs found broken (2026-12-05):
// - a kernel launch into a stream of another device fails ("A kernel launch will fail if it
//   is issued to a stream that is not associated to the current device");
// - musaEventElapsedTime of events of two devices fails;
// - musaPointerGetAttributes of pinned or registered host memory names the device that was
//   current when it was allocated, not the current one;
// - musaStreamEndCapture of a global-mode capture from another thread gives
//   musaErrorStreamCaptureWrongThread, and the capture goes on;
// - musaGetErrorName of an unknown code is "unrecognized error code".
// Run with two devices (MUSA_SIM_PROFILE=h200,h200).
#include <string.h>

#include <thread>

#include "check.h"

__global__ void store(int *p, int v) { *p = v; }

int main() {
  int count = 0;
  CHECK_MUSA(musaGetDeviceCount(&count));
  CHECK(count >= 2, "needs two devices, has %d", count);
  if (count < 2)
    return finish("device_rules");

  // A stream of device 0 used while device 1 is current.
  CHECK_MUSA(musaSetDevice(0));
  musaStream_t s0;
  CHECK_MUSA(musaStreamCreate(&s0));
  int *d0;
  CHECK_MUSA(musaMalloc(&d0, sizeof(int)));
  CHECK_MUSA(musaMemset(d0, 0, sizeof(int)));
  musaEvent_t e0, e1;
  CHECK_MUSA(musaEventCreate(&e0));
  CHECK_MUSA(musaEventRecord(e0, s0));
  CHECK_MUSA(musaSetDevice(1));
  store<<<1, 1, 0, s0>>>(d0, 42);
  CHECK(musaGetLastError() == musaErrorInvalidResourceHandle,
        "a launch into device 0's stream from device 1 was not refused");
  CHECK_MUSA(musaEventCreate(&e1));
  CHECK_MUSA(musaEventRecord(e1, 0));
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaSetDevice(0));
  CHECK_MUSA(musaDeviceSynchronize());
  int v = -1;
  CHECK_MUSA(musaMemcpy(&v, d0, sizeof v, musaMemcpyDeviceToHost));
  CHECK(v == 0, "the refused launch ran (value %d)", v);
  float ms = -1;
  CHECK(musaEventElapsedTime(&ms, e0, e1) == musaErrorInvalidResourceHandle,
        "elapsed time between two devices' events did not fail");

  // Host memory remembers the device current when it was allocated or registered.
  CHECK_MUSA(musaSetDevice(1));
  void *pinned;
  CHECK_MUSA(musaMallocHost(&pinned, 4096));
  static char registered[8192];
  CHECK_MUSA(musaHostRegister(registered, sizeof registered, musaHostRegisterDefault));
  CHECK_MUSA(musaSetDevice(0));
  musaPointerAttributes attributes;
  CHECK_MUSA(musaPointerGetAttributes(&attributes, pinned));
  CHECK(attributes.type == musaMemoryTypeHost && attributes.device == 1,
        "pinned memory from device 1: type %d device %d", int(attributes.type),
        attributes.device);
  CHECK_MUSA(musaPointerGetAttributes(&attributes, registered + 100));
  CHECK(attributes.type == musaMemoryTypeHost && attributes.device == 1,
        "registered memory from device 1: type %d device %d", int(attributes.type),
        attributes.device);
  CHECK_MUSA(musaHostUnregister(registered));
  CHECK_MUSA(musaFreeHost(pinned));

  // A global-mode capture ends only on the thread that began it.
  musaStream_t s;
  CHECK_MUSA(musaStreamCreate(&s));
  CHECK_MUSA(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  store<<<1, 1, 0, s>>>(d0, 7);
  musaGraph_t graph = nullptr;
  musaError_t other = musaSuccess;
  std::thread([&] {
    CHECK_MUSA(musaSetDevice(0));
    other = musaStreamEndCapture(s, &graph);
  }).join();
  CHECK(other == musaErrorStreamCaptureWrongThread, "another thread's end gave %s",
        musaGetErrorName(other));
  CHECK_MUSA(musaStreamEndCapture(s, &graph));
  CHECK(graph != nullptr, "the capturing thread got no graph");
  if (graph)
    CHECK_MUSA(musaGraphDestroy(graph));
  CHECK_MUSA(musaStreamDestroy(s));

  CHECK(strcmp(musaGetErrorName(musaError_t(123456)), "unrecognized error code") == 0,
        "unknown code's name: %s", musaGetErrorName(musaError_t(123456)));

  CHECK_MUSA(musaStreamDestroy(s0));
  CHECK_MUSA(musaFree(d0));
  return finish("device_rules");
}
