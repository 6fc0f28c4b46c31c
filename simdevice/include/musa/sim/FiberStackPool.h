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
    size_t size = 0;      // usable bytes above the guard page (the first GuardedStacks of a
                          // pool: inaccessible; the others hold a canary)
    char *top() const { return base + GuardSize + size; }
  };
  static constexpr size_t GuardSize = 4096;
  /// Stacks a pool guards with an inaccessible page each. Each guard splits a mapping in two,
  /// and the kernel allows a process 65530 mappings (vm.max_map_count), so stacks beyond
  /// these (a cooperative launch of every block the GPU holds at once: 270,336 threads on
  /// the H200) come in chunks of one mapping with a canary in place of the guard, checked
  /// when their threads finish (canariesIntact).
  static constexpr size_t GuardedStacks = 8192;

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
  /// False if a thread on one of the first `count` stacks overflowed into an unguarded
  /// stack's canary.
  bool canariesIntact(size_t count) const;
  /// Unmaps the unguarded stacks (what a launch that needed them touched stays resident
  /// otherwise: 2 GB for 270,336 threads).
  void releaseUnguarded();
  /// The stack whose usable bytes hold `address`, or null.
  const Stack *stackHolding(const void *address) const;

private:
  struct Chunk {
    char *base;
    size_t bytes;
  };
  std::vector<Stack> stacks_;
  std::vector<Chunk> chunks_; // the unguarded stacks' mappings
};

} // namespace musa::sim
