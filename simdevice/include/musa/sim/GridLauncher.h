// GridLauncher: runs one kernel launch (a grid of blocks) on the host CPU.
//
// Blocks are spread over oneTBB workers. Inside a block, a kernel that never reaches a
// barrier runs all its threads as one JIT'd loop; otherwise every GPU thread is a fiber (see
// BlockExecutor). The first fault ends the launch: blocks not yet started are skipped, as a
// GPU stops issuing new blocks after an error.
#pragma once

#include "musa/sim/DeviceProfile.h"
#include "musa/sim/FaultGuard.h"
#include "musa/sim/KernelAbi.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace musa::sim {

class KernelCounters; // Timing.h

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

/// A launch's own copy of its arguments (the caller's `args` point into its stack frame): each
/// value on a max_align_t boundary of `storage`, `pointers` its addresses.
struct ArgumentCopy {
  std::vector<std::max_align_t> storage;
  std::vector<void *> pointers;
  ArgumentCopy() = default;
  ArgumentCopy(const std::vector<uint32_t> &sizes, void **args);
};

/// A kernel's region loops (see KernelRegions).
struct RegionCode {
  KernelRegions entry = nullptr;
  uint32_t frameBytes = 0; // per thread, what lives across park points
  uint32_t parkPoints = 0;
  const uint32_t *pointKinds = nullptr; // abi::RegionPoint of each park point
  explicit operator bool() const { return entry != nullptr; }
};

/// A kernel ready to run (produced by kernel-jit).
struct KernelEntry {
  std::string name; // device (mangled) name
  KernelThunk thread = nullptr;
  KernelThunk block = nullptr;
  uint64_t staticSharedBytes = 0;
  uint32_t maxThreadsPerBlock = 0; // __launch_bounds__; 0 without one
  bool needsFibers = true; // reaches a barrier or warp collective: no plain loop
  bool waitsForOthers = false; // a loop polls for a value another block may write
  /// Region loops (kernel-jit's FormBarrierRegions); no entry if the kernel must run as fibers.
  RegionCode regions;
  RegionCode fullRegions; // of the fully instrumented variant (timing model's sampled blocks)
  std::string fibersBecause; // why a kernel that needs them has no regions
  std::vector<uint32_t> paramSizes; // bytes of each parameter, to copy launch arguments
  /// Where each parameter starts in a packed parameter buffer (CUDA's layout: each at its
  /// alignment after the one before; musaFuncGetParamInfo, the driver API's packed form).
  std::vector<size_t> paramOffsets;
  bool instrumented = false;  // compiled with the timing model's counters
  uint32_t timingSites = 0;   // memory-access sites the instrumentation numbered (module-wide)
  uint32_t timingBlocks = 0;  // basic blocks it numbered; per block, counts per class:
  const uint32_t *timingBlockTable = nullptr; // [timingBlocks][abi::TableColumns]
  const uint32_t *timingSiteInfo = nullptr;   // [timingSites]: abi::Access* info per site
  const uint32_t *timingSiteBlocks = nullptr; // [timingSites]: see TimingSiteBlocksSymbol
  /// The sites the light variant of this kernel (and what it calls) counts: [first, end).
  uint32_t timingFirstSite = 0, timingEndSite = 0;
  /// The fully instrumented variant's thread entry (memory hook per access), which the
  /// blocks the timing model samples run; `thread` and `block` carry the light counters.
  KernelThunk fullThread = nullptr;
};

struct GridLaunch {
  const KernelEntry *kernel = nullptr;
  Dim3 grid, block;
  size_t dynamicSharedBytes = 0;
  void **args = nullptr;
  int warpSize = 32;
  /// Stream priority (CUDA's convention: negative is more urgent). Urgent grids run in a
  /// high-priority oneTBB arena, so idle workers take their blocks first.
  int priority = 0;
  /// The device clock, for clock()/clock64() in kernels.
  uint32_t clockRateKHz = 1000000;
  /// The device's multiprocessors, for %smid/%nsmid (blocks are dealt to them in turn).
  uint32_t multiprocessors = 1;
  /// Timing model: collects this launch's counters (null: not measured). clock64() starts
  /// at `startCycle` and advances `cyclesPerInstruction` per executed instruction.
  KernelCounters *counters = nullptr;
  uint64_t startCycle = 0;
  uint32_t cyclesPerInstruction = 1;
  /// musaLaunchCooperativeKernel: all blocks run together so grid.sync() works.
  bool cooperative = false;
  /// The device holds every block of the grid at once (what a cooperative launch requires):
  /// grid_group::is_valid() is then true in any launch, as the H200 answers (CUDA 13).
  bool gridFits = false;
  /// All blocks run together, as in a cooperative launch, without being one (grid.sync()
  /// still needs a cooperative launch): a kernel that polls for values other blocks write, on
  /// a grid that fits, may wait for any block (a persistent kernel's own grid barrier).
  bool allResident = false;
  /// The device's heap for malloc()/free() in kernels (null: they return null / fault).
  class DeviceHeap *heap = nullptr;
  /// MUSA_SIM_MEMCHECK=1: whether kernels may access `p`, which is neither device memory of
  /// this launch's kinds nor the thread's stack or shared memory (pinned, mapped, registered
  /// or managed host memory, symbols). Null: every address is.
  bool (*hostAccessible)(const void *p) = nullptr;
  /// Whether `p` is pinned, mapped or registered host memory (zero-copy): the timing model
  /// sends a kernel's accesses to it over the host link. Null: no address is.
  bool (*hostMemory)(const void *p) = nullptr;
  /// Where the grid's device-side launches go (dynamic parallelism; null: they fail with
  /// musaErrorNotSupported).
  class ChildGrids *children = nullptr;
};

struct LaunchOutcome {
  FaultKind fault = FaultKind::None;
  std::string message; // names kernel, block, thread and what happened
  bool ok() const { return fault == FaultKind::None; }
};

/// Why a launch configuration is impossible on `profile`, or empty if it is fine.
std::string checkLaunchConfig(const DeviceProfile &profile, const GridLaunch &launch);
/// The same for the grid and block shape alone (what does not depend on the kernel).
std::string checkLaunchShape(const DeviceProfile &profile, const Dim3 &grid, const Dim3 &block);

/// How a kernel's blocks run (MUSA_SIM_EXEC forces one; see README).
enum class ExecMode { Loop, Regions, Fibers };
/// The mode blocks of `kernel` run in when not sampled by the timing model.
ExecMode execModeFor(const KernelEntry &kernel);
const char *execModeName(ExecMode mode);
/// MUSA_SIM_EXEC=loops: even the blocks the timing model samples run as loops or regions
/// (auto runs those as fibers, to see each thread's own counts); the model then has no
/// divergence samples. For testing the loop modes on small grids.
bool loopsForced();

/// Runs the whole grid and waits for it.
LaunchOutcome runGrid(const GridLaunch &launch);

/// Differential mode (MUSA_SIM_BACKEND=diff): every block's shared memory is filled with
/// `byte` before the block runs, so a read of shared memory no thread wrote gives a value the
/// hardware is unlikely to give. -1 (the default) leaves it as the previous block left it.
void setSharedMemoryFill(int byte);

/// "vectorAdd(float*, float*, float*, int)" for a mangled name; the name itself otherwise.
std::string demangle(const std::string &name);

} // namespace musa::sim
