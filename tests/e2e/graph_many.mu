// 10,000 distinct executable graphs of one kernel node each, all launched on one stream
// without synchronising in between, then one musaDeviceSynchronize: every launch runs.
// (Past 4,095 live executable graphs the launches used to hang; the test's CTest timeout
// turns a hang into a failure.)
#include "check.h"

#include <vector>

__global__ void bump(int *counter) { atomicAdd(counter, 1); }

int main() {
  const int graphs = 10000;
  int *d;
  CHECK_MUSA(musaMalloc(&d, sizeof(int)));
  CHECK_MUSA(musaMemset(d, 0, sizeof(int)));
  musaStream_t stream;
  CHECK_MUSA(musaStreamCreate(&stream));
  std::vector<musaGraph_t> g(graphs);
  std::vector<musaGraphExec_t> exec(graphs);
  for (int i = 0; i < graphs; ++i) {
    CHECK_MUSA(musaGraphCreate(&g[i], 0));
    void *args[] = {&d};
    musaKernelNodeParams p = {};
    p.func = (void *)bump;
    p.gridDim = dim3(1);
    p.blockDim = dim3(1);
    p.kernelParams = args;
    musaGraphNode_t node;
    CHECK_MUSA(musaGraphAddKernelNode(&node, g[i], nullptr, 0, &p));
    CHECK_MUSA(musaGraphInstantiate(&exec[i], g[i], 0));
    CHECK_MUSA(musaGraphLaunch(exec[i], stream));
  }
  CHECK_MUSA(musaDeviceSynchronize());
  int h = 0;
  CHECK_MUSA(musaMemcpy(&h, d, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h == graphs, "%d of %d graph launches ran", h, graphs);
  for (int i = 0; i < graphs; ++i) {
    CHECK_MUSA(musaGraphExecDestroy(exec[i]));
    CHECK_MUSA(musaGraphDestroy(g[i]));
  }
  CHECK_MUSA(musaStreamDestroy(stream));
  CHECK_MUSA(musaFree(d));
  return finish("graph_many");
}
