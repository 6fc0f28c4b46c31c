// Launch validation and spreading a grid's blocks over oneTBB workers.
#include "musa/sim/GridLauncher.h"

#include "musa/sim/BlockExecutor.h"
#include "musa/sim/Timing.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <tbb/parallel_for.h>
#include <tbb/task_group.h>

#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <memory>

namespace musa::sim {

std::string demangle(const std::string &name) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> text(
      ::abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && text ? std::string(text.get()) : name;
}

ArgumentCopy::ArgumentCopy(const std::vector<uint32_t> &sizes, void **args) {
  constexpr size_t slot = sizeof(std::max_align_t);
  size_t slots = 0;
  for (uint32_t size : sizes)
    slots += (size + slot - 1) / slot;
  storage.resize(slots);
  char *next = reinterpret_cast<char *>(storage.data());
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::memcpy(next, args[i], sizes[i]);
    pointers.push_back(next);
    next += (sizes[i] + slot - 1) / slot * slot;
  }
}

std::string checkLaunchShape(const DeviceProfile &p, const Dim3 &g, const Dim3 &b) {
  if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0)
    return "a grid or block dimension is zero";
  if (b.count() > uint64_t(p.maxThreadsPerBlock))
    return "block of " + std::to_string(b.count()) + " threads exceeds the device's " +
           std::to_string(p.maxThreadsPerBlock) + " threads per block";
  if (b.x > uint32_t(p.maxBlockDim[0]) || b.y > uint32_t(p.maxBlockDim[1]) ||
      b.z > uint32_t(p.maxBlockDim[2]))
    return "block dimensions exceed the device's maximum block size";
  if (g.x > uint32_t(p.maxGridDim[0]) || g.y > uint32_t(p.maxGridDim[1]) ||
      g.z > uint32_t(p.maxGridDim[2]))
    return "grid dimensions exceed the device's maximum grid size";
  return {};
}

std::string checkLaunchConfig(const DeviceProfile &p, const GridLaunch &l) {
  if (std::string why = checkLaunchShape(p, l.grid, l.block); !why.empty())
    return why;
  uint64_t shared = l.kernel->staticSharedBytes + l.dynamicSharedBytes;
  if (shared > p.sharedMemPerBlockOptin)
    return "kernel needs " + std::to_string(shared) + " bytes of shared memory; the device " +
           "allows " + std::to_string(p.sharedMemPerBlockOptin) + " per block";
  return {};
}

static LaunchOutcome runGridInArena(const GridLaunch &launch);

namespace {
std::string execEnvironment() {
  const char *mode = std::getenv("MUSA_SIM_EXEC");
  return mode ? mode : "auto";
}
/// MUSA_SIM_EXEC=fibers runs every kernel with a fiber per GPU thread (the reference the loop
/// modes are tested against).
bool fibersForced() {
  static const bool forced = execEnvironment() == "fibers";
  return forced;
}
} // namespace

bool loopsForced() {
  static const bool forced = execEnvironment() == "loops";
  return forced;
}

ExecMode execModeFor(const KernelEntry &kernel) {
  if (fibersForced())
    return ExecMode::Fibers;
  if (!kernel.needsFibers)
    return ExecMode::Loop;
  return kernel.regions ? ExecMode::Regions : ExecMode::Fibers;
}

const char *execModeName(ExecMode mode) {
  switch (mode) {
  case ExecMode::Loop: return "loop";
  case ExecMode::Regions: return "regions";
  case ExecMode::Fibers: return "fibers";
  }
  return "?";
}

namespace {
/// MUSA_SIM_WORKERS=N caps the host threads that run blocks (default: all cores).
// The limit and the arenas are never destroyed: stream workers may still be running grids in
// them while the process exits (a program may return from main with work in flight), and a
// destroyed arena aborts what runs in it.
void applyWorkerLimit() {
  static const tbb::global_control *limit = []() -> tbb::global_control * {
    const char *env = std::getenv("MUSA_SIM_WORKERS");
    int n = env ? std::atoi(env) : 0;
    return n > 0 ? new tbb::global_control(tbb::global_control::max_allowed_parallelism,
                                           size_t(n))
                 : nullptr;
  }();
  (void)limit;
}
tbb::task_arena &arenaFor(int priority) {
  static auto *urgent = new tbb::task_arena(tbb::task_arena::automatic, 1,
                                            tbb::task_arena::priority::high);
  static auto *normal = new tbb::task_arena(tbb::task_arena::automatic, 1,
                                            tbb::task_arena::priority::normal);
  return priority < 0 ? *urgent : *normal;
}
} // namespace

LaunchOutcome runGrid(const GridLaunch &launch) {
  applyWorkerLimit();
  LaunchOutcome outcome;
  if (launch.kernel->instrumented && !launch.counters) {
    // Instrumented code always writes its counters: give it somewhere to (results unused).
    GridLaunch counted = launch;
    KernelCounters discard(launch, nullptr, 0);
    counted.counters = &discard;
    arenaFor(launch.priority).execute([&] { outcome = runGridInArena(counted); });
    discard.flushWorkers();
    discard.settled();
    return outcome;
  }
  arenaFor(launch.priority).execute([&] { outcome = runGridInArena(launch); });
  if (launch.counters)
    launch.counters->flushWorkers();
  return outcome;
}

/// Grids of fewer blocks run their sampled blocks in line (see runGridInArena).
constexpr uint64_t SampledApartMinBlocks = 128;

static LaunchOutcome runGridInArena(const GridLaunch &launch) {
  if (launch.cooperative || launch.allResident)
    return runBlocks(launch, 0, launch.grid.count());
  const uint64_t blocks = launch.grid.count();
  GridProgress progress;
  // A sampled block runs the fully instrumented code, as long as tens of light blocks: met in
  // the middle of a worker's range it would finish last, with the other workers idle. Started
  // first, as tasks the other workers take while this one splits the range, it overlaps them.
  // Not in small grids, where it is most of the work anyway: there the blocks keep running in
  // order on an idle machine, and so does what they print (a teaching program's "hello from
  // block 2" after block 1's, as users of a GPU mostly see it, though no order is promised).
  progress.sampledApart = launch.counters && !loopsForced() && blocks >= SampledApartMinBlocks;
  beginGrid(progress);
  auto body = [&](const tbb::blocked_range<uint64_t> &range) {
    runBlockRange(launch, range.begin(), range.end(), progress);
  };
  tbb::task_group sampled;
  if (progress.sampledApart)
    for (uint64_t id = launch.counters->nextSampled(0); id < blocks;
         id = launch.counters->nextSampled(id + 1))
      sampled.run([&launch, &progress, id] { runSampledBlock(launch, id, progress); });
  // ThreadSanitizer builds compile this file uninstrumented (simdevice/CMakeLists.txt): TBB's
  // inline templates here touch task objects that TBB's uninstrumented library writes, and
  // every such (suppressed) report still costs a symbolization. What runs the blocks, and the
  // ordering TSan must see, is in BlockExecutor.cpp.
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, blocks), body);
  sampled.wait();
  return endGrid(progress);
}

} // namespace musa::sim
