// Repeated launches and the timing model's sampled blocks (SampleMemo.cpp).
#pragma once

#include "musa/sim/Timing.h"

#include <memory>
#include <string>

namespace musa::sim {

/// What identifies launches whose sampled blocks would measure the same: the kernel, its
/// grid, block, dynamic shared memory and warp size, and its argument bytes. Empty when
/// launches are not remembered (MUSA_SIM_SAMPLE_REUSE=0, or no arguments to compare).
std::string sampleMemoKey(const GridLaunch &launch);

/// The measurements a launch with `key` takes instead of sampling, or null if it samples.
std::shared_ptr<const SampledPart> sampleMemoReuse(const std::string &key);

/// After a launch with `key` ran: it counted `classes` (all its blocks' instructions), and
/// sampled `part` (null: it reused the kept measurements instead).
void sampleMemoFinish(const std::string &key,
                      const std::array<uint64_t, abi::ClassCount> &classes,
                      std::shared_ptr<const SampledPart> part);

} // namespace musa::sim
