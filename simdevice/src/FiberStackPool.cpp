// Guarded, pooled fiber stacks.
#include "musa/sim/FiberStackPool.h"

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

FiberStackPool::~FiberStackPool() {
  for (const Stack &s : stacks_)
    munmap(s.base, GuardSize + s.size);
}

bool FiberStackPool::reserve(size_t count) {
  size_t size = stackSize();
  while (stacks_.size() < count) {
    void *p = mmap(nullptr, GuardSize + size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (p == MAP_FAILED)
      return false;
    mprotect(p, GuardSize, PROT_NONE);
    stacks_.push_back({static_cast<char *>(p), size});
  }
  return true;
}

bool FiberStackPool::isGuardPage(const void *address) const {
  auto a = static_cast<const char *>(address);
  for (const Stack &s : stacks_)
    if (a >= s.base && a < s.base + GuardSize)
      return true;
  return false;
}

const FiberStackPool::Stack *FiberStackPool::stackHolding(const void *address) const {
  auto a = static_cast<const char *>(address);
  for (const Stack &s : stacks_)
    if (a >= s.base + GuardSize && a < s.top())
      return &s;
  return nullptr;
}

} // namespace musa::sim
