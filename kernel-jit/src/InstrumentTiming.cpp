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
#include "musa/jit/DeviceLowering.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

#include <array>

using namespace llvm;

namespace musa::jit {

namespace {

using Counts = std::array<unsigned, sim::abi::ClassCount>;

bool isMathLibraryName(StringRef name) {
  static const char *const names[] = {
      "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
      "acosh", "atanh", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "pow",
      "sqrt", "cbrt", "hypot", "erf", "erfc", "tgamma", "lgamma", "fmod", "remainder", "rsqrt",
      "sincos", "erfinv", "erfcinv", "normcdf", "normcdfinv", "j0", "j1", "y0", "y1"};
  name.consume_front("__");
  name.consume_back("f");
  for (const char *n : names)
    if (name == n)
      return true;
  return false;
}

unsigned floatClass(Type *T) {
  T = T->getScalarType();
  return T->isDoubleTy() ? sim::abi::ClassFp64 : sim::abi::ClassFp32;
}

/// A contractable multiply whose only use is a contractable add: one fma, counted at the add.
bool fusedIntoAdd(Instruction &I) {
  if (I.getOpcode() != Instruction::FMul || !I.hasAllowContract() || !I.hasOneUse())
    return false;
  auto *user = dyn_cast<Instruction>(*I.user_begin());
  return user && (user->getOpcode() == Instruction::FAdd ||
                  user->getOpcode() == Instruction::FSub) && user->hasAllowContract();
}

/// Adds the cost of one instruction to `c` (memory accesses excepted).
void classify(Instruction &I, Counts &c) {
  using namespace sim::abi;
  if (isa<PHINode>(I) || isa<AllocaInst>(I) || isa<BitCastInst>(I) ||
      isa<AddrSpaceCastInst>(I) || isa<PtrToIntInst>(I) || isa<IntToPtrInst>(I) ||
      isa<ExtractValueInst>(I) || isa<InsertValueInst>(I) || isa<FreezeInst>(I) ||
      isa<ZExtInst>(I) || isa<SExtInst>(I) || isa<TruncInst>(I) || // folded into addressing
      fusedIntoAdd(I) ||
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
    if (name == BarrierFn || name == BarrierReduceFn || name == GridSyncFn)
      ++c[ClassBarrier];
    else if (name == WarpFn || name == ActiveMaskFn)
      ++c[ClassWarp];
    else if (auto *intrinsic = dyn_cast<IntrinsicInst>(call)) {
      switch (intrinsic->getIntrinsicID()) {
      case Intrinsic::sqrt: case Intrinsic::sin: case Intrinsic::cos: case Intrinsic::exp:
      case Intrinsic::exp2: case Intrinsic::log: case Intrinsic::log2: case Intrinsic::log10:
      case Intrinsic::pow: case Intrinsic::powi:
        ++c[ClassSpecial];
        break;
      case Intrinsic::fma: case Intrinsic::fmuladd: case Intrinsic::fabs:
      case Intrinsic::minnum: case Intrinsic::maxnum: case Intrinsic::copysign:
      case Intrinsic::floor: case Intrinsic::ceil: case Intrinsic::trunc:
      case Intrinsic::rint: case Intrinsic::nearbyint: case Intrinsic::round:
        ++c[floatClass(call->getType())];
        break;
      case Intrinsic::memcpy: case Intrinsic::memmove: case Intrinsic::memset:
      case Intrinsic::assume: case Intrinsic::experimental_noalias_scope_decl:
        break;
      default:
        ++c[ClassInt];
        break;
      }
    } else if (F && isMathLibraryName(name)) {
      ++c[ClassSpecial];
    } else {
      ++c[ClassBranch]; // a call (device function or other builtin)
    }
    return;
  }
  switch (I.getOpcode()) {
  case Instruction::FAdd: case Instruction::FSub: case Instruction::FMul:
  case Instruction::FNeg: case Instruction::FCmp: case Instruction::FPExt:
  case Instruction::FPTrunc: case Instruction::SIToFP: case Instruction::UIToFP:
  case Instruction::FPToSI: case Instruction::FPToUI:
    ++c[floatClass(I.getType()->isFloatingPointTy() || !I.getNumOperands()
                       ? I.getType()
                       : I.getOperand(0)->getType())];
    return;
  case Instruction::FDiv: case Instruction::FRem:
    if (floatClass(I.getType()) == ClassFp64) {
      c[ClassFp64] += 8; // Newton iterations in double
    } else {
      ++c[ClassSpecial]; // reciprocal approximation plus refinement
      c[ClassFp32] += 2;
    }
    return;
  case Instruction::UDiv: case Instruction::SDiv: case Instruction::URem:
  case Instruction::SRem:
    c[ClassInt] += 20; // no hardware integer divide: a multiply-based sequence
    return;
  default:
    if (I.getType()->isFPOrFPVectorTy())
      ++c[floatClass(I.getType())];
    else
      ++c[ClassInt];
    return;
  }
}

/// The pointer an access uses, or null if `I` is not a memory access.
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
  } else if (auto *cas = dyn_cast<AtomicCmpXchgInst>(&I)) {
    ptr = cas->getPointerOperand(), T = cas->getCompareOperand()->getType();
    info |= sim::abi::AccessAtomic;
  } else {
    return nullptr;
  }
  const Value *object = getUnderlyingObject(ptr, 12);
  if (isa<AllocaInst>(object))
    return nullptr; // the thread's own stack ("local memory")
  if (auto *arg = dyn_cast<Argument>(object); arg && arg == getContextArg(*const_cast<Function *>(arg->getParent())))
    return nullptr; // a special register (threadIdx, ...) lowered to a context field
  uint64_t size = DL.getTypeStoreSize(T);
  info |= uint32_t(std::min<uint64_t>(size, 0xffff));
  return ptr;
}

/// Instruments one basic block; returns its counts per class (its row of the block table).
Counts instrumentBlock(BasicBlock &BB, Argument *ctx, FunctionCallee hook, uint32_t &nextSite,
                       uint32_t blockId) {
  const DataLayout &DL = BB.getModule()->getDataLayout();
  Counts counts{};
  SmallVector<std::pair<Instruction *, uint32_t>, 8> accesses;
  unsigned loads = 0;
  for (Instruction &I : BB) {
    uint32_t info = 0;
    if (accessPointer(I, info, DL)) {
      accesses.push_back({&I, info});
      loads += !(info & (sim::abi::AccessStore | sim::abi::AccessAtomic));
    } else if (isa<LoadInst>(I) || isa<StoreInst>(I)) {
      ++counts[sim::abi::ClassInt]; // a special-register read or a stack access
    } else {
      classify(I, counts);
    }
  }
  unsigned total = unsigned(accesses.size());
  for (unsigned n : counts)
    total += n;
  IRBuilder<> b(&*BB.getFirstInsertionPt());
  Type *i64 = b.getInt64Ty();
  if (total > 0) {
    Value *counters =
        b.CreateLoad(b.getPtrTy(), b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx,
                                                                sim::abi::CountersOffset));
    for (unsigned k = 0; k < sim::abi::ClassCount; ++k) {
      if (!counts[k])
        continue;
      Value *slot = b.CreateConstInBoundsGEP1_32(i64, counters, k);
      b.CreateStore(b.CreateAdd(b.CreateLoad(i64, slot), b.getInt64(counts[k])), slot);
    }
    Value *issued = b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::IssuedOffset);
    b.CreateStore(b.CreateAdd(b.CreateLoad(i64, issued), b.getInt64(total)), issued);
    Value *blockCounts = b.CreateLoad(
        b.getPtrTy(),
        b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::BlockCountsOffset));
    Value *slot = b.CreateConstInBoundsGEP1_32(b.getInt32Ty(), blockCounts, blockId);
    b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt32Ty(), slot), b.getInt32(1)), slot);
  }
  uint32_t group = std::min(loads, 255u) << sim::abi::AccessGroupShift;
  for (auto [I, info] : accesses) {
    b.SetInsertPoint(I);
    uint32_t unused = 0;
    Value *ptr = accessPointer(*I, unused, DL);
    if (ptr->getType()->getPointerAddressSpace() != 0)
      ptr = b.CreateAddrSpaceCast(ptr, b.getPtrTy());
    b.CreateCall(hook, {ptr, b.getInt32(info | group), b.getInt32(nextSite++), ctx});
  }
  return counts;
}

} // namespace

PreservedAnalyses InstrumentTimingPass::run(Module &M, ModuleAnalysisManager &) {
  LLVMContext &C = M.getContext();
  Type *ptrTy = PointerType::getUnqual(C), *i32 = Type::getInt32Ty(C);
  FunctionCallee hook = M.getOrInsertFunction(
      sim::abi::MemAccessFn,
      FunctionType::get(Type::getVoidTy(C), {ptrTy, i32, i32, ptrTy}, false));
  uint32_t sites = 0;
  SmallVector<Constant *, 64> rows;
  auto *rowType = ArrayType::get(i32, sim::abi::ClassCount);
  for (Function &F : M) {
    Argument *ctx = F.isDeclaration() ? nullptr : getContextArg(F);
    if (!ctx)
      continue;
    for (BasicBlock &BB : F) {
      Counts counts = instrumentBlock(BB, ctx, hook, sites, uint32_t(rows.size()));
      SmallVector<Constant *, sim::abi::ClassCount> row;
      for (unsigned n : counts)
        row.push_back(ConstantInt::get(i32, n));
      rows.push_back(ConstantArray::get(rowType, row));
    }
  }
  new GlobalVariable(M, i32, true, GlobalValue::ExternalLinkage, ConstantInt::get(i32, sites),
                     TimingSitesSymbol);
  auto *tableType = ArrayType::get(rowType, rows.size());
  auto *blocksType = StructType::get(C, {i32, tableType});
  new GlobalVariable(M, blocksType, true, GlobalValue::ExternalLinkage,
                     ConstantStruct::get(blocksType, {ConstantInt::get(i32, rows.size()),
                                                      ConstantArray::get(tableType, rows)}),
                     TimingBlocksSymbol);
  return PreservedAnalyses::none();
}

} // namespace musa::jit
