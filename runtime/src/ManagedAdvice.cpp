// Managed-memory advice by page, read back by musaMemRangeGetAttribute(s).
#include "ManagedAdvice.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace musa::rt {

namespace {
std::pair<uintptr_t, uintptr_t> pages(uintptr_t lo, uintptr_t hi, uintptr_t allocLo,
                                      uintptr_t allocHi) {
  const uintptr_t page = ManagedAdvice::PageBytes;
  return {std::max(allocLo, lo / page * page), std::min(allocHi, (hi + page - 1) / page * page)};
}

bool sameLocation(const musaMemLocation &a, const musaMemLocation &b) {
  return a.type == b.type && (a.type == musaMemLocationTypeHost || a.id == b.id);
}

/// The legacy device number of a location: the device, musaCpuDeviceId for the host, or
/// musaInvalidDeviceId.
int deviceNumber(const musaMemLocation &l) {
  switch (l.type) {
  case musaMemLocationTypeDevice: return l.id;
  case musaMemLocationTypeHost:
  case musaMemLocationTypeHostNuma: return musaCpuDeviceId;
  default: return musaInvalidDeviceId;
  }
}

/// One host NUMA node, and no id for the host: how a location is kept.
musaMemLocation normalised(musaMemLocation where) {
  if (where.type == musaMemLocationTypeHostNumaCurrent)
    return {musaMemLocationTypeHostNuma, 0};
  if (where.type == musaMemLocationTypeHost)
    where.id = 0;
  return where;
}

/// The id musaMemRangeAttribute*LocationId reports: none for the host or no location.
int locationId(const musaMemLocation &l) {
  return l.type == musaMemLocationTypeInvalid || l.type == musaMemLocationTypeHost
             ? musaInvalidDeviceId
             : l.id;
}

uint64_t accessBit(const musaMemLocation &l) {
  int n = deviceNumber(l);
  return n == musaCpuDeviceId ? 1 : n >= 0 && n < 63 ? uint64_t(1) << (n + 1) : 0;
}
} // namespace

ManagedAdvice &ManagedAdvice::get() {
  static ManagedAdvice *advice = new ManagedAdvice; // used until exit, by any thread
  return *advice;
}

void ManagedAdvice::splitAt(uintptr_t at) {
  auto it = stretches_.upper_bound(at);
  if (it == stretches_.begin())
    return;
  --it;
  if (it->first < at && at < it->second.end) {
    Stretch tail = it->second;
    it->second.end = at;
    stretches_.emplace(at, tail);
  }
}

template <class F> void ManagedAdvice::update(uintptr_t lo, uintptr_t hi, F &&change) {
  if (lo >= hi)
    return;
  splitAt(lo), splitAt(hi);
  // Fill the gaps with default stretches, then change every stretch of [lo, hi).
  for (uintptr_t at = lo; at < hi;) {
    auto it = stretches_.lower_bound(at);
    if (it == stretches_.end() || it->first > at) {
      uintptr_t end = it == stretches_.end() ? hi : std::min(hi, it->first);
      it = stretches_.emplace(at, Stretch{end, PageAdvice{}}).first;
    }
    change(it->second.advice);
    at = it->second.end;
  }
}

void ManagedAdvice::advise(uintptr_t lo, uintptr_t hi, uintptr_t allocLo, uintptr_t allocHi,
                           musaMemoryAdvise advice, musaMemLocation where) {
  where = normalised(where);
  auto [first, end] = pages(lo, hi, allocLo, allocHi);
  std::lock_guard lock(mutex_);
  update(first, end, [&](PageAdvice &a) {
    switch (advice) {
    case musaMemAdviseSetReadMostly: a.readMostly = true; break;
    case musaMemAdviseUnsetReadMostly: a.readMostly = false; break;
    case musaMemAdviseSetPreferredLocation: a.preferred = where; break;
    case musaMemAdviseUnsetPreferredLocation: a.preferred = {musaMemLocationTypeInvalid, 0}; break;
    case musaMemAdviseSetAccessedBy: a.accessedBy |= accessBit(where); break;
    case musaMemAdviseUnsetAccessedBy: a.accessedBy &= ~accessBit(where); break;
    }
  });
}

void ManagedAdvice::prefetched(uintptr_t lo, uintptr_t hi, uintptr_t allocLo, uintptr_t allocHi,
                               musaMemLocation where) {
  where = normalised(where);
  auto [first, end] = pages(lo, hi, allocLo, allocHi);
  std::lock_guard lock(mutex_);
  update(first, end, [&](PageAdvice &a) { a.lastPrefetch = where; });
}

void ManagedAdvice::forget(uintptr_t allocLo, uintptr_t allocHi) {
  std::lock_guard lock(mutex_);
  splitAt(allocLo), splitAt(allocHi);
  stretches_.erase(stretches_.lower_bound(allocLo), stretches_.lower_bound(allocHi));
}

musaError_t ManagedAdvice::query(void *data, size_t dataSize, musaMemRangeAttribute attribute,
                                 uintptr_t lo, uintptr_t hi, uintptr_t allocLo,
                                 uintptr_t allocHi) {
  bool list = attribute == musaMemRangeAttributeAccessedBy;
  if (!data || (list ? dataSize == 0 || dataSize % 4 : dataSize != 4))
    return musaErrorInvalidValue;
  if (attribute < musaMemRangeAttributeReadMostly ||
      attribute > musaMemRangeAttributeLastPrefetchLocationId)
    return musaErrorInvalidValue;
  auto [first, end] = pages(lo, hi, allocLo, allocHi);
  // What all the range's pages share: read-mostly, the devices with access, and one
  // preferred and one last-prefetch location (or none, if they differ or one is unset).
  bool readMostly = true, samePreferred = true, samePrefetch = true;
  uint64_t accessedBy = ~uint64_t(0);
  musaMemLocation preferred{}, prefetch{};
  bool firstPiece = true;
  auto take = [&](const PageAdvice &a) {
    readMostly &= a.readMostly;
    accessedBy &= a.accessedBy;
    if (firstPiece)
      preferred = a.preferred, prefetch = a.lastPrefetch, firstPiece = false;
    samePreferred &= sameLocation(preferred, a.preferred);
    samePrefetch &= sameLocation(prefetch, a.lastPrefetch);
  };
  {
    std::lock_guard lock(mutex_);
    uintptr_t at = first;
    auto it = stretches_.upper_bound(first);
    if (it != stretches_.begin() && std::prev(it)->second.end > first)
      --it;
    for (; at < end; ++it) {
      if (it == stretches_.end() || it->first > at) { // pages never advised
        take(PageAdvice{});
        if (it == stretches_.end())
          break;
      }
      if (it->first >= end)
        break;
      take(it->second.advice);
      at = it->second.end;
    }
  }
  const musaMemLocation none{musaMemLocationTypeInvalid, 0};
  if (!samePreferred)
    preferred = none;
  if (!samePrefetch)
    prefetch = none;
  int value = 0;
  switch (attribute) {
  case musaMemRangeAttributeReadMostly: value = readMostly; break;
  case musaMemRangeAttributePreferredLocation: value = deviceNumber(preferred); break;
  case musaMemRangeAttributeLastPrefetchLocation: value = deviceNumber(prefetch); break;
  case musaMemRangeAttributePreferredLocationType: value = int(preferred.type); break;
  case musaMemRangeAttributeLastPrefetchLocationType: value = int(prefetch.type); break;
  case musaMemRangeAttributePreferredLocationId: value = locationId(preferred); break;
  case musaMemRangeAttributeLastPrefetchLocationId: value = locationId(prefetch); break;
  case musaMemRangeAttributeAccessedBy: {
    // The devices (the host as musaCpuDeviceId) set for every page, as many as fit; the
    // rest of the entries musaInvalidDeviceId.
    std::vector<int> ids;
    if (accessedBy & 1)
      ids.push_back(musaCpuDeviceId);
    for (int n = 0; n < 63; ++n)
      if (accessedBy >> (n + 1) & 1)
        ids.push_back(n);
    int *out = static_cast<int *>(data);
    for (size_t k = 0; k < dataSize / 4; ++k)
      out[k] = k < ids.size() ? ids[k] : musaInvalidDeviceId;
    return musaSuccess;
  }
  }
  std::memcpy(data, &value, 4);
  return musaSuccess;
}

} // namespace musa::rt
