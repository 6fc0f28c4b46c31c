// Differential mode's hardware twins of the program's streams and events (DiffTwins.cpp), and
// what the rest of differential mode (Diff.cpp) shares with them.
#pragma once

#include "musa_runtime_api.h"

namespace musa::rt::backend {

/// The hardware twin of a simulator stream (the legacy and per-thread streams stand for
/// themselves), or null if it has none.
musaStream_t hwStream(musaStream_t s);
/// The hardware twin of a simulator event, or null if it has none.
musaEvent_t hwEvent(musaEvent_t e);
/// Says on stderr when the two sides returned different results for `call`.
void mismatchedResult(const char *call, musaError_t sim, musaError_t hw);

} // namespace musa::rt::backend
