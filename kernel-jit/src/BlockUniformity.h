// BlockUniformity: which values of a kernel every live thread of a block holds alike when the
// block's threads meet at a park point (BlockUniformity.cpp).
#pragma once

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"

namespace musa::jit {

class BlockUniformity {
public:
  /// `ctx`: the kernel's context argument; `parkBlocks`: the blocks that end at a park point.
  BlockUniformity(llvm::Function &F, llvm::Argument *ctx,
                  const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &parkBlocks);

  /// Whether `V` is the same in every thread of the block that is still running, wherever
  /// the threads meet at a park point with none of them gone elsewhere: computed alike by
  /// every thread (from arguments, constants and block-wide context fields), and reached by
  /// every thread that reaches a later park point (no branch that depends on the thread
  /// decides whether or how often it runs, except one that sends some threads to their return
  /// with no park point on the way).
  bool isUniform(const llvm::Value *V) const;

private:
  bool divergent(const llvm::Value *V) const { return divergent_.count(V); }
  llvm::SmallPtrSet<const llvm::Value *, 32> divergent_;
  llvm::DenseMap<const llvm::BasicBlock *, unsigned> index_;
  /// Blocks a branch on a thread-dependent value decides for each thread (between the branch
  /// and its immediate post-dominator), both of whose sides may still meet the others.
  llvm::BitVector tainted_;
};

/// Whether every thread that computes `V` computes it alike from what it is made of: constants,
/// arguments other than the context `ctx`, block-wide context fields (blockIdx, blockDim, ...)
/// and pure operations on them (BlockUniformity's data half, for one value, whatever control
/// reaches it; a phi counts as thread-dependent). The GPU compiler combines a warp's atomic on
/// such an address into one (InstrumentTiming).
bool computedAlike(const llvm::Value *V, const llvm::Argument *ctx);

} // namespace musa::jit
