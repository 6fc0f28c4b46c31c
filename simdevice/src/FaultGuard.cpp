// Signal handling that turns faults in device code into recorded launch errors.
#include "musa/sim/FaultGuard.h"

#include "SanitizerFibers.h"

#include <csetjmp>
#include <csignal>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <pthread.h>
#if MUSA_SIM_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace musa::sim {

namespace {

constexpr int Signals[] = {SIGSEGV, SIGBUS, SIGFPE};
struct sigaction previous[3];

thread_local sigjmp_buf *currentJump = nullptr;
thread_local SignalFault pendingFault;

/// The worker's own stack, which a fault jumps back to (AddressSanitizer must be told: the
/// jump may leave a fiber stack, and frames it abandons stay poisoned otherwise).
struct WorkerStack {
  char *bottom = nullptr;
  size_t size = 0;
  WorkerStack() {
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void *addr = nullptr;
      pthread_attr_getstack(&attr, &addr, &size);
      bottom = static_cast<char *>(addr);
      pthread_attr_destroy(&attr);
    }
  }
};

void announceJumpToWorker() {
#if MUSA_SIM_ASAN
  thread_local WorkerStack stack;
  __sanitizer_start_switch_fiber(nullptr, stack.bottom, stack.size);
#endif
}

void landedOnWorker() {
#if MUSA_SIM_ASAN
  thread_local WorkerStack stack;
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
  // Everything below this frame is dead; unpoison what the abandoned frames left behind.
  char *here = static_cast<char *>(__builtin_frame_address(0));
  if (stack.bottom && here > stack.bottom)
    __asan_unpoison_memory_region(stack.bottom, size_t(here - stack.bottom));
#endif
}

void onFault(int sig, siginfo_t *info, void *uctx) {
  if (sigjmp_buf *jump = currentJump) {
    pendingFault.kind = sig == SIGFPE ? FaultKind::ArithmeticTrap : FaultKind::IllegalAddress;
    pendingFault.address = info->si_addr;
    announceJumpToWorker();
    siglongjmp(*jump, 1);
  }
  // Not ours: hand over to whoever was installed before us, else die the default way.
  for (int i = 0; i < 3; ++i) {
    if (Signals[i] != sig)
      continue;
    const struct sigaction &old = previous[i];
    if (old.sa_flags & SA_SIGINFO) {
      if (old.sa_sigaction) {
        old.sa_sigaction(sig, info, uctx);
        return;
      }
    } else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
      old.sa_handler(sig);
      return;
    }
    signal(sig, SIG_DFL); // returning re-executes the instruction and dies with `sig`
  }
}

void installHandlers() {
  struct sigaction action = {};
  action.sa_sigaction = onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < 3; ++i)
    sigaction(Signals[i], &action, &previous[i]);
}

struct AltStack {
  std::unique_ptr<char[]> memory;
  AltStack() {
    size_t size = 64 * 1024;
    memory = std::make_unique<char[]>(size);
    stack_t st = {};
    st.ss_sp = memory.get();
    st.ss_size = size;
    sigaltstack(&st, nullptr);
  }
  ~AltStack() {
    stack_t st = {};
    st.ss_flags = SS_DISABLE;
    sigaltstack(&st, nullptr);
  }
};

} // namespace

void prepareFaultHandling() {
  static std::once_flag once;
  std::call_once(once, installHandlers);
  thread_local AltStack altStack;
  (void)altStack;
  // Construct this thread's fault record now: first use inside the signal handler would
  // allocate (registering its thread-exit destructor), which is not signal-safe.
  pendingFault.address = nullptr;
}

bool runGuarded(void (*fn)(void *), void *arg, SignalFault &fault) {
  prepareFaultHandling();
  sigjmp_buf jump;
  sigjmp_buf *outer = currentJump;
  // No signal mask saved: that would be an rt_sigprocmask system call per block. The
  // handler runs with SA_NODEFER, so jumping out of it leaves no signal blocked.
  if (sigsetjmp(jump, 0) != 0) {
    landedOnWorker();
    currentJump = outer;
    fault = std::move(pendingFault);
    pendingFault = SignalFault();
    return false;
  }
  currentJump = &jump;
  fn(arg);
  currentJump = outer;
  return true;
}

void raiseDeviceFault(FaultKind kind, std::string message) {
  sigjmp_buf *jump = currentJump;
  if (!jump)
    std::abort(); // a device builtin ran outside device code: simulator bug
  pendingFault.kind = kind;
  pendingFault.address = nullptr;
  pendingFault.message = std::move(message);
  announceJumpToWorker();
  siglongjmp(*jump, 1);
}

bool inGuardedRegion() { return currentJump != nullptr; }

bool isWorkerStackGuard(const void *address) {
  thread_local WorkerStack stack;
  auto a = reinterpret_cast<uintptr_t>(address), bottom = reinterpret_cast<uintptr_t>(stack.bottom);
  // The guard page(s) below the lowest stack address, plus the frame that overran into them.
  constexpr uintptr_t Slack = 256 * 1024;
  return stack.bottom && a + Slack >= bottom && a < bottom + 4096;
}

} // namespace musa::sim
