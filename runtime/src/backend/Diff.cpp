// Differential mode (MUSA_SIM_BACKEND=diff): allocations, copies, memsets, symbol writes,
// kernel launches, streams, events and graph launches run on the simulator and on the hardware
// backend from the same inputs; after each kernel (and each graph launch) the allocations its
// pointer parameters point into are read back from both and compared. The program sees the
// simulator's results.
//
// Mirroring: every stream and event the program creates gets a hardware twin (a map from the
// simulator's handle to the hardware's); launches, copies and event records go to the twin of
// their stream. Each kernel runs to completion on both before the call returns, so the
// comparison sees finished work; the hardware's time of a kernel is measured with events
// around the launch on its twin stream (after the module is loaded), and the timing model's
// prediction for the same launch (PreparedLaunch::run -> kernelPredicted) is written next to it
// in the profile report (MUSA_SIM_REPORT) and in MUSA_SIM_DIFF_REPORT for musa-sim-diff.
//
// Graphs: a graph launch runs the executable graph on the simulator, then replays its nodes on
// the hardware's twin stream in a dependency order: kernel nodes with translated arguments,
// copy and memset nodes (with their parameters, or as recorded when a stream capture made
// them), allocation nodes with a hardware twin of the block; host, event and empty nodes only
// run on the simulator (a host function runs once). Replaying the nodes of the simulator's own
// executable graph, rather than building a CUDA graph or recording the capture a second time,
// means explicit graphs, captured graphs, clones and updated executable graphs all mirror the
// parameters the simulator actually ran, with no second copy of graph-editing state to keep in
// step. A graph with a node that cannot be replayed (conditional nodes, external semaphores,
// arrays) runs on the simulator only, said once; the buffers its kernel nodes reach are then
// copied from the simulator to the hardware so later comparisons stay meaningful.
//
// Uninitialised memory: fresh musaMalloc memory is filled with 0xFF bytes on the simulator
// (NaN as float or double, -1 as an integer) and with a byte from 0xA5 on, different for each
// allocation, on the hardware, and every block's shared memory on the simulator with 0xFE
// before the block runs, so a kernel that reads memory nothing wrote gives different results
// on the two. Words that differ before a kernel
// (still uninitialised on both) and that neither side changes are not mismatches.
//
// Comparison, per 32-bit word: bit-exact, except that two words that both read as normal
// floats (|x| >= 2^-100) may differ by MUSA_SIM_DIFF_ULP units in the last place (default 2;
// device math libraries differ). Integers below 2^23 read as denormals, so they compare exact.
// The first mismatch of each kernel is reported with kernel, parameter, index and both values
// (as int and as float). MUSA_SIM_DIFF=report (default) goes on; stop exits with status 3.
#include "backend/Backend.h"
#include "backend/DiffTwins.h"

#include "FatBinaryRegistry.h"
#include "GraphTables.h"
#include "GraphWork.h"
#include "Runtime.h"
#include "musa/sim/GridLauncher.h"
#include "musa/sim/Timing.h"

#include <atomic>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace musa::rt::backend {

namespace {

constexpr int SimFill = 0xff;       // fresh memory on the simulator: NaN, -1
constexpr int SimSharedFill = 0xfe; // shared memory on the simulator: -1.69e38, -16843010
/// Fresh memory on the hardware: a byte from 0xa5 on, a different one for each allocation
/// (64 of them in turn), so that a kernel copying one unwritten allocation into another changes
/// the destination on the hardware too.
int hwFill() {
  static std::atomic<unsigned> next{0};
  return 0xa0 + int((5 + next++) % 0x40);
}

struct Allocation {
  char *hw;
  size_t size;
  bool synced; // every word known equal on both sides (no uninitialised difference left)
};
std::mutex diffMutex; // guards the maps below (stream and event twins: DiffTwins.cpp)
std::map<const char *, Allocation> allocations; // simulator base -> hardware copy
/// A copy or memset a stream capture turned into a graph node (its work keeps no parameters).
struct CapturedTransfer {
  bool copy;
  void *dst;
  const void *src;
  size_t count;
  musaMemcpyKind kind;
  int value;
};
std::map<const void *, CapturedTransfer> capturedTransfers; // by graph node
/// Kernels and graph launches run one at a time in differential mode, each to completion on
/// both devices, so that the kernel a prediction belongs to is known.
std::recursive_mutex workMutex;

struct Prediction {
  std::mutex mutex;
  uint64_t sequence = 0;
  double ns = -1;
  uint64_t reportId = 0;
} prediction;

/// The hardware address for a simulator address inside a mirrored allocation, or null.
void *hwAddress(const void *sim, const char **base = nullptr) {
  auto p = static_cast<const char *>(sim);
  auto it = allocations.upper_bound(p);
  if (it == allocations.begin())
    return nullptr;
  --it;
  if (p >= it->first + it->second.size)
    return nullptr;
  if (base)
    *base = it->first;
  return it->second.hw + (p - it->first);
}
/// Device pointers translated; host pointers unchanged.
const void *translate(const void *p) {
  std::lock_guard lock(diffMutex);
  void *hw = hwAddress(p);
  return hw ? hw : p;
}
bool mirrored(const void *p) {
  std::lock_guard lock(diffMutex);
  return hwAddress(p) != nullptr;
}

/// After a write of [p, p + count) on both sides: a write covering the whole allocation with
/// the same bytes on both makes it synced; a device-to-device copy from memory not known equal
/// makes it not.
void noteWrite(const void *p, size_t count, bool sameBytes) {
  std::lock_guard lock(diffMutex);
  const char *base = nullptr;
  if (!hwAddress(p, &base))
    return;
  Allocation &a = allocations[base];
  if (!sameBytes)
    a.synced = false;
  else if (static_cast<const char *>(p) == base && count >= a.size)
    a.synced = true;
}
bool syncedSource(const void *src) {
  std::lock_guard lock(diffMutex);
  const char *base = nullptr;
  if (!hwAddress(src, &base))
    return true; // host memory: the same bytes go to both
  return allocations[base].synced;
}

bool capturing(musaStream_t stream) {
  SimulatorScope scope;
  musaStreamCaptureStatus status = musaStreamCaptureStatusNone;
  ::musaStreamGetCaptureInfo(stream, &status);
  ::musaGetLastError();
  return status != musaStreamCaptureStatusNone;
}

/// Shared memory no thread wrote reads as SimSharedFill on the simulator from now on.
void fillUnwrittenMemory() {
  static std::once_flag once;
  std::call_once(once, [] { sim::setSharedMemoryFill(SimSharedFill); });
}

bool stopOnMismatch() {
  static const bool stop = [] {
    const char *v = std::getenv("MUSA_SIM_DIFF");
    return v && !std::strcmp(v, "stop");
  }();
  return stop;
}
/// One line per kernel (and graph launch) in MUSA_SIM_DIFF_REPORT (tab-separated, for
/// musa-sim-diff), and the mismatches on stderr.
FILE *report() {
  static FILE *file = [] {
    const char *path = std::getenv("MUSA_SIM_DIFF_REPORT");
    FILE *f = path && *path ? std::fopen(path, "w") : nullptr;
    if (f)
      std::fprintf(f, "# kernel\tmodel_us\thw_us\tmismatches\tfirst_mismatch\n");
    return f;
  }();
  return file;
}

std::vector<uint32_t> readSim(const char *base, size_t size) {
  std::vector<uint32_t> words((size + 3) / 4);
  SimulatorScope scope;
  ::musaMemcpy(words.data(), base, size, musaMemcpyDeviceToHost);
  return words;
}
std::vector<uint32_t> readHw(const char *base, size_t size) {
  std::vector<uint32_t> words((size + 3) / 4);
  fwd::musaMemcpy(words.data(), base, size, musaMemcpyDeviceToHost);
  return words;
}

/// An allocation a kernel can reach through a parameter, compared after the work.
struct Buffer {
  std::string where; // "kernel 'k': parameter 2"
  const char *simBase;
  size_t size;
  char *hwBase;
  bool synced;
  std::vector<uint32_t> simBefore, hwBefore; // when not synced: to tell what changed
};

/// Adds the allocation `value` points into (if mirrored and not there yet); returns its
/// hardware address for `value`, or null.
void *reach(std::vector<Buffer> &buffers, const void *value, const std::string &where) {
  std::lock_guard lock(diffMutex);
  const char *base = nullptr;
  void *hw = hwAddress(value, &base);
  if (!hw)
    return nullptr;
  for (const Buffer &b : buffers)
    if (b.simBase == base)
      return hw;
  Allocation &a = allocations[base];
  buffers.push_back({where, base, a.size, a.hw, a.synced, {}, {}});
  return hw;
}

void snapshot(std::vector<Buffer> &buffers) {
  for (Buffer &b : buffers)
    if (!b.synced) {
      b.simBefore = readSim(b.simBase, b.size);
      b.hwBefore = readHw(b.hwBase, b.size);
    }
}

/// Compares the buffers after the work; returns the number of mismatched words and the first
/// one's description. Updates each allocation's synced state.
unsigned compare(std::vector<Buffer> &buffers, std::string &first) {
  unsigned mismatches = 0;
  for (Buffer &b : buffers) {
    std::vector<uint32_t> sim = readSim(b.simBase, b.size), hw = readHw(b.hwBase, b.size);
    size_t differing = 0;
    for (size_t w = 0; w < sim.size(); ++w) {
      if (sim[w] == hw[w] || sameWord(sim[w], hw[w]) || sameDouble(sim, hw, w))
        continue;
      ++differing;
      // Uninitialised on both sides before and untouched by either: not this work's result.
      if (!b.synced && sim[w] == b.simBefore[w] && hw[w] == b.hwBefore[w])
        continue;
      if (mismatches++ == 0) {
        float fs, fh;
        std::memcpy(&fs, &sim[w], 4);
        std::memcpy(&fh, &hw[w], 4);
        char line[768];
        std::snprintf(line, sizeof line,
                      "%s (buffer %p, %zu bytes) word %zu (byte %zu): simulator %d (%g), "
                      "hardware %d (%g)",
                      b.where.c_str(), static_cast<const void *>(b.simBase), b.size, w, w * 4,
                      int(sim[w]), double(fs), int(hw[w]), double(fh));
        first = line;
      }
    }
    std::lock_guard lock(diffMutex);
    if (auto it = allocations.find(b.simBase); it != allocations.end())
      it->second.synced = differing == 0;
  }
  return mismatches;
}

/// Work the hardware cannot mirror ran on the simulator only: the buffers it reaches are
/// copied to the hardware, so later comparisons start from the same bytes. The simulator's
/// device memory is the host's: read directly (this also runs as a stream's host function,
/// where no runtime call may be made); buffers freed meanwhile are left alone.
void resync(const std::vector<Buffer> &buffers) {
  for (const Buffer &b : buffers) {
    {
      std::lock_guard lock(diffMutex);
      if (hwAddress(b.simBase) != b.hwBase)
        continue;
    }
    fwd::musaMemcpy(b.hwBase, b.simBase, b.size, musaMemcpyHostToDevice);
    std::lock_guard lock(diffMutex);
    if (auto it = allocations.find(b.simBase); it != allocations.end() && b.size >= it->second.size)
      it->second.synced = true;
  }
}

/// Whether work queued on the simulator's `stream` now would wait behind a host function or an
/// external semaphore wait that has not finished (Stream::hostHolds). The program may release
/// those only after this call returns, so differential mode must not wait for the work.
bool heldByHost(musaStream_t stream) {
  SimulatorScope scope;
  std::shared_ptr<Stream> s = Runtime::get().resolveStream(stream);
  return s && s->device->heldByHost(*s);
}

/// Work on a held stream (heldByHost) runs on the simulator only: a host function queued
/// after it copies `buffers` to the hardware once it has run.
void resyncWhenRun(musaStream_t stream, std::vector<Buffer> buffers, const std::string &what) {
  static std::once_flag said;
  std::call_once(said, [&] {
    std::fprintf(stderr,
                 "musa-sim diff: %s waits behind a host function or an external semaphore wait "
                 "that has not run yet: work queued so runs on the simulator only (waiting for "
                 "it here could deadlock), and its buffers are copied to the hardware when it "
                 "has run\n",
                 what.c_str());
  });
  for (const Buffer &b : buffers)
    noteWrite(b.simBase, b.size, false);
  auto *pending = new std::vector<Buffer>(std::move(buffers));
  SimulatorScope scope;
  musaError_t e = ::musaLaunchHostFunc(
      stream,
      [](void *p) {
        std::unique_ptr<std::vector<Buffer>> owned(static_cast<std::vector<Buffer> *>(p));
        resync(*owned);
      },
      pending);
  if (e) {
    delete pending;
    ::musaGetLastError();
  }
}

/// A copy or memset into device memory on a held stream: the simulator's, then its bytes
/// copied to the hardware's twin when it has run.
template <class SimCall>
musaError_t heldTransfer(musaStream_t stream, void *dst, size_t count, const char *what,
                         SimCall simCall) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = simCall();
  }
  if (auto *hw = static_cast<char *>(const_cast<void *>(translate(dst))); !e && hw != dst)
    resyncWhenRun(stream, {Buffer{what, static_cast<const char *>(dst), count, hw, false, {}, {}}},
                  what);
  return e;
}

void finish(const std::string &name, double modelUs, double hwUs, unsigned mismatches,
            const std::string &first) {
  if (mismatches)
    std::fprintf(stderr, "musa-sim diff: MISMATCH %s (%u words differ)\n", first.c_str(),
                 mismatches);
  if (FILE *f = report()) {
    std::lock_guard lock(diffMutex);
    std::fprintf(f, "%s\t%.3f\t%.3f\t%u\t%s\n", name.c_str(), modelUs, hwUs, mismatches,
                 first.c_str());
    std::fflush(f);
  }
  if (mismatches && stopOnMismatch()) {
    std::fprintf(stderr, "musa-sim diff: stopping (MUSA_SIM_DIFF=stop)\n");
    std::exit(3);
  }
}

/// The kernel's arguments for the hardware: pointer-sized values inside a mirrored allocation
/// translated (and the allocation added to `buffers`).
struct HwArguments {
  std::vector<std::vector<char>> values;
  std::vector<void *> pointers;
  /// A parameter pointing to simulator memory without a hardware twin (managed, pinned host,
  /// pool or pitched memory): the hardware cannot run the kernel. -1: none.
  int untwinned = -1;
};
HwArguments hwArguments(const std::vector<uint32_t> &sizes, void *const *args,
                        const std::string &label, std::vector<Buffer> &buffers) {
  HwArguments out;
  out.values.resize(sizes.size());
  out.pointers.resize(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    auto *arg = static_cast<const char *>(args[i]);
    out.values[i].assign(arg, arg + sizes[i]);
    if (sizes[i] == sizeof(void *)) {
      const void *value;
      std::memcpy(&value, arg, sizeof value);
      if (void *hw = reach(buffers, value, label + ": parameter " + std::to_string(i))) {
        std::memcpy(out.values[i].data(), &hw, sizeof hw);
      } else if (value && out.untwinned < 0) {
        SimulatorScope scope;
        musaPointerAttributes a{};
        if (::musaPointerGetAttributes(&a, value) == musaSuccess &&
            (a.type == musaMemoryTypeDevice || a.type == musaMemoryTypeManaged ||
             a.type == musaMemoryTypeHost))
          out.untwinned = int(i);
        ::musaGetLastError();
      }
    }
    out.pointers[i] = out.values[i].data();
  }
  return out;
}

/// Events around one hardware launch on `stream`, per thread (created on first use).
struct HwTimer {
  musaEvent_t start = nullptr, stop = nullptr;
  bool ok = false;
  HwTimer() {
    ok = fwd::musaEventCreate(&start) == musaSuccess && fwd::musaEventCreate(&stop) == musaSuccess;
  }
  static HwTimer &get() {
    thread_local HwTimer timer;
    return timer;
  }
};

musaError_t launchBoth(const void *func, dim3 grid, dim3 block, void **args, size_t sharedMem,
                       musaStream_t stream, bool cooperative) {
  auto simLaunch = [&] {
    SimulatorScope scope;
    return cooperative ? ::musaLaunchCooperativeKernel(func, grid, block, args, sharedMem, stream)
                       : ::musaLaunchKernel(func, grid, block, args, sharedMem, stream);
  };
  std::vector<uint32_t> sizes;
  // Captured launches belong to the simulator's graph (mirrored when the graph is launched).
  if (capturing(stream) || FatBinaryRegistry::get().kernelParamSizes(func, sizes))
    return simLaunch();
  std::lock_guard serial(workMutex);
  fillUnwrittenMemory();
  FatBinaryRegistry::HardwareCode code;
  FatBinaryRegistry::get().hardwareKernel(func, code);
  std::string name = sim::demangle(code.name);
  std::vector<Buffer> buffers;
  HwArguments hw = hwArguments(sizes, args, "kernel '" + name + "'", buffers);
  if (heldByHost(stream)) {
    musaError_t e = simLaunch();
    if (!e)
      resyncWhenRun(stream, std::move(buffers), "kernel '" + name + "'");
    finish(name + " [simulator only: stream held]", -1, -1, 0, "");
    return e;
  }
  if (hw.untwinned >= 0) {
    static std::mutex saidMutex;
    static std::set<std::string> said;
    {
      std::lock_guard lock(saidMutex);
      if (said.insert(name).second)
        std::fprintf(stderr,
                     "musa-sim diff: kernel '%s': parameter %d points to memory without a "
                     "hardware twin (managed, pinned host, pool or pitched memory); it runs on "
                     "the simulator only\n",
                     name.c_str(), hw.untwinned);
    }
    musaError_t e = simLaunch();
    if (!e) {
      SimulatorScope scope;
      ::musaStreamSynchronize(stream);
      ::musaGetLastError();
    }
    resync(buffers);
    finish(name + " [simulator only]", -1, -1, 0, "");
    return e;
  }
  snapshot(buffers);

  uint64_t before;
  {
    std::lock_guard lock(prediction.mutex);
    before = prediction.sequence;
  }
  musaError_t simResult = simLaunch();
  if (!simResult) {
    SimulatorScope scope;
    ::musaStreamSynchronize(stream);
    ::musaGetLastError();
  }
  double modelNs = -1;
  uint64_t reportId = 0;
  {
    std::lock_guard lock(prediction.mutex);
    if (prediction.sequence != before) {
      modelNs = prediction.ns;
      reportId = prediction.reportId;
    }
  }

  // The hardware: the module is loaded first, so the events time the kernel alone.
  musaStream_t hs = hwStream(stream);
  void *function = nullptr;
  Target::get().kernel(func, function);
  HwTimer &timer = HwTimer::get();
  if (timer.ok)
    fwd::musaEventRecord(timer.start, hs);
  musaError_t hwResult =
      cooperative
          ? fwd::musaLaunchCooperativeKernel(func, grid, block, hw.pointers.data(), sharedMem, hs)
          : fwd::musaLaunchKernel(func, grid, block, hw.pointers.data(), sharedMem, hs);
  float ms = -1;
  if (timer.ok && !hwResult) {
    fwd::musaEventRecord(timer.stop, hs);
    if (fwd::musaEventSynchronize(timer.stop) ||
        fwd::musaEventElapsedTime(&ms, timer.start, timer.stop))
      ms = -1;
  }
  fwd::musaStreamSynchronize(hs);
  double hwNs = ms < 0 ? -1 : double(ms) * 1e6;
  if (hwNs >= 0)
    sim::reportMeasured(reportId, hwNs);
  mismatchedResult(("launch of " + name).c_str(), simResult, hwResult);
  if (simResult || hwResult)
    return simResult;
  std::string first;
  unsigned mismatches = compare(buffers, first);
  finish(name, modelNs < 0 ? -1 : modelNs / 1000, hwNs < 0 ? -1 : hwNs / 1000, mismatches, first);
  return simResult;
}

// ---- graphs ------------------------------------------------------------------------------

/// One node of a graph launch as the hardware replays it.
struct HwStep {
  enum Kind { Kernel, Copy3D, Copy, Set } kind;
  // Kernel
  const void *func = nullptr;
  dim3 grid, block;
  size_t sharedMem = 0;
  bool cooperative = false;
  HwArguments args;
  // Copy3D (parameters translated)
  musaMemcpy3DParms copy3D{};
  // Copy / Set (from a capture), and Set from a memset node
  void *dst = nullptr;
  const void *src = nullptr;
  size_t count = 0, pitch = 0, width = 0, height = 1, elementSize = 1;
  musaMemcpyKind direction = musaMemcpyDefault;
  unsigned value = 0;
};

const CapturedTransfer *capturedTransfer(const graph::Node *node) {
  std::lock_guard lock(diffMutex);
  for (const graph::Node *n = node; n; n = n->original)
    if (auto it = capturedTransfers.find(n); it != capturedTransfers.end())
      return &it->second;
  return nullptr;
}

/// The hardware twin of a graph allocation node's memory (made on first sight).
void mirrorGraphAllocation(void *ptr, size_t size) {
  {
    std::lock_guard lock(diffMutex);
    if (allocations.count(static_cast<const char *>(ptr)))
      return;
  }
  void *hw = nullptr;
  if (fwd::musaMalloc(&hw, size) == musaSuccess) {
    std::lock_guard lock(diffMutex);
    allocations[static_cast<const char *>(ptr)] = {static_cast<char *>(hw), size, false};
  }
}

/// Plans the hardware's replay of `g`'s enabled nodes; false (with `why`) if a node cannot be
/// replayed. Kernel nodes add the buffers they reach.
bool plan(const graph::Graph &g, std::vector<HwStep> &steps, std::vector<Buffer> &buffers,
          std::vector<std::string> &kernels, std::string &why) {
  std::vector<graph::Node *> order = g.topologicalOrder();
  if (order.empty() && !g.nodes().empty()) {
    why = "a cycle";
    return false;
  }
  for (graph::Node *node : order) {
    if (!node->enabled)
      continue;
    switch (node->type) {
    case graph::NodeType::Kernel: {
      const PreparedLaunch &l = static_cast<KernelWork &>(*node->work).launch();
      std::vector<uint32_t> sizes;
      if (FatBinaryRegistry::get().kernelParamSizes(l.func, sizes)) {
        why = "a kernel node without parameter sizes";
        return false;
      }
      FatBinaryRegistry::HardwareCode code;
      FatBinaryRegistry::get().hardwareKernel(l.func, code);
      std::string name = sim::demangle(code.name);
      kernels.push_back(name);
      HwStep s;
      s.kind = HwStep::Kernel;
      s.func = l.func;
      s.grid = l.grid;
      s.block = l.block;
      s.sharedMem = l.sharedMem;
      s.cooperative = l.config.cooperative;
      s.args = hwArguments(sizes, l.args->pointers.data(), "kernel '" + name + "' (graph node)",
                           buffers);
      if (s.args.untwinned >= 0) {
        why = "a kernel node whose parameter points to memory without a hardware twin";
        return false;
      }
      steps.push_back(std::move(s));
      break;
    }
    case graph::NodeType::Memcpy: {
      if (auto *w = dynamic_cast<MemcpyWork *>(node->work.get())) {
        musaMemcpy3DParms p = w->params();
        if (p.srcArray || p.dstArray) {
          why = "a copy node with an array";
          return false;
        }
        if (!mirrored(p.dstPtr.ptr))
          break; // to the host: the simulator's copy is the one the program sees
        p.dstPtr.ptr = const_cast<void *>(translate(p.dstPtr.ptr));
        p.srcPtr.ptr = const_cast<void *>(translate(p.srcPtr.ptr));
        HwStep s;
      s.kind = HwStep::Copy3D;
        s.copy3D = p;
        steps.push_back(std::move(s));
      } else if (const CapturedTransfer *t = capturedTransfer(node); t && t->copy) {
        if (!mirrored(t->dst))
          break;
        HwStep s;
      s.kind = HwStep::Copy;
        s.dst = const_cast<void *>(translate(t->dst));
        s.src = translate(t->src);
        s.count = t->count;
        s.direction = t->kind;
        steps.push_back(std::move(s));
      } else {
        why = "a copy node made by a call differential mode does not record";
        return false;
      }
      break;
    }
    case graph::NodeType::Memset: {
      HwStep s;
      s.kind = HwStep::Set;
      if (auto *w = dynamic_cast<MemsetWork *>(node->work.get())) {
        const musaMemsetParams &p = w->params();
        s.dst = p.dst;
        s.pitch = p.pitch;
        s.width = p.width;
        s.height = p.height ? p.height : 1;
        s.elementSize = p.elementSize ? p.elementSize : 1;
        s.value = p.value;
      } else if (const CapturedTransfer *t = capturedTransfer(node); t && !t->copy) {
        s.dst = t->dst;
        s.width = s.pitch = t->count;
        s.value = unsigned(t->value);
      } else {
        why = "a memset node made by a call differential mode does not record";
        return false;
      }
      if (!mirrored(s.dst)) {
        why = "a memset of memory without a hardware twin";
        return false;
      }
      s.dst = const_cast<void *>(translate(s.dst));
      steps.push_back(std::move(s));
      break;
    }
    case graph::NodeType::ChildGraph:
      if (!node->child || !plan(*node->child, steps, buffers, kernels, why))
        return false;
      break;
    case graph::NodeType::MemAlloc: {
      auto &w = static_cast<MemAllocWork &>(*node->work);
      mirrorGraphAllocation(w.pointer(), w.size());
      break;
    }
    case graph::NodeType::Host:        // runs once, on the simulator
    case graph::NodeType::Empty:
    case graph::NodeType::EventRecord: // each side's replay is in order on one stream
    case graph::NodeType::EventWait:
    case graph::NodeType::MemFree:
      break;
    default:
      why = std::string("a ") + graph::typeName(node->type) + " node";
      return false;
    }
  }
  return true;
}

musaError_t replay(const HwStep &s, musaStream_t hs) {
  switch (s.kind) {
  case HwStep::Kernel: {
    void **args = const_cast<void **>(s.args.pointers.data());
    return s.cooperative
               ? fwd::musaLaunchCooperativeKernel(s.func, s.grid, s.block, args, s.sharedMem, hs)
               : fwd::musaLaunchKernel(s.func, s.grid, s.block, args, s.sharedMem, hs);
  }
  case HwStep::Copy3D:
    return fwd::musaMemcpy3DAsync(&s.copy3D, hs);
  case HwStep::Copy:
    return fwd::musaMemcpyAsync(s.dst, s.src, s.count, s.direction, hs);
  case HwStep::Set: {
    if (s.elementSize == 1)
      return fwd::musaMemset2DAsync(s.dst, s.pitch, int(s.value), s.width, s.height, hs);
    // Wider elements: the pattern from the host, row by row.
    std::vector<char> row(s.width * s.elementSize);
    for (size_t i = 0; i < s.width; ++i)
      std::memcpy(row.data() + i * s.elementSize, &s.value, s.elementSize);
    for (size_t y = 0; y < s.height; ++y)
      if (musaError_t e = fwd::musaMemcpy(static_cast<char *>(s.dst) + y * s.pitch, row.data(),
                                          row.size(), musaMemcpyHostToDevice))
        return e;
    return musaSuccess;
  }
  }
  return musaSuccess;
}

} // namespace

musaError_t moduleGlobal(void **module, const char *name, void *&address, size_t size) {
  if (mode() == Mode::Sim || inSimulatorScope())
    return musaSuccess;
  FatBinaryRegistry::HardwareCode code;
  if (musaError_t e = FatBinaryRegistry::get().moduleHardwareCode(module, name, code))
    return e;
  void *hw = nullptr;
  size_t hwSize = 0;
  if (musaError_t e = Target::get().global(code, hw, hwSize))
    return mode() == Mode::Hw ? e : musaSuccess; // diff: the simulator's alone
  if (mode() == Mode::Hw) {
    address = hw;
    return musaSuccess;
  }
  std::lock_guard lock(diffMutex);
  allocations[static_cast<const char *>(address)] = {static_cast<char *>(hw),
                                                     std::min(size, hwSize), false};
  return musaSuccess;
}

void kernelPredicted(double ns, uint64_t reportId) {
  std::lock_guard lock(prediction.mutex);
  ++prediction.sequence;
  prediction.ns = ns;
  prediction.reportId = reportId;
}

namespace diff {

musaError_t musaMalloc(void **devPtr, size_t size) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMalloc(devPtr, size);
  }
  // Fresh memory reads as NaN / -1 on the simulator, other patterns on the hardware. The
  // simulator's device memory is the host's, and no work can use this block yet: filled
  // directly, so no stream operation lands in a capture in progress.
  if (!e && devPtr && *devPtr && size)
    std::memset(*devPtr, SimFill, size);
  fillUnwrittenMemory();
  if (e || !devPtr || !*devPtr)
    return e;
  void *hw = nullptr;
  musaError_t h = fwd::musaMalloc(&hw, size);
  mismatchedResult("musaMalloc", e, h);
  if (!h) {
    if (size)
      fwd::musaMemset(hw, hwFill(), size);
    std::lock_guard lock(diffMutex);
    allocations[static_cast<const char *>(*devPtr)] = {static_cast<char *>(hw), size, size == 0};
  }
  return e;
}

musaError_t musaFree(void *devPtr) {
  void *hw = nullptr;
  {
    std::lock_guard lock(diffMutex);
    if (auto it = allocations.find(static_cast<const char *>(devPtr)); it != allocations.end()) {
      hw = it->second.hw;
      allocations.erase(it);
    }
  }
  if (hw)
    fwd::musaFree(hw);
  SimulatorScope scope;
  return ::musaFree(devPtr);
}

musaError_t musaMemcpy(void *dst, const void *src, size_t count, musaMemcpyKind kind) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemcpy(dst, src, count, kind);
  }
  // A copy to the host lands once (the simulator's); copies into device memory go to both.
  if (!e && kind != musaMemcpyDeviceToHost && kind != musaMemcpyHostToHost) {
    void *hwDst = const_cast<void *>(translate(dst));
    if (hwDst != dst) {
      bool same = syncedSource(src);
      mismatchedResult("musaMemcpy", e, fwd::musaMemcpy(hwDst, translate(src), count, kind));
      noteWrite(dst, count, same);
    }
  }
  return e;
}

musaError_t musaMemcpyAsync(void *dst, const void *src, size_t count, musaMemcpyKind kind,
                            musaStream_t stream) {
  bool toDevice = kind != musaMemcpyDeviceToHost && kind != musaMemcpyHostToHost;
  if (capturing(stream)) { // a graph node: replayed on the hardware when the graph runs
    SimulatorScope scope;
    musaError_t e = ::musaMemcpyAsync(dst, src, count, kind, stream);
    const musaGraphNode_t *deps = nullptr;
    size_t n = 0;
    musaStreamCaptureStatus status;
    if (!e && toDevice &&
        !::musaStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &deps, &n) && n == 1) {
      std::lock_guard lock(diffMutex);
      capturedTransfers[deps[0]] = {true, dst, src, count, kind, 0};
    }
    return e;
  }
  if (toDevice && heldByHost(stream))
    return heldTransfer(stream, dst, count, "musaMemcpyAsync", [&] {
      return ::musaMemcpyAsync(dst, src, count, kind, stream);
    });
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemcpyAsync(dst, src, count, kind, stream);
    if (!e && toDevice)
      ::musaStreamSynchronize(stream); // the hardware copy reads the same host bytes now
  }
  if (!e && toDevice) {
    void *hwDst = const_cast<void *>(translate(dst));
    if (hwDst != dst) {
      bool same = syncedSource(src);
      musaStream_t hs = hwStream(stream);
      musaError_t h = fwd::musaMemcpyAsync(hwDst, translate(src), count, kind, hs);
      if (!h)
        h = fwd::musaStreamSynchronize(hs);
      mismatchedResult("musaMemcpyAsync", e, h);
      noteWrite(dst, count, same);
    }
  }
  return e;
}

musaError_t musaMemset(void *devPtr, int value, size_t count) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemset(devPtr, value, count);
  }
  if (void *hw = const_cast<void *>(translate(devPtr)); !e && hw != devPtr) {
    mismatchedResult("musaMemset", e, fwd::musaMemset(hw, value, count));
    noteWrite(devPtr, count, true);
  }
  return e;
}

musaError_t musaMemsetAsync(void *devPtr, int value, size_t count, musaStream_t stream) {
  if (capturing(stream)) {
    SimulatorScope scope;
    musaError_t e = ::musaMemsetAsync(devPtr, value, count, stream);
    const musaGraphNode_t *deps = nullptr;
    size_t n = 0;
    musaStreamCaptureStatus status;
    if (!e && !::musaStreamGetCaptureInfo(stream, &status, nullptr, nullptr, &deps, &n) &&
        n == 1) {
      std::lock_guard lock(diffMutex);
      capturedTransfers[deps[0]] = {false, devPtr, nullptr, count, musaMemcpyDefault, value};
    }
    return e;
  }
  if (heldByHost(stream))
    return heldTransfer(stream, devPtr, count, "musaMemsetAsync", [&] {
      return ::musaMemsetAsync(devPtr, value, count, stream);
    });
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemsetAsync(devPtr, value, count, stream);
  }
  if (void *hw = const_cast<void *>(translate(devPtr)); !e && hw != devPtr) {
    musaStream_t hs = hwStream(stream);
    musaError_t h = fwd::musaMemsetAsync(hw, value, count, hs);
    if (!h)
      h = fwd::musaStreamSynchronize(hs);
    mismatchedResult("musaMemsetAsync", e, h);
    noteWrite(devPtr, count, true);
  }
  return e;
}

musaError_t musaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               musaMemcpyKind kind) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemcpyToSymbol(symbol, src, count, offset, kind);
  }
  if (!e)
    mismatchedResult("musaMemcpyToSymbol", e,
                     fwd::musaMemcpyToSymbol(symbol, translate(src), count, offset, kind));
  return e;
}

musaError_t musaDeviceSynchronize(void) {
  fwd::musaDeviceSynchronize();
  SimulatorScope scope;
  return ::musaDeviceSynchronize();
}

musaError_t musaStreamSynchronize(musaStream_t stream) {
  fwd::musaStreamSynchronize(hwStream(stream));
  SimulatorScope scope;
  return ::musaStreamSynchronize(stream);
}

// ---- kernel functions: the same setting on both devices ------------------------------------

musaError_t musaFuncSetAttribute(const void *func, musaFuncAttribute attr, int value) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaFuncSetAttribute(func, attr, value);
  }
  mismatchedResult("musaFuncSetAttribute", e, fwd::musaFuncSetAttribute(func, attr, value));
  return e;
}

// ---- launches -----------------------------------------------------------------------------

musaError_t musaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t sharedMem, musaStream_t stream) {
  return launchBoth(func, grid, block, args, sharedMem, stream, false);
}

musaError_t musaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        size_t sharedMem, musaStream_t stream) {
  return launchBoth(func, grid, block, args, sharedMem, stream, true);
}

musaError_t musaGraphLaunch(musaGraphExec_t handle, musaStream_t stream) {
  auto simLaunch = [&] {
    SimulatorScope scope;
    return ::musaGraphLaunch(handle, stream);
  };
  std::shared_ptr<graph::GraphExec> exec = graphs::findExec(handle);
  if (!exec || capturing(stream)) // a graph launched into a capture becomes a child node
    return simLaunch();
  std::lock_guard serial(workMutex);
  std::vector<HwStep> steps;
  std::vector<Buffer> buffers;
  std::vector<std::string> kernels;
  std::string why;
  bool replayable = plan(exec->plan(), steps, buffers, kernels, why);
  std::string name = "graph launch (" + std::to_string(kernels.size()) + " kernel nodes)";
  if (heldByHost(stream)) {
    musaError_t e = simLaunch();
    if (!e)
      resyncWhenRun(stream, std::move(buffers), "a graph launch");
    finish(name + " [simulator only: stream held]", -1, -1, 0, "");
    return e;
  }
  snapshot(buffers);
  musaError_t e = simLaunch();
  if (e)
    return e;
  {
    SimulatorScope scope;
    ::musaStreamSynchronize(stream);
    ::musaGetLastError();
  }
  if (!replayable) {
    static std::once_flag said;
    std::call_once(said, [&] {
      std::fprintf(stderr,
                   "musa-sim diff: a graph with %s runs on the simulator only; the buffers its "
                   "kernels reach are copied to the hardware after each launch\n",
                   why.c_str());
    });
    resync(buffers);
    finish(name + " [simulator only]", -1, -1, 0, "");
    return e;
  }
  musaStream_t hs = hwStream(stream);
  musaError_t h = musaSuccess;
  for (const HwStep &s : steps)
    if ((h = replay(s, hs)))
      break;
  if (!h)
    h = fwd::musaStreamSynchronize(hs);
  mismatchedResult("graph launch", e, h);
  if (h)
    return e;
  std::string first;
  unsigned mismatches = compare(buffers, first);
  finish(name, -1, -1, mismatches, first);
  return e;
}

} // namespace diff
} // namespace musa::rt::backend
