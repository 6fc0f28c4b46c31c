// CheckAccesses: the device faults a CPU does not raise by itself, checked the way the GPU
// reports them (tests/hardware/probes/fault_boundaries.h200.txt).
//  - Misaligned address: an access of N >= 2 bytes at an address not a multiple of min(N, 4).
//  - Shared memory out of range: an access through a pointer into the block's shared memory
//    that reaches past its end (static plus dynamic bytes); the GPU reports an illegal
//    address. (Below its start the H200 reports nothing, and neither do we.) The flagged
//    access goes to a scratch sink instead: past the end of the worker's shared buffer there
//    may be another block's shared memory, another allocation or an unmapped page (a host
//    segfault would report a bare address instead of the shared-memory fault).
//  - Host memory the device cannot reach (only with MUSA_SIM_MEMCHECK=1, as the shared-memory
//    bound): an access through a pointer that is not statically shared, local, a global
//    variable or a by-value parameter asks the runtime (__musa_sim_check_address) whether the
//    address is device memory, the block's shared memory, the thread's stack, or host memory
//    allocated or registered through the runtime; pageable host memory faults, as on the H200
//    (pageableMemoryAccess = 0 there). The call keeps such loops scalar: memcheck's cost.
// Each check ORs bits into a local instead of branching, added to ctx->accessFaults at the
// function's returns and before its calls, so thread loops still vectorise (the flags become a reduction); the
// executor reads them after the block and ends the launch with the fault. Accesses whose alignment the optimiser can prove are not checked.
// Runs after InstrumentTiming, so the checks are not counted as the kernel's instructions.
#include "Accesses.h"
#include "musa/jit/DeviceLowering.h"
#include "musa/sim/KernelAbi.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace musa::jit {
namespace {

Align declaredAlignment(Instruction &I) {
  if (auto *rmw = dyn_cast<AtomicRMWInst>(&I))
    return rmw->getAlign();
  if (auto *cas = dyn_cast<AtomicCmpXchgInst>(&I))
    return cas->getAlign();
  return getLoadStoreAlignment(&I);
}

/// Whether `ptr` points into memory the runtime owns through the context (timing counters):
/// a pointer loaded from a context field other than the shared-memory bases.
bool isRuntimeMemory(Value *ptr, Argument *ctx) {
  return contextFieldOf(ptr, ctx) && !isSharedPointer(ptr, ctx);
}

/// Whether an access through `ptr` may reach host memory: not a global variable's (device
/// memory the JIT placed), nor a stack object's or a by-value parameter's.
bool mayBeHostMemory(Value *ptr) {
  const Value *object = getUnderlyingObject(ptr);
  if (isa<GlobalVariable>(object) || isa<AllocaInst>(object))
    return false;
  const auto *arg = dyn_cast<Argument>(object);
  return !arg || !arg->hasByValAttr();
}

/// Where a shared-memory access flagged past the block's end goes instead (see the top): one
/// sink per module, written by every worker at once; what it holds is never read as data, as
/// the launch fails with the fault.
constexpr uint64_t SinkBytes = 256;

GlobalVariable *sharedSink(Module &M) {
  constexpr const char *name = "musa.shared.sink";
  if (GlobalVariable *g = M.getNamedGlobal(name))
    return g;
  auto *T = ArrayType::get(Type::getInt8Ty(M.getContext()), SinkBytes);
  auto *g = new GlobalVariable(M, T, false, GlobalValue::InternalLinkage,
                               ConstantAggregateZero::get(T), name);
  g->setAlignment(Align(64));
  return g;
}

unsigned pointerOperandIndex(Instruction &I) {
  if (isa<LoadInst>(I))
    return LoadInst::getPointerOperandIndex();
  if (isa<StoreInst>(I))
    return StoreInst::getPointerOperandIndex();
  if (isa<AtomicRMWInst>(I))
    return AtomicRMWInst::getPointerOperandIndex();
  return AtomicCmpXchgInst::getPointerOperandIndex();
}

void checkFunction(Function &F, Argument *ctx, bool memcheck) {
  const DataLayout &DL = F.getDataLayout();
  struct Access {
    Instruction *I;
    Value *ptr;
    uint32_t info;
  };
  SmallVector<Access, 32> accesses;
  for (Instruction &I : instructions(F)) {
    uint32_t info = 0;
    if (Value *ptr = accessPointer(I, info, DL);
        ptr && !(info & sim::abi::AccessLocal) && !isRuntimeMemory(ptr, ctx))
      accesses.push_back({&I, ptr, info});
  }
  if (accesses.empty())
    return;
  LLVMContext &C = F.getContext();
  Type *i64 = Type::getInt64Ty(C);
  // The faults of this call collect in a local (a register once promoted) and reach
  // ctx->accessFaults once, at each return: in a thread loop that is one unconditional
  // update per thread, which the optimiser turns into a vectorisable reduction.
  IRBuilder<> entry(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *local = entry.CreateAlloca(i64, nullptr, "musa.faults");
  entry.CreateStore(entry.getInt64(0), local);
  FunctionCallee checkAddress = F.getParent()->getOrInsertFunction(
      sim::abi::CheckAddressFn, i64, PointerType::getUnqual(C), ctx->getType());
  for (auto [I, ptr, info] : accesses) {
    // The alignment the access itself declares bounds the check: the optimiser merges
    // neighbouring 2-byte stores into a 4-byte one marked `align 2`, which a GPU back end
    // splits again (and a packed struct's fields are read bytewise there): only a pointer cast
    // that claims more alignment than the address has can fault.
    uint64_t size = info & 0xffff,
             align = std::min<uint64_t>({size, 4, declaredAlignment(*I).value()});
    // Shared memory is checked only on request: its bounds test costs kernels that tile in
    // shared memory their vectorised region loops (tiled matmul 2x). Its base is aligned, and
    // only a byte-offset cast could misalign an access there: not checked either.
    bool shared = isSharedPointer(ptr, ctx);
    bool misalignable = !shared && align >= 2 && getKnownAlignment(ptr, DL, I).value() < align;
    bool host = memcheck && !shared && mayBeHostMemory(ptr);
    shared &= memcheck;
    if (!misalignable && !shared && !host)
      continue;
    IRBuilder<> b(I);
    auto field = [&](unsigned offset) {
      return b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, offset);
    };
    Value *address = b.CreatePtrToInt(
        ptr->getType()->getPointerAddressSpace() ? b.CreateAddrSpaceCast(ptr, b.getPtrTy()) : ptr,
        i64);
    Value *faults = b.getInt64(0);
    if (misalignable)
      faults = b.CreateAnd(address, align - 1); // the low bits themselves (no compare)
    if (shared) {
      Value *base = b.CreatePtrToInt(b.CreateLoad(b.getPtrTy(), field(sim::abi::SharedOffset)), i64);
      Value *end = b.CreateAdd(b.CreateSub(address, base), b.getInt64(size));
      Value *limit = b.CreateLoad(i64, field(sim::abi::SharedLimitOffset));
      Value *past = b.CreateICmpSGT(end, limit);
      faults = b.CreateOr(faults, b.CreateSelect(past, b.getInt64(sim::abi::AccessFaultSharedRange),
                                                 b.getInt64(0)));
      if (size <= SinkBytes) {
        Value *sink = sharedSink(*F.getParent());
        if (sink->getType() != ptr->getType())
          sink = b.CreateAddrSpaceCast(sink, ptr->getType());
        I->setOperand(pointerOperandIndex(*I), b.CreateSelect(past, sink, ptr));
      }
    }
    if (host)
      faults = b.CreateOr(faults, b.CreateCall(checkAddress, {b.CreateIntToPtr(address, b.getPtrTy()), ctx}));
    b.CreateStore(b.CreateOr(b.CreateLoad(i64, local), faults), local);
  }
  // Flushed at returns and before calls: a barrier is a call here, so the local never lives
  // across one (region loops would otherwise keep it in per-thread frames, in memory).
  auto flush = [&](Instruction *before, bool reset) {
    IRBuilder<> b(before);
    Value *slot = b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::AccessFaultsOffset);
    b.CreateStore(b.CreateOr(b.CreateLoad(i64, slot), b.CreateLoad(i64, local)), slot);
    if (reset)
      b.CreateStore(b.getInt64(0), local);
  };
  SmallVector<Instruction *, 16> points;
  for (Instruction &I : instructions(F)) {
    auto *call = dyn_cast<CallBase>(&I);
    if (isa<ReturnInst>(I) || (call && !isa<IntrinsicInst>(call) && !call->isInlineAsm() &&
                               call->getCalledFunction() != checkAddress.getCallee()))
      points.push_back(&I);
  }
  for (Instruction *I : points)
    flush(I, !isa<ReturnInst>(I));
}

} // namespace

PreservedAnalyses CheckAccessesPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function &F : M)
    if (!F.isDeclaration())
      if (Argument *ctx = getContextArg(F))
        checkFunction(F, ctx, memcheck);
  return PreservedAnalyses::none();
}

} // namespace musa::jit
