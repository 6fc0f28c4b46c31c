// The graph API without kernels: each host-side node type, capture rules, update result codes,
// graph memory attributes, clone and DOT output.
#include "GraphTestSupport.h"
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

void launchAndWait(musaGraphExec_t exec) {
  ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(0), musaSuccess);
}
} // namespace

TEST(GraphApi, HostEmptyAndChildNodesRunInOrder) {
  Counter counter;
  musaGraph_t child, g;
  ASSERT_EQ(musaGraphCreate(&child, 0), musaSuccess);
  musaHostNodeParams hp = {Counter::bump, &counter};
  musaGraphNode_t h1, e, c, h2;
  ASSERT_EQ(musaGraphAddHostNode(&h1, child, nullptr, 0, &hp), musaSuccess);
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  ASSERT_EQ(musaGraphAddEmptyNode(&e, g, nullptr, 0), musaSuccess);
  ASSERT_EQ(musaGraphAddChildGraphNode(&c, g, &e, 1, child), musaSuccess);
  ASSERT_EQ(musaGraphAddHostNode(&h2, g, &c, 1, &hp), musaSuccess);
  musaGraphExec_t exec = instantiate(g);
  launchAndWait(exec);
  launchAndWait(exec);
  EXPECT_EQ(counter.calls.load(), 4);
  musaHostNodeParams got;
  ASSERT_EQ(musaGraphHostNodeGetParams(h2, &got), musaSuccess);
  EXPECT_EQ(got.userData, &counter);
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaGraphDestroy(child);
}

TEST(GraphApi, MemcpyAndMemsetNodes) {
  std::vector<int> host(256, 7), back(256, 0);
  int *d;
  ASSERT_EQ(musaMalloc(&d, 1024), musaSuccess);
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaGraphNode_t up, set, down;
  ASSERT_EQ(musaGraphAddMemcpyNode1D(&up, g, nullptr, 0, d, host.data(), 1024,
                                     musaMemcpyHostToDevice),
            musaSuccess);
  musaMemsetParams mp = {};
  mp.dst = d + 128;
  mp.value = 0x01010101u;
  mp.elementSize = 4;
  mp.width = 128;
  mp.height = 1;
  ASSERT_EQ(musaGraphAddMemsetNode(&set, g, &up, 1, &mp), musaSuccess);
  ASSERT_EQ(musaGraphAddMemcpyNode1D(&down, g, &set, 1, back.data(), d, 1024,
                                     musaMemcpyDeviceToHost),
            musaSuccess);
  musaGraphExec_t exec = instantiate(g);
  launchAndWait(exec);
  EXPECT_EQ(back[0], 7);
  EXPECT_EQ(back[200], 0x01010101);
  mp.elementSize = 3;
  musaGraphNode_t bad;
  EXPECT_EQ(musaGraphAddMemsetNode(&bad, g, nullptr, 0, &mp), musaErrorInvalidValue);
  EXPECT_EQ(musaGraphAddMemcpyNode1D(&bad, g, nullptr, 0, d, host.data(), 4096,
                                     musaMemcpyHostToDevice),
            musaErrorInvalidValue); // past the allocation
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaFree(d);
  musaGetLastError();
}

TEST(GraphApi, EventNodesOrderAcrossStreams) {
  musaEvent_t ev;
  ASSERT_EQ(musaEventCreate(&ev), musaSuccess);
  Counter counter;
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaHostNodeParams hp = {Counter::bump, &counter};
  musaGraphNode_t h, rec;
  ASSERT_EQ(musaGraphAddHostNode(&h, g, nullptr, 0, &hp), musaSuccess);
  ASSERT_EQ(musaGraphAddEventRecordNode(&rec, g, &h, 1, ev), musaSuccess);
  musaGraphExec_t exec = instantiate(g);
  ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
  ASSERT_EQ(musaEventSynchronize(ev), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(0), musaSuccess);
  EXPECT_EQ(counter.calls.load(), 1);
  musaEvent_t got;
  ASSERT_EQ(musaGraphEventRecordNodeGetEvent(rec, &got), musaSuccess);
  EXPECT_EQ(got, ev);
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaEventDestroy(ev);
}

TEST(GraphApi, ConditionalIfFollowsItsDefault) {
  Counter counter;
  for (unsigned value : {0u, 1u}) {
    musaGraph_t g, body = nullptr;
    ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
    musaGraphConditionalHandle h;
    ASSERT_EQ(musaGraphConditionalHandleCreate(&h, g, value, musaGraphCondAssignDefault),
              musaSuccess);
    musaGraphNodeParams p = {};
    p.type = musaGraphNodeTypeConditional;
    p.conditional = {h, musaGraphCondTypeIf, 1, &body};
    musaGraphNode_t node, inner;
    ASSERT_EQ(musaGraphAddNode(&node, g, nullptr, 0, &p), musaSuccess);
    musaHostNodeParams hp = {Counter::bump, &counter};
    ASSERT_EQ(musaGraphAddHostNode(&inner, body, nullptr, 0, &hp), musaSuccess);
    musaGraphExec_t exec = instantiate(g);
    launchAndWait(exec);
    musaGraphExecDestroy(exec);
    musaGraphDestroy(g);
  }
  EXPECT_EQ(counter.calls.load(), 1); // only the IF whose condition defaulted to 1 ran
}

TEST(GraphApi, CaptureRecordsHostWorkAndRefusesSynchronisation) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  Counter counter;
  ASSERT_EQ(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(s, Counter::bump, &counter), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(s, Counter::bump, &counter), musaSuccess);
  EXPECT_EQ(counter.calls.load(), 0); // captured, not run
  musaGraph_t g;
  ASSERT_EQ(musaStreamEndCapture(s, &g), musaSuccess);
  size_t n = 0;
  ASSERT_EQ(musaGraphGetNodes(g, nullptr, &n), musaSuccess);
  EXPECT_EQ(n, 2u);
  musaGraphExec_t exec = instantiate(g);
  launchAndWait(exec);
  EXPECT_EQ(counter.calls.load(), 2);
  // Invalid cases.
  ASSERT_EQ(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal), musaSuccess);
  EXPECT_EQ(musaStreamQuery(s), musaErrorStreamCaptureUnsupported);
  EXPECT_EQ(musaStreamIsCapturing(s), musaErrorStreamCaptureInvalidated);
  musaGraph_t none;
  EXPECT_EQ(musaStreamEndCapture(s, &none), musaErrorStreamCaptureInvalidated);
  EXPECT_EQ(musaStreamEndCapture(s, &none), musaErrorIllegalState); // not capturing any more
  EXPECT_EQ(musaStreamBeginCapture(s, musaStreamCaptureMode(9)), musaErrorInvalidValue);
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaStreamDestroy(s);
  musaGetLastError();
}

TEST(GraphApi, UpdateResultCodes) {
  Counter a, b;
  musaHostNodeParams pa = {Counter::bump, &a}, pb = {Counter::bump, &b};
  musaGraph_t g1, g2, g3;
  musaGraphNode_t n1, n2, n3, extra;
  ASSERT_EQ(musaGraphCreate(&g1, 0), musaSuccess);
  ASSERT_EQ(musaGraphCreate(&g2, 0), musaSuccess);
  ASSERT_EQ(musaGraphCreate(&g3, 0), musaSuccess);
  ASSERT_EQ(musaGraphAddHostNode(&n1, g1, nullptr, 0, &pa), musaSuccess);
  ASSERT_EQ(musaGraphAddHostNode(&n2, g2, nullptr, 0, &pb), musaSuccess);
  ASSERT_EQ(musaGraphAddEmptyNode(&n3, g3, nullptr, 0), musaSuccess);
  musaGraphExec_t exec = instantiate(g1);
  musaGraphExecUpdateResultInfo info;
  ASSERT_EQ(musaGraphExecUpdate(exec, g2, &info), musaSuccess);
  EXPECT_EQ(info.result, musaGraphExecUpdateSuccess);
  launchAndWait(exec);
  EXPECT_EQ(a.calls.load(), 0);
  EXPECT_EQ(b.calls.load(), 1); // the update took the new host function's data
  EXPECT_EQ(musaGraphExecUpdate(exec, g3, &info), musaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, musaGraphExecUpdateErrorNodeTypeChanged);
  ASSERT_EQ(musaGraphAddEmptyNode(&extra, g2, &n2, 1), musaSuccess);
  EXPECT_EQ(musaGraphExecUpdate(exec, g2, &info), musaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, musaGraphExecUpdateErrorTopologyChanged);
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g1);
  musaGraphDestroy(g2);
  musaGraphDestroy(g3);
  musaGetLastError();
}

TEST(GraphApi, CloneAndDot) {
  Counter counter;
  musaGraph_t g, copy;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaHostNodeParams hp = {Counter::bump, &counter};
  musaGraphNode_t a, b, found;
  ASSERT_EQ(musaGraphAddHostNode(&a, g, nullptr, 0, &hp), musaSuccess);
  ASSERT_EQ(musaGraphAddEmptyNode(&b, g, &a, 1), musaSuccess);
  ASSERT_EQ(musaGraphClone(&copy, g), musaSuccess);
  ASSERT_EQ(musaGraphNodeFindInClone(&found, b, copy), musaSuccess);
  size_t deps = 1;
  musaGraphNode_t dep;
  ASSERT_EQ(musaGraphNodeGetDependencies(found, &dep, &deps), musaSuccess);
  EXPECT_NE(dep, a);
  char path[] = "/tmp/musa-sim-graph-XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  close(fd);
  ASSERT_EQ(musaGraphDebugDotPrint(g, path, musaGraphDebugDotFlagsVerbose), musaSuccess);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("digraph"), std::string::npos);
  EXPECT_NE(text.str().find("host function"), std::string::npos);
  std::remove(path);
  EXPECT_EQ(musaGraphDebugDotPrint(g, nullptr, 0), musaErrorInvalidValue);
  musaGraphDestroy(copy);
  musaGraphDestroy(g);
  musaGetLastError();
}

TEST(GraphApi, CopyAndMemsetNodesOnFreedMemoryReportAnIllegalAddress) {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
  GTEST_SKIP() << "ThreadSanitizer's memmove/memset interceptors read the freed memory first "
                  "and crash there, before the simulator's fault guard can report it";
#endif
#endif
  // The nodes were valid when added; their buffer is freed before the graph is launched.
  // Each launch reports musaErrorIllegalAddress naming the node instead of crashing.
  char *d = nullptr;
  ASSERT_EQ(musaMalloc(&d, 4096), musaSuccess);
  std::vector<char> host(4096, 3);
  for (bool memset : {false, true}) {
    musaGraph_t g;
    ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
    musaGraphNode_t node;
    if (memset) {
      musaMemsetParams mp = {};
      mp.dst = d;
      mp.value = 1;
      mp.elementSize = 4;
      mp.width = 1024;
      mp.height = 1;
      ASSERT_EQ(musaGraphAddMemsetNode(&node, g, nullptr, 0, &mp), musaSuccess);
    } else {
      ASSERT_EQ(musaGraphAddMemcpyNode1D(&node, g, nullptr, 0, d, host.data(), host.size(),
                                         musaMemcpyHostToDevice),
                musaSuccess);
    }
    musaGraphExec_t exec = instantiate(g);
    ASSERT_EQ(musaFree(d), musaSuccess);
    testing::internal::CaptureStderr();
    ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
    EXPECT_EQ(musaStreamSynchronize(0), musaErrorIllegalAddress);
    std::string report = testing::internal::GetCapturedStderr();
    EXPECT_NE(report.find(memset ? "graph node 'memset" : "graph node 'memcpy"),
              std::string::npos)
        << report;
    EXPECT_NE(report.find("illegal memory access at address"), std::string::npos) << report;
    EXPECT_EQ(musaGetLastError(), musaErrorIllegalAddress);
    EXPECT_EQ(musaGraphExecDestroy(exec), musaSuccess);
    EXPECT_EQ(musaGraphDestroy(g), musaSuccess);
    ASSERT_EQ(musaDeviceReset(), musaSuccess); // clears the sticky error
    ASSERT_EQ(musaMalloc(&d, 4096), musaSuccess);
  }
  EXPECT_EQ(musaFree(d), musaSuccess);
}

// The generic set-parameter calls reach each node type's own: a host node's callback data in
// the graph, a memset node's value in an instantiated graph; parameters of another type than
// the node's are refused. The instantiation flags read back.
TEST(GraphApi, GenericSetParamsAndExecFlags) {
  int *d;
  ASSERT_EQ(musaMalloc(&d, 64 * sizeof(int)), musaSuccess);
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  Counter first, second;
  musaGraphNodeParams host = {};
  host.type = musaGraphNodeTypeHost;
  host.host.fn = Counter::bump;
  host.host.userData = &first;
  musaGraphNode_t hostNode, setNode;
  ASSERT_EQ(musaGraphAddNode(&hostNode, g, nullptr, 0, &host), musaSuccess);
  musaGraphNodeParams set = {};
  set.type = musaGraphNodeTypeMemset;
  set.memset.dst = d;
  set.memset.value = 1;
  set.memset.elementSize = 4;
  set.memset.width = 64;
  set.memset.height = 1;
  ASSERT_EQ(musaGraphAddNode(&setNode, g, &hostNode, 1, &set), musaSuccess);
  host.host.userData = &second;
  ASSERT_EQ(musaGraphNodeSetParams(hostNode, &host), musaSuccess);
  EXPECT_EQ(musaGraphNodeSetParams(setNode, &host), musaErrorInvalidValue); // not a host node
  EXPECT_EQ(musaGraphNodeSetParams(hostNode, nullptr), musaErrorInvalidValue);
  musaGetLastError();
  musaGraphExec_t exec = nullptr;
  ASSERT_EQ(musaGraphInstantiateWithFlags(&exec, g, musaGraphInstantiateFlagAutoFreeOnLaunch),
            musaSuccess);
  unsigned long long flags = 0;
  ASSERT_EQ(musaGraphExecGetFlags(exec, &flags), musaSuccess);
  EXPECT_EQ(flags, (unsigned long long)musaGraphInstantiateFlagAutoFreeOnLaunch);
  EXPECT_EQ(musaGraphExecGetFlags(exec, nullptr), musaErrorInvalidValue);
  set.memset.value = 9;
  ASSERT_EQ(musaGraphExecNodeSetParams(exec, setNode, &set), musaSuccess);
  EXPECT_EQ(musaGraphExecNodeSetParams(exec, hostNode, &set), musaErrorInvalidValue);
  musaGetLastError();
  launchAndWait(exec);
  int back[64];
  ASSERT_EQ(musaMemcpy(back, d, sizeof back, musaMemcpyDeviceToHost), musaSuccess);
  EXPECT_EQ(back[0], 9);
  EXPECT_EQ(back[63], 9);
  EXPECT_EQ(first.calls, 0);
  EXPECT_EQ(second.calls, 1);
  // Launch attributes copy between kernel nodes only.
  EXPECT_EQ(musaGraphKernelNodeCopyAttributes(setNode, hostNode), musaErrorInvalidValue);
  musaGetLastError();
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaFree(d);
}

// User objects: the destructor runs once, when the program's, the graph's and the executable
// graph's references are all gone (the executable graph keeps its own after the graph goes);
// a moved reference passes to the graph.
TEST(GraphApi, UserObjectsLiveAsLongAsTheirReferences) {
  Counter destroyed;
  musaUserObject_t o = nullptr, other = nullptr;
  ASSERT_EQ(musaUserObjectCreate(&o, &destroyed, Counter::bump, 1, musaUserObjectNoDestructorSync),
            musaSuccess);
  EXPECT_EQ(musaUserObjectCreate(&other, &destroyed, Counter::bump, 1, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaUserObjectCreate(&other, &destroyed, Counter::bump, 0,
                                 musaUserObjectNoDestructorSync),
            musaErrorInvalidValue);
  musaGetLastError();
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaGraphNode_t empty;
  ASSERT_EQ(musaGraphAddEmptyNode(&empty, g, nullptr, 0), musaSuccess);
  ASSERT_EQ(musaGraphRetainUserObject(g, o, 2), musaSuccess);
  ASSERT_EQ(musaUserObjectRelease(o), musaSuccess); // the graph's two remain
  EXPECT_EQ(destroyed.calls, 0);
  musaGraphExec_t exec = instantiate(g);
  ASSERT_EQ(musaGraphReleaseUserObject(g, o, 2), musaSuccess);
  EXPECT_EQ(musaGraphReleaseUserObject(g, o, 1), musaErrorInvalidValue); // holds none now
  musaGetLastError();
  ASSERT_EQ(musaGraphDestroy(g), musaSuccess);
  EXPECT_EQ(destroyed.calls, 0); // the executable graph still holds its references
  launchAndWait(exec);
  ASSERT_EQ(musaGraphExecDestroy(exec), musaSuccess);
  EXPECT_EQ(destroyed.calls, 1);

  Counter moved;
  ASSERT_EQ(musaUserObjectCreate(&other, &moved, Counter::bump, 1, musaUserObjectNoDestructorSync),
            musaSuccess);
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  ASSERT_EQ(musaGraphRetainUserObject(g, other, 1, musaGraphUserObjectMove), musaSuccess);
  ASSERT_EQ(musaUserObjectRetain(other, 3), musaSuccess);
  ASSERT_EQ(musaUserObjectRelease(other, 3), musaSuccess);
  EXPECT_EQ(moved.calls, 0);
  ASSERT_EQ(musaGraphDestroy(g), musaSuccess);
  EXPECT_EQ(moved.calls, 1);
  EXPECT_EQ(musaUserObjectRelease(other), musaErrorInvalidValue); // gone
  musaGetLastError();
}

TEST(GraphApi, DestroyNodeRemovesItAndItsEdges) {
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  Counter a, b, c;
  musaHostNodeParams p = {Counter::bump, &a};
  musaGraphNode_t na, nb, nc;
  ASSERT_EQ(musaGraphAddHostNode(&na, g, nullptr, 0, &p), musaSuccess);
  p.userData = &b;
  ASSERT_EQ(musaGraphAddHostNode(&nb, g, &na, 1, &p), musaSuccess);
  p.userData = &c;
  ASSERT_EQ(musaGraphAddHostNode(&nc, g, &nb, 1, &p), musaSuccess);

  ASSERT_EQ(musaGraphDestroyNode(nb), musaSuccess);
  size_t count = 0;
  ASSERT_EQ(musaGraphGetNodes(g, nullptr, &count), musaSuccess);
  EXPECT_EQ(count, 2u);
  ASSERT_EQ(musaGraphGetEdges(g, nullptr, nullptr, &count), musaSuccess);
  EXPECT_EQ(count, 0u); // a->b and b->c went with b
  ASSERT_EQ(musaGraphNodeGetDependencies(nc, nullptr, &count), musaSuccess);
  EXPECT_EQ(count, 0u);
  ASSERT_EQ(musaGraphNodeGetDependentNodes(na, nullptr, &count), musaSuccess);
  EXPECT_EQ(count, 0u);
  ASSERT_EQ(musaGraphGetRootNodes(g, nullptr, &count), musaSuccess);
  EXPECT_EQ(count, 2u);
  musaGraphNodeType type;
  EXPECT_EQ(musaGraphNodeGetType(nb, &type), musaErrorInvalidValue); // gone
  EXPECT_EQ(musaGraphDestroyNode(nb), musaErrorInvalidValue);
  EXPECT_EQ(musaGraphDestroyNode(nullptr), musaErrorInvalidValue);
  musaGetLastError();

  musaGraphExec_t exec;
  ASSERT_EQ(musaGraphInstantiate(&exec, g, 0), musaSuccess);
  ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(0), musaSuccess);
  EXPECT_EQ(a.calls.load(), 1);
  EXPECT_EQ(b.calls.load(), 0);
  EXPECT_EQ(c.calls.load(), 1);
  // The executable graph is independent of its graph: destroying a node leaves it whole.
  ASSERT_EQ(musaGraphDestroyNode(na), musaSuccess);
  ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(0), musaSuccess);
  EXPECT_EQ(a.calls.load(), 2);
  EXPECT_EQ(musaGraphExecDestroy(exec), musaSuccess);

  // Not while a stream captures into the graph.
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  ASSERT_EQ(musaStreamBeginCaptureToGraph(s, g, nullptr, nullptr, 0, musaStreamCaptureModeRelaxed),
            musaSuccess);
  EXPECT_EQ(musaGraphDestroyNode(nc), musaErrorIllegalState);
  musaGraph_t same;
  ASSERT_EQ(musaStreamEndCapture(s, &same), musaSuccess);
  EXPECT_EQ(musaGraphDestroyNode(nc), musaSuccess);
  musaGetLastError();
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
  EXPECT_EQ(musaGraphDestroy(g), musaSuccess);
}
