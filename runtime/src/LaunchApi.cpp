// Kernel launch: <<<>>> call configuration, musaLaunchKernel, and device-fault reporting.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "FatBinaryRegistry.h"
#include "Runtime.h"
#include "Capture.h"
#include "GraphWork.h"
#include "KernelLaunch.h"

#include "musa/sim/ChildGrids.h"
#include "musa/sim/GridLauncher.h"
#include "musa/sim/Occupancy.h"

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

using namespace musa::rt;
namespace sim = musa::sim;

namespace {

struct CallConfiguration {
  dim3 grid, block;
  size_t sharedMem;
  void *stream;
};
thread_local std::vector<CallConfiguration> pendingConfigurations;

musaError_t errorFor(sim::FaultKind kind) {
  switch (kind) {
  case sim::FaultKind::IllegalAddress:
    return musaErrorIllegalAddress;
  case sim::FaultKind::Assert:
    return musaErrorAssert;
  case sim::FaultKind::MisalignedAddress:
    return musaErrorMisalignedAddress;
  case sim::FaultKind::Timeout:
    return musaErrorLaunchTimeout;
  default:
    return musaErrorLaunchFailure;
  }
}

/// Blocks of this shape the device holds at once (all SMs), as a cooperative launch needs:
/// what the occupancy API reports per SM (musa/sim/Occupancy.h), times the SMs.
uint64_t coResidentBlocks(const musa::sim::DeviceProfile &p, const sim::KernelEntry &k,
                          dim3 block, size_t sharedMem) {
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  return uint64_t(sim::residentBlocksPerMultiprocessor(p, threads,
                                                       k.staticSharedBytes + sharedMem)) *
         uint64_t(p.multiProcessorCount);
}

musaError_t launch(const void *func, dim3 grid, dim3 block, void **args, size_t sharedMem,
                   musaStream_t handle, bool cooperative = false,
                   std::optional<int> priority = {}) {
  if (!func)
    return musaErrorInvalidDeviceFunction;
  Runtime &rt = Runtime::get();
  std::shared_ptr<Stream> stream = rt.resolveStream(handle);
  if (!stream)
    return rt.currentDevice() ? musaErrorInvalidResourceHandle : musaErrorNoDevice;
  // CUDA: "A kernel launch will fail if it is issued to a stream that is not associated to
  // the current device" (a stream belongs to its device's context).
  if (stream->device != rt.currentDevice())
    return musaErrorInvalidResourceHandle;
  auto prepared = std::make_shared<PreparedLaunch>();
  if (musaError_t e = prepareLaunch(func, grid, block, args, sharedMem, *stream->device,
                                    priority.value_or(stream->priority), cooperative,
                                    *prepared))
    return e;
  bool captured;
  if (musaError_t e = Capture::route(*stream, musa::graph::NodeType::Kernel,
                                     [&] { return std::make_unique<KernelWork>(prepared); },
                                     captured);
      e || captured)
    return e;
  stream->device->hostLaunchCall();
  stream->device->submit(*stream, [prepared] { prepared->run(); });
  return musaSuccess;
}

} // namespace

namespace musa::rt {

musaError_t prepareLaunch(const void *func, dim3 grid, dim3 block, void **args, size_t sharedMem,
                          Device &device, int priority, bool cooperative, PreparedLaunch &out) {
  if (!func)
    return musaErrorInvalidDeviceFunction;
  if (musaError_t e = device.stickyError())
    return e;
  const sim::KernelEntry *kernel = nullptr;
  if (musaError_t e = FatBinaryRegistry::get().findKernel(func, kernel))
    return e;
  return prepareKernelLaunch(*kernel, func, grid, block, args, sharedMem, device, priority,
                             cooperative, out);
}

musaError_t prepareKernelLaunch(const sim::KernelEntry &entry, const void *func, dim3 grid,
                                dim3 block, void **args, size_t sharedMem, Device &device,
                                int priority, bool cooperative, PreparedLaunch &out) {
  const sim::KernelEntry *kernel = &entry;
  sim::GridLaunch config;
  config.kernel = kernel;
  config.grid = {grid.x, grid.y, grid.z};
  config.block = {block.x, block.y, block.z};
  config.dynamicSharedBytes = sharedMem;
  config.warpSize = device.profile().warpSize;
  config.priority = priority;
  config.clockRateKHz = uint32_t(device.profile().clockRateKHz);
  config.multiprocessors = uint32_t(std::max(1, device.profile().multiProcessorCount));
  config.cooperative = cooperative;
  config.heap = &device.heap;
  config.hostAccessible = &Runtime::kernelReachable;
  if (Runtime::get().anyPinnedHost())
    config.hostMemory = &Runtime::pinnedHost;
  if (std::string why = sim::checkLaunchConfig(device.profile(), config); !why.empty()) {
    if (std::getenv("MUSA_SIM_VERBOSE"))
      std::fprintf(stderr, "musa-sim: launch of '%s' refused: %s\n",
                   sim::demangle(kernel->name).c_str(), why.c_str());
    return musaErrorInvalidConfiguration;
  }
  if (!args && !kernel->paramSizes.empty())
    return musaErrorInvalidValue;
  // Past __launch_bounds__, or more dynamic shared memory than the kernel opted in to (48 KiB
  // with its static shared memory unless musaFuncSetAttribute raised it): as the H200 answers.
  bool tooMuchShared = sharedMem > dynamicSharedLimit(func, *kernel, device.profile());
  if (tooMuchShared ||
      (kernel->maxThreadsPerBlock && config.block.count() > kernel->maxThreadsPerBlock)) {
    if (std::getenv("MUSA_SIM_VERBOSE"))
      std::fprintf(stderr, "musa-sim: launch of '%s' refused: %s\n",
                   sim::demangle(kernel->name).c_str(),
                   tooMuchShared ? "more dynamic shared memory than "
                                   "musaFuncAttributeMaxDynamicSharedMemorySize allows"
                                 : "block larger than the kernel's __launch_bounds__");
    return musaErrorInvalidValue;
  }
  // Whether the device holds every block at once: what a cooperative launch requires.
  config.gridFits =
      config.grid.count() <= coResidentBlocks(device.profile(), *kernel, block, sharedMem);
  if (cooperative && !config.gridFits) {
    if (std::getenv("MUSA_SIM_VERBOSE"))
      std::fprintf(stderr, "musa-sim: cooperative grid of %llu blocks cannot be co-resident\n",
                   (unsigned long long)config.grid.count());
    return musaErrorCooperativeLaunchTooLarge;
  }
  // A kernel that waits for values other blocks write, on a grid the device holds at once:
  // any block may wait for any other (a persistent kernel's own grid barrier), so the blocks
  // run together, every thread a fiber of one scheduler; up to WaitingGridThreads threads:
  // beyond, that costs seconds and gigabytes (270,000 fibers) where the ordinary path, which
  // starts blocks in order, serves the common waits on earlier blocks (decoupled look-back).
  // Spin locks and waits on shared memory need no other block (MarkSpinLoops).
  constexpr uint64_t WaitingGridThreads = 65536;
  config.allResident = !cooperative && config.gridFits && kernel->waitsForOthers &&
                       config.grid.count() * config.block.count() <= WaitingGridThreads;
  out.func = func;
  out.grid = grid;
  out.block = block;
  out.sharedMem = sharedMem;
  out.device = &device;
  out.config = config;
  out.args = std::make_shared<ArgumentCopy>(kernel->paramSizes, args);
  return musaSuccess;
}

namespace {
// Process-wide: a graph's nodes run on oneTBB workers, not on the thread that set it; one
// executable graph runs at a time per launch, and concurrent graph launches on streams of
// different priorities may see each other's value (a scheduling hint, never a result).
std::atomic<int> launchStreamPriority{0};
std::atomic<bool> launchUsesNodePriority{false};
} // namespace

void setGraphLaunchPriority(GraphLaunchPriority p) {
  launchStreamPriority = p.streamPriority;
  launchUsesNodePriority = p.useNodePriority;
}

GraphLaunchPriority graphLaunchPriority() {
  return {launchStreamPriority.load(), launchUsesNodePriority.load()};
}

void PreparedLaunch::run(bool graphNode) const {
  std::vector<sim::ChildGrids::Child> children = runGrid(graphNode);
  // Grids device code launched, depth first: each child's own children run before the next
  // child (a stack, the next to run on top, so a chain of any depth needs no recursion; a
  // marker under a child's children takes it off the pending count once they are done).
  struct Step {
    sim::ChildGrids::Child child;
    bool done = false;
  };
  std::vector<Step> stack;
  auto push = [&stack](std::vector<sim::ChildGrids::Child> &&list) {
    for (auto it = list.rbegin(); it != list.rend(); ++it)
      stack.push_back({std::move(*it), false});
  };
  push(std::move(children));
  while (!stack.empty()) {
    Step step = std::move(stack.back());
    stack.pop_back();
    if (step.done) {
      --device->pendingDeviceLaunches;
      continue;
    }
    stack.push_back({{}, true});
    push(runChild(step.child));
  }
}

std::vector<sim::ChildGrids::Child> PreparedLaunch::runGrid(bool graphNode) const {
  if (device->stickyError())
    return {}; // a fault earlier in the device's life: the GPU runs nothing more
  sim::GridLaunch launch = config;
  launch.args = args->pointers.data();
  const sim::DeviceProfile &profile = device->profile();
  sim::Timeline *timeline = sim::currentTimeline();
  std::optional<sim::KernelCounters> counters;
  if (launch.kernel->instrumented && timeline) {
    counters.emplace(launch, device->memory().base(), device->memory().highWater());
    launch.counters = &*counters;
    launch.startCycle = uint64_t(timeline->readyNs.load() * profile.clockRateKHz / 1e6);
    launch.cyclesPerInstruction = uint32_t(std::max(1.0, profile.dependentIssueCycles));
  }
  size_t pendingLimit;
  {
    std::lock_guard lock(device->limitsMutex);
    pendingLimit = device->limits.pendingLaunchCount;
  }
  sim::ChildGrids children(profile, device->pendingDeviceLaunches, pendingLimit);
  launch.children = &children;
  sim::LaunchOutcome outcome = sim::runGrid(launch);
  if (!outcome.ok()) {
    // A failed assert has printed the one line hardware prints (DeviceBuiltins.cpp); programs
    // compare that output exactly, so the fault's own description is verbose-only.
    if (outcome.fault != sim::FaultKind::Assert || std::getenv("MUSA_SIM_VERBOSE"))
      std::fprintf(stderr, "musa-sim: %s\n", outcome.message.c_str());
    device->setStickyError(errorFor(outcome.fault));
    return {}; // its children do not run
  }
  if (counters)
    chargeKernel(launch, *counters, graphNode);
  // The grid's launch completes once its children have (musa/sim/ChildGrids.h).
  return children.take();
}

std::vector<sim::ChildGrids::Child> PreparedLaunch::runChild(sim::ChildGrids::Child &child) const {
  const sim::KernelEntry *kernel = nullptr;
  const void *stub = nullptr;
  musaError_t e = FatBinaryRegistry::get().findSiblingKernel(*config.kernel, child.kernel,
                                                             kernel, stub);
  if (!e && kernel->paramSizes != child.sizes)
    e = musaErrorInvalidValue; // not the kernel the launching code was compiled against
  PreparedLaunch next;
  if (!e)
    e = prepareKernelLaunch(*kernel, stub, dim3(child.grid.x, child.grid.y, child.grid.z),
                            dim3(child.block.x, child.block.y, child.block.z),
                            child.args.pointers.data(), child.sharedBytes, *device, config.priority,
                            false, next);
  if (e) {
    // The hardware returns these to the launching thread; here the child is known to be
    // impossible only now, after its parent has finished: it does not run.
    std::fprintf(stderr, "musa-sim: device-side launch of '%s' by '%s' did not run: %s\n",
                 sim::demangle(child.kernel).c_str(), sim::demangle(config.kernel->name).c_str(),
                 musaGetErrorString(e));
    return {};
  }
  return next.runGrid(false);
}

void PreparedLaunch::chargeKernel(const sim::GridLaunch &launch, sim::KernelCounters &counters,
                                  bool graphNode) const {
  const sim::DeviceProfile &profile = device->profile();
  counters.settled();
  counters.finishSampling();
  sim::ReportRow row;
  const std::vector<sim::AddressSpan> spans = counters.footprintSpans();
  const double capacity = device->l2Capacity();
  double touched = 0;
  for (const sim::AddressSpan &span : spans)
    touched += span.bytes;
  row.estimate = sim::estimateKernel(
      profile, launch, counters,
      touched > 0 ? device->l2.warmBytes(spans, capacity) / touched : 0);
  device->l2.record(spans, row.estimate.footprintBytes, capacity);
  // The host's share of an isolated launch's overhead (its first call after a wait) passed on
  // the host before the kernel was submitted (Device::hostLaunchCall): the compute engine is
  // busy for the rest. A graph's kernel nodes cost graph_kernel_node_us each instead.
  const double beforeUs = graphNode && profile.graphKernelNodeUs >= 0
                              ? profile.kernelLaunchUs - profile.graphKernelNodeUs
                              : profile.hostLaunchUs + profile.hostLaunchColdUs;
  row.ns = row.estimate.ns - beforeUs * 1000;
  // A grid that fills fewer block slots than the GPU has leaves the rest to kernels of
  // other streams (Timing.h, DeviceClock).
  const double blocks = double(launch.grid.x) * launch.grid.y * launch.grid.z;
  const double slots = double(row.estimate.blocksPerSM) * profile.multiProcessorCount;
  const double share = slots > 0 ? std::min(1.0, blocks / slots) : 1.0;
  if (sim::Timeline *current = sim::currentTimeline()) { // an event record just before (Timing.h)
    const double floor = current->kernelFloorNs.load();
    if (current->readyNs.load() < floor)
      current->readyNs = floor;
  }
  row.startNs = sim::chargeCurrent(device->clock, sim::Engine::Compute, row.ns, share);
  const double predictedNs = row.estimate.ns; // as events around one launch see it
  uint64_t reportId = 0;
  if (sim::reportEnabled()) {
    row.kind = "kernel";
    row.name = sim::demangle(launch.kernel->name);
    row.device = device->ordinal();
    row.grid = launch.grid;
    row.block = launch.block;
    row.exec = sim::execModeName(launch.cooperative || launch.allResident ? sim::ExecMode::Fibers
                                                    : sim::execModeFor(*launch.kernel));
    row.samplesReused = counters.reusesSamples();
    reportId = sim::reportOperation(std::move(row));
  }
  if (backend::mode() == backend::Mode::Diff)
    backend::kernelPredicted(predictedNs, reportId); // differential mode's timing comparison
}

} // namespace musa::rt

extern "C" {

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t sharedMem, void *stream) {
  pendingConfigurations.push_back({grid, block, sharedMem, stream});
  return 0;
}

musaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *sharedMem,
                                       void *stream) {
  if (pendingConfigurations.empty())
    return musaErrorMissingConfiguration;
  CallConfiguration c = pendingConfigurations.back();
  pendingConfigurations.pop_back();
  *grid = c.grid;
  *block = c.block;
  *sharedMem = c.sharedMem;
  *static_cast<void **>(stream) = c.stream;
  return musaSuccess;
}

musaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t sharedMem, musaStream_t stream) {
  __cudaPushCallConfiguration(grid, block, sharedMem, stream);
  return musaSuccess;
}

unsigned __musaPushCallConfiguration(dim3 grid, dim3 block, size_t sharedMem, void *stream) {
  return __cudaPushCallConfiguration(grid, block, sharedMem, stream);
}

musaError_t __musaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *sharedMem,
                                       void *stream) {
  return __cudaPopCallConfiguration(grid, block, sharedMem, stream);
}

musaError_t musaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t sharedMem, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaLaunchKernel, func, grid, block, args, sharedMem, stream);
  return apiCall([&] { return launch(func, grid, block, args, sharedMem, stream); });
}

musaError_t musaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        size_t sharedMem, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaLaunchCooperativeKernel, func, grid, block, args, sharedMem, stream);
  return apiCall([&] { return launch(func, grid, block, args, sharedMem, stream, true); });
}

musaError_t musaLaunchKernelExC(const musaLaunchConfig_t *config, const void *func,
                                void **args) {
  if (!config || (config->numAttrs && !config->attrs))
    return recordError(musaErrorInvalidValue);
  bool cooperative = false;
  std::optional<int> priority;
  musaEvent_t programmatic = nullptr;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const musaLaunchAttributeValue &v = config->attrs[i].val;
    bool valid = true;
    switch (config->attrs[i].id) {
    case musaLaunchAttributeIgnore:
      break;
    case musaLaunchAttributeCooperative:
      cooperative = v.cooperative != 0;
      break;
    case musaLaunchAttributePriority:
      priority = clampPriority(v.priority); // as stream priorities are (the H200 accepts -100)
      break;
    case musaLaunchAttributeClusterDimension: {
      // As the H200 answers (tests/hardware/probes/launch_ex_probe.h200.txt): a cluster must
      // tile the grid, at most the portable 8 blocks. Clusters only group blocks for
      // co-scheduling and cluster-scope features the simulator's device code does not offer,
      // so a valid one changes nothing in how the blocks run.
      const auto &c = v.clusterDim;
      if (c.x == 0 || c.y == 0 || c.z == 0 || uint64_t(c.x) * c.y * c.z > 8 ||
          config->gridDim.x % c.x || config->gridDim.y % c.y || config->gridDim.z % c.z)
        return recordError(musaErrorInvalidClusterSize);
      break;
    }
    case musaLaunchAttributeAccessPolicyWindow:
      valid = validAccessPolicyWindow(v.accessPolicyWindow);
      break;
    case musaLaunchAttributeSynchronizationPolicy:
      valid = v.syncPolicy >= musaSyncPolicyAuto && v.syncPolicy <= musaSyncPolicyBlockingSync;
      break;
    case musaLaunchAttributeClusterSchedulingPolicyPreference:
      valid = v.clusterSchedulingPolicyPreference >= musaClusterSchedulingPolicyDefault &&
              v.clusterSchedulingPolicyPreference <= musaClusterSchedulingPolicyLoadBalancing;
      break;
    case musaLaunchAttributeProgrammaticStreamSerialization:
      break; // the simulator runs a stream's kernels one after another anyway
    case musaLaunchAttributeProgrammaticEvent: {
      // CUDA triggers it once every block has triggered or exited: here, when the kernel has
      // run (it is recorded on the stream after the launch). It must be an event without
      // timing, as on the H200.
      programmatic = v.programmaticEvent.event;
      if (!programmatic)
        return recordError(musaErrorInvalidResourceHandle);
      std::shared_ptr<Event> event = Runtime::get().resolveEvent(programmatic);
      if (!event && musa::rt::backend::routing())
        break; // a forwarding backend's event is the target's: it checks the recording below
      if (!event)
        return recordError(musaErrorInvalidResourceHandle);
      if (!(event->flags & musaEventDisableTiming))
        return recordError(musaErrorNotSupported);
      break;
    }
    case musaLaunchAttributeMemSyncDomainMap:
      break;
    case musaLaunchAttributeMemSyncDomain:
      valid = v.memSyncDomain == musaLaunchMemSyncDomainDefault ||
              v.memSyncDomain == musaLaunchMemSyncDomainRemote;
      break;
    default:
      valid = false;
    }
    if (!valid)
      return recordError(musaErrorInvalidValue);
  }
  musaError_t launched;
  if (musa::rt::backend::routing() || !priority) // through the entries a backend forwards
    launched = cooperative ? musaLaunchCooperativeKernel(func, config->gridDim, config->blockDim,
                                                         args, config->dynamicSmemBytes,
                                                         config->stream)
                           : musaLaunchKernel(func, config->gridDim, config->blockDim, args,
                                              config->dynamicSmemBytes, config->stream);
  else
    launched = apiCall([&] {
      return launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                    config->stream, cooperative, priority);
    });
  if (launched != musaSuccess || !programmatic)
    return launched;
  return musaEventRecord(programmatic, config->stream);
}

musaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t sharedMem, musaStream_t stream) {
  return musaLaunchKernel(func, grid, block, args, sharedMem, stream);
}

} // extern "C"
