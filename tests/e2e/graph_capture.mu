// The graphs guide's stream-capture examples: the quick start, example 2 (checked after 1 and
// 3 launches, spec/DECISIONS.md 18), the cross-stream fork/join, and the invalid cases.
#include "check.h"

#include <thread>

__global__ void kernelA(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] *= 2.0f;
}
__global__ void kernelB(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1.0f;
}
__global__ void addInto(float *dst, const float *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    dst[i] += src[i];
}

int main() {
  const int n = 1024;
  float *d_data, *d_other, h[n];
  for (int i = 0; i < n; ++i)
    h[i] = float(i);
  CHECK_MUSA(musaMalloc(&d_data, n * sizeof(float)));
  CHECK_MUSA(musaMalloc(&d_other, n * sizeof(float)));
  CHECK_MUSA(musaMemcpy(d_data, h, sizeof h, musaMemcpyHostToDevice));
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));

  // Example 2: A, B, A captured, then launched.
  musaGraph_t graph;
  CHECK_MUSA(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));
  CHECK(musaStreamIsCapturing(stream) == musaSuccess, "not capturing");
  kernelA<<<4, 256, 0, stream>>>(d_data, n);
  kernelB<<<4, 256, 0, stream>>>(d_data, n);
  kernelA<<<4, 256, 0, stream>>>(d_data, n);
  musaStreamCaptureStatus status;
  unsigned long long id = 0;
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, &id));
  CHECK(status == musaStreamCaptureStatusActive && id != 0, "capture info");
  float probe[4];
  CHECK_MUSA(musaMemcpy(probe, d_data, sizeof probe, musaMemcpyDeviceToHost) ==
                     musaErrorStreamCaptureImplicit
                 ? musaSuccess
                 : musaErrorUnknown);
  // ...the legacy copy above invalidated the capture, as on hardware: start again.
  CHECK(musaStreamEndCapture(stream, &graph) == musaErrorStreamCaptureInvalidated,
        "invalidated capture ended cleanly");
  CHECK(graph == nullptr, "invalidated capture produced a graph");
  CHECK(musaStreamIsCapturing(stream) == musaErrorInvalidValue, "still capturing");

  CHECK_MUSA(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));
  kernelA<<<4, 256, 0, stream>>>(d_data, n);
  kernelB<<<4, 256, 0, stream>>>(d_data, n);
  kernelA<<<4, 256, 0, stream>>>(d_data, n);
  CHECK_MUSA(musaStreamEndCapture(stream, &graph));
  size_t count = 0;
  CHECK_MUSA(musaGraphGetNodes(graph, nullptr, &count));
  CHECK(count == 3, "captured %zu nodes", count);
  CHECK_MUSA(musaMemcpy(h, d_data, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[10] == 10.0f, "capture ran the work: %f", h[10]);
  musaGraphExec_t graphExec;
  CHECK_MUSA(musaGraphInstantiate(&graphExec, graph, 0));
  CHECK_MUSA(musaGraphLaunch(graphExec, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK_MUSA(musaMemcpy(h, d_data, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[10] == (10.0f * 2 + 1) * 2, "after 1 launch: %f", h[10]);
  for (int i = 0; i < 2; ++i)
    CHECK_MUSA(musaGraphLaunch(graphExec, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK_MUSA(musaMemcpy(h, d_data, sizeof h, musaMemcpyDeviceToHost));
  float v = 10.0f;
  for (int i = 0; i < 3; ++i)
    v = (v * 2 + 1) * 2;
  CHECK(h[10] == v, "after 3 launches: %f vs %f", h[10], v);

  // Cross-stream fork and join through events.
  musaStream_t stream1 = stream, stream2;
  CHECK_MUSA(musaStreamCreate(&stream2));
  musaEvent_t event1, event2;
  CHECK_MUSA(musaEventCreate(&event1));
  CHECK_MUSA(musaEventCreate(&event2));
  CHECK_MUSA(musaMemset(d_other, 0, n * sizeof(float)));
  musaGraph_t forkJoin;
  CHECK_MUSA(musaStreamBeginCapture(stream1, musaStreamCaptureModeGlobal));
  kernelB<<<4, 256, 0, stream1>>>(d_data, n);            // A
  CHECK_MUSA(musaEventRecord(event1, stream1));
  CHECK_MUSA(musaStreamWaitEvent(stream2, event1));      // fork
  kernelA<<<4, 256, 0, stream1>>>(d_data, n);            // B
  kernelB<<<4, 256, 0, stream2>>>(d_other, n);           // C
  CHECK_MUSA(musaEventRecord(event2, stream2));
  CHECK_MUSA(musaStreamWaitEvent(stream1, event2));      // join
  addInto<<<4, 256, 0, stream1>>>(d_data, d_other, n);   // D
  CHECK_MUSA(musaStreamEndCapture(stream1, &forkJoin));
  CHECK(musaStreamIsCapturing(stream2) == musaErrorInvalidValue, "stream2 still capturing");
  musaGraphNode_t roots[2];
  count = 2;
  CHECK_MUSA(musaGraphGetRootNodes(forkJoin, roots, &count));
  CHECK(count == 1, "fork/join graph has %zu roots", count);
  // Records and waits only carry dependencies: 4 kernel nodes, A->B, A->C, B->D, C->D.
  musaGraphNode_t nodes[8];
  size_t numNodes = 8;
  CHECK_MUSA(musaGraphGetNodes(forkJoin, nodes, &numNodes));
  CHECK(numNodes == 4, "fork/join graph has %zu nodes", numNodes);
  for (size_t i = 0; i < numNodes && i < 8; ++i) {
    musaGraphNodeType type;
    CHECK_MUSA(musaGraphNodeGetType(nodes[i], &type));
    CHECK(type == musaGraphNodeTypeKernel, "node %zu has type %d", i, (int)type);
  }
  musaGraphNode_t from[8], to[8];
  size_t numEdges = 8;
  CHECK_MUSA(musaGraphGetEdges(forkJoin, from, to, &numEdges));
  CHECK(numEdges == 4, "fork/join graph has %zu edges", numEdges);
  musaGraphNode_t a = roots[0], d = nullptr;
  for (size_t i = 0; i < numNodes && i < 8; ++i) {
    musaKernelNodeParams kp;
    CHECK_MUSA(musaGraphKernelNodeGetParams(nodes[i], &kp));
    if (kp.func == (void *)addInto)
      d = nodes[i];
  }
  CHECK(d != nullptr, "no node launches addInto");
  int fromA = 0, toD = 0;
  for (size_t i = 0; i < numEdges && i < 8; ++i) {
    fromA += from[i] == a;
    toD += to[i] == d;
    CHECK((from[i] == a) != (to[i] == d), "edge %zu is neither A->x nor x->D", i);
  }
  CHECK(fromA == 2 && toD == 2, "A has %d dependents, D %d dependencies", fromA, toD);
  CHECK_MUSA(musaMemcpy(h, d_data, sizeof h, musaMemcpyDeviceToHost));
  float before = h[3];
  musaGraphExec_t forkExec;
  CHECK_MUSA(musaGraphInstantiate(&forkExec, forkJoin, 0));
  CHECK_MUSA(musaGraphLaunch(forkExec, stream1));
  CHECK_MUSA(musaStreamSynchronize(stream1));
  CHECK_MUSA(musaMemcpy(h, d_data, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[3] == (before + 1) * 2 + 1, "fork/join result %f", h[3]);

  // Invalid cases: synchronising a capturing stream; ending on another stream; unjoined fork.
  musaGraph_t bad;
  CHECK_MUSA(musaStreamBeginCapture(stream1, musaStreamCaptureModeGlobal));
  CHECK(musaStreamSynchronize(stream1) == musaErrorStreamCaptureUnsupported, "sync in capture");
  CHECK(musaStreamIsCapturing(stream1) == musaErrorStreamCaptureInvalidated, "not invalidated");
  CHECK(musaStreamEndCapture(stream1, &bad) == musaErrorStreamCaptureInvalidated, "end");
  CHECK_MUSA(musaStreamBeginCapture(stream1, musaStreamCaptureModeGlobal));
  CHECK_MUSA(musaEventRecord(event1, stream1));
  CHECK_MUSA(musaStreamWaitEvent(stream2, event1));
  kernelB<<<4, 256, 0, stream2>>>(d_other, n);
  CHECK(musaStreamEndCapture(stream2, &bad) == musaErrorStreamCaptureUnmatched, "wrong stream");
  CHECK(musaStreamEndCapture(stream1, &bad) == musaErrorStreamCaptureUnjoined, "unjoined fork");
  CHECK(musaStreamBeginCapture(0, musaStreamCaptureModeGlobal) ==
            musaErrorStreamCaptureUnsupported, "legacy stream captured");
  musaGetLastError();

  // Capturing into an existing graph, after one of its nodes; rewriting the dependencies.
  musaGraph_t user;
  CHECK_MUSA(musaGraphCreate(&user, 0));
  musaGraphNode_t start, other;
  CHECK_MUSA(musaGraphAddEmptyNode(&start, user, nullptr, 0));
  CHECK_MUSA(musaGraphAddEmptyNode(&other, user, nullptr, 0));
  musaGraphEdgeData odd = {};
  odd.type = 1;
  CHECK(musaStreamBeginCaptureToGraph(stream1, user, &start, &odd, 1,
                                      musaStreamCaptureModeGlobal) == musaErrorNotSupported,
        "non-default edge data accepted");
  CHECK_MUSA(musaStreamBeginCaptureToGraph(stream1, user, &start, nullptr, 1,
                                           musaStreamCaptureModeGlobal));
  CHECK_MUSA(musaStreamUpdateCaptureDependencies(stream1, &other, 1, musaStreamAddCaptureDependencies));
  kernelB<<<4, 256, 0, stream1>>>(d_data, n);
  musaGraph_t same;
  CHECK_MUSA(musaStreamEndCapture(stream1, &same));
  CHECK(same == user, "capture to graph returned another graph");
  musaGraphNode_t all[3];
  count = 3;
  CHECK_MUSA(musaGraphGetNodes(user, all, &count));
  CHECK(count == 3, "user graph has %zu nodes", count);
  size_t deps = 0;
  musaGraphEdgeData data[2];
  deps = 2;
  CHECK_MUSA(musaGraphNodeGetDependencies_v2(all[2], nullptr, data, &deps));
  CHECK(deps == 2 && data[0].type == 0, "captured node depends on both given nodes");
  CHECK(musaGraphAddDependencies_v2(user, &start, &other, &odd, 1) == musaErrorNotSupported,
        "non-default edge accepted");
  musaStreamCaptureMode mode = musaStreamCaptureModeRelaxed;
  CHECK_MUSA(musaThreadExchangeStreamCaptureMode(&mode));
  CHECK(mode == musaStreamCaptureModeGlobal, "previous mode %d", (int)mode);
  CHECK_MUSA(musaThreadExchangeStreamCaptureMode(&mode));
  CHECK(mode == musaStreamCaptureModeRelaxed, "exchanged mode %d", (int)mode);
  CHECK_MUSA(musaGraphDestroy(user));
  musaGetLastError();

  // Capture modes: potentially unsafe calls (here musaMalloc) during a capture.
  auto mallocFromAnotherThread = [] {
    musaError_t e;
    std::thread([&e] {
      void *p = nullptr;
      e = musaMalloc(&p, 16);
      if (e == musaSuccess)
        musaFree(p);
    }).join();
    return e;
  };
  void *scratch = nullptr;
  musaGraph_t modeGraph;
  CHECK_MUSA(musaStreamBeginCapture(stream1, musaStreamCaptureModeGlobal));
  CHECK(mallocFromAnotherThread() == musaErrorStreamCaptureUnsupported,
        "Global capture allows another thread's musaMalloc");
  CHECK(musaStreamEndCapture(stream1, &modeGraph) == musaErrorStreamCaptureInvalidated,
        "the prohibited call invalidates a Global capture");
  CHECK_MUSA(musaStreamBeginCapture(stream1, musaStreamCaptureModeThreadLocal));
  CHECK_MUSA(mallocFromAnotherThread()); // other threads are free under ThreadLocal
  CHECK(musaMalloc(&scratch, 16) == musaErrorStreamCaptureUnsupported,
        "ThreadLocal capture allows its own thread's musaMalloc");
  CHECK(musaStreamEndCapture(stream1, &modeGraph) == musaErrorStreamCaptureInvalidated, "end");
  CHECK_MUSA(musaStreamBeginCapture(stream1, musaStreamCaptureModeRelaxed));
  CHECK_MUSA(musaMalloc(&scratch, 16)); // Relaxed allows it
  CHECK_MUSA(musaFree(scratch));
  CHECK_MUSA(musaStreamEndCapture(stream1, &modeGraph));
  CHECK_MUSA(musaGraphDestroy(modeGraph));
  CHECK_MUSA(musaStreamBeginCapture(stream1, musaStreamCaptureModeThreadLocal));
  musaStreamCaptureMode relaxed = musaStreamCaptureModeRelaxed;
  CHECK_MUSA(musaThreadExchangeStreamCaptureMode(&relaxed)); // this thread opts out
  CHECK_MUSA(musaMalloc(&scratch, 16));
  CHECK_MUSA(musaFree(scratch));
  CHECK_MUSA(musaThreadExchangeStreamCaptureMode(&relaxed));
  CHECK_MUSA(musaEventRecord(event1, stream1));
  CHECK(musaEventQuery(event1) == musaErrorStreamCaptureUnsupported,
        "query of an event recorded in the capture");
  CHECK(musaStreamEndCapture(stream1, &modeGraph) == musaErrorStreamCaptureInvalidated, "end");
  musaGetLastError();
  CHECK_MUSA(musaGraphExecDestroy(graphExec));
  CHECK_MUSA(musaGraphExecDestroy(forkExec));
  CHECK_MUSA(musaGraphDestroy(graph));
  CHECK_MUSA(musaGraphDestroy(forkJoin));
  return finish("graph_capture");
}
