// FaultGuard: runs device code so that a hardware fault in it (bad address, stack overflow,
// integer division trap) or a device-side abort (trap, assert) ends the running block with a
// recorded fault instead of killing the process.
//
// Mechanism: the worker calls runGuarded(), which sigsetjmp()s on its own stack. The process-
// wide SIGSEGV/SIGBUS/SIGFPE handler runs on a per-thread alternate stack (so a fiber stack
// overflow can still be handled) and, if the faulting thread is inside runGuarded, records the
// signal and address and siglongjmp()s back. Faults anywhere else are passed to the previous
// handler (default: the process dies as usual). Abandoned fibers are never resumed, so no code
// runs on a corrupted stack; their stacks simply return to the pool.
#pragma once

#include <cstdint>
#include <string>

namespace musa::sim {

enum class FaultKind { None, IllegalAddress, StackOverflow, ArithmeticTrap, Trap, Assert,
                       BarrierDivergence, MisalignedBarrier, MisalignedAddress, Timeout };

struct SignalFault {
  FaultKind kind = FaultKind::None;
  const void *address = nullptr;
  std::string message; // set by device-side aborts (assert text, trap)
};

/// Installs the signal handlers (once per process) and this thread's alternate signal stack
/// (once per thread). Cheap after the first call.
void prepareFaultHandling();

/// Runs fn(arg). Returns false if a fault ended it; `fault` then says what happened.
bool runGuarded(void (*fn)(void *), void *arg, SignalFault &fault);

/// Ends the guarded region of the calling thread with a device-side fault (assert, trap).
/// Must only be called from inside runGuarded.
[[noreturn]] void raiseDeviceFault(FaultKind kind, std::string message);

/// True while the calling thread is inside runGuarded (device code is running).
bool inGuardedRegion();

/// Whether `address` lies in the guard area below the calling host thread's stack: a fault
/// there is a stack overflow of device code running directly on the worker (loop modes).
bool isWorkerStackGuard(const void *address);

} // namespace musa::sim
