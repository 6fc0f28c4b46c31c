// How many times a basic block's global loads wait for memory one after another: the load
// groups InstrumentTiming writes into each access's site info (see LoadWaits.cpp).
#pragma once

namespace llvm {
class BasicBlock;
} // namespace llvm

namespace musa::jit {

struct LoadWaits {
  unsigned loads = 0; // the block's global loads
  unsigned waits = 0; // the waits they add, one after another
};

/// The global loads of `BB` and the waits they add: their longest chain of loads that need
/// one another (by operand, or behind a store they may alias). A predicated block (a short
/// guarded block the GPU compiler if-converts) continues the block it hangs from, so its
/// loads add waits only where they need that block's loads; none at all is possible.
LoadWaits loadWaits(llvm::BasicBlock &BB);

} // namespace musa::jit
