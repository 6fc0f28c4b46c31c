// What instrumented kernels count: per-launch counters, the footprint bitmaps, sampled
// blocks' coalescing and divergence, and the memory hook the full variant calls.
#include "musa/sim/Timing.h"

#include "SampleMemo.h"

#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace musa::sim {

namespace {

/// Footprint bitmaps outlive their launches: fresh zeroed pages for every launch (calloc,
/// then a page fault for each page the grid touches, then munmap) cost as much as a
/// memory-bound kernel itself. A released bitmap is cleared over the words its launch set, so
/// every bitmap kept here is all zeros; a few are kept, larger ones first.
class BitmapPool {
public:
  /// A zeroed bitmap of at least `words` words; `capacity` says how many it has.
  uint64_t *take(uint64_t words, uint64_t &capacity) {
    {
      std::lock_guard lock(mutex_);
      // Smallest first: the first large enough is the best fit.
      for (auto it = free_.begin(); it != free_.end(); ++it)
        if (it->words >= words) {
          Free found = *it;
          free_.erase(it);
          capacity = found.words;
          return found.bits;
        }
    }
    // Capacity rounded up so that a slowly growing device reuses its bitmaps.
    capacity = std::max<uint64_t>(std::bit_ceil(words), 1024);
    return static_cast<uint64_t *>(std::calloc(capacity, sizeof(uint64_t)));
  }
  /// Takes back a bitmap of `capacity` words whose set words all lie in [lo, hi].
  __attribute__((no_sanitize("thread"))) void give(uint64_t *bits, uint64_t capacity,
                                                   uint64_t lo, uint64_t hi) {
    if (lo <= hi && lo < capacity)
      std::memset(bits + lo, 0, (std::min(hi, capacity - 1) - lo + 1) * sizeof(uint64_t));
    std::lock_guard lock(mutex_);
    Free entry{bits, capacity};
    free_.insert(std::upper_bound(free_.begin(), free_.end(), entry,
                                  [](const Free &a, const Free &b) { return a.words < b.words; }),
                 entry);
    if (free_.size() > Kept) { // the smallest goes
      std::free(free_.front().bits);
      free_.erase(free_.begin());
    }
  }

private:
  static constexpr size_t Kept = 4; // two launches counting at once, two bitmaps each
  struct Free {
    uint64_t *bits;
    uint64_t words;
  };
  std::mutex mutex_;
  std::vector<Free> free_; // by capacity, smallest first
};

BitmapPool &bitmapPool() {
  static auto *pool = new BitmapPool; // never destroyed: launches may still end during exit
  return *pool;
}

} // namespace

KernelCounters::KernelCounters(const GridLaunch &launch, const char *memoryBase,
                               uint64_t memorySize)
    : base_(memoryBase), size_(memoryBase ? memorySize : 0), words_((size_ / 32 + 63) / 64),
      hostMemory_(launch.hostMemory) {
  sites.resize(launch.kernel->timingSites);
  // One slot per thread an arena can run (workers plus the thread that entered it).
  workers_.resize(size_t(tbb::info::default_concurrency()) + 1);
  if (words_)
    for (int k = 0; k < 2; ++k)
      bits_[k] = bitmapPool().take(words_, bitsCapacity_[k]);
  // Sampled blocks run the fully instrumented variant: 50 to 100 times the light one's cost
  // per block (a sampled block of tiled matmul 512 costs a third of a millisecond, as much as
  // a tenth of the grid). So one block in 2048, at least 1 and at most 16 (placed by
  // sampledBlocks). What they measure (coalescing, bank conflicts, divergence, L1 reuse) are
  // ratios the light counters scale to the grid; both validation suites' figures were the
  // same with one per launch as with the earlier 4-16 (MAPE 11.97% and 16.44% against 11.93%
  // and 16.43%, Spearman unchanged).
  uint64_t blocks = launch.grid.count();
  int wanted = int(std::clamp<uint64_t>(blocks / 2048, 1, MaxSamples));
  memoKey_ = sampleMemoKey(launch);
  reused_ = sampleMemoReuse(memoKey_);
  samples_ = reused_ ? 0 : sampledBlocks(launch.grid, wanted, sampled_);
  published_.store(true, std::memory_order_release);
}

KernelCounters::~KernelCounters() {
  uint64_t lo = __atomic_load_n(&lowWord_, __ATOMIC_ACQUIRE);
  uint64_t hi = __atomic_load_n(&highWord_, __ATOMIC_ACQUIRE);
  for (int k = 0; k < 2; ++k)
    if (bits_[k])
      bitmapPool().give(bits_[k], bitsCapacity_[k], lo, hi);
}

bool KernelCounters::sampleBlock(uint64_t linearBlock) const {
  return nextSampled(linearBlock) == linearBlock;
}

int sampledBlocks(const Dim3 &grid, int wanted, uint64_t *out) {
  const uint64_t blocks = grid.count(), rows = uint64_t(grid.y) * grid.z;
  int n = 0;
  for (int k = 0; k < wanted; ++k) {
    uint64_t id;
    if (rows == 1) {
      // A row of blocks: the middle of each of `wanted` equal shares.
      // The last block, often a partial one (`if (i >= n) return;` leaves a tail block with a
      // few live threads), is never the sample unless it is the only one: its lanes' ratios
      // (one live lane per warp) scaled to full blocks would multiply their instructions.
      uint64_t stride = std::max<uint64_t>(1, blocks / wanted);
      id = stride / 2 + k * stride;
      if (id + 1 == blocks && id > 0)
        --id;
    } else {
      // Rows (y, z) in the middle of equal shares of them, and in each a column from the
      // van der Corput sequence (1/2, 1/4, 3/4, 1/8, ...): the first sample is the grid's
      // centre, and no two share an edge column. The middle of the linear order would be
      // column 0, the image's edge in a 2D kernel, where the bounds checks diverge.
      uint64_t row = (2 * uint64_t(k) + 1) * rows / (2 * uint64_t(wanted));
      double column = 0, unit = 0.5;
      for (unsigned bits = unsigned(k) + 1; bits; bits >>= 1, unit /= 2)
        column += (bits & 1) * unit;
      uint64_t x = std::min<uint64_t>(uint64_t(column * grid.x), grid.x - 1);
      if (row + 1 == rows && row > 0) // the edges, as the last block above
        --row;
      if (x + 1 == grid.x && x > 0)
        --x;
      id = row * grid.x + x;
    }
    if (id < blocks)
      out[n++] = id;
  }
  std::sort(out, out + n);
  return int(std::unique(out, out + n) - out);
}

BlockCounters *KernelCounters::workerCounters(const GridLaunch &launch) {
  int index = tbb::this_task_arena::current_thread_index();
  if (index < 0 || size_t(index) >= workers_.size())
    return nullptr; // not one of the arena's slots: the caller counts the block on its own
  std::unique_ptr<BlockCounters> &slot = workers_[size_t(index)];
  if (!slot) {
    slot = std::make_unique<BlockCounters>();
    slot->begin(launch, 0, nullptr, 0, false);
  }
  return slot.get();
}

void BlockCounters::foldLight(const uint32_t *siteInfo, uint32_t first, uint32_t end) {
  // Runs after every light block: a one-warp block's body costs about as much as this loop,
  // so the common case (a dense range that extends the site's pending run) is a few
  // instructions, and the launch-wide lowest and highest addresses wait for the run's end.
  end = uint32_t(std::min<size_t>({end, accum.size(), sites.size()}));
  for (uint32_t i = first; i < end; ++i) {
    SiteAccum &slot = accum[i];
    // Read field by field: the block's code has just stored them one by one, and a wider load
    // spanning two of those stores cannot be forwarded from them (a stall of a dozen cycles,
    // a third of a one-warp block's cost).
    uint64_t globalExecs = __atomic_load_n(&slot.globalExecs, __ATOMIC_RELAXED);
    uint64_t sharedExecs = __atomic_load_n(&slot.sharedExecs, __ATOMIC_RELAXED);
    if (!(globalExecs | sharedExecs))
      continue;
    SiteStats &s = sites[i];
    uint32_t info = siteInfo ? siteInfo[i] : 0;
    s.info |= info;
    s.sharedExecs += sharedExecs;
    if (globalExecs) {
      uint64_t lo = __atomic_load_n(&slot.lowest, __ATOMIC_RELAXED);
      uint64_t hi = __atomic_load_n(&slot.highest, __ATOMIC_RELAXED);
      s.globalExecs += globalExecs;
      // Dense (every sector between the lowest and highest address plausibly touched, as in
      // unit or small strides): the range goes into the footprint. Sparse: its sectors are
      // estimated once the sampled blocks tell how many sectors a lane's access takes.
      uint64_t unit = std::max<uint64_t>(32, info & 0xffff);
      if (hi > lo && hi - lo <= globalExecs * unit * 5 / 4) {
        if (s.pendingEnd && lo / 32 <= (s.pendingEnd - 1) / 32 + 1 &&
            (hi - 1) / 32 + 1 >= s.pendingLo / 32) {
          s.pendingLo = std::min(s.pendingLo, lo), s.pendingEnd = std::max(s.pendingEnd, hi);
        } else {
          addFootprint(s, lo, hi - lo, info & (abi::AccessStore | abi::AccessAtomic));
        }
      } else {
        s.lowest = std::min(s.lowest, lo), s.highest = std::max(s.highest, hi);
        if (hi > lo) {
          s.sparseExecs += globalExecs;
          s.sparseSpanSectors += (hi - lo) / 32 + 1;
        }
      }
    }
    __atomic_store_n(&slot.globalExecs, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&slot.sharedExecs, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&slot.lowest, ~uint64_t(0), __ATOMIC_RELAXED);
    __atomic_store_n(&slot.highest, 0, __ATOMIC_RELAXED);
  }
}

void BlockCounters::addFootprint(SiteStats &p, uint64_t lo, uint64_t size, bool write) {
  uint64_t end = lo + size;
  if (p.pendingEnd && lo / 32 <= (p.pendingEnd - 1) / 32 + 1 &&
      (end - 1) / 32 + 1 >= p.pendingLo / 32) {
    p.pendingLo = std::min(p.pendingLo, lo), p.pendingEnd = std::max(p.pendingEnd, end);
    return;
  }
  if (p.pendingEnd)
    markPending(p, write);
  p.pendingLo = lo, p.pendingEnd = end;
}

void BlockCounters::markPending(SiteStats &p, bool write) {
  kernel->touch(p.pendingLo, p.pendingEnd - p.pendingLo, write, footprintWords);
  p.lowest = std::min(p.lowest, p.pendingLo), p.highest = std::max(p.highest, p.pendingEnd);
  p.pendingLo = p.pendingEnd = 0;
}

void BlockCounters::flushFootprint() {
  for (size_t i = 0; i < sites.size(); ++i) {
    SiteStats &p = sites[i];
    if (!p.pendingEnd)
      continue;
    uint32_t info = siteInfo_ ? siteInfo_[i] : 0;
    markPending(p, info & (abi::AccessStore | abi::AccessAtomic));
  }
}

namespace {
/// The sectors a sparse site's light blocks touched (read in granules of `granule` sectors:
/// a warp access with fewer sectors per line than a granule holds brings the rest of each
/// granule too): the fewest of the sectors its blocks spanned, its executions times the
/// sectors a lane's access takes in sampled warps, and its launch-wide span (blocks' spans
/// overlap: a gather from one table).
double sparseSiteSectors(const SiteStats &s, unsigned granule) {
  double perLane = s.globalLanes ? double(s.sectors) / double(s.globalLanes) : 1.0;
  if (granule > 1 && !(s.info & (abi::AccessStore | abi::AccessAtomic)) && s.lines)
    perLane *= double(granule) / std::clamp(double(s.sectors) / double(s.lines), 1.0,
                                            double(granule));
  double launchSpan = s.highest > s.lowest ? double(s.highest - s.lowest) / 32 + 1 : 1;
  return std::min({double(s.sparseSpanSectors), double(s.sparseExecs) * perLane, launchSpan});
}
} // namespace

uint64_t KernelCounters::sparseSectors(unsigned granule) const {
  // Sites whose launch-wide ranges mostly overlap share their span's sectors: those that
  // start at the same sector touch the same ones (a column walk's load and store of one
  // element, a second pass over what the first read: the most of them), those that start
  // apart touch their own (a loop unrolled four times reads a quarter of the rows at each of
  // four sites, eight loads of a thread each an eighth of the data: their sum), together no
  // more than the span. Ranges apart add up.
  struct Part {
    double lo, hi, sectors;
  };
  std::vector<Part> parts;
  for (const SiteStats &s : sites) {
    if (!s.sparseExecs)
      continue;
    parts.push_back({double(s.lowest), double(std::max(s.highest, s.lowest + 1)),
                     sparseSiteSectors(s, granule)});
  }
  std::sort(parts.begin(), parts.end(), [](const Part &a, const Part &b) { return a.lo < b.lo; });
  double n = 0;
  for (size_t i = 0; i < parts.size();) {
    size_t first = i;
    double lo = parts[i].lo, hi = parts[i].hi;
    for (++i; i < parts.size(); ++i) {
      const Part &p = parts[i];
      double overlap = std::min(hi, p.hi) - std::max(lo, p.lo);
      if (overlap <= 0.5 * std::min(hi - lo, p.hi - p.lo))
        break;
      hi = std::max(hi, p.hi);
    }
    // parts[first, i) are sorted by their first address: runs of one first sector.
    double span = std::max(1.0, (hi - lo) / 32), sum = 0;
    for (size_t k = first; k < i;) {
      double most = parts[k].sectors, start = std::floor(parts[k].lo / 32);
      for (++k; k < i && std::floor(parts[k].lo / 32) == start; ++k)
        most = std::max(most, parts[k].sectors);
      sum += most;
    }
    n += std::min(span, sum);
  }
  return uint64_t(n);
}

void KernelCounters::flushWorkers() {
  for (std::unique_ptr<BlockCounters> &w : workers_)
    if (w) {
      w->flushFootprint();
      merge(*w);
      w.reset();
    }
}

__attribute__((no_sanitize("thread"))) void KernelCounters::touch(uintptr_t address,
                                                                    uint64_t size, bool write,
                                                                    uint64_t bounds[2]) {
  uint64_t offset = address - uintptr_t(base_);
  uint64_t *bits = bits_[write ? 1 : 0];
  if (offset >= size_ || size == 0 || !bits) {
    untracked_.fetch_add((size + 31) / 32, std::memory_order_relaxed);
    if (size && hostMemory_ && hostMemory_(reinterpret_cast<const void *>(address)))
      hostSectors_[write ? 1 : 0].fetch_add((size + 31) / 32, std::memory_order_relaxed);
    return;
  }
  uint64_t first = offset / 32, last = std::min((offset + size - 1) / 32, size_ / 32 - 1);
  for (uint64_t sector = first; sector <= last;) {
    uint64_t *w = &bits[sector / 64];
    uint64_t lo = sector % 64, hi = std::min<uint64_t>(63, lo + (last - sector));
    uint64_t mask = (hi == 63 ? ~uint64_t(0) : (uint64_t(1) << (hi + 1)) - 1) &
                    ~((uint64_t(1) << lo) - 1);
    // A whole word is stored, not or-ed: whatever other workers set in it, it ends all ones
    // (a plain store, where a locked or costs tens of cycles per 2 KiB of footprint).
    if ((__atomic_load_n(w, __ATOMIC_RELAXED) & mask) != mask) {
      if (mask == ~uint64_t(0))
        __atomic_store_n(w, mask, __ATOMIC_RELAXED);
      else
        __atomic_fetch_or(w, mask, __ATOMIC_RELAXED);
    }
    sector += hi - lo + 1;
  }
  bounds[0] = std::min(bounds[0], first / 64);
  bounds[1] = std::max(bounds[1], last / 64);
}

/// Widens the bounds the count scans by a block's (see touch).
void KernelCounters::widenFootprint(const uint64_t bounds[2]) {
  if (bounds[0] > bounds[1])
    return;
  for (uint64_t seen = __atomic_load_n(&lowWord_, __ATOMIC_RELAXED); bounds[0] < seen;)
    if (__atomic_compare_exchange_n(&lowWord_, &seen, bounds[0], true, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      break;
  for (uint64_t seen = __atomic_load_n(&highWord_, __ATOMIC_RELAXED); bounds[1] > seen;)
    if (__atomic_compare_exchange_n(&highWord_, &seen, bounds[1], true, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      break;
}

namespace {
struct BitCounts {
  uint64_t bits = 0, grouped = 0;
};
/// Set bits of words [first, end) and, with `granule` 2 or 4, the bits of the groups of that
/// many with any bit set (the sectors DRAM reads when it reads that many at a time; otherwise
/// `grouped` is `bits`), in one pass. The baseline x86-64 target has no POPCNT instruction,
/// so __builtin_popcountll there is a libgcc call per word; the bitmaps hold one word per
/// 2 KiB of footprint, counted on every launch.
__attribute__((no_sanitize("thread"))) inline BitCounts
countBitsOf(const uint64_t *words, uint64_t first, uint64_t end, unsigned granule) {
  BitCounts n;
  const bool groups = granule == 2 || granule == 4;
  for (uint64_t k = first; k < end; ++k) {
    uint64_t w = __atomic_load_n(&words[k], __ATOMIC_RELAXED);
    n.bits += uint64_t(__builtin_popcountll(w));
    if (groups) {
      uint64_t g = w | (w >> 1);
      g = granule == 2 ? g & 0x5555555555555555ull : (g | (g >> 2)) & 0x1111111111111111ull;
      n.grouped += uint64_t(__builtin_popcountll(g));
    }
  }
  n.grouped = groups ? n.grouped * granule : n.bits;
  return n;
}
#if defined(__x86_64__)
__attribute__((target("popcnt"), no_sanitize("thread"))) BitCounts
countBitsPopcnt(const uint64_t *words, uint64_t first, uint64_t end, unsigned granule) {
  return countBitsOf(words, first, end, granule);
}
#endif
BitCounts countBits(const uint64_t *words, uint64_t first, uint64_t end, unsigned granule) {
#if defined(__x86_64__)
  static const bool popcnt = __builtin_cpu_supports("popcnt");
  if (popcnt)
    return countBitsPopcnt(words, first, end, granule);
#endif
  return countBitsOf(words, first, end, granule);
}
} // namespace

KernelCounters::FootprintSectors KernelCounters::footprintSectors(unsigned granule) const {
  FootprintSectors f;
  uint64_t lo = __atomic_load_n(&lowWord_, __ATOMIC_ACQUIRE);
  uint64_t hi = __atomic_load_n(&highWord_, __ATOMIC_ACQUIRE);
  if (lo > hi || lo >= words_)
    return f;
  uint64_t end = std::min(hi + 1, words_);
  if (bits_[0]) { // read: what DRAM sends with it too, in the same pass
    BitCounts read = countBits(bits_[0], lo, end, granule);
    f.unique += read.bits;
    f.readGranuleExtra = read.grouped - read.bits;
  }
  if (bits_[1]) {
    f.written = countBits(bits_[1], lo, end, 1).bits;
    f.unique += f.written;
  }
  return f;
}

std::vector<AddressSpan> KernelCounters::footprintSpans(size_t maxSpans) const {
  std::vector<AddressSpan> spans;
  uint64_t lo = __atomic_load_n(&lowWord_, __ATOMIC_ACQUIRE);
  uint64_t hi = __atomic_load_n(&highWord_, __ATOMIC_ACQUIRE);
  const uint64_t wordBytes = 64 * 32; // one bit per 32-byte sector
  const uintptr_t base = uintptr_t(base_), end = base + words_ * wordBytes;
  // The bitmaps' runs, a chunk of 32 words (64 KiB) at a time: chunks with a sector touched,
  // the neighbouring ones joined.
  constexpr uint64_t ChunkWords = 32;
  if (lo <= hi && lo < words_) {
    const uint64_t last = std::min(hi + 1, words_);
    for (uint64_t k = lo - lo % ChunkWords; k < last; k += ChunkWords) {
      uint64_t from = std::max(k, lo), to = std::min(k + ChunkWords, last), sectors = 0;
      for (uint64_t *bits : bits_)
        if (bits)
          sectors += countBits(bits, from, to, 1).bits;
      if (!sectors)
        continue;
      uint64_t at = base + k * wordBytes;
      if (!spans.empty() && spans.back().hi == at)
        spans.back().hi += ChunkWords * wordBytes, spans.back().bytes += 32.0 * double(sectors);
      else
        spans.push_back({at, at + ChunkWords * wordBytes, 32.0 * double(sectors)});
    }
  }
  // The ranges of sites whose blocks were too spread out to mark the bitmaps (a tile per
  // block: rows far apart), which otherwise only the sampled blocks would stand for.
  for (const SiteStats &s : sites)
    if (s.sparseExecs && s.lowest < s.highest && s.lowest < end && s.highest > base) {
      uint64_t from = std::max<uintptr_t>(s.lowest, base);
      uint64_t to = std::min<uintptr_t>(s.highest, end);
      spans.push_back({from, to, std::min(32 * sparseSiteSectors(s, 1), double(to - from))});
    }
  if (spans.empty())
    return spans;
  std::sort(spans.begin(), spans.end(),
            [](const AddressSpan &a, const AddressSpan &b) { return a.lo < b.lo; });
  // Overlapping spans join (their bytes no more than the joined span); then, past
  // `maxSpans`, those with the smallest gaps between them.
  std::vector<double> gaps;
  for (size_t i = 1; i < spans.size(); ++i)
    gaps.push_back(double(spans[i].lo) - double(spans[i - 1].hi));
  double joinBelow = 0;
  if (spans.size() > maxSpans) {
    std::nth_element(gaps.begin(), gaps.begin() + ptrdiff_t(spans.size() - maxSpans - 1),
                     gaps.end());
    joinBelow = gaps[spans.size() - maxSpans - 1];
  }
  std::vector<AddressSpan> joined{spans.front()};
  for (size_t i = 1; i < spans.size(); ++i) {
    AddressSpan &back = joined.back();
    double gap = double(spans[i].lo) - double(back.hi);
    if (gap <= 0 || (gap <= joinBelow && joined.size() + spans.size() - i > maxSpans)) {
      back.hi = std::max(back.hi, spans[i].hi);
      back.bytes = std::min(back.bytes + spans[i].bytes, double(back.hi - back.lo));
    } else {
      joined.push_back(spans[i]);
    }
  }
  return joined;
}

void KernelCounters::merge(const BlockCounters &block) {
  const std::vector<SiteStats> &blockSites = block.sites;
  widenFootprint(block.footprintWords);
  std::lock_guard lock(mutex_);
  for (unsigned c = 0; c < abi::ClassCount; ++c)
    classes[c] += block.classes[c];
  chainThreads += block.threadChain;
  block.addLightCounts(classes, sites, chainThreads);
  for (size_t i = 0; i < blockSites.size() && i < sites.size(); ++i) {
    SiteStats &s = sites[i];
    const SiteStats &b = blockSites[i];
    s.info |= b.info;
    s.globalExecs += b.globalExecs, s.sharedExecs += b.sharedExecs;
    s.lowest = std::min(s.lowest, b.lowest), s.highest = std::max(s.highest, b.highest);
    s.sparseExecs += b.sparseExecs, s.sparseSpanSectors += b.sparseSpanSectors;
  }
  if (!block.sampling)
    return; // a light block measures nothing only sampled blocks do
  SampledPart part;
  part.add(block);
  addSampled(part);
  if (!memoKey_.empty())
    recorded_.add(block);
}

void KernelCounters::addSampled(const SampledPart &p) {
  for (const auto &[index, site] : p.sites)
    if (index < sites.size())
      addSampledFields(sites[index], site);
  for (unsigned c = 0; c < abi::ClassCount; ++c) {
    sampledWarpClasses[c] += p.warpClasses[c];
    sampledThreadClasses[c] += p.threadClasses[c];
  }
  sampledWarpChain += p.warpChain, sampledThreadChain += p.threadChain;
  sampledBlockLongestChains += p.blockLongestChains;
  sampledLongestWarpChain = std::max(sampledLongestWarpChain, p.longestWarpChain);
  sampledChainBlocks += p.chainBlocks, sampledChainWarps += p.chainWarps;
  sampledUniqueSectors += p.uniqueSectors, sampledSectorAccesses += p.sectorAccesses;
  sampledTracedBlocks += p.tracedBlocks;
  sampledStoreSectors += p.storeSectors;
  sampledPartialStoreSectors += p.partialStoreSectors;
  for (uintptr_t a : p.atomics)
    if (auto at = atomicAddresses_.find(a); at != atomicAddresses_.end())
      ++at->second;
    else if (atomicAddresses_.size() < 1u << 16)
      atomicAddresses_.emplace(a, 1);
}

void addSampledFields(SiteStats &s, const SiteStats &b) {
  s.globalWarps += b.globalWarps, s.globalLanes += b.globalLanes, s.sectors += b.sectors;
  s.lines += b.lines, s.scatteredLines += b.scatteredLines;
  s.addressRequests += b.addressRequests;
  s.sameAddressLanes += b.sameAddressLanes;
  s.sharedWarps += b.sharedWarps, s.sharedLanes += b.sharedLanes;
  s.wavefronts += b.wavefronts;
  s.sharedCasRounds += b.sharedCasRounds;
  s.sharedCasBlockSamples += b.sharedCasBlockSamples;
  s.sharedCasBlockWords += b.sharedCasBlockWords;
  s.localExtent = std::max(s.localExtent, b.localExtent);
  s.tracedLanes += b.tracedLanes, s.tracedHits += b.tracedHits;
}

void BlockCounters::addLightCounts(std::array<uint64_t, abi::ClassCount> &classes,
                                   std::vector<SiteStats> &into, double &chainThreads) const {
  if (sampling || !table_ || lightBlockCounts.size() < blockCount)
    return; // a sampled block's variant counts classes and sites itself
  const uint64_t *runs = lightBlockCounts.data();
  for (uint32_t bb = 0; bb < blockCount; ++bb)
    if (uint64_t n = runs[bb]) {
      const uint32_t *row = &table_[size_t(bb) * abi::TableColumns];
      for (unsigned c = 0; c < abi::ClassCount; ++c)
        classes[c] += n * row[c];
      chainThreads += double(n) * row[abi::ChainColumn];
    }
  for (size_t i = 0; siteBlocks_ && i < into.size(); ++i)
    if (uint32_t bb = siteBlocks_[i]; bb && bb <= blockCount && runs[bb - 1]) {
      into[i].sharedExecs += runs[bb - 1];
      into[i].info |= siteInfo_ ? siteInfo_[i] : 0;
    }
}

size_t KernelCounters::distinctAtomicUnits(double unitBytes) const {
  std::unordered_set<uintptr_t> units;
  uintptr_t unit = std::max<uintptr_t>(1, uintptr_t(unitBytes));
  for (const auto &entry : atomicAddresses_)
    units.insert(entry.first / unit);
  return units.size();
}

double KernelCounters::busiestAtomicUnitShare(double unitBytes) const {
  std::unordered_map<uintptr_t, uint64_t> units;
  uintptr_t unit = std::max<uintptr_t>(1, uintptr_t(unitBytes));
  uint64_t total = 0, busiest = 0;
  for (const auto &[address, count] : atomicAddresses_) {
    total += count;
    busiest = std::max(busiest, units[address / unit] += count);
  }
  // The busiest of equally loaded units exceeds their mean by a standard deviation or so.
  return total ? std::max(0.0, double(busiest) - std::sqrt(double(busiest))) / double(total) : 0;
}

void BlockCounters::begin(const GridLaunch &launch, uint64_t linearBlock, const char *shared,
                          uint64_t sharedBytes, bool canSample) {
  std::fill(std::begin(classes), std::end(classes), 0);
  footprintWords[0] = ~uint64_t(0), footprintWords[1] = 0;
  kernel = launch.counters;
  kernel->joined();
  sharedBase = uintptr_t(shared);
  sharedSize = sharedBytes;
  threads = uint32_t(launch.block.count());
  warpSize = uint32_t(launch.warpSize);
  size_t n = kernel->sites.size();
  sites.assign(n, SiteStats());
  atomics.clear();
  sampling = canSample && kernel->sampleBlock(linearBlock);
  blockCount = launch.kernel->timingBlocks;
  table_ = launch.kernel->timingBlockTable;
  siteInfo_ = launch.kernel->timingSiteInfo;
  siteBlocks_ = launch.kernel->timingSiteBlocks;
  // A module's sites are numbered together; a kernel's (with what it calls) are one range.
  // Without one recorded, all of them.
  bool ranged = launch.kernel->timingEndSite != 0;
  siteFirst_ = ranged ? launch.kernel->timingFirstSite : 0;
  siteEnd_ = uint32_t(std::min<size_t>(ranged ? launch.kernel->timingEndSite : n, n));
  warpClasses.fill(0);
  threadClasses.fill(0);
  warpChain = threadChain = longestWarpChain = 0;
  chainWarps = 0;
  uniqueSectors = sectorAccesses = 0;
  storeSectors = partialStoreSectors = 0;
  if (sampling) {
    // Folding clears every sample and count it reads: after a block that ended normally
    // (samplesClean_) the arrays are already zero.
    // Only the kernel's own sites are recorded (a module's sites are numbered together).
    sampledFirst = siteFirst_, sampledCount = siteEnd_ - siteFirst_;
    const size_t m = sampledCount;
    if (!samplesClean_ || instance.size() != size_t(threads) * m ||
        samples.size() != m * Samples * threads) {
      instance.assign(size_t(threads) * m, 0);
      samples.assign(m * Samples * threads, 0);
    }
    samplesClean_ = false;
    dirtySites.clear();
    siteDirty.assign(n, 0);
    untraced.assign(n, 0);
    storeCover.clear();
    epoch_ = 0, epochStride_ = 1, sampledAtStride_ = 0, epochSampled_ = true;
    windowStart_ = 0, windowLength_ = 1, windowPick_ = 0;
    threadBlockCounts.assign(size_t(threads) * blockCount, 0);
    sectorTrace.clear();
    sectorTrace.reserve(TraceLimit); // the hook never allocates (it may run on a fiber)
    traceSites.clear();
    traceSites.reserve(TraceLimit);
  } else {
    lightBlockCounts.assign(std::max<size_t>(blockCount, 1), 0);
  }
  if (accum.size() != n) {
    accum.assign(n, SiteAccum{0, 0, ~uint64_t(0), 0});
  }
}

namespace {
uint32_t hash_u32(uint32_t x) { // a 32-bit integer mix (splitmix-like)
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  return x ^ (x >> 16);
}

/// Sorts one warp's addresses, which lanes usually give in order already.
void sortLanes(std::vector<uint64_t> &values) {
  if (!std::is_sorted(values.begin(), values.end()))
    std::sort(values.begin(), values.end());
}

/// Distinct 32-byte sectors touched by one warp access; leaves `scratch` sorted and distinct
/// (warpLines reads it next).
uint64_t warpSectors(std::vector<uint64_t> &scratch) {
  sortLanes(scratch);
  scratch.erase(std::unique(scratch.begin(), scratch.end()), scratch.end());
  return uint64_t(scratch.size());
}

/// Distinct 128-byte lines among a warp access's sorted, distinct sectors: the requests L2
/// serves.
uint64_t warpLines(const std::vector<uint64_t> &sectors) {
  uint64_t lines = 0, previous = ~uint64_t(0);
  for (uint64_t s : sectors)
    if (s / 4 != previous)
      ++lines, previous = s / 4;
  return lines;
}

/// The most lanes of a warp access on one 4-byte word (sorts `words`): the rounds a
/// compare-and-swap loop on shared memory takes, one lane per word winning each round.
uint64_t busiestWordLanes(std::vector<uint64_t> &words) {
  sortLanes(words);
  uint64_t most = 0, run = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    run = i > 0 && words[i] == words[i - 1] ? run + 1 : 1;
    most = std::max(most, run);
  }
  return most;
}

/// Shared-memory wavefronts of one warp access: the most distinct 4-byte words any one of
/// the 32 banks must serve (lanes reading the same word share it).
uint64_t warpWavefronts(std::vector<uint64_t> &words) {
  sortLanes(words);
  words.erase(std::unique(words.begin(), words.end()), words.end());
  unsigned perBank[32] = {};
  unsigned most = 0;
  for (uint64_t w : words)
    most = std::max(most, ++perBank[w % 32]);
  return most;
}
} // namespace

/// The lines of a warp access (sorted, distinct sectors) that scatter over DRAM pages: none
/// unless it spans at least four lines and more pages than half its lines (a gather, a walk
/// down a column, a row per lane). A coalesced access, or a strided one whose lines share a
/// page or two, is a stream the DRAM serves from open pages. Pages of 1 KB: an HBM3
/// pseudo-channel's, and the smallest DDR/GDDR row slice (an estimate: the address
/// interleaving across channels is not published).
uint64_t scatteredLines(const std::vector<uint64_t> &sectors, uint64_t lines) {
  constexpr uint64_t PageSectors = 1024 / 32;
  if (lines < 4)
    return 0;
  uint64_t pages = 0, previous = ~uint64_t(0);
  for (uint64_t s : sectors)
    if (s / PageSectors != previous)
      ++pages, previous = s / PageSectors;
  return 2 * pages > lines ? lines : 0;
}

uint64_t sameAddressLanes(std::vector<uint64_t> &addresses, bool combined) {
  if (addresses.empty())
    return 0;
  sortLanes(addresses);
  if (combined && addresses.front() == addresses.back())
    return 0;
  uint64_t extra = 0, run = 0, busiest = 0;
  for (size_t i = 0; i < addresses.size(); ++i) {
    run = i > 0 && addresses[i] == addresses[i - 1] ? run + 1 : 1;
    busiest = std::max(busiest, run);
    bool sectorEnds = i + 1 == addresses.size() || addresses[i + 1] / 32 != addresses[i] / 32;
    if (sectorEnds)
      extra += busiest - 1, busiest = 0;
  }
  return extra;
}

void BlockCounters::foldSamples() {
  // A sampled epoch stands for the epochs of its window: every epoch is sampled (windows of
  // one) until EpochsPerStride have been, then one in each window of two, of four, ... (a
  // block with hundreds of barriers records a bounded number of epochs), at a place in the
  // window drawn from a hash of where it starts, so that a pattern that repeats every few
  // barriers (a sorting network's partner distances) is not always caught at one phase.
  const uint64_t window = windowLength_;
  std::vector<uint64_t> &global = scratch_[0], &shared = scratch_[1];
  std::vector<uint64_t> &warpAtomics = scratch_[2], &blockWords = scratch_[3];
  const uint32_t warps = (threads + warpSize - 1) / warpSize;
  for (uint32_t site : dirtySites) {
    SiteStats &s = sites[site];
    uint32_t size = std::max<uint32_t>(1, s.info & 0xffff);
    const bool sharedCas = (s.info & abi::AccessFloatAtomic) != 0;
    const bool coverStores = (s.info & abi::AccessStore) &&
                             !(s.info & (abi::AccessAtomic | abi::AccessLocal));
    // A warp runs the site as often as its busiest lane (the block: its busiest thread).
    const size_t local = site - sampledFirst; // hooks record only the kernel's sites
    const uint32_t *runs = &instance[local * threads];
    warpRuns_.assign(warps, 0);
    for (uint32_t t = 0; t < threads; ++t)
      warpRuns_[t / warpSize] = std::max(warpRuns_[t / warpSize], runs[t]);
    const uint32_t blockRuns = *std::max_element(warpRuns_.begin(), warpRuns_.end());
    // What slot k stands for among `n` runs: executions 2^k - 1 to 2^(k+1) - 2 (the last
    // slot: all from 2^k - 1 on), times the epoch's window.
    auto weight = [&](unsigned k, uint32_t n) -> uint64_t {
      uint64_t first = (uint64_t(1) << k) - 1;
      if (n <= first)
        return 0;
      uint64_t covered = n - first;
      return window * (k + 1 < Samples ? std::min<uint64_t>(covered, first + 1) : covered);
    };
    for (unsigned k = 0, rows = siteDirty[site]; k < rows; ++k) {
      uintptr_t *row = &samples[(local * Samples + k) * threads];
      blockWords.clear();
      for (uint32_t first = 0; first < threads; first += warpSize) {
        const uint64_t w = weight(k, warpRuns_[first / warpSize]);
        global.clear(), shared.clear(), warpAtomics.clear();
        for (uint32_t t = first; t < std::min(threads, first + warpSize); ++t) {
          if (!row[t])
            continue;
          uintptr_t a = row[t] - 1;
          row[t] = 0;
          if (a - sharedBase < sharedSize) {
            for (uintptr_t word = a / 4; word <= (a + size - 1) / 4; ++word)
              shared.push_back(word);
            s.sharedLanes += w;
            continue;
          }
          for (uintptr_t sec = a / 32; sec <= (a + size - 1) / 32; ++sec)
            global.push_back(sec);
          s.globalLanes += w;
          if (s.info & abi::AccessAtomic)
            atomics.push_back(a), warpAtomics.push_back(a);
          else if (s.info & abi::AccessConstant)
            warpAtomics.push_back(a); // distinct addresses, as for atomics
          if (coverStores && storeCover.size() < TraceLimit)
            for (uintptr_t b = a, end = a + size; b < end;) {
              uintptr_t next = std::min<uintptr_t>(end, (b / 32 + 1) * 32);
              uint32_t bits = next - b == 32 ? ~0u : ((1u << (next - b)) - 1) << (b % 32);
              storeCover.push_back({site, bits, b / 32});
              b = next;
            }
        }
        if (!warpAtomics.empty()) {
          if (s.info & abi::AccessAtomic)
            s.sameAddressLanes +=
                w * sameAddressLanes(warpAtomics, (s.info & abi::AccessCombinedAtomic) != 0);
          s.addressRequests += w * warpSectors(warpAtomics); // distinct addresses
        }
        if (!global.empty()) {
          s.globalWarps += w, s.sectors += w * warpSectors(global);
          uint64_t lines = warpLines(global);
          s.lines += w * lines;
          s.scatteredLines += w * scatteredLines(global, lines);
        }
        if (!shared.empty()) {
          if (sharedCas) {
            blockWords.insert(blockWords.end(), shared.begin(), shared.end());
            s.sharedCasRounds += w * busiestWordLanes(shared);
          }
          s.sharedWarps += w, s.wavefronts += w * warpWavefronts(shared);
        }
      }
      if (!blockWords.empty()) {
        const uint64_t w = weight(k, blockRuns);
        std::sort(blockWords.begin(), blockWords.end());
        s.sharedCasBlockSamples += w;
        s.sharedCasBlockWords +=
            w * uint64_t(std::unique(blockWords.begin(), blockWords.end()) - blockWords.begin());
      }
    }
    std::fill_n(instance.begin() + local * threads, threads, 0);
    siteDirty[site] = 0;
  }
  dirtySites.clear();
  if (epochSampled_ && ++sampledAtStride_ == EpochsPerStride)
    epochStride_ *= 2, sampledAtStride_ = 0;
  if (++epoch_ == windowStart_ + windowLength_) {
    windowStart_ = epoch_, windowLength_ = epochStride_;
    windowPick_ = hash_u32(epoch_ * 0x9e3779b9u) % windowLength_;
  }
  epochSampled_ = epoch_ - windowStart_ == windowPick_;
}

void BlockCounters::end() {
  if (sampling) {
    foldSamples();
    samplesClean_ = true;
    countDivergence();
    measureReuse();
    measurePartialStores();
  }
  flushFootprint();
  kernel->merge(*this);
}

void BlockCounters::countDivergence() {
  // A warp issues a basic block once per execution by its busiest lane; its threads execute
  // it once each.
  const uint32_t *table = table_;
  for (uint32_t first = 0; first < threads; first += warpSize) {
    uint32_t last = std::min(threads, first + warpSize);
    double chain = 0;
    for (uint32_t bb = 0; bb < blockCount; ++bb) {
      uint32_t most = 0;
      uint64_t sum = 0;
      for (uint32_t t = first; t < last; ++t) {
        uint32_t n = threadBlockCounts[size_t(t) * blockCount + bb];
        most = std::max(most, n);
        sum += n;
      }
      if (!sum)
        continue;
      const uint32_t *row = &table[size_t(bb) * abi::TableColumns];
      for (unsigned c = 0; c < abi::ClassCount; ++c) {
        warpClasses[c] += double(most) * row[c];
        threadClasses[c] += double(sum) * row[c];
      }
      chain += double(most) * row[abi::ChainColumn];
      threadChain += double(sum) * row[abi::ChainColumn];
    }
    warpChain += chain;
    longestWarpChain = std::max(longestWarpChain, chain);
    ++chainWarps;
  }
}

void BlockCounters::measurePartialStores() {
  // Per global sector the block's stores wrote, the bytes they covered. Only sites every
  // execution of which was traced (at most Samples a thread in each barrier epoch): a loop's
  // later stores would complete sectors the trace shows in part.
  std::unordered_map<uint64_t, uint32_t> covered;
  for (const StoreCover &c : storeCover)
    if (!untraced[c.site] && sites[c.site].globalExecs)
      covered[c.sector] |= c.bits;
  storeSectors = covered.size();
  for (const auto &[sector, bits] : covered)
    partialStoreSectors += bits != ~0u;
}

void BlockCounters::measureReuse() {
  // The block's warp-coalesced global sector traffic, estimated from each site's samples,
  // set against the distinct sectors its first accesses touched (the trace).
  double coalesced = 0, accesses = 0;
  for (const SiteStats &s : sites) {
    if (!s.globalExecs || (s.info & (abi::AccessAtomic | abi::AccessStore | abi::AccessLocal)) ||
        !s.globalLanes)
      continue; // L1 caches loads only; stores and atomics go through to L2 (local memory:
                // the model sets the frames against L1 itself)
    coalesced += double(s.globalExecs) * double(s.sectors) / double(s.globalLanes);
    accesses += double(s.globalExecs);
  }
  if (sectorTrace.empty() || accesses == 0)
    return;
  size_t traced = sectorTrace.size();
  // The trace in order: an access whose sector the block touched before is a hit, capacity
  // aside (the model sets the block's distinct sectors against L1); the first touch is its
  // site's miss. A bitmap over the trace's range where that is at most 64 times its length,
  // as a block's trace mostly is (tiles, rows, columns); else sorted by sector, then order.
  auto [low, high] = std::minmax_element(sectorTrace.begin(), sectorTrace.end());
  const uint64_t first = *low, span = *high - *low + 1;
  uint64_t distinct = 0;
  auto hit = [&](size_t i, bool seen) {
    SiteStats &s = sites[traceSites[i]];
    ++s.tracedLanes;
    s.tracedHits += seen;
    distinct += !seen;
  };
  if (span / 64 <= traced) {
    std::vector<uint64_t> bits((span + 63) / 64, 0);
    for (size_t i = 0; i < traced; ++i) {
      uint64_t v = sectorTrace[i] - first, bit = uint64_t(1) << (v % 64);
      hit(i, bits[v / 64] & bit);
      bits[v / 64] |= bit;
    }
  } else {
    std::vector<uint32_t> order(traced);
    for (size_t i = 0; i < traced; ++i)
      order[i] = uint32_t(i);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return sectorTrace[a] != sectorTrace[b] ? sectorTrace[a] < sectorTrace[b] : a < b;
    });
    for (size_t k = 0; k < traced; ++k)
      hit(order[k], k > 0 && sectorTrace[order[k]] == sectorTrace[order[k - 1]]);
  }
  uniqueSectors = distinct;
  sectorAccesses = uint64_t(coalesced * double(traced) / accesses + 0.5);
}

} // namespace musa::sim

// ---------------------------------------------------------------------------------------
// Builtins that instrumented code calls

using musa::sim::BlockCounters;

extern "C" void __musa_sim_mem(const void *address, uint32_t info, uint32_t site,
                               musa::sim::ThreadContext *ctx) {
  auto *b = reinterpret_cast<BlockCounters *>(ctx->counters);
  if (site >= b->sites.size())
    return;
  uintptr_t a = uintptr_t(address);
  musa::sim::SiteStats &s = b->sites[site];
  s.info = info;
  uint32_t t = ctx->tid[0] + ctx->ntid[0] * (ctx->tid[1] + ctx->ntid[1] * ctx->tid[2]);
  if (info & musa::sim::abi::AccessLocal) {
    // `address` is the byte offset in the thread's frame: placed as a GPU interleaves local
    // memory, for the warp's coalescing. Its footprint is the frames (the model's), not
    // device memory.
    ++s.globalExecs;
    s.localExtent = std::max<uint64_t>(s.localExtent, a + (info & 0xffff));
    a = musa::sim::abi::localAddress(a, t / b->warpSize, t % b->warpSize, b->warpSize);
  } else if (a - b->sharedBase < b->sharedSize) {
    ++s.sharedExecs;
  } else {
    ++s.globalExecs;
    s.lowest = std::min<uint64_t>(s.lowest, a);
    s.highest = std::max<uint64_t>(s.highest, a + (info & 0xffff)); // as SiteAccum keeps it
    // Neighbouring threads mostly touch the sector this site touched last: skip the bitmap.
    uint32_t size = info & 0xffff;
    if (a / 32 != s.lastSector || (a + size - 1) / 32 != s.lastSector) {
      b->kernel->touch(a, size,
                       info & (musa::sim::abi::AccessStore | musa::sim::abi::AccessAtomic),
                       b->footprintWords);
      s.lastSector = a / 32;
    }
    if (b->sampling && !(info & (musa::sim::abi::AccessAtomic | musa::sim::abi::AccessStore)) &&
        b->sectorTrace.size() < BlockCounters::TraceLimit) {
      b->sectorTrace.push_back(a / 32);
      b->traceSites.push_back(site);
    }
  }
  if (b->sampling) {
    if (!b->epochSampled()) {
      b->untraced[site] = 1; // a store's sectors are no longer all traced
      return;
    }
    const size_t local = site - b->sampledFirst;
    if (local >= b->sampledCount) // not the kernel's site: never expected
      return;
    uint32_t e = b->instance[local * b->threads + t]++;
    if (e >= musa::sim::abi::SampledInstances)
      b->untraced[site] = 1; // execution 2 is never recorded
    if (unsigned k = BlockCounters::sampleSlot(e); k < BlockCounters::Samples) {
      b->samples[(local * BlockCounters::Samples + k) * b->threads + t] = a + 1;
      uint8_t &rows = b->siteDirty[site];
      if (!rows)
        b->dirtySites.push_back(site);
      rows = std::max<uint8_t>(rows, uint8_t(k + 1));
    }
  }
}
