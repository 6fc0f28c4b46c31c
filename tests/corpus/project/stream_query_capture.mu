// musaStreamQuery/musaEventQuery/musaEventElapsedTime returning musaErrorNotReady while a stream is
// held behind a host function waiting on a flag; then stream capture corners: musaStreamIsCapturing,
// musaStreamGetCaptureInfo ids across a fork/join of two streams and the captured topology,
// musaThreadExchangeStreamCaptureMode (relaxed lets musaMalloc through), synchronous calls and queries
// that invalidate a capture, ending a capture from the wrong thread, capturing the legacy stream.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <atomic>
#include <thread>
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

__global__ void addOne(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}
__global__ void twice(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2;
}
static std::atomic<int> gate{0};
static void MUSART_CB waitGate(void *) {
  while (!gate.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

int main() {
  bool ok = true;
  const int n = 1024;
  int *d;
  CHECK(musaMalloc(&d, n * sizeof(int)));
  CHECK(musaMemset(d, 0, n * sizeof(int)));
  musaStream_t s, s2;
  CHECK(musaStreamCreateWithFlags(&s, musaStreamNonBlocking));
  CHECK(musaStreamCreateWithFlags(&s2, musaStreamNonBlocking));
  musaEvent_t start, stop, never, e1, e2;
  CHECK(musaEventCreate(&start));
  CHECK(musaEventCreate(&stop));
  CHECK(musaEventCreate(&never));
  CHECK(musaEventCreateWithFlags(&e1, musaEventDisableTiming));
  CHECK(musaEventCreateWithFlags(&e2, musaEventDisableTiming));

  // ---- NotReady while work is pending ----
  CHECK(musaStreamQuery(s)); // idle stream
  CHECK(musaEventRecord(start, s));
  CHECK(musaLaunchHostFunc(s, waitGate, nullptr));
  addOne<<<n / 256, 256, 0, s>>>(d, n);
  CHECK(musaEventRecord(stop, s));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT(musaStreamQuery(s) == musaErrorNotReady);
  EXPECT(musaEventQuery(stop) == musaErrorNotReady);
  EXPECT(musaEventQuery(start) == musaSuccess);
  EXPECT(musaEventQuery(never) == musaSuccess); // never recorded: complete
  float ms = -1;
  EXPECT(musaEventElapsedTime(&ms, start, stop) == musaErrorNotReady);
  musaError_t last = musaGetLastError();
  printf("last error after NotReady results: %s\n", musaGetErrorName(last));
  EXPECT(musaEventElapsedTime(&ms, start, never) == musaErrorInvalidResourceHandle);
  musaGetLastError();
  EXPECT(musaStreamQuery(s2) == musaSuccess); // other stream unaffected
  gate = 1;
  CHECK(musaStreamSynchronize(s));
  EXPECT(musaStreamQuery(s) == musaSuccess && musaEventQuery(stop) == musaSuccess);
  CHECK(musaEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0.0f);
  int h[n];
  CHECK(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  EXPECT(h[0] == 1 && h[n - 1] == 1);

  // ---- capture status and ids across a fork/join ----
  musaStreamCaptureStatus st;
  CHECK(musaStreamIsCapturing(s, &st));
  EXPECT(st == musaStreamCaptureStatusNone);
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  CHECK(musaStreamIsCapturing(s, &st));
  EXPECT(st == musaStreamCaptureStatusActive);
  unsigned long long id1 = 0, id2 = 0;
  musaGraph_t capGraph = nullptr;
  const musaGraphNode_t *deps = nullptr;
  size_t ndeps = 99;
  CHECK(musaStreamGetCaptureInfo(s, &st, &id1, &capGraph, &deps, &ndeps));
  EXPECT(st == musaStreamCaptureStatusActive && id1 != 0 && capGraph != nullptr && ndeps == 0);
  addOne<<<n / 256, 256, 0, s>>>(d, n);
  CHECK(musaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, &ndeps));
  EXPECT(ndeps == 1);
  CHECK(musaEventRecord(e1, s));
  CHECK(musaStreamIsCapturing(s2, &st));
  EXPECT(st == musaStreamCaptureStatusNone);
  CHECK(musaStreamWaitEvent(s2, e1, 0)); // s2 joins the capture
  CHECK(musaStreamGetCaptureInfo(s2, &st, &id2));
  EXPECT(st == musaStreamCaptureStatusActive && id2 == id1);
  twice<<<n / 256, 256, 0, s2>>>(d, n);
  CHECK(musaEventRecord(e2, s2));
  CHECK(musaStreamWaitEvent(s, e2, 0));
  addOne<<<n / 256, 256, 0, s>>>(d, n);
  musaGraph_t g = nullptr;
  CHECK(musaStreamEndCapture(s, &g));
  EXPECT(g == capGraph);
  CHECK(musaStreamIsCapturing(s2, &st));
  EXPECT(st == musaStreamCaptureStatusNone);
  size_t nn = 0, ne = 0, nr = 0;
  CHECK(musaGraphGetNodes(g, nullptr, &nn));
  CHECK(musaGraphGetEdges(g, nullptr, nullptr, &ne));
  CHECK(musaGraphGetRootNodes(g, nullptr, &nr));
  printf("captured: %zu nodes, %zu edges, %zu roots\n", nn, ne, nr);
  EXPECT(nn == 3 && ne == 3 && nr == 1); // A->B, B->C and A->C: the wait adds B to s's dependency set {A}
  musaGraphExec_t ge;
  CHECK(musaGraphInstantiate(&ge, g, 0));
  CHECK(musaGraphLaunch(ge, s));
  CHECK(musaStreamSynchronize(s));
  CHECK(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  EXPECT(h[5] == (1 + 1) * 2 + 1);
  unsigned long long id3 = 0;
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  CHECK(musaStreamGetCaptureInfo(s, &st, &id3));
  EXPECT(id3 != id1);

  // ---- musaThreadExchangeStreamCaptureMode ----
  musaStreamCaptureMode mode = musaStreamCaptureModeRelaxed;
  CHECK(musaThreadExchangeStreamCaptureMode(&mode));
  EXPECT(mode == musaStreamCaptureModeGlobal); // the thread's previous mode
  void *tmp = nullptr;
  CHECK(musaMalloc(&tmp, 256)); // allowed in relaxed mode
  CHECK(musaFree(tmp));
  CHECK(musaThreadExchangeStreamCaptureMode(&mode));
  EXPECT(mode == musaStreamCaptureModeRelaxed);
  CHECK(musaStreamIsCapturing(s, &st));
  EXPECT(st == musaStreamCaptureStatusActive);
  musaError_t e = musaMalloc(&tmp, 256); // prohibited in global mode
  printf("musaMalloc during global capture: %s\n", musaGetErrorName(e));
  EXPECT(e == musaErrorStreamCaptureUnsupported);
  musaGetLastError();
  CHECK(musaStreamIsCapturing(s, &st));
  EXPECT(st == musaStreamCaptureStatusInvalidated);
  g = (musaGraph_t)0x1;
  EXPECT(musaStreamEndCapture(s, &g) == musaErrorStreamCaptureInvalidated && g == nullptr);
  musaGetLastError();

  // ---- synchronising / querying a capturing stream invalidates the capture ----
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeThreadLocal));
  addOne<<<1, 32, 0, s>>>(d, n);
  EXPECT(musaStreamSynchronize(s) == musaErrorStreamCaptureUnsupported);
  musaGetLastError();
  CHECK(musaStreamIsCapturing(s, &st));
  EXPECT(st == musaStreamCaptureStatusInvalidated);
  EXPECT(musaStreamEndCapture(s, &g) == musaErrorStreamCaptureInvalidated && g == nullptr);
  musaGetLastError();
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  EXPECT(musaStreamQuery(s) == musaErrorStreamCaptureUnsupported);
  musaGetLastError();
  EXPECT(musaStreamEndCapture(s, &g) == musaErrorStreamCaptureInvalidated);
  musaGetLastError();

  // ---- ending a global-mode capture from another thread ----
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  addOne<<<1, 32, 0, s>>>(d, n);
  musaError_t other = musaSuccess;
  std::thread([&] { other = musaStreamEndCapture(s, &g); }).join();
  printf("end capture from another thread: %s\n", musaGetErrorName(other));
  EXPECT(other == musaErrorStreamCaptureWrongThread);
  if (other == musaSuccess) {
    CHECK(musaGraphDestroy(g));
  } else {
    CHECK(musaStreamEndCapture(s, &g));
    CHECK(musaGraphDestroy(g));
  }
  // Relaxed mode: any thread may end it.
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeRelaxed));
  addOne<<<1, 32, 0, s>>>(d, n);
  std::thread([&] { other = musaStreamEndCapture(s, &g); }).join();
  EXPECT(other == musaSuccess);
  if (other == musaSuccess) CHECK(musaGraphDestroy(g));

  // ---- the legacy stream cannot be captured ----
  e = musaStreamBeginCapture(0, musaStreamCaptureModeGlobal);
  printf("capture legacy stream: %s\n", musaGetErrorName(e));
  EXPECT(e == musaErrorStreamCaptureUnsupported);
  musaGetLastError();
  // The runtime still works.
  addOne<<<n / 256, 256, 0, s>>>(d, n);
  CHECK(musaStreamSynchronize(s));
  CHECK(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  EXPECT(h[100] == 6 && h[0] == 6);

  CHECK(musaGraphExecDestroy(ge));
  CHECK(musaGraphDestroy(capGraph));
  CHECK(musaStreamDestroy(s));
  CHECK(musaStreamDestroy(s2));
  CHECK(musaFree(d));
  printf("stream_query_capture: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
