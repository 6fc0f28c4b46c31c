// The graphs guide's example 1 (explicit API: copies, three kernels, a copy back), with its
// compound literals named as variables (spec/DECISIONS.md, 17); plus queries, DOT output,
// cloning, relaunch and enabling/disabling a node.
#include "check.h"

#define N 1024

__global__ void scaleKernel(const float *input, float *output, float scale, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n)
    output[idx] = input[idx] * scale;
}

__global__ void addKernel(const float *a, const float *b, float *c, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n)
    c[idx] = a[idx] + b[idx];
}

static int hostCalls = 0;
static void MUSART_CB countHost(void *) { ++hostCalls; }

int main(int argc, char **argv) {
  float *h_a = (float *)malloc(N * sizeof(float));
  float *h_b = (float *)malloc(N * sizeof(float));
  float *h_c = (float *)malloc(N * sizeof(float));
  float *d_a, *d_b, *d_temp, *d_c;
  musaMalloc(&d_a, N * sizeof(float));
  musaMalloc(&d_b, N * sizeof(float));
  musaMalloc(&d_temp, N * sizeof(float));
  musaMalloc(&d_c, N * sizeof(float));
  for (int i = 0; i < N; i++) {
    h_a[i] = (float)i;
    h_b[i] = (float)(i * 2);
  }
  musaGraph_t graph;
  CHECK_MUSA(musaGraphCreate(&graph, 0));
  musaGraphNode_t nodes[4];
  musaMemcpy3DParms copyA = {0};
  copyA.srcPtr = make_musaPitchedPtr(h_a, N * sizeof(float), N, 1);
  copyA.dstPtr = make_musaPitchedPtr(d_a, N * sizeof(float), N, 1);
  copyA.extent = make_musaExtent(N * sizeof(float), 1, 1);
  copyA.kind = musaMemcpyHostToDevice;
  CHECK_MUSA(musaGraphAddMemcpyNode(&nodes[0], graph, NULL, 0, &copyA));
  musaMemcpy3DParms copyB = {0};
  copyB.srcPtr = make_musaPitchedPtr(h_b, N * sizeof(float), N, 1);
  copyB.dstPtr = make_musaPitchedPtr(d_b, N * sizeof(float), N, 1);
  copyB.extent = make_musaExtent(N * sizeof(float), 1, 1);
  copyB.kind = musaMemcpyHostToDevice;
  CHECK_MUSA(musaGraphAddMemcpyNode(&nodes[1], graph, NULL, 0, &copyB));
  float two = 2.0f, three = 3.0f;
  int n = N;
  void *args1[] = {&d_a, &d_temp, &two, &n};
  musaKernelNodeParams params1 = {0};
  params1.func = (void *)scaleKernel;
  params1.gridDim = dim3((N + 255) / 256, 1, 1);
  params1.blockDim = dim3(256, 1, 1);
  params1.kernelParams = args1;
  CHECK_MUSA(musaGraphAddKernelNode(&nodes[2], graph, &nodes[0], 1, &params1));
  void *args2[] = {&d_b, &d_b, &three, &n};
  musaKernelNodeParams params2 = {0};
  params2.func = (void *)scaleKernel;
  params2.gridDim = dim3((N + 255) / 256, 1, 1);
  params2.blockDim = dim3(256, 1, 1);
  params2.kernelParams = args2;
  CHECK_MUSA(musaGraphAddKernelNode(&nodes[3], graph, &nodes[1], 1, &params2));
  musaGraphNode_t addDeps[] = {nodes[2], nodes[3]};
  void *args3[] = {&d_temp, &d_b, &d_c, &n};
  musaKernelNodeParams params3 = {0};
  params3.func = (void *)addKernel;
  params3.gridDim = dim3((N + 255) / 256, 1, 1);
  params3.blockDim = dim3(256, 1, 1);
  params3.kernelParams = args3;
  musaGraphNode_t addNode;
  CHECK_MUSA(musaGraphAddKernelNode(&addNode, graph, addDeps, 2, &params3));
  musaMemcpy3DParms copyC = {0};
  copyC.srcPtr = make_musaPitchedPtr(d_c, N * sizeof(float), N, 1);
  copyC.dstPtr = make_musaPitchedPtr(h_c, N * sizeof(float), N, 1);
  copyC.extent = make_musaExtent(N * sizeof(float), 1, 1);
  copyC.kind = musaMemcpyDeviceToHost;
  musaGraphNode_t memcpyC;
  CHECK_MUSA(musaGraphAddMemcpyNode(&memcpyC, graph, &addNode, 1, &copyC));
  musaHostNodeParams hostParams = {countHost, nullptr};
  musaGraphNode_t hostNode;
  CHECK_MUSA(musaGraphAddHostNode(&hostNode, graph, &memcpyC, 1, &hostParams));

  // Queries.
  size_t count = 0;
  CHECK_MUSA(musaGraphGetNodes(graph, nullptr, &count));
  CHECK(count == 7, "node count %zu", count);
  CHECK_MUSA(musaGraphGetRootNodes(graph, nullptr, &count));
  CHECK(count == 2, "root count %zu", count);
  CHECK_MUSA(musaGraphGetEdges(graph, nullptr, nullptr, &count));
  CHECK(count == 6, "edge count %zu", count);
  musaGraphNodeType type;
  CHECK_MUSA(musaGraphNodeGetType(addNode, &type));
  CHECK(type == musaGraphNodeTypeKernel, "type %d", (int)type);
  musaGraphNode_t deps[4];
  count = 4;
  CHECK_MUSA(musaGraphNodeGetDependencies(addNode, deps, &count));
  CHECK(count == 2 && deps[0] == nodes[2] && deps[1] == nodes[3], "dependencies");
  musaKernelNodeParams got;
  CHECK_MUSA(musaGraphKernelNodeGetParams(nodes[2], &got));
  CHECK(got.func == (void *)scaleKernel && got.gridDim.x == 4 && *(float *)got.kernelParams[2] == 2.0f,
        "kernel node params");
  if (argc > 1)
    CHECK_MUSA(musaGraphDebugDotPrint(graph, argv[1], musaGraphDebugDotFlagsVerbose));

  // Instantiate and run (twice: inputs are copied in again, so the result is the same).
  musaGraphExec_t graphExec;
  CHECK_MUSA(musaGraphInstantiate(&graphExec, graph, 0));
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  CHECK_MUSA(musaGraphLaunch(graphExec, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  printf("Results (first 10):\n");
  for (int i = 0; i < 10; i++)
    printf("  c[%d] = %f (expected: %f)\n", i, h_c[i], h_a[i] * 2 + h_b[i] * 3);
  for (int i = 0; i < N; i++)
    CHECK(h_c[i] == h_a[i] * 2 + h_b[i] * 3, "c[%d] = %f", i, h_c[i]);
  CHECK(hostCalls == 1, "host node ran %d times", hostCalls);

  // Disabling the add node in the executable graph leaves c untouched on the next launch.
  CHECK_MUSA(musaMemset(d_c, 0, N * sizeof(float)));
  CHECK_MUSA(musaGraphNodeSetEnabled(graphExec, addNode, 0));
  unsigned enabled = 1;
  CHECK_MUSA(musaGraphNodeGetEnabled(graphExec, addNode, &enabled));
  CHECK(enabled == 0, "node still enabled");
  CHECK_MUSA(musaGraphLaunch(graphExec, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK(h_c[5] == 0.0f, "disabled node ran: %f", h_c[5]);

  // A clone runs like the original; nodes are found in it.
  musaGraph_t clone;
  CHECK_MUSA(musaGraphClone(&clone, graph));
  musaGraphNode_t cloneAdd;
  CHECK_MUSA(musaGraphNodeFindInClone(&cloneAdd, addNode, clone));
  CHECK(cloneAdd != addNode, "clone node is a copy");
  musaGraphExec_t cloneExec;
  CHECK_MUSA(musaGraphInstantiate(&cloneExec, clone, 0));
  CHECK_MUSA(musaGraphLaunch(cloneExec, stream));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK(h_c[5] == h_a[5] * 2 + h_b[5] * 3, "clone result %f", h_c[5]);

  // Child graph and event nodes: their parameters.
  musaGraph_t parent;
  CHECK_MUSA(musaGraphCreate(&parent, 0));
  musaGraphNode_t childNode, recordNode;
  CHECK_MUSA(musaGraphAddChildGraphNode(&childNode, parent, nullptr, 0, clone));
  musaGraph_t embedded;
  CHECK_MUSA(musaGraphChildGraphNodeGetGraph(childNode, &embedded));
  CHECK_MUSA(musaGraphGetNodes(embedded, nullptr, &count));
  CHECK(count == 7, "embedded graph has %zu nodes", count);
  CHECK(musaGraphDestroy(embedded) == musaErrorInvalidValue, "embedded graph destroyed");
  musaEvent_t e1, e2, got1;
  CHECK_MUSA(musaEventCreate(&e1));
  CHECK_MUSA(musaEventCreate(&e2));
  CHECK_MUSA(musaGraphAddEventRecordNode(&recordNode, parent, &childNode, 1, e1));
  CHECK_MUSA(musaGraphEventRecordNodeGetEvent(recordNode, &got1));
  CHECK(got1 == e1, "record node event");
  CHECK_MUSA(musaGraphEventRecordNodeSetEvent(recordNode, e2));
  CHECK_MUSA(musaGraphEventRecordNodeGetEvent(recordNode, &got1));
  CHECK(got1 == e2, "record node event after set");
  CHECK(musaGraphEventWaitNodeGetEvent(recordNode, &got1) == musaErrorInvalidValue,
        "wait getter on a record node");
  musaGraphExec_t parentExec;
  CHECK_MUSA(musaGraphInstantiate(&parentExec, parent, 0));
  CHECK_MUSA(musaMemset(d_c, 0, N * sizeof(float)));
  CHECK_MUSA(musaGraphLaunch(parentExec, stream));
  CHECK_MUSA(musaEventSynchronize(e2));
  CHECK_MUSA(musaStreamSynchronize(stream));
  CHECK(h_c[5] == h_a[5] * 2 + h_b[5] * 3, "child graph ran, then the event: %f", h_c[5]);
  CHECK_MUSA(musaGraphExecDestroy(parentExec));
  CHECK_MUSA(musaGraphDestroy(parent));
  musaEventDestroy(e1);
  musaEventDestroy(e2);

  // Bad input.
  CHECK(musaGraphAddKernelNode(&deps[0], graph, &cloneAdd, 1, &params1) == musaErrorInvalidValue,
        "foreign dependency accepted");
  CHECK(musaGraphAddDependencies(graph, &addNode, &addNode, 1) == musaErrorInvalidValue,
        "self edge accepted");
  CHECK(musaGraphAddDependencies(graph, &memcpyC, &nodes[0], 1) == musaSuccess, "cycle edge");
  musaGraphExec_t cyclic;
  CHECK(musaGraphInstantiate(&cyclic, graph, 0) == musaErrorInvalidValue, "cycle instantiated");
  CHECK_MUSA(musaGraphRemoveDependencies(graph, &memcpyC, &nodes[0], 1));
  CHECK(musaGraphExecDestroy(graphExec) == musaSuccess, "exec destroy");
  CHECK(musaGraphExecDestroy(graphExec) == musaErrorInvalidValue, "double exec destroy");
  CHECK(musaGraphLaunch(graphExec, stream) == musaErrorInvalidValue, "launch of destroyed exec");
  CHECK_MUSA(musaGraphExecDestroy(cloneExec));
  CHECK_MUSA(musaGraphDestroy(clone));
  CHECK_MUSA(musaGraphDestroy(graph));
  CHECK(musaGraphDestroy(graph) == musaErrorInvalidValue, "double graph destroy");
  musaGetLastError();
  musaStreamDestroy(stream);
  musaFree(d_a);
  musaFree(d_b);
  musaFree(d_temp);
  musaFree(d_c);
  free(h_a);
  free(h_b);
  free(h_c);
  return finish("graph_vector_add");
}
