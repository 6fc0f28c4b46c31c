// DeviceProfile: what a simulated GPU is (limits, clocks, memory), read from a data file.
//
// Profile files are `key = value` lines with `#` comments; simdevice/profiles/ holds the
// shipped ones (embedded into the library at build time). Every field is required so a typo
// cannot silently fall back to a default; an unknown key or a bad value is an error naming it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace musa::sim {

struct DeviceProfile {
  std::string name;          // marketing name, e.g. "MTT S4000"
  std::string id;            // profile id, e.g. "mtt-s4000"
  std::string arch;          // e.g. "mp_22"
  int computeMajor = 0, computeMinor = 0;
  int multiProcessorCount = 0;
  int warpSize = 0;
  int maxThreadsPerBlock = 0;
  std::array<int, 3> maxBlockDim{};
  std::array<int, 3> maxGridDim{};
  int maxThreadsPerMultiProcessor = 0;
  int maxBlocksPerMultiProcessor = 0;
  uint64_t sharedMemPerBlock = 0;
  uint64_t sharedMemPerBlockOptin = 0;
  uint64_t sharedMemPerMultiprocessor = 0;
  int regsPerBlock = 0;
  int regsPerMultiprocessor = 0;
  int clockRateKHz = 0;
  int memoryClockRateKHz = 0;
  int memoryBusWidth = 0;
  uint64_t totalGlobalMem = 0;
  uint64_t totalConstMem = 0;
  int l2CacheSize = 0;
  /// L2 partitions that each cache what their own multiprocessors read (data every
  /// multiprocessor reads is held once per partition): what a launch finds in L2 from earlier
  /// operations is bounded by l2CacheSize / l2Partitions.
  int l2Partitions = 1;
  /// L1 data cache and shared memory of one multiprocessor together: what the resident
  /// blocks' shared memory leaves is the L1 cache.
  uint64_t l1CacheSize = 0;
  uint64_t memPitch = 0;
  uint64_t textureAlignment = 0;
  uint64_t texturePitchAlignment = 0;
  int asyncEngineCount = 0;
  double memoryBandwidthGBs = 0;
  double hostLinkBandwidthGBs = 0;

  // Timing model (simdevice/TIMING.md). Lanes are per multiprocessor.
  int issueWidth = 0;              // warp instructions issued per cycle per multiprocessor
  int fp32Lanes = 0, fp64Lanes = 0, intLanes = 0, sfuLanes = 0, ldstLanes = 0;
  int imadLanes = 0; // the integer multiply-add pipe (abi::ClassIntMul), beside intLanes' ALU
  /// Tensor cores: fp16 multiply-adds per cycle per multiprocessor that warp-level matrix
  /// multiplies (mma.sync, wmma::mma_sync) reach (abi::ClassTensor counts 2048 each).
  double tensorFp16MacsPerCycle = 0;
  double dependentIssueCycles = 0; // cycles between dependent instructions of one warp
  double dramLatencyCycles = 0;
  double l1LatencyCycles = 0, l2LatencyCycles = 0;
  /// DRAM latency under load: cycles added per line request outstanding device-wide.
  double dramLoadedCycles = 0;
  /// A warp access whose 32 lines scatter waits for its slowest line: the cycles that adds to
  /// the L2 and to the DRAM latency (fewer lines k: in proportion to sqrt((k - 1) / 31)).
  double l2TailCycles = 0, dramTailCycles = 0;
  double l1SectorsPerCycle = 0;    // per multiprocessor
  double l2RequestsPerCycle = 0;   // device-wide, one request per 128-byte line (loads)
  double l2StoreRequestsPerCycle = 0; // and for stores
  double l2BandwidthGBs = 0;
  double dramAccessBytes = 32;     // what DRAM reads at a time (32, 64 or 128)
  /// Fractions of memory_bandwidth_gbs that streams of DRAM reads, and of writes, reach
  /// (writes turn the bus around: a copy streams slower than a read-only sum).
  double dramEfficiency = 0, dramWriteEfficiency = 0;
  /// Scattered reads (warp accesses whose lines each open a DRAM page of their own, see
  /// SiteStats::scatteredLines): the fraction of memory_bandwidth_gbs they reach, fetched in
  /// dram_access_bytes granules (0: no limit of their own).
  double dramScatteredEfficiency = 0;
  /// Atomics (L2's atomic units): device-wide sector requests and addresses a cycle; at one
  /// unit (an address range whose atomics serialise, one L2 slice), the cycles of a sector
  /// request and of each further lane on an address a request already carries; and of one
  /// compare-and-swap try when a warp's lanes share an address.
  double atomicSectorsPerCycle = 0, atomicOpsPerCycle = 0;
  double atomicSectorCycles = 0, sameAddressAtomicCycles = 0;
  double sameAddressFloatAtomicCycles = 0; ///< a float add's lane (no combining)
  double atomicUnitBytes = 0;
  double casTryCycles = 0;
  /// Compare-and-swap retry loops: a round trip (one success per address per round), and the
  /// cycles a unit takes for one warp's compare-and-swap request to one line (lanes on
  /// distinct addresses).
  double casRoundCycles = 0;
  double casLineCycles = 0;
  /// Floating-point atomics on shared memory, which the GPU runs as a compare-and-swap loop:
  /// a multiprocessor's cycles per warp and round (a round per lane on the warp's busiest
  /// word), and per success on one word (one word's tries serialise at a round trip).
  double sharedCasRoundCycles = 0, sharedCasSerialCycles = 0;
  double barrierCycles = 0;
  /// A kernel takes its largest term plus this fraction of the others (the units overlap only
  /// partly: TimingModel.cpp).
  double termOverlap = 0.1;
  /// Block dispatch: a multiprocessor takes a new block at most every blockLaunchCycles, or
  /// warpLaunchCycles per warp of the block if that is more (the H200 starts 1.6 blocks a ns
  /// device-wide whatever they do: tests/hardware/probes/block_turnover.h200.txt).
  double blockLaunchCycles = 0;
  double warpLaunchCycles = 0;
  double kernelLaunchUs = 0;       // launch overhead as events see it
  /// Of kernelLaunchUs, what the host's launch call takes: the host issues one launch per
  /// hostLaunchUs (a burst of launches runs at that rate), the GPU adds the rest per kernel.
  double hostLaunchUs = 0;
  /// The host's first launch calls after it waited for the device cost more (caches and branch
  /// predictors of the launch path are cold): call k of a run costs hostLaunchUs +
  /// hostLaunchColdUs * exp(-k / hostLaunchWarmupCalls). kernelLaunchUs, an isolated launch,
  /// includes the first call's extra.
  double hostLaunchColdUs = 0;
  double hostLaunchWarmupCalls = 1;
  /// What an event record holds the GPU's front end for before the next kernel can start.
  double eventRecordUs = 0;
  /// What a kernel node of an executable graph adds on the GPU (the graph's launches are
  /// prepared once; its nodes go out back to back). Negative: unset, kernelLaunchUs -
  /// hostLaunchUs as for a stream launch.
  double graphKernelNodeUs = -1;
  /// Constant cache: cycles per distinct address a warp's constant load carries.
  double constAddressCycles = 2;
  /// A memset's fixed cost (before its bytes at the memory bandwidth), and the least a memset
  /// of more than `memsetInlineBytes` takes (the driver runs those as a kernel; smaller ones
  /// go inline in the command stream).
  double memsetLatencyUs = 0;
  double memsetKernelUs = 0, memsetInlineBytes = 0;
  double copyLatencyUs = 0;
  /// A synchronous copy or memset returns to the host this long after it ends (the host's
  /// wake-up from its wait): what separates it from an asynchronous one between two events
  /// (tests/hardware/probes/async_copies.h200.txt).
  double syncReturnUs = 0;
  /// A pinned host copy the host queued behind its stream's previous operation: the copy
  /// engine's own cost per copy when that operation ran on the same engine, and when it ran
  /// on another (the other direction's engine, or the SMs) and the stream hands over
  /// (tests/hardware/probes/copy_queue.h200.txt).
  double copyQueuedUs = 0, copySwitchUs = 0;
  /// Pitched (2D/3D) copies go row by row: their own start-up, at most copy2dBandwidthGBs, and
  /// at least copy2dRowNs per row (tests/hardware/probes/mechanisms.h200.txt).
  double copy2dLatencyUs = 0;
  double copy2dBandwidthGBs = 0;
  double copy2dRowNs = 0;
  /// Pageable host memory goes through pinned bounce buffers: host-to-device copies reach
  /// pageableCopyFactor of the link's bandwidth, device-to-host ones pageableD2hFactor, and a
  /// device-to-host copy first waits for one bounce buffer of pageableStageBytes (or the whole
  /// copy, if smaller) to arrive at the link's rate before the host can copy out of it
  /// (tests/hardware/probes/pageable_copies.h200.txt).
  double pageableCopyFactor = 0;
  double pageableD2hFactor = 0;
  double pageableStageBytes = 0;
  double peerBandwidthGBs = 0;
  int regsPerThread = 0;           // assumed register use per thread (occupancy)

  /// Parses profile text. On failure returns nullopt and sets `error` to a message naming the
  /// field (and `origin`, a file name or profile id).
  static std::optional<DeviceProfile> parse(const std::string &text, const std::string &origin,
                                            std::string &error);
  /// A shipped profile by id ("mtt-s4000", "h200", ...), or a path to a profile file.
  static std::optional<DeviceProfile> load(const std::string &idOrPath, std::string &error);
  /// Ids of the shipped profiles.
  static std::vector<std::string> shippedIds();
};

} // namespace musa::sim
