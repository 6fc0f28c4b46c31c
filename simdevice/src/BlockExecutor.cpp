// Running one block: a plain loop, or one fiber per GPU thread with real barriers.
#include "musa/sim/BlockExecutor.h"

#include "musa/sim/FaultGuard.h"
#include "musa/sim/FiberStackPool.h"

#include "SanitizerFibers.h"

#include <boost/context/detail/fcontext.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace musa::sim {

namespace ctx = boost::context::detail;

namespace {

enum class ThreadState { Ready, AtBarrier, Exited };

struct BlockRun;

/// A GPU thread. The context must stay first: builtins receive a ThreadContext* and recover
/// the SimThread from it.
struct SimThread {
  ThreadContext context;
  ctx::fcontext_t self = nullptr;
  ctx::fcontext_t scheduler = nullptr;
  ThreadState state = ThreadState::Ready;
  SanitizerFiber fiber;          // this GPU thread's stack
  SanitizerFiber *schedulerFiber = nullptr; // the worker's stack it returns to
};

struct BlockRun {
  const GridLaunch *launch = nullptr;
  bool fibers = false;
  ThreadContext loopContext{};             // loop mode
  std::vector<SimThread> *threads = nullptr; // fiber mode
  SimThread *current = nullptr;
  LaunchOutcome outcome;
};

/// Per-worker scratch reused across blocks: shared memory and thread records.
struct WorkerScratch {
  std::unique_ptr<char, decltype(&std::free)> shared{nullptr, &std::free};
  size_t sharedCapacity = 0;
  std::vector<SimThread> threads;

  char *sharedBuffer(size_t bytes) {
    if (bytes > sharedCapacity || !shared) {
      sharedCapacity = (std::max<size_t>(bytes, 1024) + 63) / 64 * 64;
      shared.reset(static_cast<char *>(std::aligned_alloc(64, sharedCapacity)));
    }
    return shared.get();
  }
  static WorkerScratch &get() {
    thread_local WorkerScratch scratch;
    return scratch;
  }
};

std::string dims(const uint32_t v[3]) {
  return "(" + std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]) +
         ")";
}

void fiberMain(ctx::transfer_t t) {
  auto *thread = static_cast<SimThread *>(t.data);
  afterSwitch(thread->fiber, thread->schedulerFiber);
  thread->scheduler = t.fctx;
  auto *run = static_cast<BlockRun *>(thread->context.block);
  run->launch->kernel->thread(run->launch->args, &thread->context);
  thread->state = ThreadState::Exited;
  beforeSwitch(thread->fiber, *thread->schedulerFiber, true);
  ctx::jump_fcontext(thread->scheduler, nullptr);
  std::abort(); // an exited fiber is never resumed
}

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

void scheduleFibers(void *arg) {
  auto *run = static_cast<BlockRun *>(arg);
  std::vector<SimThread> &threads = *run->threads;
  SanitizerFiber worker; // bounds filled in by the first fiber's afterSwitch
  for (SimThread &t : threads)
    t.schedulerFiber = &worker;
  bool anyExited = false;
  for (;;) {
    size_t waiting = 0;
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
    for (SimThread &t : threads) {
      waiting += t.state == ThreadState::AtBarrier;
      anyExited |= t.state == ThreadState::Exited;
    }
    if (waiting == 0)
      return; // every thread finished
    if (anyExited) {
      size_t nWait = 0, nExit = 0;
      std::string w = threadsIn(threads, ThreadState::AtBarrier, nWait);
      std::string e = threadsIn(threads, ThreadState::Exited, nExit);
      run->outcome.fault = FaultKind::BarrierDivergence;
      run->outcome.message = "__syncthreads() not reached by all threads of the block: " +
                             std::to_string(nWait) + " thread(s) wait at the barrier (" + w +
                             ") while " + std::to_string(nExit) + " exited (" + e + ")";
      return;
    }
    for (SimThread &t : threads)
      t.state = ThreadState::Ready;
  }
}

void runLoop(void *arg) {
  auto *run = static_cast<BlockRun *>(arg);
  run->launch->kernel->block(run->launch->args, &run->loopContext);
}

} // namespace

LaunchOutcome runBlock(const GridLaunch &launch, Dim3 blockIdx) {
  const KernelEntry &kernel = *launch.kernel;
  WorkerScratch &scratch = WorkerScratch::get();
  size_t staticBytes = (kernel.staticSharedBytes + abi::DynamicSharedAlign - 1) /
                       abi::DynamicSharedAlign * abi::DynamicSharedAlign;
  char *shared = scratch.sharedBuffer(staticBytes + launch.dynamicSharedBytes);

  BlockRun run;
  run.launch = &launch;
  run.fibers = kernel.needsFibers;
  ThreadContext base{};
  base.ntid[0] = launch.block.x, base.ntid[1] = launch.block.y, base.ntid[2] = launch.block.z;
  base.ctaid[0] = blockIdx.x, base.ctaid[1] = blockIdx.y, base.ctaid[2] = blockIdx.z;
  base.nctaid[0] = launch.grid.x, base.nctaid[1] = launch.grid.y, base.nctaid[2] = launch.grid.z;
  base.warpSize = uint32_t(launch.warpSize);
  base.shared = shared;
  base.dynamicShared = shared + staticBytes;
  base.block = &run;

  SignalFault fault;
  bool clean;
  if (!run.fibers) {
    run.loopContext = base;
    clean = runGuarded(runLoop, &run, fault);
  } else {
    size_t n = launch.block.count();
    FiberStackPool &pool = FiberStackPool::forThisThread();
    if (!pool.reserve(n)) {
      run.outcome.fault = FaultKind::StackOverflow;
      run.outcome.message = "cannot allocate " + std::to_string(n) + " fiber stacks";
      return run.outcome;
    }
    std::vector<SimThread> &threads = scratch.threads;
    threads.resize(n);
    for (size_t i = 0; i < n; ++i) {
      SimThread &t = threads[i];
      t.context = base;
      t.context.tid[0] = uint32_t(i % launch.block.x);
      t.context.tid[1] = uint32_t(i / launch.block.x % launch.block.y);
      t.context.tid[2] = uint32_t(i / (uint64_t(launch.block.x) * launch.block.y));
      t.context.laneId = uint32_t(i % uint32_t(launch.warpSize));
      t.state = ThreadState::Ready;
      t.self = ctx::make_fcontext(pool[i].top(), pool[i].size, fiberMain);
      t.fiber.create(pool[i].top() - pool[i].size, pool[i].size);
    }
    run.threads = &threads;
    clean = runGuarded(scheduleFibers, &run, fault);
  }

  if (clean && run.outcome.ok())
    return run.outcome;
  std::string where = "kernel '" + demangle(kernel.name) + "' block " + dims(base.ctaid);
  if (!clean) {
    const ThreadContext *who = run.fibers ? (run.current ? &run.current->context : nullptr)
                                          : &run.loopContext;
    if (who)
      where += " thread " + dims(who->tid);
    if (fault.kind == FaultKind::IllegalAddress && run.fibers &&
        FiberStackPool::forThisThread().isGuardPage(fault.address))
      fault.kind = FaultKind::StackOverflow;
    run.outcome.fault = fault.kind;
    char address[32];
    std::snprintf(address, sizeof address, "%p", fault.address);
    switch (fault.kind) {
    case FaultKind::IllegalAddress:
      run.outcome.message = where + ": illegal memory access at address " + address;
      break;
    case FaultKind::StackOverflow:
      run.outcome.message = where + ": thread stack overflow (raise MUSA_SIM_STACK_SIZE, now " +
                            std::to_string(FiberStackPool::stackSize()) + " bytes)";
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

using musa::sim::SimThread;

extern "C" void __musa_sim_barrier(musa::sim::ThreadContext *context) {
  auto *run = static_cast<musa::sim::BlockRun *>(context->block);
  if (!run->fibers)
    musa::sim::raiseDeviceFault(musa::sim::FaultKind::MisalignedBarrier,
                                "barrier in a kernel compiled without barrier support "
                                "(simulator bug)");
  auto *thread = reinterpret_cast<SimThread *>(context);
  thread->state = musa::sim::ThreadState::AtBarrier;
  musa::sim::beforeSwitch(thread->fiber, *thread->schedulerFiber);
  auto back = boost::context::detail::jump_fcontext(thread->scheduler, nullptr);
  musa::sim::afterSwitch(thread->fiber, thread->schedulerFiber);
  thread->scheduler = back.fctx;
}
