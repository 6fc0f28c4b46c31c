// Device builtins: __trap() and a failing assert() end the running block with a fault; the
// device clocks, __nanosleep, %smid/%nsmid, the local-memory test of __isLocal and the
// memcheck test of host addresses.
#include "BlockRun.h"

#include "musa/sim/FaultGuard.h"
#include "musa/sim/BlockExecutor.h"
#include "musa/sim/FiberStackPool.h"
#include "musa/sim/KernelAbi.h"
#include "musa/sim/Timing.h"

#include <pthread.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <string>

using musa::sim::FaultKind;
using musa::sim::ThreadContext;

extern "C" void __musa_sim_trap(ThreadContext *) {
  musa::sim::raiseDeviceFault(FaultKind::Trap, "__trap() called (unspecified launch failure)");
}

extern "C" void __musa_sim_assertfail(const char *expr, const char *file, unsigned line,
                                      const char *func, size_t, ThreadContext *c) {
  // The same line hardware prints, written whole so concurrent asserts do not interleave.
  char text[1024];
  std::snprintf(text, sizeof text,
                "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
                file ? file : "?", line, func ? func : "?", c->ctaid[0], c->ctaid[1],
                c->ctaid[2], c->tid[0], c->tid[1], c->tid[2], expr ? expr : "?");
  std::fflush(stdout);
  std::fputs(text, stderr);
  musa::sim::raiseDeviceFault(FaultKind::Assert, std::string("device-side assert triggered: ") +
                                                     (expr ? expr : "?"));
}

uint64_t musa::sim::hostNanoseconds() {
  using namespace std::chrono;
  return uint64_t(duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count());
}

namespace {

/// Under the timing model: the launch's start plus the work this thread has executed.
bool simulatedCycles(const ThreadContext *c, uint64_t &cycles) {
  const musa::sim::GridLaunch &launch = musa::sim::launchOf(c);
  if (!launch.counters)
    return false;
  const uint64_t ran = c->issued * launch.cyclesPerInstruction;
  launch.counters->observeClock(ran);
  cycles = launch.startCycle + ran;
  return true;
}
} // namespace

extern "C" uint64_t __musa_sim_globaltimer(ThreadContext *c) {
  uint64_t cycles = 0;
  if (!simulatedCycles(c, cycles))
    return musa::sim::hostNanoseconds();
  uint64_t khz = musa::sim::launchOf(c).clockRateKHz;
  return cycles / khz * 1000000 + cycles % khz * 1000000 / khz;
}

extern "C" uint64_t __musa_sim_clock64(ThreadContext *c) {
  uint64_t cycles = 0;
  if (simulatedCycles(c, cycles))
    return cycles;
  // cycles = ns * kHz / 1e6, in two steps so large uptimes do not overflow.
  uint64_t ns = musa::sim::hostNanoseconds(), khz = musa::sim::launchOf(c).clockRateKHz;
  return ns / 1000000 * khz + ns % 1000000 * khz / 1000000;
}

extern "C" uint32_t __musa_sim_smid(ThreadContext *c) {
  const musa::sim::GridLaunch &launch = musa::sim::launchOf(c);
  uint64_t linear = c->ctaid[0] + uint64_t(c->nctaid[0]) * (c->ctaid[1] + uint64_t(c->nctaid[1]) * c->ctaid[2]);
  return uint32_t(linear % launch.multiprocessors);
}

extern "C" uint32_t __musa_sim_nsmid(ThreadContext *c) {
  return musa::sim::launchOf(c).multiprocessors;
}

extern "C" uint32_t __musa_sim_is_local(const void *p, ThreadContext *c) {
  // A GPU thread's local memory is its host stack (the fiber's, or the worker's in loop
  // mode) and, in region mode, the block's thread frames: `p` is local if it lies there,
  // between this frame and the top of the stack this call runs on.
  if (musa::sim::regionFrameHolds(c, p))
    return 1;
  // The frame address, not a local's: a sanitizer may keep locals on a heap "fake stack".
  const void *here = __builtin_frame_address(0);
  uintptr_t a = uintptr_t(p), sp = uintptr_t(here);
  if (const auto *fiber = musa::sim::FiberStackPool::forThisThread().stackHolding(here))
    return a >= sp && a < uintptr_t(fiber->top());
  thread_local const char *top = [] {
    pthread_attr_t attr;
    void *base = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &base, &size);
      pthread_attr_destroy(&attr);
    }
    return static_cast<const char *>(base) + size;
  }();
  return a >= sp && a < uintptr_t(top);
}

thread_local const void *musa::sim::firstHostAccessFault = nullptr;

extern "C" uint64_t __musa_sim_check_address(const void *p, ThreadContext *c) {
  // Device memory, the block's shared memory and the thread's stack first (no lock), then
  // what the runtime knows of host memory.
  const musa::sim::GridLaunch &launch = musa::sim::launchOf(c);
  const char *a = static_cast<const char *>(p), *shared = static_cast<const char *>(c->shared);
  if (!launch.hostAccessible || (a >= shared && a < shared + c->sharedLimit) ||
      __musa_sim_is_local(p, c) || launch.hostAccessible(p))
    return 0;
  if (!musa::sim::firstHostAccessFault)
    musa::sim::firstHostAccessFault = p;
  return musa::sim::abi::AccessFaultHostMemory;
}

extern "C" void __musa_sim_nanosleep(uint32_t ns, ThreadContext *c) {
  const musa::sim::GridLaunch &launch = musa::sim::launchOf(c);
  if (launch.counters) {
    // Simulated sleep: the thread's clock moves on; the host only yields.
    c->issued += uint64_t(ns) * launch.clockRateKHz / 1000000 / launch.cyclesPerInstruction;
    launch.counters->observeClock(c->issued * launch.cyclesPerInstruction);
    std::this_thread::yield();
    return;
  }
  std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}
