// The state of one running block, shared by the executors of its modes (BlockExecutor.cpp:
// plain loop and fibers; RegionExecutor.cpp: region loops) and the builtins they serve.
// ThreadContext::block points at it while device code runs.
#pragma once

#include "musa/sim/GridLauncher.h"

#include <vector>

namespace musa::sim {

struct SimThread;   // a fiber-mode GPU thread (BlockExecutor.cpp)
struct BlockCounters; // Timing.h
struct RegionState; // region-mode park records (RegionExecutor.cpp)

struct BlockRun {
  const GridLaunch *launch = nullptr;
  ExecMode mode = ExecMode::Loop;
  bool fibers = false;                       // mode == Fibers
  KernelThunk threadEntry = nullptr;         // fiber mode: the variant each thread runs
  ThreadContext loopContext{};               // loop and region modes: the thread running now
  std::vector<SimThread> *threads = nullptr; // fiber mode
  std::vector<size_t> blockStarts;           // fiber mode: first thread of each block, + end
  bool namedBarriers = false;                // fiber mode: a thread reached a named barrier
  SimThread *current = nullptr;
  RegionState *regions = nullptr;            // region mode
  const RegionCode *regionCode = nullptr;    // region mode: the variant the block runs
  BlockCounters *sampledThreads = nullptr;   // loop mode, sampled: threads one by one
  BlockCounters *sampledBlock = nullptr;     // sampled: told when a block barrier releases
  LaunchOutcome outcome;

  void fail(FaultKind kind, std::string message) {
    outcome.fault = kind;
    outcome.message = std::move(message);
  }
};

/// "(x,y,z)"
std::string dims(const uint32_t v[3]);

/// Runs the block of `arg` (a BlockRun in region mode, loopContext prepared) to completion or
/// to a deadlock, which it records in the run's outcome. Faults in device code unwind past it.
void runRegionBlock(void *arg);

/// __isLocal() in region mode: whether `p` lies in the block's thread frames (what its threads
/// keep across barriers lives there, not on the host stack).
bool regionFrameHolds(const ThreadContext *ctx, const void *p);
/// The first address on this worker thread that __musa_sim_check_address found unreachable
/// (cleared by the executor before each block).
extern thread_local const void *firstHostAccessFault;

/// __activemask() in region mode: the caller's 32-lane quarter's lanes that have not exited.
uint32_t regionActiveMask(ThreadContext *ctx);

/// The host's steady clock in nanoseconds (wall-mode clocks, the spin-loop limit).
uint64_t hostNanoseconds();

} // namespace musa::sim
