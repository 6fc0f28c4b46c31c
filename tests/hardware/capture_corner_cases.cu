// Probe: which calls a stream capture refuses in each mode, on real hardware (nvcc, run on
// the device machine). Output: one "case: result" line each; the simulator follows it.
#include <cstdio>
#include <cuda_runtime.h>
#include <thread>

#include "probe.h"

static void CUDART_CB hostFn(void *) {}

static const char *endCapture(cudaStream_t s) {
  cudaGraph_t g = nullptr;
  cudaError_t e = cudaStreamEndCapture(s, &g);
  if (g)
    cudaGraphDestroy(g);
  cudaGetLastError();
  return cudaGetErrorName(e);
}


int main() {
  cudaStream_t blocking, nonBlocking;
  cudaStreamCreate(&blocking);
  cudaStreamCreateWithFlags(&nonBlocking, cudaStreamNonBlocking);
  char *d = nullptr, host[64] = {};
  cudaMalloc(&d, 64);
  void *p = nullptr;
  const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal,
                                         cudaStreamCaptureModeThreadLocal,
                                         cudaStreamCaptureModeRelaxed};
  const char *names[] = {"global", "threadlocal", "relaxed"};
  for (int m = 0; m < 3; ++m) {
    for (int nb = 0; nb < 2; ++nb) {
      cudaStream_t s = nb ? nonBlocking : blocking;
      const char *kind = nb ? "nonblocking" : "blocking";
      char label[128];
      cudaStreamBeginCapture(s, modes[m]);
      std::snprintf(label, sizeof label, "%s %s: cudaMemcpy (legacy, sync)", names[m], kind);
      SHOW(label, cudaMemcpy(d, host, 64, cudaMemcpyHostToDevice));
      std::printf("%s %s: end after cudaMemcpy: %s\n", names[m], kind, endCapture(s));
      cudaStreamBeginCapture(s, modes[m]);
      std::snprintf(label, sizeof label, "%s %s: host func on legacy stream", names[m], kind);
      SHOW(label, cudaLaunchHostFunc(0, hostFn, nullptr));
      std::printf("%s %s: end after legacy host func: %s\n", names[m], kind, endCapture(s));
      cudaStreamBeginCapture(s, modes[m]);
      std::snprintf(label, sizeof label, "%s %s: cudaMalloc same thread", names[m], kind);
      cudaError_t e = cudaMalloc(&p, 64);
      std::printf("%s: %s\n", label, cudaGetErrorName(e));
      if (e == cudaSuccess)
        cudaFree(p);
      cudaGetLastError();
      std::printf("%s %s: end after cudaMalloc: %s\n", names[m], kind, endCapture(s));
      cudaStreamBeginCapture(s, modes[m]);
      cudaError_t other = cudaSuccess;
      std::thread([&] {
        void *q = nullptr;
        other = cudaMalloc(&q, 64);
        if (other == cudaSuccess)
          cudaFree(q);
        cudaGetLastError();
      }).join();
      std::printf("%s %s: cudaMalloc other thread: %s\n", names[m], kind, cudaGetErrorName(other));
      std::printf("%s %s: end after other-thread cudaMalloc: %s\n", names[m], kind, endCapture(s));
    }
  }
  // Edge data with a non-default type (CUDA 13: the dependency calls take edge data).
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t a, b;
  cudaGraphAddEmptyNode(&a, g, nullptr, 0);
  cudaGraphAddEmptyNode(&b, g, nullptr, 0);
  cudaGraphEdgeData data = {};
  data.type = cudaGraphDependencyTypeProgrammatic;
  SHOW("edge data programmatic between empty nodes", cudaGraphAddDependencies(g, &a, &b, &data, 1));
  SHOW("remove missing edge", cudaGraphRemoveDependencies(g, &b, &a, nullptr, 1));
  cudaGraphDestroy(g);
  cudaFree(d);
  return 0;
}
