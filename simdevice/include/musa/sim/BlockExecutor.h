// BlockExecutor: runs the threads of one block on the calling worker thread.
//
// Fiber mode: each GPU thread is a Boost.Context fcontext on a pooled, guarded stack. The
// scheduler resumes every ready thread in turn; a thread gives control back when it reaches
// __syncthreads (AtBarrier) or returns (Exited). When every thread still alive waits at the
// barrier, all are released together: that is the barrier. If some threads have exited while
// others wait, the barrier can never complete; hardware would hang or misbehave, so the block
// ends with a BarrierDivergence fault naming the threads on each side.
//
// The low-level fcontext interface (boost/context/detail) is used rather than
// boost::context::fiber because a fiber must be abandonable after a fault without unwinding:
// fiber's destructor resumes it to unwind, which would run code on a corrupted stack.
#pragma once

#include "musa/sim/GridLauncher.h"

#include <atomic>
#include <mutex>

namespace musa::sim {

/// Runs `blockCount` consecutive blocks (linear order) starting at `firstBlock`; safe to call
/// concurrently from different threads. One block runs in its kernel's mode; several run
/// together in one fiber scheduler, each with its own shared memory: how a cooperative grid
/// runs, so grid.sync() can hold every thread of the grid. Blocks still synchronise
/// separately at __syncthreads.
LaunchOutcome runBlocks(const GridLaunch &launch, uint64_t firstBlock, uint64_t blockCount);
/// Block `firstBlock` and, if its kernel runs as loops or regions and the block is not
/// sampled, the blocks after it up to `batchEnd` (exclusive) that are not sampled either,
/// until `stop` is set or one fails: one set-up and one fault guard for all. `next` is set to
/// the first block not run (the failed one counts as run). `blockCount` > 1: a cooperative
/// grid's blocks together, as fibers (batchEnd unused).
LaunchOutcome runBlockBatch(const GridLaunch &launch, uint64_t firstBlock, uint64_t batchEnd,
                            const std::atomic<bool> *stop, uint64_t &next,
                            uint64_t blockCount = 1);

/// One launch's blocks spread over workers: the first fault stops the rest.
struct GridProgress {
  std::atomic<bool> stop{false};
  std::mutex faultMutex;
  LaunchOutcome first;
  // oneTBB orders the workers' accesses to this and the launch with atomics inside its
  // uninstrumented library; these release/acquire pairs let ThreadSanitizer see that order.
  std::atomic<uint64_t> published{0}, finished{0};
  // The timing model's sampled blocks run as tasks of their own (runSampledBlock): ranges
  // skip them.
  bool sampledApart = false;
};
void beginGrid(GridProgress &progress);
/// Runs blocks [first, end) in linear order on the calling worker (unless stopped).
void runBlockRange(const GridLaunch &launch, uint64_t first, uint64_t end,
                   GridProgress &progress);
/// One sampled block (GridProgress::sampledApart), recording a fault as runBlockRange does.
void runSampledBlock(const GridLaunch &launch, uint64_t block, GridProgress &progress);
/// After every range ran: the launch's outcome (its first fault, if any).
LaunchOutcome endGrid(GridProgress &progress);

/// The launch a running GPU thread belongs to (for device builtins).
const GridLaunch &launchOf(const ThreadContext *context);

} // namespace musa::sim
