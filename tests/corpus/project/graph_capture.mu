// A graph made by stream capture (copy in, two kernels, copy out; a fork onto a second stream joined by events), instantiated once and launched 20 times.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void addOne(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += 1;
}
__global__ void doubleIt(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= 2;
}

int main() {
  const int n = 1 << 16, launches = 20;
  int *h, *d, *d2;
  CHECK(musaMallocHost(&h, n * sizeof(int)));
  CHECK(musaMalloc(&d, n * sizeof(int)));
  CHECK(musaMalloc(&d2, n * sizeof(int)));
  CHECK(musaMemset(d2, 0, n * sizeof(int)));
  for (int i = 0; i < n; ++i)
    h[i] = i % 100;
  musaStream_t s, side;
  CHECK(musaStreamCreateWithFlags(&s, musaStreamNonBlocking));
  CHECK(musaStreamCreateWithFlags(&side, musaStreamNonBlocking));
  musaEvent_t fork, join;
  CHECK(musaEventCreateWithFlags(&fork, musaEventDisableTiming));
  CHECK(musaEventCreateWithFlags(&join, musaEventDisableTiming));

  musaGraph_t graph;
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal));
  musaStreamCaptureStatus status;
  CHECK(musaStreamIsCapturing(s, &status));
  bool ok = status == musaStreamCaptureStatusActive;
  CHECK(musaMemcpyAsync(d, h, n * sizeof(int), musaMemcpyHostToDevice, s));
  CHECK(musaEventRecord(fork, s));
  CHECK(musaStreamWaitEvent(side, fork, 0));
  addOne<<<n / 256, 256, 0, side>>>(d2, n); // independent branch: counts launches
  CHECK(musaEventRecord(join, side));
  addOne<<<n / 256, 256, 0, s>>>(d, n);
  doubleIt<<<n / 256, 256, 0, s>>>(d, n);
  CHECK(musaStreamWaitEvent(s, join, 0));
  CHECK(musaMemcpyAsync(h, d, n * sizeof(int), musaMemcpyDeviceToHost, s));
  CHECK(musaStreamEndCapture(s, &graph));
  size_t nodes = 0;
  CHECK(musaGraphGetNodes(graph, nullptr, &nodes));
  ok = ok && nodes == 5;

  musaGraphExec_t exec;
  CHECK(musaGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  int *ref = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    ref[i] = i % 100;
  for (int l = 0; l < launches; ++l) {
    CHECK(musaGraphLaunch(exec, s));
    for (int i = 0; i < n; ++i)
      ref[i] = (ref[i] + 1) * 2;
  }
  CHECK(musaStreamSynchronize(s));
  int *counts = (int *)malloc(n * sizeof(int));
  CHECK(musaMemcpy(counts, d2, n * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    if ((h[i] != ref[i] || counts[i] != launches) && bad++ < 5)
      printf("element %d: %d (expected %d), count %d\n", i, h[i], ref[i], counts[i]);
  ok = ok && !bad;
  CHECK(musaGraphExecDestroy(exec));
  CHECK(musaGraphDestroy(graph));
  printf("graph_capture: %zu nodes, %d launches, %s\n", nodes, launches, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
