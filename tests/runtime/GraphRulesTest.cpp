// The graph API's rules without kernels: memory nodes and the graph memory attributes, the
// three capture modes and every invalid capture case of the graphs guide, the remaining update
// result codes, node enable/disable, dependencies and edge data, handle validation.
#include "GraphTestSupport.h"
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

uint64_t graphMem(musaGraphMemAttributeType attr) {
  uint64_t value = ~uint64_t(0);
  EXPECT_EQ(musaDeviceGetGraphMemAttribute(0, attr, &value), musaSuccess);
  return value;
}
} // namespace

TEST(GraphRules, MemoryNodesReserveUseAndFreeThePool) {
  ASSERT_EQ(musaDeviceGraphMemTrim(0), musaSuccess);
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaMemAllocNodeParams ap = {};
  ap.poolProps.allocType = musaMemAllocationTypePinned;
  ap.poolProps.location.type = musaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 1 << 20;
  musaGraphNode_t alloc, set, freeNode;
  ASSERT_EQ(musaGraphAddMemAllocNode(&alloc, g, nullptr, 0, &ap), musaSuccess);
  ASSERT_NE(ap.dptr, nullptr); // the address is fixed when the node is added
  musaMemsetParams mp = {};
  mp.dst = ap.dptr;
  mp.value = 0x5a;
  mp.elementSize = 1;
  mp.width = 1 << 20;
  mp.height = 1;
  ASSERT_EQ(musaGraphAddMemsetNode(&set, g, &alloc, 1, &mp), musaSuccess);
  ASSERT_EQ(musaGraphAddMemFreeNode(&freeNode, g, &set, 1, ap.dptr), musaSuccess);
  musaMemAllocNodeParams got = {};
  ASSERT_EQ(musaGraphMemAllocNodeGetParams(alloc, &got), musaSuccess);
  EXPECT_EQ(got.dptr, ap.dptr);
  EXPECT_EQ(got.bytesize, size_t(1 << 20));
  void *freed = nullptr;
  ASSERT_EQ(musaGraphMemFreeNodeGetParams(freeNode, &freed), musaSuccess);
  EXPECT_EQ(freed, ap.dptr);

  musaGraphExec_t exec = instantiate(g);
  EXPECT_GE(graphMem(musaGraphMemAttrReservedMemCurrent), uint64_t(1 << 20));
  ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(0), musaSuccess);
  EXPECT_GE(graphMem(musaGraphMemAttrUsedMemHigh), uint64_t(1 << 20));
  EXPECT_EQ(graphMem(musaGraphMemAttrUsedMemCurrent), 0u); // the free node ran
  // High watermarks reset to the current value; only 0 may be written.
  uint64_t zero = 0, one = 1;
  EXPECT_EQ(musaDeviceSetGraphMemAttribute(0, musaGraphMemAttrUsedMemHigh, &zero), musaSuccess);
  EXPECT_EQ(graphMem(musaGraphMemAttrUsedMemHigh), 0u);
  EXPECT_EQ(musaDeviceSetGraphMemAttribute(0, musaGraphMemAttrUsedMemHigh, &one),
            musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceSetGraphMemAttribute(0, musaGraphMemAttrUsedMemCurrent, &zero),
            musaErrorInvalidValue); // current values are read-only
  EXPECT_EQ(musaDeviceGetGraphMemAttribute(0, musaGraphMemAttributeType(99), &one),
            musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceGetGraphMemAttribute(0, musaGraphMemAttrUsedMemHigh, nullptr),
            musaErrorInvalidValue);
  // Trimming releases what no graph holds any more.
  ASSERT_EQ(musaGraphExecDestroy(exec), musaSuccess);
  ASSERT_EQ(musaGraphDestroy(g), musaSuccess);
  ASSERT_EQ(musaDeviceGraphMemTrim(0), musaSuccess);
  EXPECT_EQ(graphMem(musaGraphMemAttrReservedMemCurrent), 0u);
  EXPECT_EQ(musaDeviceGraphMemTrim(99), musaErrorInvalidDevice);
  musaGetLastError();
}

TEST(GraphRules, CaptureModesDecideWhichThreadsMayCallUnsafeApis) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  void *p = nullptr;
  // Relaxed: the capturing thread may allocate.
  ASSERT_EQ(musaStreamBeginCapture(s, musaStreamCaptureModeRelaxed), musaSuccess);
  EXPECT_EQ(musaMalloc(&p, 64), musaSuccess);
  EXPECT_EQ(musaFree(p), musaSuccess);
  musaGraph_t g = nullptr;
  ASSERT_EQ(musaStreamEndCapture(s, &g), musaSuccess);
  ASSERT_EQ(musaGraphDestroy(g), musaSuccess);
  // ThreadLocal: this thread may not; another thread may.
  ASSERT_EQ(musaStreamBeginCapture(s, musaStreamCaptureModeThreadLocal), musaSuccess);
  musaError_t other = musaErrorUnknown;
  std::thread([&] {
    void *q = nullptr;
    other = musaMalloc(&q, 64);
    musaFree(q);
  }).join();
  EXPECT_EQ(other, musaSuccess);
  EXPECT_EQ(musaMalloc(&p, 64), musaErrorStreamCaptureUnsupported);
  EXPECT_EQ(musaStreamEndCapture(s, &g), musaErrorStreamCaptureInvalidated);
  // Global: no thread may.
  ASSERT_EQ(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal), musaSuccess);
  std::thread([&] {
    void *q = nullptr;
    other = musaMalloc(&q, 64);
  }).join();
  EXPECT_EQ(other, musaErrorStreamCaptureUnsupported);
  EXPECT_EQ(musaStreamEndCapture(s, &g), musaErrorStreamCaptureInvalidated);
  // A thread can relax itself for a section with musaThreadExchangeStreamCaptureMode.
  ASSERT_EQ(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal), musaSuccess);
  musaStreamCaptureMode mode = musaStreamCaptureModeRelaxed;
  ASSERT_EQ(musaThreadExchangeStreamCaptureMode(&mode), musaSuccess);
  EXPECT_EQ(mode, musaStreamCaptureModeGlobal); // the previous mode comes back
  EXPECT_EQ(musaMalloc(&p, 64), musaSuccess);
  EXPECT_EQ(musaFree(p), musaSuccess);
  ASSERT_EQ(musaThreadExchangeStreamCaptureMode(&mode), musaSuccess);
  ASSERT_EQ(musaStreamEndCapture(s, &g), musaSuccess);
  ASSERT_EQ(musaGraphDestroy(g), musaSuccess);
  ASSERT_EQ(musaStreamDestroy(s), musaSuccess);
  musaGetLastError();
}

TEST(GraphRules, InvalidCapturesOfTheGuide) {
  musaStream_t a, b;
  ASSERT_EQ(musaStreamCreate(&a), musaSuccess);
  ASSERT_EQ(musaStreamCreate(&b), musaSuccess);
  Counter counter;
  musaGraph_t g = nullptr;
  // The legacy stream cannot be captured, nor used while a blocking stream captures.
  EXPECT_EQ(musaStreamBeginCapture(0, musaStreamCaptureModeGlobal),
            musaErrorStreamCaptureUnsupported);
  ASSERT_EQ(musaStreamBeginCapture(a, musaStreamCaptureModeGlobal), musaSuccess);
  EXPECT_EQ(musaLaunchHostFunc(0, Counter::bump, &counter), musaErrorStreamCaptureImplicit);
  EXPECT_EQ(musaStreamEndCapture(a, &g), musaErrorStreamCaptureInvalidated);
  // Synchronous copies during capture use the legacy stream: refused in every mode
  // (tests/hardware/capture_corner_cases.h200.txt).
  std::vector<char> host(64);
  char *d = nullptr;
  ASSERT_EQ(musaMalloc(&d, 64), musaSuccess);
  ASSERT_EQ(musaStreamBeginCapture(a, musaStreamCaptureModeRelaxed), musaSuccess);
  EXPECT_EQ(musaMemcpy(d, host.data(), 64, musaMemcpyHostToDevice),
            musaErrorStreamCaptureImplicit);
  EXPECT_EQ(musaStreamEndCapture(a, &g), musaErrorStreamCaptureInvalidated);
  // A fork that is never joined back.
  musaEvent_t fork;
  ASSERT_EQ(musaEventCreate(&fork), musaSuccess);
  ASSERT_EQ(musaStreamBeginCapture(a, musaStreamCaptureModeGlobal), musaSuccess);
  ASSERT_EQ(musaEventRecord(fork, a), musaSuccess);
  ASSERT_EQ(musaStreamWaitEvent(b, fork, 0), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(b, Counter::bump, &counter), musaSuccess);
  musaStreamCaptureStatus status;
  ASSERT_EQ(musaStreamIsCapturing(b, &status), musaSuccess);
  EXPECT_EQ(status, musaStreamCaptureStatusActive); // b joined a's capture
  // Ending on the forked stream, not the origin.
  EXPECT_EQ(musaStreamEndCapture(b, &g), musaErrorStreamCaptureUnmatched);
  EXPECT_EQ(musaStreamEndCapture(a, &g), musaErrorStreamCaptureUnjoined);
  // Two independent captures may not be merged.
  musaEvent_t other;
  ASSERT_EQ(musaEventCreate(&other), musaSuccess);
  ASSERT_EQ(musaStreamBeginCapture(a, musaStreamCaptureModeGlobal), musaSuccess);
  ASSERT_EQ(musaStreamBeginCapture(b, musaStreamCaptureModeGlobal), musaSuccess);
  ASSERT_EQ(musaEventRecord(other, a), musaSuccess);
  EXPECT_EQ(musaStreamWaitEvent(b, other, 0), musaErrorStreamCaptureIsolation);
  EXPECT_EQ(musaStreamEndCapture(a, &g), musaErrorStreamCaptureInvalidated);
  EXPECT_EQ(musaStreamEndCapture(b, &g), musaErrorStreamCaptureInvalidated);
  // Counter ran nowhere: every one of these captures was discarded.
  EXPECT_EQ(counter.calls.load(), 0);
  musaEventDestroy(fork);
  musaEventDestroy(other);
  musaFree(d);
  musaStreamDestroy(a);
  musaStreamDestroy(b);
  musaGetLastError();
}

TEST(GraphRules, DestroyingACapturingStreamEndsItsCaptureInvalidated) {
  // Destroying the stream a Global capture began on ends that capture: the process goes on
  // allocating, launching and synchronising normally.
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  Counter counter;
  ASSERT_EQ(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(s, Counter::bump, &counter), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
  void *p = nullptr;
  EXPECT_EQ(musaMalloc(&p, 64), musaSuccess);
  EXPECT_EQ(musaLaunchHostFunc(0, Counter::bump, &counter), musaSuccess);
  EXPECT_EQ(musaDeviceSynchronize(), musaSuccess);
  EXPECT_EQ(musaFree(p), musaSuccess);
  EXPECT_EQ(counter.calls.load(), 1); // only the legacy-stream call ran, never the captured one
  EXPECT_EQ(musaGetLastError(), musaSuccess);

  // Destroying a stream that joined a capture through a fork invalidates the capture; the
  // origin ends it with musaErrorStreamCaptureInvalidated.
  musaStream_t origin, forked;
  musaEvent_t fork;
  ASSERT_EQ(musaStreamCreate(&origin), musaSuccess);
  ASSERT_EQ(musaStreamCreate(&forked), musaSuccess);
  ASSERT_EQ(musaEventCreate(&fork), musaSuccess);
  ASSERT_EQ(musaStreamBeginCapture(origin, musaStreamCaptureModeGlobal), musaSuccess);
  ASSERT_EQ(musaEventRecord(fork, origin), musaSuccess);
  ASSERT_EQ(musaStreamWaitEvent(forked, fork, 0), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(forked, Counter::bump, &counter), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(forked), musaSuccess);
  musaStreamCaptureStatus status;
  ASSERT_EQ(musaStreamIsCapturing(origin, &status), musaSuccess);
  EXPECT_EQ(status, musaStreamCaptureStatusInvalidated);
  musaGraph_t g = nullptr;
  EXPECT_EQ(musaStreamEndCapture(origin, &g), musaErrorStreamCaptureInvalidated);
  EXPECT_EQ(g, nullptr);
  EXPECT_EQ(musaMalloc(&p, 64), musaSuccess);
  EXPECT_EQ(musaFree(p), musaSuccess);

  // musaDeviceReset ends a capture in progress too, and the device works afterwards.
  ASSERT_EQ(musaStreamBeginCapture(origin, musaStreamCaptureModeGlobal), musaSuccess);
  EXPECT_EQ(musaDeviceReset(), musaSuccess);
  EXPECT_EQ(musaMalloc(&p, 64), musaSuccess);
  EXPECT_EQ(musaLaunchHostFunc(0, Counter::bump, &counter), musaSuccess);
  EXPECT_EQ(musaDeviceSynchronize(), musaSuccess);
  EXPECT_EQ(musaFree(p), musaSuccess);
  EXPECT_EQ(counter.calls.load(), 2);
  EXPECT_EQ(musaGetLastError(), musaSuccess);
}

TEST(GraphRules, CapturedForkAndJoinMakeOnlyTheWorkNodes) {
  // A on s1; fork to s2 (record e1, s2 waits e1); B on s1, C on s2; join (record e2 on s2,
  // s1 waits e2); D on s1. Records and waits carry dependencies only: 4 nodes, 4 edges.
  musaStream_t s1, s2;
  musaEvent_t e1, e2;
  ASSERT_EQ(musaStreamCreate(&s1), musaSuccess);
  ASSERT_EQ(musaStreamCreate(&s2), musaSuccess);
  ASSERT_EQ(musaEventCreate(&e1), musaSuccess);
  ASSERT_EQ(musaEventCreate(&e2), musaSuccess);
  Counter a, b, c, d;
  ASSERT_EQ(musaStreamBeginCapture(s1, musaStreamCaptureModeGlobal), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(s1, Counter::bump, &a), musaSuccess);
  ASSERT_EQ(musaEventRecord(e1, s1), musaSuccess);
  ASSERT_EQ(musaStreamWaitEvent(s2, e1, 0), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(s1, Counter::bump, &b), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(s2, Counter::bump, &c), musaSuccess);
  ASSERT_EQ(musaEventRecord(e2, s2), musaSuccess);
  ASSERT_EQ(musaStreamWaitEvent(s1, e2, 0), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(s1, Counter::bump, &d), musaSuccess);
  musaGraph_t g = nullptr;
  ASSERT_EQ(musaStreamEndCapture(s1, &g), musaSuccess);
  size_t numNodes = 0, numEdges = 0;
  ASSERT_EQ(musaGraphGetNodes(g, nullptr, &numNodes), musaSuccess);
  EXPECT_EQ(numNodes, 4u);
  std::vector<musaGraphNode_t> from(8), to(8);
  numEdges = from.size();
  ASSERT_EQ(musaGraphGetEdges(g, from.data(), to.data(), &numEdges), musaSuccess);
  ASSERT_EQ(numEdges, 4u);
  // Name each node by the counter its host function bumps.
  auto which = [&](musaGraphNode_t n) -> char {
    musaHostNodeParams hp = {};
    EXPECT_EQ(musaGraphHostNodeGetParams(n, &hp), musaSuccess);
    return hp.userData == &a ? 'A' : hp.userData == &b ? 'B' : hp.userData == &c ? 'C' : 'D';
  };
  std::set<std::string> edges;
  for (size_t i = 0; i < numEdges; ++i)
    edges.insert(std::string{which(from[i]), '>', which(to[i])});
  EXPECT_EQ(edges, (std::set<std::string>{"A>B", "A>C", "B>D", "C>D"}));
  musaGraphExec_t exec = instantiate(g);
  ASSERT_EQ(musaGraphLaunch(exec, s1), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(s1), musaSuccess);
  EXPECT_EQ(a.calls + b.calls + c.calls + d.calls, 4);

  // An External record is a node of its own.
  ASSERT_EQ(musaStreamBeginCapture(s1, musaStreamCaptureModeGlobal), musaSuccess);
  ASSERT_EQ(musaEventRecordWithFlags(e1, s1, musaEventRecordExternal), musaSuccess);
  musaGraph_t withRecord = nullptr;
  ASSERT_EQ(musaStreamEndCapture(s1, &withRecord), musaSuccess);
  numNodes = 1;
  musaGraphNode_t node = nullptr;
  ASSERT_EQ(musaGraphGetNodes(withRecord, &node, &numNodes), musaSuccess);
  ASSERT_EQ(numNodes, 1u);
  musaGraphNodeType type;
  ASSERT_EQ(musaGraphNodeGetType(node, &type), musaSuccess);
  EXPECT_EQ(type, musaGraphNodeTypeEventRecord);
  EXPECT_EQ(musaGraphExecDestroy(exec), musaSuccess);
  EXPECT_EQ(musaGraphDestroy(g), musaSuccess);
  EXPECT_EQ(musaGraphDestroy(withRecord), musaSuccess);
  musaEventDestroy(e1);
  musaEventDestroy(e2);
  musaStreamDestroy(s1);
  musaStreamDestroy(s2);
}

TEST(GraphRules, UpdateRefusesChangedDirectionsAndUnsupportedNodes) {
  std::vector<int> host(64, 3);
  int *d = nullptr;
  ASSERT_EQ(musaMalloc(&d, 256), musaSuccess);
  musaGraph_t up, down;
  ASSERT_EQ(musaGraphCreate(&up, 0), musaSuccess);
  ASSERT_EQ(musaGraphCreate(&down, 0), musaSuccess);
  musaGraphNode_t n1, n2;
  ASSERT_EQ(musaGraphAddMemcpyNode1D(&n1, up, nullptr, 0, d, host.data(), 256,
                                     musaMemcpyHostToDevice),
            musaSuccess);
  ASSERT_EQ(musaGraphAddMemcpyNode1D(&n2, down, nullptr, 0, host.data(), d, 256,
                                     musaMemcpyDeviceToHost),
            musaSuccess);
  musaGraphExec_t exec = instantiate(up);
  musaGraphExecUpdateResultInfo info;
  EXPECT_EQ(musaGraphExecUpdate(exec, down, &info), musaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, musaGraphExecUpdateErrorParametersChanged);
  EXPECT_EQ(info.errorNode, n2);
  // The older 4-argument form reports the same through its out parameters.
  musaGraphNode_t errorNode = nullptr;
  musaGraphExecUpdateResult result = musaGraphExecUpdateSuccess;
  EXPECT_EQ(musaGraphExecUpdate(exec, down, &errorNode, &result),
            musaErrorGraphExecUpdateFailure);
  EXPECT_EQ(result, musaGraphExecUpdateErrorParametersChanged);
  EXPECT_EQ(errorNode, n2);
  ASSERT_EQ(musaGraphExecDestroy(exec), musaSuccess);
  // Child graph nodes cannot be updated in place.
  musaGraph_t parent1, parent2;
  ASSERT_EQ(musaGraphCreate(&parent1, 0), musaSuccess);
  ASSERT_EQ(musaGraphCreate(&parent2, 0), musaSuccess);
  musaGraphNode_t c1, c2;
  ASSERT_EQ(musaGraphAddChildGraphNode(&c1, parent1, nullptr, 0, up), musaSuccess);
  ASSERT_EQ(musaGraphAddChildGraphNode(&c2, parent2, nullptr, 0, up), musaSuccess);
  exec = instantiate(parent1);
  EXPECT_EQ(musaGraphExecUpdate(exec, parent2, &info), musaErrorGraphExecUpdateFailure);
  EXPECT_EQ(info.result, musaGraphExecUpdateErrorNotSupported);
  EXPECT_EQ(musaGraphExecUpdate(exec, parent2, nullptr), musaErrorInvalidValue);
  ASSERT_EQ(musaGraphExecDestroy(exec), musaSuccess);
  for (musaGraph_t g : {up, down, parent1, parent2})
    musaGraphDestroy(g);
  musaFree(d);
  musaGetLastError();
}

TEST(GraphRules, DisabledNodesAreSkippedUntilEnabled) {
  int *d = nullptr, back = 0;
  ASSERT_EQ(musaMalloc(&d, sizeof(int)), musaSuccess);
  ASSERT_EQ(musaMemset(d, 0, sizeof(int)), musaSuccess);
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaMemsetParams mp = {};
  mp.dst = d;
  mp.value = 0x7f;
  mp.elementSize = 1;
  mp.width = sizeof(int);
  mp.height = 1;
  musaGraphNode_t set, h;
  ASSERT_EQ(musaGraphAddMemsetNode(&set, g, nullptr, 0, &mp), musaSuccess);
  Counter counter;
  musaHostNodeParams hp = {Counter::bump, &counter};
  ASSERT_EQ(musaGraphAddHostNode(&h, g, nullptr, 0, &hp), musaSuccess);
  musaGraphExec_t exec = instantiate(g);
  unsigned enabled = 7;
  ASSERT_EQ(musaGraphNodeGetEnabled(exec, set, &enabled), musaSuccess);
  EXPECT_EQ(enabled, 1u);
  ASSERT_EQ(musaGraphNodeSetEnabled(exec, set, 0), musaSuccess);
  ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
  ASSERT_EQ(musaMemcpy(&back, d, sizeof back, musaMemcpyDeviceToHost), musaSuccess);
  EXPECT_EQ(back, 0); // skipped
  ASSERT_EQ(musaGraphNodeSetEnabled(exec, set, 1), musaSuccess);
  ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
  ASSERT_EQ(musaMemcpy(&back, d, sizeof back, musaMemcpyDeviceToHost), musaSuccess);
  EXPECT_EQ(back, 0x7f7f7f7f);
  // Only kernel, memcpy and memset nodes can be disabled (tests/hardware/graph_corner_cases).
  EXPECT_EQ(musaGraphNodeSetEnabled(exec, h, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaGraphNodeGetEnabled(exec, h, &enabled), musaErrorInvalidValue);
  EXPECT_EQ(counter.calls.load(), 2);
  musaFree(d);
  musaGraph_t other;
  ASSERT_EQ(musaGraphCreate(&other, 0), musaSuccess);
  musaGraphNode_t stranger;
  ASSERT_EQ(musaGraphAddEmptyNode(&stranger, other, nullptr, 0), musaSuccess);
  EXPECT_EQ(musaGraphNodeSetEnabled(exec, stranger, 0), musaErrorInvalidValue);
  musaGraphExecDestroy(exec);
  musaGetLastError();
  musaGraphDestroy(g);
  musaGraphDestroy(other);
  musaGetLastError();
}

TEST(GraphRules, DependenciesEdgesAndEdgeData) {
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaGraphNode_t a, b, c;
  ASSERT_EQ(musaGraphAddEmptyNode(&a, g, nullptr, 0), musaSuccess);
  ASSERT_EQ(musaGraphAddEmptyNode(&b, g, nullptr, 0), musaSuccess);
  ASSERT_EQ(musaGraphAddEmptyNode(&c, g, nullptr, 0), musaSuccess);
  ASSERT_EQ(musaGraphAddDependencies(g, &a, &b, 1), musaSuccess);
  ASSERT_EQ(musaGraphAddDependencies(g, &b, &c, 1), musaSuccess);
  EXPECT_EQ(musaGraphAddDependencies(g, &c, &a, 1), musaSuccess); // a cycle: refused later
  musaGraphExec_t exec = nullptr;
  EXPECT_NE(musaGraphInstantiate(&exec, g, 0), musaSuccess);
  ASSERT_EQ(musaGraphRemoveDependencies(g, &c, &a, 1), musaSuccess);
  EXPECT_EQ(musaGraphRemoveDependencies(g, &c, &a, 1), musaErrorInvalidValue); // no such edge
  size_t edges = 0;
  ASSERT_EQ(musaGraphGetEdges(g, nullptr, nullptr, &edges), musaSuccess);
  EXPECT_EQ(edges, 2u);
  size_t roots = 0;
  ASSERT_EQ(musaGraphGetRootNodes(g, nullptr, &roots), musaSuccess);
  EXPECT_EQ(roots, 1u);
  size_t dependents = 4;
  musaGraphNode_t out[4];
  ASSERT_EQ(musaGraphNodeGetDependentNodes(a, out, &dependents), musaSuccess);
  ASSERT_EQ(dependents, 1u);
  EXPECT_EQ(out[0], b);
  // Edge data: the default is accepted, anything else refused with NotSupported
  // (spec/DECISIONS.md 13; CUDA answers InvalidValue, tests/hardware/capture_corner_cases).
  musaGraphEdgeData data = {};
  musaGraphNode_t d;
  ASSERT_EQ(musaGraphAddEmptyNode(&d, g, nullptr, 0), musaSuccess);
  EXPECT_EQ(musaGraphAddDependencies_v2(g, &c, &d, &data, 1), musaSuccess);
  data.type = 1; // programmatic
  EXPECT_EQ(musaGraphAddDependencies_v2(g, &a, &d, &data, 1), musaErrorNotSupported);
  musaGraphNodeType type;
  ASSERT_EQ(musaGraphNodeGetType(d, &type), musaSuccess);
  EXPECT_EQ(type, musaGraphNodeTypeEmpty);
  ASSERT_EQ(musaGraphInstantiate(&exec, g, 0), musaSuccess);
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaGetLastError();
}

TEST(GraphRules, StaleHandlesGiveErrorsNotCrashes) {
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaGraphNode_t n;
  ASSERT_EQ(musaGraphAddEmptyNode(&n, g, nullptr, 0), musaSuccess);
  musaGraphExec_t exec = instantiate(g);
  ASSERT_EQ(musaGraphExecDestroy(exec), musaSuccess);
  ASSERT_EQ(musaGraphDestroy(g), musaSuccess);
  size_t count = 0;
  EXPECT_EQ(musaGraphGetNodes(g, nullptr, &count), musaErrorInvalidValue);
  musaGraphNodeType type;
  EXPECT_EQ(musaGraphNodeGetType(n, &type), musaErrorInvalidValue);
  EXPECT_EQ(musaGraphLaunch(exec, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaGraphExecDestroy(exec), musaErrorInvalidValue);
  EXPECT_EQ(musaGraphCreate(nullptr, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaGraphCreate(&g, 1), musaErrorInvalidValue); // flags must be 0
  musaGetLastError();
}

TEST(GraphRules, ConditionalWhileWithAFalseDefaultNeverRunsItsBody) {
  // Without a kernel to call musaGraphSetConditional, a WHILE loop can only be tested at its
  // default: 0 runs the body zero times (the looping case is tests/e2e/graph_conditional.mu).
  Counter counter;
  musaGraph_t g, body = nullptr;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaGraphConditionalHandle h;
  ASSERT_EQ(musaGraphConditionalHandleCreate(&h, g, 0, musaGraphCondAssignDefault), musaSuccess);
  musaGraphNodeParams p = {};
  p.type = musaGraphNodeTypeConditional;
  p.conditional = {h, musaGraphCondTypeWhile, 1, &body};
  musaGraphNode_t node, inner, after;
  ASSERT_EQ(musaGraphAddNode(&node, g, nullptr, 0, &p), musaSuccess);
  ASSERT_NE(body, nullptr); // the runtime creates the body graph
  musaHostNodeParams hp = {Counter::bump, &counter};
  ASSERT_EQ(musaGraphAddHostNode(&inner, body, nullptr, 0, &hp), musaSuccess);
  ASSERT_EQ(musaGraphAddHostNode(&after, g, &node, 1, &hp), musaSuccess);
  musaGraphExec_t exec = instantiate(g);
  ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(0), musaSuccess);
  EXPECT_EQ(counter.calls.load(), 1); // only the node after the loop
  // A conditional node needs a handle of its own graph and a body count of one.
  musaGraph_t other;
  ASSERT_EQ(musaGraphCreate(&other, 0), musaSuccess);
  musaGraphNode_t bad;
  EXPECT_EQ(musaGraphAddNode(&bad, other, nullptr, 0, &p), musaErrorInvalidValue);
  p.conditional.size = 2;
  EXPECT_EQ(musaGraphAddNode(&bad, g, nullptr, 0, &p), musaErrorInvalidValue);
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaGraphDestroy(other);
  musaGetLastError();
}

/// A graph with one conditional node of `type` and `size` bodies, each body one host node
/// bumping its own counter, the condition defaulting to `value` at each launch.
static void runConditional(musaGraphConditionalNodeType type, unsigned size, unsigned value,
                           Counter *counters) {
  musaGraph_t g, bodies[4] = {};
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaGraphConditionalHandle h;
  ASSERT_EQ(musaGraphConditionalHandleCreate(&h, g, value, musaGraphCondAssignDefault),
            musaSuccess);
  musaGraphNodeParams p = {};
  p.type = musaGraphNodeTypeConditional;
  p.conditional = {h, type, size, bodies};
  musaGraphNode_t node, inner;
  ASSERT_EQ(musaGraphAddNode(&node, g, nullptr, 0, &p), musaSuccess);
  for (unsigned i = 0; i < size; ++i) {
    ASSERT_NE(bodies[i], nullptr);
    musaHostNodeParams hp = {Counter::bump, &counters[i]};
    ASSERT_EQ(musaGraphAddHostNode(&inner, bodies[i], nullptr, 0, &hp), musaSuccess);
  }
  musaGraphExec_t exec = instantiate(g);
  ASSERT_EQ(musaGraphLaunch(exec, 0), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(0), musaSuccess);
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
}

TEST(GraphRules, ConditionalSwitchRunsTheBodyTheValueNames) {
  Counter counters[3];
  runConditional(musaGraphCondTypeSwitch, 3, 1, counters);
  EXPECT_EQ(counters[0].calls.load(), 0);
  EXPECT_EQ(counters[1].calls.load(), 1);
  EXPECT_EQ(counters[2].calls.load(), 0);
  Counter none[3];
  runConditional(musaGraphCondTypeSwitch, 3, 7, none); // names no body: none runs
  EXPECT_EQ(none[0].calls + none[1].calls + none[2].calls, 0);
}

TEST(GraphRules, ConditionalIfWithTwoBodiesRunsTheSecondWhenFalse) {
  Counter whenFalse[2], whenTrue[2];
  runConditional(musaGraphCondTypeIf, 2, 0, whenFalse);
  EXPECT_EQ(whenFalse[0].calls.load(), 0);
  EXPECT_EQ(whenFalse[1].calls.load(), 1);
  runConditional(musaGraphCondTypeIf, 2, 5, whenTrue);
  EXPECT_EQ(whenTrue[0].calls.load(), 1);
  EXPECT_EQ(whenTrue[1].calls.load(), 0);
}

TEST(GraphRules, ConditionalBodyCountsOutsideCudasAreRejected) {
  musaGraph_t g, bodies[4] = {};
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaGraphConditionalHandle h;
  ASSERT_EQ(musaGraphConditionalHandleCreate(&h, g, 0, 0), musaSuccess);
  musaGraphNodeParams p = {};
  p.type = musaGraphNodeTypeConditional;
  musaGraphNode_t node;
  p.conditional = {h, musaGraphCondTypeIf, 3, bodies};
  EXPECT_EQ(musaGraphAddNode(&node, g, nullptr, 0, &p), musaErrorInvalidValue);
  p.conditional = {h, musaGraphCondTypeSwitch, 0, bodies};
  EXPECT_EQ(musaGraphAddNode(&node, g, nullptr, 0, &p), musaErrorInvalidValue);
  p.conditional = {h, musaGraphConditionalNodeType(3), 1, bodies};
  EXPECT_EQ(musaGraphAddNode(&node, g, nullptr, 0, &p), musaErrorInvalidValue);
  EXPECT_EQ(bodies[0], nullptr); // no output on failure
  musaGraphDestroy(g);
  musaGetLastError();
}

TEST(GraphRules, EventWaitAndSemaphoreNodesOrderWork) {
  // An event wait node holds its graph until another stream records the event; semaphore
  // signal and wait nodes pair up inside one graph.
  musaEvent_t ev;
  ASSERT_EQ(musaEventCreate(&ev), musaSuccess);
  int fd = -1;
  ASSERT_EQ(musaSimCreateSemaphoreFd(&fd, 0), musaSuccess);
  musaExternalSemaphoreHandleDesc desc = {};
  desc.type = musaExternalSemaphoreHandleTypeOpaqueFd;
  desc.handle.fd = fd;
  musaExternalSemaphore_t sem;
  ASSERT_EQ(musaImportExternalSemaphore(&sem, &desc), musaSuccess);

  Counter counter;
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaExternalSemaphoreSignalParams one = {};
  musaExternalSemaphoreSignalNodeParams sp = {&sem, &one, 1};
  musaExternalSemaphoreWaitParams take = {};
  musaExternalSemaphoreWaitNodeParams wp = {&sem, &take, 1};
  musaHostNodeParams hp = {Counter::bump, &counter};
  musaGraphNode_t wait, signal, semWait, h;
  ASSERT_EQ(musaGraphAddEventWaitNode(&wait, g, nullptr, 0, ev), musaSuccess);
  ASSERT_EQ(musaGraphAddExternalSemaphoresSignalNode(&signal, g, &wait, 1, &sp), musaSuccess);
  ASSERT_EQ(musaGraphAddExternalSemaphoresWaitNode(&semWait, g, &signal, 1, &wp), musaSuccess);
  ASSERT_EQ(musaGraphAddHostNode(&h, g, &semWait, 1, &hp), musaSuccess);
  musaGraphNodeType type;
  ASSERT_EQ(musaGraphNodeGetType(wait, &type), musaSuccess);
  EXPECT_EQ(type, musaGraphNodeTypeWaitEvent);
  ASSERT_EQ(musaGraphNodeGetType(semWait, &type), musaSuccess);
  EXPECT_EQ(type, musaGraphNodeTypeExtSemasWait);
  musaEvent_t got = nullptr;
  ASSERT_EQ(musaGraphEventWaitNodeGetEvent(wait, &got), musaSuccess);
  EXPECT_EQ(got, ev);
  musaExternalSemaphoreWaitNodeParams gotWait = {};
  ASSERT_EQ(musaGraphExternalSemaphoresWaitNodeGetParams(semWait, &gotWait), musaSuccess);
  EXPECT_EQ(gotWait.numExtSems, 1u);
  EXPECT_EQ(gotWait.extSemArray[0], sem);

  // A stream that records the event only after a host function that waits for a flag.
  musaStream_t recorder, runner;
  ASSERT_EQ(musaStreamCreateWithFlags(&recorder, musaStreamNonBlocking), musaSuccess);
  ASSERT_EQ(musaStreamCreateWithFlags(&runner, musaStreamNonBlocking), musaSuccess);
  std::atomic<bool> release{false};
  auto gate = [](void *flag) {
    while (!static_cast<std::atomic<bool> *>(flag)->load())
      std::this_thread::yield();
  };
  ASSERT_EQ(musaLaunchHostFunc(recorder, gate, &release), musaSuccess);
  ASSERT_EQ(musaEventRecord(ev, recorder), musaSuccess);
  musaGraphExec_t exec = instantiate(g);
  ASSERT_EQ(musaGraphLaunch(exec, runner), musaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(counter.calls.load(), 0); // still waiting for the event
  EXPECT_EQ(musaStreamQuery(runner), musaErrorNotReady);
  release = true;
  ASSERT_EQ(musaStreamSynchronize(runner), musaSuccess);
  EXPECT_EQ(counter.calls.load(), 1);
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaStreamDestroy(recorder);
  musaStreamDestroy(runner);
  musaDestroyExternalSemaphore(sem);
  musaEventDestroy(ev);
  musaGetLastError();
}

TEST(GraphRules, KernelNodesValidateTheirParameters) {
  // Running kernel nodes needs JIT'd device code: tests/e2e/graph_*.mu. Here, the checks an
  // add call makes before any code runs.
  musaGraph_t g;
  ASSERT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  musaKernelNodeParams kp = {};
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(32);
  musaGraphNode_t node;
  EXPECT_NE(musaGraphAddKernelNode(&node, g, nullptr, 0, &kp), musaSuccess); // no function
  int notAKernel = 0;
  kp.func = &notAKernel;
  EXPECT_EQ(musaGraphAddKernelNode(&node, g, nullptr, 0, &kp), musaErrorInvalidDeviceFunction);
  EXPECT_EQ(musaGraphAddKernelNode(&node, g, nullptr, 0, nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaGraphAddKernelNode(nullptr, g, nullptr, 0, &kp), musaErrorInvalidValue);
  size_t n = 7;
  ASSERT_EQ(musaGraphGetNodes(g, nullptr, &n), musaSuccess);
  EXPECT_EQ(n, 0u); // nothing was added
  musaGraphDestroy(g);
  musaGetLastError();
}
