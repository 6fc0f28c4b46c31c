// Device-side aborts: __trap() and a failing assert() end the running block with a fault.
#include "musa/sim/FaultGuard.h"
#include "musa/sim/BlockExecutor.h"
#include "musa/sim/KernelAbi.h"

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

namespace {
uint64_t hostNanoseconds() {
  using namespace std::chrono;
  return uint64_t(duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count());
}

/// Under the timing model: the launch's start plus the work this thread has executed.
bool simulatedCycles(const ThreadContext *c, uint64_t &cycles) {
  const musa::sim::GridLaunch &launch = musa::sim::launchOf(c);
  if (!launch.counters)
    return false;
  cycles = launch.startCycle + c->issued * launch.cyclesPerInstruction;
  return true;
}
} // namespace

extern "C" uint64_t __musa_sim_globaltimer(ThreadContext *c) {
  uint64_t cycles = 0;
  if (!simulatedCycles(c, cycles))
    return hostNanoseconds();
  uint64_t khz = musa::sim::launchOf(c).clockRateKHz;
  return cycles / khz * 1000000 + cycles % khz * 1000000 / khz;
}

extern "C" uint64_t __musa_sim_clock64(ThreadContext *c) {
  uint64_t cycles = 0;
  if (simulatedCycles(c, cycles))
    return cycles;
  // cycles = ns * kHz / 1e6, in two steps so large uptimes do not overflow.
  uint64_t ns = hostNanoseconds(), khz = musa::sim::launchOf(c).clockRateKHz;
  return ns / 1000000 * khz + ns % 1000000 * khz / 1000000;
}

extern "C" void __musa_sim_nanosleep(uint32_t ns, ThreadContext *c) {
  const musa::sim::GridLaunch &launch = musa::sim::launchOf(c);
  if (launch.counters) {
    // Simulated sleep: the thread's clock moves on; the host only yields.
    c->issued += uint64_t(ns) * launch.clockRateKHz / 1000000 / launch.cyclesPerInstruction;
    std::this_thread::yield();
    return;
  }
  std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}
