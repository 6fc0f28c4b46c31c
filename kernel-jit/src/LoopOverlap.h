// The analysis InstrumentTiming uses to tell how many loop iterations' loads a warp has in
// flight (the block table's load groups): what nvcc unrolls, and what a loop's stores or
// chained addresses keep apart.
#pragma once

#include "llvm/ADT/DenseMap.h"

namespace llvm {
class BasicBlock;
class Function;
class Loop;
} // namespace llvm

namespace musa::jit {

/// Per basic block of an innermost loop, the iterations whose loads are in flight at once
/// (absent: 1). See LoopOverlap.cpp.
llvm::DenseMap<const llvm::BasicBlock *, unsigned> loopOverlap(llvm::Function &F);

/// Whether the loop's exit test counts an induction variable that steps by a run-time amount
/// (`i += blockDim.x`): nvcc does not unroll those.
bool stepsByRuntimeAmount(const llvm::Loop *L);

} // namespace musa::jit
