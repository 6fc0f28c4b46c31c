// The graphs guide's stream-capture snippets (方法 2：流捕获) not already in graph_capture.mu:
// the declarations and enums of 步骤 1-4 and 捕获内省, 基本捕获示例 with three different kernels,
// musaStreamGetCaptureInfo with all six arguments, and musaStreamUpdateCaptureDependencies with
// its default flags and with the replace flag. See GRAPHS_GUIDE_COVERAGE.md.
#include "check.h"

template <class T> using GuideSignature = T;
#define GUIDE_SIGNATURE(fn, ...) [[maybe_unused]] static GuideSignature<__VA_ARGS__> const sig_##fn = fn
GUIDE_SIGNATURE(musaStreamBeginCapture, musaError_t (*)(musaStream_t, enum musaStreamCaptureMode));
GUIDE_SIGNATURE(musaStreamBeginCaptureToGraph,
                musaError_t (*)(musaStream_t, musaGraph_t, const musaGraphNode_t *,
                                const musaGraphEdgeData *, size_t, enum musaStreamCaptureMode));
GUIDE_SIGNATURE(musaStreamEndCapture, musaError_t (*)(musaStream_t, musaGraph_t *));
GUIDE_SIGNATURE(musaStreamGetCaptureInfo,
                musaError_t (*)(musaStream_t, enum musaStreamCaptureStatus *, unsigned long long *,
                                musaGraph_t *, const musaGraphNode_t **, size_t *));
GUIDE_SIGNATURE(musaStreamIsCapturing, musaError_t (*)(musaStream_t));
GUIDE_SIGNATURE(musaStreamUpdateCaptureDependencies,
                musaError_t (*)(musaStream_t, musaGraphNode_t *, size_t, unsigned int));

// 步骤 1 and 捕获内省: the enums, in the guide's (and CUDA's) order.
static_assert(musaStreamCaptureModeGlobal == 0 && musaStreamCaptureModeThreadLocal == 1 &&
                  musaStreamCaptureModeRelaxed == 2, "musaStreamCaptureMode");
static_assert(musaStreamCaptureStatusNone == 0 && musaStreamCaptureStatusActive == 1 &&
                  musaStreamCaptureStatusInvalidated == 2, "musaStreamCaptureStatus");

// The three kernels of 基本捕获示例 (the guide leaves them and their arguments as "..."):
// different operations, so the order of the captured nodes shows in the result.
__global__ void kernel_A(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] + 1.0f;
}
__global__ void kernel_B(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 2.0f;
}
__global__ void kernel_C(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] - 3.0f;
}

static const int N = 1024;

static void load(float *d, float v) {
  float h[N];
  for (int i = 0; i < N; i++) h[i] = v + i;
  CHECK_MUSA(musaMemcpy(d, h, sizeof h, musaMemcpyHostToDevice));
}

static float run(musaGraph_t graph, float *d, float start, musaStream_t stream) {
  load(d, start);
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
  CHECK_MUSA(musaGraphLaunch(exec, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK_MUSA(musaGraphExecDestroy(exec));
  float h[N];
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  return h[0]; // element 0 went through the chain from `start`
}

// 基本捕获示例. Fragment completion: grid/block and the kernels' arguments.
static void basicCapture(float *d_x) {
  dim3 grid((N + 255) / 256), block(256);
  int n = N;

  musaGraph_t graph;
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));

  // 开始捕获
  CHECK_MUSA(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));

  // 提交工作（这些操作将被捕获到图中）
  kernel_A<<<grid, block, 0, stream>>>(d_x, n);
  kernel_B<<<grid, block, 0, stream>>>(d_x, n);
  kernel_C<<<grid, block, 0, stream>>>(d_x, n);

  // 结束捕获，返回图
  CHECK_MUSA(musaStreamEndCapture(stream, &graph));

  // Three kernel nodes in a chain A -> B -> C.
  musaGraphNode_t nodes[3];
  size_t count = 3;
  CHECK_MUSA(musaGraphGetNodes(graph, nodes, &count));
  CHECK(count == 3, "captured %zu nodes", count);
  size_t edges = 0;
  CHECK_MUSA(musaGraphGetEdges(graph, NULL, NULL, &edges));
  CHECK(edges == 2, "captured %zu edges", edges);
  size_t roots = 0;
  CHECK_MUSA(musaGraphGetRootNodes(graph, NULL, &roots));
  CHECK(roots == 1, "captured %zu roots", roots);
  void *funcs[] = {(void *)kernel_A, (void *)kernel_B, (void *)kernel_C};
  for (int i = 0; i < 3; i++) {
    musaGraphNodeType type;
    CHECK_MUSA(musaGraphNodeGetType(nodes[i], &type));
    CHECK(type == musaGraphNodeTypeKernel, "node %d type %d", i, (int)type);
    musaKernelNodeParams kp;
    CHECK_MUSA(musaGraphKernelNodeGetParams(nodes[i], &kp));
    CHECK(kp.func == funcs[i] && kp.gridDim.x == grid.x && kp.blockDim.x == 256,
          "node %d is the %c kernel", i, 'A' + i);
  }
  float h0 = run(graph, d_x, 5.0f, stream);
  CHECK(h0 == (5.0f + 1.0f) * 2.0f - 3.0f, "A, B, C in order: %f", h0);
  float h[N];
  CHECK_MUSA(musaMemcpy(h, d_x, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[N - 1] == (5.0f + (N - 1) + 1.0f) * 2.0f - 3.0f, "last element %f", h[N - 1]);

  CHECK_MUSA(musaGraphDestroy(graph));
  CHECK_MUSA(musaStreamDestroy(stream));
}

// 捕获内省: musaStreamGetCaptureInfo with all six outputs, and musaStreamIsCapturing.
static void captureIntrospection(float *d_x) {
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  enum musaStreamCaptureStatus captureStatus;
  unsigned long long id = 0, firstId = 0;
  musaGraph_t graph = NULL;
  const musaGraphNode_t *deps = NULL;
  size_t numDeps = 99;

  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &captureStatus, &id, &graph, &deps, &numDeps));
  CHECK(captureStatus == musaStreamCaptureStatusNone, "status before capture %d",
        (int)captureStatus);
  CHECK(musaStreamIsCapturing(stream) == musaErrorInvalidValue, "capturing before begin");

  CHECK_MUSA(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));
  CHECK(musaStreamIsCapturing(stream) == musaSuccess, "not capturing after begin");
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &captureStatus, &id, &graph, &deps, &numDeps));
  CHECK(captureStatus == musaStreamCaptureStatusActive && id != 0, "active capture, id %llu", id);
  CHECK(graph != NULL, "graph_out during capture");
  CHECK(numDeps == 0, "no dependencies before any work: %zu", numDeps);
  firstId = id;

  kernel_A<<<N / 256, 256, 0, stream>>>(d_x, N);
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &captureStatus, &id, &graph, &deps, &numDeps));
  CHECK(id == firstId, "id changed within one capture");
  CHECK(numDeps == 1 && deps != NULL, "one dependency after one kernel: %zu", numDeps);
  musaGraphNode_t dep0 = numDeps == 1 && deps ? deps[0] : NULL;
  // (That graph_out and the dependency nodes are usable while the capture is in progress, as
  // in CUDA, is checked in guide_graphs_bugs.mu: the simulator refuses them.)
  musaGraph_t ended;
  CHECK_MUSA(musaStreamEndCapture(stream, &ended));
  CHECK(ended == graph, "EndCapture returns the graph GetCaptureInfo showed");
  musaGraphNode_t only = NULL;
  size_t count = 1;
  CHECK_MUSA(musaGraphGetNodes(ended, &only, &count));
  CHECK(count == 1 && only == dep0, "the dependency was the captured kernel node");
  CHECK(musaStreamIsCapturing(stream) == musaErrorInvalidValue, "capturing after end");
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &captureStatus, &id));
  CHECK(captureStatus == musaStreamCaptureStatusNone, "status after capture %d", (int)captureStatus);

  // A second capture has another id; an invalidated one reports Invalidated.
  CHECK_MUSA(musaStreamBeginCapture(stream, musaStreamCaptureModeGlobal));
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &captureStatus, &id));
  CHECK(captureStatus == musaStreamCaptureStatusActive && id != firstId, "new id %llu", id);
  CHECK(musaStreamSynchronize(stream) != musaSuccess, "sync of a capturing stream");
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &captureStatus, &id));
  CHECK(captureStatus == musaStreamCaptureStatusInvalidated, "status %d", (int)captureStatus);
  CHECK(musaStreamIsCapturing(stream) == musaErrorStreamCaptureInvalidated,
        "IsCapturing of an invalidated capture (DECISIONS.md 11)");
  musaGraph_t none;
  CHECK(musaStreamEndCapture(stream, &none) == musaErrorStreamCaptureInvalidated, "end");
  musaGetLastError();

  CHECK_MUSA(musaGraphDestroy(ended));
  CHECK_MUSA(musaStreamDestroy(stream));
}

// 步骤 4：更新捕获依赖. Fragment completion: nodes added by hand to the graph being captured
// into become dependencies of the next captured work, first added to the current set (flags
// omitted: the default 0), then replacing it (flags 1). The capture goes into a graph of our own
// (步骤 2, musaStreamBeginCaptureToGraph); CUDA also allows this on the graph_out of a plain
// capture, which the simulator refuses (guide_graphs_bugs.mu).
static void updateCaptureDependencies(float *d_x) {
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  musaGraph_t user;
  CHECK_MUSA(musaGraphCreate(&user, 0));
  CHECK_MUSA(musaStreamBeginCaptureToGraph(stream, user, NULL, NULL, 0, musaStreamCaptureModeGlobal));
  kernel_A<<<N / 256, 256, 0, stream>>>(d_x, N);

  enum musaStreamCaptureStatus status;
  musaGraph_t graph;
  const musaGraphNode_t *deps;
  size_t numDeps = 0;
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &numDeps));
  musaGraphNode_t nodeA = numDeps == 1 ? deps[0] : NULL;

  musaGraphNode_t extra;
  CHECK_MUSA(musaGraphAddEmptyNode(&extra, graph, NULL, 0));
  CHECK_MUSA(musaStreamUpdateCaptureDependencies(stream, &extra, 1)); // flags: default 0 (add)
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &numDeps));
  CHECK(numDeps == 2, "dependencies after adding one: %zu", numDeps);
  kernel_B<<<N / 256, 256, 0, stream>>>(d_x, N);
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &numDeps));
  musaGraphNode_t nodeB = numDeps == 1 ? deps[0] : NULL;

  musaGraphNode_t replacement;
  CHECK_MUSA(musaGraphAddEmptyNode(&replacement, graph, &nodeB, 1));
  CHECK_MUSA(musaStreamUpdateCaptureDependencies(stream, &replacement, 1,
                                                 musaStreamSetCaptureDependencies));
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &numDeps));
  CHECK(numDeps == 1 && deps[0] == replacement, "dependencies replaced: %zu", numDeps);
  kernel_C<<<N / 256, 256, 0, stream>>>(d_x, N);
  CHECK_MUSA(musaStreamGetCaptureInfo(stream, &status, NULL, &graph, &deps, &numDeps));
  musaGraphNode_t nodeC = numDeps == 1 ? deps[0] : NULL;
  CHECK(musaStreamUpdateCaptureDependencies(stream, &extra, 1, 2) == musaErrorInvalidValue,
        "unknown flags accepted");
  musaGraph_t captured;
  CHECK_MUSA(musaStreamEndCapture(stream, &captured));
  CHECK(captured == graph && captured == user, "same graph");
  musaGetLastError();

  musaGraphNode_t got[4];
  size_t count = 4;
  CHECK_MUSA(musaGraphNodeGetDependencies(nodeB, got, &count));
  CHECK(count == 2 && ((got[0] == nodeA && got[1] == extra) || (got[0] == extra && got[1] == nodeA)),
        "B depends on A and the added node (%zu)", count);
  count = 4;
  CHECK_MUSA(musaGraphNodeGetDependencies(nodeC, got, &count));
  CHECK(count == 1 && got[0] == replacement, "C depends only on the replacement (%zu)", count);
  count = 0;
  CHECK_MUSA(musaGraphGetNodes(captured, NULL, &count));
  CHECK(count == 5, "3 kernels and 2 empty nodes: %zu", count);
  float h0 = run(captured, d_x, 1.0f, stream);
  CHECK(h0 == (1.0f + 1.0f) * 2.0f - 3.0f, "captured chain result %f", h0);

  CHECK_MUSA(musaGraphDestroy(captured));
  CHECK_MUSA(musaStreamDestroy(stream));
}

int main() {
  float *d_x;
  CHECK_MUSA(musaMalloc(&d_x, N * sizeof(float)));
  basicCapture(d_x);
  captureIntrospection(d_x);
  updateCaptureDependencies(d_x);
  musaFree(d_x);
  return finish("guide_graphs_capture");
}
