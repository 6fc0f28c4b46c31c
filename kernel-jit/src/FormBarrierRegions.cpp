// FormBarrierRegionsPass: kernels with barriers and warp collectives as loops over threads.
//
// A kernel that reaches __syncthreads or a warp collective cannot run as one plain loop over
// the block's threads. Instead of a fiber per thread, this pass cuts the kernel at every
// synchronisation point ("park point") into regions and emits, for each region, a loop that
// runs the region for every thread waiting to enter it:
//
//   __musa_regions_K(ptr args, ptr ctx, ptr frames, ptr resume, i32 region)
//     for z, y, x over the block (t = linear thread index):
//       if resume[t] != region: continue
//       ctx->tid = {x, y, z}
//       <the kernel's code from the region's entry up to the next park point or return>
//       resume[t] = next point | Parked      (or Exited on return; at a plain __syncthreads
//                                             the next region, flagged pending, see below)
//
// The virtual GPU (simdevice/src/RegionExecutor.cpp) calls it once per region that threads
// are ready to enter, resolves the park points between calls (releases a block barrier once
// every live thread is parked at one, completes warp collectives lane group by lane group) and
// marks the released threads ready for the region after their point. Region 0 starts at the
// kernel's entry; region j > 0 starts right after park point j.
//
// What lives across a park point lives in the thread's frame: values defined before it and
// used after it are demoted to stack slots, and every stack slot of the kernel becomes a slice
// of `frames` (structure of arrays: slot i of thread t at frames + offset_i * n + t * size_i,
// n the block's thread count, size_i the slot's natural size). Everything else stays in
// registers, so a region without a barrier inside is an ordinary loop the host optimiser can
// vectorise.
//
// Barriers at `__syncthreads_count/and/or` park with the predicate and fetch the block's result
// when released; warp collectives park with their operands and fetch their lane's result.
// Everything that reaches a park point is inlined into the kernel first. Kernels this cannot
// handle keep running as fibers: recursion or indirect calls that may reach a park point,
// grid.sync(), spin loops (MarkSpinLoops), dynamically sized stack allocations.
#include "musa/jit/DeviceLowering.h"

#include "BlockUniformity.h"
#include "ThreadLoop.h"

#include "musa/sim/KernelAbi.h"
#include "musa/sim/WarpCollective.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace musa::jit {

namespace {

/// Stands for a parked thread's result until the region loop loads it from the park record.
constexpr const char *ParkResultPlaceholder = "__musa_park_result.placeholder";

/// Functions (defined ones included) whose execution may reach a park point or grid.sync().
class SyncReach {
public:
  explicit SyncReach(Module &M) {
    for (Function &F : M)
      if (sim::abi::isParkBuiltin(F.getName()) || F.getName() == sim::abi::GridSyncFn ||
          F.getName() == sim::abi::SpinFn || F.getName() == sim::abi::NamedBarrierFn)
        reaches_.insert(&F);
    // Fixpoint over direct calls; an indirect call counts as reaching (it might).
    for (bool changed = true; changed;) {
      changed = false;
      for (Function &F : M) {
        if (F.isDeclaration() || reaches_.count(&F))
          continue;
        for (Instruction &I : instructions(F)) {
          auto *call = dyn_cast<CallBase>(&I);
          if (!call || call->isInlineAsm())
            continue;
          auto *callee = dyn_cast<Function>(call->getCalledOperand()->stripPointerCasts());
          if (!callee || reaches_.count(callee)) {
            reaches_.insert(&F);
            changed = true;
            break;
          }
        }
      }
    }
  }
  bool reaches(Function *F) const { return !F || reaches_.count(F); }

private:
  SmallPtrSet<Function *, 16> reaches_;
};

struct ParkPoint {
  BasicBlock *before = nullptr; // ends with the branch to `after`
  BasicBlock *after = nullptr;  // the region that starts when the point releases
  uint32_t kind = sim::abi::RegionPointBarrier;
  CallInst *park = nullptr;     // reduction, collective: the builtin call, whose operands the
                                // region loop stores in the thread's park record
  CallInst *result = nullptr;   // at the start of `after`: stands for the record's result
  /// A shuffle whose mask, lane argument and width are block-uniform (see shuffleChains).
  bool uniformShuffle = false;
};

/// Why `F` (a clone of the kernel) cannot become regions, after inlining everything that
/// reaches a park point into it; empty if it can.
std::string inlineSyncCalls(Function &F, const SyncReach &reach) {
  for (unsigned round = 0; round < 32; ++round) {
    SmallVector<CallBase *, 8> calls;
    for (Instruction &I : instructions(F)) {
      auto *call = dyn_cast<CallBase>(&I);
      if (!call || call->isInlineAsm())
        continue;
      auto *callee = dyn_cast<Function>(call->getCalledOperand()->stripPointerCasts());
      if (!callee)
        return "indirect call";
      if (callee->getName() == sim::abi::GridSyncFn)
        return "grid.sync()";
      if (callee->getName() == sim::abi::NamedBarrierFn)
        return "named barrier (bar.sync/bar.arrive with an id or a thread count)";
      if (callee->getName() == sim::abi::SpinFn)
        return "a loop waits for another thread (spin loop)";
      if (!callee->isDeclaration() && reach.reaches(callee)) {
        if (callee == &F)
          return "recursion";
        calls.push_back(call);
      }
    }
    if (calls.empty())
      return {};
    for (CallBase *call : calls) {
      InlineFunctionInfo info;
      if (!InlineFunction(*call, info).isSuccess())
        return "a call that cannot be inlined reaches a barrier";
    }
  }
  return "recursion";
}

/// Promotes what clang left in memory to registers (device code compiled at -O0).
void promoteToRegisters(Function &F) {
  FunctionAnalysisManager FAM;
  PassBuilder PB;
  PB.registerFunctionAnalyses(FAM);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(PromotePass());
  FPM.run(F, FAM);
}

/// Cuts `F` at each park builtin call. A reduction or warp collective stays at the end of the
/// block before the cut (emitRegionLoop turns it into stores to the park record); its uses
/// read `resultFn()`, a placeholder for the record's result, at the start of the next region.
SmallVector<ParkPoint, 8> cutAtParkPoints(Function &F, FunctionCallee resultFn) {
  SmallVector<CallInst *, 8> points;
  for (Instruction &I : instructions(F))
    if (auto *call = dyn_cast<CallInst>(&I))
      if (Function *callee = call->getCalledFunction();
          callee && sim::abi::isParkBuiltin(callee->getName()))
        points.push_back(call);
  SmallVector<ParkPoint, 8> cuts;
  for (CallInst *call : points) {
    StringRef name = call->getCalledFunction()->getName();
    ParkPoint point;
    point.before = call->getParent();
    point.after = SplitBlock(point.before, call->getNextNode(), (DomTreeUpdater *)nullptr,
                             nullptr, nullptr, "region");
    if (name == sim::abi::BarrierFn) {
      call->eraseFromParent();
      cuts.push_back(point);
      continue;
    }
    point.kind = name == sim::abi::WarpFn ? sim::abi::RegionPointWarp
                                          : sim::abi::RegionPointReduce;
    point.park = call;
    IRBuilder<> b(&*point.after->getFirstInsertionPt());
    point.result = b.CreateCall(resultFn);
    call->replaceAllUsesWith(b.CreateZExtOrTrunc(point.result, call->getType()));
    cuts.push_back(point);
  }
  return cuts;
}

/// Whether some path from `def` to `use` passes a park point (enters a region start).
bool crossesParkPoint(Instruction *def, Use &use, const SmallPtrSetImpl<BasicBlock *> &starts) {
  auto *user = cast<Instruction>(use.getUser());
  BasicBlock *defBlock = def->getParent();
  BasicBlock *useBlock = user->getParent();
  if (auto *phi = dyn_cast<PHINode>(user))
    useBlock = phi->getIncomingBlock(use);
  else if (useBlock == defBlock && def->comesBefore(user))
    return false;
  SmallPtrSet<BasicBlock *, 32> seen;
  SmallVector<BasicBlock *, 32> work;
  auto visit = [&](BasicBlock *BB) {
    if (seen.insert(BB).second)
      work.push_back(BB);
  };
  if (useBlock == defBlock) {
    if (isa<PHINode>(user))
      return false; // the incoming edge leaves the defining block after the definition
    for (BasicBlock *pred : predecessors(useBlock))
      visit(pred);
  } else {
    visit(useBlock);
  }
  while (!work.empty()) {
    BasicBlock *BB = work.pop_back_val();
    if (starts.count(BB))
      return true;
    if (BB == defBlock)
      continue;
    for (BasicBlock *pred : predecessors(BB))
      visit(pred);
  }
  return false;
}

/// Demotes every SSA value that is live across a park point to a stack slot.
/// Whether `V` can be recomputed after a park point instead of kept in the frame: built by
/// pure arithmetic, address computation, compares and casts from constants, the kernel's
/// arguments and context fields that do not change while the block runs (threadIdx, blockIdx,
/// the shared-memory base, ...; not the instruction count).
bool rematerializable(Value *V, Argument *ctx, unsigned depth = 0) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || depth > 6)
    return false;
  if (auto *load = dyn_cast<LoadInst>(I)) {
    APInt offset(64, 0);
    const Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(
        I->getModule()->getDataLayout(), offset, true);
    return base == ctx && !load->isVolatile() && offset != sim::abi::IssuedOffset;
  }
  if (!(isa<GetElementPtrInst>(I) || isa<BinaryOperator>(I) || isa<CastInst>(I) ||
        isa<CmpInst>(I) || isa<SelectInst>(I)))
    return false;
  for (Value *op : I->operands())
    if (!rematerializable(op, ctx, depth + 1))
      return false;
  return true;
}

/// A copy of `V`'s expression tree before `at` (rematerializable(V) holds).
Value *rematerialize(Value *V, Instruction *at, DenseMap<Value *, Value *> &copies) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  if (Value *done = copies.lookup(I))
    return done;
  Instruction *copy = I->clone();
  for (Use &op : copy->operands())
    op.set(rematerialize(op.get(), at, copies));
  copy->insertBefore(at);
  copies[I] = copy;
  return copy;
}

/// Keeps a block-uniform value `V` (BlockUniformity) in a stack slot across park points so
/// that the region loop may read it once for the whole block: stored right after its
/// definition as any demoted value, but reloaded only at the start of each region (`reloads`,
/// which emitRegionLoop reads from thread 0 when every thread enters), and those reloads
/// joined with `V` itself in SSA form for the uses that follow a park point.
void demoteUniform(Instruction *V, ArrayRef<Use *> uses, const SmallVector<ParkPoint, 8> &cuts,
                   SmallVectorImpl<LoadInst *> &reloads) {
  Function &F = *V->getFunction();
  IRBuilder<> entry(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *slot = entry.CreateAlloca(V->getType(), nullptr, V->getName() + ".uniform");
  Instruction *after = isa<PHINode>(V) ? &*V->getParent()->getFirstInsertionPt()
                                       : V->getNextNode();
  new StoreInst(V, slot, after);
  SSAUpdater ssa;
  ssa.Initialize(V->getType(), V->getName());
  ssa.AddAvailableValue(V->getParent(), V);
  SmallVector<LoadInst *, 8> mine;
  for (const ParkPoint &p : cuts) {
    if (p.after == V->getParent())
      continue;
    // The region start holds only the park result's load (see splitRegionStarts): the reload
    // is the value at its end.
    auto *reload = new LoadInst(V->getType(), slot, V->getName() + ".reload",
                                p.after->getTerminator());
    mine.push_back(reload);
    ssa.AddAvailableValue(p.after, reload);
  }
  for (Use *U : uses)
    ssa.RewriteUse(*U);
  for (LoadInst *reload : mine) {
    if (reload->use_empty())
      reload->eraseFromParent();
    else
      reloads.push_back(reload);
  }
}

/// Splits each region start after what cutAtParkPoints put there, so that a region's first
/// block ends right after the values it loads (demoteUniform's reloads join it).
void splitRegionStarts(SmallVector<ParkPoint, 8> &cuts) {
  for (ParkPoint &p : cuts) {
    Instruction *at = &*p.after->getFirstInsertionPt();
    if (p.result) {
      at = p.result->getNextNode();
      while (isa<CastInst>(at) && at->getOperand(0) == p.result)
        at = at->getNextNode();
    }
    BasicBlock *body =
        SplitBlock(p.after, at, (DomTreeUpdater *)nullptr, nullptr, nullptr, "region.body");
    for (ParkPoint &q : cuts) // a point right after this one (in the same block) moved along
      if (q.before == p.after)
        q.before = body;
  }
}

/// Makes every SSA value that is live across a park point available after it: recomputed
/// where that is cheap and safe (see rematerializable), else demoted to a stack slot (which
/// becomes the thread's frame); block-uniform values to slots the region loop may read once
/// (`uniformReloads`, see demoteUniform).
void demoteAcrossParkPoints(Function &F, SmallVector<ParkPoint, 8> &cuts,
                            SmallVectorImpl<LoadInst *> &uniformReloads) {
  splitRegionStarts(cuts);
  SmallPtrSet<BasicBlock *, 8> starts, parkBlocks;
  for (const ParkPoint &p : cuts)
    starts.insert(p.after), parkBlocks.insert(p.before);
  Argument *ctx = getContextArg(F);
  BlockUniformity uniformity(F, ctx, parkBlocks);
  for (ParkPoint &p : cuts) {
    if (p.kind != sim::abi::RegionPointWarp)
      continue;
    auto *op = dyn_cast<ConstantInt>(p.park->getArgOperand(0));
    p.uniformShuffle = op && op->getZExtValue() >= sim::WarpShflIdx &&
                       op->getZExtValue() <= sim::WarpShflXor &&
                       uniformity.isUniform(p.park->getArgOperand(1)) && // mask
                       uniformity.isUniform(p.park->getArgOperand(3)) && // lane, delta, xor
                       uniformity.isUniform(p.park->getArgOperand(4));   // width
  }
  MapVector<Instruction *, SmallVector<Use *, 4>> uniform;
  SmallVector<Instruction *, 32> demote;
  SmallVector<std::pair<Instruction *, Use *>, 32> recompute;
  for (Instruction &I : instructions(F)) {
    if (isa<AllocaInst>(I) || I.getType()->isVoidTy())
      continue;
    bool remat = rematerializable(&I, ctx);
    bool keepUniform = !remat && uniformity.isUniform(&I);
    for (Use &U : I.uses()) {
      if (!crossesParkPoint(&I, U, starts))
        continue;
      if (keepUniform) {
        uniform[&I].push_back(&U);
      } else if (!remat) {
        demote.push_back(&I);
        break;
      } else {
        recompute.push_back({&I, &U});
      }
    }
  }
  for (auto &[V, uses] : uniform)
    demoteUniform(V, uses, cuts, uniformReloads);
  for (auto [I, U] : recompute) {
    auto *user = cast<Instruction>(U->getUser());
    Instruction *at = user;
    if (auto *phi = dyn_cast<PHINode>(user))
      at = phi->getIncomingBlock(*U)->getTerminator();
    DenseMap<Value *, Value *> copies;
    U->set(rematerialize(I, at, copies));
  }
  // A demoted PHI stays a PHI whose value is stored right after it; every use reloads.
  for (Instruction *I : demote)
    DemoteRegToStack(*I, false, F.getEntryBlock().getFirstInsertionPt());
}

/// For each region, the region that may follow it in the same call when it ran for every
/// thread (abi::RegionShuffleFn), or 0 for none: the one after park point j when j is the only
/// park point the region can reach and a uniform shuffle. No thread returned then means that
/// every thread waits at j, with the same operands.
SmallVector<unsigned, 8> shuffleChains(Function &F, ArrayRef<ParkPoint> cuts) {
  DenseMap<BasicBlock *, unsigned> pointAt;
  for (unsigned j = 0; j < cuts.size(); ++j)
    pointAt[cuts[j].before] = j;
  SmallVector<unsigned, 8> chains(cuts.size() + 1, 0);
  for (unsigned r = 0; r <= cuts.size(); ++r) {
    SmallPtrSet<BasicBlock *, 32> seen;
    SmallVector<BasicBlock *, 32> work{r == 0 ? &F.getEntryBlock() : cuts[r - 1].after};
    std::optional<unsigned> only;
    bool several = false;
    while (!work.empty() && !several) {
      BasicBlock *BB = work.pop_back_val();
      if (!seen.insert(BB).second)
        continue;
      if (auto it = pointAt.find(BB); it != pointAt.end()) {
        several = only && *only != it->second;
        only = it->second;
        continue; // the point ends the region
      }
      for (BasicBlock *next : successors(BB))
        work.push_back(next);
    }
    if (!several && only && cuts[*only].uniformShuffle)
      chains[r] = *only + 1;
  }
  return chains;
}

/// By-value parameters become pointers to the launch's single copy, shared by all threads:
/// fine while the kernel only reads them.
bool writesByValParameter(Function &F) {
  for (Argument &arg : F.args()) {
    if (!F.hasParamAttribute(arg.getArgNo(), Attribute::ByVal))
      continue;
    SmallVector<Value *, 8> work{&arg};
    while (!work.empty()) {
      Value *v = work.pop_back_val();
      for (User *u : v->users()) {
        if (isa<GetElementPtrInst>(u) || isa<BitCastInst>(u) || isa<AddrSpaceCastInst>(u))
          work.push_back(u);
        else if (auto *load = dyn_cast<LoadInst>(u); load && load->getPointerOperand() == v)
          continue;
        else
          return true;
      }
    }
  }
  return false;
}

/// Everything the region loop needs to know about the kernel body it wraps.
struct RegionBody {
  Function *clone = nullptr;
  SmallVector<ParkPoint, 8> cuts;
  SmallVector<AllocaInst *, 16> slots;
  SmallVector<uint64_t, 16> slotOffsets; // per-thread bytes before the slot
  SmallVector<uint64_t, 16> slotSizes;
  SmallVector<LoadInst *, 8> uniformReloads; // see demoteUniform
  uint64_t frameBytes = 0;
  bool countsInstructions = false; // instrumented: the frame keeps each thread's count
  /// The fully instrumented variant (sampled blocks): each thread counts its basic blocks in
  /// its own row of ctx->blockCounts, `timingBlocks` entries apart.
  bool perThreadBlockCounts = false;
  uint64_t timingBlocks = 0;
  std::string symbol; // the kernel's name, or "full_" + it for the full variant
};

std::string collectSlots(RegionBody &body) {
  const DataLayout &DL = body.clone->getDataLayout();
  for (Instruction &I : instructions(*body.clone)) {
    auto *alloca = dyn_cast<AllocaInst>(&I);
    if (!alloca)
      continue;
    if (!alloca->isStaticAlloca() || alloca->getParent() != &body.clone->getEntryBlock())
      return "dynamically sized stack allocation";
    std::optional<TypeSize> size = alloca->getAllocationSize(DL);
    if (!size || size->isScalable())
      return "dynamically sized stack allocation";
    // Natural size and alignment: a thread's slot follows the previous thread's directly, so
    // a region loop reads and writes a slot with contiguous (vector) accesses. The slice
    // starts at frames + offset * n: an offset that is a multiple of the alignment keeps it
    // aligned (frames is 64-byte aligned).
    uint64_t align = alloca->getAlign().value();
    if (align > 64) // beyond the frame buffer's own alignment
      return "a stack allocation aligned to more than 64 bytes";
    uint64_t bytes = alignTo(std::max<uint64_t>(size->getFixedValue(), 1), align);
    body.frameBytes = alignTo(body.frameBytes, align);
    body.slots.push_back(alloca);
    body.slotOffsets.push_back(body.frameBytes);
    body.slotSizes.push_back(bytes);
    body.frameBytes += bytes;
  }
  if (body.countsInstructions)
    body.frameBytes = alignTo(body.frameBytes, 8) + 8; // the thread's instruction count
  return {};
}

/// Gives each frame slot its own alias scope: slot i of every thread lies in its own slice of
/// the frames, so an access through one slot never touches another, but the optimiser cannot
/// see that from the addresses (the slices start at multiples of the block's thread count).
/// With the scopes it forwards a value stored to one slot to its reload across stores to
/// others. Accesses whose pointer passes through anything but address arithmetic are left
/// without scopes (they may alias anything, as before).
void scopeFrameSlots(ArrayRef<AllocaInst *> slots) {
  constexpr size_t MaxScopedSlots = 64; // each access lists every other slot
  if (slots.size() < 2 || slots.size() > MaxScopedSlots)
    return;
  LLVMContext &C = slots.front()->getContext();
  MDBuilder mdb(C);
  MDNode *domain = mdb.createAnonymousAliasScopeDomain("musa.frame");
  SmallVector<Metadata *, 16> scopes;
  for (size_t i = 0; i < slots.size(); ++i)
    scopes.push_back(mdb.createAnonymousAliasScope(domain, ("slot" + Twine(i)).str()));
  for (size_t i = 0; i < slots.size(); ++i) {
    MDNode *own = MDNode::get(C, {scopes[i]});
    SmallVector<Metadata *, 16> rest(scopes.begin(), scopes.end());
    rest.erase(rest.begin() + i);
    MDNode *others = MDNode::get(C, rest);
    SmallVector<Value *, 8> work{slots[i]};
    SmallPtrSet<Value *, 16> seen;
    while (!work.empty()) {
      Value *pointer = work.pop_back_val();
      if (!seen.insert(pointer).second)
        continue;
      for (User *user : pointer->users()) {
        auto *I = dyn_cast<Instruction>(user);
        if (isa<GetElementPtrInst>(user) || isa<BitCastInst>(user)) {
          work.push_back(user);
          continue;
        }
        if (getLoadStorePointerOperand(user) != pointer)
          continue; // not a load or store through it (a store *of* it, a call)
        I->setMetadata(LLVMContext::MD_alias_scope,
                       MDNode::concatenate(I->getMetadata(LLVMContext::MD_alias_scope), own));
        I->setMetadata(LLVMContext::MD_noalias,
                       MDNode::concatenate(I->getMetadata(LLVMContext::MD_noalias), others));
      }
    }
  }
}

/// Builds __musa_regions_K around the prepared body (see the file comment).
Function *emitRegionLoop(Module &M, Function &K, RegionBody &body) {
  LLVMContext &C = M.getContext();
  Type *ptrTy = PointerType::getUnqual(C), *i32 = Type::getInt32Ty(C), *i64 = Type::getInt64Ty(C);
  auto *type = FunctionType::get(Type::getVoidTy(C), {ptrTy, ptrTy, ptrTy, ptrTy, i32}, false);
  Function *R = Function::Create(type, GlobalValue::InternalLinkage,
                                 "__musa_regions_body_" + K.getName(), M);
  R->addFnAttr(Attribute::NoUnwind);
  for (unsigned i = 1; i < 4; ++i)
    R->addParamAttr(i, Attribute::NoAlias);
  R->addDereferenceableParamAttr(1, sizeof(sim::ThreadContext));
  R->addParamAttr(1, Attribute::getWithAlignment(C, Align(alignof(sim::ThreadContext))));
  Value *args = R->getArg(0), *ctx = R->getArg(1), *frames = R->getArg(2);
  Value *resume = R->getArg(3), *region = R->getArg(4);

  IRBuilder<> b(BasicBlock::Create(C, "entry", R));
  // Kernel arguments are uniform: unpacked once per call.
  Function &F = *body.clone;
  for (unsigned i = 0; i + 1 < F.arg_size(); ++i) {
    Value *slot = b.CreateConstInBoundsGEP1_32(ptrTy, args, i);
    Value *ptr = b.CreateLoad(ptrTy, slot);
    Value *value = F.hasParamAttribute(i, Attribute::ByVal)
                       ? ptr
                       : b.CreateLoad(F.getArg(i)->getType(), ptr);
    F.getArg(i)->replaceAllUsesWith(value);
  }
  getContextArg(F)->replaceAllUsesWith(ctx);
  // for z: for y: for x; t = x + nx * (y + ny * z).
  ThreadLoop loop = ThreadLoop::open(b, ctx);
  Value **extent = loop.extent;
  PHINode **index = loop.index;
  Value *t = loop.linear(b);
  b.SetInsertPoint(&*R->getEntryBlock().getTerminator()->getIterator());
  Value *threads = b.CreateZExt(
      b.CreateMul(extent[0], b.CreateMul(extent[1], extent[2], "", true, true), "", true, true),
      i64);
  // The park records (abi::regionRecordsOffset): one array per operand after the resume
  // entries, the pending flags and the parked flag.
  const uint64_t regions = body.cuts.size() + 1;
  Value *records = b.CreateInBoundsGEP(
      b.getInt8Ty(), resume,
      b.CreateAnd(b.CreateAdd(b.CreateMul(threads, b.getInt64(4)),
                              b.getInt64(4 * (regions + 1) + 7)),
                  b.getInt64(~uint64_t(7))));
  auto recordArray = [&](unsigned array) {
    return b.CreateInBoundsGEP(b.getInt8Ty(), records,
                               b.CreateMul(threads, b.getInt64(array), "", true, true));
  };
  Value *valueArray = recordArray(sim::abi::ParkValueArray);
  Value *resultArray = recordArray(sim::abi::ParkResultArray);
  Value *maskArray = recordArray(sim::abi::ParkMaskArray);
  Value *argArray = recordArray(sim::abi::ParkArgArray);
  Value *widthArray = recordArray(sim::abi::ParkWidthArray);
  Value *opArray = recordArray(sim::abi::ParkOpArray);
  Value *uniformRecords = recordArray(sim::abi::ParkRecordBytes); // abi::ParkUniformBytes each
  Value *events = b.CreateInBoundsGEP(i32, resume, b.CreateAdd(threads, b.getInt64(regions)));
  auto flag = [&](unsigned eventByte) { // some thread parked, or returned
    b.CreateStore(b.getInt8(1), b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), events, eventByte));
  };
  b.SetInsertPoint(cast<Instruction>(t)->getParent());
  BasicBlock *latch = BasicBlock::Create(C, "next.thread", R);
  BasicBlock *run = BasicBlock::Create(C, "run", R);
  Value *resumeSlot = b.CreateInBoundsGEP(i32, resume, t);
  // Called with RegionAllThreads, the loop enters every thread without reading its entry.
  Value *all = b.CreateICmpNE(b.CreateAnd(region, b.getInt32(sim::abi::RegionAllThreads)),
                              b.getInt32(0));
  Value *number = b.CreateAnd(region, b.getInt32(~sim::abi::RegionAllThreads));
  b.CreateCondBr(b.CreateOr(all, b.CreateICmpEQ(b.CreateLoad(i32, resumeSlot), number)), run,
                 latch);

  // Reductions and warp collectives store their operands in the thread's park record; the
  // region after them loads the result the executor put there.
  // A uniform shuffle's operands other than its value go, in a call for every thread (whose
  // threads all arrived from one release, so those operands are the same for all of them), to
  // the point's uniform record: one place instead of four arrays (the executor copies them to
  // the arrays if it resolves the point itself). The address is a select on `all`, which the
  // variants fold.
  for (size_t j = 0; j < body.cuts.size(); ++j) {
    ParkPoint &point = body.cuts[j];
    if (!point.park)
      continue;
    IRBuilder<> pb(point.park);
    auto store = [&](unsigned operand, Value *array, std::optional<unsigned> uniform = {}) {
      Value *v = point.park->getArgOperand(operand);
      Value *at = pb.CreateInBoundsGEP(v->getType(), array, t);
      if (uniform && point.uniformShuffle)
        at = pb.CreateSelect(all,
                             pb.CreateConstInBoundsGEP1_64(
                                 pb.getInt8Ty(), uniformRecords,
                                 j * sim::abi::ParkUniformBytes + *uniform),
                             at);
      pb.CreateStore(v, at);
    };
    store(0, opArray, sim::abi::ParkUniformOp);
    if (point.kind == sim::abi::RegionPointWarp) {
      store(1, maskArray, sim::abi::ParkUniformMask);
      store(2, valueArray);
      store(3, argArray, sim::abi::ParkUniformArg);
      store(4, widthArray, sim::abi::ParkUniformWidth);
    } else {
      store(1, argArray); // the predicate
    }
    point.park->eraseFromParent();
    pb.SetInsertPoint(point.result);
    point.result->replaceAllUsesWith(
        pb.CreateLoad(i64, pb.CreateInBoundsGEP(i64, resultArray, t)));
    point.result->eraseFromParent();
  }
  b.SetInsertPoint(run);
  // threadIdx reads become the loop's indices. Only code that hands the context to a call
  // (builtins, the timing hook, functions left outlined) needs ctx->tid itself; without such
  // calls the loop has no store to a fixed address and the host optimiser can vectorise it.
  bool contextEscapes = false;
  SmallVector<LoadInst *, 16> tidReads;
  for (Instruction &I : instructions(F)) {
    if (auto *call = dyn_cast<CallBase>(&I); call && !isa<IntrinsicInst>(call))
      contextEscapes |= is_contained(call->args(), ctx);
    if (auto *load = dyn_cast<LoadInst>(&I)) {
      APInt offset(64, 0);
      const Value *base = load->getPointerOperand()->stripAndAccumulateConstantOffsets(
          M.getDataLayout(), offset, true);
      if (base == ctx && offset.ult(sim::abi::TidOffset + 12) &&
          offset.getZExtValue() % 4 == 0 && load->getType() == i32)
        tidReads.push_back(load);
    }
  }
  for (LoadInst *load : tidReads) {
    APInt offset(64, 0);
    load->getPointerOperand()->stripAndAccumulateConstantOffsets(M.getDataLayout(), offset, true);
    load->replaceAllUsesWith(index[(offset.getZExtValue() - sim::abi::TidOffset) / 4]);
    load->eraseFromParent();
  }
  if (contextEscapes)
    loop.storeTid(b);
  // A region run for every thread of the block reads a block-uniform value once, before its
  // loop, from thread 0's slot: the reload's branches then no longer depend on the thread.
  IRBuilder<> eb(R->getEntryBlock().getTerminator());
  scopeFrameSlots(body.slots);
  for (size_t i = 0; i < body.slots.size(); ++i) {
    Value *base = eb.CreateInBoundsGEP(
        b.getInt8Ty(), frames,
        eb.CreateMul(threads, b.getInt64(body.slotOffsets[i]), "", true, true));
    Value *slot = b.CreateInBoundsGEP(
        b.getInt8Ty(), base, b.CreateMul(t, b.getInt64(body.slotSizes[i]), "", true, true));
    Value *first = nullptr; // thread 0's value, loaded once if some region reloads the slot
    for (LoadInst *reload : body.uniformReloads) {
      if (reload->getPointerOperand() != body.slots[i])
        continue;
      if (!first)
        first = eb.CreateLoad(reload->getType(), base, reload->getName() + ".first");
      IRBuilder<> rb(reload->getNextNode());
      Value *value = rb.CreateSelect(all, first, reload);
      reload->replaceUsesWithIf(value, [&](Use &U) { return U.getUser() != value; });
    }
    body.slots[i]->replaceAllUsesWith(slot);
    body.slots[i]->eraseFromParent();
  }
  // The thread's executed-instruction count (clock64() reads it) lives in its frame too: the
  // last 8 bytes, zero when the thread starts.
  Value *blockCountsBase = nullptr, *blockCountsField = nullptr;
  if (body.perThreadBlockCounts) {
    IRBuilder<> entry(&*R->getEntryBlock().getTerminator()->getIterator());
    Value *field =
        entry.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::BlockCountsOffset);
    Value *base = entry.CreateLoad(ptrTy, field);
    b.CreateStore(b.CreateInBoundsGEP(i32, base, b.CreateMul(t, b.getInt64(body.timingBlocks))),
                  field);
    blockCountsBase = base, blockCountsField = field;
  }
  Value *issuedSlot = nullptr, *issuedField = nullptr;
  if (body.countsInstructions) {
    issuedSlot = b.CreateInBoundsGEP(
        b.getInt8Ty(), frames,
        b.CreateAdd(b.CreateMul(threads, b.getInt64(body.frameBytes - 8)),
                    b.CreateMul(t, b.getInt64(8))));
    issuedField = b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::IssuedOffset);
    b.CreateStore(b.CreateSelect(b.CreateICmpEQ(region, b.getInt32(0)), b.getInt64(0),
                                 b.CreateLoad(i64, issuedSlot)),
                  issuedField);
  }
  // Park points and returns become stores of the thread's next state and a jump to the latch.
  for (size_t j = 0; j < body.cuts.size(); ++j) {
    Instruction *branch = body.cuts[j].before->getTerminator();
    b.SetInsertPoint(branch);
    if (issuedSlot)
      b.CreateStore(b.CreateLoad(i64, issuedField), issuedSlot);
    if (body.cuts[j].kind == sim::abi::RegionPointBarrier) {
      // Optimistically released: the thread waits for region j+1 and flags it pending (the
      // flags follow the threads' entries in `resume`). If the pass ends with some thread at
      // a warp collective or a block reduction, the executor parks these again.
      b.CreateStore(b.getInt32(uint32_t(j + 1)), resumeSlot);
      b.CreateStore(b.getInt32(1),
                    b.CreateInBoundsGEP(i32, resume, b.CreateAdd(threads, b.getInt64(j + 1))));
    } else {
      b.CreateStore(b.getInt32(uint32_t(j + 1) | sim::abi::RegionParked), resumeSlot);
      flag(sim::abi::RegionParkedByte);
    }
    b.CreateBr(latch);
    branch->eraseFromParent();
  }
  SmallVector<ReturnInst *, 4> returns;
  for (BasicBlock &BB : F)
    if (auto *ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      returns.push_back(ret);
  for (ReturnInst *ret : returns) {
    b.SetInsertPoint(ret);
    b.CreateStore(b.getInt32(sim::abi::RegionExited), resumeSlot);
    flag(sim::abi::RegionExitedByte);
    b.CreateBr(latch);
    ret->eraseFromParent();
  }
  // The dispatch: region 0 is the kernel's entry, region j the block after park point j.
  BasicBlock *kernelEntry = &F.getEntryBlock();
  b.SetInsertPoint(run);
  SwitchInst *dispatch = b.CreateSwitch(number, latch, unsigned(body.cuts.size() + 1));
  dispatch->addCase(b.getInt32(0), kernelEntry);
  for (size_t j = 0; j < body.cuts.size(); ++j)
    dispatch->addCase(b.getInt32(uint32_t(j + 1)), body.cuts[j].after);
  // Lifetime markers on what are now frame slices say nothing useful.
  SmallVector<Instruction *, 8> lifetimes;
  for (Instruction &I : instructions(F))
    if (I.isLifetimeStartOrEnd())
      lifetimes.push_back(&I);
  for (Instruction *I : lifetimes)
    I->eraseFromParent();
  R->splice(latch->getIterator(), &F);

  b.SetInsertPoint(latch);
  loop.close(b);
  if (blockCountsBase) // the next call starts from thread 0's row again
    b.CreateStore(blockCountsBase, blockCountsField);
  b.CreateRetVoid();
  localizeCounters(*R, ctx, K);
  return R;
}

/// __musa_regions_K(args, ctx, frames, resume, region): one specialised loop per region (the
/// optimiser drops the code each cannot reach), selected by a switch; and one more per region
/// for calls that carry abi::RegionAllThreads (no resume test: the loop may vectorise). After
/// such a call, a region with a chain (shuffleChains) asks abi::RegionShuffleFn to complete
/// the shuffle it ended at and then runs the next region for every thread in the same call.
void emitRegionEntry(Module &M, const std::string &symbol, Function &body,
                     ArrayRef<unsigned> chains) {
  LLVMContext &C = M.getContext();
  const unsigned regions = chains.size();
  Function *entry = Function::Create(body.getFunctionType(), GlobalValue::ExternalLinkage,
                                     RegionsPrefix + symbol, M);
  entry->addFnAttr(Attribute::NoUnwind);
  IRBuilder<> b(BasicBlock::Create(C, "entry", entry));
  BasicBlock *done = BasicBlock::Create(C, "done", entry);
  SwitchInst *dispatch = b.CreateSwitch(entry->getArg(4), done, 2 * regions);
  SmallVector<BasicBlock *, 16> calls;
  for (unsigned variant = 0; variant < 2 * regions; ++variant)
    calls.push_back(BasicBlock::Create(C, "region" + Twine(variant), entry, done));
  Type *i32 = b.getInt32Ty();
  FunctionCallee shuffle = M.getOrInsertFunction(
      sim::abi::RegionShuffleFn,
      FunctionType::get(i32, {b.getPtrTy(), b.getPtrTy(), i32, i32}, false));
  for (unsigned variant = 0; variant < 2 * regions; ++variant) {
    unsigned r = variant % regions;
    uint32_t value = variant < regions ? r : r | sim::abi::RegionAllThreads;
    ValueToValueMapTy map;
    map[body.getArg(4)] = b.getInt32(value);
    Function *specialised = CloneFunction(&body, map);
    specialised->setName(body.getName() + (variant < regions ? "." : ".all.") + Twine(r));
    dispatch->addCase(b.getInt32(value), calls[variant]);
    IRBuilder<> cb(calls[variant]);
    cb.CreateCall(specialised, {entry->getArg(0), entry->getArg(1), entry->getArg(2),
                                entry->getArg(3)});
    if (variant < regions || !chains[r]) {
      cb.CreateBr(done);
      continue;
    }
    Value *completed = cb.CreateCall(shuffle, {entry->getArg(1), entry->getArg(3),
                                               cb.getInt32(regions), cb.getInt32(chains[r] - 1)});
    cb.CreateCondBr(cb.CreateICmpNE(completed, cb.getInt32(0)), calls[regions + chains[r]],
                    done);
  }
  b.SetInsertPoint(done);
  b.CreateRetVoid();
}

/// { i32 frameBytesPerThread, i32 parkPoints, [parkPoints x i32] abi::RegionPoint }, present
/// only for kernels with regions.
void emitRegionFacts(Module &M, const RegionBody &body) {
  LLVMContext &C = M.getContext();
  auto *i32 = Type::getInt32Ty(C);
  SmallVector<Constant *, 8> kinds;
  for (const ParkPoint &point : body.cuts)
    kinds.push_back(ConstantInt::get(
        i32, point.kind | (point.uniformShuffle ? sim::abi::RegionPointUniform : 0)));
  auto *kindsType = ArrayType::get(i32, kinds.size());
  StructType *type = regionFactsType(C, kinds.size());
  new GlobalVariable(M, type, true, GlobalValue::ExternalLinkage,
                     ConstantStruct::get(type, {ConstantInt::get(i32, body.frameBytes),
                                                ConstantInt::get(i32, body.cuts.size()),
                                                ConstantArray::get(kindsType, kinds)}),
                     RegionFactsPrefix + body.symbol);
}

/// Forms the regions of one kernel; returns why it cannot (the kernel then runs as fibers).
std::string formRegions(Module &M, Function &K, const SyncReach &reach, std::string symbol,
                        bool fullVariant) {
  Type *i64 = Type::getInt64Ty(M.getContext());
  ValueToValueMapTy map;
  RegionBody body;
  body.symbol = std::move(symbol);
  body.countsInstructions = M.getNamedGlobal(TimingSitesSymbol) && readsThreadClock(M);
  if (fullVariant) {
    GlobalVariable *table = M.getNamedGlobal(TimingBlocksSymbol);
    if (!table)
      return "no timing tables";
    body.perThreadBlockCounts = true;
    body.timingBlocks =
        cast<ConstantInt>(table->getInitializer()->getAggregateElement(0u))->getZExtValue();
  }
  body.clone = CloneFunction(&K, map);
  Function &F = *body.clone;
  std::string why = inlineSyncCalls(F, reach);
  if (why.empty()) {
    promoteToRegisters(F);
    FunctionCallee result =
        M.getOrInsertFunction(ParkResultPlaceholder, FunctionType::get(i64, false));
    body.cuts = cutAtParkPoints(F, result);
    if (body.cuts.size() >= sim::abi::RegionExited - 1)
      why = "too many park points";
  }
  if (why.empty() && writesByValParameter(F))
    why = "a by-value parameter is written";
  if (why.empty()) {
    demoteAcrossParkPoints(F, body.cuts, body.uniformReloads);
    why = collectSlots(body);
  }
  if (!why.empty()) {
    F.eraseFromParent();
    return why;
  }
  SmallVector<unsigned, 8> chains = shuffleChains(F, body.cuts);
  Function *R = emitRegionLoop(M, K, body);
  F.eraseFromParent();
  emitRegionEntry(M, body.symbol, *R, chains);
  R->eraseFromParent();
  emitRegionFacts(M, body);
  return {};
}

} // namespace

StructType *regionFactsType(LLVMContext &C, unsigned points) {
  auto *i32 = Type::getInt32Ty(C);
  return StructType::get(C, {i32, i32, ArrayType::get(i32, points)});
}

PreservedAnalyses FormBarrierRegionsPass::run(Module &M, ModuleAnalysisManager &) {
  SyncReach reach(M);
  for (Function *K : getKernels(M)) {
    if (!reach.reaches(K))
      continue; // a plain loop runs it
    std::string why = formRegions(M, *K, reach, K->getName().str(), false);
    if (!why.empty()) {
      Constant *text = ConstantDataArray::getString(M.getContext(), why);
      new GlobalVariable(M, text->getType(), true, GlobalValue::ExternalLinkage, text,
                         FibersBecausePrefix + K->getName());
      continue;
    }
    // The timing model's sampled blocks run the fully instrumented variant: as regions too
    // where it allows (they run as fibers otherwise).
    if (Function *full = M.getFunction((K->getName() + FullVariantSuffix).str()))
      (void)formRegions(M, *full, reach, FullRegionsSymbolPrefix + K->getName().str(), true);
  }
  if (Function *placeholder = M.getFunction(ParkResultPlaceholder); placeholder &&
      placeholder->use_empty())
    placeholder->eraseFromParent();
  return PreservedAnalyses::none();
}

} // namespace musa::jit
