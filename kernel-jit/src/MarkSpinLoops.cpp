// MarkSpinLoopsPass: loops that wait for another GPU thread yield to it.
//
// On a GPU every resident thread makes progress on its own (Volta's independent thread
// scheduling within a warp, the warp schedulers across warps and blocks), so a thread may
// wait for another without a barrier: a consumer warp polls a flag a producer warp sets, a
// block of a cooperative grid waits for its neighbour's partial result, a thread takes a
// spin lock another one holds. The virtual GPU runs a block's threads one after another (a
// thread loop) or as fibers that switch only at barriers; a waiting thread that never lets
// the one it waits for run spins for ever.
//
// A spin loop is a loop with a branch (an exit, or the `if` deciding whether a trip got
// anywhere) that depends on a value the loop polls:
//   - a volatile or atomic load, at any address (decoupled look-back polls slot j until it is
//     ready, then moves to j - 1),
//   - a plain load of a location that stays the same over the loop (a loop-invariant
//     address), when the loop also has a fence (__threadfence() keeps the load from being
//     hoisted, so it reads memory afresh each trip),
// or at a location that stays the same over the loop:
//   - an atomic read-modify-write that changes nothing (atomicAdd(p, 0), atomicOr(p, 0),
//     atomicAnd(p, ~0)) or writes a value fixed for the loop (atomicExch(lock, 1)),
//   - a compare-and-swap whose expected value is fixed for the loop (atomicCAS(lock, 0, 1)).
// Loops that make progress alone are not spins: a compare-and-swap retry loop (the expected
// value is the last one read), linear probing (the address moves), a work queue taking
// indices with atomicAdd(next, 1), a loop whose branches do not look at what it reads.
// A poll may sit in a function the loop calls and that was not inlined (`while (!ready(flag))`
// with a `__noinline__` ready()): a branch that depends on such a call's result looks at what
// the callee returns by the same rules, a lock taken there counting when the call's arguments
// are the same every trip.
//
// Each back edge of a spin loop gets `call __musa_sim_spin(i64 trip, ptr ctx)` (trip counts
// from 0 each time the loop is entered; `!musa.spin.waits` when the loop waits for a value in
// global or generic memory rather than for a lock or for shared memory, so the kernel may wait
// for another block of its grid): the
// simdevice builtin parks the fiber so the others run (and ends the launch with
// musaErrorLaunchTimeout when one loop has waited past the spin limit, a deadlock on
// hardware). A kernel that reaches the call runs as fibers (EmitKernelThunks marks it,
// FormBarrierRegions leaves it). A loop that also reaches a
// barrier or warp collective yields there already and is left alone.
#include "musa/jit/DeviceLowering.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace musa::jit {

namespace {

bool isParkCall(const Instruction &I) {
  auto *call = dyn_cast<CallBase>(&I);
  if (!call || call->isInlineAsm() || isLockstepPoint(*call))
    return false; // a lockstep point parks, but a poll loop through it still needs its yield
  auto *callee = dyn_cast<Function>(call->getCalledOperand()->stripPointerCasts());
  if (!callee)
    return true; // an indirect call may reach a barrier
  return sim::abi::isParkBuiltin(callee->getName()) || callee->getName() == sim::abi::GridSyncFn ||
         callee->getName() == sim::abi::NamedBarrierFn;
}

bool isAllOnesOrZero(const Value *v, bool ones) {
  if (auto *c = dyn_cast<ConstantInt>(v))
    return ones ? c->isMinusOne() : c->isZero();
  if (auto *f = dyn_cast<ConstantFP>(v))
    return !ones && f->isZero();
  return false;
}

/// Whether `address` is the same on every trip of `L`: computed outside it, or inside from such
/// values and the thread's context (the block's shared-memory base is a load from ctx).
bool sameEveryTrip(const Value *address, const Loop &L, unsigned depth = 0) {
  auto *I = dyn_cast<Instruction>(address);
  if (!I || !L.contains(I))
    return true;
  if (depth > 8)
    return false;
  if (auto *load = dyn_cast<LoadInst>(I)) {
    const Function *F = I->getFunction();
    const Argument *ctx = F ? getContextArg(const_cast<Function &>(*F)) : nullptr;
    return load->isSimple() && ctx &&
           getUnderlyingObject(load->getPointerOperand()) == ctx &&
           sameEveryTrip(load->getPointerOperand(), L, depth + 1);
  }
  if (!isa<GetElementPtrInst>(I) && !isa<CastInst>(I) && !isa<BinaryOperator>(I))
    return false;
  for (const Value *op : I->operands())
    if (!sameEveryTrip(op, L, depth + 1))
      return false;
  return true;
}

/// What a spin loop waits for: a lock (a compare-and-swap or exchange of fixed values, held
/// by a thread that is running) or a value in the block's shared memory (Block: what it waits
/// for runs in its own block), or a value in memory other blocks may write (Grid: a read, or a
/// read-modify-write that changes nothing, of global or generic memory).
enum class Spin { None, Block, Grid };

/// Whether `I` accesses the block's shared memory (an address from the context's shared or
/// dynamic shared base, as LowerSharedMemory forms them).
bool accessesShared(const Instruction &I) {
  const Value *pointer = getLoadStorePointerOperand(&I);
  if (!pointer)
    if (auto *rmw = dyn_cast<AtomicRMWInst>(&I))
      pointer = rmw->getPointerOperand();
  auto *base = pointer ? dyn_cast<LoadInst>(getUnderlyingObject(pointer)) : nullptr;
  if (!base)
    return false;
  const Function *F = I.getFunction();
  const Argument *ctx = getContextArg(const_cast<Function &>(*F));
  int64_t offset = 0;
  const Value *field = GetPointerBaseWithConstantOffset(base->getPointerOperand(), offset,
                                                        F->getDataLayout());
  return ctx && field == ctx &&
         (offset == sim::abi::SharedOffset || offset == sim::abi::DynamicSharedOffset);
}

/// Whether a read-modify-write, repeated at one location, polls it: it changes nothing
/// (adds 0, ors 0, ands ~0) or, an exchange, writes a value fixed for the loop (`valueFixed`).
bool pollingUpdate(const AtomicRMWInst &rmw, bool valueFixed) {
  const Value *v = rmw.getValOperand();
  switch (rmw.getOperation()) {
  case AtomicRMWInst::Xchg: return valueFixed;
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub:
  case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor:
  case AtomicRMWInst::FAdd:
  case AtomicRMWInst::FSub: return isAllOnesOrZero(v, false);
  case AtomicRMWInst::And: return isAllOnesOrZero(v, true);
  default: return false;
  }
}

/// Whether `I`, inside loop `L`, reads a location that stays the same over the loop in a way
/// another thread's write can change between trips (see the file comment).
bool polls(const Instruction &I, const Loop &L, bool loopHasFence) {
  if (auto *load = dyn_cast<LoadInst>(&I))
    return load->isVolatile() || load->isAtomic() || // wherever it reads (look-back: slot j
                                                      // until it is ready, then j - 1)
           (loopHasFence && sameEveryTrip(load->getPointerOperand(), L));
  if (auto *rmw = dyn_cast<AtomicRMWInst>(&I))
    return sameEveryTrip(rmw->getPointerOperand(), L) &&
           pollingUpdate(*rmw, L.isLoopInvariant(rmw->getValOperand()));
  if (auto *cas = dyn_cast<AtomicCmpXchgInst>(&I))
    return sameEveryTrip(cas->getPointerOperand(), L) &&
           L.isLoopInvariant(cas->getCompareOperand());
  return false;
}

/// Whether `I` is a polled read that takes a lock (compare-and-swap, exchange) rather than
/// reading a value.
bool takesLock(const Instruction &I) {
  return isa<AtomicCmpXchgInst>(I) ||
         (isa<AtomicRMWInst>(I) && cast<AtomicRMWInst>(I).getOperation() == AtomicRMWInst::Xchg);
}

/// What the value `call` returns polls, for a call in loop `L` to a function with a body: the
/// callee's returned values are followed back through what it computes to a volatile or atomic
/// load (a poll wherever it reads), a read-modify-write that changes nothing or a lock
/// (compare-and-swap, exchange of a fixed value), the last two only when the call's arguments
/// are the same every trip (they then address the same location); calls in the callee are
/// followed in turn, a few deep. A callee that reaches a barrier yields there already.
Spin returnedPoll(const CallBase &call, const Loop &L, unsigned depth = 0) {
  const Function *F = call.getCalledFunction();
  if (!F || F->isDeclaration() || F->getReturnType()->isVoidTy() || depth > 3)
    return Spin::None;
  bool fixedArgs = all_of(call.args(), [&](const Use &a) { return sameEveryTrip(a.get(), L); });
  SmallVector<const Value *, 16> work;
  for (const BasicBlock &B : *F)
    for (const Instruction &I : B) {
      if (isParkCall(I))
        return Spin::None;
      if (auto *ret = dyn_cast<ReturnInst>(&I); ret && ret->getReturnValue())
        work.push_back(ret->getReturnValue());
    }
  SmallPtrSet<const Value *, 32> seen;
  Spin kind = Spin::None;
  while (!work.empty()) {
    auto *I = dyn_cast<Instruction>(work.pop_back_val());
    if (!I || !seen.insert(I).second)
      continue;
    Spin found = Spin::None;
    if (auto *load = dyn_cast<LoadInst>(I)) {
      if (!load->isVolatile() && !load->isAtomic())
        continue;
      found = accessesShared(*I) ? Spin::Block : Spin::Grid;
    } else if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
      // The callee's own arguments stand for values fixed for the loop when the call's are.
      auto fixed = [&](const Value *v) { return isa<Constant>(v) || isa<Argument>(v); };
      auto *rmw = dyn_cast<AtomicRMWInst>(I);
      if (!fixedArgs || !(rmw ? pollingUpdate(*rmw, fixed(rmw->getValOperand()))
                              : fixed(cast<AtomicCmpXchgInst>(I)->getCompareOperand())))
        continue;
      found = takesLock(*I) || accessesShared(*I) ? Spin::Block : Spin::Grid;
    } else if (auto *inner = dyn_cast<CallBase>(I)) {
      found = fixedArgs ? returnedPoll(*inner, L, depth + 1) : Spin::None;
    } else {
      for (const Value *op : I->operands())
        work.push_back(op);
      continue;
    }
    if (found == Spin::Grid)
      return Spin::Grid;
    if (found == Spin::Block)
      kind = Spin::Block;
  }
  return kind;
}

/// Whether a branch of `L` (an exit, or the `if` that decides whether a trip got anywhere)
/// depends, through values computed in the loop, on a polled read, and what it waits for.
Spin spinKind(const Loop &L, const LoopInfo &LI) {
  bool hasFence = false;
  for (BasicBlock *B : L.blocks())
    for (Instruction &I : *B) {
      if (isParkCall(I))
        return Spin::None; // it yields at the barrier already
      hasFence |= isa<FenceInst>(I);
    }
  SmallVector<const Value *, 16> work;
  for (BasicBlock *B : L.blocks()) {
    if (LI.getLoopFor(B) != &L && !L.isLoopExiting(B))
      continue; // inner loops' own branches are theirs
    const Instruction *term = B->getTerminator();
    if (auto *br = dyn_cast<BranchInst>(term); br && br->isConditional())
      work.push_back(br->getCondition());
    else if (auto *sw = dyn_cast<SwitchInst>(term))
      work.push_back(sw->getCondition());
  }
  SmallPtrSet<const Value *, 32> seen;
  Spin kind = Spin::None;
  while (!work.empty()) {
    auto *I = dyn_cast<Instruction>(work.pop_back_val());
    if (!I || !L.contains(I) || !seen.insert(I).second)
      continue;
    if (polls(*I, L, hasFence)) {
      if (!takesLock(*I) && !accessesShared(*I))
        return Spin::Grid;
      kind = Spin::Block;
      continue;
    }
    if (auto *call = dyn_cast<CallBase>(I)) {
      Spin returned = returnedPoll(*call, L); // a poll in a function not inlined
      if (returned == Spin::Grid)
        return Spin::Grid;
      if (returned == Spin::Block)
        kind = Spin::Block;
      continue; // otherwise its arguments are not what is polled
    }
    if (isa<LoadInst>(I))
      continue; // a value read: its address is not what is polled
    for (const Value *op : I->operands())
      work.push_back(op);
  }
  return kind;
}

/// Counts the loop's trips from 0 in a header phi and calls the spin builtin on each back edge
/// (marked abi::SpinWaitsMetadata when the loop waits for a value).
void instrument(Loop &L, FunctionCallee spin, Value *ctx, bool waits) {
  BasicBlock *header = L.getHeader();
  Type *i64 = Type::getInt64Ty(header->getContext());
  PHINode *trip = PHINode::Create(i64, 0, "spin.trip", header->getFirstNonPHIIt());
  for (BasicBlock *pred : predecessors(header)) {
    if (!L.contains(pred)) {
      trip->addIncoming(ConstantInt::get(i64, 0), pred);
      continue;
    }
    IRBuilder<> b(pred->getTerminator());
    CallInst *call = b.CreateCall(spin, {trip, ctx});
    if (waits)
      call->setMetadata(SpinWaitsMetadata, MDNode::get(header->getContext(), {}));
    trip->addIncoming(b.CreateAdd(trip, ConstantInt::get(i64, 1), "spin.next"), pred);
  }
}

} // namespace

bool isSpinLoop(const Loop &L, const LoopInfo &LI) { return spinKind(L, LI) != Spin::None; }

PreservedAnalyses MarkSpinLoopsPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &C = M.getContext();
  FunctionCallee spin = M.getOrInsertFunction(
      sim::abi::SpinFn, FunctionType::get(Type::getVoidTy(C),
                                          {Type::getInt64Ty(C), PointerType::getUnqual(C)},
                                          false));
  bool changed = false;
  for (Function &F : M) {
    Argument *ctx = F.isDeclaration() ? nullptr : getContextArg(F);
    if (!ctx)
      continue;
    DominatorTree DT(F);
    LoopInfo LI(DT);
    SmallVector<std::pair<Loop *, Spin>, 8> spins;
    for (Loop *L : LI.getLoopsInPreorder())
      if (Spin kind = spinKind(*L, LI); kind != Spin::None)
        spins.push_back({L, kind});
    for (auto [L, kind] : spins)
      instrument(*L, spin, ctx, kind == Spin::Grid);
    changed |= !spins.empty();
  }
  if (auto *declared = dyn_cast<Function>(spin.getCallee()); declared && declared->use_empty())
    declared->eraseFromParent();
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace musa::jit
