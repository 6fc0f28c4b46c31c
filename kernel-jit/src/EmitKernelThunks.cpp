// EmitKernelThunksPass: entry points simdevice can call without knowing kernel signatures.
//
// For each kernel @K(T0 %a0, ..., ptr %ctx) it emits
//   __musa_thunk_K(ptr %args, ptr %ctx)   one thread: a_i = load T_i, args[i]; call @K
//   __musa_thunk_full_K                   the same for the fully instrumented variant of K
//                                         (timing model only: the blocks it samples)
//   __musa_block_K(ptr %args, ptr %ctx)   all threads of a block in a loop (z, y, x), storing
//                                         each thread's index into ctx->tid before the call;
//                                         used when the kernel needs no fibers, so LLVM sees
//                                         the whole block as one loop and can inline and hoist
//   __musa_kfacts_K = { i64 staticSharedBytes, i32 needsFibers, i32 maxThreadsPerBlock, i32 n,
//                       [n x i32] paramSizes }
// A byval parameter (struct passed by value) receives args[i] itself: the callee copies it.
// needsFibers has FactNeedsFibers when the kernel's call tree reaches a barrier, a warp
// collective, a spin loop (MarkSpinLoops) or an indirect call (which might reach one), and
// FactWaits when it reaches a spin loop that waits for a value another block may write.
#include "musa/jit/DeviceLowering.h"

#include "ThreadLoop.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace musa::jit {

namespace {

/// KernelFacts::needsFibers: NeedsFibers and Spins bits (see DeviceLowering.h).
uint32_t fiberFacts(Function &K) {
  uint32_t facts = 0;
  SmallPtrSet<Function *, 16> seen;
  SmallVector<Function *, 16> work{&K};
  while (!work.empty()) {
    Function *F = work.pop_back_val();
    if (!seen.insert(F).second)
      continue;
    StringRef name = F->getName();
    if (name == sim::abi::BarrierFn || name == sim::abi::WarpFn ||
        name == sim::abi::BarrierReduceFn || name == sim::abi::ActiveMaskFn ||
        name == sim::abi::GridSyncFn || name == sim::abi::SpinFn ||
        name == sim::abi::NamedBarrierFn)
      facts |= FactNeedsFibers; // on: a waiting spin loop may still be found
    for (Instruction &I : instructions(*F)) {
      auto *call = dyn_cast<CallBase>(&I);
      if (!call)
        continue;
      auto *callee = dyn_cast<Function>(call->getCalledOperand()->stripPointerCasts());
      if (!callee && !call->isInlineAsm())
        facts |= FactNeedsFibers;
      if (callee && callee->getName() == sim::abi::SpinFn &&
          call->getMetadata(SpinWaitsMetadata))
        facts |= FactWaits;
      if (callee)
        work.push_back(callee);
    }
  }
  return facts;
}

SmallVector<Value *, 8> unpackArgs(IRBuilder<> &b, Function &K, Value *args) {
  SmallVector<Value *, 8> values;
  for (unsigned i = 0; i + 1 < K.arg_size(); ++i) {
    Value *slot = b.CreateConstInBoundsGEP1_32(b.getPtrTy(), args, i);
    Value *ptr = b.CreateLoad(b.getPtrTy(), slot);
    if (K.hasParamAttribute(i, Attribute::ByVal))
      values.push_back(ptr);
    else
      values.push_back(b.CreateLoad(K.getArg(i)->getType(), ptr));
  }
  return values;
}

Function *makeEntry(Module &M, const Twine &name) {
  LLVMContext &C = M.getContext();
  Type *ptrTy = PointerType::getUnqual(C);
  auto *type = FunctionType::get(Type::getVoidTy(C), {ptrTy, ptrTy}, false);
  Function *F = Function::Create(type, GlobalValue::ExternalLinkage, name, M);
  F->addFnAttr(Attribute::NoUnwind);
  return F;
}

void emitThreadThunk(Module &M, Function &K, const Twine &name) {
  Function *T = makeEntry(M, name);
  IRBuilder<> b(BasicBlock::Create(M.getContext(), "entry", T));
  SmallVector<Value *, 8> values = unpackArgs(b, K, T->getArg(0));
  values.push_back(T->getArg(1));
  b.CreateCall(&K, values);
  b.CreateRetVoid();
}

/// for z < ntid.z: for y < ntid.y: for x < ntid.x: ctx->tid = {x,y,z}; K(args, ctx)
void emitBlockLoop(Module &M, Function &K) {
  LLVMContext &C = M.getContext();
  Function *L = makeEntry(M, BlockLoopPrefix + K.getName());
  Value *args = L->getArg(0), *ctx = L->getArg(1);
  L->addParamAttr(1, Attribute::NoAlias);
  L->addDereferenceableParamAttr(1, sizeof(sim::ThreadContext));
  L->addParamAttr(1, Attribute::getWithAlignment(M.getContext(), Align(alignof(sim::ThreadContext))));
  IRBuilder<> b(BasicBlock::Create(C, "entry", L));
  SmallVector<Value *, 8> values = unpackArgs(b, K, args);
  values.push_back(ctx);
  ThreadLoop loop = ThreadLoop::open(b, ctx);
  loop.storeTid(b);
  // Each thread's clock64() counts its own instructions from zero.
  b.CreateStore(b.getInt64(0),
                b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::IssuedOffset));
  b.CreateCall(&K, values);
  loop.close(b);
  b.CreateRetVoid();
  localizeCounters(*L, ctx, K);
}

void emitFacts(Module &M, Function &K) {
  LLVMContext &C = M.getContext();
  uint64_t staticShared = 0;
  if (MDNode *md = K.getMetadata("musa.static_shared"))
    staticShared = mdconst::extract<ConstantInt>(md->getOperand(0))->getZExtValue();
  auto *i64 = Type::getInt64Ty(C), *i32 = Type::getInt32Ty(C);
  // Parameter sizes let the runtime copy a launch's arguments when it is enqueued; their
  // alignments (an aggregate's byval alignment, as the device ABI placed it) give the packed
  // parameter buffer's layout.
  const DataLayout &DL = M.getDataLayout();
  SmallVector<Constant *, 8> sizes;
  for (unsigned i = 0; i + 1 < K.arg_size(); ++i) {
    Type *T = K.getParamByValType(i) ? K.getParamByValType(i) : K.getArg(i)->getType();
    // (A pointer's own `align` attribute is its pointee's, not the parameter's.)
    Align align = K.getParamByValType(i) ? K.getParamAlign(i).value_or(DL.getABITypeAlign(T))
                                         : DL.getABITypeAlign(T);
    sizes.push_back(ConstantInt::get(
        i32, DL.getTypeAllocSize(T) | uint32_t(Log2(align)) << ParamAlignShift));
  }
  auto *sizesType = ArrayType::get(i32, sizes.size());
  StructType *type = kernelFactsType(C, sizes.size());
  uint64_t maxThreads = 0; // __launch_bounds__ (RetargetToHostPass kept it)
  if (MDNode *md = K.getMetadata(MaxThreadsMD))
    maxThreads = mdconst::extract<ConstantInt>(md->getOperand(0))->getZExtValue();
  auto *init = ConstantStruct::get(type, {ConstantInt::get(i64, staticShared),
                                          ConstantInt::get(i32, fiberFacts(K)),
                                          ConstantInt::get(i32, maxThreads),
                                          ConstantInt::get(i32, sizes.size()),
                                          ConstantArray::get(sizesType, sizes)});
  new GlobalVariable(M, type, true, GlobalValue::ExternalLinkage, init,
                     FactsPrefix + K.getName());
}

} // namespace

StructType *kernelFactsType(LLVMContext &C, unsigned params) {
  auto *i32 = Type::getInt32Ty(C);
  return StructType::get(C, {Type::getInt64Ty(C), i32, i32, i32, ArrayType::get(i32, params)});
}

PreservedAnalyses EmitKernelThunksPass::run(Module &M, ModuleAnalysisManager &) {
  for (Function *K : getKernels(M)) {
    emitThreadThunk(M, *K, sim::abi::ThunkPrefix + K->getName());
    if (Function *full = M.getFunction((K->getName() + FullVariantSuffix).str()))
      emitThreadThunk(M, *full, sim::abi::FullThunkPrefix + K->getName());
    emitBlockLoop(M, *K);
    emitFacts(M, *K);
  }
  return PreservedAnalyses::none();
}

} // namespace musa::jit
