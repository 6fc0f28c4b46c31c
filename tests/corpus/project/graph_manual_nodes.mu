// Graphs built by hand: memset, 1D memcpy, kernel, host, event record and event wait nodes;
// musaGraphNodeGetType; musaGraphClone (independent of the original); musaGraphExecUpdate with a
// changed memset value (applied), an added node (TopologyChanged) and a node of another type
// (NodeTypeChanged); a memory allocation node without a free node instantiated with
// musaGraphInstantiateFlagAutoFreeOnLaunch and launched repeatedly; musaGraphDebugDotPrint.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <atomic>
#include <thread>
#include <chrono>
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("mismatch %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
      ok = false;                                                      \
    }                                                                  \
  } while (0)

__global__ void axpb(int *p, int n, int a, int b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * a + b;
}
__global__ void iota(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = i;
}
struct HostCheck { const int *mapped; int n; int expect; std::atomic<int> calls; std::atomic<int> bad; };
static void MUSART_CB hostCheck(void *u) {
  HostCheck *c = (HostCheck *)u;
  for (int i = 0; i < c->n; ++i)
    if (c->mapped[i] != c->expect) { c->bad++; break; }
  c->calls++;
}
static void MUSART_CB hostSleep(void *) { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

static musaMemsetParams memsetParams(void *dst, unsigned v, size_t n) {
  musaMemsetParams m = {};
  m.dst = dst;
  m.value = v;
  m.elementSize = 4;
  m.width = n;
  m.height = 1;
  return m;
}

int main() {
  bool ok = true;
  const int n = 2048;
  int *a, *b, *hm;
  CHECK(musaMalloc(&a, n * sizeof(int)));
  CHECK(musaMalloc(&b, n * sizeof(int)));
  CHECK(musaHostAlloc(&hm, n * sizeof(int), musaHostAllocMapped));
  musaStream_t s, s2;
  CHECK(musaStreamCreateWithFlags(&s, musaStreamNonBlocking));
  CHECK(musaStreamCreateWithFlags(&s2, musaStreamNonBlocking));

  // memset(a, 3) -> kernel a = a*5+1 -> memcpy b <- a -> memcpy hm <- b -> host check (16)
  musaGraph_t g;
  CHECK(musaGraphCreate(&g, 0));
  musaGraphNode_t nMemset, nKernel, nCopy, nCopyH, nHost;
  musaMemsetParams mp = memsetParams(a, 3, n);
  CHECK(musaGraphAddMemsetNode(&nMemset, g, nullptr, 0, &mp));
  int nn = n, ka = 5, kb = 1;
  void *args[] = {&a, &nn, &ka, &kb};
  musaKernelNodeParams kp = {};
  kp.func = (void *)axpb;
  kp.gridDim = dim3(n / 256);
  kp.blockDim = dim3(256);
  kp.kernelParams = args;
  CHECK(musaGraphAddKernelNode(&nKernel, g, &nMemset, 1, &kp));
  CHECK(musaGraphAddMemcpyNode1D(&nCopy, g, &nKernel, 1, b, a, n * sizeof(int), musaMemcpyDeviceToDevice));
  CHECK(musaGraphAddMemcpyNode1D(&nCopyH, g, &nCopy, 1, hm, b, n * sizeof(int), musaMemcpyDeviceToHost));
  HostCheck hc;
  hc.mapped = hm; hc.n = n; hc.expect = 16; hc.calls = 0; hc.bad = 0;
  musaHostNodeParams hp = {hostCheck, &hc};
  CHECK(musaGraphAddHostNode(&nHost, g, &nCopyH, 1, &hp));
  musaGraphNodeType t;
  CHECK(musaGraphNodeGetType(nMemset, &t)); EXPECT(t == musaGraphNodeTypeMemset);
  CHECK(musaGraphNodeGetType(nKernel, &t)); EXPECT(t == musaGraphNodeTypeKernel);
  CHECK(musaGraphNodeGetType(nCopy, &t)); EXPECT(t == musaGraphNodeTypeMemcpy);
  CHECK(musaGraphNodeGetType(nHost, &t)); EXPECT(t == musaGraphNodeTypeHost);

  // Clone, then change the original's memset: the clone keeps value 3.
  musaGraph_t clone;
  CHECK(musaGraphClone(&clone, g));
  musaMemsetParams mp7 = memsetParams(a, 7, n);
  CHECK(musaGraphMemsetNodeSetParams(nMemset, &mp7));
  musaGraphExec_t ec, eg;
  CHECK(musaGraphInstantiate(&ec, clone, 0));
  CHECK(musaGraphLaunch(ec, s));
  CHECK(musaStreamSynchronize(s));
  EXPECT(hc.calls == 1 && hc.bad == 0 && hm[n - 1] == 16);
  CHECK(musaGraphInstantiate(&eg, g, 0));
  hc.expect = 36;
  CHECK(musaGraphLaunch(eg, s));
  CHECK(musaStreamSynchronize(s));
  EXPECT(hc.calls == 2 && hc.bad == 0 && hm[0] == 36);
  size_t cn = 0;
  CHECK(musaGraphGetNodes(clone, nullptr, &cn));
  EXPECT(cn == 5);
  // A node of the clone is found from the original's node.
  musaGraphNode_t cloned = nullptr;
  CHECK(musaGraphNodeFindInClone(&cloned, nMemset, clone));
  EXPECT(cloned != nullptr && cloned != nMemset);

  // musaGraphExecUpdate: the clone (memset 3) applied to eg.
  musaGraphExecUpdateResultInfo info;
  memset(&info, 0, sizeof info);
  CHECK(musaGraphExecUpdate(eg, clone, &info));
  EXPECT(info.result == musaGraphExecUpdateSuccess);
  hc.expect = 16;
  CHECK(musaGraphLaunch(eg, s));
  CHECK(musaStreamSynchronize(s));
  EXPECT(hc.calls == 3 && hc.bad == 0);
  // Topology change: an extra empty node.
  musaGraphNode_t extra;
  CHECK(musaGraphAddEmptyNode(&extra, clone, &nHost, 0));
  memset(&info, 0, sizeof info);
  musaError_t e = musaGraphExecUpdate(eg, clone, &info);
  printf("update with an added node: %s, result %d\n", musaGetErrorName(e), (int)info.result);
  EXPECT(e == musaErrorGraphExecUpdateFailure && info.result == musaGraphExecUpdateErrorTopologyChanged);
  musaGetLastError();
  // The exec graph is still usable with its old parameters.
  CHECK(musaGraphLaunch(eg, s));
  CHECK(musaStreamSynchronize(s));
  EXPECT(hc.calls == 4 && hc.bad == 0);
  // Node type change: same shape, but the kernel is replaced by a memset.
  musaGraph_t g3;
  CHECK(musaGraphCreate(&g3, 0));
  musaGraphNode_t m1, m2, c1, c2, h1;
  CHECK(musaGraphAddMemsetNode(&m1, g3, nullptr, 0, &mp));
  musaMemsetParams mp16 = memsetParams(a, 16, n);
  CHECK(musaGraphAddMemsetNode(&m2, g3, &m1, 1, &mp16));
  CHECK(musaGraphAddMemcpyNode1D(&c1, g3, &m2, 1, b, a, n * sizeof(int), musaMemcpyDeviceToDevice));
  CHECK(musaGraphAddMemcpyNode1D(&c2, g3, &c1, 1, hm, b, n * sizeof(int), musaMemcpyDeviceToHost));
  CHECK(musaGraphAddHostNode(&h1, g3, &c2, 1, &hp));
  memset(&info, 0, sizeof info);
  e = musaGraphExecUpdate(eg, g3, &info);
  printf("update with a node of another type: %s, result %d, errorNode %s\n", musaGetErrorName(e),
         (int)info.result, info.errorNode == m2 ? "m2" : (info.errorNode ? "other" : "null"));
  EXPECT(e == musaErrorGraphExecUpdateFailure && info.result == musaGraphExecUpdateErrorNodeTypeChanged);
  musaGetLastError();

  // Event record node in one graph, event wait node in another, on two streams.
  musaEvent_t ev;
  CHECK(musaEventCreateWithFlags(&ev, musaEventDisableTiming));
  musaGraph_t gp, gc;
  CHECK(musaGraphCreate(&gp, 0));
  CHECK(musaGraphCreate(&gc, 0));
  musaGraphNode_t p1, p2, p3, w1, w2;
  musaHostNodeParams sleepP = {hostSleep, nullptr};
  CHECK(musaGraphAddHostNode(&p1, gp, nullptr, 0, &sleepP));
  void *iargs[] = {&a, &nn};
  musaKernelNodeParams ip = kp;
  ip.func = (void *)iota;
  ip.kernelParams = iargs;
  CHECK(musaGraphAddKernelNode(&p2, gp, &p1, 1, &ip));
  CHECK(musaGraphAddEventRecordNode(&p3, gp, &p2, 1, ev));
  CHECK(musaGraphAddEventWaitNode(&w1, gc, nullptr, 0, ev));
  CHECK(musaGraphAddMemcpyNode1D(&w2, gc, &w1, 1, hm, a, n * sizeof(int), musaMemcpyDeviceToHost));
  musaEvent_t got = nullptr;
  CHECK(musaGraphEventRecordNodeGetEvent(p3, &got));
  EXPECT(got == ev);
  CHECK(musaGraphNodeGetType(w1, &t)); EXPECT(t == musaGraphNodeTypeWaitEvent);
  musaGraphExec_t ep, ecn;
  CHECK(musaGraphInstantiate(&ep, gp, 0));
  CHECK(musaGraphInstantiate(&ecn, gc, 0));
  // (a) The record node's graph finishes first; the wait node's graph then copies.
  memset(hm, 0xff, n * sizeof(int));
  CHECK(musaGraphLaunch(ep, s));
  CHECK(musaStreamSynchronize(s));
  EXPECT(musaEventQuery(ev) == musaSuccess);
  CHECK(musaGraphLaunch(ecn, s2));
  CHECK(musaStreamSynchronize(s2));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += hm[i] != i;
  EXPECT(bad == 0);
  // (b) A wait node waits for an ordinary musaEventRecord made at call time behind slow work
  // (ordering across streams that does not depend on when a graph's record node counts).
  CHECK(musaMemset(a, 0, n * sizeof(int)));
  memset(hm, 0xff, n * sizeof(int));
  CHECK(musaLaunchHostFunc(s, hostSleep, nullptr));
  iota<<<n / 256, 256, 0, s>>>(a, n);
  CHECK(musaEventRecord(ev, s));
  CHECK(musaGraphLaunch(ecn, s2));
  CHECK(musaStreamSynchronize(s2));
  bad = 0;
  for (int i = 0; i < n; ++i) bad += hm[i] != i;
  EXPECT(bad == 0);
  CHECK(musaStreamSynchronize(s));

  // Allocation node without a free: AutoFreeOnLaunch lets the graph relaunch.
  musaGraph_t ga;
  CHECK(musaGraphCreate(&ga, 0));
  musaMemAllocNodeParams ap;
  memset(&ap, 0, sizeof ap);
  ap.poolProps.allocType = musaMemAllocationTypePinned;
  ap.poolProps.location.type = musaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = n * sizeof(int);
  musaGraphNode_t an, ak, ac;
  CHECK(musaGraphAddMemAllocNode(&an, ga, nullptr, 0, &ap));
  EXPECT(ap.dptr != nullptr);
  int *tmp = (int *)ap.dptr;
  void *targs[] = {&tmp, &nn};
  musaKernelNodeParams tp = ip;
  tp.kernelParams = targs;
  CHECK(musaGraphAddKernelNode(&ak, ga, &an, 1, &tp));
  CHECK(musaGraphAddMemcpyNode1D(&ac, ga, &ak, 1, b, tmp, n * sizeof(int), musaMemcpyDeviceToDevice));
  musaGraphExec_t eaPlain, eaAuto;
  CHECK(musaGraphInstantiate(&eaPlain, ga, 0));
  CHECK(musaGraphLaunch(eaPlain, s));
  CHECK(musaStreamSynchronize(s));
  e = musaGraphLaunch(eaPlain, s); // allocation still live: relaunch refused
  printf("relaunch with an unfreed allocation: %s\n", musaGetErrorName(e));
  EXPECT(e != musaSuccess);
  musaGetLastError();
  CHECK(musaFree(tmp)); // free it outside the graph
  CHECK(musaDeviceSynchronize());
  CHECK(musaGraphExecDestroy(eaPlain));
  CHECK(musaGraphInstantiateWithFlags(&eaAuto, ga, musaGraphInstantiateFlagAutoFreeOnLaunch));
  for (int it = 0; it < 3; ++it) CHECK(musaGraphLaunch(eaAuto, s));
  CHECK(musaStreamSynchronize(s));
  CHECK(musaMemcpy(hm, b, n * sizeof(int), musaMemcpyDeviceToHost));
  EXPECT(hm[n - 1] == n - 1 && hm[7] == 7);
  CHECK(musaGraphExecDestroy(eaAuto)); // the last allocation stays until freed
  CHECK(musaFree(tmp));
  CHECK(musaDeviceSynchronize());

  // DOT output.
  const char *path = "/tmp/graph_manual_nodes.dot";
  remove(path);
  CHECK(musaGraphDebugDotPrint(g, path, musaGraphDebugDotFlagsVerbose));
  FILE *f = fopen(path, "r");
  char buf[4096] = {0};
  size_t len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  EXPECT(len > 0 && strstr(buf, "digraph") != nullptr);
  EXPECT(musaGraphDebugDotPrint(g, "/nonexistent-dir/x.dot", 0) != musaSuccess);
  musaGetLastError();

  CHECK(musaGraphExecDestroy(ec));
  CHECK(musaGraphExecDestroy(eg));
  CHECK(musaGraphExecDestroy(ep));
  CHECK(musaGraphExecDestroy(ecn));
  CHECK(musaGraphDestroy(g));
  CHECK(musaGraphDestroy(clone));
  CHECK(musaGraphDestroy(g3));
  CHECK(musaGraphDestroy(gp));
  CHECK(musaGraphDestroy(gc));
  CHECK(musaGraphDestroy(ga));
  CHECK(musaEventDestroy(ev));
  CHECK(musaFree(a));
  CHECK(musaFree(b));
  CHECK(musaFreeHost(hm));
  printf("graph_manual_nodes: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
