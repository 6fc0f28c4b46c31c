// ThreadLoop: `for z < ntid.z: for y < ntid.y: for x < ntid.x` over the block's threads, as the
// block loop (EmitKernelThunks) and the region loops (FormBarrierRegions) emit it.
#pragma once

#include "llvm/IR/IRBuilder.h"

namespace llvm {
class Loop;
}

namespace musa::jit {

struct ThreadLoop {
  llvm::PHINode *index[3] = {};  // x, y, z of the current thread
  llvm::Value *extent[3] = {};   // blockDim
  llvm::Value *tidSlot[3] = {};  // &ctx->tid[d]
  llvm::BasicBlock *exit = nullptr;

  /// Loads blockDim from `ctx` at the builder's position and opens the nest; the builder is
  /// left in the innermost header (the loop body starts there).
  static ThreadLoop open(llvm::IRBuilder<> &b, llvm::Value *ctx);
  /// The linear thread index x + nx * (y + ny * z), as i64.
  llvm::Value *linear(llvm::IRBuilder<> &b) const;
  /// ctx->tid = {x, y, z}.
  void storeTid(llvm::IRBuilder<> &b) const;
  /// Ends the body where the builder is (the latch) and closes the nest; the builder is left
  /// in `exit`.
  void close(llvm::IRBuilder<> &b);
};

/// Whether `L` is the loop over threads x that ThreadLoop::close made (its loop id carries
/// ThreadLoopMD).
bool isThreadLoop(const llvm::Loop &L);

} // namespace musa::jit
