// Probe: graph API corner cases on real hardware (nvcc, run on the device machine).
// Output: one "case: result" line each; the simulator follows it (or spec/DECISIONS.md).
#include <cstdio>
#include <cuda_runtime.h>

#include "probe.h"

static void CUDART_CB hostFn(void *) {}
__global__ void kernel(int *p) { p[threadIdx.x] += 1; }

int main() {
  int *d = nullptr;
  int host[64] = {};
  cudaMalloc(&d, 256);
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t empty, hostNode, copy, set;
  cudaGraphAddEmptyNode(&empty, g, nullptr, 0);
  cudaHostNodeParams hp = {hostFn, nullptr};
  cudaGraphAddHostNode(&hostNode, g, nullptr, 0, &hp);
  cudaGraphAddMemcpyNode1D(&copy, g, nullptr, 0, d, host, 256, cudaMemcpyHostToDevice);
  cudaMemsetParams mp = {};
  mp.dst = d;
  mp.value = 0;
  mp.elementSize = 4;
  mp.width = 64;
  mp.height = 1;
  cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp);
  cudaGraphExec_t exec;
  SHOW("instantiate", cudaGraphInstantiate(&exec, g, 0));
  SHOW("set enabled empty node", cudaGraphNodeSetEnabled(exec, empty, 0));
  SHOW("set enabled host node", cudaGraphNodeSetEnabled(exec, hostNode, 0));
  SHOW("set enabled memcpy node", cudaGraphNodeSetEnabled(exec, copy, 0));
  SHOW("set enabled memset node", cudaGraphNodeSetEnabled(exec, set, 0));
  unsigned on = 7;
  SHOW("get enabled empty node", cudaGraphNodeGetEnabled(exec, empty, &on));
  SHOW("exec memcpy 1D set params, direction reversed",
       cudaGraphExecMemcpyNodeSetParams1D(exec, copy, host, d, 256, cudaMemcpyDeviceToHost));
  SHOW("exec memcpy 1D set params, same direction",
       cudaGraphExecMemcpyNodeSetParams1D(exec, copy, d + 1, host, 128, cudaMemcpyHostToDevice));
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);

  // The graph a capture builds, used while the capture is in progress.
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  kernel<<<1, 64, 0, s>>>(d);
  cudaStreamCaptureStatus status;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t numDeps = 0;
  SHOW("get capture info", cudaStreamGetCaptureInfo(s, &status, nullptr, &capturing, &deps,
                                                    nullptr, &numDeps));
  size_t n = 0;
  SHOW("get nodes of the capturing graph", cudaGraphGetNodes(capturing, nullptr, &n));
  std::printf("capturing graph nodes: %zu, deps %zu\n", n, numDeps);
  cudaGraphNodeType type;
  SHOW("node type of a captured node", cudaGraphNodeGetType(deps[0], &type));
  cudaGraphNode_t extra;
  SHOW("add empty node to the capturing graph", cudaGraphAddEmptyNode(&extra, capturing, nullptr, 0));
  SHOW("update capture dependencies with it",
       cudaStreamUpdateCaptureDependencies(s, &extra, nullptr, 1, cudaStreamAddCaptureDependencies));
  SHOW("destroy the capturing graph", cudaGraphDestroy(capturing));
  cudaGraph_t done = nullptr;
  SHOW("end capture", cudaStreamEndCapture(s, &done));
  n = 0;
  cudaGraphGetNodes(done, nullptr, &n);
  std::printf("captured graph nodes: %zu, same graph: %d\n", n, done == capturing);
  cudaGraphExec_t dev;
  SHOW("instantiate flags DeviceLaunch (kernel graph)",
       cudaGraphInstantiateWithFlags(&dev, done, cudaGraphInstantiateFlagDeviceLaunch));
  cudaGraphDestroy(done);
  cudaFree(d);
  return 0;
}
