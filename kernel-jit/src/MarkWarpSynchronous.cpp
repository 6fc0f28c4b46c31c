// MarkWarpSynchronousPass: warp-synchronous code through volatile shared memory runs in lockstep.
//
// Before Volta a warp's lanes executed in lockstep, and a generation of CUDA code relies on it:
// the tail of the classic shared-memory reduction
//
//   if (tid < 32) { volatile int *s = sdata;
//                   s[tid] += s[tid + 32]; s[tid] += s[tid + 16]; ... s[tid] += s[tid + 1]; }
//
// and warp scans (`if (lane >= 1) s[i] += s[i - 1]; if (lane >= 2) ...`) exchange values
// between lanes through volatile shared memory with no __syncwarp, each step reading what
// other lanes wrote in the step before. By CUDA's rules since Volta this is a race, but it
// still gives the intended result on the GPU (the compiler emits each volatile access as its
// own instruction and the warp's lanes reach them together), and public samples and
// benchmarks are full of it. The virtual GPU runs a warp's lanes one after another between
// park points: lane 0 would run all six steps before lane 16 ran its first.
//
// So each volatile load or store of a shared object that lanes exchange values through is
// followed by a convergence point, the WarpConverge collective __activemask() uses, marked
// !musa.lockstep (none where a block barrier, or the kernel's return, comes first): the lanes
// of the warp (of its 32-lane quarter on 128-lane warps) that reach the access together all
// make it before any goes on, as in lockstep. An object counts when a function both loads and
// stores it with volatile accesses at more than one address; an own-slot-only pattern such as
// `v += s[idx]; s[idx] = v;`, or a single volatile flag, needs no lockstep and keeps its plain
// thread loop. The object is an addrspace(3) variable (through a select or phi, each one it
// may be), or, for a generic pointer, a non-kernel function's pointer argument (a helper such
// as `warpReduce(volatile int *sdata, int tid)` that was not inlined); a kernel's own pointer
// arguments point to global memory.
//
// Lanes can diverge between such accesses: a guarded step of a scan (`if (lane >= o) v[t] +=
// v[t - o];`), a conditional update, a reduction that one warp runs once per row of a loop.
// The GPU reconverges a warp at the immediate post-dominator of a divergent branch (the
// compiler brackets the branch with a reconvergence barrier), so lanes that skipped the step
// wait there for those that made it. Each conditional branch whose region (the blocks from the
// branch to its post-dominator) holds a point, or a call of a function that has one, gets the
// same: the lanes at the branch together are taken as a mask (a WarpConverge collective, where
// the branch leaves a loop: in the loop's preheader, as the mask of lanes entering it) and the
// post-dominator starts with a __syncwarp of that mask among the quarter's lanes. Both are
// marked !musa.lockstep too. Left out: a branch every lane of a 32-lane group takes alike (a
// condition computed from a kernel's arguments and block-wide registers only, or legacy code's
// `if (tid < 32)`: see laneGroupUniform); a branch whose post-dominator is the function's
// exit (lanes that return do not hold the others up); one whose post-dominator the mask's block
// does not dominate or is not post-dominated by; and one whose region has a loop that waits for
// another thread (MarkSpinLoops' rules): there a lane held at the join may be the one that the
// others spin for (lanes handing values on to each other, legal since Volta, as the
// corpus's warp_producer_consumer does), and the hardware does not hold it.
//
// Not covered (tests/corpus/repros/repro_ws_*.mu): single-address exchanges (a vote through one
// volatile word) and plain stores read back through a volatile pointer get no points, nor does
// a pointer made from an integer.
//
// The points cost nothing in the timing model (InstrumentTiming skips !musa.lockstep calls: the
// GPU issues no instruction for them) and do not hide a spin loop from MarkSpinLoops (a poll of
// a volatile shared flag still yields, and still times out when nothing will ever set it).
#include "musa/jit/DeviceLowering.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace musa::jit {

namespace {

constexpr unsigned SharedAddressSpace = 3;

/// The shared objects a volatile access may reach (several through a select or phi: two
/// arrays ping-ponged through pointers); none if it cannot be shared memory.
SmallVector<const Value *, 2> sharedObjectsOf(const Value *pointer, bool inKernel) {
  SmallVector<const Value *, 4> objects;
  getUnderlyingObjects(pointer, objects);
  SmallVector<const Value *, 2> shared;
  for (const Value *object : objects) {
    if (auto *var = dyn_cast<GlobalVariable>(object)) {
      if (var->getAddressSpace() == SharedAddressSpace)
        shared.push_back(var);
    } else if (pointer->getType()->getPointerAddressSpace() == SharedAddressSpace) {
      shared.push_back(object);
    } else if (isa<Argument>(object) && !inKernel) {
      shared.push_back(object);
    }
  }
  return shared;
}

struct ObjectAccesses {
  SmallVector<Instruction *, 8> accesses;
  SmallPtrSet<const Value *, 8> addresses;
  bool loads = false, stores = false;
};

/// Whether every thread that makes `access` next reaches a block barrier (or, in a kernel,
/// returns) before anything else of interest: another volatile access, a call, a branch that
/// may go two ways. Then the barrier (or the exit) already orders the access before what other
/// lanes do next, and a point of its own would only cost a pass of the executor (the classic
/// tree's `if (tid < s) sdata[tid] = ...; __syncthreads();`).
bool barrierFollows(Instruction &access, bool kernel) {
  Instruction *I = access.getNextNode();
  for (unsigned steps = 0; I && steps < 64; ++steps) {
    if (auto *call = dyn_cast<CallBase>(I)) {
      Function *callee = call->getCalledFunction();
      if (callee && (callee->getIntrinsicID() == Intrinsic::nvvm_barrier0 ||
                     callee->getName() == "llvm.nvvm.barrier.sync"))
        return true;
      if (!isa<IntrinsicInst>(call) || I->mayReadOrWriteMemory())
        return false;
    } else if (auto *br = dyn_cast<BranchInst>(I)) {
      if (br->isConditional())
        return false;
      I = &br->getSuccessor(0)->front();
      continue;
    } else if (isa<ReturnInst>(I)) {
      return kernel;
    } else if (I->isTerminator() || I->mayReadOrWriteMemory()) {
      return false;
    }
    I = I->getNextNode();
  }
  return false;
}

/// A lockstep collective before `at`: WarpFn(op, mask, 0, 0, 0).
CallInst *insertLockstepCall(Instruction *at, FunctionCallee warp, uint32_t op, Value *mask) {
  IRBuilder<> b(at);
  Type *i32 = b.getInt32Ty();
  CallInst *call = b.CreateCall(warp, {ConstantInt::get(i32, op), mask, b.getInt64(0),
                                       ConstantInt::get(i32, 0), ConstantInt::get(i32, 0)});
  call->setMetadata(LockstepMetadata, MDNode::get(at->getContext(), {}));
  return call;
}

void insertConvergencePoint(Instruction &access, FunctionCallee warp) {
  insertLockstepCall(access.getNextNode(), warp, sim::abi::WarpConvergeOp,
                     ConstantInt::get(Type::getInt32Ty(access.getContext()), ~0u));
}

/// Whether `I` is a lockstep point or calls a function in `withPoints`.
bool holdsLockstep(const Instruction &I, const SmallPtrSetImpl<Function *> &withPoints) {
  if (isLockstepPoint(I))
    return true;
  auto *call = dyn_cast<CallBase>(&I);
  return call && call->getCalledFunction() && withPoints.count(call->getCalledFunction());
}

/// The special register an `llvm.nvvm.read.ptx.sreg.*` call reads ("tid.x", ...), or "".
StringRef specialRegister(const Value *V) {
  auto *call = dyn_cast<CallInst>(V->stripPointerCasts());
  Function *callee = call ? call->getCalledFunction() : nullptr;
  StringRef name = callee ? callee->getName() : "";
  return name.consume_front("llvm.nvvm.read.ptx.sreg.") ? name : "";
}

bool isThreadIdxX(const Value *V) {
  if (auto *cast = dyn_cast<CastInst>(V); cast && cast->isIntegerCast())
    V = cast->getOperand(0);
  return specialRegister(V) == "tid.x";
}

/// Whether every lane of a 32-lane group (a warp, a quarter of a 128-lane warp) computes `V`
/// alike: constants, a kernel's arguments, block-wide registers and what is computed from them
/// alone, and threadIdx.x compared with a multiple of 32 (`tid < 32`, legacy code's test for
/// warp 0, which assumes what such code does: 1-D blocks or rows of whole warps).
bool laneGroupUniform(const Value *V, bool kernel, unsigned depth = 0) {
  if (isa<Constant>(V))
    return true;
  if (isa<Argument>(V))
    return kernel;
  if (depth > 8)
    return false;
  StringRef reg = specialRegister(V);
  if (!reg.empty())
    return reg.starts_with("ctaid.") || reg.starts_with("nctaid.") || reg.starts_with("ntid.") ||
           reg == "warpsize";
  if (auto *cmp = dyn_cast<ICmpInst>(V)) {
    const Value *a = cmp->getOperand(0), *b = cmp->getOperand(1);
    CmpInst::Predicate p = cmp->getPredicate();
    if (isThreadIdxX(b))
      std::swap(a, b), p = CmpInst::getSwappedPredicate(p);
    if (auto *c = dyn_cast<ConstantInt>(b); c && isThreadIdxX(a) && !c->isNegative()) {
      uint64_t bound = c->getZExtValue();
      switch (p) {
      case CmpInst::ICMP_ULT: case CmpInst::ICMP_UGE: case CmpInst::ICMP_SLT: case CmpInst::ICMP_SGE:
        return bound % 32 == 0; // tid < 32k
      case CmpInst::ICMP_ULE: case CmpInst::ICMP_UGT: case CmpInst::ICMP_SLE: case CmpInst::ICMP_SGT:
        return (bound + 1) % 32 == 0; // tid <= 32k - 1
      default:
        return false;
      }
    }
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !(isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I)))
    return false;
  return all_of(I->operands(), [&](const Value *op) { return laneGroupUniform(op, kernel, depth + 1); });
}

/// Brackets each conditional branch of `F` whose region holds lockstep work with the mask of
/// the lanes at the branch and a __syncwarp of it at the branch's post-dominator (see the top).
void reconvergeDivergentBranches(Function &F, bool kernel, FunctionCallee warp,
                                 const SmallPtrSetImpl<Function *> &withPoints) {
  DominatorTree DT(F);
  PostDominatorTree PDT(F);
  LoopInfo LI(DT);
  // Blocks of loops that wait for another lane: a lane held at a join could be the one such a
  // loop waits for (one lane hands a value on to the next, legal since Volta).
  SmallPtrSet<const BasicBlock *, 16> spinning;
  for (Loop *L : LI.getLoopsInPreorder())
    if (isSpinLoop(*L, LI))
      spinning.insert(L->block_begin(), L->block_end());
  struct Bracket {
    Instruction *maskAt;
    BasicBlock *join;
  };
  SmallVector<Bracket, 8> brackets;
  for (BasicBlock &BB : F) {
    Instruction *T = BB.getTerminator();
    if (T->getNumSuccessors() < 2 || !PDT.getNode(&BB) || !PDT.getNode(&BB)->getIDom())
      continue;
    const Value *condition = nullptr;
    if (auto *br = dyn_cast<BranchInst>(T))
      condition = br->getCondition();
    else if (auto *sw = dyn_cast<SwitchInst>(T))
      condition = sw->getCondition();
    if (!condition || laneGroupUniform(condition, kernel))
      continue; // the lanes of a group go the same way
    BasicBlock *join = PDT.getNode(&BB)->getIDom()->getBlock();
    if (!join)
      continue; // the virtual exit: lanes leave the function on some path
    // The region: what the branch reaches before the join.
    SmallPtrSet<BasicBlock *, 16> seen;
    SmallVector<BasicBlock *, 16> work(successors(&BB).begin(), successors(&BB).end());
    bool lockstep = false, spins = spinning.count(&BB);
    while (!work.empty() && !spins) {
      BasicBlock *R = work.pop_back_val();
      if (R == join || !seen.insert(R).second)
        continue;
      spins = spinning.count(R);
      lockstep = lockstep || any_of(*R, [&](Instruction &I) { return holdsLockstep(I, withPoints); });
      work.append(succ_begin(R), succ_end(R));
    }
    if (!lockstep || spins)
      continue;
    // A branch out of a loop: the lanes that entered the loop, taken before it.
    Instruction *maskAt = T;
    Loop *outermost = nullptr;
    for (Loop *L = LI.getLoopFor(&BB); L && !L->contains(join); L = L->getParentLoop())
      outermost = L;
    if (outermost) {
      BasicBlock *preheader = outermost->getLoopPreheader();
      if (!preheader)
        continue;
      maskAt = preheader->getTerminator();
    }
    // Every lane of the mask must come to the join, and only lanes that took the mask.
    if (!DT.dominates(maskAt->getParent(), join) ||
        !PDT.dominates(join, maskAt->getParent()) || join->isEHPad())
      continue;
    brackets.push_back({maskAt, join});
  }
  LLVMContext &C = F.getContext();
  for (auto [maskAt, join] : brackets) {
    CallInst *lanes = insertLockstepCall(maskAt, warp, sim::abi::WarpConvergeOp,
                                         ConstantInt::get(Type::getInt32Ty(C), ~0u));
    IRBuilder<> b(lanes->getNextNode());
    Value *mask = b.CreateTrunc(lanes, b.getInt32Ty());
    insertLockstepCall(&*join->getFirstInsertionPt(), warp, sim::abi::WarpQuarterSyncOp, mask);
  }
}

} // namespace

bool isLockstepPoint(const Instruction &I) { return I.hasMetadata(LockstepMetadata); }

PreservedAnalyses MarkWarpSynchronousPass::run(Module &M, ModuleAnalysisManager &) {
  SmallPtrSet<Function *, 8> kernels;
  for (Function *K : getKernels(M))
    kernels.insert(K);
  LLVMContext &C = M.getContext();
  Type *i32 = Type::getInt32Ty(C);
  FunctionCallee warp = M.getOrInsertFunction(sim::abi::WarpFn, Type::getInt64Ty(C), i32, i32,
                                              Type::getInt64Ty(C), i32, i32);
  SmallPtrSet<Function *, 8> withPoints;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    const bool kernel = kernels.count(&F);
    MapVector<const Value *, ObjectAccesses> objects;
    for (Instruction &I : instructions(F)) {
      const Value *pointer = nullptr;
      bool store = false;
      if (auto *load = dyn_cast<LoadInst>(&I); load && load->isVolatile())
        pointer = load->getPointerOperand();
      else if (auto *st = dyn_cast<StoreInst>(&I); st && st->isVolatile())
        pointer = st->getPointerOperand(), store = true;
      if (!pointer)
        continue;
      for (const Value *object : sharedObjectsOf(pointer, kernel)) {
        ObjectAccesses &o = objects[object];
        o.accesses.push_back(&I);
        o.addresses.insert(pointer->stripPointerCasts());
        (store ? o.stores : o.loads) = true;
      }
    }
    SmallPtrSet<Instruction *, 16> lockstep;
    for (auto &[object, o] : objects)
      if (o.loads && o.stores && o.addresses.size() >= 2)
        lockstep.insert(o.accesses.begin(), o.accesses.end());
    SmallVector<Instruction *, 16> points;
    for (Instruction &I : instructions(F))
      if (lockstep.count(&I) && !barrierFollows(I, kernel))
        points.push_back(&I);
    for (Instruction *access : points)
      insertConvergencePoint(*access, warp);
    if (!points.empty())
      withPoints.insert(&F);
  }
  // Callers of functions with points hold lockstep work too (a warpReduce helper called under
  // `if (lane < 16)`).
  for (bool grew = !withPoints.empty(); grew;) {
    grew = false;
    for (Function &F : M)
      if (!F.isDeclaration() && !withPoints.count(&F))
        for (Instruction &I : instructions(F))
          if (holdsLockstep(I, withPoints)) {
            grew = withPoints.insert(&F).second;
            break;
          }
  }
  for (Function *F : withPoints)
    reconvergeDivergentBranches(*F, kernels.count(F), warp, withPoints);
  if (withPoints.empty()) {
    if (Function *declared = M.getFunction(sim::abi::WarpFn); declared && declared->use_empty())
      declared->eraseFromParent();
    return PreservedAnalyses::all();
  }
  return PreservedAnalyses::none();
}

} // namespace musa::jit
