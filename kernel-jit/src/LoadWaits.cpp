// The load waits of a basic block (LoadWaits.h): a GPU issues a block's independent global
// loads together and waits once for them; a load that needs another's value, or comes after a
// store it may alias, waits again.
#include "LoadWaits.h"

#include "Accesses.h"
#include "musa/jit/DeviceLowering.h"
#include "musa/sim/KernelAbi.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace llvm;

namespace musa::jit {

namespace {

/// Whether a global load from `load` may read what a store to `store` wrote, as far as a GPU
/// compiler can tell without knowing the addresses: distinct identified objects (allocations,
/// variables, `__restrict__` parameters) do not alias; anything else reached through plain
/// pointers may.
bool mayAlias(const Value *load, const Value *store) {
  const Value *a = getUnderlyingObject(load, 12), *b = getUnderlyingObject(store, 12);
  if (a == b)
    return true;
  auto distinct = [](const Value *v) {
    if (auto *arg = dyn_cast<Argument>(v))
      return arg->hasNoAliasAttr() || arg->hasByValAttr();
    return isa<AllocaInst>(v) || isa<GlobalVariable>(v);
  };
  return !(distinct(a) || distinct(b));
}

/// The global loads' dependent depths along a stretch of straight-line code: a basic block, or
/// a predicated block after the block it hangs from. A load's depth is the most global loads
/// on one def-use path to it within the stretch, itself included; the stretch's loads wait for
/// memory `chain` times one after another (a pointer chase unrolled four times is four waits;
/// four independent loads are one).
struct LoadDepths {
  explicit LoadDepths(Argument *ctx) : ctx(ctx) {}
  Argument *ctx;
  DenseMap<const Instruction *, unsigned> depth;
  // Global stores and atomics so far: where, and the loads their operands waited for. A load
  // after one it may alias cannot be issued before it (the compiler keeps their order), and the
  // store issues once its operands are ready: the load waits behind them (a recurrence
  // `out[y] = f(in[y], ...)` unrolled with `in` and `out` unrestricted is one load at a time).
  SmallVector<std::pair<const Value *, unsigned>, 8> stores;
  unsigned chain = 0, loads = 0;
  unsigned floor = 0; // the depth of a predicated block's condition

  /// Visits the next instruction; `ptr` and `info` as accessPointer gave them (ptr null: not
  /// an access).
  void visit(const Instruction &I, Value *ptr, uint32_t info) {
    unsigned d = floor;
    for (const Value *V : I.operands())
      if (auto *op = dyn_cast<Instruction>(V))
        d = std::max(d, depth.lookup(op));
    if (ptr) {
      bool load = !(info & (sim::abi::AccessStore | sim::abi::AccessAtomic));
      bool global = !(info & sim::abi::AccessLocal) &&
                    !(ctx && isSharedPointer(ptr, ctx));
      if (global && !load && d)
        stores.push_back({ptr, d});
      else if (global && load)
        for (const auto &[where, waited] : stores)
          if (waited > d && mayAlias(ptr, where))
            d = waited;
      // Only global loads wait for memory: a shared or stack load's result is a few dozen
      // cycles away, counted in the block's dependent chain (SharedLoadSteps).
      loads += load && global;
      d += load && global;
    }
    if (d)
      depth[&I] = d;
    chain = std::max(chain, d);
  }
};

/// The block a GPU compiler turns `BB` into predicated instructions of, if any: a short
/// branch-free block with no calls that its only predecessor branches around (`if (c) x +=
/// a[j];`, either arm of a short if-else). Its loads issue with that block's, so they wait
/// with them (a grid-stride loop's second, guarded load is no second wait).
BasicBlock *predicatedUnder(BasicBlock &BB) {
  constexpr unsigned MaxPredicated = 16; // instructions; ptxas if-converts short arms only
  BasicBlock *P = BB.getSinglePredecessor();
  auto *branch = P ? dyn_cast<BranchInst>(P->getTerminator()) : nullptr;
  auto *own = dyn_cast<BranchInst>(BB.getTerminator());
  if (!branch || !branch->isConditional() || !own || own->isConditional() || P == &BB)
    return nullptr;
  auto shortArm = [&](const BasicBlock &arm) {
    if (arm.size() > MaxPredicated + 1)
      return false;
    for (const Instruction &I : arm)
      if (auto *call = dyn_cast<CallBase>(&I); call && !isa<IntrinsicInst>(call))
        return false;
    return true;
  };
  const BasicBlock *join = own->getSuccessor(0);
  const BasicBlock *other = branch->getSuccessor(branch->getSuccessor(0) == &BB ? 1 : 0);
  if (other == &BB || !shortArm(BB))
    return nullptr;
  if (other == join) // a triangle
    return P;
  auto *otherBranch = dyn_cast<BranchInst>(other->getTerminator());
  bool diamond = other->getSinglePredecessor() == P && otherBranch &&
                 !otherBranch->isConditional() && otherBranch->getSuccessor(0) == join &&
                 shortArm(*other);
  return diamond ? P : nullptr;
}

} // namespace

LoadWaits loadWaits(BasicBlock &BB) {
  const DataLayout &DL = BB.getModule()->getDataLayout();
  LoadDepths loads(getContextArg(*BB.getParent()));
  auto visit = [&](BasicBlock &block) {
    for (Instruction &I : block) {
      uint32_t info = 0;
      Value *ptr = accessPointer(I, info, DL); // before `info` is read
      loads.visit(I, ptr, info);
    }
  };
  // A predicated block continues the block it hangs from: its loads add waits only where they
  // need that block's loads (through their operands or the predicate) or wait behind its
  // stores.
  unsigned before = 0;
  if (BasicBlock *P = predicatedUnder(BB)) {
    visit(*P);
    before = loads.chain, loads.loads = 0;
    loads.floor = loads.depth.lookup(P->getTerminator());
  }
  visit(BB);
  return {loads.loads, loads.chain - std::min(loads.chain, before)};
}

} // namespace musa::jit
