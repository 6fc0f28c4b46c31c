// FiberStackPool: reusable GPU-thread stacks, each with a guard page below it.
//
// One pool per worker thread (blocks on one worker run one at a time). Stacks are mapped
// once and kept for the life of the worker, so a launch costs no mmap; the pool never holds
// more than the largest block it has run (at most the profile's max threads per block).
// The stack size comes from MUSA_SIM_STACK_SIZE (bytes, K/M suffix; default 64K).
#pragma once

#include <cstddef>
#include <vector>

namespace musa::sim {

class FiberStackPool {
public:
  struct Stack {
    char *base = nullptr; // lowest address: the guard page
    size_t size = 0;      // usable bytes above the guard page
    char *top() const { return base + GuardSize + size; }
  };
  static constexpr size_t GuardSize = 4096;

  /// The pool of the calling worker thread.
  static FiberStackPool &forThisThread();
  /// The configured usable stack size.
  static size_t stackSize();

  ~FiberStackPool();
  /// Makes at least `count` stacks available; returns false if the host refuses memory.
  bool reserve(size_t count);
  const Stack &operator[](size_t i) const { return stacks_[i]; }
  /// True if `address` lies in one of this pool's guard pages.
  bool isGuardPage(const void *address) const;
  /// The stack whose usable bytes hold `address`, or null.
  const Stack *stackHolding(const void *address) const;

private:
  std::vector<Stack> stacks_;
};

} // namespace musa::sim
