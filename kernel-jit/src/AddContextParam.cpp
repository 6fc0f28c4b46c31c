// AddContextParamPass: threads the GPU thread's context through every device function.
//
// Before:  define void @k(ptr %a)            { call void @f(i32 1) }
// After:   define void @k(ptr %a, ptr %ctx)  { call void @f(i32 1, ptr %ctx) }
//
// Why a parameter rather than a thread-local: the JIT'd object has no TLS support of its own,
// and a call into the runtime per `threadIdx` read would dominate small kernels. A parameter
// is one register; after inlining, loads from it are CSE'd. Every *defined* function gains the
// parameter, so an indirect call (device function pointer) always passes it too: all address-
// taken device functions have the extended signature. Declarations are host library functions
// (libm, builtins) and are called unchanged.
#include "musa/jit/DeviceLowering.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace musa::jit {

Argument *getContextArg(Function &F) {
  if (!F.hasFnAttribute(ContextAttr) || F.arg_empty())
    return nullptr;
  return F.getArg(F.arg_size() - 1);
}

bool readsThreadClock(const Module &M) {
  for (const char *name : {sim::abi::Clock64Fn, sim::abi::GlobalTimerFn, sim::abi::NanosleepFn})
    if (const Function *F = M.getFunction(name); F && !F->use_empty())
      return true;
  return false;
}

static FunctionType *withContext(FunctionType *type) {
  SmallVector<Type *, 8> params(type->params());
  params.push_back(PointerType::getUnqual(type->getContext()));
  return FunctionType::get(type->getReturnType(), params, type->isVarArg());
}

/// Facts clang derived about the device function that stop being true once it reads the
/// context: a `__noinline__` helper returning threadIdx.x is `memory(none)` on the device, but
/// its lowered body loads from ctx, and a host optimiser trusting the old attribute would hoist
/// the call out of the block's thread loop. The host pipeline re-derives what still holds.
static AttributeList stripInvalidated(LLVMContext &C, AttributeList attrs) {
  for (Attribute::AttrKind kind :
       {Attribute::Memory, Attribute::NoSync, Attribute::WillReturn, Attribute::Speculatable,
        Attribute::NoFree, Attribute::NoCallback})
    attrs = attrs.removeFnAttribute(C, kind);
  return attrs;
}

static void stripInvalidatedAttributes(Function &F) {
  F.setAttributes(stripInvalidated(F.getContext(), F.getAttributes()));
}

static Function *cloneSignature(Function &F) {
  Function *NF = Function::Create(withContext(F.getFunctionType()), F.getLinkage(),
                                  F.getAddressSpace(), "", F.getParent());
  NF->copyAttributesFrom(&F);
  stripInvalidatedAttributes(*NF);
  NF->setComdat(F.getComdat());
  NF->copyMetadata(&F, 0);
  NF->addFnAttr(ContextAttr);
  NF->addParamAttr(NF->arg_size() - 1, Attribute::NoUndef);
  NF->addDereferenceableParamAttr(NF->arg_size() - 1, sizeof(sim::ThreadContext));
  NF->addParamAttr(NF->arg_size() - 1,
                   Attribute::getWithAlignment(F.getContext(), Align(alignof(sim::ThreadContext))));
  // Not `noalias`, although kernel code reaches the context only through this parameter: the
  // block and region loops that call the kernel have a noalias context already, and inlining a
  // noalias parameter into their thread loop declares a fresh alias scope per iteration, which
  // stops the optimiser from keeping the timing counters in registers across the loop.
  NF->getArg(NF->arg_size() - 1)->setName("musa.ctx");
  NF->takeName(&F);
  return NF;
}

static void moveBody(Function &F, Function &NF) {
  NF.splice(NF.begin(), &F);
  for (auto [oldArg, newArg] : zip(F.args(), NF.args())) {
    newArg.takeName(&oldArg);
    oldArg.replaceAllUsesWith(&newArg);
  }
}

/// Rewrites one call in a lowered function to pass the context; returns the replacement.
static CallBase *passContext(CallBase &call, Value *callee, Value *ctx) {
  SmallVector<Value *, 8> args(call.args());
  args.push_back(ctx);
  SmallVector<OperandBundleDef, 1> bundles;
  call.getOperandBundlesAsDefs(bundles);
  FunctionType *type = withContext(call.getFunctionType());
  CallBase *newCall;
  if (auto *invoke = dyn_cast<InvokeInst>(&call))
    newCall = InvokeInst::Create(type, callee, invoke->getNormalDest(), invoke->getUnwindDest(),
                                 args, bundles, "", call.getIterator());
  else
    newCall = CallInst::Create(type, callee, args, bundles, "", call.getIterator());
  newCall->setCallingConv(call.getCallingConv());
  newCall->setDebugLoc(call.getDebugLoc());
  AttributeList attrs = call.getAttributes();
  SmallVector<AttributeSet, 8> paramAttrs;
  for (unsigned i = 0; i < call.arg_size(); ++i)
    paramAttrs.push_back(attrs.getParamAttrs(i));
  paramAttrs.push_back(AttributeSet());
  newCall->setAttributes(stripInvalidated(
      call.getContext(), AttributeList::get(call.getContext(), attrs.getFnAttrs(),
                                            attrs.getRetAttrs(), paramAttrs)));
  if (auto *ci = dyn_cast<CallInst>(&call))
    cast<CallInst>(newCall)->setTailCallKind(ci->getTailCallKind());
  newCall->takeName(&call);
  call.replaceAllUsesWith(newCall);
  call.eraseFromParent();
  return newCall;
}

PreservedAnalyses AddContextParamPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<std::pair<Function *, Function *>, 16> lowered;
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasFnAttribute(ContextAttr))
      lowered.push_back({&F, nullptr});
  for (auto &[F, NF] : lowered) {
    NF = cloneSignature(*F);
    moveBody(*F, *NF);
  }
  DenseMap<Function *, Function *> newOf;
  for (auto &[F, NF] : lowered)
    newOf[F] = NF;

  for (auto &[F, NF] : lowered) {
    Value *ctx = getContextArg(*NF);
    SmallVector<CallBase *, 16> calls;
    for (Instruction &I : instructions(*NF))
      if (auto *call = dyn_cast<CallBase>(&I))
        calls.push_back(call);
    for (CallBase *call : calls) {
      Value *callee = call->getCalledOperand()->stripPointerCasts();
      if (auto *target = dyn_cast<Function>(callee)) {
        auto it = newOf.find(target);
        if (it != newOf.end())
          passContext(*call, it->second, ctx);
      } else if (!call->isInlineAsm()) {
        passContext(*call, call->getCalledOperand(), ctx);
      }
    }
  }
  // Remaining uses are address-taken functions (pointers in globals, stores, comparisons).
  for (auto &[F, NF] : lowered) {
    F->replaceAllUsesWith(NF);
    F->eraseFromParent();
  }
  return PreservedAnalyses::none();
}

} // namespace musa::jit
