// Graph updates between synchronised launches: musaGraphExecKernelNodeSetParams changes a kernel's argument, musaGraphNodeSetEnabled turns a node off and on, and musaGraphExecMemsetNodeSetParams changes a memset value.
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

__global__ void addTo(int *a, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += v;
}

static int readFirst(const int *d) {
  int v = 0;
  CHECK(musaMemcpy(&v, d, sizeof v, musaMemcpyDeviceToHost));
  return v;
}

int main() {
  int n = 1024;
  int *d;
  CHECK(musaMalloc(&d, n * sizeof(int)));
  musaGraph_t g;
  CHECK(musaGraphCreate(&g, 0));
  musaGraphNode_t reset, add1, add2;
  musaMemsetParams ms = {};
  ms.dst = d;
  ms.value = 5;
  ms.elementSize = sizeof(int);
  ms.width = n;
  ms.height = 1;
  CHECK(musaGraphAddMemsetNode(&reset, g, nullptr, 0, &ms));
  int ten = 10, hundred = 100;
  void *args1[] = {&d, &n, &ten}, *args2[] = {&d, &n, &hundred};
  musaKernelNodeParams kp = {};
  kp.func = (void *)addTo;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  kp.kernelParams = args1;
  CHECK(musaGraphAddKernelNode(&add1, g, &reset, 1, &kp));
  kp.kernelParams = args2;
  CHECK(musaGraphAddKernelNode(&add2, g, &add1, 1, &kp));
  musaGraphExec_t exec;
  CHECK(musaGraphInstantiate(&exec, g, nullptr, nullptr, 0));
  musaStream_t s;
  CHECK(musaStreamCreate(&s));

  int results[5];
  CHECK(musaGraphLaunch(exec, s));
  CHECK(musaStreamSynchronize(s));
  results[0] = readFirst(d); // 5 + 10 + 100

  int seven = 7;
  void *args3[] = {&d, &n, &seven};
  kp.kernelParams = args3;
  CHECK(musaGraphExecKernelNodeSetParams(exec, add1, &kp));
  CHECK(musaGraphLaunch(exec, s));
  CHECK(musaStreamSynchronize(s));
  results[1] = readFirst(d); // 5 + 7 + 100

  CHECK(musaGraphNodeSetEnabled(exec, add2, 0));
  unsigned enabled = 1;
  CHECK(musaGraphNodeGetEnabled(exec, add2, &enabled));
  CHECK(musaGraphLaunch(exec, s));
  CHECK(musaStreamSynchronize(s));
  results[2] = readFirst(d); // 5 + 7

  ms.value = 1000;
  CHECK(musaGraphExecMemsetNodeSetParams(exec, reset, &ms));
  CHECK(musaGraphLaunch(exec, s));
  CHECK(musaStreamSynchronize(s));
  results[3] = readFirst(d); // 1000 + 7

  CHECK(musaGraphNodeSetEnabled(exec, add2, 1));
  CHECK(musaGraphLaunch(exec, s));
  CHECK(musaStreamSynchronize(s));
  results[4] = readFirst(d); // 1000 + 7 + 100

  int expect[5] = {115, 112, 12, 1007, 1107};
  bool ok = enabled == 0;
  for (int k = 0; k < 5; ++k)
    ok = ok && results[k] == expect[k];
  int *h = (int *)malloc(n * sizeof(int));
  CHECK(musaMemcpy(h, d, n * sizeof(int), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    ok = ok && h[i] == 1107;
  CHECK(musaGraphExecDestroy(exec));
  CHECK(musaGraphDestroy(g));
  CHECK(musaStreamDestroy(s));
  printf("graph_node_toggle: %d %d %d %d %d, %s\n", results[0], results[1], results[2], results[3],
         results[4], ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
