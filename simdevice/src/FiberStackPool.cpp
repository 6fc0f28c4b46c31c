// Guarded, pooled fiber stacks.
#include "musa/sim/FiberStackPool.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <sys/mman.h>

namespace musa::sim {

namespace {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define MUSA_SIM_SANITIZED 1
#endif
#endif
#if defined(MUSA_SIM_SANITIZED)
// Sanitizer runtimes (malloc and mutex interceptors) run on the GPU thread's stack too.
constexpr size_t DefaultStack = 256 * 1024;
#else
constexpr size_t DefaultStack = 64 * 1024;
#endif
} // namespace

size_t FiberStackPool::stackSize() {
  static const size_t size = [] {
    size_t bytes = DefaultStack;
    if (const char *env = std::getenv("MUSA_SIM_STACK_SIZE"); env && *env) {
      char *end = nullptr;
      unsigned long long n = std::strtoull(env, &end, 10);
      if (end && (*end == 'K' || *end == 'k'))
        n <<= 10;
      else if (end && (*end == 'M' || *end == 'm'))
        n <<= 20;
      if (n >= 16 * 1024)
        bytes = size_t(n);
    }
    return (bytes + 4095) / 4096 * 4096;
  }();
  return size;
}

FiberStackPool &FiberStackPool::forThisThread() {
  thread_local FiberStackPool pool;
  return pool;
}

namespace {
/// What an unguarded stack's lowest page holds at its top, just below the usable bytes.
constexpr uint64_t Canary = 0x6d7573612d73696dULL; // "musa-sim"
constexpr size_t CanaryWords = 8;
constexpr size_t ChunkStacks = 4096;

void writeCanary(char *guard) {
  auto *words = reinterpret_cast<uint64_t *>(guard + FiberStackPool::GuardSize) - CanaryWords;
  for (size_t i = 0; i < CanaryWords; ++i)
    words[i] = Canary;
}
} // namespace

FiberStackPool::~FiberStackPool() {
  for (size_t i = 0; i < std::min(stacks_.size(), GuardedStacks); ++i)
    munmap(stacks_[i].base, GuardSize + stacks_[i].size);
  for (const Chunk &c : chunks_)
    munmap(c.base, c.bytes);
}

bool FiberStackPool::reserve(size_t count) {
  size_t size = stackSize();
  while (stacks_.size() < count && stacks_.size() < GuardedStacks) {
    void *p = mmap(nullptr, GuardSize + size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED)
      return false;
    mprotect(p, GuardSize, PROT_NONE);
    stacks_.push_back({static_cast<char *>(p), size});
  }
  while (stacks_.size() < count) {
    size_t n = std::min(ChunkStacks, count - stacks_.size()), stride = GuardSize + size;
    void *p = mmap(nullptr, n * stride, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED)
      return false;
    chunks_.push_back({static_cast<char *>(p), n * stride});
    for (size_t i = 0; i < n; ++i) {
      char *base = static_cast<char *>(p) + i * stride;
      writeCanary(base);
      stacks_.push_back({base, size});
    }
  }
  return true;
}

void FiberStackPool::releaseUnguarded() {
  for (const Chunk &c : chunks_)
    munmap(c.base, c.bytes);
  chunks_.clear();
  stacks_.resize(std::min(stacks_.size(), GuardedStacks));
}

bool FiberStackPool::canariesIntact(size_t count) const {
  for (size_t i = std::min(count, stacks_.size()); i-- > GuardedStacks;) {
    const auto *words =
        reinterpret_cast<const uint64_t *>(stacks_[i].base + GuardSize) - CanaryWords;
    for (size_t w = 0; w < CanaryWords; ++w)
      if (words[w] != Canary)
        return false;
  }
  return true;
}

bool FiberStackPool::isGuardPage(const void *address) const {
  auto a = static_cast<const char *>(address);
  for (size_t i = 0; i < std::min(stacks_.size(), GuardedStacks); ++i)
    if (a >= stacks_[i].base && a < stacks_[i].base + GuardSize)
      return true;
  return false;
}

const FiberStackPool::Stack *FiberStackPool::stackHolding(const void *address) const {
  auto a = static_cast<const char *>(address);
  // The unguarded stacks by their chunk (consecutive stacks of one stride), then the guarded
  // ones (at most GuardedStacks, each its own mapping).
  size_t first = std::min(stacks_.size(), GuardedStacks);
  for (const Chunk &c : chunks_) {
    const size_t stride = GuardSize + stackSize(), count = c.bytes / stride;
    if (a >= c.base && a < c.base + c.bytes) {
      const Stack &s = stacks_[first + size_t(a - c.base) / stride];
      return a >= s.base + GuardSize ? &s : nullptr;
    }
    first += count;
  }
  for (size_t i = 0; i < std::min(stacks_.size(), GuardedStacks); ++i)
    if (a >= stacks_[i].base + GuardSize && a < stacks_[i].top())
      return &stacks_[i];
  return nullptr;
}

} // namespace musa::sim
