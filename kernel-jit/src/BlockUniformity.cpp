// BlockUniformity: the values of a kernel (cut at its park points) that every live thread of a
// block holds alike, so that a region loop run for the whole block may read them once.
//
// Two parts:
//  - Data: a value is thread-dependent if it reads threadIdx, the lane or the thread's clock,
//    loads memory (the analysis does not track what memory holds), calls anything but a pure
//    intrinsic, is a stack slot or an atomic, or is a park point's result; or if an operand is
//    (phis included), or its block is tainted (below). Everything else is computed alike by
//    every thread that computes it.
//  - Control: a value computed alike is held alike only if every thread still running executed
//    the same instances of its definition. A branch on a thread-dependent value breaks that
//    for the blocks between it and its immediate post-dominator (a loop's blocks, for a
//    thread-dependent exit), unless one of its sides cannot reach any park point (the threads
//    taking it return without meeting the others again: `if (i >= n) return;`).
//
// The region loop relies on it only when every thread of the block enters one region (none
// has returned, none waits elsewhere); see FormBarrierRegions.cpp.
#include "BlockUniformity.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace musa::jit {

namespace {

/// Whether a load of the context at byte `offset` reads a field the whole block shares.
bool blockWideField(uint64_t offset) {
  using namespace sim::abi;
  auto in = [&](unsigned start, unsigned bytes) {
    return offset >= start && offset < start + bytes;
  };
  return in(NtidOffset, 12) || in(CtaidOffset, 12) || in(NctaidOffset, 12) ||
         in(WarpSizeOffset, 4) || in(SharedOffset, 8) || in(DynamicSharedOffset, 8) ||
         in(SharedSizeOffset, 8) || in(SharedLimitOffset, 8);
}

/// Whether `I` is thread-dependent whatever its operands are.
bool threadDependentSource(const Instruction &I, const Argument *ctx) {
  if (auto *load = dyn_cast<LoadInst>(&I)) {
    APInt offset(64, 0);
    const Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(
        I.getDataLayout(), offset, true);
    return base != ctx || !load->isSimple() || !blockWideField(offset.getZExtValue());
  }
  if (auto *intrinsic = dyn_cast<IntrinsicInst>(&I))
    return intrinsic->mayReadOrWriteMemory() || intrinsic->mayHaveSideEffects();
  return isa<CallBase>(I) || isa<AllocaInst>(I) || I.mayReadOrWriteMemory();
}

} // namespace

BlockUniformity::BlockUniformity(Function &F, Argument *ctx,
                                 const SmallPtrSetImpl<BasicBlock *> &parkBlocks) {
  unsigned n = 0;
  for (BasicBlock &BB : F)
    index_[&BB] = n++;
  BitVector reachesPark(n);
  SmallVector<BasicBlock *, 32> work(parkBlocks.begin(), parkBlocks.end());
  for (BasicBlock *BB : work)
    reachesPark.set(index_[BB]);
  while (!work.empty())
    for (BasicBlock *pred : predecessors(work.pop_back_val()))
      if (!reachesPark.test(index_[pred]))
        reachesPark.set(index_[pred]), work.push_back(pred);
  PostDominatorTree PDT(F);
  tainted_.resize(n);
  BitVector branches(n); // blocks ending in a branch that taints
  // Data and control feed each other (a value defined in a tainted block is thread-dependent,
  // a branch on it taints more blocks): both grow to a fixpoint together.
  for (bool changed = true; changed;) {
    changed = false;
    for (Instruction &I : instructions(F)) {
      if (divergent(&I) || I.getType()->isVoidTy())
        continue;
      bool dependent = threadDependentSource(I, ctx) || tainted_.test(index_[I.getParent()]);
      for (const Use &op : I.operands())
        dependent |= divergent(op.get());
      // A phi where threads that went different ways meet again: which value a thread gets
      // depends on its way (an edge from a tainted block or from the branch itself).
      if (auto *phi = dyn_cast<PHINode>(&I))
        for (BasicBlock *from : phi->blocks())
          dependent |= tainted_.test(index_[from]) || branches.test(index_[from]);
      if (dependent)
        changed |= divergent_.insert(&I).second;
    }
    // A branch on a thread-dependent value decides which blocks a thread runs, and how often,
    // from the branch up to its immediate post-dominator, where the threads agree again: those
    // blocks are tainted, unless one side of the branch reaches no park point (the threads
    // taking it return without meeting the others again).
    for (BasicBlock &BB : F) {
      Instruction *term = BB.getTerminator();
      const Value *condition = nullptr;
      if (auto *br = dyn_cast<BranchInst>(term); br && br->isConditional())
        condition = br->getCondition();
      else if (auto *sw = dyn_cast<SwitchInst>(term))
        condition = sw->getCondition();
      else if (term->getNumSuccessors() > 1)
        condition = term; // anything else with a choice: assumed to depend on the thread
      if (!condition || (condition != term && !divergent(condition)))
        continue;
      bool everySideMeetsAgain = true;
      for (BasicBlock *succ : successors(&BB))
        everySideMeetsAgain &= reachesPark.test(index_[succ]);
      if (!everySideMeetsAgain)
        continue;
      if (!branches.test(index_[&BB]))
        branches.set(index_[&BB]), changed = true;
      DomTreeNode *node = PDT.getNode(&BB);
      BasicBlock *join = node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
      SmallVector<BasicBlock *, 32> stack(succ_begin(&BB), succ_end(&BB));
      BitVector seen(n);
      while (!stack.empty()) {
        BasicBlock *X = stack.pop_back_val();
        if (X == join || seen.test(index_[X]))
          continue;
        seen.set(index_[X]);
        stack.append(succ_begin(X), succ_end(X));
      }
      if (seen.test(tainted_)) // some block not tainted yet
        tainted_ |= seen, changed = true;
    }
  }
}

bool computedAlike(const Value *V, const Argument *ctx) {
  SmallVector<const Value *, 16> work{V};
  SmallPtrSet<const Value *, 16> seen;
  while (!work.empty()) {
    const Value *X = work.pop_back_val();
    if (X == ctx)
      return false;
    auto *I = dyn_cast<Instruction>(X);
    if (!I || !seen.insert(I).second)
      continue; // a constant or an argument, or seen
    if (seen.size() > 64 || isa<PHINode>(I) || threadDependentSource(*I, ctx))
      return false;
    if (isa<LoadInst>(I))
      continue; // a block-wide context field: its address is the context itself
    work.append(I->op_begin(), I->op_end());
  }
  return true;
}

bool BlockUniformity::isUniform(const Value *V) const {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  return isa<Instruction>(V) && !divergent(V); // a tainted block's values are divergent
}

} // namespace musa::jit
