// Repeated launches take the sampled measurements of an earlier launch like them.
//
// A launch's sampled blocks run the fully instrumented variant: a memory hook per access,
// warp grouping and bank counts per barrier epoch. One such block of tiled matmul 512 costs
// as much as a few hundred light blocks, a quarter of the launch on one core. What it
// measures (coalescing, bank conflicts, divergence, L1 reuse) are ratios that the light
// counters of every block scale to the grid; a program that launches one kernel in a loop
// with the same configuration and arguments (a solver's iteration, a benchmark's repeats)
// mostly has them measure the same thing every time. Such launches sample, as sampled
// simulation of repeated kernels does (Principal Kernel Analysis; Photon matches launches
// by their basic-block vectors), only while their behaviour has not settled:
//   - the first launch with a key samples, and so do the launches after 1, 2, 4, 8, ...
//     launches with it (a slowly changing pattern is measured again, a bounded number of
//     times: 11 samples in a thousand launches);
//   - any other launch reuses the kept measurements only if the last launch with the key
//     counted exactly the instructions per class the sampled one did (their blocks took
//     the same paths as often); otherwise it samples.
// Every block still runs and is counted (instructions, executions, footprints), so a launch
// that reuses differs from one that samples only in the ratios. MUSA_SIM_SAMPLE_REUSE=0
// samples every launch.
#include "SampleMemo.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace musa::sim {

namespace {

struct Entry {
  uint64_t launches = 0; // finished launches with the key
  bool stable = false;   // the last one counted what the sampled one did
  std::array<uint64_t, abi::ClassCount> classes{}; // counted by the sampled launch
  std::shared_ptr<const SampledPart> part;
  uint64_t lastUse = 0;
};

/// Bounded: the least recently used key goes past this many.
constexpr size_t MaxEntries = 256;
/// The sampled atomic addresses a part keeps.
constexpr size_t MaxAtomics = size_t(1) << 16;

struct Memo {
  std::mutex mutex;
  std::unordered_map<std::string, Entry> entries;
  uint64_t clock = 0;
};

Memo &memo() {
  static auto *m = new Memo; // never destroyed: launches may still end during exit
  return *m;
}

bool reuseEnabled() {
  static const bool enabled = [] {
    const char *env = std::getenv("MUSA_SIM_SAMPLE_REUSE");
    return !env || std::strcmp(env, "0") != 0;
  }();
  return enabled;
}

template <typename T> void append(std::string &key, const T &value) {
  key.append(reinterpret_cast<const char *>(&value), sizeof value);
}

} // namespace

std::string sampleMemoKey(const GridLaunch &launch) {
  const KernelEntry *kernel = launch.kernel;
  if (!reuseEnabled() || !kernel || (!launch.args && !kernel->paramSizes.empty()))
    return {};
  std::string key;
  append(key, kernel);
  append(key, launch.grid);
  append(key, launch.block);
  append(key, launch.dynamicSharedBytes);
  append(key, launch.warpSize);
  for (size_t i = 0; i < kernel->paramSizes.size(); ++i) {
    if (!launch.args[i])
      return {};
    key.append(static_cast<const char *>(launch.args[i]), kernel->paramSizes[i]);
  }
  key += kernel->name; // a kernel entry freed and another made at its address
  return key;
}

std::shared_ptr<const SampledPart> sampleMemoReuse(const std::string &key) {
  if (key.empty())
    return nullptr;
  Memo &m = memo();
  std::lock_guard lock(m.mutex);
  auto it = m.entries.find(key);
  if (it == m.entries.end())
    return nullptr;
  Entry &e = it->second;
  e.lastUse = ++m.clock;
  if (!e.part || !e.stable || std::has_single_bit(e.launches))
    return nullptr;
  return e.part;
}

void sampleMemoFinish(const std::string &key,
                      const std::array<uint64_t, abi::ClassCount> &classes,
                      std::shared_ptr<const SampledPart> part) {
  if (key.empty())
    return;
  Memo &m = memo();
  std::lock_guard lock(m.mutex);
  auto it = m.entries.find(key);
  if (it == m.entries.end()) {
    if (m.entries.size() >= MaxEntries) {
      auto oldest = m.entries.begin();
      for (auto at = m.entries.begin(); at != m.entries.end(); ++at)
        if (at->second.lastUse < oldest->second.lastUse)
          oldest = at;
      m.entries.erase(oldest);
    }
    it = m.entries.emplace(key, Entry{}).first;
  }
  Entry &e = it->second;
  e.lastUse = ++m.clock;
  e.stable = e.part && classes == e.classes;
  if (part) {
    e.part = std::move(part);
    e.classes = classes;
  }
  ++e.launches;
}

void SampledPart::add(const BlockCounters &block) {
  for (size_t i = 0; i < block.sites.size(); ++i) {
    const SiteStats &b = block.sites[i];
    if (!b.globalWarps && !b.sharedWarps && !b.localExtent && !b.addressRequests)
      continue;
    auto at = std::find_if(sites.begin(), sites.end(),
                           [&](const auto &s) { return s.first == uint32_t(i); });
    if (at == sites.end())
      at = sites.insert(sites.end(), {uint32_t(i), SiteStats{}});
    addSampledFields(at->second, b);
  }
  for (unsigned c = 0; c < abi::ClassCount; ++c)
    warpClasses[c] += block.warpClasses[c], threadClasses[c] += block.threadClasses[c];
  warpChain += block.warpChain, threadChain += block.threadChain;
  blockLongestChains += block.longestWarpChain;
  longestWarpChain = std::max(longestWarpChain, block.longestWarpChain);
  chainBlocks += block.chainWarps > 0, chainWarps += block.chainWarps;
  uniqueSectors += block.uniqueSectors, sectorAccesses += block.sectorAccesses;
  tracedBlocks += block.uniqueSectors > 0;
  storeSectors += block.storeSectors, partialStoreSectors += block.partialStoreSectors;
  atomics.insert(atomics.end(), block.atomics.begin(), block.atomics.end());
}

void KernelCounters::finishSampling() {
  if (memoKey_.empty())
    return;
  if (reused_)
    addSampled(*reused_);
  std::shared_ptr<SampledPart> sampled;
  if (!reused_ && samples_ > 0) {
    sampled = std::make_shared<SampledPart>(std::move(recorded_));
    // As many atomic addresses as a launch's counters keep distinct (a part kept for 256
    // keys stays small).
    if (sampled->atomics.size() > MaxAtomics)
      sampled->atomics.resize(MaxAtomics);
  }
  sampleMemoFinish(memoKey_, classes, std::move(sampled));
}

} // namespace musa::sim
