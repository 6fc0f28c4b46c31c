// Updates of an executable graph reach only the launches made after them, as in CUDA: a
// launch takes the graph's parameters when it is made, not when it runs. Each scenario holds
// its stream behind a closed gate (a host function), makes many launch/update pairs, then
// opens the gate: every launch is still waiting when the updates after it are made. Kernel
// nodes append a value to a log, so the log says what each launch ran with.
#include "check.h"

#include <condition_variable>
#include <mutex>
#include <vector>

__global__ void record(unsigned *count, unsigned *log, unsigned v) {
  if (threadIdx.x == 0)
    log[(*count)++] = v;
}
__global__ void recordCell(unsigned *count, unsigned *log, const unsigned *cell) {
  if (threadIdx.x == 0)
    log[(*count)++] = *cell;
}

static const int Updates = 200;
static const int LogSize = 2 * (Updates + 1);

/// Keeps a stream's later work waiting until open() (a host function blocks the stream).
struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  bool opened = false;
  static void wait(void *self) {
    Gate &g = *static_cast<Gate *>(self);
    std::unique_lock lock(g.mutex);
    g.changed.wait(lock, [&] { return g.opened; });
  }
  void open() {
    std::lock_guard lock(mutex);
    opened = true;
    changed.notify_all();
  }
};

/// The device log kernels append to, and the values it should hold.
struct Log {
  unsigned *count = nullptr, *values = nullptr;
  std::vector<unsigned> expected;
  Log() {
    CHECK_MUSA(musaMalloc(&count, sizeof(unsigned)));
    CHECK_MUSA(musaMalloc(&values, LogSize * sizeof(unsigned)));
    CHECK_MUSA(musaMemset(count, 0, sizeof(unsigned)));
  }
  ~Log() {
    musaFree(count);
    musaFree(values);
  }
  void check(const char *what) {
    unsigned n = 0;
    std::vector<unsigned> got(LogSize);
    CHECK_MUSA(musaMemcpy(&n, count, sizeof n, musaMemcpyDeviceToHost));
    CHECK_MUSA(musaMemcpy(got.data(), values, got.size() * sizeof(unsigned),
                          musaMemcpyDeviceToHost));
    CHECK(n == expected.size(), "%s: %u entries, expected %zu", what, n, expected.size());
    for (size_t i = 0; i < expected.size() && i < n; ++i)
      if (got[i] != expected[i]) {
        CHECK(got[i] == expected[i], "%s: launch %zu ran with %u, expected %u", what, i, got[i],
              expected[i]);
        break;
      }
  }
};

static musaKernelNodeParams kernelParams(void *func, void **args) {
  musaKernelNodeParams p = {};
  p.func = func;
  p.gridDim = dim3(1);
  p.blockDim = dim3(32);
  p.kernelParams = args;
  return p;
}

/// Launch, then `Updates` times update(i) and launch, all behind a closed gate.
template <class Update>
static void launchPending(musaStream_t s, musaGraphExec_t exec, Update update) {
  Gate gate;
  CHECK_MUSA(musaLaunchHostFunc(s, Gate::wait, &gate));
  CHECK_MUSA(musaGraphLaunch(exec, s));
  for (int i = 0; i < Updates; ++i) {
    update(i);
    CHECK_MUSA(musaGraphLaunch(exec, s));
  }
  gate.open();
  CHECK_MUSA(musaStreamSynchronize(s));
}

static void kernelSetParams(musaStream_t s) {
  Log log;
  unsigned v = 100;
  void *args[] = {&log.count, &log.values, &v};
  musaKernelNodeParams p = kernelParams((void *)record, args);
  musaGraph_t g;
  musaGraphNode_t node;
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  CHECK_MUSA(musaGraphAddKernelNode(&node, g, nullptr, 0, &p));
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  log.expected.push_back(100);
  launchPending(s, exec, [&](int i) {
    v = 1000 + i;
    CHECK_MUSA(musaGraphExecKernelNodeSetParams(exec, node, &p));
    log.expected.push_back(v);
    v = 0xdead; // the arguments were copied when set
  });
  log.check("kernel node set params");
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
}

static musaGraph_t recordGraph(Log &log, unsigned v) {
  void *args[] = {&log.count, &log.values, &v};
  musaKernelNodeParams p = kernelParams((void *)record, args);
  musaGraph_t g;
  musaGraphNode_t node;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  CHECK_MUSA(musaGraphAddKernelNode(&node, g, nullptr, 0, &p));
  return g;
}

static void execUpdate(musaStream_t s) {
  Log log;
  musaGraph_t g = recordGraph(log, 100);
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  log.expected.push_back(100);
  launchPending(s, exec, [&](int i) {
    musaGraph_t next = recordGraph(log, 5000 + i);
    musaGraphExecUpdateResultInfo info;
    CHECK_MUSA(musaGraphExecUpdate(exec, next, &info));
    CHECK(info.result == musaGraphExecUpdateSuccess, "update %d: result %d", i, info.result);
    CHECK_MUSA(musaGraphDestroy(next)); // the executable graph keeps its own copy
    log.expected.push_back(5000 + i);
  });
  log.check("musaGraphExecUpdate");
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
}

static void childGraphSetParams(musaStream_t s) {
  Log log;
  musaGraph_t child = recordGraph(log, 100), g;
  musaGraphNode_t node;
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  CHECK_MUSA(musaGraphAddChildGraphNode(&node, g, nullptr, 0, child));
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  log.expected.push_back(100);
  launchPending(s, exec, [&](int i) {
    musaGraph_t next = recordGraph(log, 7000 + i);
    CHECK_MUSA(musaGraphExecChildGraphNodeSetParams(exec, node, next));
    CHECK_MUSA(musaGraphDestroy(next));
    log.expected.push_back(7000 + i);
  });
  log.check("child graph node set params");
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaGraphDestroy(child);
}

static void memsetSetParams(musaStream_t s) {
  Log log;
  unsigned *cell;
  CHECK_MUSA(musaMalloc(&cell, sizeof(unsigned)));
  musaMemsetParams m = {};
  m.dst = cell;
  m.elementSize = sizeof(unsigned);
  m.width = 1;
  m.height = 1;
  m.value = 7;
  void *args[] = {&log.count, &log.values, &cell};
  musaKernelNodeParams p = kernelParams((void *)recordCell, args);
  musaGraph_t g;
  musaGraphNode_t set, use;
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  CHECK_MUSA(musaGraphAddMemsetNode(&set, g, nullptr, 0, &m));
  CHECK_MUSA(musaGraphAddKernelNode(&use, g, &set, 1, &p));
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  log.expected.push_back(7);
  launchPending(s, exec, [&](int i) {
    m.value = 20000 + i;
    CHECK_MUSA(musaGraphExecMemsetNodeSetParams(exec, set, &m));
    log.expected.push_back(m.value);
  });
  log.check("memset node set params");
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaFree(cell);
}

static void memcpySetParams(musaStream_t s) {
  Log log;
  unsigned *cell, *sources;
  std::vector<unsigned> values(Updates + 1);
  for (int i = 0; i <= Updates; ++i)
    values[i] = 40000 + i;
  CHECK_MUSA(musaMalloc(&cell, sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&sources, values.size() * sizeof(unsigned)));
  CHECK_MUSA(musaMemcpy(sources, values.data(), values.size() * sizeof(unsigned),
                        musaMemcpyHostToDevice));
  musaMemcpy3DParms c = {};
  c.srcPtr = make_musaPitchedPtr(sources, sizeof(unsigned), 1, 1);
  c.dstPtr = make_musaPitchedPtr(cell, sizeof(unsigned), 1, 1);
  c.extent = make_musaExtent(sizeof(unsigned), 1, 1);
  c.kind = musaMemcpyDeviceToDevice;
  void *args[] = {&log.count, &log.values, &cell};
  musaKernelNodeParams p = kernelParams((void *)recordCell, args);
  musaGraph_t g;
  musaGraphNode_t copy, use;
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  CHECK_MUSA(musaGraphAddMemcpyNode(&copy, g, nullptr, 0, &c));
  CHECK_MUSA(musaGraphAddKernelNode(&use, g, &copy, 1, &p));
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  log.expected.push_back(values[0]);
  launchPending(s, exec, [&](int i) {
    c.srcPtr = make_musaPitchedPtr(sources + i + 1, sizeof(unsigned), 1, 1);
    CHECK_MUSA(musaGraphExecMemcpyNodeSetParams(exec, copy, &c));
    log.expected.push_back(values[i + 1]);
  });
  log.check("memcpy node set params");
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaFree(cell);
  musaFree(sources);
}

static void enableDisable(musaStream_t s) {
  Log log;
  unsigned one = 1, two = 2;
  void *argsA[] = {&log.count, &log.values, &one};
  void *argsB[] = {&log.count, &log.values, &two};
  musaKernelNodeParams pa = kernelParams((void *)record, argsA);
  musaKernelNodeParams pb = kernelParams((void *)record, argsB);
  musaGraph_t g;
  musaGraphNode_t a, b;
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  CHECK_MUSA(musaGraphAddKernelNode(&a, g, nullptr, 0, &pa));
  CHECK_MUSA(musaGraphAddKernelNode(&b, g, &a, 1, &pb));
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  log.expected = {1, 2};
  launchPending(s, exec, [&](int i) {
    bool runA = i % 2 == 0, runB = i % 3 != 0;
    CHECK_MUSA(musaGraphNodeSetEnabled(exec, a, runA));
    CHECK_MUSA(musaGraphNodeSetEnabled(exec, b, runB));
    if (runA)
      log.expected.push_back(1);
    if (runB)
      log.expected.push_back(2);
  });
  log.check("node enable/disable");
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
}

/// Host nodes append *userData to this list (they run one launch after another).
static std::vector<unsigned> hostSeen;
static void hostRecord(void *value) { hostSeen.push_back(*static_cast<unsigned *>(value)); }

static void hostSetParams(musaStream_t s) {
  std::vector<unsigned> values(Updates + 1), expected;
  for (int i = 0; i <= Updates; ++i)
    values[i] = 60000 + i;
  hostSeen.clear();
  musaHostNodeParams h = {hostRecord, &values[0]};
  musaGraph_t g;
  musaGraphNode_t node;
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  CHECK_MUSA(musaGraphAddHostNode(&node, g, nullptr, 0, &h));
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  expected.push_back(values[0]);
  launchPending(s, exec, [&](int i) {
    h.userData = &values[i + 1];
    CHECK_MUSA(musaGraphExecHostNodeSetParams(exec, node, &h));
    expected.push_back(values[i + 1]);
  });
  CHECK(hostSeen.size() == expected.size(), "host node set params: %zu calls, expected %zu",
        hostSeen.size(), expected.size());
  for (size_t i = 0; i < expected.size() && i < hostSeen.size(); ++i)
    if (hostSeen[i] != expected[i]) {
      CHECK(hostSeen[i] == expected[i], "host node set params: launch %zu ran with %u, "
            "expected %u", i, hostSeen[i], expected[i]);
      break;
    }
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
}

/// Each launch records its own event; one that recorded a later launch's event leaves its own
/// unrecorded (musaEventElapsedTime refuses it).
static void eventSetEvent(musaStream_t s) {
  std::vector<musaEvent_t> events(Updates + 1);
  for (musaEvent_t &e : events)
    CHECK_MUSA(musaEventCreate(&e));
  musaGraph_t g;
  musaGraphNode_t node;
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  CHECK_MUSA(musaGraphAddEventRecordNode(&node, g, nullptr, 0, events[0]));
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  launchPending(s, exec, [&](int i) {
    CHECK_MUSA(musaGraphExecEventRecordNodeSetEvent(exec, node, events[i + 1]));
  });
  for (int i = 1; i <= Updates; ++i) {
    float ms = -1;
    musaError_t e = musaEventElapsedTime(&ms, events[0], events[i]);
    CHECK(e == musaSuccess && ms >= 0, "event of launch %d: %s", i, musaGetErrorName(e));
    if (e != musaSuccess)
      break;
  }
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  for (musaEvent_t e : events)
    musaEventDestroy(e);
}

/// An executable graph destroyed with launches pending: they all still run, each with the
/// parameters it was made with.
static void destroyPending(musaStream_t s) {
  Log log;
  unsigned v = 300;
  void *args[] = {&log.count, &log.values, &v};
  musaKernelNodeParams p = kernelParams((void *)record, args);
  musaGraph_t g;
  musaGraphNode_t node;
  musaGraphExec_t exec;
  CHECK_MUSA(musaGraphCreate(&g, 0));
  CHECK_MUSA(musaGraphAddKernelNode(&node, g, nullptr, 0, &p));
  CHECK_MUSA(musaGraphInstantiate(&exec, g, 0));
  Gate gate;
  CHECK_MUSA(musaLaunchHostFunc(s, Gate::wait, &gate));
  for (int i = 0; i < 50; ++i) {
    CHECK_MUSA(musaGraphLaunch(exec, s));
    log.expected.push_back(v);
    v = 301 + i;
    CHECK_MUSA(musaGraphExecKernelNodeSetParams(exec, node, &p));
  }
  CHECK_MUSA(musaGraphExecDestroy(exec));
  CHECK_MUSA(musaGraphDestroy(g));
  gate.open();
  CHECK_MUSA(musaStreamSynchronize(s));
  log.check("destroyed with launches pending");
}

int main() {
  musaStream_t created;
  CHECK_MUSA(musaStreamCreate(&created));
  musaStream_t streams[] = {0, created};
  for (musaStream_t s : streams) {
    kernelSetParams(s);
    execUpdate(s);
    childGraphSetParams(s);
    memsetSetParams(s);
    memcpySetParams(s);
    enableDisable(s);
    hostSetParams(s);
    eventSetEvent(s);
    destroyPending(s);
  }
  CHECK_MUSA(musaStreamDestroy(created));
  return finish("graph_update_pending");
}
