// Parsing and loading device profiles.
#include "musa/sim/DeviceProfile.h"

#include <charconv>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

namespace musa::sim {

// Generated at build time from simdevice/profiles/*.profile.
struct EmbeddedProfile {
  const char *id;
  const char *text;
};
extern const EmbeddedProfile EmbeddedProfiles[];
extern const unsigned EmbeddedProfileCount;

namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  size_t e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

template <class T> bool parseNumber(const std::string &v, T &out) {
  const char *end = v.data() + v.size();
  auto [ptr, ec] = std::from_chars(v.data(), end, out);
  return ec == std::errc() && ptr == end;
}

/// Accepts plain integers and K/M/G/T binary suffixes ("48G").
bool parseBytes(std::string v, uint64_t &out) {
  uint64_t scale = 1;
  if (!v.empty()) {
    switch (v.back()) {
    case 'K': scale = 1ull << 10; break;
    case 'M': scale = 1ull << 20; break;
    case 'G': scale = 1ull << 30; break;
    case 'T': scale = 1ull << 40; break;
    default: break;
    }
    if (scale != 1)
      v.pop_back();
  }
  uint64_t n = 0;
  if (!parseNumber(v, n) || n > UINT64_MAX / scale)
    return false;
  out = n * scale;
  return true;
}

using Setter = std::function<bool(DeviceProfile &, const std::string &)>;

template <class T> Setter integer(T DeviceProfile::*field) {
  return [field](DeviceProfile &p, const std::string &v) {
    T n{};
    return parseNumber(v, n) && n >= 0 && (p.*field = n, true);
  };
}
Setter bytes(uint64_t DeviceProfile::*field) {
  return [field](DeviceProfile &p, const std::string &v) { return parseBytes(v, p.*field); };
}
Setter bytesInt(int DeviceProfile::*field) {
  return [field](DeviceProfile &p, const std::string &v) {
    uint64_t n = 0;
    return parseBytes(v, n) && n <= INT32_MAX && (p.*field = int(n), true);
  };
}
Setter real(double DeviceProfile::*field) {
  return [field](DeviceProfile &p, const std::string &v) {
    char *end = nullptr;
    double d = std::strtod(v.c_str(), &end);
    return end && *end == '\0' && d > 0 && (p.*field = d, true);
  };
}
Setter text(std::string DeviceProfile::*field) {
  return [field](DeviceProfile &p, const std::string &v) {
    return !v.empty() && (p.*field = v, true);
  };
}
Setter triple(std::array<int, 3> DeviceProfile::*field) {
  return [field](DeviceProfile &p, const std::string &v) {
    std::istringstream in(v);
    std::array<int, 3> d{};
    char c1 = 0, c2 = 0;
    if (!(in >> d[0] >> c1 >> d[1] >> c2 >> d[2]) || c1 != ',' || c2 != ',')
      return false;
    for (int x : d)
      if (x <= 0)
        return false;
    p.*field = d;
    return true;
  };
}

const std::map<std::string, Setter> &fields() {
  static const std::map<std::string, Setter> table = {
      {"name", text(&DeviceProfile::name)},
      {"arch", text(&DeviceProfile::arch)},
      {"compute_major", integer(&DeviceProfile::computeMajor)},
      {"compute_minor", integer(&DeviceProfile::computeMinor)},
      {"multiprocessors", integer(&DeviceProfile::multiProcessorCount)},
      {"warp_size", integer(&DeviceProfile::warpSize)},
      {"max_threads_per_block", integer(&DeviceProfile::maxThreadsPerBlock)},
      {"max_block_dim", triple(&DeviceProfile::maxBlockDim)},
      {"max_grid_dim", triple(&DeviceProfile::maxGridDim)},
      {"max_threads_per_multiprocessor", integer(&DeviceProfile::maxThreadsPerMultiProcessor)},
      {"max_blocks_per_multiprocessor", integer(&DeviceProfile::maxBlocksPerMultiProcessor)},
      {"shared_mem_per_block", bytes(&DeviceProfile::sharedMemPerBlock)},
      {"shared_mem_per_block_optin", bytes(&DeviceProfile::sharedMemPerBlockOptin)},
      {"shared_mem_per_multiprocessor", bytes(&DeviceProfile::sharedMemPerMultiprocessor)},
      {"regs_per_block", integer(&DeviceProfile::regsPerBlock)},
      {"regs_per_multiprocessor", integer(&DeviceProfile::regsPerMultiprocessor)},
      {"clock_rate_khz", integer(&DeviceProfile::clockRateKHz)},
      {"memory_clock_rate_khz", integer(&DeviceProfile::memoryClockRateKHz)},
      {"memory_bus_width", integer(&DeviceProfile::memoryBusWidth)},
      {"total_global_mem", bytes(&DeviceProfile::totalGlobalMem)},
      {"total_const_mem", bytes(&DeviceProfile::totalConstMem)},
      {"l2_cache_size", bytesInt(&DeviceProfile::l2CacheSize)},
      {"l2_partitions", integer(&DeviceProfile::l2Partitions)},
      {"l1_cache_size", bytes(&DeviceProfile::l1CacheSize)},
      {"mem_pitch", bytes(&DeviceProfile::memPitch)},
      {"texture_alignment", bytes(&DeviceProfile::textureAlignment)},
      {"texture_pitch_alignment", bytes(&DeviceProfile::texturePitchAlignment)},
      {"async_engine_count", integer(&DeviceProfile::asyncEngineCount)},
      {"memory_bandwidth_gbs", real(&DeviceProfile::memoryBandwidthGBs)},
      {"host_link_bandwidth_gbs", real(&DeviceProfile::hostLinkBandwidthGBs)},
      {"issue_width", integer(&DeviceProfile::issueWidth)},
      {"fp32_lanes", integer(&DeviceProfile::fp32Lanes)},
      {"fp64_lanes", integer(&DeviceProfile::fp64Lanes)},
      {"int_lanes", integer(&DeviceProfile::intLanes)},
      {"imad_lanes", integer(&DeviceProfile::imadLanes)},
      {"tensor_fp16_macs_per_cycle", real(&DeviceProfile::tensorFp16MacsPerCycle)},
      {"sfu_lanes", integer(&DeviceProfile::sfuLanes)},
      {"ldst_lanes", integer(&DeviceProfile::ldstLanes)},
      {"dependent_issue_cycles", real(&DeviceProfile::dependentIssueCycles)},
      {"dram_latency_cycles", real(&DeviceProfile::dramLatencyCycles)},
      {"l2_bandwidth_gbs", real(&DeviceProfile::l2BandwidthGBs)},
      {"l1_latency_cycles", real(&DeviceProfile::l1LatencyCycles)},
      {"l2_latency_cycles", real(&DeviceProfile::l2LatencyCycles)},
      {"dram_loaded_cycles", real(&DeviceProfile::dramLoadedCycles)},
      {"l2_tail_cycles", real(&DeviceProfile::l2TailCycles)},
      {"dram_tail_cycles", real(&DeviceProfile::dramTailCycles)},
      {"l1_sectors_per_cycle", real(&DeviceProfile::l1SectorsPerCycle)},
      {"l2_requests_per_cycle", real(&DeviceProfile::l2RequestsPerCycle)},
      {"l2_store_requests_per_cycle", real(&DeviceProfile::l2StoreRequestsPerCycle)},
      {"dram_efficiency", real(&DeviceProfile::dramEfficiency)},
      {"dram_access_bytes", real(&DeviceProfile::dramAccessBytes)},
      {"dram_write_efficiency", real(&DeviceProfile::dramWriteEfficiency)},
      {"dram_scattered_efficiency", real(&DeviceProfile::dramScatteredEfficiency)},
      {"atomic_sectors_per_cycle", real(&DeviceProfile::atomicSectorsPerCycle)},
      {"atomic_ops_per_cycle", real(&DeviceProfile::atomicOpsPerCycle)},
      {"atomic_sector_cycles", real(&DeviceProfile::atomicSectorCycles)},
      {"same_address_atomic_cycles", real(&DeviceProfile::sameAddressAtomicCycles)},
      {"same_address_float_atomic_cycles", real(&DeviceProfile::sameAddressFloatAtomicCycles)},
      {"atomic_unit_bytes", real(&DeviceProfile::atomicUnitBytes)},
      {"cas_try_cycles", real(&DeviceProfile::casTryCycles)},
      {"cas_round_cycles", real(&DeviceProfile::casRoundCycles)},
      {"cas_line_cycles", real(&DeviceProfile::casLineCycles)},
      {"shared_cas_round_cycles", real(&DeviceProfile::sharedCasRoundCycles)},
      {"shared_cas_serial_cycles", real(&DeviceProfile::sharedCasSerialCycles)},
      {"barrier_cycles", real(&DeviceProfile::barrierCycles)},
      {"term_overlap", real(&DeviceProfile::termOverlap)},
      {"block_launch_cycles", real(&DeviceProfile::blockLaunchCycles)},
      {"warp_launch_cycles", real(&DeviceProfile::warpLaunchCycles)},
      {"kernel_launch_us", real(&DeviceProfile::kernelLaunchUs)},
      {"host_launch_us", real(&DeviceProfile::hostLaunchUs)},
      {"host_launch_cold_us", real(&DeviceProfile::hostLaunchColdUs)},
      {"event_record_us", real(&DeviceProfile::eventRecordUs)},
      {"host_launch_warmup_calls", real(&DeviceProfile::hostLaunchWarmupCalls)},
      {"graph_kernel_node_us", real(&DeviceProfile::graphKernelNodeUs)},
      {"const_address_cycles", real(&DeviceProfile::constAddressCycles)},
      {"memset_latency_us", real(&DeviceProfile::memsetLatencyUs)},
      {"memset_kernel_us", real(&DeviceProfile::memsetKernelUs)},
      {"memset_inline_bytes", real(&DeviceProfile::memsetInlineBytes)},
      {"copy_latency_us", real(&DeviceProfile::copyLatencyUs)},
      {"sync_return_us", real(&DeviceProfile::syncReturnUs)},
      {"copy_queued_us", real(&DeviceProfile::copyQueuedUs)},
      {"copy_switch_us", real(&DeviceProfile::copySwitchUs)},
      {"copy_2d_latency_us", real(&DeviceProfile::copy2dLatencyUs)},
      {"copy_2d_bandwidth_gbs", real(&DeviceProfile::copy2dBandwidthGBs)},
      {"copy_2d_row_ns", real(&DeviceProfile::copy2dRowNs)},
      {"pageable_copy_factor", real(&DeviceProfile::pageableCopyFactor)},
      {"pageable_d2h_factor", real(&DeviceProfile::pageableD2hFactor)},
      {"pageable_stage_bytes", real(&DeviceProfile::pageableStageBytes)},
      {"peer_bandwidth_gbs", real(&DeviceProfile::peerBandwidthGBs)},
      {"regs_per_thread", integer(&DeviceProfile::regsPerThread)},
  };
  return table;
}

std::string checkConsistency(const DeviceProfile &p) {
  if (p.warpSize != 32 && p.warpSize != 64 && p.warpSize != 128)
    return "warp_size must be 32, 64 or 128";
  if (p.l2Partitions < 1)
    return "l2_partitions must be at least 1";
  if (p.hostLaunchUs < 0 || p.hostLaunchColdUs < 0 ||
      p.hostLaunchUs + p.hostLaunchColdUs > p.kernelLaunchUs)
    return "host_launch_us and host_launch_cold_us must not be negative and their sum must not "
           "exceed kernel_launch_us";
  if (p.hostLaunchWarmupCalls <= 0)
    return "host_launch_warmup_calls must be positive";
  if (p.graphKernelNodeUs > p.kernelLaunchUs)
    return "graph_kernel_node_us must not exceed kernel_launch_us";
  if (p.maxThreadsPerBlock % p.warpSize != 0)
    return "max_threads_per_block must be a multiple of warp_size";
  if (p.maxBlockDim[0] > p.maxThreadsPerBlock)
    return "max_block_dim.x exceeds max_threads_per_block";
  if (p.multiProcessorCount <= 0)
    return "multiprocessors must be positive";
  if (p.sharedMemPerBlockOptin < p.sharedMemPerBlock)
    return "shared_mem_per_block_optin is below shared_mem_per_block";
  if (p.totalGlobalMem == 0)
    return "total_global_mem must be positive";
  if (p.issueWidth <= 0 || p.fp32Lanes <= 0 || p.fp64Lanes <= 0 || p.intLanes <= 0 || p.imadLanes <= 0 ||
      p.sfuLanes <= 0 || p.ldstLanes <= 0 || p.tensorFp16MacsPerCycle <= 0)
    return "issue_width, the *_lanes fields and tensor_fp16_macs_per_cycle must be positive";
  if (p.termOverlap < 0 || p.termOverlap > 1)
    return "term_overlap must lie between 0 and 1";
  if (p.pageableCopyFactor <= 0 || p.pageableD2hFactor <= 0 || p.pageableD2hFactor > 1 ||
      p.pageableStageBytes < 0)
    return "pageable_copy_factor and pageable_d2h_factor must be positive (at most 1), "
           "pageable_stage_bytes not negative";
  if (p.dramEfficiency > 1 || p.pageableCopyFactor > 1 || p.dramScatteredEfficiency > 1 ||
      p.dramScatteredEfficiency < 0 || p.dramWriteEfficiency > 1 || p.dramWriteEfficiency <= 0)
    return "dram_efficiency, dram_write_efficiency, dram_scattered_efficiency and "
           "pageable_copy_factor must lie between 0 and 1";
  if (p.regsPerThread <= 0 || p.regsPerThread > 255)
    return "regs_per_thread must be between 1 and 255";
  return {};
}

} // namespace

std::optional<DeviceProfile> DeviceProfile::parse(const std::string &content,
                                                  const std::string &origin,
                                                  std::string &error) {
  DeviceProfile profile;
  std::map<std::string, bool> seen;
  std::istringstream in(content);
  std::string line;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (size_t hash = line.find('#'); hash != std::string::npos)
      line.resize(hash);
    line = trim(line);
    if (line.empty())
      continue;
    size_t eq = line.find('=');
    std::string where = origin + ":" + std::to_string(lineNo);
    if (eq == std::string::npos) {
      error = where + ": expected 'key = value'";
      return std::nullopt;
    }
    std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    auto it = fields().find(key);
    if (it == fields().end()) {
      error = where + ": unknown field '" + key + "'";
      return std::nullopt;
    }
    if (!it->second(profile, value)) {
      error = where + ": invalid value '" + value + "' for field '" + key + "'";
      return std::nullopt;
    }
    seen[key] = true;
  }
  for (const auto &[key, setter] : fields()) {
    if (!seen.count(key)) {
      error = origin + ": missing field '" + key + "'";
      return std::nullopt;
    }
  }
  if (std::string problem = checkConsistency(profile); !problem.empty()) {
    error = origin + ": " + problem;
    return std::nullopt;
  }
  return profile;
}

std::optional<DeviceProfile> DeviceProfile::load(const std::string &idOrPath,
                                                 std::string &error) {
  for (unsigned i = 0; i < EmbeddedProfileCount; ++i) {
    if (idOrPath == EmbeddedProfiles[i].id) {
      auto p = parse(EmbeddedProfiles[i].text, idOrPath, error);
      if (p)
        p->id = idOrPath;
      return p;
    }
  }
  std::ifstream file(idOrPath);
  if (!file) {
    error = "unknown device profile '" + idOrPath + "' (shipped:";
    for (const std::string &id : shippedIds())
      error += " " + id;
    error += "; or give a path to a profile file)";
    return std::nullopt;
  }
  std::ostringstream content;
  content << file.rdbuf();
  auto p = parse(content.str(), idOrPath, error);
  if (p)
    p->id = idOrPath;
  return p;
}

std::vector<std::string> DeviceProfile::shippedIds() {
  std::vector<std::string> ids;
  for (unsigned i = 0; i < EmbeddedProfileCount; ++i)
    ids.push_back(EmbeddedProfiles[i].id);
  return ids;
}

} // namespace musa::sim
