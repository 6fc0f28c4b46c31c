// Graphs-guide snippets at the edges of the API, each checked against CUDA's behaviour (an
// H200 probe: tests/hardware/graph_corner_cases.h200.txt) or spec/DECISIONS.md:
// 1. 带标志的实例化: `musaGraphInstantiateWithFlags(&exec, graph)` (flags default to 0).
// 2. 实例化标志: DeviceLaunch instantiates a graph of kernel, memcpy and memset nodes (the graph
//    still launches from the host; device code cannot launch graphs here).
// 3. Edge data: only the default is accepted; anything else is musaErrorNotSupported
//    (DECISIONS.md 13) in musaGraphAddDependencies_v2 and musaStreamBeginCaptureToGraph.
// 4. 捕获内省: the graph musaStreamGetCaptureInfo returns during a plain capture is a live graph:
//    it can be queried and extended (not destroyed), and its nodes are usable handles.
// 5. 更新限制: musaGraphExecMemcpyNodeSetParams may not change a copy's direction.
// 6. 节点启用与禁用: only kernel, memcpy and memset nodes can be disabled.
#include "check.h"

__global__ void addOne(int *p) {
  if (threadIdx.x == 0) *p += 1;
}

// 4. The capture's graph and dependency nodes, used during a plain capture.
static void captureGraphOut(int *d) {
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  CHECK_MUSA(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));
  addOne<<<1, 1, 0, stream>>>(d);
  enum musaStreamCaptureStatus status;
  musaGraph_t graph = NULL;
  const musaGraphNode_t *deps = NULL;
  size_t numDeps = 0;
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &numDeps));
  musaGraphNode_t kernelNode = numDeps == 1 ? deps[0] : NULL;
  size_t count = 0;
  musaError_t e = musaGraphGetNodes(graph, NULL, &count);
  CHECK(e == musaSuccess && count == 1, "musaGraphGetNodes(graph_out): %s, %zu nodes",
        musaGetErrorName(e), count);
  musaGraphNodeType type;
  e = musaGraphNodeGetType(kernelNode, &type);
  CHECK(e == musaSuccess && type == musaGraphNodeTypeKernel, "musaGraphNodeGetType(deps[0]): %s",
        musaGetErrorName(e));
  musaGraphNode_t extra = NULL;
  e = musaGraphAddEmptyNode(&extra, graph, NULL, 0);
  CHECK(e == musaSuccess, "musaGraphAddEmptyNode(graph_out): %s", musaGetErrorName(e));
  e = musaStreamUpdateCaptureDependencies(stream, &extra, 1);
  CHECK(e == musaSuccess, "musaStreamUpdateCaptureDependencies(added node): %s",
        musaGetErrorName(e));
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &numDeps));
  CHECK(numDeps == 2, "dependencies after the update: %zu", numDeps);
  musaGraph_t captured = NULL;
  CHECK_MUSA(musaStreamEndCapture(stream, &captured));
  count = 0;
  if (captured) {
    CHECK_MUSA(musaGraphGetNodes(captured, NULL, &count));
    CHECK(count == 2, "captured graph holds the kernel and the added node: %zu", count);
    musaGraphDestroy(captured);
  }
  musaGetLastError();
  musaStreamDestroy(stream);
}

// 5. and 6.
static void execSetters() {
  static int h[16];
  int *d;
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  musaMemcpy3DParms p = {0};
  p.srcPtr = make_musaPitchedPtr(h, sizeof h, 16, 1);
  p.dstPtr = make_musaPitchedPtr(d, sizeof h, 16, 1);
  p.extent = make_musaExtent(sizeof h, 1, 1);
  p.kind = musaMemcpyHostToDevice;
  musaGraphNode_t copy, empty;
  CHECK_MUSA(musaGraphAddMemcpyNode(&copy, graph, NULL, 0, &p));
  CHECK_MUSA(musaGraphAddEmptyNode(&empty, graph, &copy, 1));
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
  musaMemcpy3DParms r = {0};
  r.srcPtr = make_musaPitchedPtr(d, sizeof h, 16, 1);
  r.dstPtr = make_musaPitchedPtr(h, sizeof h, 16, 1);
  r.extent = make_musaExtent(sizeof h, 1, 1);
  r.kind = musaMemcpyDeviceToHost;
  musaError_t e = musaGraphExecMemcpyNodeSetParams(exec, copy, &r);
  CHECK(e == musaErrorInvalidValue, "transfer kind changed by the exec setter: %s",
        musaGetErrorName(e));
  e = musaGraphNodeSetEnabled(exec, empty, 0);
  CHECK(e == musaErrorInvalidValue, "an empty node disabled: %s", musaGetErrorName(e));
  musaGetLastError();
  musaGraphExecDestroy(exec);
  musaGraphDestroy(graph);
  musaFree(d);
}

static musaGraph_t oneKernel(int **d) {
  static void *args[1];
  args[0] = d;
  musaKernelNodeParams kp = {0};
  kp.func = (void *)addOne;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  musaGraphNode_t node;
  CHECK_MUSA(musaGraphAddKernelNode(&node, graph, NULL, 0, &kp));
  return graph;
}

int main() {
  int *d;
  CHECK_MUSA(musaMalloc(&d, sizeof(int)));
  CHECK_MUSA(musaMemset(d, 0, sizeof(int)));
  musaGraph_t graph = oneKernel(&d);
  musaGraphExec_t exec;

  // 1. The guide's default flags argument.
  CHECK_MUSA(musaGraphInstantiateWithFlags(&exec, graph));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaGraphExecDestroy(exec));

  // 2. DeviceLaunch: instantiation succeeds in CUDA; the graph can still be launched from the
  //    host (it must be uploaded first in CUDA; musaGraphUpload does that).
  musaError_t e = musaGraphInstantiateWithFlags(&exec, graph, musaGraphInstantiateFlagDeviceLaunch);
  CHECK(e == musaSuccess, "DeviceLaunch instantiation: %s", musaGetErrorName(e));
  // ... but not of a graph with other node types, nor together with AutoFreeOnLaunch.
  musaGraph_t withEmpty;
  musaGraphNode_t emptyNode;
  musaGraphExec_t refused;
  CHECK_MUSA(musaGraphCreate(&withEmpty, 0));
  CHECK_MUSA(musaGraphAddEmptyNode(&emptyNode, withEmpty, NULL, 0));
  CHECK(musaGraphInstantiateWithFlags(&refused, withEmpty, musaGraphInstantiateFlagDeviceLaunch) ==
            musaErrorInvalidValue, "DeviceLaunch accepted an empty node");
  CHECK(musaGraphInstantiateWithFlags(&refused, graph, musaGraphInstantiateFlagDeviceLaunch |
                                                           musaGraphInstantiateFlagAutoFreeOnLaunch) ==
            musaErrorInvalidValue, "DeviceLaunch accepted AutoFreeOnLaunch");
  CHECK_MUSA(musaGraphDestroy(withEmpty));
  if (e == musaSuccess) {
    CHECK_MUSA(musaGraphUpload(exec, 0));
    CHECK_MUSA(musaGraphLaunch(exec, 0));
    CHECK_MUSA(musaStreamSynchronize(0));
    CHECK_MUSA(musaGraphExecDestroy(exec));
  }
  musaGetLastError();

  // 3. Edge data other than the default (DECISIONS.md 13).
  musaGraph_t g;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  musaGraphNode_t a, b;
  CHECK_MUSA(musaGraphAddEmptyNode(&a, g, NULL, 0));
  CHECK_MUSA(musaGraphAddEmptyNode(&b, g, NULL, 0));
  musaGraphEdgeData odd = {};
  odd.type = 1;
  e = musaGraphAddDependencies_v2(g, &a, &b, &odd, 1);
  // CUDA answers musaErrorInvalidValue for an edge type it does not know.
  CHECK(e == musaErrorNotSupported || (onHardware() && e == musaErrorInvalidValue),
        "AddDependencies_v2 with edge type 1: %s", musaGetErrorName(e));
  musaStream_t s;
  CHECK_MUSA(musaStreamCreate(&s));
  e = musaStreamBeginCaptureToGraph(s, g, &a, &odd, 1, musaStreamCaptureModeGlobal);
  CHECK(e == musaErrorNotSupported || (onHardware() && e == musaErrorInvalidValue),
        "BeginCaptureToGraph with edge type 1: %s", musaGetErrorName(e));
  if (e == musaSuccess) {
    musaGraph_t out;
    musaStreamEndCapture(s, &out);
  }
  musaGetLastError();
  musaStreamDestroy(s);
  musaGraphDestroy(g);
  musaGraphDestroy(graph);
  captureGraphOut(d);
  execSetters();
  musaFree(d);
  return finish("guide_graphs_bugs");
}
