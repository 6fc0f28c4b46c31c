// The analytic kernel model (TIMING.md explains each term) and what L2 keeps across launches.
#include "musa/sim/Timing.h"
#include "musa/sim/Occupancy.h"

#include <algorithm>
#include <cmath>
#include <mutex>

namespace musa::sim {

namespace {
/// A global load site of a launch: the bytes of the sectors it requests from L1 and the
/// address range it spans (from `lo`).
struct ReadSite {
  double bytes, span, lo;
};

/// The share of a launch's re-reads (L2 traffic beyond its footprint) that miss L2. A re-read
/// finds its line while what the launch reads between two touches of it fits in L2.
/// - A site that re-reads its own range: the hot set (the ranges of the sites that re-read)
///   plus the share of the rest of the footprint, read once, that streams past in between
///   (a line a site reads r times sees 1/r of it). So an L2-resident vector gathered while a
///   matrix streams through once stays in L2 (an ELL or CSR SpMV, an embedding lookup), where
///   the footprint alone would send the gathers to DRAM in the proportion it exceeds L2.
/// - Sites that read one range at shifted addresses (a stencil's neighbours `a[c - si]`,
///   `a[c]`, `a[c + si]`): a line the leading site brings in is read again by the others once
///   the sweep has moved on by the shift between them, while the footprint streams past in
///   proportion (a 3D stencil's planes above and below, 1 MB apart in 128 MB, stay in L2).
/// `reuse`: the share of requested sectors L1 passes on. Without re-reads of either kind,
/// `footprintMiss` (the footprint's share beyond L2).
double reReadMissFraction(const std::vector<ReadSite> &sites, double reuse, double footprint,
                          double l2Bytes, double footprintMiss) {
  // Sites whose ranges mostly overlap read one array: group them (the first of a group leads).
  std::vector<int> group(sites.size(), -1);
  for (size_t i = 0; i < sites.size(); ++i) {
    if (sites[i].span <= 0 || group[i] >= 0)
      continue;
    group[i] = int(i);
    double lo = sites[i].lo, hi = sites[i].lo + sites[i].span; // the group's range so far
    for (size_t j = i + 1; j < sites.size(); ++j) {
      const ReadSite &b = sites[j];
      double overlap = std::min(hi, b.lo + b.span) - std::max(lo, b.lo);
      if (group[j] < 0 && b.span > 0 && overlap > 0.5 * std::min(hi - lo, b.span)) {
        group[j] = int(i);
        lo = std::min(lo, b.lo), hi = std::max(hi, b.lo + b.span);
      }
    }
  }
  double hot = 0;
  for (const ReadSite &s : sites)
    if (s.span > 0 && s.bytes * reuse > s.span)
      hot += s.span;
  double streamed = std::max(0.0, footprint - hot), excess = 0, missed = 0;
  for (size_t i = 0; i < sites.size(); ++i) {
    if (group[i] != int(i))
      continue;
    double bytes = 0, lo = sites[i].lo, hi = sites[i].lo + sites[i].span, firstLo = lo,
           lastLo = lo, selfExcess = 0, selfMissed = 0;
    int members = 0;
    for (size_t j = i; j < sites.size(); ++j) {
      if (group[j] != int(i))
        continue;
      const ReadSite &s = sites[j];
      ++members, bytes += s.bytes * reuse;
      lo = std::min(lo, s.lo), hi = std::max(hi, s.lo + s.span);
      firstLo = std::min(firstLo, s.lo), lastLo = std::max(lastLo, s.lo);
      if (s.bytes * reuse > s.span) { // the site re-reads its own range
        double between = hot + streamed * s.span / (s.bytes * reuse);
        selfExcess += s.bytes * reuse - s.span;
        selfMissed += (s.bytes * reuse - s.span) * std::clamp(1 - l2Bytes / between, 0.0, 1.0);
      }
    }
    excess += selfExcess, missed += selfMissed;
    // The group's reads beyond its range and beyond its sites' own re-reads: the shifted ones.
    double shifted = bytes - (hi - lo) - selfExcess;
    if (members < 2 || shifted <= 0)
      continue;
    double between = hot + (lastLo - firstLo) * footprint / (hi - lo);
    excess += shifted;
    missed += shifted * std::clamp(1 - l2Bytes / between, 0.0, 1.0);
  }
  return excess > 0 ? missed / excess : footprintMiss;
}
} // namespace

double L2Residency::warmBytes(const std::vector<AddressSpan> &spans, double capacity) const {
  std::lock_guard lock(mutex_);
  std::vector<double> warm(spans.size(), 0.0);
  double since = 0; // bytes touched after the operation in hand
  for (const Operation &op : operations_) {
    since += op.bytes;
    // What came after it evicts it once the two together outgrow the capacity: all of it is
    // gone when they reach twice the capacity.
    double kept =
        since <= capacity ? 1 : std::clamp((2 * capacity - since) / op.bytes, 0.0, 1.0);
    for (size_t i = 0; i < spans.size(); ++i)
      for (const AddressSpan &s : op.spans) {
        double overlap =
            double(std::min(spans[i].hi, s.hi)) - double(std::max(spans[i].lo, s.lo));
        if (overlap > 0 && s.hi > s.lo)
          warm[i] += kept * s.bytes * overlap / double(s.hi - s.lo);
      }
    if (since >= 2 * capacity)
      break;
  }
  double total = 0;
  for (size_t i = 0; i < spans.size(); ++i)
    total += std::min(warm[i], spans[i].bytes);
  return total;
}

void L2Residency::record(const std::vector<AddressSpan> &spans, double bytes,
                         double capacity) {
  if (bytes <= 0)
    return;
  Operation op{spans, bytes};
  std::lock_guard lock(mutex_);
  operations_.insert(operations_.begin(), std::move(op));
  double since = 0;
  size_t keep = 0;
  while (keep < operations_.size() && since < 2 * capacity)
    since += operations_[keep++].bytes;
  operations_.resize(std::min<size_t>(keep, 64));
}

KernelEstimate estimateKernel(const DeviceProfile &p, const GridLaunch &launch,
                              const KernelCounters &k, double warmShare) {
  KernelEstimate e;
  const double ws = launch.warpSize;
  const double threads = double(launch.block.count());
  const double warpsPerBlock = std::ceil(threads / ws);
  const double lanes = threads / warpsPerBlock; // average active lanes of a warp
  const double blocks = double(launch.grid.count());
  const double sms = p.multiProcessorCount;
  const double cyclesPerNs = p.clockRateKHz / 1e6;

  // Occupancy: resident blocks per multiprocessor (what the occupancy API reports).
  double perSM = std::max(
      1, residentBlocksPerMultiprocessor(p, launch.block.count(),
                                         launch.kernel->staticSharedBytes +
                                             launch.dynamicSharedBytes));
  e.blocksPerSM = int(perSM);
  e.occupancy = std::min(1.0, perSM * warpsPerBlock * ws / p.maxThreadsPerMultiProcessor);
  const double blocksOnBusiest = std::ceil(blocks / sms);
  const double waves = std::ceil(blocksOnBusiest / perSM);

  // Warp-level instruction counts: thread-level counts times the warp/thread ratio the
  // sampled blocks measured (1/lanes without divergence, more when lanes take different
  // paths).
  for (unsigned c = 0; c < abi::ClassCount; ++c) {
    double ratio = k.sampledThreadClasses[c] > 0
                       ? k.sampledWarpClasses[c] / k.sampledThreadClasses[c]
                       : 1 / lanes;
    e.warpInstructions[c] = double(k.classes[c]) * ratio;
  }
  double globalLoadChains = 0; // global load warp accesses, divided by their load group
  // Of those waits, the ones at sites the sampled blocks traced, and their L1 miss shares
  // summed (weighted by the waits): a wait lasts as long as its own site's loads take.
  double tracedChains = 0, tracedChainMisses = 0;
  double loadSectors = 0, loadLines = 0, loadWarps = 0, otherSectors = 0, otherLines = 0;
  std::vector<ReadSite> readSites;
  // Float atomics on shared memory: the multiprocessor cycles of their compare-and-swap
  // rounds, and one block's adds to its busiest word, one round trip each.
  double sharedCasCycles = 0, sharedCasSerial = 0;
  double scatteredLoadLines = 0; // load lines of warp accesses that scatter over DRAM pages
  double storeSectors = 0, storeLines = 0, scatteredStoreLines = 0; // and of stores
  double casLineRequests = 0, casRounds = 0; // compare-and-swap retry loops (below)
  // The other atomics: sector requests, and lanes applied after another on one address.
  double atomicSectors = 0, sameAddressCycles = 0, casTries = 0;
  double constantReplays = 0;                 // constant-cache passes (distinct addresses)
  double barriers = e.warpInstructions[abi::ClassBarrier];

  // Local memory (stack frames: arrays indexed at run time, escaping objects), interleaved
  // by lane as GPUs lay it out. Each warp access takes one L1 cycle (the interleaving puts
  // lanes in distinct banks; measured 1-2.7 cycles whether the lanes share a line or not,
  // tests/hardware/probes/mechanisms.h200.txt). Stores are written back through L2 and reach
  // DRAM as the frames' footprint; loads hit L1 while the resident threads' frames fit in
  // what shared memory leaves of it, and go to L2 otherwise.
  double frameBytes = 0, localWarps = 0, localSectors = 0, localLines = 0;
  double localLoadChains = 0; // local load warp accesses, divided by their load group
  for (const SiteStats &s : k.sites)
    if (s.info & abi::AccessLocal)
      frameBytes = std::max(frameBytes, double(s.localExtent));
  const double residentBlocks = std::min(perSM, blocksOnBusiest);
  const double sharedResident =
      residentBlocks * double(launch.kernel->staticSharedBytes + launch.dynamicSharedBytes);
  const bool framesFitL1 =
      residentBlocks * threads * frameBytes <= std::max(0.0, double(p.l1CacheSize) - sharedResident);
  for (const SiteStats &s : k.sites) {
    uint32_t size = std::max<uint32_t>(1, s.info & 0xffff);
    if (s.globalExecs) {
      double sampledLanes = s.globalWarps ? double(s.globalLanes) / s.globalWarps : lanes;
      double warps = double(s.globalExecs) / std::max(1.0, sampledLanes);
      double sectors = s.globalWarps ? double(s.sectors) / s.globalWarps
                                     : std::ceil(sampledLanes * size / 32);
      double lines = warps * (s.globalWarps ? double(s.lines) / s.globalWarps : sectors / 4);
      e.globalWarpAccesses += warps;
      if (s.info & abi::AccessConstant) {
        // The constant cache: one pass per distinct address of the warp's lanes; what it
        // holds (a 64 KB bank) does not reach L2 again.
        constantReplays += warps * (s.globalWarps && s.addressRequests
                                        ? double(s.addressRequests) / s.globalWarps
                                        : 1.0);
        continue;
      }
      if (s.info & abi::AccessLocal) {
        localWarps += warps;
        if ((s.info & abi::AccessStore) || !framesFitL1)
          localSectors += warps * sectors, localLines += lines;
        if (!(s.info & abi::AccessStore))
          localLoadChains += warps / std::max(1u, s.info >> abi::AccessGroupShift);
        continue; // a local site has no shared-memory executions either
      }
      e.sectors += warps * sectors;
      if (s.info & abi::AccessRetry) {
        // A compare-and-swap retry loop: the k threads contending for one address win one
        // at a time, each after failed tries in the rounds before: (k + 1) / 2 tries each,
        // and one success per address per round trip (casRounds). Lanes of a warp on one
        // address are tried one after another at the address's unit (atomics). Lanes on
        // distinct addresses go as one request per line and warp (casLineRequests), which the
        // H200 serves several times faster (tests/hardware/probes/mechanisms.h200.txt).
        double reachable = s.highest > s.lowest ? double(s.highest - s.lowest) / size : 1;
        double contenders = double(s.globalExecs) / std::clamp(reachable, 1.0,
                                                               double(s.globalExecs));
        double tries = double(s.globalExecs) * (contenders + 1) / 2;
        double lanesPerAddress =
            s.addressRequests ? double(s.globalLanes) / double(s.addressRequests) : 1;
        if (lanesPerAddress < 1.5)
          casLineRequests += tries / std::max(1.0, sampledLanes) *
                             (s.globalWarps ? double(s.lines) / s.globalWarps : 1);
        else
          casTries += tries, e.atomics += tries;
        casRounds = std::max(casRounds, contenders);
      } else if (s.info & abi::AccessAtomic) { // requests: lanes at one address combine
        e.atomics += s.globalLanes ? double(s.globalExecs) * double(s.addressRequests) /
                                         double(s.globalLanes)
                                   : double(s.globalExecs);
        atomicSectors += warps * sectors;
        if (s.globalWarps) // float adds take longer a lane (atomic_ops.h100.txt)
          sameAddressCycles += warps * double(s.sameAddressLanes) / s.globalWarps *
                               (s.info & abi::AccessFloatAtomic ? p.sameAddressFloatAtomicCycles
                                                                : p.sameAddressAtomicCycles);
      }
      if (s.info & (abi::AccessAtomic | abi::AccessStore)) {
        // Atomic requests are bound by the atomic units' rates (below), which the H200
        // serves faster than l2_requests_per_cycle (atomic_footprint.h200.txt).
        otherSectors += warps * sectors;
        if (!(s.info & abi::AccessAtomic)) {
          otherLines += lines, storeSectors += warps * sectors, storeLines += lines;
          if (s.globalWarps)
            scatteredStoreLines += warps * double(s.scatteredLines) / s.globalWarps;
        }
      } else {
        loadSectors += warps * sectors, loadLines += lines, loadWarps += warps;
        readSites.push_back({warps * sectors * 32,
                             s.highest > s.lowest ? double(s.highest - s.lowest) : 0,
                             double(s.lowest)});
        if (s.globalWarps)
          scatteredLoadLines += warps * double(s.scatteredLines) / s.globalWarps;
        double chains = warps / std::max(1u, s.info >> abi::AccessGroupShift);
        globalLoadChains += chains;
        if (s.tracedLanes > 0 && s.globalLanes > 0 && s.sectors > 0) {
          // Misses (first touches) against the warp-coalesced sector accesses traced.
          double coalesced = double(s.tracedLanes) * double(s.sectors) / double(s.globalLanes);
          tracedChains += chains;
          tracedChainMisses +=
              chains * std::clamp(double(s.tracedLanes - s.tracedHits) / coalesced, 0.0, 1.0);
        }
      }
    }
    if (s.sharedExecs) {
      double sampledLanes = s.sharedWarps ? double(s.sharedLanes) / s.sharedWarps : lanes;
      double warps = double(s.sharedExecs) / std::max(1.0, sampledLanes);
      double fronts = s.sharedWarps ? double(s.wavefronts) / s.sharedWarps
                                    : std::ceil(sampledLanes * size / 128);
      e.sharedWarpAccesses += warps;
      if ((s.info & abi::AccessFloatAtomic) && s.sharedWarps && p.sharedCasRoundCycles > 0) {
        // A float atomic on shared memory is a compare-and-swap loop: a round per lane on the
        // warp's busiest word, each `shared_cas_round_cycles` of the multiprocessor; and the
        // adds to one word go one round trip (`shared_cas_serial_cycles`) after another, so
        // a block's busiest word bounds it (tests/hardware/probes/shared_atomics.h200.txt).
        sharedCasCycles += warps * double(s.sharedCasRounds) / s.sharedWarps *
                           p.sharedCasRoundCycles;
        if (s.sharedCasBlockWords)
          sharedCasSerial += double(s.sharedExecs) / blocks * double(s.sharedCasBlockSamples) /
                             double(s.sharedCasBlockWords) * p.sharedCasSerialCycles;
        continue;
      }
      e.wavefronts += warps * fronts;
    }
  }

  // Throughput of the busiest multiprocessor: each pipe, and the issue slots.
  auto perBlock = [&](double total) { return total / blocks; };
  const double w = ws; // one warp instruction occupies a pipe for warpSize / lanes cycles
  double pipes[] = {
      perBlock(e.warpInstructions[abi::ClassInt] + e.warpInstructions[abi::ClassBranch]) * w /
          p.intLanes,
      perBlock(e.warpInstructions[abi::ClassIntMul]) * w / p.imadLanes,
      perBlock(e.warpInstructions[abi::ClassFp32]) * w / p.fp32Lanes,
      perBlock(e.warpInstructions[abi::ClassFp64]) * w / p.fp64Lanes,
      perBlock(e.warpInstructions[abi::ClassSpecial]) * w / p.sfuLanes,
      // Tensor cores: each counted step is an m16n8k16 fp16 multiply (2048 multiply-adds)
      // of one 32-lane group; a wider warp's quarters multiply a tile each.
      perBlock(e.warpInstructions[abi::ClassTensor]) * (w / 32) * 2048 /
          p.tensorFp16MacsPerCycle,
      perBlock(e.globalWarpAccesses + e.sharedWarpAccesses + e.warpInstructions[abi::ClassWarp]) *
          w / p.ldstLanes,
      // L1: four sectors of one 128-byte line per cycle; a warp access spanning several
      // lines takes one cycle per line (its tag lookups are one per line).
      std::max(perBlock(e.sectors) / p.l1SectorsPerCycle, perBlock(loadLines + otherLines)) +
          perBlock(localWarps),
      // The constant cache: `const_address_cycles` per distinct address of a warp access.
      perBlock(constantReplays) * p.constAddressCycles};
  double issued = 0;
  for (double x : e.warpInstructions)
    issued += x;
  issued += e.globalWarpAccesses + e.sharedWarpAccesses;
  double pipeCycles = std::max(*std::max_element(std::begin(pipes), std::end(pipes)),
                               perBlock(issued) / p.issueWidth);
  e.computeCycles = blocksOnBusiest * pipeCycles;
  e.sharedCycles = std::max(blocksOnBusiest * perBlock(e.wavefronts + sharedCasCycles),
                            waves * sharedCasSerial); // one wavefront per cycle

  // Memory. L1 keeps what a block re-reads (measured on the sampled blocks' load traces); L2 sees
  // the rest as requests of up to one 128-byte line; DRAM sees the launch's unique footprint,
  // plus re-reads once the footprint outgrows L2.
  double reuse = k.sampledSectorAccesses > 0
                     ? std::clamp(double(k.sampledUniqueSectors) / k.sampledSectorAccesses,
                                  0.0, 1.0)
                     : 1.0;
  if (k.sampledTracedBlocks > 0) {
    // L1 keeps a block's re-reads only while its distinct sectors fit in what the resident
    // blocks' shared memory leaves of it (a random walk over 1 MB hits in L1 a quarter as
    // often as the trace alone suggests). Resident blocks are taken to share what they read
    // (neighbouring blocks mostly do), so one block's sectors are set against the cache.
    double cache = std::max(0.0, double(p.l1CacheSize) - sharedResident);
    double touched = 32.0 * double(k.sampledUniqueSectors) / k.sampledTracedBlocks;
    if (touched > cache) {
      reuse = 1 - (1 - reuse) * cache / touched;
      tracedChainMisses = tracedChains - (tracedChains - tracedChainMisses) * cache / touched;
    }
  }
  // The share of the loads' waits that go past L1: each traced site's own (a coalesced
  // index load that streams waits for L2 or DRAM even where the gathers it feeds hit L1:
  // md_lj), the rest at the kernel's.
  const double waitReuse =
      globalLoadChains > 0
          ? std::clamp((tracedChainMisses + (globalLoadChains - tracedChains) * reuse) /
                           globalLoadChains,
                       0.0, 1.0)
          : reuse;
  double l2Bytes = (loadSectors * reuse + otherSectors + localSectors) * 32;
  // L2 takes a warp's line requests at `l2_requests_per_cycle` for loads and
  // `l2_store_requests_per_cycle` for stores (random lines of an L2-resident array: 80 and
  // 37 a cycle, tests/hardware/probes/request_rates.h200.txt and store_rates.h200.txt).
  double l2RequestCycles = (loadLines * reuse + localLines) / p.l2RequestsPerCycle +
                           otherLines / p.l2StoreRequestsPerCycle;
  const unsigned granule = p.dramAccessBytes > 32 ? unsigned(p.dramAccessBytes / 32) : 1;
  const KernelCounters::FootprintSectors footprint = k.footprintSectors(granule);
  // Pinned or mapped host memory a kernel reads or writes (zero-copy) crosses the host link,
  // each direction at its bandwidth (a vector add over mapped memory: 8 MB read and 4 MB
  // written in 184 us on an H100, tests/hardware/session12/samples.txt), not the DRAM bus.
  const uint64_t hostRead = k.hostSectors(false), hostWritten = k.hostSectors(true);
  if (p.hostLinkBandwidthGBs > 0)
    e.hostLinkCycles = double(std::max(hostRead, hostWritten)) * 32 /
                       (p.hostLinkBandwidthGBs / cyclesPerNs);
  double unique = double(footprint.unique + k.untrackedSectors() - hostRead - hostWritten +
                         k.sparseSectors()) * 32 +
                  blocks * threads * frameBytes;
  unique = std::min(unique, l2Bytes > 0 ? l2Bytes : unique);
  // DRAM reads `dram_access_bytes` at a time: a sector read alone brings its neighbours into
  // L2 with it (a lane per 64 or 128 bytes streams at the bandwidth of twice the bytes it
  // uses, tests/hardware/probes/request_rates.h200.txt). What the launch occupies in L2 and
  // fetches from DRAM is its footprint in those units.
  double fetched = unique;
  if (unique > 0 && granule > 1)
    fetched += double(footprint.readGranuleExtra + k.sparseSectors(granule) -
                      k.sparseSectors()) * 32;
  double missFraction = fetched > 0 ? std::clamp(1 - p.l2CacheSize / fetched, 0.0, 1.0) : 0;
  e.footprintBytes = fetched;
  e.dramBytes = fetched * (1 - std::clamp(warmShare, 0.0, 1.0)) +
                (l2Bytes - unique) * reReadMissFraction(readSites, reuse, fetched,
                                                        p.l2CacheSize, missFraction);
  double bytesPerCycle = p.memoryBandwidthGBs * p.dramEfficiency / cyclesPerNs;
  // Loads whose warp accesses scatter over DRAM pages (a gather, a walk down a column) open a
  // page per granule: they reach `dram_scattered_efficiency` of the bandwidth, not
  // `dram_efficiency` (the H200 gathers lines from 1 GB at 34 a ns, 2.2 TB/s in 64-byte
  // granules: request_rates.h200.txt). Their share of the DRAM bytes is taken as their share
  // of what L2 serves.
  double scatteredBytes = 0;
  if (p.dramScatteredEfficiency > 0 && scatteredLoadLines > 0 && l2Bytes > 0) {
    double loadShare = loadSectors * reuse * 32 / l2Bytes;
    scatteredBytes = e.dramBytes * std::clamp(loadShare * scatteredLoadLines / loadLines, 0.0, 1.0);
  }
  double scatteredPerCycle = p.memoryBandwidthGBs * p.dramScatteredEfficiency / cyclesPerNs;
  // Writes stream at `dram_write_efficiency` (the H200: a read-only sum reaches 4.54 TB/s, a
  // float4 copy 4.28, so a written byte takes 1 / 0.84 of the bandwidth's time:
  // stream_bandwidth.h200.txt). Their share of the DRAM bytes is the written footprint's.
  double writtenBytes =
      fetched > 0 ? e.dramBytes * std::clamp(double(footprint.written) * 32 / fetched, 0.0, 1.0)
                  : 0;
  scatteredBytes = std::min(scatteredBytes, e.dramBytes - writtenBytes);
  double writePerCycle = p.memoryBandwidthGBs * p.dramWriteEfficiency / cyclesPerNs;
  // Stores that write part of a sector (the sampled blocks' traces say which share) into a
  // footprint L2 cannot hold: L2 evicts the sector before the rest of it is written, and
  // DRAM, whose ECC covers whole granules, reads the granule and writes it back - per store,
  // not per sector (a permuting scatter of 4-byte stores over 64 MB runs at a quarter of the
  // rate of its full-sector form on the H200: timing_holdout.mu). Such stores are evicted in
  // the proportion of the footprint beyond l2_cache_size; at the scattered rate as far as
  // their warp accesses scatter.
  double rmwBytes = 0, rmwCycles = 0;
  if (k.sampledStoreSectors > 0 && k.sampledPartialStoreSectors > 0 && storeSectors > 0) {
    double partial = double(k.sampledPartialStoreSectors) / double(k.sampledStoreSectors);
    rmwBytes = storeSectors * partial * missFraction * 2 * std::max(32.0, p.dramAccessBytes);
    double scattered = storeLines > 0 && p.dramScatteredEfficiency > 0
                           ? std::clamp(scatteredStoreLines / storeLines, 0.0, 1.0)
                           : 0;
    rmwCycles = rmwBytes * scattered / scatteredPerCycle +
                rmwBytes * (1 - scattered) / 2 * (1 / bytesPerCycle + 1 / writePerCycle);
  }
  // The first bytes arrive after the memory latency; the rest stream at the bandwidth.
  e.dramCycles = e.dramBytes + rmwBytes > 0
                     ? p.dramLatencyCycles +
                           (e.dramBytes - scatteredBytes - writtenBytes) / bytesPerCycle +
                           writtenBytes / writePerCycle +
                           (scatteredBytes > 0 ? scatteredBytes / scatteredPerCycle : 0) +
                           rmwCycles
                     : 0;
  e.l2Cycles = std::max(l2Bytes / (p.l2BandwidthGBs / cyclesPerNs), l2RequestCycles);

  // Latency: one warp's dependent chain, once per wave of resident blocks. A load waits for
  // L1, L2 or DRAM in the proportions the reuse figures give.
  double toDram = l2Bytes > 0 ? std::clamp(e.dramBytes / l2Bytes, 0.0, 1.0) : 1.0;
  e.dramBytes += rmwBytes; // reported with the rest; loads wait as before
  // A load that spans several lines returns after its last line's tag lookup.
  double linesPerLoad = loadWarps > 0 ? loadLines / loadWarps : 1;
  // DRAM latency grows with the line requests outstanding device-wide: each resident warp
  // keeps its load group of `linesPerLoad` lines in flight (the H200: 735 cycles for one chain
  // of coalesced line loads over 1 GB, 904 with 8448 such chains, before the bandwidth
  // saturates; tests/hardware/probes/loaded_latency.h200.txt). Past the bandwidth-delay
  // product (the lines the bandwidth moves in one idle latency) requests queue for bandwidth:
  // the DRAM term's share, not the latency's.
  const double residentWarps = std::min(blocks, perSM * sms) * warpsPerBlock;
  const double groupSize = globalLoadChains > 0 ? loadWarps / globalLoadChains : 1;
  const double saturating = bytesPerCycle * p.dramLatencyCycles / 128;
  const double dramLatency =
      p.dramLatencyCycles +
      p.dramLoadedCycles * std::min(saturating, residentWarps * groupSize * linesPerLoad);
  double loadLatency =
      (1 - waitReuse) * p.l1LatencyCycles +
      waitReuse * ((1 - toDram) * p.l2LatencyCycles + toDram * dramLatency) +
      std::max(0.0, linesPerLoad - 1);
  // A warp access whose lines scatter (a gather, a pointer chase per lane) waits for the
  // slowest of them: for k lines it is at DRAM's latency once any line misses L2, plus the
  // tail of k independent latencies (32 lines: 1169 cycles against 702 for one over 1 GB,
  // 386 against 309 in L2; loaded_latency.h200.txt). Its share of the loads is the scattered
  // lines' share.
  if (scatteredLoadLines > 0 && loadLines > 0 && linesPerLoad > 1) {
    double share = std::clamp(scatteredLoadLines / loadLines, 0.0, 1.0);
    double tail = std::sqrt(std::min(31.0, linesPerLoad - 1) / 31);
    double anyMiss = 1 - std::pow(1 - std::clamp(toDram, 0.0, 1.0), linesPerLoad);
    double scattered =
        (1 - waitReuse) * p.l1LatencyCycles +
        waitReuse * ((1 - anyMiss) * (p.l2LatencyCycles + tail * p.l2TailCycles) +
                 anyMiss * (dramLatency + tail * p.dramTailCycles));
    loadLatency = (1 - share) * loadLatency + share * std::max(loadLatency, scattered);
  }
  // A warp's dependent chain: each basic block it runs takes its chain steps (its longest
  // def-use path, or its instructions at one a cycle if longer), counted per thread and
  // scaled to warps as the sampled blocks measured.
  double chainRatio = k.sampledThreadChain > 0 ? k.sampledWarpChain / k.sampledThreadChain
                                               : 1 / lanes;
  double chainPerWarp = k.chainThreads * chainRatio / (blocks * warpsPerBlock);
  double loadsPerWarp = globalLoadChains / (blocks * warpsPerBlock);
  double barriersPerWarp = barriers / (blocks * warpsPerBlock);
  // A block lasts as long as its longest warp, and a wave as its longest block: where the
  // sampled warps' dependent chains differ (a triangular loop, a row per warp of varying
  // length, the warp that finishes a block's reduction alone), each wave takes its blocks'
  // longest chains and the last one the longest measured (dynamic block scheduling evens out
  // the rest); in units of the mean warp, `waves` where all warps are alike. Only the chain:
  // which warp waits for how many loads the counters do not say, so the waits stay the mean
  // warp's (a block's tail reduction by one warp adds no loads).
  double chainWaves = waves;
  if (k.sampledChainWarps > 0 && k.sampledChainBlocks > 0 && k.sampledWarpChain > 0) {
    double meanWarp = k.sampledWarpChain / double(k.sampledChainWarps);
    double meanBlock = k.sampledBlockLongestChains / double(k.sampledChainBlocks);
    chainWaves =
        std::max(waves, ((waves - 1) * meanBlock + k.sampledLongestWarpChain) / meanWarp);
  }
  // Local loads wait as well: for L1 while the frames fit there, for L2 otherwise (a
  // backtracking search's stack: each step reads the entry the last one wrote).
  const double localLatency = framesFitL1 ? p.l1LatencyCycles : p.l2LatencyCycles;
  const double localLoadsPerWarp = localLoadChains / (blocks * warpsPerBlock);
  const double memoryWaitCycles =
      waves * (loadsPerWarp * loadLatency + localLoadsPerWarp * localLatency);
  e.latencyCycles = chainWaves * chainPerWarp * p.dependentIssueCycles + memoryWaitCycles;
  e.barrierCycles = waves * barriersPerWarp * p.barrierCycles;

  // Atomics: device-wide throughput, or serialised per unit of `atomic_unit_bytes` (an L2
  // slice handles its atomics one after another) when few units take many requests.
  if (e.atomics > 0 || casRounds > 0) { // casRounds: any retry loop
    // Units: those the sampled blocks' atomics touched, or the span of a site's atomics in
    // the launch, whichever is more (samples see only part of a scattered range).
    const double touched = double(k.distinctAtomicUnits(p.atomicUnitBytes));
    double units = std::max(1.0, touched);
    for (const SiteStats &s : k.sites)
      if ((s.info & abi::AccessAtomic) && s.highest > s.lowest)
        units = std::max(units, std::ceil(double(s.highest - s.lowest) / p.atomicUnitBytes));
    // The units work in parallel, so the busiest one sets the pace: where the samples saw
    // every unit the launch's atomics span, its share of the requests (a histogram whose low
    // bins take most keys: 38 % of them in the first 512 bytes of 4 KiB of bins), not 1 / units.
    double unitShare = 1 / units;
    if (touched >= units)
      unitShare = std::max(unitShare, k.busiestAtomicUnitShare(p.atomicUnitBytes));
    // A unit serves a sector request in `atomic_sector_cycles`, plus
    // `same_address_atomic_cycles` for each lane applied after another on one address, and a
    // compare-and-swap try in `cas_try_cycles`; the device serves at most
    // `atomic_sectors_per_cycle` sector requests and `atomic_ops_per_cycle` addresses a cycle
    // (tests/hardware/probes/atomic_footprint.h200.txt).
    double atUnits = (atomicSectors * p.atomicSectorCycles +
                      sameAddressCycles + casTries * p.casTryCycles) *
                     unitShare;
    e.atomicCycles = std::max({atomicSectors / p.atomicSectorsPerCycle,
                               e.atomics / p.atomicOpsPerCycle, atUnits});
    // Compare-and-swap retry loops: line requests at `cas_line_cycles` per unit (and no faster
    // than L2 takes requests), and at least one round trip per success at each address.
    e.atomicCycles += std::max(casLineRequests * p.casLineCycles / units,
                               casLineRequests / p.l2RequestsPerCycle);
    e.atomicCycles = std::max(e.atomicCycles, casRounds * p.casRoundCycles);
  }

  // Block dispatch: the busiest multiprocessor takes its blocks one after another at the
  // dispatch rate, however little each does (one-element-per-thread streams are bound here).
  e.dispatchCycles =
      blocksOnBusiest * std::max(p.blockLaunchCycles, warpsPerBlock * p.warpLaunchCycles);

  // A warp's chain includes its barrier waits; name the larger part.
  double chain = e.latencyCycles + e.barrierCycles;
  struct Term {
    double cycles;
    const char *name;
  } terms[] = {{e.computeCycles, "compute"},
               {e.sharedCycles, "shared memory"},
               {e.dramCycles, "memory bandwidth"},
               {e.l2Cycles, "memory bandwidth"},
               {chain, e.barrierCycles > e.latencyCycles ? "barrier" : "latency"},
               {e.atomicCycles, "atomics"},
               {e.dispatchCycles, "block launch"},
               {e.hostLinkCycles, "host link"}};
  const Term *top = &terms[0];
  double sum = 0;
  for (const Term &t : terms) {
    sum += t.cycles;
    if (t.cycles > top->cycles)
      top = &t;
  }
  // The largest term bounds the kernel; the others overlap with it only partly. A scheduler
  // hides a warp's waits for memory behind other warps' issue, never behind the warp's own
  // (it issues in order and stops at the first use of a load): with w warps a scheduler, 1 / w
  // of the memory waits stays exposed when compute bounds the kernel (gemv with a thread per
  // row: four warps an SM missing together every eighth iteration).
  e.cycles = top->cycles + p.termOverlap * (sum - top->cycles);
  const double warpsPerScheduler =
      residentBlocks * warpsPerBlock / std::max(1, p.issueWidth);
  const double exposed = 1 / std::max(1.0, warpsPerScheduler);
  if (exposed > p.termOverlap && top == &terms[0])
    e.cycles += (exposed - p.termOverlap) * memoryWaitCycles;
  e.limiter = top->name;
  // A thread that read the clock (or slept) after N cycles ran at least that long: a kernel
  // spinning on clock64() lasts what it waited for, whatever its counted work says (the
  // thread's clock advances `dependent_issue_cycles` per instruction it executes, the model's
  // latency term by its dependent chain, which a loop's independent work does not lengthen).
  if (double(k.clockSpan()) > e.cycles) {
    e.cycles = double(k.clockSpan());
    e.limiter = "latency";
  }
  e.ns = p.kernelLaunchUs * 1000 + e.cycles / cyclesPerNs;
  return e;
}

} // namespace musa::sim
