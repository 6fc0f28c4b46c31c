// The timing layer: engines and timelines, copy costs, footprint tracking and the analytic
// kernel model's response to what it counts.
#include "musa/sim/Timing.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace musa::sim;

namespace {
DeviceProfile profile(const char *id) {
  std::string error;
  auto p = DeviceProfile::load(id, error);
  EXPECT_TRUE(p) << error;
  return *p;
}
} // namespace

TEST(Timing, OneEngineSerialisesAndEnginesOverlap) {
  DeviceClock clock(2);
  double start = -1;
  EXPECT_EQ(clock.place(Engine::Compute, 0, 10, &start), 10);
  EXPECT_EQ(start, 0);
  EXPECT_EQ(clock.place(Engine::Compute, 5, 10, &start), 20); // waits for the engine
  EXPECT_EQ(start, 10);
  EXPECT_EQ(clock.place(Engine::CopyIn, 0, 4, &start), 4); // its own engine
  EXPECT_EQ(clock.place(Engine::CopyOut, 1, 4, &start), 5);
  DeviceClock single(1);
  single.place(Engine::CopyIn, 0, 4);
  EXPECT_EQ(single.place(Engine::CopyOut, 0, 4), 8); // one copy engine for both directions
  EXPECT_EQ(single.place(Engine::Compute, 0, 1), 1);
  DeviceClock none(0);
  none.place(Engine::Compute, 0, 3);
  EXPECT_EQ(none.place(Engine::CopyIn, 0, 1), 4); // no copy engine: copies use compute
}

TEST(Timing, ComputeEngineSharedByKernelsThatFitTogether) {
  DeviceClock clock(2);
  double start = -1;
  EXPECT_EQ(clock.place(Engine::Compute, 0, 10, &start, 0.5), 10);
  EXPECT_EQ(clock.place(Engine::Compute, 2, 10, &start, 0.5), 12); // beside the first
  EXPECT_EQ(start, 2);
  EXPECT_EQ(clock.place(Engine::Compute, 3, 4, &start, 0.25), 14); // full until 10
  EXPECT_EQ(start, 10);
  EXPECT_EQ(clock.place(Engine::Compute, 0, 5, &start), 19); // the whole GPU: after all
  EXPECT_EQ(start, 14);
  // A later operation fills a gap that fits it before what was placed already.
  DeviceClock gap(2);
  gap.place(Engine::Compute, 0, 2);
  gap.place(Engine::Compute, 10, 5);
  EXPECT_EQ(gap.place(Engine::Compute, 1, 3, &start, 0.5), 5);
  EXPECT_EQ(start, 2);
  EXPECT_EQ(gap.place(Engine::Compute, 1, 9, &start, 0.5), 24); // too long for the gap
  EXPECT_EQ(start, 15);
}

TEST(Timing, CopyEngineTakesAnOperationIntoAnEarlierGap) {
  // Two streams' pipelines on one copy engine: stream A's copies wait for its kernels, so the
  // engine idles between them; stream B's copy, reaching the clock after A's (its worker was
  // slower), runs in such a gap, not after the last of A's.
  DeviceClock clock(2);
  double start = -1;
  clock.place(Engine::CopyIn, 0, 10);
  clock.place(Engine::CopyIn, 30, 10);
  EXPECT_EQ(clock.place(Engine::CopyIn, 5, 10, &start), 20);
  EXPECT_EQ(start, 10);
  EXPECT_EQ(clock.place(Engine::CopyIn, 5, 10, &start), 30); // the rest of the gap
  EXPECT_EQ(start, 20);
  EXPECT_EQ(clock.place(Engine::CopyIn, 5, 10, &start), 50); // none left: after the last
  EXPECT_EQ(start, 40);
  // The same operations in the other order end at the same time.
  DeviceClock other(2);
  other.place(Engine::CopyIn, 5, 10);
  other.place(Engine::CopyIn, 0, 10);
  EXPECT_EQ(other.place(Engine::CopyIn, 30, 10), 40);
}

TEST(Timing, CurrentTimelineIsPerThreadAndScoped) {
  DeviceClock clock(1);
  Timeline outer, inner;
  EXPECT_EQ(currentTimeline(), nullptr);
  EXPECT_EQ(chargeCurrent(clock, Engine::Compute, 5), 0); // no operation runs: no effect
  {
    TimelineScope a(&outer);
    chargeCurrent(clock, Engine::Compute, 5);
    {
      TimelineScope b(&inner);
      EXPECT_EQ(currentTimeline(), &inner);
      EXPECT_EQ(chargeCurrent(clock, Engine::Compute, 2), 5); // after outer's work
    }
    EXPECT_EQ(currentTimeline(), &outer);
    std::thread([&] { EXPECT_EQ(currentTimeline(), nullptr); }).join();
  }
  EXPECT_EQ(outer.readyNs.load(), 5);
  EXPECT_EQ(inner.readyNs.load(), 7);
  EXPECT_EQ(currentTimeline(), nullptr);
}

TEST(Timing, CopiesCostLatencyPlusBytesOverTheirLink) {
  DeviceProfile p = profile("h200");
  double pinned = copyNs(p, CopyRoute::HostToDevicePinned, 64 << 20);
  double pageable = copyNs(p, CopyRoute::HostToDevicePageable, 64 << 20);
  double device = copyNs(p, CopyRoute::DeviceToDevice, 64 << 20);
  EXPECT_NEAR(pinned, p.copyLatencyUs * 1000 + (64 << 20) / p.hostLinkBandwidthGBs, 1);
  EXPECT_GT(pageable, 2 * pinned);
  EXPECT_LT(device, pinned / 10);
  EXPECT_GT(copyNs(p, CopyRoute::HostToDevicePinned, 0), 0); // latency alone
  EXPECT_EQ(engineFor(CopyRoute::HostToDevicePinned), Engine::CopyIn);
  EXPECT_EQ(engineFor(CopyRoute::DeviceToHostPageable), Engine::CopyOut);
  EXPECT_EQ(engineFor(CopyRoute::DeviceToDevice), Engine::Compute);
  EXPECT_LT(memsetNs(p, 1 << 20), memsetNs(p, 64 << 20));
}

// Figures from tests/hardware/probes/mechanisms.h200.txt: pitched device copies are bound by
// their rows when narrow and by a far lower bandwidth than linear copies when wide; pitched
// host copies stay bound by the link.
TEST(Timing, PitchedCopiesGoRowByRow) {
  DeviceProfile p = profile("h200");
  auto us = [&](CopyRoute r, double width, double rows) {
    return copyNs(p, r, uint64_t(width * rows), uint64_t(rows)) / 1000;
  };
  EXPECT_NEAR(us(CopyRoute::DeviceToDevice, 64, 16384), 18.50, 18.50 * 0.1);
  EXPECT_NEAR(us(CopyRoute::DeviceToDevice, 16000, 4096), 87.14, 87.14 * 0.1);
  EXPECT_NEAR(us(CopyRoute::DeviceToDevice, 4096, 16384), 87.52, 87.52 * 0.1);
  // The same bytes as one linear copy: 40.42 us measured.
  EXPECT_LT(us(CopyRoute::DeviceToDevice, 4096 * 16384, 1), 0.6 * us(CopyRoute::DeviceToDevice, 4096, 16384));
  // Row count alone moves a narrow copy: 1024 -> 16384 rows of 64 bytes, 9.3 -> 18.5 us.
  EXPECT_GT(us(CopyRoute::DeviceToDevice, 64, 16384), 1.8 * us(CopyRoute::DeviceToDevice, 64, 1024));
  EXPECT_NEAR(us(CopyRoute::HostToDevicePinned, 4000, 4096),
              us(CopyRoute::HostToDevicePinned, 4000 * 4096, 1), 10);
}

namespace {
/// A launch of `blocks` x 256 threads with hand-filled counters, as instrumented code would.
struct Fixture {
  KernelEntry kernel;
  GridLaunch launch;
  std::vector<char> memory = std::vector<char>(1 << 22);
  std::unique_ptr<KernelCounters> counters;
  explicit Fixture(uint32_t blocks) {
    kernel.name = "k";
    kernel.instrumented = true;
    kernel.timingSites = 2;
    launch.kernel = &kernel;
    launch.grid = {blocks, 1, 1};
    launch.block = {256, 1, 1};
    counters = std::make_unique<KernelCounters>(launch, memory.data(), memory.size());
  }
  /// Every thread loads one float at `stride` floats and stores one contiguous float.
  void streaming(uint32_t stride) {
    uint64_t threads = launch.grid.count() * 256;
    counters->classes[musa::sim::abi::ClassInt] = threads * 4;
    SiteStats &load = counters->sites[0], &store = counters->sites[1];
    load.info = 4 | (1u << musa::sim::abi::AccessGroupShift);
    store.info = 4 | musa::sim::abi::AccessStore;
    load.globalExecs = store.globalExecs = threads;
    load.globalWarps = store.globalWarps = threads / 32;
    load.globalLanes = store.globalLanes = threads;
    load.sectors = threads / 32 * std::min<uint64_t>(32, 4 * stride);
    load.lines = threads / 32 * std::min<uint64_t>(32, stride);
    store.sectors = threads / 32 * 4, store.lines = threads / 32;
    for (uint64_t t = 0; t < threads; ++t) {
      counters->touch(uintptr_t(memory.data()) + (t * stride * 4) % (1 << 21), 4, false);
      counters->touch(uintptr_t(memory.data()) + (1 << 21) + t * 4 % (1 << 21), 4, true);
    }
  }
};
} // namespace

// Zero-copy: a stream over pinned host memory (GridLaunch::hostMemory says which addresses
// are) crosses the host link at host_link_bandwidth_gbs in the busier direction, not the DRAM
// bus; the same stream over device memory is bandwidth-bound far below that.
TEST(Timing, MappedHostMemoryCrossesTheHostLink) {
  DeviceProfile p = profile("h200");
  static std::vector<char> host(1 << 23);
  Fixture f(4096);
  f.launch.hostMemory = [](const void *q) {
    return q >= host.data() && q < host.data() + host.size();
  };
  f.counters = std::make_unique<KernelCounters>(f.launch, f.memory.data(), f.memory.size());
  f.streaming(1);
  KernelEstimate device = estimateKernel(p, f.launch, *f.counters);
  EXPECT_EQ(f.counters->hostSectors(false), 0u);
  // The same launch's reads from 8 MB of host memory instead.
  Fixture g(4096);
  g.launch.hostMemory = f.launch.hostMemory;
  g.counters = std::make_unique<KernelCounters>(g.launch, g.memory.data(), g.memory.size());
  g.streaming(1);
  g.counters->touch(uintptr_t(host.data()), host.size(), false);
  EXPECT_EQ(g.counters->hostSectors(false), host.size() / 32);
  EXPECT_EQ(g.counters->hostSectors(true), 0u);
  KernelEstimate zeroCopy = estimateKernel(p, g.launch, *g.counters);
  const double cyclesPerNs = p.clockRateKHz / 1e6;
  EXPECT_NEAR(zeroCopy.hostLinkCycles, host.size() / (p.hostLinkBandwidthGBs / cyclesPerNs), 1);
  EXPECT_EQ(zeroCopy.limiter, "host link");
  EXPECT_GT(zeroCopy.ns, 5 * device.ns);
}

// Local memory: each thread fills a stack array of `frame` bytes (one coalesced warp store per
// 4-byte element, interleaved by lane) and reads it back. The frames are the footprint (their
// stores cross the DRAM bus once, as written-back lines do), and loads stop hitting L1 once the
// resident threads' frames outgrow it.
TEST(Timing, LocalFramesAreFootprintAndCostL1WhenTheyFit) {
  DeviceProfile p = profile("h200");
  auto estimate = [&](uint64_t frame) {
    Fixture f(4096); // 2^20 threads
    uint64_t threads = f.launch.grid.count() * 256, elements = frame / 4;
    SiteStats &store = f.counters->sites[0], &load = f.counters->sites[1];
    store.info = 4 | musa::sim::abi::AccessStore | musa::sim::abi::AccessLocal;
    load.info = 4 | musa::sim::abi::AccessLocal | (1u << musa::sim::abi::AccessGroupShift);
    for (SiteStats *s : {&store, &load}) {
      s->globalExecs = threads * elements;
      s->globalWarps = threads / 32 * elements, s->globalLanes = threads * elements;
      s->sectors = s->globalWarps * 4, s->lines = s->globalWarps;
      s->localExtent = frame;
    }
    return estimateKernel(p, f.launch, *f.counters);
  };
  KernelEstimate small = estimate(32), middle = estimate(128), big = estimate(512);
  EXPECT_NEAR(small.footprintBytes, 32.0 * (1 << 20), 1);
  EXPECT_NEAR(big.footprintBytes, 512.0 * (1 << 20), 1);
  EXPECT_NEAR(small.dramBytes, 32.0 * (1 << 20), 1 << 20);
  EXPECT_NEAR(middle.dramBytes, 128.0 * (1 << 20), 1 << 20); // its loads hit L1
  // 512-byte frames (1 MB per SM) miss L1: their loads reach L2 too, so the big case costs
  // more than four times the middle one (measured on the H200: 188 against 38 us).
  EXPECT_GT(big.ns, 4 * middle.ns);
  EXPECT_EQ(middle.limiter, "memory bandwidth");
}

// A compare-and-swap retry loop of 65536 threads over 1024 floats (64 contenders each): with
// a warp's lanes on distinct addresses it is bound by one round trip per success (the H200:
// 44.7 us, tests/validation/timing_mechanisms.mu); with a warp's lanes on one address every
// try is served one after another.
TEST(Timing, CompareAndSwapLoopsCostRoundTripsOrSerialTries) {
  DeviceProfile p = profile("h200");
  auto estimate = [&](bool lanesTogether) {
    Fixture f(256); // 65536 threads
    uint64_t threads = 65536, warps = threads / 32;
    f.counters->sites.resize(1);
    SiteStats &cas = f.counters->sites[0];
    cas.info = 4 | musa::sim::abi::AccessAtomic | musa::sim::abi::AccessRetry;
    cas.globalExecs = threads;
    cas.globalWarps = warps, cas.globalLanes = threads;
    cas.sectors = warps * (lanesTogether ? 1 : 4), cas.lines = warps;
    cas.addressRequests = lanesTogether ? warps : threads;
    uintptr_t base = uintptr_t(f.memory.data());
    cas.lowest = base, cas.highest = base + 4096;
    return estimateKernel(p, f.launch, *f.counters);
  };
  KernelEstimate apart = estimate(false), together = estimate(true);
  EXPECT_EQ(apart.limiter, "atomics");
  EXPECT_NEAR(apart.atomicCycles, 64 * p.casRoundCycles, 1);
  EXPECT_NEAR(apart.ns / 1000, 44.67, 44.67 * 0.2);
  // Together: 65536 x (64 + 1) / 2 tries, one after another in each of the 8 units of 512
  // bytes the 4 KB span covers.
  EXPECT_NEAR(together.atomicCycles, 65536 * 32.5 * p.casTryCycles / 8,
              together.atomicCycles * 0.01);
  EXPECT_GT(together.atomicCycles, apart.atomicCycles);
}

// Atomics (tests/hardware/probes/atomic_footprint.h200.txt): 2^22 atomicAdds whose warps
// spread over 32 sectors of a 1 MB array go at the device's sector-request rate; the same
// over 16 words of one line serialise at the single unit, where each lane beyond the first
// on an address costs its own turn; a warp on 32 words of one line (4 sectors) is bound by
// the addresses the device applies a cycle.
TEST(Timing, AtomicsBoundBySectorRequestsUnitsOrAddresses) {
  DeviceProfile p = profile("h200");
  auto estimate = [&](uint64_t sectorsPerWarp, uint64_t linesPerWarp, uint64_t addressesPerWarp,
                      uint64_t sameAddressPerWarp, uint64_t spanBytes) {
    Fixture f(16384); // 2^22 threads
    uint64_t threads = uint64_t(1) << 22, warps = threads / 32;
    f.counters->sites.resize(1);
    SiteStats &add = f.counters->sites[0];
    add.info = 4 | musa::sim::abi::AccessAtomic;
    add.globalExecs = threads;
    add.globalWarps = warps, add.globalLanes = threads;
    add.sectors = warps * sectorsPerWarp, add.lines = warps * linesPerWarp;
    add.addressRequests = warps * addressesPerWarp;
    add.sameAddressLanes = warps * sameAddressPerWarp;
    uintptr_t base = uintptr_t(f.memory.data());
    add.lowest = base, add.highest = base + spanBytes;
    return estimateKernel(p, f.launch, *f.counters);
  };
  double warps = double(1 << 22) / 32;
  KernelEstimate scattered = estimate(32, 32, 32, 0, 1 << 20);
  EXPECT_NEAR(scattered.atomicCycles, warps * 32 / p.atomicSectorsPerCycle, 1);
  KernelEstimate sixteen = estimate(2, 1, 14, 6, 64);
  EXPECT_NEAR(sixteen.atomicCycles,
              warps * (2 * p.atomicSectorCycles + 6 * p.sameAddressAtomicCycles), 1);
  EXPECT_EQ(sixteen.limiter, "atomics");
  KernelEstimate line = estimate(4, 1, 32, 0, 1 << 20);
  EXPECT_NEAR(line.atomicCycles, warps * 32 / p.atomicOpsPerCycle, 1);
  // The probe's figures, within 25 %: 45.9, 782 and 16.3 us.
  EXPECT_NEAR(scattered.ns / 1000, 45.9, 45.9 * 0.25);
  EXPECT_NEAR(sixteen.ns / 1000, 782, 782 * 0.25);
  EXPECT_NEAR(line.ns / 1000, 16.3, 16.3 * 0.25);
}

TEST(Timing, SameAddressLanesCountLanesQueuedBehindAnotherOnTheirSector) {
  std::vector<uint64_t> none;
  EXPECT_EQ(sameAddressLanes(none, false), 0u);
  // Every lane on one address: the compiler combines an add (at an address every lane
  // computes alike) into one atomic; an exchange, say, is applied lane after lane.
  std::vector<uint64_t> one(32, 0x1000);
  EXPECT_EQ(sameAddressLanes(one, true), 0u);
  EXPECT_EQ(sameAddressLanes(one, false), 31u);
  // Lanes on distinct words (four sectors): nothing waits.
  std::vector<uint64_t> distinct;
  for (uint64_t lane = 0; lane < 32; ++lane)
    distinct.push_back(0x1000 + 4 * lane);
  EXPECT_EQ(sameAddressLanes(distinct, false), 0u);
  // Two addresses of one sector, 20 and 12 lanes, interleaved: the busier one's 19 others wait.
  std::vector<uint64_t> twoInOneSector;
  for (uint64_t lane = 0; lane < 32; ++lane)
    twoInOneSector.push_back(lane % 8 < 5 ? 0x2004 : 0x2010);
  EXPECT_EQ(sameAddressLanes(twoInOneSector, false), 19u);
  // Four addresses in four sectors, eight lanes each, in reverse order: 7 wait in each.
  std::vector<uint64_t> fourSectors;
  for (uint64_t lane = 0; lane < 32; ++lane)
    fourSectors.push_back(0x3000 + 32 * (3 - lane / 8));
  EXPECT_EQ(sameAddressLanes(fourSectors, false), 28u);
}

TEST(Timing, FootprintCountsDistinctSectorsReadAndWritten) {
  Fixture f(1);
  uintptr_t base = uintptr_t(f.memory.data());
  f.counters->touch(base, 4, false);
  f.counters->touch(base + 8, 4, false);  // same sector
  f.counters->touch(base + 30, 4, false); // spans two sectors
  f.counters->touch(base, 4, true);       // written too: crosses the bus again
  EXPECT_EQ(f.counters->uniqueSectors(), 3u);
  EXPECT_EQ(f.counters->untrackedSectors(), 0u);
  int outside = 0;
  f.counters->touch(uintptr_t(&outside), 4, false); // not device memory: counted apart
  EXPECT_EQ(f.counters->untrackedSectors(), 1u);
}

// DRAM reads 2 or 4 sectors at a time: a read sector brings the rest of its granule along;
// written sectors do not.
TEST(Timing, FootprintCountsTheRestOfEachReadGranule) {
  Fixture f(1);
  uintptr_t base = uintptr_t(f.memory.data());
  f.counters->touch(base, 4, false);            // sector 0
  f.counters->touch(base + 32 * 5, 4, false);   // sector 5
  f.counters->touch(base + 32 * 6, 64, false);  // sectors 6 and 7
  f.counters->touch(base + 32 * 12, 4, true);   // sector 12, written
  auto one = f.counters->footprintSectors(1);
  EXPECT_EQ(one.unique, 5u);
  EXPECT_EQ(one.readGranuleExtra, 0u);
  auto two = f.counters->footprintSectors(2); // granules {0,1} {4,5} {6,7}
  EXPECT_EQ(two.unique, 5u);
  EXPECT_EQ(two.readGranuleExtra, 2u);
  auto four = f.counters->footprintSectors(4); // granules {0-3} {4-7}
  EXPECT_EQ(four.readGranuleExtra, 8u - 4u);
}

// What L2 keeps across launches is tracked by the stretches a launch touched, not by one
// range from its lowest to its highest address.
TEST(Timing, FootprintSpansAreTheStretchesTouched) {
  Fixture f(1);
  uintptr_t base = uintptr_t(f.memory.data());
  const uint64_t chunk = 64 * 1024, mb = 1 << 20;
  f.counters->touch(base + 100, 4, false);         // chunk 0
  f.counters->touch(base + chunk + 10, 4, true);   // chunk 1: joins chunk 0
  f.counters->touch(base + 3 * mb + 40, 4, false); // far away: a span of its own
  std::vector<AddressSpan> spans = f.counters->footprintSpans();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].lo, base);
  EXPECT_EQ(spans[0].hi, base + 2 * chunk);
  EXPECT_DOUBLE_EQ(spans[0].bytes, 64);
  EXPECT_EQ(spans[1].lo, base + 3 * mb);
  EXPECT_DOUBLE_EQ(spans[1].bytes, 32);
  std::vector<AddressSpan> one = f.counters->footprintSpans(1); // at most one: joined
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].lo, base);
  EXPECT_EQ(one[0].hi, base + 3 * mb + chunk);
  EXPECT_DOUBLE_EQ(one[0].bytes, 96);
}

TEST(Timing, L2KeepsTheSpansALaunchTouchedNotWhatLiesBetween) {
  const double mb = 1 << 20, capacity = 30 * mb;
  const uint64_t m = 1 << 20;
  L2Residency l2;
  // A launch read 8 MB at the start of a 100 MB allocation and wrote 8 MB after its end.
  l2.record({{0, 8 * m, 8 * mb}, {100 * m, 108 * m, 8 * mb}}, 16 * mb, capacity);
  EXPECT_DOUBLE_EQ(l2.warmBytes({{0, 8 * m, 8 * mb}}, capacity), 8 * mb);
  EXPECT_EQ(l2.warmBytes({{40 * m, 60 * m, 20 * mb}}, capacity), 0); // between them: cold
  // A span is at most as warm as its own bytes.
  EXPECT_DOUBLE_EQ(l2.warmBytes({{0, 16 * m, 2 * mb}}, capacity), 2 * mb);
  EXPECT_DOUBLE_EQ(l2.warmBytes({{0, 8 * m, 8 * mb}, {104 * m, 108 * m, 4 * mb}}, capacity),
                   12 * mb);
}

TEST(Timing, ModelTracksBandwidthCoalescingAndLaunchOverhead) {
  DeviceProfile p = profile("h200");
  Fixture small(4), big(4096), strided(4096);
  small.streaming(1);
  big.streaming(1);
  strided.streaming(8);
  KernelEstimate s = estimateKernel(p, small.launch, *small.counters);
  KernelEstimate b = estimateKernel(p, big.launch, *big.counters);
  KernelEstimate st = estimateKernel(p, strided.launch, *strided.counters);
  EXPECT_GE(s.ns, p.kernelLaunchUs * 1000); // never below the launch overhead
  EXPECT_LT(s.ns, p.kernelLaunchUs * 1000 + 2000);
  EXPECT_GT(b.ns, s.ns);
  EXPECT_GT(st.sectors, 4 * b.sectors);
  EXPECT_GT(st.ns, b.ns); // uncoalesced loads cost transactions
  EXPECT_EQ(b.occupancy, 1.0);
  EXPECT_EQ(b.blocksPerSM, 8);
  EXPECT_FALSE(b.limiter.empty());
  // The same counts on a device with a sixth of the bandwidth take longer.
  DeviceProfile slow = p;
  slow.memoryBandwidthGBs /= 6;
  EXPECT_GT(estimateKernel(slow, big.launch, *big.counters).ns, b.ns);
}

TEST(Timing, L2KeepsWhatWasTouchedLastWhileItFits) {
  const double mb = 1 << 20, capacity = 30 * mb;
  L2Residency l2;
  // What a launch asks about: [lo, hi), every byte of it touched.
  auto touched = [](double lo, double hi) {
    return std::vector<AddressSpan>{{uint64_t(lo), uint64_t(hi), hi - lo}};
  };
  EXPECT_EQ(l2.warmBytes(touched(0, 64 * mb), capacity), 0); // nothing touched yet
  l2.record({{0, uint64_t(16 * mb), 8 * mb}}, 8 * mb, capacity); // 8 MB over 16 MB
  EXPECT_DOUBLE_EQ(l2.warmBytes(touched(0, 16 * mb), capacity), 8 * mb);
  // Half its range overlaps; elsewhere, nothing.
  EXPECT_DOUBLE_EQ(l2.warmBytes(touched(8 * mb, 24 * mb), capacity), 4 * mb);
  EXPECT_EQ(l2.warmBytes(touched(16 * mb, 32 * mb), capacity), 0);
  // Untracked copies touch more: the span stays whole while it and what came after fit C
  // (30 MB), keeps 2C minus that much between C and 2C, and is gone at 2C.
  l2.record({}, 22 * mb, capacity); // 30 MB: fits
  EXPECT_DOUBLE_EQ(l2.warmBytes(touched(0, 16 * mb), capacity), 8 * mb);
  l2.record({}, 16 * mb, capacity); // 46 MB: 60 - 46 = 14 MB of room, all 8 MB kept
  EXPECT_DOUBLE_EQ(l2.warmBytes(touched(0, 16 * mb), capacity), 8 * mb);
  l2.record({}, 12 * mb, capacity); // 58 MB: 2 MB kept
  EXPECT_DOUBLE_EQ(l2.warmBytes(touched(0, 16 * mb), capacity), 2 * mb);
  l2.record({}, 4 * mb, capacity);
  EXPECT_EQ(l2.warmBytes(touched(0, 16 * mb), capacity), 0);
  // One stream twice the capacity evicts itself.
  L2Residency streaming;
  streaming.record({{0, uint64_t(64 * mb), 64 * mb}}, 64 * mb, capacity);
  EXPECT_EQ(streaming.warmBytes(touched(0, 64 * mb), capacity), 0);
}

TEST(Timing, WarmBytesSkipDramAndItsLatency) {
  DeviceProfile p = profile("h200");
  Fixture f(1024);
  f.streaming(1);
  KernelEstimate cold = estimateKernel(p, f.launch, *f.counters);
  KernelEstimate warm = estimateKernel(p, f.launch, *f.counters, 1.0); // all of it in L2
  EXPECT_GT(cold.footprintBytes, 0);
  EXPECT_LT(warm.dramBytes, cold.dramBytes);
  EXPECT_LT(warm.ns, cold.ns);
  // What the runtime asks L2Residency about.
  std::vector<AddressSpan> spans = f.counters->footprintSpans();
  ASSERT_FALSE(spans.empty());
  EXPECT_GT(spans.front().hi, spans.front().lo);
}

TEST(Timing, OccupancyFollowsSharedMemoryAndBlockSize) {
  DeviceProfile p = profile("h200");
  Fixture f(1024);
  f.streaming(1);
  f.kernel.staticSharedBytes = 100 * 1024; // two blocks per multiprocessor fit in 228 KB
  KernelEstimate e = estimateKernel(p, f.launch, *f.counters);
  EXPECT_EQ(e.blocksPerSM, 2);
  EXPECT_DOUBLE_EQ(e.occupancy, 2 * 256.0 / 2048);
}

TEST(Timing, DivergenceRaisesWarpInstructions) {
  DeviceProfile p = profile("h200");
  Fixture uniform(64), divergent(64);
  uniform.streaming(1);
  divergent.streaming(1);
  // Sampled blocks saw threads execute 1 instruction per warp instruction (32 lanes)
  // versus every lane on its own path (warp instructions = thread instructions).
  uniform.counters->sampledWarpClasses[musa::sim::abi::ClassInt] = 1;
  uniform.counters->sampledThreadClasses[musa::sim::abi::ClassInt] = 32;
  divergent.counters->sampledWarpClasses[musa::sim::abi::ClassInt] = 32;
  divergent.counters->sampledThreadClasses[musa::sim::abi::ClassInt] = 32;
  KernelEstimate u = estimateKernel(p, uniform.launch, *uniform.counters);
  KernelEstimate d = estimateKernel(p, divergent.launch, *divergent.counters);
  EXPECT_DOUBLE_EQ(d.warpInstructions[musa::sim::abi::ClassInt], 32 * u.warpInstructions[musa::sim::abi::ClassInt]);
  EXPECT_GT(d.computeCycles, u.computeCycles);
}

// Blocks that do almost nothing are bound by the rate a multiprocessor takes new blocks (the
// H200: one 256-thread block every 80 ns per SM, tests/hardware/probes/block_turnover.h200.txt);
// the same work in few blocks is not.
TEST(Timing, ManyTinyBlocksAreBoundByBlockLaunch) {
  DeviceProfile p = profile("h200");
  Fixture many(132 * 1000); // 1000 blocks on each multiprocessor, 4 integer ops a thread
  many.counters->classes[musa::sim::abi::ClassInt] = uint64_t(132) * 1000 * 256 * 4;
  KernelEstimate e = estimateKernel(p, many.launch, *many.counters);
  EXPECT_EQ(e.limiter, "block launch");
  EXPECT_NEAR(e.dispatchCycles, 1000 * p.blockLaunchCycles, 1);
  Fixture few(132);
  few.counters->classes[musa::sim::abi::ClassInt] = uint64_t(132) * 1000 * 256 * 4;
  KernelEstimate f = estimateKernel(p, few.launch, *few.counters);
  EXPECT_NE(f.limiter, "block launch");
  EXPECT_LT(f.ns, e.ns);
  // 1024-thread blocks: per warp, when that is more than per block.
  many.launch.block = {1024, 1, 1};
  EXPECT_NEAR(estimateKernel(p, many.launch, *many.counters).dispatchCycles,
              1000 * 32 * p.warpLaunchCycles, 1);
}

TEST(Timing, SampledBlocksOfARowAreMidShareAndOfAGridOfRowsAvoidTheEdges) {
  uint64_t ids[KernelCounters::MaxSamples];
  // One row of 4096 blocks, two samples: the middle of each half, as before.
  ASSERT_EQ(sampledBlocks(Dim3{4096, 1, 1}, 2, ids), 2);
  EXPECT_EQ(ids[0], 1024u);
  EXPECT_EQ(ids[1], 3072u);
  // 64 x 64 blocks: half across a quarter down, then a quarter across three quarters down.
  ASSERT_EQ(sampledBlocks(Dim3{64, 64, 1}, 2, ids), 2);
  EXPECT_EQ(ids[0], 16u * 64 + 32);
  EXPECT_EQ(ids[1], 48u * 64 + 16);
  // 128 x 128, eight samples: none in column 0, all distinct rows, ascending.
  ASSERT_EQ(sampledBlocks(Dim3{128, 128, 1}, 8, ids), 8);
  for (int k = 0; k < 8; ++k) {
    EXPECT_NE(ids[k] % 128, 0u) << k;
    if (k)
      EXPECT_GT(ids[k] / 128, ids[k - 1] / 128) << k;
  }
  // Rows over z as well: 4 x 2 x 2, one sample in the middle row (y 0, z 1), column 2.
  ASSERT_EQ(sampledBlocks(Dim3{4, 2, 2}, 1, ids), 1);
  EXPECT_EQ(ids[0], 2u * 4 + 2);
  // More samples than blocks: each block at most once.
  EXPECT_EQ(sampledBlocks(Dim3{1, 1, 1}, 4, ids), 1);
  EXPECT_EQ(ids[0], 0u);
  EXPECT_LE(sampledBlocks(Dim3{2, 2, 1}, 16, ids), 4);
  // Never the last block or the last row or column when there are others (partial blocks at
  // the end of a 1D range, at the right and bottom edges of an image): one full block and a
  // tail block sample the full one; 2 x 2 blocks sample (0, 0).
  ASSERT_EQ(sampledBlocks(Dim3{2, 1, 1}, 1, ids), 1);
  EXPECT_EQ(ids[0], 0u);
  ASSERT_EQ(sampledBlocks(Dim3{2, 2, 1}, 1, ids), 1);
  EXPECT_EQ(ids[0], 0u);
}

TEST(Timing, ScatteredLinesAreThoseOfWarpAccessesSpreadOverDramPages) {
  auto lines = [](const std::vector<uint64_t> &sectors) {
    uint64_t n = 0, previous = ~uint64_t(0);
    for (uint64_t s : sectors)
      if (s / 4 != previous)
        ++n, previous = s / 4;
    return n;
  };
  std::vector<uint64_t> gather, coalesced{0, 1, 2, 3}, stride32, column4{0, 32, 64, 96},
      straddle{31, 32};
  for (uint64_t lane = 0; lane < 32; ++lane) {
    gather.push_back(lane * 977 * 32); // a sector in a page of its own
    stride32.push_back(lane * 4);      // a line per lane, eight lines a 1 KB page
  }
  EXPECT_EQ(scatteredLines(gather, lines(gather)), 32u);
  EXPECT_EQ(scatteredLines(coalesced, lines(coalesced)), 0u);
  EXPECT_EQ(scatteredLines(stride32, lines(stride32)), 0u);
  EXPECT_EQ(scatteredLines(column4, lines(column4)), 4u);
  EXPECT_EQ(scatteredLines(straddle, lines(straddle)), 0u); // two lines across a page edge
}

// Stores of 4 bytes each to sectors of their own (a permuting scatter) over a footprint L2
// cannot hold: DRAM reads and writes back a granule per store that finds its sector evicted,
// at the scattered rate. The same stores writing whole sectors (the sampled blocks' traces
// say which) cost no such traffic.
TEST(Timing, PartialSectorStoresBeyondL2CostAReadModifyWriteEach) {
  DeviceProfile p = profile("h200");
  p.l2CacheSize = 1 << 20; // 1 MB against the 4 MB written below
  auto estimate = [&](uint64_t partialSectors) {
    Fixture f(4096); // 2^20 threads
    uint64_t threads = uint64_t(1) << 20, warps = threads / 32;
    f.counters->sites.resize(1);
    SiteStats &store = f.counters->sites[0];
    store.info = 4 | musa::sim::abi::AccessStore;
    store.globalExecs = threads, store.globalWarps = warps, store.globalLanes = threads;
    store.sectors = store.lines = store.scatteredLines = warps * 32;
    for (uint64_t t = 0; t < threads; ++t)
      f.counters->touch(uintptr_t(f.memory.data()) + t * 4, 4, true);
    f.counters->sampledStoreSectors = 256;
    f.counters->sampledPartialStoreSectors = partialSectors;
    return estimateKernel(p, f.launch, *f.counters);
  };
  KernelEstimate whole = estimate(0), partial = estimate(256), half = estimate(128);
  // 2^20 sector stores, three quarters of them evicted (4 MB over 1 MB), two 64-byte
  // granules each.
  const double rmw = double(1 << 20) * 0.75 * 2 * 64;
  EXPECT_NEAR(partial.dramBytes - whole.dramBytes, rmw, rmw * 0.01);
  EXPECT_NEAR(half.dramBytes - whole.dramBytes, rmw / 2, rmw * 0.01);
  const double cyclesPerNs = p.clockRateKHz / 1e6;
  EXPECT_NEAR(partial.dramCycles - whole.dramCycles,
              rmw / (p.memoryBandwidthGBs * p.dramScatteredEfficiency / cyclesPerNs), 1);
}

TEST(Timing, ScatteredWarpLoadsWaitForTheirSlowestLineUnderLoad) {
  DeviceProfile p = profile("h200");
  p.l2CacheSize = 64 << 10; // every line from DRAM
  auto estimate = [&](uint32_t blocks, bool scattered, double loaded) {
    p.dramLoadedCycles = loaded;
    Fixture f(blocks);
    uint64_t threads = uint64_t(blocks) * 256, warps = threads / 32;
    f.counters->sites.resize(1);
    SiteStats &load = f.counters->sites[0];
    load.info = 4 | (1u << musa::sim::abi::AccessGroupShift);
    load.globalExecs = threads, load.globalWarps = warps, load.globalLanes = threads;
    load.sectors = load.lines = warps * 32; // each warp access spans 32 lines
    load.scatteredLines = scattered ? warps * 32 : 0;
    for (uint64_t t = 0; t < threads; ++t)
      f.counters->touch(uintptr_t(f.memory.data()) + (t * 128) % (1 << 22), 4, false);
    return estimateKernel(p, f.launch, *f.counters);
  };
  // 4096 blocks of 8 warps, 8 blocks a multiprocessor: four waves of one load per warp. A
  // scattered access waits for DRAM plus the tail of 32 latencies, not one cycle a line.
  KernelEstimate plain = estimate(4096, false, 0), scattered = estimate(4096, true, 0);
  EXPECT_NEAR(scattered.latencyCycles - plain.latencyCycles, 4 * (p.dramTailCycles - 31), 2);
  // Under load DRAM latency grows by dram_loaded_cycles a request in flight, up to the
  // bandwidth-delay product (2291 bytes a cycle over 660 cycles: 11813 lines).
  const double bytesPerCycle = p.memoryBandwidthGBs * p.dramEfficiency / (p.clockRateKHz / 1e6);
  const double product = bytesPerCycle * p.dramLatencyCycles / 128;
  KernelEstimate loaded = estimate(4096, false, 0.02);
  EXPECT_NEAR(loaded.latencyCycles - plain.latencyCycles, 4 * 0.02 * product, 2);
  // One block: 8 warps of 32 lines in flight.
  KernelEstimate alone = estimate(1, false, 0), alonePlus = estimate(1, false, 0.02);
  EXPECT_NEAR(alonePlus.latencyCycles - alone.latencyCycles, 0.02 * 256, 0.5);
}

TEST(Timing, FewWarpsASchedulerCannotHideTheirMemoryWaits) {
  DeviceProfile p = profile("h200");
  // 132 blocks of 8 warps: one block an SM, two warps a scheduler. Compute bounds the kernel;
  // half of the warps' memory waits stay exposed (one of two warps has nothing to issue while
  // the other waits), not term_overlap's share.
  Fixture f(132);
  uint64_t threads = 132 * 256;
  f.counters->classes[musa::sim::abi::ClassFp32] = threads * 20000;
  f.counters->sites.resize(1);
  SiteStats &load = f.counters->sites[0];
  load.info = 4 | (1u << musa::sim::abi::AccessGroupShift);
  load.globalExecs = threads * 64, load.globalWarps = threads / 32 * 64;
  load.globalLanes = threads * 64, load.sectors = load.globalWarps * 4;
  load.lines = load.globalWarps;
  for (uint64_t t = 0; t < threads; ++t)
    f.counters->touch(uintptr_t(f.memory.data()) + t * 4, 4, false);
  KernelEstimate e = estimateKernel(p, f.launch, *f.counters);
  ASSERT_GT(e.computeCycles, e.latencyCycles);
  double others = e.sharedCycles + e.dramCycles + e.l2Cycles + e.latencyCycles +
                  e.barrierCycles + e.atomicCycles + e.dispatchCycles;
  // No dependent chain counted: the latency term is the memory waits alone.
  EXPECT_NEAR(e.cycles,
              e.computeCycles + p.termOverlap * others + (0.5 - p.termOverlap) * e.latencyCycles,
              1);
}

// A latency-bound wave lasts as long as its longest warp: four blocks of eight warps (one
// wave) whose sampled warps' chains run from 1000 down to 125 steps (a triangular loop, as
// covariance's) cost the longest warp's chain, not the mean warp's; with the same mean and
// equal warps, the mean. Over more waves the blocks' longest warps add up, the last wave
// taking the longest measured.
TEST(Timing, ALatencyBoundWaveLastsAsLongAsItsLongestWarp) {
  DeviceProfile p = profile("h200");
  const double mean = 562.5; // (1000 + 875 + ... + 125) / 8
  auto estimate = [&](uint32_t blocks, bool triangular) {
    Fixture f(blocks);
    uint64_t threads = uint64_t(blocks) * 256;
    f.counters->chainThreads = threads * mean;
    f.counters->sampledWarpChain = 8 * mean, f.counters->sampledThreadChain = 256 * mean;
    f.counters->sampledChainWarps = 8, f.counters->sampledChainBlocks = 1;
    f.counters->sampledBlockLongestChains = f.counters->sampledLongestWarpChain =
        triangular ? 1000 : mean;
    return estimateKernel(p, f.launch, *f.counters);
  };
  KernelEstimate even = estimate(4, false), triangle = estimate(4, true);
  EXPECT_EQ(even.limiter, "latency");
  EXPECT_NEAR(even.latencyCycles, mean * p.dependentIssueCycles, 1);
  EXPECT_NEAR(triangle.latencyCycles, 1000 * p.dependentIssueCycles, 1);
  // 132 SMs x 8 blocks of 8 warps (2048 threads an SM) a wave: 2112 blocks are two waves,
  // each block's longest warp as long as the longest measured.
  KernelEstimate twoWaves = estimate(2112, true);
  EXPECT_NEAR(twoWaves.latencyCycles, 2 * 1000 * p.dependentIssueCycles, 1);
}

TEST(Timing, AGatheredVectorStaysInL2WhileAMatrixStreamsPast) {
  DeviceProfile p = profile("h200");
  p.l2CacheSize = 256 << 10;
  const uint64_t base = 0, streamBytes = 3 << 20;
  // A matrix of 3 MB read once, coalesced, and gathers of 3 MB of sectors (32 a warp) from a
  // vector of `vectorBytes` after it: footprint 3 MB plus the vector, beyond L2 either way.
  auto estimate = [&](uint64_t vectorBytes) {
    Fixture f(384);
    f.counters->sites.resize(2);
    SiteStats &stream = f.counters->sites[0], &gather = f.counters->sites[1];
    stream.info = gather.info = 4 | (1u << musa::sim::abi::AccessGroupShift);
    stream.globalExecs = stream.globalLanes = streamBytes / 4;
    stream.globalWarps = stream.globalExecs / 32, stream.sectors = stream.globalWarps * 4;
    stream.lines = stream.globalWarps;
    gather.globalWarps = streamBytes / 1024;
    gather.globalExecs = gather.globalLanes = gather.globalWarps * 32;
    gather.sectors = gather.lines = gather.globalWarps * 32;
    const uintptr_t at = uintptr_t(f.memory.data());
    stream.lowest = at + base, stream.highest = at + streamBytes;
    gather.lowest = at + streamBytes, gather.highest = at + streamBytes + vectorBytes;
    f.counters->touch(at, streamBytes + vectorBytes, false);
    return estimateKernel(p, f.launch, *f.counters);
  };
  // 32 KB read 96 times: between two touches of a line the matrix moves 1/96 of its 3 MB,
  // 32 KB; with the vector, 64 KB fit in L2: DRAM reads the footprint once.
  KernelEstimate small = estimate(32 << 10);
  EXPECT_NEAR(small.dramBytes, streamBytes + (32 << 10), 0.01 * streamBytes);
  // 1 MB read 3 times: 1 MB plus a third of the matrix pass between touches; of 2 MB, L2
  // keeps 256 KB, so 7/8 of the 2 MB of re-reads come from DRAM again.
  KernelEstimate large = estimate(1 << 20);
  EXPECT_NEAR(large.dramBytes, (4 << 20) + (2 << 20) * 0.875, 0.02 * (4 << 20));
}

TEST(Timing, AStencilsShiftedReadsOfOneArrayHitL2WhileTheShiftFits) {
  DeviceProfile p = profile("h200");
  p.l2CacheSize = 256 << 10;
  const uint64_t array = 2 << 20;
  // Three load sites read 2 MB each, coalesced, at addresses `shift` apart (a stencil's
  // neighbours a[c - s], a[c], a[c + s]): a line the first brings in is read again by the
  // others once the sweep has moved `shift` and `2 * shift` on.
  auto estimate = [&](uint64_t shift) {
    Fixture f(384);
    f.counters->sites.resize(3);
    const uintptr_t at = uintptr_t(f.memory.data());
    for (int k = 0; k < 3; ++k) {
      SiteStats &s = f.counters->sites[k];
      s.info = 4 | (1u << musa::sim::abi::AccessGroupShift);
      s.globalExecs = s.globalLanes = array / 4;
      s.globalWarps = s.globalExecs / 32, s.sectors = s.globalWarps * 4;
      s.lines = s.globalWarps;
      s.lowest = at + k * shift, s.highest = at + k * shift + array;
    }
    f.counters->touch(at, array + 2 * shift, false);
    return estimateKernel(p, f.launch, *f.counters);
  };
  // 32 KB apart: 64 KB pass between a line's first and last touch, well inside L2: DRAM
  // reads the footprint once.
  KernelEstimate near = estimate(32 << 10);
  EXPECT_NEAR(near.dramBytes, array + (64 << 10), 0.01 * array);
  // 512 KB apart: 1 MB passes in between, of which L2 keeps 256 KB: 3/4 of the 3 MB read
  // again come from DRAM.
  KernelEstimate far = estimate(512 << 10);
  EXPECT_NEAR(far.dramBytes, (3 << 20) + (3 << 20) * 0.75, 0.02 * (3 << 20));
}

TEST(Timing, SharedFloatAtomicsRetryPerRoundAndSerialisePerWord) {
  DeviceProfile p = profile("h200");
  // 1056 blocks of 8 warps, eight a multiprocessor: one wave. Each thread adds 256 floats to
  // a shared word: a compare-and-swap loop.
  auto estimate = [&](uint64_t rounds, uint64_t words) {
    Fixture f(1056);
    f.counters->sites.resize(1);
    SiteStats &s = f.counters->sites[0];
    s.info = 4 | musa::sim::abi::AccessAtomic | musa::sim::abi::AccessFloatAtomic;
    s.sharedExecs = 1056ull * 256 * 256;
    s.sharedWarps = 64, s.sharedLanes = 64 * 32, s.wavefronts = 64;
    s.sharedCasRounds = 64 * rounds;
    s.sharedCasBlockSamples = 8, s.sharedCasBlockWords = 8 * words;
    return estimateKernel(p, f.launch, *f.counters);
  };
  const double warpAdds = 1056.0 * 8 * 256, perSM = 8; // 1056 blocks over 132 SMs
  // Lanes on a hashed word of 64: about three rounds a warp, shared_cas_round_cycles each.
  KernelEstimate hashed = estimate(3, 64);
  EXPECT_NEAR(hashed.sharedCycles, warpAdds / 1056 * perSM * 3 * p.sharedCasRoundCycles, 1);
  // Every lane of the block on one word: 65536 adds in a row, a round trip each.
  KernelEstimate one = estimate(32, 1);
  EXPECT_NEAR(one.sharedCycles, 256.0 * 256 * p.sharedCasSerialCycles, 1);
  EXPECT_GT(one.sharedCycles, 10 * hashed.sharedCycles);
}

TEST(Timing, MemsetsBeyondAFewKilobytesCostAKernelLaunch) {
  DeviceProfile p = profile("h200");
  const double perByte = 1 / (p.memoryBandwidthGBs * p.dramEfficiency);
  // Up to memset_inline_bytes: the fixed cost and the bytes (the H200: 4 KB in 1.6 us).
  EXPECT_NEAR(memsetNs(p, 4096), p.memsetLatencyUs * 1000 + 4096 * perByte, 0.01);
  // Beyond: a memset kernel. Alone, an isolated launch before the bytes (the H200: 64 KB in
  // 6.5 us, 196 MB in 49 us)...
  EXPECT_NEAR(memsetNs(p, 64 << 10), p.kernelLaunchUs * 1000 + (64 << 10) * perByte, 0.01);
  EXPECT_NEAR(memsetNs(p, 196608000) / 1000, 49.3, 49.3 * 0.1);
  // ...queued behind other work, memset_kernel_us however few bytes (64 KB: 4.4-4.7 us)...
  EXPECT_NEAR(memsetNs(p, 64 << 10, 1, 1e9), p.memsetKernelUs * 1000, 0.01);
  // ...until the bytes take longer (64 MB: 17.7 us).
  EXPECT_NEAR(memsetNs(p, 64 << 20, 1, 1e9) / 1000, 17.7, 17.7 * 0.1);
  EXPECT_GT(memsetNs(p, 64 << 20, 1, 1e9), p.memsetKernelUs * 1000);
  // Queued behind work that ends 1 us after the call, it hides only that much.
  EXPECT_NEAR(memsetNs(p, 64 << 10, 1, 1000), memsetNs(p, 64 << 10) - 1000, 0.01);
}

TEST(Timing, DeviceCopiesInAGraphCostOnlyTheLaunchsDeviceSide) {
  DeviceProfile p = profile("h200");
  // On a stream a device-to-device copy costs an isolated launch even when queued (four
  // async copies back to back: 36 us on the H200); as a graph node only the device side
  // (a replayed graph of a copy, a memset and two kernels: 8 us a replay).
  const uint64_t bytes = 1 << 20;
  const double data = copyNs(p, CopyRoute::DeviceToDevice, bytes, 1, CopyQueue::Idle) -
                      p.kernelLaunchUs * 1000;
  EXPECT_GT(data, 0);
  EXPECT_NEAR(copyNs(p, CopyRoute::DeviceToDevice, bytes, 1, CopyQueue::SameEngine),
              p.kernelLaunchUs * 1000 + data, 0.01);
  EXPECT_NEAR(copyNs(p, CopyRoute::DeviceToDevice, bytes, 1, CopyQueue::GraphNode),
              (p.kernelLaunchUs - p.hostLaunchUs - p.hostLaunchColdUs) * 1000 + data, 0.01);
  // A pinned copy node starts at the copy engine's own cost.
  EXPECT_NEAR(copyNs(p, CopyRoute::HostToDevicePinned, 0, 1, CopyQueue::GraphNode),
              p.copyQueuedUs * 1000, 0.01);
}

TEST(Timing, PitchedMemsetsGoRowByRow) {
  DeviceProfile p = profile("h200");
  // The H200 (memset2d_rows.h200.txt): 64-byte rows in a 512-byte pitch, 65536 of them, 48 us
  // where the same 4 MB in one piece take 6.9; 3000-byte rows, 8192 of them, 11.4 us either way.
  EXPECT_NEAR(memsetNs(p, 64 * 65536, 65536) / 1000, 48.0, 48.0 * 0.1);
  EXPECT_NEAR(memsetNs(p, 64 * 65536) / 1000, 6.9, 6.9 * 0.1);
  EXPECT_NEAR(memsetNs(p, 3000 * 8192, 8192) / 1000, 11.4, 11.4 * 0.1);
  EXPECT_NEAR(memsetNs(p, 3000 * 8192, 8192), memsetNs(p, 3000 * 8192), 0.1 * memsetNs(p, 3000 * 8192));
}

TEST(Timing, PageableDeviceToHostCopiesWaitForTheirFirstBounceBuffer) {
  DeviceProfile p = profile("h200");
  auto us = [&](CopyRoute r, uint64_t bytes) { return copyNs(p, r, bytes) / 1000; };
  // The H200 (pageable_copies.h200.txt): host to device 94 us for 1 MB, 1.3 ms for 16 MB;
  // device to host 133 us and 1.5 ms: the same rate from 16 MB on, more start-up.
  EXPECT_NEAR(us(CopyRoute::HostToDevicePageable, 1 << 20), 94, 94 * 0.15);
  EXPECT_NEAR(us(CopyRoute::HostToDevicePageable, 16 << 20), 1297, 1297 * 0.15);
  EXPECT_NEAR(us(CopyRoute::DeviceToHostPageable, 1 << 20), 133, 133 * 0.15);
  EXPECT_NEAR(us(CopyRoute::DeviceToHostPageable, 16 << 20), 1499, 1499 * 0.15);
  EXPECT_GT(us(CopyRoute::DeviceToHostPageable, 1 << 20),
            1.2 * us(CopyRoute::HostToDevicePageable, 1 << 20));
}
