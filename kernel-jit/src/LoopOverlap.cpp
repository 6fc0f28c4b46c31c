// How many iterations of an innermost loop have their loads in flight at once, as nvcc
// compiles the loop (see LoopOverlap.h).
#include "LoopOverlap.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>
#include <optional>

using namespace llvm;

namespace musa::jit {

/// Whether a loop's trip is counted by an induction variable that steps by a run-time amount
/// (`i += blockDim.x`, `i += gridDim.x * blockDim.x`): the exit test compares a header phi,
/// or the phi's next value, whose step from the latch is not a constant. nvcc does not unroll
/// such loops (H200 SASS of a block-stride and a grid-stride sum: one LDG an iteration,
/// tests/validation/README.md), while it unrolls constant-step loops by four or more.
bool stepsByRuntimeAmount(const Loop *L) {
  BasicBlock *latch = L->getLoopLatch();
  if (!latch)
    return false;
  auto stepOf = [&](PHINode *phi) -> const Value * {
    auto *next = dyn_cast<Instruction>(phi->getIncomingValueForBlock(latch));
    if (!next)
      return nullptr;
    if (auto *gep = dyn_cast<GetElementPtrInst>(next))
      return gep->getPointerOperand() == phi && gep->getNumIndices() == 1 ? gep->getOperand(1)
                                                                          : nullptr;
    if (next->getOpcode() != Instruction::Add && next->getOpcode() != Instruction::Sub)
      return nullptr;
    if (next->getOperand(0) == phi)
      return next->getOperand(1);
    return next->getOperand(1) == phi && next->getOpcode() == Instruction::Add
               ? next->getOperand(0)
               : nullptr;
  };
  auto headerPhi = [&](Value *V) -> PHINode * {
    if (auto *phi = dyn_cast<PHINode>(V))
      return phi->getParent() == L->getHeader() ? phi : nullptr;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || (!isa<BinaryOperator>(I) && !isa<GetElementPtrInst>(I) && !isa<CastInst>(I)))
      return nullptr;
    for (Value *op : I->operands())
      if (auto *phi = dyn_cast<PHINode>(op); phi && phi->getParent() == L->getHeader())
        return phi;
    return nullptr;
  };
  SmallVector<BasicBlock *, 4> exiting;
  L->getExitingBlocks(exiting);
  for (BasicBlock *BB : exiting) {
    auto *br = dyn_cast<BranchInst>(BB->getTerminator());
    auto *cmp = br && br->isConditional() ? dyn_cast<ICmpInst>(br->getCondition()) : nullptr;
    if (!cmp)
      continue;
    for (Value *side : cmp->operands())
      if (PHINode *phi = headerPhi(side))
        if (const Value *step = stepOf(phi); step && !isa<Constant>(step))
          return true;
  }
  return false;
}

/// The iterations of the source loop that one trip of `L` runs if the device compiler has
/// already unrolled it at run time (1 if not): clang unrolls a small counted loop by four or
/// eight and leaves the rest to a remainder loop it marks `llvm.loop.unroll.disable`, next to
/// `L` (after its exit or before its preheader) with the loads of one iteration. The ratio of
/// their loads is the unroll factor: `L`'s body already holds the iterations nvcc's unrolling
/// would put in flight, and applying nvcc's factor again would count them four times over.
unsigned unrolledByCompiler(const Loop *L, const LoopInfo &LI) {
  auto loadsIn = [](const Loop *loop) {
    unsigned n = 0;
    for (const BasicBlock *BB : loop->blocks())
      for (const Instruction &I : *BB)
        n += isa<LoadInst>(I);
    return n;
  };
  // Blocks within a few edges of `from`, forwards or backwards, outside `L`.
  auto near = [&](const BasicBlock *from, bool forwards) {
    SmallPtrSet<const BasicBlock *, 16> found;
    SmallVector<std::pair<const BasicBlock *, unsigned>, 16> work{{from, 0}};
    while (!work.empty()) {
      auto [BB, distance] = work.pop_back_val();
      if (!BB || L->contains(BB) || !found.insert(BB).second || distance == 3)
        continue;
      if (forwards)
        for (const BasicBlock *next : successors(BB))
          work.push_back({next, distance + 1});
      else
        for (const BasicBlock *prev : predecessors(BB))
          work.push_back({prev, distance + 1});
    }
    return found;
  };
  SmallVector<BasicBlock *, 4> exits;
  L->getExitBlocks(exits);
  SmallPtrSet<const BasicBlock *, 32> around;
  for (const BasicBlock *exit : exits) {
    auto found = near(exit, true);
    around.insert(found.begin(), found.end());
  }
  if (const BasicBlock *pre = L->getLoopPreheader()) {
    auto found = near(pre, false);
    around.insert(found.begin(), found.end());
  }
  const unsigned own = loadsIn(L);
  for (const BasicBlock *BB : around) {
    const Loop *R = LI.getLoopFor(BB);
    if (!R || R == L || R->getHeader() != BB || !R->isInnermost() ||
        !findOptionMDForLoop(R, "llvm.loop.unroll.disable"))
      continue;
    unsigned one = loadsIn(R);
    if (one && own >= 2 * one && own % one == 0)
      return own / one;
  }
  return 1;
}

/// How many iterations of each block's loop have their loads in flight at once: GPU compilers
/// unroll small innermost loops (nvcc by four), so the loads of consecutive iterations issue
/// together, unless an address depends on a load of the loop (a pointer chase, a gather
/// through an index array) or the loop stores to memory (a later iteration's loads cannot move
/// above a store they may alias: a grid-stride `y[i] += x[i]` runs one iteration at a time on
/// the H200). Those, and blocks outside innermost loops: 1. A loop the program asked not to
/// unroll (`#pragma unroll 1`) keeps one iteration in flight, one with `#pragma unroll N` N
/// (the H200 runs a `#pragma unroll 1` grid-stride sum at one load per warp in flight:
/// timing_workloads.mu's sum_stride1), and so does a loop stepping by a run-time amount
/// (stepsByRuntimeAmount). A loop the device compiler already unrolled by k holds k of the
/// four iterations (unrolledByCompiler).
DenseMap<const BasicBlock *, unsigned> loopOverlap(Function &F) {
  constexpr unsigned DefaultUnroll = 4;
  DenseMap<const BasicBlock *, unsigned> overlap;
  if (F.isDeclaration())
    return overlap;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost())
      continue;
    bool chained = false;
    SmallPtrSet<const Value *, 32> seen;
    for (BasicBlock *BB : L->blocks())
      for (Instruction &I : *BB) {
        if (isa<StoreInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) ||
            (isa<CallBase>(I) && I.mayWriteToMemory()))
          chained = true;
        auto *load = dyn_cast<LoadInst>(&I);
        if (!load || chained)
          continue;
        SmallVector<const Value *, 16> work{load->getPointerOperand()};
        while (!work.empty() && !chained) {
          auto *V = dyn_cast<Instruction>(work.pop_back_val());
          if (!V || !L->contains(V) || !seen.insert(V).second)
            continue;
          if (isa<LoadInst>(V) || isa<AtomicRMWInst>(V) || isa<AtomicCmpXchgInst>(V) ||
              isa<CallBase>(V)) {
            chained = true;
            break;
          }
          for (const Value *op : V->operands())
            work.push_back(op);
        }
      }
    unsigned unroll = stepsByRuntimeAmount(L) ? 1 : DefaultUnroll;
    if (findOptionMDForLoop(L, "llvm.loop.unroll.disable"))
      unroll = 1;
    else if (std::optional<int> count = getOptionalIntLoopAttribute(L, "llvm.loop.unroll.count"))
      unroll = unsigned(std::clamp(*count, 1, 32));
    else if (unsigned done = unrolledByCompiler(L, LI); done > 1)
      unroll = std::max(1u, unroll / done);
    if (!chained && unroll > 1)
      for (BasicBlock *BB : L->blocks())
        overlap[BB] = unroll;
  }
  return overlap;
}

} // namespace musa::jit
