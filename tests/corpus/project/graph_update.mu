// Updating an instantiated graph without re-instantiating: musaGraphExecKernelNodeSetParams changes a kernel's argument, and musaGraphExecUpdate applies a topologically identical graph with a new scale.
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

__global__ void scale(float *a, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= f;
}

static musaGraph_t buildGraph(float *d, int *n, float *f, musaGraphNode_t *node) {
  musaGraph_t g;
  CHECK(musaGraphCreate(&g, 0));
  void *args[] = {&d, n, f};
  musaKernelNodeParams p = {};
  p.func = (void *)scale;
  p.gridDim = dim3((*n + 255) / 256);
  p.blockDim = dim3(256);
  p.kernelParams = args;
  CHECK(musaGraphAddKernelNode(node, g, nullptr, 0, &p));
  return g;
}

int main() {
  int n = 1 << 14;
  float *d, *h = (float *)malloc(n * sizeof(float));
  CHECK(musaMalloc(&d, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    h[i] = 1.0f;
  CHECK(musaMemcpy(d, h, n * sizeof(float), musaMemcpyHostToDevice));
  float f = 2.0f;
  musaGraphNode_t node;
  musaGraph_t g = buildGraph(d, &n, &f, &node);
  musaGraphExec_t exec;
  CHECK(musaGraphInstantiate(&exec, g, nullptr, nullptr, 0));
  CHECK(musaGraphLaunch(exec, 0)); // x2

  // 1. Per-node update of the executable graph: now x3.
  float three = 3.0f;
  void *args3[] = {&d, &n, &three};
  musaKernelNodeParams p = {};
  p.func = (void *)scale;
  p.gridDim = dim3((n + 255) / 256);
  p.blockDim = dim3(256);
  p.kernelParams = args3;
  CHECK(musaGraphExecKernelNodeSetParams(exec, node, &p));
  CHECK(musaGraphLaunch(exec, 0)); // x3

  // 2. Whole-graph update from a new graph of the same shape: x0.5.
  float half = 0.5f;
  musaGraphNode_t node2;
  musaGraph_t g2 = buildGraph(d, &n, &half, &node2);
  musaGraphExecUpdateResultInfo info;
  CHECK(musaGraphExecUpdate(exec, g2, &info));
  bool ok = info.result == musaGraphExecUpdateSuccess;
  CHECK(musaGraphLaunch(exec, 0)); // x0.5
  CHECK(musaGraphLaunch(exec, 0)); // x0.5
  CHECK(musaDeviceSynchronize());
  CHECK(musaMemcpy(h, d, n * sizeof(float), musaMemcpyDeviceToHost));
  // The original graph's own parameters are untouched: launching a fresh instance doubles.
  musaGraphExec_t exec2;
  CHECK(musaGraphInstantiate(&exec2, g, nullptr, nullptr, 0));
  CHECK(musaGraphLaunch(exec2, 0));
  float after;
  CHECK(musaMemcpy(&after, d, sizeof(float), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    ok = ok && h[i] == 1.5f;
  ok = ok && after == 3.0f;
  CHECK(musaGraphExecDestroy(exec));
  CHECK(musaGraphExecDestroy(exec2));
  CHECK(musaGraphDestroy(g));
  CHECK(musaGraphDestroy(g2));
  printf("graph_update: result %.2f (expected 1.50), fresh instance %.2f, %s\n", h[0], after,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
