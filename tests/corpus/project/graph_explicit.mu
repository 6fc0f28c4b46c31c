// A graph built node by node (the simpleCudaGraphs sample's explicit half): memset, 1D memcpy, two kernel nodes from musaKernelNodeParams, a host node, and a child graph; instantiated and launched 3 times.
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

__global__ void fillIndex(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += i;
}
__global__ void sumInto(const int *a, int n, unsigned long long *total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(total, (unsigned long long)a[i]);
}

struct HostState {
  unsigned long long *hostTotal;
  int calls;
  unsigned long long seen[8];
};
static void MUSART_CB recordTotal(void *p) {
  HostState *st = (HostState *)p;
  st->seen[st->calls++] = *st->hostTotal;
}

int main() {
  const int n = 4096;
  int *d;
  unsigned long long *dTotal, *hTotal;
  CHECK(musaMalloc(&d, n * sizeof(int)));
  CHECK(musaMalloc(&dTotal, sizeof(unsigned long long)));
  CHECK(musaMallocHost(&hTotal, sizeof(unsigned long long)));
  HostState state = {hTotal, 0, {0}};

  musaGraph_t graph, child;
  CHECK(musaGraphCreate(&graph, 0));
  CHECK(musaGraphCreate(&child, 0));
  musaGraphNode_t memsetA, memsetT, kFill, kSum, copyBack, hostNode, childNode;

  musaMemsetParams ms = {};
  ms.dst = d;
  ms.value = 1;
  ms.elementSize = sizeof(int);
  ms.width = n;
  ms.height = 1;
  CHECK(musaGraphAddMemsetNode(&memsetA, graph, nullptr, 0, &ms));
  // The child graph zeroes the total.
  musaMemsetParams mt = {};
  mt.dst = dTotal;
  mt.value = 0;
  mt.elementSize = 4;
  mt.width = 2;
  mt.height = 1;
  CHECK(musaGraphAddMemsetNode(&memsetT, child, nullptr, 0, &mt));
  CHECK(musaGraphAddChildGraphNode(&childNode, graph, nullptr, 0, child));

  int count = n;
  void *fillArgs[] = {&d, &count};
  musaKernelNodeParams kp = {};
  kp.func = (void *)fillIndex;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = fillArgs;
  CHECK(musaGraphAddKernelNode(&kFill, graph, &memsetA, 1, &kp));

  void *sumArgs[] = {&d, &count, &dTotal};
  musaKernelNodeParams sp = kp;
  sp.func = (void *)sumInto;
  sp.kernelParams = sumArgs;
  musaGraphNode_t sumDeps[] = {kFill, childNode};
  CHECK(musaGraphAddKernelNode(&kSum, graph, sumDeps, 2, &sp));

  CHECK(musaGraphAddMemcpyNode1D(&copyBack, graph, &kSum, 1, hTotal, dTotal,
                                 sizeof(unsigned long long), musaMemcpyDeviceToHost));
  musaHostNodeParams hp = {recordTotal, &state};
  CHECK(musaGraphAddHostNode(&hostNode, graph, &copyBack, 1, &hp));

  size_t nodes = 0, edges = 0;
  CHECK(musaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(musaGraphGetEdges(graph, nullptr, nullptr, &edges));
  musaGraphExec_t exec;
  CHECK(musaGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  musaStream_t s;
  CHECK(musaStreamCreate(&s));
  for (int l = 0; l < 3; ++l)
    CHECK(musaGraphLaunch(exec, s));
  CHECK(musaStreamSynchronize(s));
  unsigned long long ref = (unsigned long long)n + (unsigned long long)n * (n - 1) / 2;
  bool ok = nodes == 6 && edges == 5 && state.calls == 3;
  for (int l = 0; l < state.calls; ++l)
    ok = ok && state.seen[l] == ref;
  CHECK(musaGraphExecDestroy(exec));
  CHECK(musaGraphDestroy(graph));
  CHECK(musaGraphDestroy(child));
  CHECK(musaStreamDestroy(s));
  printf("graph_explicit: %zu nodes, %zu edges, host node saw %llu three times (expected %llu), %s\n",
         nodes, edges, state.seen[0], ref, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
