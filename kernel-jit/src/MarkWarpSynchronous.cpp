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
// Not covered (tests/corpus/repros/repro_ws_*.mu): lanes that diverge between lockstep
// accesses. A point groups the lanes at its own site, so a lane that skips a guarded step
// (`if (lane >= 16) v[t] += v[t - 16];`) or leaves a loop early goes on to its next access
// instead of waiting where the hardware reconverges (the branch's post-dominator); single-
// address exchanges (a vote through one volatile word) and plain stores read back through a
// volatile pointer get no points.
//
// The points cost nothing in the timing model (InstrumentTiming skips !musa.lockstep calls: the
// GPU issues no instruction for them) and do not hide a spin loop from MarkSpinLoops (a poll of
// a volatile shared flag still yields, and still times out when nothing will ever set it).
#include "musa/jit/DeviceLowering.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
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

void insertConvergencePoint(Instruction &access, FunctionCallee warp) {
  IRBuilder<> b(access.getNextNode());
  Type *i32 = b.getInt32Ty();
  CallInst *point = b.CreateCall(
      warp, {ConstantInt::get(i32, sim::abi::WarpConvergeOp), ConstantInt::get(i32, ~0u),
             b.getInt64(0), ConstantInt::get(i32, 0), ConstantInt::get(i32, 0)});
  point->setMetadata(LockstepMetadata, MDNode::get(access.getContext(), {}));
}

} // namespace

bool isLockstepPoint(const Instruction &I) { return I.hasMetadata(LockstepMetadata); }

PreservedAnalyses MarkWarpSynchronousPass::run(Module &M, ModuleAnalysisManager &) {
  SmallPtrSet<Function *, 8> kernels;
  for (Function *K : getKernels(M))
    kernels.insert(K);
  LLVMContext &C = M.getContext();
  Type *i32 = Type::getInt32Ty(C);
  FunctionCallee warp;
  bool changed = false;
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
    if (!points.empty() && !warp)
      warp = M.getOrInsertFunction(sim::abi::WarpFn, Type::getInt64Ty(C), i32, i32,
                                   Type::getInt64Ty(C), i32, i32);
    for (Instruction *access : points)
      insertConvergencePoint(*access, warp);
    changed |= !points.empty();
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace musa::jit
