// Updating executable graphs: musaGraphExecUpdate (both forms) with each result, the per-node
// exec setters, node parameter queries, musaGraphInstantiateWithParams, memset element sizes.
#include "check.h"

__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = v;
}
__global__ void add(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += v;
}

static musaGraph_t build(int *d, int *value, int n, void *func, musaGraphNode_t *kernelNode) {
  musaGraph_t g;
  musaGraphCreate(&g, 0);
  void *args[] = {&d, value, &n};
  musaKernelNodeParams p = {0};
  p.func = func;
  p.gridDim = dim3(1);
  p.blockDim = dim3(64);
  p.kernelParams = args;
  musaGraphAddKernelNode(kernelNode, g, nullptr, 0, &p);
  return g;
}

int main() {
  const int n = 64;
  int *d, h[n];
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  int v1 = 5, v2 = 9;
  musaGraphNode_t k1, k2, k3;
  musaGraph_t g1 = build(d, &v1, n, (void *)fill, &k1);
  musaGraph_t g2 = build(d, &v2, n, (void *)fill, &k2);
  musaGraph_t g3 = build(d, &v2, n, (void *)add, &k3);
  musaGraphInstantiateParams ip = {0};
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiateWithParams(&exec, g1, &ip));
  CHECK(ip.result_out == musaGraphInstantiateSuccess, "instantiate result %d", ip.result_out);
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[7] == 5, "first launch %d", h[7]);

  musaGraphExecUpdateResultInfo info;
  CHECK_MUSA(musaGraphExecUpdate(exec, g2, &info));
  CHECK(info.result == musaGraphExecUpdateSuccess, "update result %d", info.result);
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[7] == 9, "after update %d", h[7]);

  CHECK(musaGraphExecUpdate(exec, g3, &info) == musaErrorGraphExecUpdateFailure, "func change");
  CHECK(info.result == musaGraphExecUpdateErrorFunctionChanged && info.errorNode == k3,
        "function change result %d", info.result);
  musaGraphNode_t extra, errorNode;
  CHECK_MUSA(musaGraphAddEmptyNode(&extra, g2, &k2, 1));
  musaGraphExecUpdateResult result;
  CHECK(musaGraphExecUpdate(exec, g2, &errorNode, &result) == musaErrorGraphExecUpdateFailure,
        "topology change");
  CHECK(result == musaGraphExecUpdateErrorTopologyChanged, "topology result %d", result);

  // Per-node exec setters keep the function but take new arguments.
  int v3 = 21;
  void *args[] = {&d, &v3, (void *)&n};
  musaKernelNodeParams kp = {0};
  kp.func = (void *)fill;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(64);
  kp.kernelParams = args;
  CHECK_MUSA(musaGraphExecKernelNodeSetParams(exec, k1, &kp));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[63] == 21, "exec kernel params %d", h[63]);
  kp.func = (void *)add;
  CHECK(musaGraphExecKernelNodeSetParams(exec, k1, &kp) == musaErrorInvalidValue,
        "function swapped through exec setter");

  // Kernel node priority, used when instantiated with UseNodePriority.
  musaKernelNodeAttrValue prio = {};
  prio.priority = -3;
  CHECK_MUSA(musaGraphKernelNodeSetAttribute(k2, musaKernelNodeAttributePriority, &prio));
  musaKernelNodeAttrValue gotPrio = {};
  CHECK_MUSA(musaGraphKernelNodeGetAttribute(k2, musaKernelNodeAttributePriority, &gotPrio));
  CHECK(gotPrio.priority == -3, "node priority %d", gotPrio.priority);
  musaGraph_t single = build(d, &v1, n, (void *)fill, &k1);
  musaGraphExec_t prioExec;
  CHECK_MUSA(musaGraphInstantiate(&prioExec, single, musaGraphInstantiateFlagUseNodePriority));
  CHECK_MUSA(musaGraphLaunch(prioExec, 0));
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[3] == 5, "graph with node priorities ran: %d", h[3]);

  // A child graph node of an executable graph takes a new child of the same shape.
  musaGraph_t parent;
  CHECK_MUSA(musaGraphCreate(&parent, 0));
  musaGraphNode_t childNode;
  CHECK_MUSA(musaGraphAddChildGraphNode(&childNode, parent, nullptr, 0, g1));
  musaGraphExec_t parentExec;
  CHECK_MUSA(musaGraphInstantiate(&parentExec, parent, 0));
  musaGraphNode_t k4;
  musaGraph_t g4 = build(d, &v2, n, (void *)fill, &k4); // same shape as g1, value 9
  CHECK_MUSA(musaGraphExecChildGraphNodeSetParams(parentExec, childNode, g4));
  CHECK_MUSA(musaGraphLaunch(parentExec, 0));
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[3] == 9, "exec child graph replaced: %d", h[3]);
  musaGraph_t differentShape;
  CHECK_MUSA(musaGraphCreate(&differentShape, 0));
  CHECK(musaGraphExecChildGraphNodeSetParams(parentExec, childNode, differentShape) ==
            musaErrorInvalidValue, "child of another shape accepted");
  musaGraphExecDestroy(parentExec);
  musaGraphExecDestroy(prioExec);
  musaGraphDestroy(parent);
  musaGraphDestroy(single);
  musaGraphDestroy(differentShape);
  musaGraphDestroy(g4);
  musaGetLastError();

  // Memset nodes with 4-byte elements, their params, and an exec update of them.
  musaGraph_t mg;
  CHECK_MUSA(musaGraphCreate(&mg, 0));
  musaMemsetParams mp = {0};
  mp.dst = d;
  mp.value = 0x01020304u;
  mp.elementSize = 4;
  mp.width = n;
  mp.height = 1;
  musaGraphNode_t ms;
  CHECK_MUSA(musaGraphAddMemsetNode(&ms, mg, nullptr, 0, &mp));
  musaMemsetParams back;
  CHECK_MUSA(musaGraphMemsetNodeGetParams(ms, &back));
  CHECK(back.value == 0x01020304u && back.elementSize == 4, "memset params");
  mp.elementSize = 3;
  CHECK(musaGraphAddMemsetNode(&ms, mg, nullptr, 0, &mp) == musaErrorInvalidValue,
        "element size 3 accepted");
  musaGraphExec_t mexec;
  CHECK_MUSA(musaGraphInstantiate(&mexec, mg, 0));
  CHECK_MUSA(musaGraphLaunch(mexec, 0));
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h[10] == 0x01020304, "32-bit memset %#x", h[10]);
  mp.elementSize = 2;
  mp.value = 0xbeef;
  mp.width = 2 * n;
  CHECK_MUSA(musaGraphExecMemsetNodeSetParams(mexec, ms, &mp));
  CHECK_MUSA(musaGraphLaunch(mexec, 0));
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK((unsigned)h[10] == 0xbeefbeefu, "16-bit memset %#x", h[10]);

  // Update result codes for parameter and attribute changes, and bad handles.
  musaGraph_t copyA, copyB;
  CHECK_MUSA(musaGraphCreate(&copyA, 0));
  CHECK_MUSA(musaGraphCreate(&copyB, 0));
  int hostSide[n];
  musaGraphNode_t ca, cb;
  CHECK_MUSA(musaGraphAddMemcpyNode1D(&ca, copyA, nullptr, 0, d, hostSide, sizeof hostSide,
                                      musaMemcpyHostToDevice));
  CHECK_MUSA(musaGraphAddMemcpyNode1D(&cb, copyB, nullptr, 0, hostSide, d, sizeof hostSide,
                                      musaMemcpyDeviceToHost));
  musaGraphExec_t copyExec;
  CHECK_MUSA(musaGraphInstantiate(&copyExec, copyA, 0));
  CHECK(musaGraphExecUpdate(copyExec, copyB, &info) == musaErrorGraphExecUpdateFailure, "kind");
  CHECK(info.result == musaGraphExecUpdateErrorParametersChanged, "parameters result %d",
        info.result);
  musaGraphExecDestroy(copyExec);
  musaGraphDestroy(copyA);
  musaGraphDestroy(copyB);
  musaGraph_t pa = build(d, &v1, n, (void *)fill, &k1), pb = build(d, &v2, n, (void *)fill, &k2);
  musaKernelNodeAttrValue pv = {};
  pv.priority = -2;
  CHECK_MUSA(musaGraphKernelNodeSetAttribute(k2, musaKernelNodeAttributePriority, &pv));
  musaGraphExec_t pexec;
  CHECK_MUSA(musaGraphInstantiate(&pexec, pa, 0));
  CHECK(musaGraphExecUpdate(pexec, pb, &info) == musaErrorGraphExecUpdateFailure, "attribute");
  CHECK(info.result == musaGraphExecUpdateErrorAttributesChanged, "attributes result %d",
        info.result);
  CHECK(musaGraphExecUpdate(pexec, nullptr, &info) == musaErrorInvalidValue, "null graph");
  CHECK(info.result == musaGraphExecUpdateError, "error result %d", info.result);
  musaGraphExecDestroy(pexec);
  musaGraphDestroy(pa);
  musaGraphDestroy(pb);
  musaGetLastError();

  // Memcpy node params round-trip.
  int host[n];
  musaGraphNode_t mc;
  CHECK_MUSA(musaGraphAddMemcpyNode1D(&mc, mg, &ms, 1, host, d, sizeof host, musaMemcpyDeviceToHost));
  musaMemcpy3DParms cp;
  CHECK_MUSA(musaGraphMemcpyNodeGetParams(mc, &cp));
  CHECK(cp.dstPtr.ptr == host && cp.extent.width == sizeof host && cp.kind == musaMemcpyDeviceToHost,
        "memcpy params");
  musaGetLastError();
  musaGraphExecDestroy(exec);
  musaGraphExecDestroy(mexec);
  musaGraphDestroy(g1);
  musaGraphDestroy(g2);
  musaGraphDestroy(g3);
  musaGraphDestroy(mg);
  musaFree(d);
  return finish("graph_update");
}
