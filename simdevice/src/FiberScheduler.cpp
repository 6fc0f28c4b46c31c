// The fiber scheduler: rounds over a block's (or a cooperative grid's) GPU-thread fibers,
// releasing warp collectives, block barriers and grid.sync() as they complete and reporting
// deadlocks; and the builtins device code calls to park a fiber there.
#include "Fibers.h"

#include "musa/sim/BlockExecutor.h"
#include "musa/sim/FaultGuard.h"
#include "musa/sim/Timing.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace musa::sim {

void fiberMain(ctx::transfer_t t) {
  auto *thread = static_cast<SimThread *>(t.data);
  afterSwitch(thread->fiber, thread->schedulerFiber);
  thread->scheduler = t.fctx;
  auto *run = static_cast<BlockRun *>(thread->context.block);
  run->threadEntry(run->launch->args, &thread->context);
  thread->state = ThreadState::Exited;
  beforeSwitch(thread->fiber, *thread->schedulerFiber, true);
  ctx::jump_fcontext(thread->scheduler, nullptr);
  std::abort(); // an exited fiber is never resumed
}

namespace {

/// Lists up to a few thread indices in `state` for a message.
std::string threadsIn(const std::vector<SimThread> &threads, ThreadState state, size_t &count) {
  std::string list;
  count = 0;
  for (const SimThread &t : threads) {
    if (t.state != state)
      continue;
    if (++count <= 4)
      list += (list.empty() ? "" : " ") + dims(t.context.tid);
  }
  if (count > 4)
    list += " ...";
  return list;
}

/// Releases every complete warp-collective group; true if any thread became ready.
bool resolveWarps(std::vector<SimThread> &threads, const std::vector<size_t> &blockStarts,
                  int warpSize, std::string &problem, WarpPass pass = WarpPass::Strict) {
  bool progress = false;
  size_t ws = size_t(warpSize);
  std::vector<WarpLane *> group;
  for (size_t b = 0; b + 1 < blockStarts.size(); ++b)
  for (size_t first = blockStarts[b], end = blockStarts[b + 1]; first < end; first += ws) {
    size_t last = std::min(end, first + ws);
    for (size_t i = first; i < last; ++i) {
      SimThread &t = threads[i];
      if (t.state != ThreadState::AtWarp)
        continue;
      int done = completeWarpGroup(
          first, last, t.warp,
          [&](size_t j) {
            return threads[j].state == ThreadState::AtWarp ? &threads[j].warp : nullptr;
          },
          [&](size_t j) { return threads[j].state == ThreadState::Exited; }, warpSize, group,
          problem, pass);
      if (done < 0)
        return false;
      if (done == 0)
        continue;
      for (WarpLane *l : group) // l->lane: the thread's lane, counted from `first`
        threads[first + l->lane].state = ThreadState::Ready;
      progress = true;
    }
  }
  return progress;
}

void fail(BlockRun &run, FaultKind kind, std::string message) {
  run.outcome.fault = kind;
  run.outcome.message = std::move(message);
}

/// Counts of thread states in [first, last).
struct StateCounts {
  size_t ready = 0, atBarrier = 0, atWarp = 0, atGrid = 0, atNamed = 0, exited = 0;
  StateCounts(const std::vector<SimThread> &threads, size_t first, size_t last) {
    for (size_t i = first; i < last; ++i)
      switch (threads[i].state) {
      case ThreadState::Ready: ++ready; break;
      case ThreadState::AtBarrier: ++atBarrier; break;
      case ThreadState::AtWarp: ++atWarp; break;
      case ThreadState::AtGrid: ++atGrid; break;
      case ThreadState::AtNamed: ++atNamed; break;
      case ThreadState::Exited: ++exited; break;
      }
  }
};

/// Releases block `[first, last)` from __syncthreads (with its reduction) if every live thread
/// waits there.
bool releaseBlockBarrier(BlockRun &run, size_t first, size_t last) {
  std::vector<SimThread> &threads = *run.threads;
  StateCounts c(threads, first, last);
  if (c.atBarrier == 0 || c.atBarrier + c.exited != last - first)
    return false; // not everyone is there (yet)
  // Threads that exited no longer hold the barrier up (PTX counts only live threads), and
  // they contribute no predicate to __syncthreads_count/and/or.
  std::vector<int> predicates;
  uint32_t reduceOp = 0;
  bool reducing = false;
  for (size_t i = first; i < last; ++i)
    if (threads[i].state == ThreadState::AtBarrier && threads[i].reducing) {
      predicates.push_back(threads[i].reduceValue);
      reduceOp = threads[i].reduceOp, reducing = true;
    }
  int result = reducing ? blockReduce(reduceOp, predicates) : 0;
  for (size_t i = first; i < last; ++i)
    if (threads[i].state == ThreadState::AtBarrier) {
      threads[i].reduceValue = result;
      threads[i].state = ThreadState::Ready;
    }
  return true;
}

/// Named barriers of block `[first, last)` (PTX bar.sync/bar.arrive a, b): a warp arrives
/// once every live thread of it waits at the same barrier, and counts as a warp's worth of
/// threads (PTX counts arrivals per warp); a barrier completes when the warps that arrived
/// cover its thread count (0: every warp of the block with a live thread), releasing the
/// threads that wait in bar.sync. `arrived` holds the warps counted so far, per barrier.
/// True if any thread became ready; a warp whose lanes wait at different barriers, or that
/// disagree on the count, is a fault (`problem`).
bool releaseNamedBarriers(std::vector<SimThread> &threads, size_t first, size_t last,
                          size_t warpSize, uint32_t *arrived, std::string &problem) {
  bool progress = false;
  uint32_t count[NamedBarriers] = {}; // thread counts named by this round's arrivals
  size_t liveWarps = 0;
  for (size_t w = first; w < last; w += warpSize) {
    size_t end = std::min(last, w + warpSize);
    size_t live = 0, waiting = 0;
    SimThread *lead = nullptr;
    for (size_t i = w; i < end; ++i) {
      SimThread &t = threads[i];
      live += t.state != ThreadState::Exited;
      if (t.state != ThreadState::AtNamed || t.namedCounted)
        continue;
      if (lead && (t.namedId != lead->namedId || t.namedCount != lead->namedCount)) {
        problem = "warp " + std::to_string((w - first) / warpSize) +
                  ": lanes wait at different named barriers (ids " +
                  std::to_string(lead->namedId) + " and " + std::to_string(t.namedId) +
                  ", counts " + std::to_string(lead->namedCount) + " and " +
                  std::to_string(t.namedCount) + ")";
        return false;
      }
      lead = lead ? lead : &t;
      ++waiting;
    }
    liveWarps += live > 0;
    if (!lead || waiting != live)
      continue; // not every live lane of the warp is there (yet)
    ++arrived[lead->namedId];
    count[lead->namedId] = lead->namedCount;
    for (size_t i = w; i < end; ++i) {
      SimThread &t = threads[i];
      if (t.state != ThreadState::AtNamed)
        continue;
      t.namedCounted = true;
      if (t.namedArrive) { // bar.arrive: on once the warp's arrival is marked
        t.state = ThreadState::Ready;
        progress = true;
      }
    }
  }
  for (uint32_t id = 0; id < NamedBarriers; ++id) {
    if (arrived[id] == 0)
      continue;
    if (count[id] == 0) // no new arrival: the count of a thread that waits there
      for (size_t i = first; i < last && count[id] == 0; ++i)
        if (threads[i].state == ThreadState::AtNamed && threads[i].namedId == id)
          count[id] = threads[i].namedCount;
    size_t need = count[id] ? (count[id] + warpSize - 1) / warpSize : liveWarps;
    if (arrived[id] < need)
      continue;
    arrived[id] -= uint32_t(need);
    for (size_t i = first; i < last; ++i) {
      SimThread &t = threads[i];
      if (t.state == ThreadState::AtNamed && t.namedId == id && t.namedCounted) {
        t.state = ThreadState::Ready;
        t.namedCounted = false;
        progress = true;
      }
    }
  }
  return progress;
}

} // namespace

/// Runs the fibers of one block, or of every block of a cooperative grid, until all exit.
/// Each round resumes every ready thread until it parks; then warp groups, block barriers and
/// the grid barrier that are complete are released. A round that releases nothing while
/// threads still wait is a deadlock on hardware: it ends the launch with a fault instead.
void scheduleFibers(void *arg) {
  auto *run = static_cast<BlockRun *>(arg);
  std::vector<SimThread> &threads = *run->threads;
  const std::vector<size_t> &starts = run->blockStarts;
  SanitizerFiber worker; // bounds filled in by the first fiber's afterSwitch
  for (SimThread &t : threads)
    t.schedulerFiber = &worker;
  std::vector<uint32_t> namedArrived; // per block, per named barrier: warps arrived
  size_t warpSize = size_t(run->launch->warpSize);
  for (;;) {
    for (SimThread &t : threads) {
      if (t.state != ThreadState::Ready)
        continue;
      run->current = &t;
      beforeSwitch(worker, t.fiber);
      ctx::transfer_t back = ctx::jump_fcontext(t.self, &t);
      afterSwitch(worker, nullptr);
      t.self = back.fctx;
    }
    run->current = nullptr;
    std::string problem;
    bool progress = resolveWarps(threads, starts, run->launch->warpSize, problem);
    if (!problem.empty())
      return fail(*run, FaultKind::BarrierDivergence, problem);
    for (size_t b = 0; b + 1 < starts.size(); ++b) {
      bool released = releaseBlockBarrier(*run, starts[b], starts[b + 1]);
      if (released && run->sampledBlock)
        run->sampledBlock->foldSamples(); // one block: sampled blocks run alone
      progress |= released;
    }
    if (run->namedBarriers) {
      namedArrived.resize((starts.size() - 1) * NamedBarriers);
      for (size_t b = 0; b + 1 < starts.size(); ++b) {
        progress |= releaseNamedBarriers(threads, starts[b], starts[b + 1], warpSize,
                                         &namedArrived[b * NamedBarriers], problem);
        if (!problem.empty())
          return fail(*run, FaultKind::BarrierDivergence, problem);
      }
    }
    if (progress)
      continue;
    StateCounts all(threads, 0, threads.size());
    if (all.exited == threads.size())
      return; // every thread finished
    if (all.ready > 0)
      continue; // threads yielded in spin loops: they wait on memory, not on the others here
    if (resolveWarps(threads, starts, run->launch->warpSize, problem, WarpPass::Converge))
      continue;
    if (run->launch->warpSize > 32) { // collectives among the 32-lane quarters that are there
      if (resolveWarps(threads, starts, run->launch->warpSize, problem, WarpPass::ByQuarter))
        continue;
      if (!problem.empty())
        return fail(*run, FaultKind::BarrierDivergence, problem);
    }
    if (all.atGrid > 0 && all.atGrid == threads.size()) {
      for (SimThread &t : threads)
        t.state = ThreadState::Ready; // grid.sync(): every thread of the grid arrived
      continue;
    }
    size_t nWarp = 0, nBar = 0, nGrid = 0, nExit = 0, nNamed = 0;
    std::string named = threadsIn(threads, ThreadState::AtNamed, nNamed);
    if (nNamed > 0) {
      std::string which;
      for (const SimThread &t : threads)
        if (t.state == ThreadState::AtNamed) {
          which = std::to_string(t.namedId) + " (" +
                  (t.namedCount ? std::to_string(t.namedCount) + " threads"
                                : std::string("the whole block")) + ")";
          break;
        }
      return fail(*run, FaultKind::BarrierDivergence,
                  "deadlock: named barrier cannot complete: " + std::to_string(nNamed) +
                      " thread(s) wait at barrier " + which + ": " + named +
                      "; the warps it still needs exited or wait elsewhere");
    }
    std::string w = threadsIn(threads, ThreadState::AtWarp, nWarp);
    std::string b = threadsIn(threads, ThreadState::AtBarrier, nBar);
    std::string g = threadsIn(threads, ThreadState::AtGrid, nGrid);
    std::string e = threadsIn(threads, ThreadState::Exited, nExit);
    if (nWarp > 0)
      return fail(*run, FaultKind::BarrierDivergence,
                  "deadlock: warp collective cannot complete: " + std::to_string(nWarp) +
                      " thread(s) wait at a warp collective (" + w + ") for lanes its mask names, "
                      "which exited or wait at a barrier (" + std::to_string(nBar + nGrid) + ")");
    return fail(*run, FaultKind::BarrierDivergence,
                "grid.sync() not reached by all threads of the grid: " + std::to_string(nGrid) +
                    " wait at it (" + g + "), " + std::to_string(nBar) +
                    " at __syncthreads() (" + b + "), " + std::to_string(nExit) + " exited (" +
                    e + ")");
  }
}

} // namespace musa::sim

using musa::sim::SimThread;

namespace musa::sim {
namespace {
/// The calling GPU thread, which must run as a fiber: the one the scheduler resumed.
SimThread &fiberThread(ThreadContext *context) {
  auto *run = static_cast<BlockRun *>(context->block);
  if (!run->fibers || !run->current || &run->current->context != context)
    raiseDeviceFault(FaultKind::MisalignedBarrier,
                     "barrier or warp collective in a kernel compiled without them "
                     "(simulator bug)");
  return *run->current;
}

/// Parks the calling thread in `state` and runs the scheduler until it is released.
void park(SimThread &thread, ThreadState state) {
  thread.state = state;
  beforeSwitch(thread.fiber, *thread.schedulerFiber);
  auto back = ctx::jump_fcontext(thread.scheduler, nullptr);
  afterSwitch(thread.fiber, thread.schedulerFiber);
  thread.scheduler = back.fctx;
}
} // namespace
} // namespace musa::sim

extern "C" void __musa_sim_barrier(musa::sim::ThreadContext *context) {
  SimThread &thread = musa::sim::fiberThread(context);
  thread.reducing = false;
  musa::sim::park(thread, musa::sim::ThreadState::AtBarrier);
}

extern "C" int32_t __musa_sim_barrier_reduce(uint32_t op, int32_t predicate,
                                            musa::sim::ThreadContext *context) {
  SimThread &thread = musa::sim::fiberThread(context);
  thread.reducing = true;
  thread.reduceOp = op;
  thread.reduceValue = predicate;
  musa::sim::park(thread, musa::sim::ThreadState::AtBarrier);
  return thread.reduceValue;
}

extern "C" uint64_t __musa_sim_warp(uint32_t op, uint32_t mask, uint64_t value, int32_t arg,
                                    int32_t width, musa::sim::ThreadContext *context) {
  SimThread &thread = musa::sim::fiberThread(context);
  if (!musa::sim::laneInMask(mask, thread.warp.lane))
    musa::sim::raiseDeviceFault(musa::sim::FaultKind::BarrierDivergence,
                                "warp collective called by a lane its mask does not name");
  thread.warp.op = op;
  thread.warp.mask = mask;
  thread.warp.value = value;
  thread.warp.arg = arg;
  thread.warp.width = width;
  musa::sim::park(thread, musa::sim::ThreadState::AtWarp);
  return thread.warp.result;
}

extern "C" void __musa_sim_named_barrier(uint32_t id, uint32_t count, uint32_t arriveOnly,
                                         musa::sim::ThreadContext *context) {
  SimThread &thread = musa::sim::fiberThread(context);
  if (id >= musa::sim::NamedBarriers)
    musa::sim::raiseDeviceFault(musa::sim::FaultKind::Trap,
                                "named barrier id " + std::to_string(id) + " (PTX has 0..15)");
  if (arriveOnly && count == 0) // ptxas refuses it; a count of 0 in a register gets here
    musa::sim::raiseDeviceFault(musa::sim::FaultKind::Trap,
                                "bar.arrive with a thread count of 0");
  static_cast<musa::sim::BlockRun *>(context->block)->namedBarriers = true;
  thread.namedId = id;
  thread.namedCount = count;
  thread.namedArrive = arriveOnly != 0;
  thread.namedCounted = false;
  musa::sim::park(thread, musa::sim::ThreadState::AtNamed);
}

extern "C" void __musa_sim_grid_sync(musa::sim::ThreadContext *context) {
  SimThread &thread = musa::sim::fiberThread(context);
  if (!musa::sim::launchOf(context).cooperative)
    musa::sim::raiseDeviceFault(musa::sim::FaultKind::Trap,
                                "grid.sync() in a kernel not launched with "
                                "musaLaunchCooperativeKernel");
  musa::sim::park(thread, musa::sim::ThreadState::AtGrid);
}

namespace {
/// How long one spin loop may wait before the launch ends as timed out: MUSA_SIM_SPIN_LIMIT
/// seconds (default 60; 0: no limit). On hardware such a kernel would hang.
uint64_t spinLimitNs() {
  static const uint64_t limit = [] {
    const char *env = std::getenv("MUSA_SIM_SPIN_LIMIT");
    double seconds = env && *env ? std::strtod(env, nullptr) : 60.0;
    return seconds > 0 ? uint64_t(seconds * 1e9) : UINT64_MAX;
  }();
  return limit;
}

} // namespace

extern "C" void __musa_sim_spin(uint64_t trip, musa::sim::ThreadContext *context) {
  using namespace musa::sim;
  SimThread &thread = fiberThread(context); // kernels with spin loops always run as fibers
  if (trip == 0)
    thread.spinSince = hostNanoseconds();
  else if (trip % 256 == 0 && hostNanoseconds() - thread.spinSince > spinLimitNs())
    raiseDeviceFault(FaultKind::Timeout,
                     "a spin loop waited past the limit (MUSA_SIM_SPIN_LIMIT seconds) for the "
                     "memory it polls to change: no other thread of the launch changed it; on a "
                     "GPU the kernel would hang");
  park(thread, ThreadState::Ready); // the others run; this thread polls again next round
}

extern "C" int32_t __musa_sim_grid_valid(musa::sim::ThreadContext *context) {
  const musa::sim::GridLaunch &launch = musa::sim::launchOf(context);
  return launch.cooperative || launch.gridFits ? 1 : 0;
}

extern "C" uint32_t __musa_sim_active_mask(musa::sim::ThreadContext *context) {
  if (static_cast<musa::sim::BlockRun *>(context->block)->mode == musa::sim::ExecMode::Regions)
    return musa::sim::regionActiveMask(context);
  SimThread &self = musa::sim::fiberThread(context);
  auto *run = static_cast<musa::sim::BlockRun *>(context->block);
  // The fibers of several blocks (a block range, or a cooperative grid) share one array:
  // lanes are grouped by the thread's linear index within its own block, warps (and their
  // 32-lane quarters) never spanning two blocks.
  size_t index = size_t(&self - run->threads->data());
  size_t perBlock = size_t(context->ntid[0]) * context->ntid[1] * context->ntid[2];
  size_t inBlock = index % perBlock, blockEnd = index - inBlock + perBlock;
  size_t quarter = index - inBlock % 32;
  uint32_t bits = 0;
  for (size_t j = quarter; j < std::min(blockEnd, quarter + 32); ++j)
    if ((*run->threads)[j].state != musa::sim::ThreadState::Exited)
      bits |= 1u << (j - quarter);
  return bits;
}
