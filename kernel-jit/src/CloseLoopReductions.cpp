// CloseLoopReductionsPass: reductions whose result follows from a loop's trip count are
// computed once after the loop instead of on every iteration.
//
// The light timing counters (InstrumentTiming.cpp, kept in registers by LocalCounters.cpp)
// make a loop over a block's threads carry reductions besides the kernel's own work: counts
// that grow by a constant per thread, the lowest and highest address a site touches, and the
// low bits of the addresses for the alignment check (CheckAccesses.cpp). In vector add that is
// about twenty vector instructions per eight threads next to four of the kernel's. Where the
// update runs on every iteration their values after the loop are known in closed form:
//
//   h = phi [init, pre], [u, latch]; u = add h, c          c invariant      -> init + c * trips
//   u = umin/umax h, a                 a = an address moving one way over the loop (ptrtoint
//                                       of p + c * ext({x,+,s})) -> with a's first or last value
//   u = or h, (and w, 2^k - 1)          w an or/add of such addresses and invariants, each
//                                       stride a multiple of 2^k            -> init | (w's first
//                                                                              value & 2^k - 1)
//
// Loop passes (IndVarSimplify) do the first for loops they see; this pass runs just before the
// vectoriser, after SplitThreadGuardsPass made its copies. Addresses do not wrap around the
// address space, which is what makes the first and last address the extremes; the pass only
// trusts that of values converted from pointers.
#include "musa/jit/DeviceLowering.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace musa::jit {

namespace {

class LoopCloser {
public:
  LoopCloser(Loop &L, ScalarEvolution &SE, const SCEV *btc)
      : L_(L), SE_(SE), btc_(btc), expander_(SE, L.getHeader()->getDataLayout(), "musa.closed"),
        at_(L.getLoopPreheader()->getTerminator()) {}

  /// Closes what it can among the header's phis; true if it changed the loop.
  bool run() {
    SmallVector<PHINode *, 16> phis;
    for (PHINode &phi : L_.getHeader()->phis())
      phis.push_back(&phi);
    bool changed = false;
    for (PHINode *h : phis)
      changed |= close(h);
    return changed;
  }

private:
  Loop &L_;
  ScalarEvolution &SE_;
  const SCEV *btc_;
  SCEVExpander expander_;
  Instruction *at_; // the preheader's terminator: closed values are computed there

  Value *expand(const SCEV *s) { return expander_.expandCodeFor(s, s->getType(), at_); }

  /// A value converted from a pointer, possibly plus a constant (an access's end).
  static bool isAddress(Value *v) {
    Value *base = v;
    match(v, m_Add(m_Value(base), m_ConstantInt()));
    return isa<PtrToIntInst>(base);
  }

  /// Whether `s` only rises (direction 1) or only falls (-1) over the loop's iterations:
  /// one affine recurrence of this loop with a constant step, reached through additions of
  /// invariants, multiplications by positive constants and extensions (which keep the order
  /// while the index does not wrap; a thread index does not). 0 if neither.
  int direction(const SCEV *s, unsigned depth = 0) {
    if (depth > 8)
      return 0;
    if (auto *rec = dyn_cast<SCEVAddRecExpr>(s)) {
      auto *step = dyn_cast<SCEVConstant>(rec->getStepRecurrence(SE_));
      if (rec->getLoop() != &L_ || !rec->isAffine() || !step ||
          !SE_.isLoopInvariant(rec->getStart(), &L_))
        return 0;
      return step->getAPInt().isNegative() ? -1 : 1;
    }
    if (auto *cast = dyn_cast<SCEVIntegralCastExpr>(s))
      return isa<SCEVTruncateExpr>(cast) ? 0 : direction(cast->getOperand(), depth + 1);
    if (auto *add = dyn_cast<SCEVAddExpr>(s)) {
      int found = 0;
      for (const SCEV *op : add->operands()) {
        if (SE_.isLoopInvariant(op, &L_))
          continue;
        if (found)
          return 0; // two moving terms
        found = direction(op, depth + 1);
        if (!found)
          return 0;
      }
      return found;
    }
    if (auto *mul = dyn_cast<SCEVMulExpr>(s); mul && mul->getNumOperands() == 2) {
      auto *factor = dyn_cast<SCEVConstant>(mul->getOperand(0));
      if (!factor || factor->getAPInt().isNegative() || factor->isZero())
        return 0;
      return direction(mul->getOperand(1), depth + 1);
    }
    return 0;
  }

  /// `s` on iteration `k` (of this loop's recurrences).
  const SCEV *atIteration(const SCEV *s, const SCEV *k) {
    struct Rewriter : SCEVRewriteVisitor<Rewriter> {
      const Loop *loop;
      const SCEV *k;
      Rewriter(ScalarEvolution &SE, const Loop *loop, const SCEV *k)
          : SCEVRewriteVisitor(SE), loop(loop), k(k) {}
      const SCEV *visitAddRecExpr(const SCEVAddRecExpr *e) {
        return e->getLoop() == loop ? e->evaluateAtIteration(k, SE) : e;
      }
    };
    Rewriter rewriter(SE_, &L_, k);
    return rewriter.visit(s);
  }

  /// Whether `v`'s low `bits` bits are the same on every iteration: built by or/and/add from
  /// loop invariants and addresses whose stride is a multiple of 2^bits.
  bool lowBitsInvariant(Value *v, unsigned bits, unsigned depth = 0) {
    if (depth > 8)
      return false;
    if (SE_.isSCEVable(v->getType()) && SE_.isLoopInvariant(SE_.getSCEV(v), &L_))
      return true;
    if (isAddress(v)) {
      const SCEV *s = SE_.getSCEV(v);
      if (!direction(s))
        return false;
      const SCEV *moved = SE_.getMinusSCEV(s, atIteration(s, SE_.getZero(s->getType())));
      return SE_.getMinTrailingZeros(moved) >= bits;
    }
    auto *I = dyn_cast<BinaryOperator>(v);
    if (!I || !(I->getOpcode() == Instruction::Or || I->getOpcode() == Instruction::And ||
                I->getOpcode() == Instruction::Add))
      return false;
    return lowBitsInvariant(I->getOperand(0), bits, depth + 1) &&
           lowBitsInvariant(I->getOperand(1), bits, depth + 1);
  }

  /// `v` as on the first iteration (lowBitsInvariant(v) holds; only its low bits are used).
  Value *firstValue(Value *v, IRBuilder<> &b) {
    const SCEV *s = SE_.getSCEV(v);
    if (SE_.isLoopInvariant(s, &L_))
      return expand(s);
    if (isAddress(v))
      return expand(atIteration(s, SE_.getZero(s->getType())));
    auto *I = cast<BinaryOperator>(v);
    Value *lhs = firstValue(I->getOperand(0), b), *rhs = firstValue(I->getOperand(1), b);
    return b.CreateBinOp(I->getOpcode(), lhs, rhs);
  }

  /// u's value after the loop, or null if it has no closed form here.
  Value *closedValue(PHINode *h, Instruction *u, Value *init) {
    IRBuilder<> b(at_);
    Value *other = nullptr;
    if (match(u, m_c_Add(m_Specific(h), m_Value(other)))) {
      const SCEV *s = SE_.getSCEVAtScope(u, L_.getParentLoop());
      if (isa<SCEVCouldNotCompute>(s) || !SE_.isLoopInvariant(s, &L_))
        return nullptr;
      return expand(s);
    }
    if (auto *mm = dyn_cast<MinMaxIntrinsic>(u)) {
      Intrinsic::ID id = mm->getIntrinsicID();
      if (id != Intrinsic::umin && id != Intrinsic::umax)
        return nullptr;
      Value *a = mm->getLHS() == h ? mm->getRHS() : mm->getLHS();
      if ((mm->getLHS() != h && mm->getRHS() != h) || !isAddress(a))
        return nullptr;
      const SCEV *s = SE_.getSCEV(a);
      int dir = direction(s);
      if (!dir)
        return nullptr;
      bool wantFirst = (id == Intrinsic::umin) == (dir > 0);
      const SCEV *extreme = atIteration(s, wantFirst ? SE_.getZero(btc_->getType()) : btc_);
      return b.CreateBinaryIntrinsic(id, init, expand(extreme));
    }
    const APInt *mask = nullptr;
    Value *w = nullptr;
    if (match(u, m_c_Or(m_Specific(h), m_And(m_Value(w), m_APInt(mask)))) &&
        mask->isMask() && lowBitsInvariant(w, mask->countr_one())) {
      Value *first = b.CreateAnd(firstValue(w, b), ConstantInt::get(w->getType(), *mask));
      return b.CreateOr(init, first);
    }
    return nullptr;
  }

  bool close(PHINode *h) {
    BasicBlock *pre = L_.getLoopPreheader(), *latch = L_.getLoopLatch();
    if (h->getNumIncomingValues() != 2 || !h->getType()->isIntegerTy() || !h->hasOneUse())
      return false;
    auto *u = dyn_cast<Instruction>(h->getIncomingValueForBlock(latch));
    if (!u || !L_.contains(u) || *h->user_begin() != u)
      return false;
    // Only the phi inside the loop reads the update: everything else is after the loop.
    for (User *user : u->users())
      if (user != h && L_.contains(cast<Instruction>(user)))
        return false;
    Value *closed = closedValue(h, u, h->getIncomingValueForBlock(pre));
    if (!closed)
      return false;
    u->replaceUsesWithIf(closed, [&](Use &use) { return use.getUser() != h; });
    h->replaceAllUsesWith(PoisonValue::get(h->getType()));
    h->eraseFromParent();
    u->eraseFromParent();
    return true;
  }
};

} // namespace

PreservedAnalyses CloseLoopReductionsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  bool changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    // A preheader and a latch that is the only way out; the exit need not be dedicated (the
    // loops SplitThreadGuardsPass makes share theirs).
    if (!L->isInnermost() || !L->getLoopPreheader() || !L->getLoopLatch() || !L->getExitBlock() ||
        L->getExitingBlock() != L->getLoopLatch())
      continue;
    const SCEV *btc = SE.getBackedgeTakenCount(L);
    if (isa<SCEVCouldNotCompute>(btc))
      continue;
    if (LoopCloser(*L, SE, btc).run()) {
      changed = true;
      SE.forgetLoop(L);
    }
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace musa::jit
