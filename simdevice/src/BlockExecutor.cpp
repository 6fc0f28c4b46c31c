// Running blocks: set-up, a plain loop or region loops (batched for light blocks), or one fiber
// per GPU thread (FiberScheduler.cpp); what a fault in a block is reported as.
#include "musa/sim/BlockExecutor.h"

#include "BlockRun.h"
#include "Fibers.h"

#include "musa/sim/FaultGuard.h"
#include "musa/sim/FiberStackPool.h"
#include "musa/sim/StreamQueue.h"
#include "musa/sim/Timing.h"
#include "musa/sim/WarpCollective.h"

#include "SanitizerFibers.h"

#include <boost/context/detail/fcontext.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace musa::sim {

namespace ctx = boost::context::detail;


namespace {

/// Per-worker scratch reused across blocks: shared memory and thread records.
struct WorkerScratch {
  std::unique_ptr<char, decltype(&std::free)> shared{nullptr, &std::free};
  size_t sharedCapacity = 0;
  std::vector<SimThread> threads;
  BlockCounters counters; // timing model

  char *sharedBuffer(size_t bytes) {
    if (bytes > sharedCapacity || !shared) {
      sharedCapacity = (std::max<size_t>(bytes, 1024) + 63) / 64 * 64;
      shared.reset(static_cast<char *>(std::aligned_alloc(64, sharedCapacity)));
    }
    return shared.get();
  }
  [[gnu::noinline]] static WorkerScratch &get() { // see RegionState::forThisThread
    thread_local WorkerScratch scratch;
    return scratch;
  }
};

} // namespace

std::string dims(const uint32_t v[3]) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) +
         ")";
}

namespace {
void runLoop(void *arg) {
  auto *run = static_cast<BlockRun *>(arg);
  run->launch->kernel->block(run->launch->args, &run->loopContext);
}

/// A sampled block of a kernel without barriers: each thread in turn, through the fully
/// instrumented variant, with its own basic-block counts.
void runSampledThreads(void *arg) {
  auto *run = static_cast<BlockRun *>(arg);
  const GridLaunch &launch = *run->launch;
  ThreadContext base = run->loopContext;
  uint32_t n = uint32_t(launch.block.count());
  uint64_t faults = 0;
  for (uint32_t t = 0; t < n; ++t) {
    ThreadContext &c = run->loopContext;
    faults |= c.accessFaults;
    c = base;
    c.tid[0] = t % launch.block.x;
    c.tid[1] = t / launch.block.x % launch.block.y;
    c.tid[2] = t / (launch.block.x * launch.block.y);
    c.laneId = t % uint32_t(launch.warpSize);
    c.blockCounts = run->sampledThreads->blockCountsFor(t);
    run->threadEntry(launch.args, &c);
  }
  run->loopContext.accessFaults |= faults;
}

} // namespace

const GridLaunch &launchOf(const ThreadContext *context) {
  return *static_cast<const BlockRun *>(context->block)->launch;
}

namespace {
Dim3 blockIndex(const GridLaunch &launch, uint64_t linear) {
  uint64_t gx = launch.grid.x, gxy = gx * launch.grid.y;
  return {uint32_t(linear % gx), uint32_t(linear / gx % launch.grid.y), uint32_t(linear / gxy)};
}
} // namespace

void beginGrid(GridProgress &progress) {
  progress.published.store(1, std::memory_order_release);
}

namespace {
/// Records the first fault of a grid and stops the rest; false if `outcome` is one.
bool keepGoing(LaunchOutcome &&outcome, GridProgress &progress) {
  if (outcome.ok())
    return true;
  std::lock_guard lock(progress.faultMutex);
  if (progress.first.ok())
    progress.first = std::move(outcome);
  progress.stop = true;
  return false;
}
} // namespace

void runBlockRange(const GridLaunch &launch, uint64_t first, uint64_t end,
                   GridProgress &progress) {
  (void)progress.published.load(std::memory_order_acquire);
  for (uint64_t id = first;
       id != end && !progress.stop.load(std::memory_order_relaxed) && !workAbandoned();) {
    if (progress.sampledApart && launch.counters->sampleBlock(id)) {
      ++id; // runs as a task of its own
      continue;
    }
    uint64_t next = id + 1;
    LaunchOutcome outcome = runBlockBatch(launch, id, end, &progress.stop, next);
    id = next;
    if (!keepGoing(std::move(outcome), progress))
      break;
  }
  progress.finished.fetch_add(1, std::memory_order_release);
}

void runSampledBlock(const GridLaunch &launch, uint64_t block, GridProgress &progress) {
  (void)progress.published.load(std::memory_order_acquire);
  if (!progress.stop.load(std::memory_order_relaxed) && !workAbandoned())
    keepGoing(runBlocks(launch, block, 1), progress);
  progress.finished.fetch_add(1, std::memory_order_release);
}

LaunchOutcome endGrid(GridProgress &progress) {
  (void)progress.finished.load(std::memory_order_acquire);
  return std::move(progress.first);
}

namespace {
std::atomic<int> sharedMemoryFill{-1}; // setSharedMemoryFill (differential mode only)
} // namespace

void setSharedMemoryFill(int byte) { sharedMemoryFill.store(byte); }

LaunchOutcome runBlocks(const GridLaunch &launch, uint64_t firstBlock, uint64_t blockCount) {
  uint64_t next;
  return runBlockBatch(launch, firstBlock, firstBlock + 1, nullptr, next, blockCount);
}

namespace {
/// Light blocks of a kernel that runs as loops or regions, one after another on one set-up and
/// under one fault guard (what a block costs otherwise is most of a tiny block's time).
struct Batch {
  BlockRun *run;
  void (*body)(void *);
  ThreadContext start; // the first block's context before it ran
  BlockCounters *counters;
  const std::atomic<bool> *stop;
  uint64_t end;
  uint64_t sampled; // the next block the timing model samples (it runs on its own)
  uint64_t *next;   // the block running now, then the first one not run
};

void runBatch(void *arg) {
  auto *b = static_cast<Batch *>(arg);
  BlockRun &run = *b->run;
  const GridLaunch &launch = *run.launch;
  const KernelEntry &kernel = *launch.kernel;
  Dim3 idx = blockIndex(launch, *b->next);
  for (uint64_t id = *b->next;;) {
    b->body(&run);
    if (b->counters)
      b->counters->foldLight(kernel.timingSiteInfo, kernel.timingFirstSite,
                             kernel.timingEndSite);
    if (!run.outcome.ok() || run.loopContext.accessFaults)
      return; // `next` names the block that failed
    *b->next = ++id;
    if (id == b->end || id == b->sampled ||
        (b->stop && b->stop->load(std::memory_order_relaxed)) || workAbandoned())
      return;
    // The next block's index without dividing (three 64-bit divisions cost more than a
    // one-warp block's body).
    if (++idx.x == launch.grid.x) {
      idx.x = 0;
      if (++idx.y == launch.grid.y)
        idx.y = 0, ++idx.z;
    }
    run.loopContext = b->start;
    run.loopContext.ctaid[0] = idx.x, run.loopContext.ctaid[1] = idx.y,
    run.loopContext.ctaid[2] = idx.z;
  }
}
} // namespace

LaunchOutcome runBlockBatch(const GridLaunch &launch, uint64_t firstBlock, uint64_t batchEnd,
                            const std::atomic<bool> *stop, uint64_t &next,
                            uint64_t blockCount) {
  const KernelEntry &kernel = *launch.kernel;
  WorkerScratch &scratch = WorkerScratch::get();
  size_t staticBytes = (kernel.staticSharedBytes + abi::DynamicSharedAlign - 1) /
                       abi::DynamicSharedAlign * abi::DynamicSharedAlign;
  size_t sharedStride = (staticBytes + launch.dynamicSharedBytes + 63) / 64 * 64;
  char *shared = scratch.sharedBuffer(std::max<size_t>(sharedStride, 64) * blockCount);
  if (int fill = sharedMemoryFill.load(std::memory_order_relaxed); fill >= 0)
    std::memset(shared, fill, std::max<size_t>(sharedStride, 64) * blockCount);
  Dim3 blockIdx = blockIndex(launch, firstBlock);

  BlockRun run;
  run.launch = &launch;
  firstHostAccessFault = nullptr;
  BlockCounters *counters = nullptr;
  bool countersPerBlock = false;
  if (launch.counters) {
    // Sampled blocks run alone, each thread with its own context (to count divergence): one
    // after another, or as fibers if the kernel has barriers or warp collectives.
    bool canSample = blockCount == 1 && !loopsForced();
    uint64_t sharedBytes = std::max<size_t>(sharedStride, 64) * blockCount;
    bool sampled = canSample && launch.counters->sampleBlock(firstBlock);
    // The other blocks add to this worker's running totals for the launch: no lock, no
    // reset per block (KernelCounters::flushWorkers merges them after the grid).
    counters = sampled ? nullptr : launch.counters->workerCounters(launch);
    if (counters) {
      counters->continueWith(shared, sharedBytes);
    } else {
      counters = &scratch.counters;
      counters->begin(launch, firstBlock, shared, sharedBytes, sampled);
      countersPerBlock = true;
    }
  }
  bool sampled = counters && counters->sampling;
  // A sampled block runs the fully instrumented variant, each thread counting its own basic
  // blocks: with no barrier or warp collective the threads simply run one after another,
  // otherwise as that variant's region loops, or as fibers where it has none.
  ExecMode chosen = execModeFor(kernel);
  if (blockCount > 1)
    run.mode = ExecMode::Fibers;
  else if (!sampled)
    run.mode = chosen;
  else if (!kernel.needsFibers)
    run.mode = ExecMode::Loop;
  else
    run.mode = chosen == ExecMode::Regions && kernel.fullRegions ? ExecMode::Regions
                                                                 : ExecMode::Fibers;
  run.sampledThreads = sampled && run.mode == ExecMode::Loop ? counters : nullptr;
  run.sampledBlock = sampled ? counters : nullptr;
  run.regionCode = sampled ? &kernel.fullRegions : &kernel.regions;
  run.fibers = run.mode == ExecMode::Fibers;
  // Sampled blocks run the variant that reports every access; all others the light counters.
  run.threadEntry = counters && counters->sampling && kernel.fullThread ? kernel.fullThread
                                                                         : kernel.thread;
  // Built in place (BlockRun zeroes it): a copy of a context just written field by field
  // stalls on store forwarding, a measurable part of a tiny block's cost. Fibers copy it.
  ThreadContext &base = run.loopContext;
  base.ntid[0] = launch.block.x, base.ntid[1] = launch.block.y, base.ntid[2] = launch.block.z;
  base.ctaid[0] = blockIdx.x, base.ctaid[1] = blockIdx.y, base.ctaid[2] = blockIdx.z;
  base.nctaid[0] = launch.grid.x, base.nctaid[1] = launch.grid.y, base.nctaid[2] = launch.grid.z;
  base.warpSize = uint32_t(launch.warpSize);
  base.shared = shared;
  base.dynamicShared = shared + staticBytes;
  base.sharedLimit = staticBytes + launch.dynamicSharedBytes;
  base.block = &run;
  if (counters) {
    base.counters = counters->classes;
    base.blockCounts = counters->blockCountsFor(0);
    base.siteAccum = counters->accum.data();
    base.sharedSize = std::max<size_t>(sharedStride, 64) * blockCount;
  }

  SignalFault fault;
  bool clean;
  next = firstBlock + 1;
  if (!run.fibers) {
    void (*body)(void *) = run.sampledThreads           ? runSampledThreads
                           : run.mode == ExecMode::Loop ? runLoop
                                                        : runRegionBlock;
    if (batchEnd > firstBlock + 1 && !sampled && !countersPerBlock &&
        sharedMemoryFill.load(std::memory_order_relaxed) < 0) {
      uint64_t nextSampled = launch.counters && !loopsForced()
                                 ? launch.counters->nextSampled(firstBlock + 1)
                                 : ~uint64_t(0);
      Batch batch{&run, body, base, counters, stop, batchEnd, nextSampled, &next};
      next = firstBlock;
      clean = runGuarded(runBatch, &batch, fault);
      if (clean && run.outcome.ok() && !run.loopContext.accessFaults)
        return run.outcome; // every block of the batch ran (folded by runBatch)
      counters = nullptr; // the failed block's counts were folded; the launch's are discarded
      ++next;
    } else {
      clean = runGuarded(body, &run, fault);
    }
  } else {
    size_t perBlock = launch.block.count(), n = perBlock * blockCount;
    FiberStackPool &pool = FiberStackPool::forThisThread();
    if (!pool.reserve(n)) {
      run.outcome.fault = FaultKind::StackOverflow;
      run.outcome.message = "cannot allocate " + std::to_string(n) + " fiber stacks";
      return run.outcome;
    }
    std::vector<SimThread> &threads = scratch.threads;
    threads.resize(n);
    run.blockStarts.clear();
    for (uint64_t b = 0; b <= blockCount; ++b)
      run.blockStarts.push_back(b * perBlock);
    for (size_t i = 0; i < n; ++i) {
      SimThread &t = threads[i];
      size_t b = i / perBlock, r = i % perBlock;
      Dim3 idx = blockIndex(launch, firstBlock + b);
      t.context = base;
      t.context.ctaid[0] = idx.x, t.context.ctaid[1] = idx.y, t.context.ctaid[2] = idx.z;
      t.context.shared = shared + b * sharedStride;
      t.context.dynamicShared = t.context.shared + staticBytes;
      t.context.tid[0] = uint32_t(r % launch.block.x);
      t.context.tid[1] = uint32_t(r / launch.block.x % launch.block.y);
      t.context.tid[2] = uint32_t(r / (uint64_t(launch.block.x) * launch.block.y));
      t.context.laneId = uint32_t(r % uint32_t(launch.warpSize));
      if (counters)
        t.context.blockCounts = counters->blockCountsFor(i);
      t.state = ThreadState::Ready;
      t.reducing = false;
      t.warp = WarpLane();
      t.warp.lane = t.context.laneId;
      t.self = ctx::make_fcontext(pool[i].top(), pool[i].size, fiberMain);
      t.fiber.create(pool[i].top() - pool[i].size, pool[i].size);
    }
    run.threads = &threads;
    clean = runGuarded(scheduleFibers, &run, fault);
    if (clean && run.outcome.ok() && !pool.canariesIntact(n)) {
      // An unguarded stack (past FiberStackPool::GuardedStacks) ran over its lowest page.
      run.outcome.fault = FaultKind::StackOverflow;
      run.outcome.message = "thread stack overflow (raise MUSA_SIM_STACK_SIZE, now " +
                            std::to_string(FiberStackPool::stackSize()) + " bytes)";
    }
    if (n > FiberStackPool::GuardedStacks)
      pool.releaseUnguarded();
  }

  if (counters)
    counters->foldLight(kernel.timingSiteInfo, kernel.timingFirstSite, kernel.timingEndSite);
  if (countersPerBlock)
    counters->end(); // a faulted block's counts too: the launch's are discarded anyway
  if (clean && run.outcome.ok()) {
    uint64_t faults = run.loopContext.accessFaults;
    if (run.fibers)
      for (const SimThread &t : scratch.threads)
        faults |= t.context.accessFaults;
    if (!faults)
      return run.outcome;
    // Flagged by the checks CheckAccesses compiles in; which thread is not recorded.
    bool misaligned = faults & abi::AccessFaultMisaligned;
    run.outcome.fault = misaligned ? FaultKind::MisalignedAddress : FaultKind::IllegalAddress;
    std::string what;
    if (misaligned) {
      what = "misaligned address (an access of N bytes at an address not a multiple of min(N, 4))";
    } else if (faults & abi::AccessFaultHostMemory) {
      char address[32];
      std::snprintf(address, sizeof address, "%p", firstHostAccessFault);
      what = std::string("illegal address: an access to host memory at ") + address +
             " that was not allocated or registered through the runtime (pageable memory: the "
             "device reports pageableMemoryAccess = 0)";
    } else {
      what = "illegal address: a shared memory access past the block's " +
             std::to_string(base.sharedLimit) + " bytes";
    }
    run.outcome.message = "kernel '" + demangle(kernel.name) + "' block " + dims(base.ctaid) + ": " + what;
    return run.outcome;
  }
  const ThreadContext *who =
      run.fibers ? (run.current ? &run.current->context : nullptr) : &run.loopContext;
  std::string where = "kernel '" + demangle(kernel.name) + "' block " +
                      dims(who ? who->ctaid : base.ctaid);
  if (!clean) {
    if (who)
      where += " thread " + dims(who->tid);
    if (fault.kind == FaultKind::IllegalAddress &&
        (run.fibers ? FiberStackPool::forThisThread().isGuardPage(fault.address)
                    : isWorkerStackGuard(fault.address)))
      fault.kind = FaultKind::StackOverflow;
    run.outcome.fault = fault.kind;
    char address[32];
    std::snprintf(address, sizeof address, "%p", fault.address);
    switch (fault.kind) {
    case FaultKind::IllegalAddress:
      run.outcome.message = where + ": illegal memory access at address " + address;
      break;
    case FaultKind::StackOverflow:
      run.outcome.message =
          run.fibers ? where + ": thread stack overflow (raise MUSA_SIM_STACK_SIZE, now " +
                           std::to_string(FiberStackPool::stackSize()) + " bytes)"
                     : where + ": thread stack overflow (the host worker's stack ran out)";
      break;
    case FaultKind::ArithmeticTrap:
      run.outcome.message = where + ": arithmetic trap (integer division by zero?)";
      break;
    default:
      run.outcome.message = where + ": " + fault.message;
      break;
    }
  } else {
    run.outcome.message = where + ": " + run.outcome.message;
  }
  return run.outcome;
}

} // namespace musa::sim
