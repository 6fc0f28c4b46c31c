// Device-side aborts: __trap() and a failing assert() end the running block with a fault.
#include "musa/sim/FaultGuard.h"
#include "musa/sim/KernelAbi.h"

#include <cstdio>
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
