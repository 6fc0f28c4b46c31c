// Tells AddressSanitizer and ThreadSanitizer about fiber switches, so sanitizer builds see a
// GPU thread's stack as a stack and each fiber as its own logical thread. Compiles to nothing
// in ordinary builds.
#pragma once

#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MUSA_SIM_ASAN 1
#endif
#if __has_feature(thread_sanitizer)
#define MUSA_SIM_TSAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MUSA_SIM_ASAN 1
#endif
#if defined(__SANITIZE_THREAD__)
#define MUSA_SIM_TSAN 1
#endif

#if MUSA_SIM_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#if MUSA_SIM_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace musa::sim {

/// One side of a switch: a stack (for ASan) and a logical thread (for TSan).
struct SanitizerFiber {
  const void *stackBottom = nullptr;
  size_t stackSize = 0;
  void *asanFakeStack = nullptr;
  void *tsanFiber = nullptr;

  /// The currently running context (the worker's own stack).
  void adoptCurrent() {
#if MUSA_SIM_TSAN
    tsanFiber = __tsan_get_current_fiber();
#endif
  }
  void create(const void *bottom, size_t size) {
    stackBottom = bottom;
    stackSize = size;
#if MUSA_SIM_TSAN
    tsanFiber = __tsan_create_fiber(0);
#endif
  }
  void destroy() {
#if MUSA_SIM_TSAN
    if (tsanFiber)
      __tsan_destroy_fiber(tsanFiber);
    tsanFiber = nullptr;
#endif
  }
};

/// Call immediately before jumping from `from` to `to`; `leaving` when `from` never resumes.
inline void beforeSwitch(SanitizerFiber &from, SanitizerFiber &to, bool leaving = false) {
#if MUSA_SIM_ASAN
  __sanitizer_start_switch_fiber(leaving ? nullptr : &from.asanFakeStack, to.stackBottom,
                                 to.stackSize);
#endif
#if MUSA_SIM_TSAN
  __tsan_switch_to_fiber(to.tsanFiber, 0);
#endif
  (void)from;
  (void)to;
  (void)leaving;
}

/// Call first thing after a jump lands in `self`; records the stack we came from in `from`.
inline void afterSwitch(SanitizerFiber &self, SanitizerFiber *from) {
#if MUSA_SIM_ASAN
  const void *bottom = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(self.asanFakeStack, &bottom, &size);
  if (from) {
    from->stackBottom = bottom;
    from->stackSize = size;
  }
#endif
  (void)self;
  (void)from;
}

} // namespace musa::sim
