// Conditional graph nodes: IF, WHILE and SWITCH bodies driven by kernels through
// musaGraphSetConditional, the default value applied at each launch, musaGraphAddNode.
#include "check.h"

__global__ void setFlag(musaGraphConditionalHandle h, const int *counter, int limit) {
  if (threadIdx.x == 0)
    musaGraphSetConditional(h, *counter < limit ? 1u : 0u);
}
__global__ void step(int *counter, musaGraphConditionalHandle h, int limit) {
  if (threadIdx.x == 0) {
    int next = ++*counter;
    musaGraphSetConditional(h, next < limit ? 1u : 0u); // WHILE: keep going below the limit
  }
}

__global__ void addAmount(int *counter, int amount) {
  if (threadIdx.x == 0)
    *counter += amount;
}

static musaGraphNode_t addKernel(musaGraph_t g, const musaGraphNode_t *dep, void *func,
                                 void **args) {
  musaGraphNodeParams p = {};
  p.type = musaGraphNodeTypeKernel;
  p.kernel.func = func;
  p.kernel.gridDim = dim3(1);
  p.kernel.blockDim = dim3(32);
  p.kernel.kernelParams = args;
  musaGraphNode_t node;
  CHECK_MUSA(musaGraphAddNode(&node, g, dep, dep ? 1 : 0, &p));
  return node;
}

int main() {
  int *counter;
  CHECK_MUSA(musaMalloc(&counter, sizeof(int)));
  CHECK_MUSA(musaMemset(counter, 0, sizeof(int)));

  // WHILE: the body increments the counter until it reaches 10.
  musaGraph_t g;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  musaGraphConditionalHandle loop;
  CHECK_MUSA(musaGraphConditionalHandleCreate(&loop, g, 1, musaGraphCondAssignDefault));
  musaGraphNodeParams cp = {};
  cp.type = musaGraphNodeTypeConditional;
  cp.conditional.handle = loop;
  cp.conditional.type = musaGraphCondTypeWhile;
  cp.conditional.size = 1;
  musaGraph_t body = nullptr;
  cp.conditional.phGraph_out = &body;
  musaGraphNode_t whileNode;
  CHECK_MUSA(musaGraphAddNode(&whileNode, g, nullptr, 0, &cp));
  CHECK(body != nullptr, "body graph returned");
  int limit = 10;
  void *stepArgs[] = {&counter, &loop, &limit};
  addKernel(body, nullptr, (void *)step, stepArgs);
  musaGraphNodeType type;
  CHECK_MUSA(musaGraphNodeGetType(whileNode, &type));
  CHECK(type == musaGraphNodeTypeConditional, "node type %d", (int)type);
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  int h = -1;
  CHECK_MUSA(musaMemcpy(&h, counter, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h == 10, "WHILE ran the body until the limit: %d", h);
  // The default value (1) is restored at each launch: one more pass, then the limit holds.
  CHECK_MUSA(musaGraphLaunch(exec, 0));
  CHECK_MUSA(musaMemcpy(&h, counter, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h == 11, "second launch ran the body once: %d", h);

  // IF: a kernel decides whether the body runs.
  musaGraph_t g2;
  CHECK_MUSA(musaGraphCreate(&g2, 0));
  musaGraphConditionalHandle cond;
  CHECK_MUSA(musaGraphConditionalHandleCreate(&cond, g2));
  int ifLimit = 12;
  void *setArgs[] = {&cond, &counter, &ifLimit};
  musaGraphNode_t decide = addKernel(g2, nullptr, (void *)setFlag, setArgs);
  musaGraphNodeParams ip = cp;
  ip.conditional.handle = cond;
  ip.conditional.type = musaGraphCondTypeIf;
  musaGraph_t ifBody = nullptr;
  ip.conditional.phGraph_out = &ifBody;
  musaGraphNode_t ifNode;
  CHECK_MUSA(musaGraphAddNode(&ifNode, g2, &decide, 1, &ip));
  int big = 1 << 30;
  void *bodyArgs[] = {&counter, &cond, &big};
  addKernel(ifBody, nullptr, (void *)step, bodyArgs);
  musaGraphExec_t exec2;
  CHECK_MUSA(musaGraphInstantiate(&exec2, g2, 0));
  for (int i = 0; i < 3; ++i)
    CHECK_MUSA(musaGraphLaunch(exec2, 0));
  CHECK_MUSA(musaMemcpy(&h, counter, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h == 12, "IF ran while the counter was below 12: %d", h);

  // Bad input: a handle of another graph, a wrong size.
  musaGraph_t otherBody;
  ip.conditional.handle = loop;
  ip.conditional.phGraph_out = &otherBody;
  CHECK(musaGraphAddNode(&ifNode, g2, nullptr, 0, &ip) == musaErrorInvalidValue, "foreign handle");
  ip.conditional.handle = cond;
  ip.conditional.size = 3;
  CHECK(musaGraphAddNode(&ifNode, g2, nullptr, 0, &ip) == musaErrorInvalidValue, "IF of size 3");
  musaGetLastError();

  // SWITCH (CUDA 12.8): a kernel picks which of three bodies runs; each adds its own amount.
  CHECK_MUSA(musaMemset(counter, 0, sizeof(int)));
  musaGraph_t g3;
  CHECK_MUSA(musaGraphCreate(&g3, 0));
  musaGraphConditionalHandle which;
  CHECK_MUSA(musaGraphConditionalHandleCreate(&which, g3));
  int pickLimit = 3; // counter < 3 picks body 1, else body 0
  void *pickArgs[] = {&which, &counter, &pickLimit};
  musaGraphNode_t pick = addKernel(g3, nullptr, (void *)setFlag, pickArgs);
  musaGraphNodeParams sp = cp;
  sp.conditional.handle = which;
  sp.conditional.type = musaGraphCondTypeSwitch;
  sp.conditional.size = 3;
  musaGraph_t cases[3] = {};
  sp.conditional.phGraph_out = cases;
  musaGraphNode_t switchNode;
  CHECK_MUSA(musaGraphAddNode(&switchNode, g3, &pick, 1, &sp));
  CHECK(cases[0] && cases[1] && cases[2], "three SWITCH bodies returned");
  int amounts[3] = {100, 1, 10000};
  void *addArgs[3][2];
  for (int c = 0; c < 3; ++c) {
    addArgs[c][0] = &counter;
    addArgs[c][1] = &amounts[c];
    addKernel(cases[c], nullptr, (void *)addAmount, addArgs[c]);
  }
  musaGraphExec_t exec3;
  CHECK_MUSA(musaGraphInstantiate(&exec3, g3, 0));
  for (int i = 0; i < 5; ++i)
    CHECK_MUSA(musaGraphLaunch(exec3, 0));
  CHECK_MUSA(musaMemcpy(&h, counter, sizeof h, musaMemcpyDeviceToHost));
  CHECK(h == 3 + 2 * 100, "SWITCH ran body 1 three times, then body 0 twice: %d", h);
  CHECK_MUSA(musaGraphExecDestroy(exec3));
  CHECK_MUSA(musaGraphDestroy(g3));
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphExecDestroy(exec2));
  CHECK_MUSA(musaGraphDestroy(g));
  CHECK_MUSA(musaGraphDestroy(g2));
  CHECK(musaGraphDestroy(body) == musaErrorInvalidValue, "body is released with its node");
  musaGetLastError();
  musaFree(counter);
  return finish("graph_conditional");
}
