// What programs told the runtime about managed memory (musaMemAdvise, musaMemPrefetchAsync),
// kept per page so that musaMemRangeGetAttribute(s) reads it back as CUDA does. The
// simulator's one memory makes the advice change nothing else.
#pragma once

#include "musa_runtime_api.h"

#include <cstdint>
#include <map>
#include <mutex>

namespace musa::rt {

/// The advice of one stretch of managed pages.
struct PageAdvice {
  bool readMostly = false;
  musaMemLocation preferred{musaMemLocationTypeInvalid, 0};
  uint64_t accessedBy = 0; // bit id + 1 for device id, bit 0 for the host
  musaMemLocation lastPrefetch{musaMemLocationTypeInvalid, 0};
};

/// Advice by page over the process's managed allocations: stretches with the same advice,
/// split where advice or a query needs it; pages never advised have the default.
class ManagedAdvice {
public:
  /// The page size advice applies at: a range covers every page it touches.
  static constexpr uintptr_t PageBytes = 4096;
  static ManagedAdvice &get();
  /// Applies `advice` (for `device`, or musaCpuDeviceId) to [lo, hi), widened to pages
  /// within [allocLo, allocHi).
  void advise(uintptr_t lo, uintptr_t hi, uintptr_t allocLo, uintptr_t allocHi,
              musaMemoryAdvise advice, musaMemLocation where);
  /// Records a prefetch of [lo, hi) to `where`.
  void prefetched(uintptr_t lo, uintptr_t hi, uintptr_t allocLo, uintptr_t allocHi,
                  musaMemLocation where);
  /// Forgets the advice of an allocation that is freed or made anew.
  void forget(uintptr_t allocLo, uintptr_t allocHi);
  /// Writes `attribute` of the pages of [lo, hi) into data (dataSize bytes), as
  /// musaMemRangeGetAttribute does; musaErrorInvalidValue for a size the attribute cannot take.
  musaError_t query(void *data, size_t dataSize, musaMemRangeAttribute attribute, uintptr_t lo,
                    uintptr_t hi, uintptr_t allocLo, uintptr_t allocHi);

private:
  struct Stretch {
    uintptr_t end;
    PageAdvice advice;
  };
  /// Starts a stretch at `at` if one runs across it.
  void splitAt(uintptr_t at);
  template <class F> void update(uintptr_t lo, uintptr_t hi, F &&change);
  std::mutex mutex_;
  std::map<uintptr_t, Stretch> stretches_; // by first byte
};

} // namespace musa::rt
