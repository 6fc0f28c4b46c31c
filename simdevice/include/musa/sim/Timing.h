// Timing: the virtual GPU's simulated clock and its cycle-approximate timing model.
//
// Two modes (MUSA_SIM_TIMING): "model" (default) and "wall". Under the model, kernels are
// compiled with InstrumentTimingPass counters; every stream operation gets a simulated start
// and end on a per-stream Timeline, placed on the device's engines (DeviceClock); events
// stamp simulated time. "wall" compiles kernels without counters and stamps host time, for
// people who want to time the simulator itself. simdevice/TIMING.md documents the model.
#pragma once

#include "musa/sim/DeviceProfile.h"
#include "musa/sim/GridLauncher.h"
#include "musa/sim/KernelAbi.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <limits>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace musa::sim {

/// True unless MUSA_SIM_TIMING=wall (read once).
bool timingModelOn();

// ---------------------------------------------------------------------------------------
// Simulated time of stream operations

/// Where an in-order sequence of operations (a stream, or one graph node) stands in
/// simulated time: the end of its latest operation, in nanoseconds since the process began.
/// Atomic because a stream's operation may read another stream's timeline (legacy-stream
/// ordering) while that stream's own operation advances it.
struct Timeline {
  std::atomic<double> readyNs{0};
  /// The earliest start of the next kernel: an event record holds the GPU's front end for
  /// event_record_us after its stamp (hidden behind the host's launch call when the GPU was
  /// idle; a kernel queued behind it waits).
  std::atomic<double> kernelFloorNs{0};
  /// How long after the host issued the running operation the work ahead of it on this
  /// timeline ended: more than 0 when it was queued (its start is the timeline's, not the
  /// host's), and the part of its start-up that overlapped that work. And the engine the
  /// latest operation ran on (-1: none yet).
  std::atomic<double> aheadNs{0};
  std::atomic<int> lastEngine{-1};
};

/// The timeline of the operation running on this host thread (null outside operations).
Timeline *currentTimeline();

/// Makes `timeline` current on this host thread for the scope's lifetime.
class TimelineScope {
public:
  explicit TimelineScope(Timeline *timeline);
  ~TimelineScope();
  TimelineScope(const TimelineScope &) = delete;
  TimelineScope &operator=(const TimelineScope &) = delete;

private:
  Timeline *previous_;
};

/// The engines of one device: operations on a copy engine never overlap in simulated time;
/// operations on different engines do. With two or more copy engines host-to-device and
/// device-to-host copies each have one; with one they share it; with none copies use the
/// compute engine. The compute engine is the GPU's SMs: an operation takes a share of them
/// (a kernel whose grid fills fewer block slots than the GPU has takes that fraction), and
/// operations of other streams run beside it while the shares fit (concurrent kernels; the
/// H200 runs four streams of small kernels 3.4x faster than one: timing_workloads.mu).
enum class Engine { Compute, CopyIn, CopyOut };

class DeviceClock {
public:
  explicit DeviceClock(int asyncEngineCount) : copyEngines_(asyncEngineCount) {}
  /// Places an operation that may start at `readyNs`, lasts `durationNs` and takes `share`
  /// (0-1] of its engine: it starts at the first time from `readyNs` on at which the share is
  /// free for its whole duration (copy engines: share 1, so the first gap that holds it).
  /// Returns the end time.
  double place(Engine engine, double readyNs, double durationNs, double *startNs = nullptr,
               double share = 1);

private:
  struct Busy {
    double start, end, share;
  };
  int slot(Engine engine) const;
  double place(int slot, double readyNs, double durationNs, double share);
  std::mutex mutex_;
  // Each engine (compute, copies in, copies out): its recent operations (at most kHistory;
  // older ones only hold back later operations through floor_).
  static constexpr size_t kHistory = 256;
  std::vector<Busy> busy_[3];
  double floor_[3] = {0, 0, 0};
  int copyEngines_;
};

/// Advances the current timeline (if any) by an operation on `engine` taking `share` of it;
/// returns its start.
double chargeCurrent(DeviceClock &clock, Engine engine, double durationNs, double share = 1);

/// Simulated duration of a copy of `bytes`: latency plus bytes over the link's bandwidth. A
/// pitched copy of `rows` rows (rows > 1: musaMemcpy2D/3D and their async and graph forms,
/// whatever the pitches) goes row by row, as hardware does even when the rows are contiguous:
/// its own start-up, then the slower of the bytes at copy_2d_bandwidth_gbs (and the link's
/// rate) and copy_2d_row_ns per row.
/// A pinned host copy queued behind its timeline's previous operation (CopyQueue::SameEngine,
/// ::OtherEngine) starts at copy_queued_us or copy_switch_us instead of copy_latency_us; a
/// copy node of a graph (::GraphNode) at copy_queued_us, or for a device-to-device copy the
/// device-side part of a launch (kernel_launch_us less the host's share).
enum class CopyRoute { HostToDevicePinned, HostToDevicePageable, DeviceToHostPinned,
                       DeviceToHostPageable, DeviceToDevice, Peer, HostToHost };
enum class CopyQueue { Idle, SameEngine, OtherEngine, GraphNode };
/// `aheadNs`: how long the work ahead ran on after the host issued the copy; a queued copy's
/// start-up is at least copy_latency_us less that (by default, all of it overlapped).
double copyNs(const DeviceProfile &profile, CopyRoute route, uint64_t bytes, uint64_t rows = 1,
              CopyQueue queue = CopyQueue::Idle,
              double aheadNs = std::numeric_limits<double>::infinity());
/// Simulated duration of a device memset of `bytes` in `rows` rows (more than one: pitched,
/// with gaps between them): up to memset_inline_bytes, memset_latency_us and the bytes at the
/// memory's read-stream rate; beyond, a kernel: kernel_launch_us (only its device-side part
/// when queued behind work that ran on for `aheadNs` after the host issued it, no less than
/// kernel_launch_us less that) before the bytes, at least memset_kernel_us.
double memsetNs(const DeviceProfile &profile, uint64_t bytes, uint64_t rows = 1,
                double aheadNs = 0);
Engine engineFor(CopyRoute route);

// ---------------------------------------------------------------------------------------
// Kernel counters (filled by instrumented code through the executor)

/// Per memory-access site of a kernel: thread-level executions and sampled warp accesses.
/// A stretch [lo, hi) of device addresses and the bytes an operation touched in it.
struct AddressSpan {
  uint64_t lo, hi;
  double bytes;
};

struct SiteStats {
  uint32_t info = 0; // abi::Access* flags, size and load group
  uintptr_t lastSector = ~uintptr_t(0); // while a block runs: the sector it touched last
  // A worker's light blocks: the dense byte range [pendingLo, pendingEnd) of global accesses
  // not yet marked in the footprint (BlockCounters::addFootprint); empty when pendingEnd is 0.
  uint64_t pendingLo = 0, pendingEnd = 0;
  uint64_t globalExecs = 0, sharedExecs = 0;
  uint64_t globalWarps = 0, globalLanes = 0, sectors = 0;  // sampled global warp accesses
  uint64_t lines = 0;                                      // their 128-byte lines
  // Of those lines, the ones in warp accesses that scatter over DRAM pages (scatteredLines
  // in KernelCounters.cpp: a gather, a walk down a column).
  uint64_t scatteredLines = 0;
  // Atomics and constant loads: the distinct addresses of those warp accesses (an atomic's
  // lanes at one address make one request: the compiler and the memory system combine them;
  // the constant cache serves one address at a time).
  uint64_t addressRequests = 0;
  // Atomics: per sampled warp access, the lanes beyond the first on the busiest address of
  // each sector it touches (L2 applies those one after another). None when every lane is on
  // one address: the compiler combines such a warp's atomics into one.
  uint64_t sameAddressLanes = 0;
  // The lowest global address the site touched in the launch and the highest plus the access
  // size (how many distinct
  // addresses it can have reached: a contended compare-and-swap's contenders).
  uint64_t lowest = ~uint64_t(0), highest = 0;
  uint64_t sharedWarps = 0, sharedLanes = 0, wavefronts = 0; // sampled shared warp accesses
  // Floating-point atomics on shared memory (abi::AccessFloatAtomic), a compare-and-swap loop
  // on a GPU: per sampled warp access the rounds it takes (lanes on its busiest word); per
  // sampled execution of the site by a whole block, the distinct words its lanes add to (one
  // word's adds serialise), and how many such executions were sampled.
  uint64_t sharedCasRounds = 0, sharedCasBlockSamples = 0, sharedCasBlockWords = 0;
  // Light counters: global executions in blocks whose addresses were too spread out to count
  // as a dense range, and the sectors those ranges spanned (KernelCounters::sparseSectors).
  uint64_t sparseExecs = 0, sparseSpanSectors = 0;
  // Local memory (abi::AccessLocal): the end of the furthest frame byte sampled threads
  // reached through this site (a thread's frame holds at least that much).
  uint64_t localExtent = 0;
  // Sampled blocks' traces (BlockCounters::measureReuse): the lane accesses of this global
  // load site traced, and of them the ones whose sector the block had touched before (an L1
  // hit, capacity aside); the rest are the site's L1 misses.
  uint64_t tracedLanes = 0, tracedHits = 0;
};

/// Where a launch's `wanted` sampled blocks lie in `grid` (at most KernelCounters'
/// MaxSamples): their linear indices, ascending and distinct, written to `out`; returns how
/// many.
int sampledBlocks(const Dim3 &grid, int wanted, uint64_t *out);

/// What a launch's sampled blocks measured beyond what every block counts: the sampled
/// fields of their sites (addSampledFields) and the sampled totals. Kept for later launches
/// like it (SampleMemo.cpp), which run all their blocks light and take these instead.
struct SampledPart {
  std::vector<std::pair<uint32_t, SiteStats>> sites; // sites with sampled accesses
  std::array<double, abi::ClassCount> warpClasses{}, threadClasses{};
  double warpChain = 0, threadChain = 0;
  /// Per block, its longest warp's chain: summed, and the longest; and the blocks and warps.
  double blockLongestChains = 0, longestWarpChain = 0;
  uint64_t chainBlocks = 0, chainWarps = 0;
  uint64_t uniqueSectors = 0, sectorAccesses = 0, tracedBlocks = 0;
  uint64_t storeSectors = 0, partialStoreSectors = 0;
  std::vector<uintptr_t> atomics;
  /// Adds what one sampled block measured.
  void add(const struct BlockCounters &block);
};

/// Adds the fields of `from` that only sampled blocks fill (warp accesses, sectors, bank
/// wavefronts, local frames) to `into`.
void addSampledFields(SiteStats &into, const SiteStats &from);

/// Everything one launch's instrumented code counted, merged over its blocks.
class KernelCounters {
public:
  /// `memoryBase/Size`: the device heap, whose touched 32-byte sectors are tracked to find
  /// the launch's unique footprint.
  KernelCounters(const GridLaunch &launch, const char *memoryBase, uint64_t memorySize);
  ~KernelCounters();

  /// Marks the sectors of [address, address+size) as read or written (thread-safe).
  /// `bounds` (the lowest and highest bitmap word set) are the caller's own, folded into the
  /// kernel's by merge(): blocks sweeping up the address space would otherwise move one
  /// shared word on every block.
  void touch(uintptr_t address, uint64_t size, bool write, uint64_t bounds[2]);
  /// The same for a caller outside any block: the kernel's bounds widen at once.
  void touch(uintptr_t address, uint64_t size, bool write) {
    uint64_t bounds[2] = {~uint64_t(0), 0};
    touch(address, size, write, bounds);
    widenFootprint(bounds);
  }
  /// Adds one block's counts (thread-safe).
  void merge(const struct BlockCounters &block);
  /// Ordering for ThreadSanitizer, which cannot see oneTBB's own synchronisation: workers
  /// call joined() before touching the counters (pairs with the constructor's release), the
  /// launching thread calls settled() after the grid ran, before reading them.
  void joined() const { (void)published_.load(std::memory_order_acquire); }
  void settled() { std::lock_guard lock(mutex_); }

  std::array<uint64_t, abi::ClassCount> classes{};
  /// Sampled blocks: instructions per class as warps issue them (a basic block costs a warp
  /// once per execution by its busiest lane) and as threads execute them.
  std::array<double, abi::ClassCount> sampledWarpClasses{}, sampledThreadClasses{};
  /// Dependent-chain steps (abi::ChainColumn) of all blocks, counted per thread; and of the
  /// sampled blocks, per warp (busiest lane) and per thread.
  double chainThreads = 0, sampledWarpChain = 0, sampledThreadChain = 0;
  /// Sampled blocks: each block's longest warp chain, summed and the longest of all; the
  /// blocks and warps measured. A latency-bound wave lasts as long as its longest warp.
  double sampledBlockLongestChains = 0, sampledLongestWarpChain = 0;
  uint64_t sampledChainBlocks = 0, sampledChainWarps = 0;
  /// Sampled blocks: distinct global sectors and sector accesses (coalesced per warp) of
  /// their first accesses, for reuse in the multiprocessor's L1.
  uint64_t sampledUniqueSectors = 0, sampledSectorAccesses = 0, sampledTracedBlocks = 0;
  /// Sampled blocks: sectors their stores wrote, and those written only in part.
  uint64_t sampledStoreSectors = 0, sampledPartialStoreSectors = 0;
  std::vector<SiteStats> sites;
  struct FootprintSectors {
    /// Distinct sectors read plus distinct sectors written (each crosses the DRAM bus once).
    uint64_t unique = 0;
    /// The further sectors DRAM sends with those read when it reads `granule` sectors at a
    /// time (its access granularity): per granule with any sector read, the ones not read.
    uint64_t readGranuleExtra = 0;
    /// Of `unique`, the sectors written.
    uint64_t written = 0;
  };
  /// Both from one scan of the footprint bitmaps (`granule` 1: no extra).
  FootprintSectors footprintSectors(unsigned granule = 1) const;
  uint64_t uniqueSectors() const { return footprintSectors().unique; }
  uint64_t untrackedSectors() const { return untracked_.load(); }
  /// Of those, the sectors read (`write` false) or written in pinned or mapped host memory
  /// (GridLaunch::hostMemory): they cross the host link, not the DRAM bus.
  uint64_t hostSectors(bool write) const { return hostSectors_[write ? 1 : 0].load(); }
  /// The stretches of device addresses the launch touched, in address order, for what L2
  /// keeps across launches (L2Residency): the footprint bitmaps' runs in 64 KiB chunks and
  /// the sparse sites' ranges, each with the bytes touched in it; at most `maxSpans`, the
  /// nearest joined first. Empty: nothing tracked.
  std::vector<AddressSpan> footprintSpans(size_t maxSpans = 16) const;
  /// Sectors of the sparse ranges light blocks reported: per site, the fewer of the sectors
  /// spanned and the executions times the sectors a lane's access takes in sampled warps
  /// (read in granules of `granule` sectors: with the rest of each granule its loads touch).
  uint64_t sparseSectors(unsigned granule = 1) const;
  size_t distinctAtomicAddresses() const { return atomicAddresses_.size(); }
  /// The units of `unitBytes` those addresses fall in (atomics in one unit serialise at L2).
  size_t distinctAtomicUnits(double unitBytes) const;
  /// The share of the sampled atomics that the busiest of those units took, less its sampling
  /// noise (a histogram skewed to its low bins keeps one unit busy while the others idle); 0
  /// without samples.
  double busiestAtomicUnitShare(double unitBytes) const;
  /// The most blocks a launch samples.
  static constexpr int MaxSamples = 16;
  /// Blocks are sampled for coalescing and bank conflicts when this says so.
  bool sampleBlock(uint64_t linearBlock) const;
  /// The first block at or after `linearBlock` that is sampled.
  uint64_t nextSampled(uint64_t linearBlock) const {
    const uint64_t *end = sampled_ + samples_;
    const uint64_t *at = std::lower_bound(sampled_, end, linearBlock);
    return at != end ? *at : ~uint64_t(0);
  }
  /// The calling worker's running totals over the launch's blocks that are not sampled (one
  /// per worker thread, so blocks add to them without a lock); flushWorkers() merges them
  /// into these counters once the grid has run. Null on a thread outside the arena's slots.
  struct BlockCounters *workerCounters(const GridLaunch &launch);
  void flushWorkers();
  /// clock64(), __globaltimer() or __nanosleep() in a thread that has run `cycles` since the
  /// launch began (thread-safe): the launch lasts at least the most any thread saw.
  void observeClock(uint64_t cycles) {
    for (uint64_t seen = clockSpan_.load(std::memory_order_relaxed); cycles > seen;)
      if (clockSpan_.compare_exchange_weak(seen, cycles, std::memory_order_relaxed))
        break;
  }
  uint64_t clockSpan() const { return clockSpan_.load(std::memory_order_relaxed); }
  /// Whether this launch samples no block and takes the sampled measurements of an earlier
  /// launch of the same kernel with the same configuration and arguments (SampleMemo.cpp).
  bool reusesSamples() const { return reused_ != nullptr; }
  /// After the grid ran (after settled(), before the estimate): a launch that sampled keeps
  /// what its sampled blocks measured for launches like it; one that reuses adds the kept
  /// measurements to its counters, and notes whether its instruction counts still match.
  void finishSampling();

private:
  void widenFootprint(const uint64_t bounds[2]);
  /// Adds what sampled blocks measured (one just merged, or an earlier launch's kept part).
  void addSampled(const SampledPart &part);
  // Footprint bitmaps (one bit per 32-byte sector of [base_, base_+size_)), one for reads and
  // one for writes: zeroed memory kept from launch to launch (Timing.cpp's BitmapPool), of
  // which only the pages kernels touch are ever materialised; the lowest and highest words
  // set bound the count and what is cleared afterwards. Accessed only with __atomic builtins in
  // functions ThreadSanitizer does not instrument: GPU threads run on fibers, where TSan's
  // bookkeeping for atomics is not reliable, and the bitmap only feeds an estimate.
  const char *base_;
  uint64_t size_;
  uint64_t words_;
  uint64_t *bits_[2] = {nullptr, nullptr};
  uint64_t bitsCapacity_[2] = {0, 0}; // words each bitmap has (at least words_)
  uint64_t lowWord_ = ~uint64_t(0), highWord_ = 0;
  std::atomic<uint64_t> untracked_{0};
  std::atomic<uint64_t> hostSectors_[2] = {0, 0};
  bool (*hostMemory_)(const void *p) = nullptr; // GridLaunch::hostMemory
  std::atomic<uint64_t> clockSpan_{0}; // see observeClock
  std::atomic<bool> published_{false};
  uint64_t sampled_[MaxSamples] = {}; // the sampled blocks' linear indices, ascending
  int samples_ = 0;
  std::mutex mutex_;
  std::unordered_map<uintptr_t, uint64_t> atomicAddresses_; // sampled lanes' atomics at each
  std::vector<std::unique_ptr<struct BlockCounters>> workers_; // by arena thread index
  std::string memoKey_;                       // empty: launches like it are not remembered
  std::shared_ptr<const SampledPart> reused_; // the measurements this launch takes
  SampledPart recorded_;                      // what this launch's sampled blocks measured
};

/// The lanes of one atomic warp access (its lanes' addresses) that L2 applies after another
/// lane's operation on the same address: for each 32-byte sector, the lanes on its busiest
/// address less one. Zero when all lanes share one address of a `combined` atomic (the
/// compiler made it one atomic a warp, abi::AccessCombinedAtomic). Sorts `addresses`.
/// (SiteStats::sameAddressLanes sums it over sampled warps.)
uint64_t sameAddressLanes(std::vector<uint64_t> &addresses, bool combined);

/// The lines of one warp access (its sorted, distinct 32-byte sector indices, spanning
/// `lines` 128-byte lines) that scatter over 1 KB DRAM pages: all of them when it spans at
/// least four lines and more pages than half its lines, else none. (SiteStats::scatteredLines
/// sums it over sampled warps.)
uint64_t scatteredLines(const std::vector<uint64_t> &sectors, uint64_t lines);

/// The executor's view of one running block while a launch is counted.
struct BlockCounters {
  uint64_t classes[abi::ClassCount] = {}; // first: generated code adds here
  KernelCounters *kernel = nullptr;
  uintptr_t sharedBase = 0;
  uint64_t sharedSize = 0;
  uint32_t threads = 0, warpSize = 32;
  bool sampling = false;
  std::vector<SiteStats> sites;
  // Sampling: a site's executions by each thread in each barrier epoch (the stretch between
  // two releases of a block barrier) are recorded at indices 0, 1, 3, 7, ... (2^k - 1, one
  // slot each, `Samples` of them), and folded into warp accesses when the epoch ends, slot k
  // standing for the 2^k executions from its index on (the last for all the rest): a loop
  // whose accesses change with its trip (a binary search narrowing, a triangular loop whose
  // lanes drop out) is seen along its whole run, not in its first two trips. Lanes are
  // grouped by execution within the epoch, so that a wavefront whose lanes first reach a
  // site in different iterations (each iteration between barriers) is seen as the
  // iterations' warps, not as each lane's first iteration.
  // Indexed by the site's place among the kernel's sites (site - sampledFirst).
  std::vector<uint32_t> instance;  // [site * threads + thread] executions seen this epoch
  std::vector<uintptr_t> samples;  // [(site * Samples + k) * threads + thread] + 1
  uint32_t sampledFirst = 0, sampledCount = 0; // the kernel's sites
  std::vector<uint32_t> dirtySites; // sites with samples this epoch
  std::vector<uint8_t> siteDirty;   // [site]: in dirtySites, with samples in rows [0, this)
  std::vector<uint8_t> untraced;    // [site]: some global execution went unrecorded
  struct StoreCover {
    uint32_t site;
    uint32_t bits; // the bytes of the sector written
    uint64_t sector;
  };
  std::vector<StoreCover> storeCover; // traced global stores' bytes, for measurePartialStores
  std::vector<uintptr_t> atomics;  // sampled atomic addresses
  std::vector<uint32_t> threadBlockCounts; // sampling: [thread * blocks + basic block]
  std::vector<uint64_t> lightBlockCounts;  // not sampling: the light variant's block executions
  std::vector<uint64_t> sectorTrace;       // sampling: the block's first global sectors
  std::vector<uint32_t> traceSites;        // the site of each
  std::vector<SiteAccum> accum;            // the light variant's per-site counters (ctx)
  std::array<double, abi::ClassCount> warpClasses{}, threadClasses{};
  double warpChain = 0, threadChain = 0; // sampling: dependent-chain steps (abi::ChainColumn)
  double longestWarpChain = 0;           // sampling: of its warps, the longest chain
  uint32_t chainWarps = 0;               // sampling: the warps that ran
  uint64_t uniqueSectors = 0, sectorAccesses = 0;
  // Sampling: the global sectors the block's fully traced store sites wrote, and those of
  // them it wrote only in part (measurePartialStores).
  uint64_t storeSectors = 0, partialStoreSectors = 0;
  uint64_t footprintWords[2] = {~uint64_t(0), 0}; // of what this block set (touch)
  static constexpr unsigned Samples = 6;
  static_assert(Samples >= abi::SampledInstances); // the shared-memory hooks' first calls
  /// The sample slot of a thread's execution `e` (from 0) of a site in an epoch, or
  /// Samples if it is not recorded.
  static unsigned sampleSlot(uint32_t e) {
    return (e & (e + 1)) == 0 ? std::min<unsigned>(std::countr_zero(e + 1), Samples) : Samples;
  }
  static constexpr size_t TraceLimit = 1 << 17;
  /// Where thread `t`'s basic-block counts go (ThreadContext::blockCounts).
  void *blockCountsFor(size_t t) {
    return sampling ? static_cast<void *>(threadBlockCounts.data() + t * blockCount)
                    : static_cast<void *>(lightBlockCounts.data());
  }
  /// What the light variant's block executions stand for: each block's instructions per
  /// class (the table's row times its executions) and the executions of the shared-memory
  /// sites it holds (TimingSiteBlocksSymbol) and their dependent-chain steps; added to
  /// `classes`, `into` and `chainThreads`.
  void addLightCounts(std::array<uint64_t, abi::ClassCount> &classes,
                      std::vector<SiteStats> &into, double &chainThreads) const;
  uint32_t blockCount = 0;

  /// Prepares for block `linearBlock` of `launch` (with `sharedBytes` of shared memory at
  /// `shared`). The block is sampled if the launch picks it and `canSample` (the executor
  /// runs it alone, as fibers).
  void begin(const GridLaunch &launch, uint64_t linearBlock, const char *shared,
             uint64_t sharedBytes, bool canSample);
  /// Folds the samples into warp accesses and merges everything into the kernel's counters.
  void end();
  /// Folds the epoch's samples into the sites' warp accesses and clears them: at the end of
  /// the block, and when the executor releases a block barrier of a sampled block (an epoch
  /// ends; see `samples`).
  void foldSamples();
  /// Whether the running barrier epoch's accesses are recorded (see foldSamples).
  bool epochSampled() const { return epochSampled_; }
  /// Adds what the light variant counted in `accum` during the last block to the sites (and
  /// the footprint) and clears it for the next.
  /// Only sites [first, end) can have counts (the kernel's, KernelEntry::timingFirstSite).
  void foldLight(const uint32_t *siteInfo, uint32_t first, uint32_t end);
  /// Marks the footprint ranges foldLight holds back (see `pending`); before a merge.
  void flushFootprint();
  /// A worker's totals (see KernelCounters::workerCounters) taking the next block, whose
  /// shared memory is at `shared`.
  void continueWith(const char *shared, uint64_t sharedBytes) {
    sharedBase = uintptr_t(shared);
    sharedSize = sharedBytes;
  }

private:
  /// Adds a site's dense byte range to the footprint. A range that meets or adjoins the
  /// site's pending one (in sectors) widens it instead, so a worker sweeping a site through
  /// consecutive blocks marks the bitmap once per run, not once per block (and two workers do
  /// not fight over one bitmap word per block). The union's sectors are exactly those of the
  /// ranges it stands for.
  void addFootprint(SiteStats &site, uint64_t lo, uint64_t size, bool write);
  /// Marks a site's pending run in the footprint and its lowest and highest address.
  void markPending(SiteStats &site, bool write);
  std::vector<uint64_t> scratch_[4]; // foldSamples: one warp access's words or sectors
  std::vector<uint32_t> warpRuns_;   // foldSamples: each warp's runs of the site
  bool samplesClean_ = false;        // `instance` and `samples` are all zero
  static constexpr uint32_t EpochsPerStride = 32;
  uint32_t epoch_ = 0, epochStride_ = 1, sampledAtStride_ = 0;
  uint32_t windowStart_ = 0, windowLength_ = 1, windowPick_ = 0;
  bool epochSampled_ = true;
  void countDivergence();
  void measureReuse();
  void measurePartialStores();
  const uint32_t *table_ = nullptr;
  const uint32_t *siteInfo_ = nullptr, *siteBlocks_ = nullptr;
  uint32_t siteFirst_ = 0, siteEnd_ = 0; // the kernel's sites (KernelEntry::timingFirstSite)

public:
};

// ---------------------------------------------------------------------------------------
// The analytic model

struct KernelEstimate {
  double ns = 0;          // predicted duration including launch overhead
  double cycles = 0;      // SM cycles of the kernel body
  double occupancy = 0;   // resident threads per SM / maximum
  int blocksPerSM = 0;
  std::array<double, abi::ClassCount> warpInstructions{};
  double globalWarpAccesses = 0, sharedWarpAccesses = 0;
  double sectors = 0;     // L2 transactions (32-byte sectors)
  double dramBytes = 0;   // after reuse in L2
  double footprintBytes = 0; // distinct bytes the launch touched
  double wavefronts = 0;  // shared-memory wavefronts (bank conflicts add to these)
  double atomics = 0;
  // The terms the model compares (cycles); the largest names the limiter.
  double computeCycles = 0, sharedCycles = 0, dramCycles = 0, l2Cycles = 0,
         latencyCycles = 0, barrierCycles = 0, atomicCycles = 0, dispatchCycles = 0,
         hostLinkCycles = 0;
  std::string limiter;
};

/// `warmShare`: the share of the launch's footprint that earlier operations left in L2
/// (L2Residency::warmBytes over its footprint spans' bytes); it does not cross the DRAM bus
/// again.
KernelEstimate estimateKernel(const DeviceProfile &profile, const GridLaunch &launch,
                              const KernelCounters &counters, double warmShare = 0);

/// What a device's L2 still holds from its recent operations, as address spans with the bytes
/// each touched, most recent first. L2 keeps what was touched last: of F bytes touched since,
/// all stay while F fits the capacity C a launch can find (l2_cache_size / l2_partitions),
/// none once F reaches 2C (a stream twice the cache's size evicts itself), a linear share in
/// between (measured on the H200: tests/hardware/probes/memory_latency.h200.txt). A launch
/// finds the share of each span its own address range overlaps (touches assumed spread
/// evenly over a span). Thread-safe.
class L2Residency {
public:
  /// Bytes of the spans expected in L2 of capacity `capacity` (of each span, at most its own
  /// bytes): what earlier operations' spans held where they overlap, as far as those are
  /// still held.
  double warmBytes(const std::vector<AddressSpan> &spans, double capacity) const;
  /// An operation touched the spans (their bytes: how densely) and took `bytes` of L2 in all
  /// (what later operations' residency is reckoned by). No spans: somewhere unknown, e.g. a
  /// copy whose addresses are not tracked: it only evicts.
  void record(const std::vector<AddressSpan> &spans, double bytes, double capacity);

private:
  struct Operation {
    std::vector<AddressSpan> spans;
    double bytes;
  };
  mutable std::mutex mutex_;
  std::vector<Operation> operations_; // most recent first
};

// ---------------------------------------------------------------------------------------
// Profile report (MUSA_SIM_REPORT=1 prints a table at exit; =path.json writes JSON)

struct ReportRow {
  std::string kind; // "kernel", "memcpy HtoD", ...
  std::string name;
  int device = 0;
  Dim3 grid, block;
  double startNs = 0, ns = 0;
  uint64_t bytes = 0;
  KernelEstimate estimate; // kernels only
  std::string exec;        // kernels: how blocks ran (loop, regions, fibers; see ExecMode)
  bool samplesReused = false; // kernels: took an earlier launch's samples (SampleMemo.cpp)
  /// Differential mode (MUSA_SIM_BACKEND=diff): the hardware's event time for the same launch,
  /// in ns, set later through reportMeasured; negative when there is none.
  double measuredNs = -1;
};

/// Records a row if a report was asked for and rows are being collected (thread-safe; the
/// report is written at exit). Returns the row's id (for reportMeasured), or 0 if not recorded.
uint64_t reportOperation(ReportRow row);
/// Differential mode: the hardware's measured time of the operation `id` names (no-op for 0).
void reportMeasured(uint64_t id, double ns);
bool reportEnabled();
/// Whether operations that finish now are collected: from the start of the run unless
/// MUSA_SIM_REPORT_FROM_START=0, then as musaProfilerStart/musaProfilerStop set it.
void setReportCollecting(bool on);
bool reportCollecting();

} // namespace musa::sim
