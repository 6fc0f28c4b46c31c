// InstrumentTimingPass: the counters the timing model turns into cycles.
//
// Runs on lowered device functions (after LowerDeviceCallsPass, so builtins have their final
// names and every device function has its context argument). For each basic block it adds,
// at the block's start, the block's static instruction counts per class to the block-level
// counter array `ctx->counters[class]` and the block's instruction total to `ctx->issued`.
// Every load, store and atomic whose address is not the thread's own stack gets a call
//   __musa_sim_mem(address, info, site, ctx)
// in front of it: the virtual GPU classifies the address (shared or global) at run time and
// samples lanes' addresses to coalesce them into sectors and to find bank conflicts. `site`
// numbers the access instructions of the module; `__musa_timing_sites` holds their count.
//
// The counts are of device IR (before host optimisation), the closest thing to the GPU's
// instruction stream the simulator has. The classification is deliberately coarse; the table
// in simdevice/TIMING.md says what each class holds.
#include "Accesses.h"
#include "BlockUniformity.h"
#include "LoadWaits.h"
#include "LoopOverlap.h"
#include "MathCosts.h"
#include "WarpMatrix.h"
#include "musa/jit/DeviceLowering.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <array>

using namespace llvm;

namespace musa::jit {

namespace {

/// A contractable multiply with one use: it may fuse into an add.
bool fusableMul(const Value *V) {
  auto *I = dyn_cast<Instruction>(V);
  return I && I->getOpcode() == Instruction::FMul && I->hasAllowContract() && I->hasOneUse();
}

/// A contractable multiply whose only use is a contractable add: one fma, counted at the add.
bool fusedIntoAdd(Instruction &I) {
  if (!fusableMul(&I))
    return false;
  auto *user = dyn_cast<Instruction>(*I.user_begin());
  if (!user || !(user->getOpcode() == Instruction::FAdd ||
                 user->getOpcode() == Instruction::FSub) || !user->hasAllowContract())
    return false;
  // An add takes one product into its FMA: of a*x + b*y the first product fuses, the
  // second stays an FMUL (nvcc: FMUL then FFMA).
  return user->getOperand(0) == &I || !fusableMul(user->getOperand(0));
}

/// A byte dot product as the headers write __dp4a (and __dp2a): the sum of a product of two
/// extended <4 x i8> (or <2 x i16>) vectors. GPUs run it, with the add of its accumulator,
/// as one IDP4A on the multiply-add pipe: the multiply counts as that instruction, the sum
/// and the add nothing.
bool isDotProductSum(const Value *V) {
  auto *sum = dyn_cast<IntrinsicInst>(V);
  if (!sum || sum->getIntrinsicID() != Intrinsic::vector_reduce_add)
    return false;
  auto *mul = dyn_cast<BinaryOperator>(sum->getArgOperand(0));
  if (!mul || mul->getOpcode() != Instruction::Mul || !mul->hasOneUse())
    return false;
  return all_of(mul->operands(), [](const Value *op) {
    auto *ext = dyn_cast<CastInst>(op);
    if (!ext || !(isa<SExtInst>(ext) || isa<ZExtInst>(ext)))
      return false;
    auto *from = dyn_cast<FixedVectorType>(ext->getSrcTy());
    return from && from->getScalarSizeInBits() * from->getNumElements() <= 32;
  });
}

bool isHalfType(Type *T) { return T->getScalarType()->isHalfTy() || T->getScalarType()->isBFloatTy(); }

bool isHalfArithmeticOpcode(const Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::FAdd: case Instruction::FSub: case Instruction::FMul:
  case Instruction::FNeg:
    return true;
  default:
    if (auto *intrinsic = dyn_cast<IntrinsicInst>(&I))
      switch (intrinsic->getIntrinsicID()) {
      case Intrinsic::fma: case Intrinsic::fmuladd: case Intrinsic::fabs:
      case Intrinsic::minnum: case Intrinsic::maxnum:
        return true;
      default:
        break;
      }
    return false;
  }
}

/// Half-precision arithmetic as the device headers write it: operands widened from half (or
/// bfloat16), one operation in float or double, the result narrowed back. The GPU does that
/// as one half instruction on half registers, so the widenings and narrowings are free and
/// the operation counts once (HalfOps::operations). Found as a fixed point: an arithmetic
/// instruction stays a half operation while each operand is a constant, a widening from half
/// or another half operation, and each use is a narrowing to half or another half operation.
struct HalfOps {
  SmallPtrSet<const Instruction *, 16> operations, conversions; // conversions: free
  bool empty() const { return operations.empty(); }
};

bool isWidenedHalf(const Value *V) {
  while (auto *ext = dyn_cast<FPExtInst>(V)) {
    if (isHalfType(ext->getSrcTy()))
      return true;
    V = ext->getOperand(0);
  }
  return false;
}

bool narrowsToHalf(const Instruction *I) {
  auto *trunc = dyn_cast<FPTruncInst>(I);
  if (!trunc)
    return false;
  if (isHalfType(trunc->getDestTy()))
    return true;
  return !trunc->user_empty() && all_of(trunc->users(), [](const User *U) {
    return isa<Instruction>(U) && narrowsToHalf(cast<Instruction>(U));
  });
}

HalfOps findHalfOps(Function &F) {
  HalfOps h;
  for (Instruction &I : instructions(F))
    if (isHalfArithmeticOpcode(I) && !isHalfType(I.getType()) && I.getType()->isFloatingPointTy())
      h.operations.insert(&I);
  if (h.empty())
    return h;
  for (bool changed = true; changed;) {
    SmallVector<const Instruction *, 8> dropped;
    for (const Instruction *I : h.operations) {
      bool operandsOk = all_of(I->operands(), [&](const Value *V) {
        if (!V->getType()->isFloatingPointTy())
          return true; // a call's callee
        auto *op = dyn_cast<Instruction>(V);
        return isa<ConstantFP>(V) || isWidenedHalf(V) || (op && h.operations.count(op));
      });
      bool usesOk = !I->user_empty() && all_of(I->users(), [&](const User *U) {
        auto *user = dyn_cast<Instruction>(U);
        return user && (narrowsToHalf(user) || h.operations.count(user));
      });
      if (!operandsOk || !usesOk)
        dropped.push_back(I);
    }
    for (const Instruction *I : dropped)
      h.operations.erase(I);
    changed = !dropped.empty();
  }
  for (const Instruction *I : h.operations)
    for (const Value *V : I->operands())
      for (auto *ext = dyn_cast<FPExtInst>(V); ext; ext = dyn_cast<FPExtInst>(ext->getOperand(0)))
        if (all_of(ext->users(), [&](const User *U) {
              auto *user = dyn_cast<Instruction>(U);
              return user && (h.operations.count(user) || h.conversions.count(user) ||
                              isa<FPExtInst>(user));
            }))
          h.conversions.insert(ext);
  for (const Instruction *I : h.operations)
    for (const User *U : I->users())
      for (auto *trunc = dyn_cast<FPTruncInst>(U); trunc;
           trunc = trunc->hasOneUse() ? dyn_cast<FPTruncInst>(*trunc->user_begin()) : nullptr)
        h.conversions.insert(trunc);
  return h;
}

/// Adds the cost of one instruction to `c` (memory accesses excepted).
void classify(Instruction &I, Counts &c) {
  using namespace sim::abi;
  if (isa<PHINode>(I) || isa<AllocaInst>(I) || isa<BitCastInst>(I) ||
      isa<AddrSpaceCastInst>(I) || isa<PtrToIntInst>(I) || isa<IntToPtrInst>(I) ||
      isa<ExtractValueInst>(I) || isa<InsertValueInst>(I) || isa<FreezeInst>(I) ||
      isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<TruncInst>(I) || // folded into addressing
      fusedIntoAdd(I) || isDotProductSum(&I) ||
      (I.getOpcode() == Instruction::Add &&
       (isDotProductSum(I.getOperand(0)) || isDotProductSum(I.getOperand(1)))) ||
      isa<ReturnInst>(I) || isa<UnreachableInst>(I) || I.isDebugOrPseudoInst() ||
      I.isLifetimeStartOrEnd() || isa<LoadInst>(I) || isa<StoreInst>(I) ||
      isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I) || isa<FenceInst>(I))
    return;
  if (auto *br = dyn_cast<BranchInst>(&I)) {
    c[ClassBranch] += br->isConditional();
    return;
  }
  if (isa<SwitchInst>(I)) {
    ++c[ClassBranch];
    return;
  }
  if (auto *gep = dyn_cast<GetElementPtrInst>(&I)) {
    c[ClassInt] += !gep->hasAllConstantIndices();
    return;
  }
  if (auto *call = dyn_cast<CallBase>(&I)) {
    Function *F = call->getCalledFunction();
    StringRef name = F ? F->getName() : "";
    if (name == BarrierFn || name == BarrierReduceFn || name == GridSyncFn ||
        name == NamedBarrierFn)
      ++c[ClassBarrier];
    else if (unsigned steps = name == WarpFn ? tensorSteps(*call) : 0)
      c[ClassTensor] += steps;
    else if (name == WarpFn && isWarpMatrixStepSync(*call))
      return; // a wmma load or store's own step: no instruction on the GPU
    else if ((name == WarpFn && !isLockstepPoint(*call)) || name == ActiveMaskFn)
      ++c[ClassWarp];
    else if (auto *intrinsic = dyn_cast<IntrinsicInst>(call)) {
      switch (intrinsic->getIntrinsicID()) {
      case Intrinsic::sqrt: case Intrinsic::sin: case Intrinsic::cos: case Intrinsic::exp:
      case Intrinsic::exp2: case Intrinsic::log: case Intrinsic::log2: case Intrinsic::log10:
      case Intrinsic::pow: case Intrinsic::powi: {
        if (isSqrtOfRsqrt(*call))
          break; // counted on its division
        StringRef base = Intrinsic::getBaseName(intrinsic->getIntrinsicID());
        base.consume_front("llvm.");
        addMath(c, base == "powi" ? "pow" : base, *call);
        break;
      }
      case Intrinsic::fma: case Intrinsic::fmuladd: case Intrinsic::fabs:
      case Intrinsic::minnum: case Intrinsic::maxnum: case Intrinsic::copysign:
      case Intrinsic::floor: case Intrinsic::ceil: case Intrinsic::trunc:
      case Intrinsic::rint: case Intrinsic::nearbyint: case Intrinsic::round:
        ++c[floatClass(call->getType())];
        break;
      // Bit counting and reversal run on the XU pipe (math_pipes.h200.txt: __popc and __brev
      // one XU instruction, __clz one and an ALU one, __ffs, a reversal and a count, two).
      case Intrinsic::ctpop: case Intrinsic::bitreverse:
        ++c[ClassSpecial];
        break;
      case Intrinsic::ctlz:
        ++c[ClassSpecial], ++c[ClassInt];
        break;
      case Intrinsic::cttz:
        c[ClassSpecial] += 2;
        break;
      case Intrinsic::memcpy: case Intrinsic::memmove: case Intrinsic::memset:
      case Intrinsic::assume: case Intrinsic::experimental_noalias_scope_decl:
        break;
      default:
        ++c[ClassInt];
        break;
      }
    } else if (F && isMathLibraryName(name)) {
      StringRef base = name;
      base.consume_front("__");
      base.consume_back("f");
      addMath(c, base, *call);
    } else {
      ++c[ClassBranch]; // a call (device function or other builtin)
    }
    return;
  }
  switch (I.getOpcode()) {
  case Instruction::FPToSI: case Instruction::FPToUI:
    // F2I runs on the XU pipe beside MUFU (math_pipes.h200.txt: float(int(x * 3.7f)) is an
    // FMUL, an F2I and an I2FP).
    if (floatClass(I.getOperand(0)->getType()) == ClassFp32) {
      ++c[ClassSpecial];
      return;
    }
    ++c[ClassFp64];
    return;
  case Instruction::SIToFP: case Instruction::UIToFP:
  case Instruction::FAdd: case Instruction::FSub: case Instruction::FMul:
  case Instruction::FNeg: case Instruction::FCmp: case Instruction::FPExt:
  case Instruction::FPTrunc:
    ++c[floatClass(I.getType()->isFloatingPointTy() || !I.getNumOperands()
                       ? I.getType()
                       : I.getOperand(0)->getType())];
    return;
  case Instruction::FDiv: case Instruction::FRem:
    addFloatDivision(c, I);
    return;
  case Instruction::UDiv: case Instruction::SDiv: case Instruction::URem:
  case Instruction::SRem:
    addIntegerDivision(c, I);
    return;
  case Instruction::Mul:
    // The integer multiply-add pipe (IMAD), beside the integer ALU. A 64-bit multiply is a
    // wide 32-bit multiply and two cross products: about four IMAD slots (the H200 runs a
    // 64-bit multiply-add in 8.6 cycles per warp and scheduler, 2 per 32-bit IMAD;
    // tests/hardware/probes/request_rates.h200.txt).
    c[ClassIntMul] += I.getType()->getScalarSizeInBits() > 32 ? 4 : 1;
    return;
  case Instruction::Shl:
    // A shift left by a constant is a multiply by a power of two: GPU compilers issue it on
    // the IMAD pipe (IMAD.SHL), leaving the ALU to the rest (xorshift: two of its three
    // shifts, request_rates.h200.txt's SASS).
    if (isa<Constant>(I.getOperand(1)) && I.getType()->getScalarSizeInBits() <= 32) {
      ++c[ClassIntMul];
      return;
    }
    [[fallthrough]];
  case Instruction::And:
    if (isMaskedRemainder(I)) { // as an unsigned remainder by a divisor that changes
      addVariableDivision(c, false);
      return;
    }
    [[fallthrough]];
  case Instruction::LShr: case Instruction::AShr:
  case Instruction::Or: case Instruction::Xor:
    // The ALU is 32 bits wide: 64-bit logic and shifts take one instruction per half.
    c[ClassInt] += I.getType()->getScalarSizeInBits() > 32 ? 2 : 1;
    return;
  default:
    if (I.getType()->isFPOrFPVectorTy())
      ++c[floatClass(I.getType())];
    else
      ++c[ClassInt];
    return;
  }
}

} // namespace

/// Whether the GPU compiler makes one atomic per warp of `rmw` (see AccessCombinedAtomic): an
/// integer add or sub, or a reduction (and, or, xor, min, max) whose result is unused, at an
/// address every lane computes alike.
static bool combinedPerWarp(const AtomicRMWInst &rmw) {
  bool reduction = false;
  switch (rmw.getOperation()) {
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub: break;
  case AtomicRMWInst::And:
  case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor:
  case AtomicRMWInst::Min:
  case AtomicRMWInst::Max:
  case AtomicRMWInst::UMin:
  case AtomicRMWInst::UMax: reduction = true; break;
  default: return false;
  }
  const Argument *ctx = getContextArg(*const_cast<Function *>(rmw.getFunction()));
  return (!reduction || rmw.use_empty()) && ctx &&
         computedAlike(rmw.getPointerOperand(), ctx);
}

Value *accessPointer(Instruction &I, uint32_t &info, const DataLayout &DL) {
  Type *T = nullptr;
  Value *ptr = nullptr;
  info = 0;
  if (auto *load = dyn_cast<LoadInst>(&I)) {
    ptr = load->getPointerOperand(), T = load->getType();
  } else if (auto *store = dyn_cast<StoreInst>(&I)) {
    ptr = store->getPointerOperand(), T = store->getValueOperand()->getType();
    info |= sim::abi::AccessStore;
  } else if (auto *rmw = dyn_cast<AtomicRMWInst>(&I)) {
    ptr = rmw->getPointerOperand(), T = rmw->getValOperand()->getType();
    info |= sim::abi::AccessAtomic;
    if (rmw->isFloatingPointOperation())
      info |= sim::abi::AccessFloatAtomic;
    else if (combinedPerWarp(*rmw))
      info |= sim::abi::AccessCombinedAtomic;
  } else if (auto *cas = dyn_cast<AtomicCmpXchgInst>(&I)) {
    ptr = cas->getPointerOperand(), T = cas->getCompareOperand()->getType();
    info |= sim::abi::AccessAtomic;
    BasicBlock *BB = cas->getParent();
    for (BasicBlock *next : successors(BB))
      if (isPotentiallyReachable(next, BB)) {
        info |= sim::abi::AccessRetry; // it can run again: a retry loop
        break;
      }
  } else {
    return nullptr;
  }
  const Value *object = getUnderlyingObject(ptr, 12);
  if (auto *A = dyn_cast<AllocaInst>(object); A && isWarpMatrixRegister(*A))
    return nullptr; // a wmma fragment: registers on a GPU
  if (isa<AllocaInst>(object)) {
    // The thread's own stack frame: what survives of it after optimisation (arrays indexed
    // at run time, objects whose address escapes) is local memory on a GPU.
    if (!getContextArg(*const_cast<Function *>(I.getFunction())))
      return nullptr;
    info |= sim::abi::AccessLocal;
  }
  if (auto *arg = dyn_cast<Argument>(object); arg && arg->hasByValAttr())
    return nullptr; // a kernel parameter passed by value: an operand from the constant bank
  if (auto *g = dyn_cast<GlobalVariable>(object);
      g && g->hasMetadata("musa.constant") && !isa<StoreInst>(I) && !(info & sim::abi::AccessAtomic))
    info |= sim::abi::AccessConstant; // a load from a __constant__ variable (RetargetToHost)
  if (auto *arg = dyn_cast<Argument>(object); arg && arg == getContextArg(*const_cast<Function *>(arg->getParent())))
    return nullptr; // a special register (threadIdx, ...) lowered to a context field
  uint64_t size = DL.getTypeStoreSize(T);
  info |= uint32_t(std::min<uint64_t>(size, 0xffff));
  return ptr;
}

namespace {

/// What both variants of a basic block share: its counts per class and its accesses.
struct BlockPlan {
  Counts counts{};
  SmallVector<std::pair<Instruction *, uint32_t>, 8> accesses; // instruction, info
  unsigned total = 0;
  unsigned chain = 0;       // dependent-chain steps (abi::ChainColumn)
  bool countsIssued = true; // the thread's own count too (see readsThreadClock)
};


/// Dependent-chain steps (of dependent_issue_cycles, 4 cycles) of the instructions whose
/// results take longer than an ALU's: special functions (an SFU op and its refinement, about
/// 16 cycles), fp64 arithmetic (about 8) and shared-memory loads (about 30), as Hopper
/// microbenchmarks report them. Estimates, not fitted.
constexpr unsigned SpecialSteps = 4, Fp64Steps = 2, SharedLoadSteps = 7;
/// A tensor step's result waits about 16 cycles (placeholder until the probe).
constexpr unsigned TensorSteps = 4;

/// Dependent-chain steps a memory fence holds a warp for, by scope: a warp's __threadfence()
/// waits about 630 cycles (its stores and loads acknowledged by L2), __threadfence_system()
/// about 1240, __threadfence_block() about 8 (one warp on an H100, whose SMs and L2 are the
/// H200's; tests/hardware/session23/fence_cost.h100.txt). Everything after the fence waits.
unsigned fenceSteps(const FenceInst &fence) {
  switch (fenceScopeOf(fence)) {
  case FenceScope::Block:
    return 2;
  case FenceScope::System:
    return 310;
  case FenceScope::Gpu:
    break;
  }
  return 158;
}

BlockPlan planBlock(BasicBlock &BB, const HalfOps &half, unsigned iterationsInFlight) {
  const DataLayout &DL = BB.getModule()->getDataLayout();
  Argument *ctx = getContextArg(*BB.getParent());
  BlockPlan plan;
  unsigned halfOperations = 0;
  // An instruction's steps: the most counted instructions on one def-use path to it within
  // the block, itself included (the dependent chain a warp waits through).
  DenseMap<const Instruction *, unsigned> steps;
  unsigned longestPath = 0;
  unsigned fenced = 0; // the steps at which the last fence let the warp go on
  for (Instruction &I : BB) {
    if (auto *fence = dyn_cast<FenceInst>(&I)) {
      fenced = longestPath = std::max(longestPath, fenced) + fenceSteps(*fence);
      continue;
    }
    unsigned s = fenced;
    for (const Value *V : I.operands())
      if (auto *op = dyn_cast<Instruction>(V); op && op->getParent() == &BB)
        s = std::max(s, steps.lookup(op));
    Counts counted = plan.counts;
    unsigned halfBefore = halfOperations, own = 0; // own: this instruction's steps
    uint32_t info = 0;
    if (Value *ptr = accessPointer(I, info, DL)) {
      plan.accesses.push_back({&I, info});
      bool load = !(info & (sim::abi::AccessStore | sim::abi::AccessAtomic));
      // A shared-memory load's result arrives after about 30 cycles; a global load's wait is
      // the model's load latency (not counted here).
      own = load && ctx && isSharedPointer(ptr, ctx) ? SharedLoadSteps : 1;
    } else if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
      // A special-register read or a stack access; a wmma fragment's element is a register.
      auto *A = dyn_cast<AllocaInst>(getUnderlyingObject(getLoadStorePointerOperand(&I), 12));
      plan.counts[sim::abi::ClassInt] += !A || !isWarpMatrixRegister(*A);
    } else if (half.operations.count(&I)) {
      halfOperations += !fusedIntoAdd(I);
    } else if (!half.conversions.count(&I)) {
      classify(I, plan.counts);
    }
    own += halfOperations - halfBefore;
    for (unsigned c = 0; c < sim::abi::ClassCount; ++c)
      own += (plan.counts[c] - counted[c]) * (c == sim::abi::ClassSpecial  ? SpecialSteps
                                              : c == sim::abi::ClassFp64   ? Fp64Steps
                                              : c == sim::abi::ClassTensor ? TensorSteps
                                                                            : 1);
    if (s + own) {
      steps[&I] = s + own;
      longestPath = std::max(longestPath, s + own);
    }
  }
  // Half operations pair up as one two-lane instruction (HFMA2, HADD2): the way __half2 code
  // compiles, and what the lanes of a vectorised half loop become.
  plan.counts[sim::abi::ClassFp32] += (halfOperations + 1) / 2;
  // The loads that share one wait (a predicated block's may all share its predecessor's).
  const LoadWaits w = loadWaits(BB);
  unsigned parallel = w.waits ? (w.loads * iterationsInFlight + w.waits / 2) / w.waits
                      : w.loads ? 255 : 0;
  uint32_t group = std::clamp(parallel, 1u, 255u) << sim::abi::AccessGroupShift;
  for (auto &access : plan.accesses)
    access.second |= group;
  plan.total = unsigned(plan.accesses.size());
  for (unsigned n : plan.counts)
    plan.total += n;
  plan.chain = std::max(longestPath, (plan.total + 3) / 4);
  return plan;
}

/// Alias scopes of the counters (per-class counts, basic-block counts, per-site accumulators):
/// they never alias the kernel's own memory nor one another, so the host optimiser may keep
/// them in registers across a block's thread loop (and vectorise it).
struct CounterScope {
  enum Kind { Classes, Blocks, Sites, Kinds };
  MDNode *own[Kinds] = {}, *notOwn[Kinds] = {};
  MDNode *others = nullptr; // !noalias of the kernel's accesses: all of them
  explicit CounterScope(LLVMContext &C) {
    MDBuilder mdb(C);
    MDNode *domain = mdb.createAnonymousAliasScopeDomain("musa.timing");
    MDNode *scopes[Kinds];
    const char *names[Kinds] = {"classes", "blocks", "sites"};
    for (int k = 0; k < Kinds; ++k)
      scopes[k] = mdb.createAnonymousAliasScope(domain, names[k]);
    for (int k = 0; k < Kinds; ++k) {
      own[k] = MDNode::get(C, {scopes[k]});
      SmallVector<Metadata *, 2> rest;
      for (int j = 0; j < Kinds; ++j)
        if (j != k)
          rest.push_back(scopes[j]);
      notOwn[k] = MDNode::get(C, rest);
    }
    others = MDNode::get(C, {scopes[0], scopes[1], scopes[2]});
  }
  Instruction *mark(Instruction *I, Kind kind) const {
    I->setMetadata(LLVMContext::MD_alias_scope, own[kind]);
    I->setMetadata(LLVMContext::MD_noalias, notOwn[kind]);
    return I;
  }
  bool isCounter(const Instruction &I) const {
    MDNode *scope = I.getMetadata(LLVMContext::MD_alias_scope);
    return scope && is_contained(own, scope);
  }
};

/// Adds one execution of the block to ctx->blockCounts[id] (u64 in the light variant, u32 in
/// the full one), its instructions to ctx->issued, and in the full variant its counts per
/// class to ctx->counters[class] (the light variant's are the runtime's product of the
/// block's executions and its row of the table: one counter per block, not one per class).
void emitBlockCounts(IRBuilder<> &b, Argument *ctx, const BlockPlan &plan, uint32_t blockId,
                     const CounterScope &scope, bool light) {
  if (plan.total == 0)
    return;
  Type *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
  auto field = [&](unsigned offset) { return b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, offset); };
  Value *counters = light ? nullptr : b.CreateLoad(b.getPtrTy(), field(sim::abi::CountersOffset));
  for (unsigned k = 0; k < sim::abi::ClassCount && !light; ++k) {
    if (!plan.counts[k])
      continue;
    Value *slot = b.CreateConstInBoundsGEP1_32(i64, counters, k);
    Value *old = scope.mark(b.CreateLoad(i64, slot), CounterScope::Classes);
    scope.mark(b.CreateStore(b.CreateAdd(old, b.getInt64(plan.counts[k])), slot),
               CounterScope::Classes);
  }
  if (plan.countsIssued) {
    Value *issued = field(sim::abi::IssuedOffset);
    b.CreateStore(b.CreateAdd(b.CreateLoad(i64, issued), b.getInt64(plan.total)), issued);
  }
  Value *blockCounts = b.CreateLoad(b.getPtrTy(), field(sim::abi::BlockCountsOffset));
  Type *count = light ? i64 : i32;
  Value *slot = b.CreateConstInBoundsGEP1_32(count, blockCounts, blockId);
  Value *old = scope.mark(b.CreateLoad(count, slot), CounterScope::Blocks);
  scope.mark(b.CreateStore(b.CreateAdd(old, ConstantInt::get(count, 1)), slot),
             CounterScope::Blocks);
}

Value *genericPointer(IRBuilder<> &b, Value *ptr) {
  return ptr->getType()->getPointerAddressSpace() != 0 ? b.CreateAddrSpaceCast(ptr, b.getPtrTy())
                                                       : ptr;
}

/// The full variant: a call to the runtime (sampled blocks) for access `I`, at `b`.
/// The byte offset of `ptr`, a pointer into one of its function's stack objects, in the
/// thread's frame: the objects laid out one after another in the entry block's order, each
/// at its alignment (a GPU compiler's local frame, near enough), plus the offset within.
Value *frameOffset(IRBuilder<> &b, Value *ptr) {
  auto *object = cast<AllocaInst>(getUnderlyingObject(ptr, 12));
  const DataLayout &DL = object->getModule()->getDataLayout();
  uint64_t start = 0;
  for (Instruction &I : object->getFunction()->getEntryBlock()) {
    auto *A = dyn_cast<AllocaInst>(&I);
    if (!A)
      continue;
    start = alignTo(start, A->getAlign());
    if (A == object)
      break;
    std::optional<TypeSize> size = A->getAllocationSize(DL);
    start += size && !size->isScalable() ? size->getFixedValue() : 0;
  }
  Type *i64 = b.getInt64Ty();
  Value *within = b.CreateSub(b.CreatePtrToInt(genericPointer(b, ptr), i64),
                              b.CreatePtrToInt(genericPointer(b, object), i64));
  return b.CreateAdd(within, b.getInt64(start));
}

void emitHook(IRBuilder<> &b, Instruction *I, uint32_t info, uint32_t site, Argument *ctx,
              FunctionCallee hook) {
  uint32_t unused = 0;
  Value *ptr = accessPointer(*I, unused, I->getModule()->getDataLayout());
  // Local memory: the runtime places the frame offset as a GPU would (abi::localAddress).
  ptr = info & sim::abi::AccessLocal ? b.CreateIntToPtr(frameOffset(b, ptr), b.getPtrTy())
                                     : genericPointer(b, ptr);
  b.CreateCall(hook, {ptr, b.getInt32(info), b.getInt32(site), ctx});
}

/// Field `index` of ctx->siteAccum[site] (SiteAccum: global executions, shared executions,
/// lowest and highest global address).
Value *siteAccumField(IRBuilder<> &b, Argument *ctx, uint32_t site, unsigned index) {
  Type *i64 = b.getInt64Ty();
  Value *field = b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::SiteAccumOffset);
  Value *accum = b.CreateConstInBoundsGEP1_32(StructType::get(i64, i64, i64, i64),
                                              b.CreateLoad(b.getPtrTy(), field), site);
  return b.CreateConstInBoundsGEP1_32(i64, accum, index);
}

/// An access of the full variant to shared memory (statically so) and its site.
struct SharedHook {
  Instruction *access;
  uint32_t info, site;
};

/// The full variant's hooks at shared-memory accesses: the runtime records the addresses of
/// a site's first abi::SampledInstances executions by a thread in each barrier epoch and only
/// counts the others, so each such access calls it only while its counter in the function's
/// frame (one per site, per call, cleared after every block barrier) is below that, and
/// otherwise adds the execution to ctx->siteAccum as the light variant does. In a tiled
/// kernel nearly every access is one of these.
void emitSharedHooks(Function &G, ArrayRef<SharedHook> hooks, Argument *ctx, FunctionCallee hook,
                     const CounterScope &scope) {
  if (hooks.empty())
    return;
  IRBuilder<> entry(&*G.getEntryBlock().getFirstInsertionPt());
  auto *type = ArrayType::get(entry.getInt8Ty(), hooks.size());
  AllocaInst *seen = entry.CreateAlloca(type, nullptr, "musa.sampled");
  entry.CreateMemSet(seen, entry.getInt8(0), hooks.size(), MaybeAlign(1));
  SmallVector<CallBase *, 8> barriers;
  for (Instruction &I : instructions(G))
    if (auto *call = dyn_cast<CallBase>(&I); call && call->getCalledFunction()) {
      StringRef name = call->getCalledFunction()->getName();
      if (name == sim::abi::BarrierFn || name == sim::abi::BarrierReduceFn ||
          name == sim::abi::GridSyncFn || name == sim::abi::NamedBarrierFn)
        barriers.push_back(call);
    }
  for (CallBase *barrier : barriers) {
    IRBuilder<> after(barrier->getNextNode());
    after.CreateMemSet(seen, after.getInt8(0), hooks.size(), MaybeAlign(1));
  }
  for (size_t j = 0; j < hooks.size(); ++j) {
    const SharedHook &h = hooks[j];
    IRBuilder<> b(h.access);
    Value *slot = b.CreateConstInBoundsGEP2_32(type, seen, 0, unsigned(j));
    Value *count = b.CreateLoad(b.getInt8Ty(), slot);
    Instruction *sample = nullptr, *counted = nullptr;
    SplitBlockAndInsertIfThenElse(
        b.CreateICmpULT(count, b.getInt8(sim::abi::SampledInstances)), h.access, &sample,
        &counted);
    IRBuilder<> sb(sample);
    sb.CreateStore(sb.CreateAdd(count, sb.getInt8(1)), slot);
    emitHook(sb, h.access, h.info, h.site, ctx, hook);
    IRBuilder<> cb(counted);
    Value *shared = siteAccumField(cb, ctx, h.site, 1);
    Value *old = scope.mark(cb.CreateLoad(cb.getInt64Ty(), shared), CounterScope::Sites);
    scope.mark(cb.CreateStore(cb.CreateAdd(old, cb.getInt64(1)), shared), CounterScope::Sites);
  }
}

} // namespace

std::optional<uint64_t> contextFieldOf(Value *ptr, Argument *ctx) {
  auto *base = dyn_cast<LoadInst>(getUnderlyingObject(ptr, 12));
  if (!base)
    return std::nullopt;
  APInt offset(64, 0);
  const Value *from = base->getPointerOperand()->stripAndAccumulateConstantOffsets(
      base->getModule()->getDataLayout(), offset, true);
  return from == ctx ? std::optional<uint64_t>(offset.getZExtValue()) : std::nullopt;
}

bool isSharedPointer(Value *ptr, Argument *ctx) {
  std::optional<uint64_t> field = contextFieldOf(ptr, ctx);
  return field && (*field == sim::abi::SharedOffset || *field == sim::abi::DynamicSharedOffset);
}

namespace {

/// Whether `ptr` is statically global memory: in the global address space, or derived from a
/// pointer parameter of a kernel (the host passes device, managed or host-mapped memory there;
/// a shared-memory address cannot exist before the block runs).
bool isGlobalPointer(Value *ptr, Argument *ctx, bool kernel) {
  if (ptr->getType()->getPointerAddressSpace() == 1)
    return true;
  auto *param = dyn_cast<Argument>(getUnderlyingObject(ptr, 12));
  return kernel && param && param != ctx;
}

/// The light variant: the site's executions by space and the lowest and highest global
/// address, kept in ctx->siteAccum[site] (no call; reductions the optimiser can vectorise).
/// An access statically to shared memory adds nothing: its executions are its basic block's
/// (TimingSiteBlocksSymbol); returns true for it.
bool emitLightAccess(Instruction *I, uint32_t info, uint32_t site, Argument *ctx, bool kernel,
                     const CounterScope &scope) {
  IRBuilder<> b(I);
  Type *i64 = b.getInt64Ty();
  uint32_t unused = 0;
  Value *ptr = accessPointer(*I, unused, I->getModule()->getDataLayout());
  if (isSharedPointer(ptr, ctx))
    return true;
  auto update = [&](unsigned index, auto compute) {
    Value *slot = siteAccumField(b, ctx, site, index);
    Value *old = scope.mark(b.CreateLoad(i64, slot), CounterScope::Sites);
    scope.mark(b.CreateStore(compute(old), slot), CounterScope::Sites);
  };
  if (info & sim::abi::AccessLocal) { // counted as a global access; its footprint is the frame
    update(0, [&](Value *old) { return b.CreateAdd(old, b.getInt64(1)); });
    return false;
  }
  bool globalOnly = isGlobalPointer(ptr, ctx, kernel);
  Value *address = b.CreatePtrToInt(genericPointer(b, ptr), i64);
  auto field = [&](unsigned offset) { return b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, offset); };
  Value *inShared = b.getFalse();
  if (!globalOnly) {
    Value *base = b.CreatePtrToInt(b.CreateLoad(b.getPtrTy(), field(sim::abi::SharedOffset)), i64);
    Value *size = b.CreateLoad(i64, field(sim::abi::SharedSizeOffset));
    inShared = b.CreateICmpULT(b.CreateSub(address, base), size);
    update(1, [&](Value *old) { return b.CreateAdd(old, b.CreateZExt(inShared, i64)); });
  }
  Value *isGlobal = b.CreateNot(inShared);
  Value *end = b.CreateAdd(address, b.getInt64(info & 0xffff));
  update(0, [&](Value *old) { return b.CreateAdd(old, b.CreateZExt(isGlobal, i64)); });
  // As plain min/max reductions (the operand, not the result, is selected) so that a loop
  // over threads vectorises.
  update(2, [&](Value *old) {
    return b.CreateBinaryIntrinsic(Intrinsic::umin, old,
                                   b.CreateSelect(isGlobal, address, b.getInt64(~uint64_t(0))));
  });
  update(3, [&](Value *old) {
    return b.CreateBinaryIntrinsic(Intrinsic::umax, old,
                                   b.CreateSelect(isGlobal, end, b.getInt64(0)));
  });
  return false;
}

/// Tags the kernel's own memory accesses as not touching the counters. Calls to device
/// functions are left alone: they update counters themselves.
void markNoAlias(Function &F, const CounterScope &scope) {
  for (Instruction &I : instructions(F)) {
    if (scope.isCounter(I))
      continue;
    auto *call = dyn_cast<CallBase>(&I);
    if (call && !isa<MemIntrinsic>(call))
      continue;
    if (!I.mayReadOrWriteMemory())
      continue;
    I.setMetadata(LLVMContext::MD_noalias,
                  MDNode::concatenate(I.getMetadata(LLVMContext::MD_noalias), scope.others));
  }
}

/// A copy of every lowered device function (named with FullVariantSuffix) whose calls go to
/// the copies: the fully instrumented variant sampled blocks run.
SmallVector<std::pair<Function *, Function *>, 16> cloneFullVariants(Module &M) {
  SmallVector<std::pair<Function *, Function *>, 16> pairs;
  for (Function &F : M)
    if (!F.isDeclaration() && getContextArg(F))
      pairs.push_back({&F, nullptr});
  DenseMap<Function *, Function *> fullOf;
  for (auto &[F, G] : pairs) {
    ValueToValueMapTy map;
    G = CloneFunction(F, map);
    G->setName(F->getName() + FullVariantSuffix);
    G->setLinkage(GlobalValue::InternalLinkage);
    fullOf[F] = G;
  }
  for (auto &[F, G] : pairs)
    for (Instruction &I : instructions(*G))
      if (auto *call = dyn_cast<CallBase>(&I))
        if (auto *callee = dyn_cast<Function>(call->getCalledOperand()->stripPointerCasts()))
          if (Function *full = fullOf.lookup(callee))
            call->setCalledFunction(full);
  return pairs;
}

void recordCounterRange(Function &F, uint32_t firstBlock, uint32_t endBlock, uint32_t firstSite,
                        uint32_t endSite) {
  LLVMContext &C = F.getContext();
  auto *i32 = Type::getInt32Ty(C);
  auto md = [&](uint32_t v) { return ConstantAsMetadata::get(ConstantInt::get(i32, v)); };
  F.setMetadata(CounterRangeMD, MDNode::get(C, {md(firstBlock), md(endBlock), md(firstSite),
                                                md(endSite)}));
}

/// TimingKernelSitesPrefix + K for every kernel K: the hull of the site ranges of K and of the
/// functions it reaches by direct calls (all sites if it makes an indirect call).
void emitKernelSiteRanges(Module &M, ArrayRef<Function *> kernels, uint32_t sites) {
  auto *i32 = Type::getInt32Ty(M.getContext());
  auto *type = ArrayType::get(i32, 2);
  for (Function *K : kernels) {
    uint32_t first = sites, end = 0;
    SmallPtrSet<Function *, 16> seen;
    SmallVector<Function *, 16> work{K};
    while (!work.empty() && first > 0) {
      Function *F = work.pop_back_val();
      if (!seen.insert(F).second)
        continue;
      if (std::optional<CounterRange> range = counterRangeOf(*F);
          range && range->endSite > range->firstSite)
        first = std::min(first, range->firstSite), end = std::max(end, range->endSite);
      for (Instruction &I : instructions(*F)) {
        auto *call = dyn_cast<CallBase>(&I);
        if (!call || call->isInlineAsm())
          continue;
        auto *callee = dyn_cast<Function>(call->getCalledOperand()->stripPointerCasts());
        if (!callee)
          first = 0, end = sites; // an indirect call may reach any function
        else if (!callee->isDeclaration())
          work.push_back(callee);
      }
    }
    if (first >= end)
      first = end = 0;
    new GlobalVariable(M, type, true, GlobalValue::ExternalLinkage,
                       ConstantArray::get(type, {ConstantInt::get(i32, first),
                                                 ConstantInt::get(i32, end)}),
                       TimingKernelSitesPrefix + K->getName());
  }
}

} // namespace

/// Small fixed-size copies (a float4 or a 16-byte struct assigned as a whole) become one load
/// and one store, as the GPU executes them, so that both are counted as accesses.
void expandSmallCopies(Module &M) {
  SmallVector<MemCpyInst *, 16> copies;
  for (Function &F : M)
    for (Instruction &I : instructions(F))
      if (auto *copy = dyn_cast<MemCpyInst>(&I); copy && !copy->isVolatile())
        if (auto *length = dyn_cast<ConstantInt>(copy->getLength()))
          if (uint64_t n = length->getZExtValue(); n == 1 || n == 2 || n == 4 || n == 8 || n == 16)
            copies.push_back(copy);
  for (MemCpyInst *copy : copies) {
    IRBuilder<> b(copy);
    Type *type = b.getIntNTy(unsigned(cast<ConstantInt>(copy->getLength())->getZExtValue() * 8));
    LoadInst *value = b.CreateLoad(type, copy->getSource());
    value->setAlignment(copy->getSourceAlign().valueOrOne());
    StoreInst *store = b.CreateStore(value, copy->getDest());
    store->setAlignment(copy->getDestAlign().valueOrOne());
    copy->eraseFromParent();
  }
}

PreservedAnalyses InstrumentTimingPass::run(Module &M, ModuleAnalysisManager &) {
  expandSmallCopies(M);
  LLVMContext &C = M.getContext();
  Type *ptrTy = PointerType::getUnqual(C), *i32 = Type::getInt32Ty(C);
  FunctionCallee hook = M.getOrInsertFunction(
      sim::abi::MemAccessFn,
      FunctionType::get(Type::getVoidTy(C), {ptrTy, i32, i32, ptrTy}, false));
  CounterScope scope(C);
  uint32_t sites = 0;
  SmallVector<Constant *, 64> rows, siteInfo, siteBlocks;
  auto *rowType = ArrayType::get(i32, sim::abi::TableColumns);
  // Both variants number the same blocks and sites alike: the light variant's counts and the
  // sampled blocks' add up in the same tables.
  std::vector<Function *> kernels = getKernels(M);
  const bool countsIssued = readsThreadClock(M);
  for (auto [F, G] : cloneFullVariants(M)) {
    Argument *ctx = getContextArg(*F), *fullCtx = getContextArg(*G);
    bool kernel = is_contained(kernels, F);
    uint32_t firstBlock = uint32_t(rows.size()), firstSite = sites;
    SmallVector<SharedHook, 16> sharedHooks; // split out once the blocks are numbered
    HalfOps half = findHalfOps(*F), fullHalf = findHalfOps(*G);
    DenseMap<const BasicBlock *, unsigned> overlap = loopOverlap(*F);
    // Every block is planned before any gets its counters (a predicated block's plan reads the
    // block it hangs from).
    std::vector<std::pair<BlockPlan, BlockPlan>> plans;
    for (auto [BB, fullBB] : zip(*F, *G)) {
      unsigned inFlight = std::max(1u, overlap.lookup(&BB));
      plans.emplace_back(planBlock(BB, half, inFlight), planBlock(fullBB, fullHalf, inFlight));
    }
    for (auto [BB, fullBB, planned] : zip(*F, *G, plans)) {
      auto &[plan, fullPlan] = planned;
      plan.countsIssued = fullPlan.countsIssued = countsIssued;
      uint32_t blockId = uint32_t(rows.size());
      IRBuilder<> b(&*BB.getFirstInsertionPt());
      emitBlockCounts(b, ctx, plan, blockId, scope, true);
      IRBuilder<> fb(&*fullBB.getFirstInsertionPt());
      emitBlockCounts(fb, fullCtx, fullPlan, blockId, scope, false);
      for (auto [access, fullAccess] : zip(plan.accesses, fullPlan.accesses)) {
        bool byBlock = emitLightAccess(access.first, access.second, sites, ctx, kernel, scope);
        siteBlocks.push_back(ConstantInt::get(i32, byBlock ? blockId + 1 : 0));
        uint32_t unused = 0;
        Instruction *I = fullAccess.first;
        if (isSharedPointer(accessPointer(*I, unused, M.getDataLayout()), fullCtx)) {
          sharedHooks.push_back({I, fullAccess.second, sites});
        } else {
          IRBuilder<> hb(I);
          emitHook(hb, I, fullAccess.second, sites, fullCtx, hook);
        }
        siteInfo.push_back(ConstantInt::get(i32, access.second));
        ++sites;
      }
      SmallVector<Constant *, sim::abi::TableColumns> row;
      for (unsigned n : plan.counts)
        row.push_back(ConstantInt::get(i32, n));
      row.push_back(ConstantInt::get(i32, plan.chain));
      rows.push_back(ConstantArray::get(rowType, row));
    }
    emitSharedHooks(*G, sharedHooks, fullCtx, hook, scope);
    markNoAlias(*F, scope);
    recordCounterRange(*F, firstBlock, uint32_t(rows.size()), firstSite, sites);
  }
  new GlobalVariable(M, i32, true, GlobalValue::ExternalLinkage, ConstantInt::get(i32, sites),
                     TimingSitesSymbol);
  auto *infoType = ArrayType::get(i32, siteInfo.size());
  new GlobalVariable(M, infoType, true, GlobalValue::ExternalLinkage,
                     ConstantArray::get(infoType, siteInfo), TimingSiteInfoSymbol);
  new GlobalVariable(M, infoType, true, GlobalValue::ExternalLinkage,
                     ConstantArray::get(infoType, siteBlocks), TimingSiteBlocksSymbol);
  emitKernelSiteRanges(M, kernels, sites);
  auto *tableType = ArrayType::get(rowType, rows.size());
  auto *blocksType = StructType::get(C, {i32, tableType});
  new GlobalVariable(M, blocksType, true, GlobalValue::ExternalLinkage,
                     ConstantStruct::get(blocksType, {ConstantInt::get(i32, rows.size()),
                                                      ConstantArray::get(tableType, rows)}),
                     TimingBlocksSymbol);
  return PreservedAnalyses::none();
}

std::optional<CounterRange> counterRangeOf(const Function &F) {
  MDNode *md = F.getMetadata(CounterRangeMD);
  if (!md)
    return std::nullopt;
  auto at = [&](unsigned i) {
    return uint32_t(mdconst::extract<ConstantInt>(md->getOperand(i))->getZExtValue());
  };
  return CounterRange{at(0), at(1), at(2), at(3)};
}

} // namespace musa::jit
