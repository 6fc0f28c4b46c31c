// The graphs guide's instantiation, execution, update and query snippets not already in
// graph_update.mu / graph_vector_add.mu / graph_memory.mu: the declarations and enums of
// 阶段 2 (实例化), 图更新 and 图内存管理, musaGraphInstantiate with its default flags,
// musaGraphInstantiateWithFlags, 实例化示例 (musaGraphInstantiateWithParams with
// AutoFreeOnLaunch, and its failure report), 执行示例, musaGraphExecMemcpyNodeSetParams,
// disabling and re-enabling nodes, and the graph and node query APIs with output arrays.
// See GRAPHS_GUIDE_COVERAGE.md.
#include "check.h"

#include <type_traits>

template <class T> using GuideSignature = T;
#define GUIDE_SIGNATURE(fn, ...) [[maybe_unused]] static GuideSignature<__VA_ARGS__> const sig_##fn = fn
GUIDE_SIGNATURE(musaGraphInstantiate,
                musaError_t (*)(musaGraphExec_t *, musaGraph_t, unsigned long long));
GUIDE_SIGNATURE(musaGraphInstantiateWithFlags,
                musaError_t (*)(musaGraphExec_t *, musaGraph_t, unsigned long long));
GUIDE_SIGNATURE(musaGraphInstantiateWithParams,
                musaError_t (*)(musaGraphExec_t *, musaGraph_t, musaGraphInstantiateParams *));
GUIDE_SIGNATURE(musaGraphLaunch, musaError_t (*)(musaGraphExec_t, musaStream_t));
GUIDE_SIGNATURE(musaGraphExecUpdate,
                musaError_t (*)(musaGraphExec_t, musaGraph_t, musaGraphExecUpdateResultInfo *));
GUIDE_SIGNATURE(musaGraphExecKernelNodeSetParams,
                musaError_t (*)(musaGraphExec_t, musaGraphNode_t, const struct musaKernelNodeParams *));
GUIDE_SIGNATURE(musaGraphExecMemcpyNodeSetParams,
                musaError_t (*)(musaGraphExec_t, musaGraphNode_t, const struct musaMemcpy3DParms *));
GUIDE_SIGNATURE(musaGraphExecMemsetNodeSetParams,
                musaError_t (*)(musaGraphExec_t, musaGraphNode_t, const struct musaMemsetParams *));
GUIDE_SIGNATURE(musaGraphNodeSetEnabled,
                musaError_t (*)(musaGraphExec_t, musaGraphNode_t, unsigned int));
GUIDE_SIGNATURE(musaGraphNodeGetEnabled,
                musaError_t (*)(musaGraphExec_t, musaGraphNode_t, unsigned int *));
GUIDE_SIGNATURE(musaGraphAddMemAllocNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t,
                                struct musaMemAllocNodeParams *));
GUIDE_SIGNATURE(musaGraphAddMemFreeNode,
                musaError_t (*)(musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *, size_t,
                                void *));
GUIDE_SIGNATURE(musaDeviceGetGraphMemAttribute,
                musaError_t (*)(int, enum musaGraphMemAttributeType, void *));
GUIDE_SIGNATURE(musaDeviceSetGraphMemAttribute,
                musaError_t (*)(int, enum musaGraphMemAttributeType, void *));
GUIDE_SIGNATURE(musaDeviceGraphMemTrim, musaError_t (*)(int));
GUIDE_SIGNATURE(musaGraphGetNodes, musaError_t (*)(musaGraph_t, musaGraphNode_t *, size_t *));
GUIDE_SIGNATURE(musaGraphGetRootNodes, musaError_t (*)(musaGraph_t, musaGraphNode_t *, size_t *));
GUIDE_SIGNATURE(musaGraphGetEdges,
                musaError_t (*)(musaGraph_t, musaGraphNode_t *, musaGraphNode_t *, size_t *));
GUIDE_SIGNATURE(musaGraphNodeGetType, musaError_t (*)(musaGraphNode_t, enum musaGraphNodeType *));
GUIDE_SIGNATURE(musaGraphNodeGetDependencies,
                musaError_t (*)(musaGraphNode_t, musaGraphNode_t *, size_t *));
GUIDE_SIGNATURE(musaGraphNodeGetDependentNodes,
                musaError_t (*)(musaGraphNode_t, musaGraphNode_t *, size_t *));
GUIDE_SIGNATURE(musaGraphDebugDotPrint, musaError_t (*)(musaGraph_t, const char *, unsigned int));
GUIDE_SIGNATURE(musaGraphClone, musaError_t (*)(musaGraph_t *, musaGraph_t));
GUIDE_SIGNATURE(musaGraphNodeFindInClone,
                musaError_t (*)(musaGraphNode_t *, musaGraphNode_t, musaGraph_t));

// The guide's enums: 实例化结果, 整图更新 (DECISIONS.md 3), 图内存管理 (DECISIONS.md 4).
static_assert(musaGraphInstantiateSuccess == 0 && musaGraphInstantiateError == 1 &&
                  musaGraphInstantiateInvalidStructure == 2 &&
                  musaGraphInstantiateNodeOperationNotSupported == 3 &&
                  musaGraphInstantiateMultipleDevicesNotSupported == 4,
              "musaGraphInstantiateResult");
static_assert(musaGraphExecUpdateSuccess == 0 && musaGraphExecUpdateError == 1 &&
                  musaGraphExecUpdateErrorTopologyChanged == 2 &&
                  musaGraphExecUpdateErrorNodeTypeChanged == 3 &&
                  musaGraphExecUpdateErrorFunctionChanged == 4 &&
                  musaGraphExecUpdateErrorParametersChanged == 5 &&
                  musaGraphExecUpdateErrorAttributesChanged == 6 &&
                  musaGraphExecUpdateErrorNotSupported == 7,
              "musaGraphExecUpdateResult");
static_assert(musaGraphMemAttrUsedMemCurrent == 1 && musaGraphMemAttrUsedMemHigh == 2 &&
                  musaGraphMemAttrReservedMemCurrent == 3 && musaGraphMemAttrReservedMemHigh == 4,
              "musaGraphMemAttributeType");
// The structures' fields as the guide names them.
static_assert(std::is_same<decltype(musaGraphInstantiateParams{}.flags), unsigned long long>::value &&
                  std::is_same<decltype(musaGraphInstantiateParams{}.errNode_out), musaGraphNode_t>::value &&
                  std::is_same<decltype(musaGraphInstantiateParams{}.result_out),
                               musaGraphInstantiateResult>::value,
              "musaGraphInstantiateParams");
static_assert(std::is_same<decltype(musaGraphExecUpdateResultInfo{}.result),
                           musaGraphExecUpdateResult>::value &&
                  std::is_same<decltype(musaGraphExecUpdateResultInfo{}.errorNode), musaGraphNode_t>::value &&
                  std::is_same<decltype(musaGraphExecUpdateResultInfo{}.errorFromNode),
                               musaGraphNode_t>::value,
              "musaGraphExecUpdateResultInfo");
static_assert(std::is_same<decltype(musaMemAllocNodeParams{}.bytesize), size_t>::value &&
                  std::is_same<decltype(musaMemAllocNodeParams{}.dptr), void *>::value &&
                  std::is_same<decltype(musaMemAllocNodeParams{}.accessDescCount), size_t>::value,
              "musaMemAllocNodeParams");

__global__ void addOne(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

static const int N = 256;

static musaGraph_t addOneGraph(int *d, musaGraphNode_t *node) {
  static int n = N;
  static int *ptr;
  ptr = d;
  void *args[] = {&ptr, &n};
  musaKernelNodeParams kp = {0};
  kp.func = (void *)addOne;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(N);
  kp.kernelParams = args;
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  CHECK_MUSA(musaGraphAddKernelNode(node, graph, NULL, 0, &kp));
  return graph;
}

static int first(const int *d) {
  int h = -1;
  CHECK_MUSA(musaMemcpy(&h, d, sizeof h, musaMemcpyDeviceToHost));
  return h;
}

// 基本实例化 (flags defaults to 0) and 执行示例 (launch into a new stream, synchronise, destroy).
static void basicInstantiateAndExecute(int *d) {
  CHECK_MUSA(musaMemset(d, 0, N * sizeof(int)));
  musaGraphNode_t node;
  musaGraph_t graph = addOneGraph(d, &node);
  musaGraphExec_t graphExec;
  CHECK_MUSA(musaGraphInstantiate(&graphExec, graph)); // flags __dv(0)

  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));

  // 启动图
  CHECK_MUSA(musaGraphLaunch(graphExec, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));

  // 清理
  CHECK_MUSA(musaStreamDestroy(stream));

  CHECK(first(d) == 1, "graph ran once: %d", first(d));
  CHECK_MUSA(musaGraphExecDestroy(graphExec));
  CHECK_MUSA(musaGraphDestroy(graph));
}

// 带标志的实例化 and its flag table. AutoFreeOnLaunch lets a graph whose allocation is never
// freed be relaunched; UseNodePriority instantiates and runs; unknown flags are refused.
// (DeviceLaunch: see guide_graphs_limits.mu.)
static void instantiateWithFlags(int *d) {
  CHECK_MUSA(musaMemset(d, 0, N * sizeof(int)));
  musaGraphNode_t node;
  musaGraph_t graph = addOneGraph(d, &node);
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiateWithFlags(&exec, graph, 0));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphInstantiateWithFlags(&exec, graph, musaGraphInstantiateFlagUseNodePriority));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  CHECK(first(d) == 2, "two launches: %d", first(d));
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK(musaGraphInstantiateWithFlags(&exec, graph, 1ull << 40) == musaErrorInvalidValue,
        "unknown flag accepted");
  musaGetLastError();

  musaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = musaMemAllocationTypePinned;
  ap.poolProps.location.type = musaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 1024;
  musaGraphNode_t alloc;
  CHECK_MUSA(musaGraphAddMemAllocNode(&alloc, graph, &node, 1, &ap));
  musaGraphExec_t autoFree;
  CHECK_MUSA(musaGraphInstantiateWithFlags(&autoFree, graph, musaGraphInstantiateFlagAutoFreeOnLaunch));
  for (int i = 0; i < 3; i++)
    CHECK_MUSA(musaGraphLaunch(autoFree, 0)); // the previous launch's allocation is freed
  CHECK_MUSA(musaStreamSynchronize(0));
  CHECK(first(d) == 5, "five launches: %d", first(d));
  CHECK_MUSA(musaGraphExecDestroy(autoFree));
  CHECK_MUSA(musaFree(ap.dptr)); // the last launch's allocation, freed outside the graph
  CHECK_MUSA(musaGraphDestroy(graph));
}

// 实例化示例, as in the guide (a graph that allocates and never frees, so AutoFreeOnLaunch is
// the flag that lets it run again), then the same call on a graph with a cycle, whose failure
// the guide's printf reports.
static void instantiateWithParamsExample(int *d) {
  CHECK_MUSA(musaMemset(d, 0, N * sizeof(int)));
  musaGraphNode_t node;
  musaGraph_t graph = addOneGraph(d, &node);
  musaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = musaMemAllocationTypePinned;
  ap.poolProps.location.type = musaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 4096;
  musaGraphNode_t alloc;
  CHECK_MUSA(musaGraphAddMemAllocNode(&alloc, graph, NULL, 0, &ap));

  musaGraphExec_t graphExec;
  musaGraphInstantiateParams params = {0};
  params.flags = musaGraphInstantiateFlagAutoFreeOnLaunch;

  musaError_t err = musaGraphInstantiateWithParams(&graphExec, graph, &params);
  if (err != musaSuccess) {
      printf("Instantiate failed: %d, node: %p, result: %d\n",
             err, params.errNode_out, params.result_out);
  }
  CHECK(err == musaSuccess, "instantiate: %s", musaGetErrorName(err));
  CHECK(params.result_out == musaGraphInstantiateSuccess, "result_out %d", params.result_out);
  CHECK_MUSA(musaGraphLaunch(graphExec, 0));
  CHECK_MUSA(musaGraphLaunch(graphExec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  CHECK(first(d) == 2, "AutoFreeOnLaunch graph ran twice: %d", first(d));
  CHECK_MUSA(musaGraphExecDestroy(graphExec));
  CHECK_MUSA(musaFree(ap.dptr));
  CHECK_MUSA(musaGraphDestroy(graph));

  // A cycle: the failure is reported with result_out InvalidStructure.
  musaGraph_t cyclic;
  CHECK_MUSA(musaGraphCreate(&cyclic, 0));
  musaGraphNode_t a, b;
  CHECK_MUSA(musaGraphAddEmptyNode(&a, cyclic, NULL, 0));
  CHECK_MUSA(musaGraphAddEmptyNode(&b, cyclic, &a, 1));
  CHECK_MUSA(musaGraphAddDependencies(cyclic, &b, &a, 1));
  params = {0};
  params.flags = musaGraphInstantiateFlagAutoFreeOnLaunch;
  err = musaGraphInstantiateWithParams(&graphExec, cyclic, &params);
  if (err != musaSuccess) {
      printf("Instantiate failed: %d, node: %p, result: %d\n",
             err, params.errNode_out, params.result_out);
  }
  CHECK(err != musaSuccess, "a graph with a cycle instantiated");
  CHECK(params.result_out == musaGraphInstantiateInvalidStructure, "cycle result_out %d",
        params.result_out);
  musaGetLastError();
  CHECK_MUSA(musaGraphDestroy(cyclic));
}

// 内存拷贝节点更新: musaGraphExecMemcpyNodeSetParams changes the source, the destination and the
// size of a copy in the executable graph only.
static void execMemcpyNodeSetParams(int *d) {
  static int h1[N], h2[N];
  for (int i = 0; i < N; i++) h1[i] = i, h2[i] = 1000 + i;
  int *d2;
  CHECK_MUSA(musaMalloc(&d2, N * sizeof(int)));
  CHECK_MUSA(musaMemset(d, 0, N * sizeof(int)));
  CHECK_MUSA(musaMemset(d2, 0, N * sizeof(int)));
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  musaMemcpy3DParms p = {0};
  p.srcPtr = make_musaPitchedPtr(h1, N * sizeof(int), N, 1);
  p.dstPtr = make_musaPitchedPtr(d, N * sizeof(int), N, 1);
  p.extent = make_musaExtent(N * sizeof(int), 1, 1);
  p.kind = musaMemcpyHostToDevice;
  musaGraphNode_t copy;
  CHECK_MUSA(musaGraphAddMemcpyNode(&copy, graph, NULL, 0, &p));
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  CHECK(first(d) == 0, "first copy: %d", first(d));

  musaMemcpy3DParms q = p;
  q.srcPtr = make_musaPitchedPtr(h2, N * sizeof(int), N, 1);
  q.dstPtr = make_musaPitchedPtr(d2, N * sizeof(int), N, 1);
  q.extent = make_musaExtent(N / 2 * sizeof(int), 1, 1);
  CHECK_MUSA(musaGraphExecMemcpyNodeSetParams(exec, copy, &q));
  CHECK_MUSA(musaMemset(d, 0, N * sizeof(int)));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  int out[N];
  CHECK_MUSA(musaMemcpy(out, d2, sizeof out, musaMemcpyDeviceToHost));
  CHECK(out[0] == 1000 && out[N / 2 - 1] == 1000 + N / 2 - 1 && out[N / 2] == 0,
        "updated copy: %d %d %d", out[0], out[N / 2 - 1], out[N / 2]);
  CHECK(first(d) == 0, "old destination written after the update: %d", first(d));
  musaMemcpy3DParms g;
  CHECK_MUSA(musaGraphMemcpyNodeGetParams(copy, &g));
  CHECK(g.srcPtr.ptr == h1 && g.dstPtr.ptr == d, "the graph's node kept its parameters");

  // (Changing the transfer kind must be refused: guide_graphs_bugs.mu.)
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphDestroy(graph));
  CHECK_MUSA(musaFree(d2));
}

// 节点启用与禁用: disable, relaunch, re-enable, relaunch.
static void enableDisable(int *d) {
  CHECK_MUSA(musaMemset(d, 0, N * sizeof(int)));
  musaGraphNode_t node;
  musaGraph_t graph = addOneGraph(d, &node);
  musaGraphNode_t empty;
  CHECK_MUSA(musaGraphAddEmptyNode(&empty, graph, &node, 1));
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, graph, 0));
  unsigned int isEnabled = 0;
  CHECK_MUSA(musaGraphNodeGetEnabled(exec, node, &isEnabled));
  CHECK(isEnabled == 1, "enabled after instantiation");
  CHECK_MUSA(musaGraphNodeSetEnabled(exec, node, 0));
  CHECK_MUSA(musaGraphNodeGetEnabled(exec, node, &isEnabled));
  CHECK(isEnabled == 0, "disabled");
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  CHECK(first(d) == 0, "disabled kernel ran: %d", first(d));
  CHECK_MUSA(musaGraphNodeSetEnabled(exec, node, 1));
  CHECK_MUSA(musaGraphNodeGetEnabled(exec, node, &isEnabled));
  CHECK(isEnabled == 1, "re-enabled");
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaStreamSynchronize(0));
  CHECK(first(d) == 1, "re-enabled kernel did not run: %d", first(d));
  // (Disabling the empty node must be refused: guide_graphs_bugs.mu.)
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphDestroy(graph));
}

// 图查询 API and 节点查询 API with output arrays: a diamond r -> {x, y} -> j.
static void queries() {
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  musaGraphNode_t r, x, y, j;
  CHECK_MUSA(musaGraphAddEmptyNode(&r, graph, NULL, 0));
  CHECK_MUSA(musaGraphAddEmptyNode(&x, graph, &r, 1));
  CHECK_MUSA(musaGraphAddEmptyNode(&y, graph, &r, 1));
  musaGraphNode_t xy[] = {x, y};
  CHECK_MUSA(musaGraphAddEmptyNode(&j, graph, xy, 2));

  // musaGraphGetNodes: NULL gives the count; a larger array is filled and padded with NULL.
  size_t numNodes = 0;
  CHECK_MUSA(musaGraphGetNodes(graph, NULL, &numNodes));
  CHECK(numNodes == 4, "nodes %zu", numNodes);
  musaGraphNode_t nodes[6];
  for (auto &n : nodes) n = r;
  numNodes = 6;
  CHECK_MUSA(musaGraphGetNodes(graph, nodes, &numNodes));
  CHECK(numNodes == 4, "nodes obtained %zu", numNodes);
  int seen = 0;
  for (int i = 0; i < 4; i++)
    seen |= (nodes[i] == r) << 0 | (nodes[i] == x) << 1 | (nodes[i] == y) << 2 | (nodes[i] == j) << 3;
  CHECK(seen == 15, "all four nodes listed (%#x)", seen);
  CHECK(nodes[4] == NULL && nodes[5] == NULL, "remaining entries set to NULL");

  musaGraphNode_t roots[2] = {x, x};
  size_t numRoots = 2;
  CHECK_MUSA(musaGraphGetRootNodes(graph, roots, &numRoots));
  CHECK(numRoots == 1 && roots[0] == r && roots[1] == NULL, "root nodes (%zu)", numRoots);

  musaGraphNode_t from[5], to[5];
  size_t numEdges = 5;
  CHECK_MUSA(musaGraphGetEdges(graph, from, to, &numEdges));
  CHECK(numEdges == 4, "edges %zu", numEdges);
  int edgesSeen = 0;
  for (size_t i = 0; i < 4; i++) {
    if (from[i] == r && to[i] == x) edgesSeen |= 1;
    if (from[i] == r && to[i] == y) edgesSeen |= 2;
    if (from[i] == x && to[i] == j) edgesSeen |= 4;
    if (from[i] == y && to[i] == j) edgesSeen |= 8;
  }
  CHECK(edgesSeen == 15, "the four edges (%#x)", edgesSeen);
  CHECK(from[4] == NULL && to[4] == NULL, "remaining edge entries set to NULL");

  enum musaGraphNodeType type;
  CHECK_MUSA(musaGraphNodeGetType(j, &type));
  CHECK(type == musaGraphNodeTypeEmpty, "type %d", (int)type);
  musaGraphNode_t deps[3];
  size_t numDeps = 3;
  CHECK_MUSA(musaGraphNodeGetDependencies(j, deps, &numDeps));
  CHECK(numDeps == 2 && deps[0] == x && deps[1] == y, "dependencies of the join (%zu)", numDeps);
  numDeps = 0;
  CHECK_MUSA(musaGraphNodeGetDependencies(r, NULL, &numDeps));
  CHECK(numDeps == 0, "a root has no dependencies");
  musaGraphNode_t dependents[3];
  size_t numDependents = 3;
  CHECK_MUSA(musaGraphNodeGetDependentNodes(r, dependents, &numDependents));
  CHECK(numDependents == 2 && dependents[0] == x && dependents[1] == y,
        "dependents of the root (%zu)", numDependents);
  numDependents = 3;
  CHECK_MUSA(musaGraphNodeGetDependentNodes(j, dependents, &numDependents));
  CHECK(numDependents == 0, "a leaf has no dependents (%zu)", numDependents);
  CHECK(musaGraphGetNodes(graph, nodes, NULL) == musaErrorInvalidValue, "null count");
  musaGetLastError();
  CHECK_MUSA(musaGraphDestroy(graph));
}

int main() {
  int *d;
  CHECK_MUSA(musaMalloc(&d, N * sizeof(int)));
  basicInstantiateAndExecute(d);
  instantiateWithFlags(d);
  instantiateWithParamsExample(d);
  execMemcpyNodeSetParams(d);
  enableDisable(d);
  queries();
  CHECK_MUSA(musaFree(d));
  return finish("guide_graphs_exec");
}
