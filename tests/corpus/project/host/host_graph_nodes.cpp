// Plain C++ host code building and running a graph without kernels: memset, 1D and 3D-form
// memcpy nodes and host nodes in a diamond, cloned, launched several times in a stream, and
// a stream capture of the same copies for comparison.
#include <musa_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      std::printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

struct Tally {
  std::vector<int> *host;
  long long sum = 0;
  int runs = 0;
};

static void MUSART_CB sumHost(void *p) {
  Tally *t = static_cast<Tally *>(p);
  long long s = 0;
  for (int v : *t->host)
    s += v;
  t->sum = s;
  ++t->runs;
}

int main() {
  const int n = 1 << 16;
  std::vector<int> src(n), dst(n, -1);
  for (int i = 0; i < n; ++i)
    src[i] = i % 10;
  int *dA, *dB;
  CHECK(musaMalloc(&dA, n * sizeof(int)));
  CHECK(musaMalloc(&dB, n * sizeof(int)));
  Tally tally{&dst};

  musaGraph_t g;
  CHECK(musaGraphCreate(&g, 0));
  musaGraphNode_t clearB, upload, copyHalf, download, tallyNode;
  musaMemsetParams ms = {};
  ms.dst = dB;
  ms.value = 0x01010101u;
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  CHECK(musaGraphAddMemsetNode(&clearB, g, nullptr, 0, &ms));
  CHECK(musaGraphAddMemcpyNode1D(&upload, g, nullptr, 0, dA, src.data(), n * sizeof(int),
                                 musaMemcpyHostToDevice));
  // dB's first half <- dA's second half, through the 3D-parameters form of a copy node.
  musaMemcpy3DParms cp = {};
  cp.srcPtr = make_musaPitchedPtr(dA + n / 2, n / 2 * sizeof(int), n / 2, 1);
  cp.dstPtr = make_musaPitchedPtr(dB, n / 2 * sizeof(int), n / 2, 1);
  cp.extent = make_musaExtent(n / 2 * sizeof(int), 1, 1);
  cp.kind = musaMemcpyDeviceToDevice;
  musaGraphNode_t deps[] = {clearB, upload};
  CHECK(musaGraphAddMemcpyNode(&copyHalf, g, deps, 2, &cp));
  CHECK(musaGraphAddMemcpyNode1D(&download, g, &copyHalf, 1, dst.data(), dB, n * sizeof(int),
                                 musaMemcpyDeviceToHost));
  musaHostNodeParams hp = {sumHost, &tally};
  CHECK(musaGraphAddHostNode(&tallyNode, g, &download, 1, &hp));

  musaGraph_t clone;
  CHECK(musaGraphClone(&clone, g));
  musaGraphExec_t exec;
  CHECK(musaGraphInstantiate(&exec, clone, nullptr, nullptr, 0));
  musaStream_t s;
  CHECK(musaStreamCreate(&s));
  for (int r = 0; r < 3; ++r)
    CHECK(musaGraphLaunch(exec, s));
  CHECK(musaStreamSynchronize(s));
  long long ref = 0;
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    int expect = i < n / 2 ? src[i + n / 2] : 0x01010101;
    ok = ok && dst[i] == expect;
    ref += expect;
  }
  ok = ok && tally.runs == 3 && tally.sum == ref;

  // The same upload and download by stream capture.
  std::vector<int> again(n, 0);
  musaGraph_t captured;
  CHECK(musaStreamBeginCapture(s, musaStreamCaptureModeThreadLocal));
  CHECK(musaMemcpyAsync(dA, src.data(), n * sizeof(int), musaMemcpyHostToDevice, s));
  CHECK(musaMemcpyAsync(again.data(), dA, n * sizeof(int), musaMemcpyDeviceToHost, s));
  CHECK(musaStreamEndCapture(s, &captured));
  musaGraphExec_t exec2;
  CHECK(musaGraphInstantiate(&exec2, captured, nullptr, nullptr, 0));
  CHECK(musaGraphLaunch(exec2, s));
  CHECK(musaStreamSynchronize(s));
  ok = ok && again == src;

  CHECK(musaGraphExecDestroy(exec));
  CHECK(musaGraphExecDestroy(exec2));
  CHECK(musaGraphDestroy(g));
  CHECK(musaGraphDestroy(clone));
  CHECK(musaGraphDestroy(captured));
  CHECK(musaStreamDestroy(s));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  std::printf("host_graph_nodes: 5-node graph (cloned) x3, host node sum %lld, %s\n", tally.sum,
              ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
