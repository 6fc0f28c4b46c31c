// Differential mode's hardware twins of the program's streams and events (DiffTwins.cpp), and
// what the rest of differential mode (Diff.cpp) shares with them.
#pragma once

#include "musa_runtime_api.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace musa::rt::backend {

/// The hardware twin of a simulator stream (the legacy and per-thread streams stand for
/// themselves), or null if it has none.
musaStream_t hwStream(musaStream_t s);
/// The hardware twin of a simulator event, or null if it has none.
musaEvent_t hwEvent(musaEvent_t e);
/// Says on stderr when the two sides returned different results for `call`.
void mismatchedResult(const char *call, musaError_t sim, musaError_t hw);

// DiffWords.cpp: MUSA_SIM_DIFF_ULP's tolerance for floats and doubles, NaNs of any payload.
/// Word a (simulator) and b (hardware) count as the same result.
bool sameWord(uint32_t a, uint32_t b);
/// Words w and its neighbour of two buffers, read as one 8-byte-aligned double, count as the
/// same result.
bool sameDouble(const std::vector<uint32_t> &sim, const std::vector<uint32_t> &hw, size_t w);

} // namespace musa::rt::backend
