// SplitThreadGuards: a thread loop whose body tests the thread's index against a bound
// (`if (i < n)`, i = blockIdx.x * blockDim.x + threadIdx.x) runs as two loops: one over the
// leading threads, for which the test is known, without it; one over the rest, unchanged.
//
// Why: the vectoriser if-converts the guard into masked loads and stores, and masked stores
// are slow on some x86 cores (2-3x a plain loop's time on Zen 4). The first loop vectorises
// without masks; the second, usually empty or short, keeps the original code.
//
// When: an innermost loop carrying ThreadLoopMD, in loop-simplify form with its latch as its
// only exiting block and a computable trip count T, with a branch on `icmp P, A, B` where A
// is {X,+,1} over the loop (an integer of at most 32 bits) and B is loop-invariant, P an
// ordered predicate. The test's value is the same for the first k iterations (k = B - X in
// 64-bit arithmetic on the extended X and B, clamped to [0, T]; one more for <= and >): there
// X + j stays between X and B, so it cannot wrap. The first loop runs those iterations with the
// test replaced by its value; the original loop, test kept, runs the rest, continuing from
// the first loop's values (its header phis: the induction variable and reductions alike).
// When k = T it is skipped and its exit's values come from the first loop.
#include "musa/jit/DeviceLowering.h"

#include "ThreadLoop.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace musa::jit {

namespace {

/// A guard the loop can be split on: `cmp`'s value for the first k iterations is `prefix`.
struct Guard {
  ICmpInst *cmp = nullptr;
  const SCEV *start = nullptr; // X
  const SCEV *bound = nullptr; // B
  ICmpInst::Predicate pred;    // with A on the left
  bool prefix = true;
};

std::optional<Guard> findGuard(Loop &L, ScalarEvolution &SE) {
  for (BasicBlock *BB : L.blocks()) {
    auto *br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!br || !br->isConditional() || BB == L.getLoopLatch())
      continue;
    auto *cmp = dyn_cast<ICmpInst>(br->getCondition());
    if (!cmp || !L.contains(cmp) || cmp->isEquality() || !cmp->getType()->isIntegerTy(1) ||
        !cmp->getOperand(0)->getType()->isIntegerTy() ||
        cmp->getOperand(0)->getType()->getIntegerBitWidth() > 32)
      continue;
    for (int side = 0; side < 2; ++side) {
      const SCEV *a = SE.getSCEV(cmp->getOperand(side));
      const SCEV *b = SE.getSCEV(cmp->getOperand(1 - side));
      auto *rec = dyn_cast<SCEVAddRecExpr>(a);
      if (!rec || rec->getLoop() != &L || !rec->isAffine() || !SE.isLoopInvariant(b, &L))
        continue;
      if (!rec->getStepRecurrence(SE)->isOne() || !SE.isLoopInvariant(rec->getStart(), &L))
        continue;
      Guard g;
      g.cmp = cmp;
      g.start = rec->getStart();
      g.bound = b;
      g.pred = side == 0 ? cmp->getPredicate() : cmp->getSwappedPredicate();
      g.prefix = ICmpInst::isLT(g.pred) || ICmpInst::isLE(g.pred);
      return g;
    }
  }
  return std::nullopt;
}

/// Splits `L` on `g` (see the file comment).
void split(Loop &L, const Guard &g, ScalarEvolution &SE, const SCEV *tripMinusOne) {
  BasicBlock *pre = L.getLoopPreheader(), *header = L.getHeader(), *latch = L.getLoopLatch();
  BasicBlock *exit = L.getExitBlock();
  Function *F = header->getParent();
  LLVMContext &C = F->getContext();
  const DataLayout &DL = F->getDataLayout();
  Type *i64 = Type::getInt64Ty(C);

  // k, computed in the preheader.
  IRBuilder<> b(pre->getTerminator());
  SCEVExpander expander(SE, DL, "musa.split");
  bool isSigned = ICmpInst::isSigned(g.pred);
  auto wide = [&](const SCEV *s) {
    Value *v = expander.expandCodeFor(s, s->getType(), pre->getTerminator());
    return isSigned ? b.CreateSExt(v, i64) : b.CreateZExt(v, i64);
  };
  Value *x = wide(g.start), *bound = wide(g.bound);
  Value *trips = b.CreateAdd(
      b.CreateZExt(expander.expandCodeFor(tripMinusOne, tripMinusOne->getType(),
                                          pre->getTerminator()),
                   i64),
      b.getInt64(1), "musa.trips");
  bool inclusive = ICmpInst::isLE(g.pred) || ICmpInst::isGT(g.pred);
  Value *d = b.CreateSub(bound, x);
  if (inclusive)
    d = b.CreateAdd(d, b.getInt64(1));
  Value *k = b.CreateBinaryIntrinsic(Intrinsic::smin,
                                     b.CreateBinaryIntrinsic(Intrinsic::smax, d, b.getInt64(0)),
                                     trips, nullptr, "musa.split.k");

  // The first loop: a copy of the blocks with the guard's value fixed.
  ValueToValueMapTy map;
  SmallVector<BasicBlock *, 8> copies;
  for (BasicBlock *BB : L.blocks()) {
    BasicBlock *copy = CloneBasicBlock(BB, map, ".first", F);
    map[BB] = copy;
    copies.push_back(copy);
  }
  remapInstructionsInBlocks(copies, map);
  auto *firstHeader = cast<BasicBlock>(map[header]);
  auto *firstLatch = cast<BasicBlock>(map[latch]);
  BasicBlock *firstPre = BasicBlock::Create(C, "musa.split.first.ph", F, firstHeader);
  BasicBlock *mid = BasicBlock::Create(C, "musa.split.mid", F, header);
  BasicBlock *rest = BasicBlock::Create(C, "musa.split.rest.ph", F, header);
  auto *fixedTest = cast<Instruction>(map[g.cmp]);
  fixedTest->replaceAllUsesWith(ConstantInt::getBool(C, g.prefix));
  fixedTest->eraseFromParent();
  for (PHINode &phi : firstHeader->phis())
    phi.replaceIncomingBlockWith(pre, firstPre);
  IRBuilder<>(firstPre).CreateBr(firstHeader);
  // Its own count of iterations ends it after k.
  IRBuilder<> hb(&*firstHeader->getFirstInsertionPt());
  PHINode *count = hb.CreatePHI(i64, 2, "musa.split.i");
  count->addIncoming(b.getInt64(0), firstPre);
  firstLatch->getTerminator()->eraseFromParent();
  IRBuilder<> lb(firstLatch);
  Value *next = lb.CreateAdd(count, lb.getInt64(1), "", true, true);
  count->addIncoming(next, firstLatch);
  // Its loop id: the remaining loop's (set by the caller: no ThreadLoopMD, so neither is
  // split again), keeping what else the thread loop said of itself (parallel accesses).
  lb.CreateCondBr(lb.CreateICmpULT(next, k), firstHeader, mid)
      ->setMetadata(LLVMContext::MD_loop,
                    makePostTransformationMetadata(C, L.getLoopID(), {}, {}));

  // Where the second loop starts: the first loop's values after k iterations (the original
  // start values when k = 0).
  IRBuilder<> mb(mid);
  auto after = [&](Value *v, Value *ifSkipped) -> Value * {
    auto *I = dyn_cast<Instruction>(v);
    if (!I || !L.contains(I))
      return v;
    PHINode *phi = mb.CreatePHI(v->getType(), 2);
    phi->addIncoming(ifSkipped, pre);
    phi->addIncoming(map[v], firstLatch);
    return phi;
  };
  SmallVector<std::pair<PHINode *, Value *>, 8> starts;
  for (PHINode &phi : header->phis())
    starts.push_back({&phi, after(phi.getIncomingValueForBlock(latch),
                                  phi.getIncomingValueForBlock(pre))});
  SmallVector<std::pair<PHINode *, Value *>, 8> exits;
  for (PHINode &phi : exit->phis())
    exits.push_back({&phi, after(phi.getIncomingValueForBlock(latch),
                                 PoisonValue::get(phi.getType()))});
  mb.CreateCondBr(mb.CreateICmpULT(k, trips), rest, exit);
  IRBuilder<>(rest).CreateBr(header);
  for (auto [phi, start] : starts) {
    phi->setIncomingValue(phi->getBasicBlockIndex(pre), start);
    phi->replaceIncomingBlockWith(pre, rest);
  }
  for (auto [phi, value] : exits)
    phi->addIncoming(value, mid);

  pre->getTerminator()->eraseFromParent();
  IRBuilder<>(pre).CreateCondBr(IRBuilder<>(pre).CreateICmpNE(k, b.getInt64(0)), firstPre, mid);
}

} // namespace

PreservedAnalyses SplitThreadGuardsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  bool changed = false;
  // One loop at a time, with fresh analyses: splitting changes the function's loops.
  for (;;) {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    Loop *chosen = nullptr;
    std::optional<Guard> guard;
    const SCEV *tripMinusOne = nullptr;
    for (Loop *L : LI.getLoopsInPreorder()) {
      if (!L->isInnermost() || !isThreadLoop(*L) || !L->isLoopSimplifyForm() ||
          !L->getExitBlock() || L->getExitingBlock() != L->getLoopLatch())
        continue;
      const SCEV *btc = SE.getBackedgeTakenCount(L);
      if (isa<SCEVCouldNotCompute>(btc) || btc->getType()->getIntegerBitWidth() > 64)
        continue;
      if (auto g = findGuard(*L, SE)) {
        chosen = L, guard = g, tripMinusOne = btc;
        break;
      }
    }
    if (!chosen)
      break;
    formLCSSA(*chosen, DT, &LI, &SE);
    // Neither loop is split again: their loop ids lose ThreadLoopMD.
    Instruction *latchBr = chosen->getLoopLatch()->getTerminator();
    latchBr->setMetadata(LLVMContext::MD_loop,
                         makePostTransformationMetadata(F.getContext(), chosen->getLoopID(),
                                                        {ThreadLoopMD}, {}));
    split(*chosen, *guard, SE, tripMinusOne);
    FAM.invalidate(F, PreservedAnalyses::none());
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace musa::jit
