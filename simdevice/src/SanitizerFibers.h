// Tells AddressSanitizer about fiber switches, so ASan builds see a GPU thread's stack as a
// stack. Compiles to nothing in ordinary builds.
//
// ThreadSanitizer is deliberately not told: with its fiber API (__tsan_switch_to_fiber) TSan
// crashed inside its stack depot once oneTBB tasks finished on a worker that had run fibers.
// Unannotated, TSan sees a block's fibers as the one worker thread that runs them, which is
// exact: they run one at a time and hand over only at barriers, on that thread.
#pragma once

#include <cstddef>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MUSA_SIM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MUSA_SIM_ASAN 1
#endif

#if MUSA_SIM_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace musa::sim {

/// One side of a switch: a stack.
struct SanitizerFiber {
  const void *stackBottom = nullptr;
  size_t stackSize = 0;
  void *asanFakeStack = nullptr;

  void create(const void *bottom, size_t size) {
    stackBottom = bottom;
    stackSize = size;
  }
};

/// Call immediately before jumping from `from` to `to`; `leaving` when `from` never resumes.
inline void beforeSwitch(SanitizerFiber &from, SanitizerFiber &to, bool leaving = false) {
#if MUSA_SIM_ASAN
  __sanitizer_start_switch_fiber(leaving ? nullptr : &from.asanFakeStack, to.stackBottom,
                                 to.stackSize);
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
