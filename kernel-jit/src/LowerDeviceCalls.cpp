// LowerDeviceCallsPass: NVPTX intrinsics and device library calls become host operations.
//
//   llvm.nvvm.read.ptx.sreg.{tid,ntid,ctaid,nctaid}.{x,y,z}, warpsize, laneid, reads of the
//   headers' `extern const int warpSize` (the intrinsic is folded to 32 upstream) and
//   __musa_sim_warp_size() (earlier headers' warpSize)
//                                   -> i32 loads from the context (see KernelAbi.h)
//   llvm.nvvm.read.ptx.sreg.laneid  -> linear thread index % warp size
//   llvm.nvvm.barrier0              -> call __musa_sim_barrier(ctx)   (fiber switch)
//   llvm.nvvm.barrier.sync(.cnt), .barrier.n, .barrier, .bar.sync (bar.sync a{, b})
//                                   -> the same for barrier 0 without a count, else
//                                      call __musa_sim_named_barrier(a, b or 0, 0, ctx)
//   __musa_sim_warp, __musa_sim_barrier_reduce, __musa_sim_active_mask (header builtins)
//                                   -> the same call with ctx appended (convergent); a
//                                      WarpConverge call also gets its site number as `arg`
//                                      (lanes at the same site form one coalesced group)
//   llvm.nvvm.membar.{cta,gl,sys}   -> fence seq_cst, its scope as metadata
//   llvm.nvvm.atomic.load.{inc,dec}.32 (atomicInc, atomicDec)
//                                   -> atomicrmw uinc_wrap, udec_wrap
//   vprintf(fmt, buf)               -> call __musa_sim_vprintf(fmt, buf, ctx)
//   __assertfail(e, f, l, fn, cs)   -> call __musa_sim_assertfail(e, f, l, fn, cs, ctx)
//   malloc(n), free(p) (the headers name them __musa_device_malloc/free)
//                                   -> call __musa_sim_malloc(n, ctx), __musa_sim_free(p, ctx)
//   __musa_device_launch(kernel, ...), __musa_device_last_error(reset) (device-side launches)
//                                   -> call __musa_sim_launch_device(name, ..., ctx) (the
//                                      kernel's address becomes its name), _last_error(r, ctx)
//   llvm.trap                       -> call __musa_sim_trap(ctx)
//   llvm.nvvm.read.ptx.sreg.clock, clock64, globaltimer
//                                   -> call __musa_sim_clock64/globaltimer(ctx)
//   __musa_sim_cvta_to_shared(p), __musa_sim_shared_address(a) (the .shared window)
//                                   -> offsets from / addresses in the context's shared memory
//   __musa_sim_sreg_dynamic_smem_size, _total_smem_size (inline PTX's special registers)
//                                   -> from the context's shared-memory fields
// The loads are not marked invariant: the JIT'd block loop (EmitKernelThunksPass) stores the
// next thread's index into the same context; the context parameter is `noalias` instead, so
// reads are still merged across the kernel's own stores. Any other nvvm intrinsic is
// reported by name (lowerDeviceModule fails) rather than miscompiled.
#include "musa/jit/DeviceLowering.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using llvm::PatternMatch::m_Zero;
using llvm::PatternMatch::match;

namespace musa::jit {

namespace {

/// Byte offset in ThreadContext of a special register, or -1 if the name is not one.
int specialRegisterOffset(StringRef name) {
  if (name == sim::abi::WarpSizeFn)
    return sim::abi::WarpSizeOffset;
  if (!name.consume_front("llvm.nvvm.read.ptx.sreg."))
    return -1;
  if (name == "warpsize")
    return sim::abi::WarpSizeOffset;
  static const std::pair<StringRef, unsigned> bases[] = {
      {"tid.", sim::abi::TidOffset},
      {"ntid.", sim::abi::NtidOffset},
      {"ctaid.", sim::abi::CtaidOffset},
      {"nctaid.", sim::abi::NctaidOffset}};
  for (auto [prefix, base] : bases) {
    StringRef axis = name;
    if (!axis.consume_front(prefix) || axis.size() != 1 || axis[0] < 'x' || axis[0] > 'z')
      continue;
    return int(base + 4 * (axis[0] - 'x'));
  }
  return -1;
}

/// The warp size from the context, in a form the optimiser knows to be a power of two (the
/// lowest set bit of the field, which is the field itself: profiles have 32 or 128 lanes), so
/// that `% warpSize` and `/ warpSize` become masks and shifts.
Value *loadWarpSize(IRBuilder<> &b, Value *ctx) {
  LoadInst *size = b.CreateLoad(
      b.getInt32Ty(), b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, sim::abi::WarpSizeOffset));
  MDBuilder md(b.getContext());
  size->setMetadata(LLVMContext::MD_range, md.createRange(APInt(32, 1), APInt(32, 1025)));
  return b.CreateAnd(size, b.CreateNeg(size));
}

FunctionCallee builtin(Module &M, const char *name, Type *ret, ArrayRef<Type *> params) {
  return M.getOrInsertFunction(name, FunctionType::get(ret, params, false));
}

/// Replaces `call` with a call of simdevice builtin `name` taking the same arguments plus the
/// context; the new call yields what the old one did.
CallInst *callWithContext(IRBuilder<> &b, CallInst &call, const std::string &name, Value *ctx) {
  SmallVector<Value *, 6> args(call.args());
  SmallVector<Type *, 6> types;
  for (Value *arg : args)
    types.push_back(arg->getType());
  args.push_back(ctx);
  types.push_back(b.getPtrTy());
  CallInst *lowered =
      b.CreateCall(builtin(*call.getModule(), name.c_str(), call.getType(), types), args);
  if (MDNode *lockstep = call.getMetadata(LockstepMetadata))
    lowered->setMetadata(LockstepMetadata, lockstep);
  call.replaceAllUsesWith(lowered);
  call.eraseFromParent();
  return lowered;
}

/// A WarpConverge collective (the headers' __activemask and coalesced_threads) names its
/// call site in `arg`: a hash of the function's name and the call's position in it, so that
/// sites differ across functions and modules (see musa/sim/WarpCollective.h).
void numberConvergeSite(CallInst &call) {
  auto *op = dyn_cast<ConstantInt>(call.getArgOperand(0));
  if (!op || op->getZExtValue() != sim::abi::WarpConvergeOp)
    return;
  Function &F = *call.getFunction();
  uint32_t position = 0;
  for (Instruction &I : instructions(F)) {
    if (&I == &call)
      break;
    ++position;
  }
  uint64_t site = hash_combine(hash_value(F.getName()), position);
  call.setArgOperand(3, ConstantInt::get(call.getArgOperand(3)->getType(), uint32_t(site)));
}

/// Rewrites one call; returns false if it is an nvvm intrinsic we do not support.
bool lowerCall(CallInst &call, Value *ctx) {
  Function *callee = call.getCalledFunction();
  if (!callee)
    return true;
  StringRef name = callee->getName();
  Module &M = *call.getModule();
  IRBuilder<> b(&call);
  Type *ptrTy = b.getPtrTy();

  if (name == "llvm.nvvm.read.ptx.sreg.laneid" || name == "llvm.nvvm.read.ptx.sreg.warpid" ||
      name.starts_with("llvm.nvvm.read.ptx.sreg.lanemask.")) {
    // Lane and warp come from the linear thread index and the warp size; computed here so the
    // fiber-free block loop needs no per-thread lane field.
    auto field = [&](unsigned offset) {
      return b.CreateLoad(b.getInt32Ty(), b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, offset));
    };
    Value *linear = b.CreateAdd(
        field(sim::abi::TidOffset),
        b.CreateMul(field(sim::abi::NtidOffset),
                    b.CreateAdd(field(sim::abi::TidOffset + 4),
                                b.CreateMul(field(sim::abi::NtidOffset + 4),
                                            field(sim::abi::TidOffset + 8)))));
    Value *warpSize = loadWarpSize(b, ctx);
    Value *result;
    if (name.ends_with("warpid")) {
      result = b.CreateUDiv(linear, warpSize);
    } else if (name.ends_with("laneid")) {
      result = b.CreateURem(linear, warpSize);
    } else {
      // %lanemask_*: 32-bit masks of the lane's 32-lane slice (as vote masks on 128-lane
      // warps are read), relative to the lane's bit.
      Value *bit = b.CreateShl(b.getInt32(1), b.CreateAnd(linear, b.getInt32(31)));
      Value *below = b.CreateSub(bit, b.getInt32(1));
      StringRef kind = name.substr(name.rfind('.') + 1);
      result = kind == "eq"   ? bit
               : kind == "lt" ? below
               : kind == "le" ? b.CreateOr(below, bit)
               : kind == "gt" ? b.CreateNot(b.CreateOr(below, bit))
                              : b.CreateNot(below); // ge
    }
    call.replaceAllUsesWith(b.CreateZExtOrTrunc(result, call.getType()));
    call.eraseFromParent();
    return true;
  }
  if (name == "llvm.nvvm.read.ptx.sreg.clock64" || name == "llvm.nvvm.read.ptx.sreg.clock" ||
      name == "llvm.nvvm.read.ptx.sreg.globaltimer") {
    bool timer = name.ends_with("globaltimer");
    Value *now = b.CreateCall(builtin(M, timer ? sim::abi::GlobalTimerFn : sim::abi::Clock64Fn,
                                      b.getInt64Ty(), {ptrTy}),
                              {ctx});
    call.replaceAllUsesWith(b.CreateZExtOrTrunc(now, call.getType()));
    call.eraseFromParent();
    return true;
  }
  if (name == sim::abi::CvtaToSharedFn || name == sim::abi::SharedAddressFn) {
    // The block's shared memory is the .shared window: offsets from its start. An address
    // already inside it (a generic pointer passed where PTX wants a .shared one) stays; others
    // are offsets, of which the window's 32 bits count (as on the GPU).
    auto field = [&](unsigned offset, Type *T) {
      return b.CreateLoad(T, b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, offset));
    };
    Value *start = b.CreatePtrToInt(field(sim::abi::SharedOffset, ptrTy), b.getInt64Ty());
    Value *arg = call.getArgOperand(0);
    Value *result;
    if (name == sim::abi::CvtaToSharedFn) {
      result = b.CreateSub(b.CreatePtrToInt(arg, b.getInt64Ty()), start);
    } else {
      Value *v = b.CreateZExtOrTrunc(arg, b.getInt64Ty());
      Value *inside = b.CreateICmpULT(b.CreateSub(v, start),
                                      field(sim::abi::SharedLimitOffset, b.getInt64Ty()));
      Value *offset = b.CreateAnd(v, b.getInt64(0xffffffffu));
      result = b.CreateIntToPtr(b.CreateSelect(inside, v, b.CreateAdd(start, offset)), ptrTy);
    }
    call.replaceAllUsesWith(result->getType() == call.getType()
                                ? result
                                : b.CreateZExtOrTrunc(result, call.getType()));
    call.eraseFromParent();
    return true;
  }
  if (name == "__musa_sim_sreg_dynamic_smem_size" || name == "__musa_sim_sreg_total_smem_size") {
    // Inline PTX's %dynamic_smem_size / %total_smem_size (LowerInlineAsm): the launch's
    // dynamic shared bytes (after the static ones) / the block's static and dynamic bytes.
    auto field = [&](unsigned offset, Type *T) {
      return b.CreateLoad(T, b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, offset));
    };
    Value *total = field(sim::abi::SharedLimitOffset, b.getInt64Ty());
    Value *value = total;
    if (name.ends_with("dynamic_smem_size")) {
      Value *start = b.CreateSub(
          b.CreatePtrToInt(field(sim::abi::DynamicSharedOffset, ptrTy), b.getInt64Ty()),
          b.CreatePtrToInt(field(sim::abi::SharedOffset, ptrTy), b.getInt64Ty()));
      value = b.CreateSub(total, start);
    }
    call.replaceAllUsesWith(b.CreateZExtOrTrunc(value, call.getType()));
    call.eraseFromParent();
    return true;
  }
  if (name == "llvm.nvvm.read.ptx.sreg.smid" || name == "llvm.nvvm.read.ptx.sreg.nsmid") {
    bool count = name.ends_with("nsmid");
    Value *id = b.CreateCall(
        builtin(M, count ? sim::abi::SmCountFn : sim::abi::SmIdFn, b.getInt32Ty(), {ptrTy}),
        {ctx});
    call.replaceAllUsesWith(b.CreateZExtOrTrunc(id, call.getType()));
    call.eraseFromParent();
    return true;
  }
  if (name.starts_with("llvm.nvvm.isspacep.")) {
    // __isShared/__isLocal/__isGlobal/__isConstant. Shared: inside this block's shared
    // allocation; local: the thread's own stack; constant: a __constant__ variable of this
    // module (their address space is gone by now: RetargetToHost tags them
    // "musa.constant"); global: none of those.
    Value *p = b.CreatePtrToInt(call.getArgOperand(0), b.getInt64Ty());
    auto field = [&](unsigned offset, Type *T) {
      return b.CreateLoad(T, b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, offset));
    };
    Value *shared = b.CreateICmpULT(
        b.CreateSub(p, b.CreatePtrToInt(field(sim::abi::SharedOffset, ptrTy), b.getInt64Ty())),
        field(sim::abi::SharedLimitOffset, b.getInt64Ty()));
    auto local = [&] {
      return b.CreateICmpNE(
          b.CreateCall(builtin(M, sim::abi::IsLocalFn, b.getInt32Ty(), {ptrTy, ptrTy}),
                       {call.getArgOperand(0), ctx}),
          b.getInt32(0));
    };
    auto constant = [&]() -> Value * {
      Value *in = b.getFalse();
      for (GlobalVariable &g : M.globals()) {
        if (!g.hasMetadata("musa.constant") || g.isDeclaration())
          continue;
        uint64_t size = M.getDataLayout().getTypeAllocSize(g.getValueType());
        Value *offset = b.CreateSub(p, b.CreatePtrToInt(&g, b.getInt64Ty()));
        in = b.CreateOr(in, b.CreateICmpULT(offset, b.getInt64(size)));
      }
      return in;
    };
    StringRef space = name.substr(name.rfind('.') + 1);
    Value *result = space == "shared"  ? shared
                    : space == "local" ? local()
                    : space == "const" ? constant()
                                       : b.CreateNot(b.CreateOr(b.CreateOr(shared, local()),
                                                                constant()));
    call.replaceAllUsesWith(b.CreateZExtOrTrunc(result, call.getType()));
    call.eraseFromParent();
    return true;
  }
  if (StringRef target = name; target.consume_back(".header") &&
      (target == sim::abi::WarpFn || target == sim::abi::BarrierReduceFn ||
       target == sim::abi::ActiveMaskFn || target == sim::abi::NanosleepFn ||
       target == sim::abi::GridSyncFn || target == sim::abi::GridValidFn ||
       target == sim::abi::NamedBarrierFn)) {
    if (target == sim::abi::WarpFn)
      numberConvergeSite(call);
    callWithContext(b, call, target.str(), ctx)->addFnAttr(Attribute::Convergent);
    return true;
  }
  if (int offset = specialRegisterOffset(name); offset == int(sim::abi::WarpSizeOffset)) {
    call.replaceAllUsesWith(loadWarpSize(b, ctx));
    call.eraseFromParent();
    return true;
  }
  if (int offset = specialRegisterOffset(name); offset >= 0) {
    Value *slot = b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, unsigned(offset));
    LoadInst *value = b.CreateLoad(call.getType(), slot);
    call.replaceAllUsesWith(value);
    call.eraseFromParent();
    return true;
  }
  // bar.sync a{, b} / barrier.sync a{, b}: barrier 0 for the whole block is __syncthreads();
  // another barrier, or a thread count, is a named barrier.
  bool namedForm = name == "llvm.nvvm.barrier.sync" || name == "llvm.nvvm.barrier.n" ||
                   name == "llvm.nvvm.bar.sync" || name == "llvm.nvvm.barrier.sync.cnt" ||
                   name == "llvm.nvvm.barrier";
  if (name == "llvm.nvvm.barrier0" ||
      (namedForm && call.arg_size() == 1 && match(call.getArgOperand(0), m_Zero()))) {
    CallInst *barrier = b.CreateCall(
        builtin(M, sim::abi::BarrierFn, b.getVoidTy(), {ptrTy}), {ctx});
    barrier->addFnAttr(Attribute::Convergent);
    call.eraseFromParent();
    return true;
  }
  if (namedForm) {
    Value *count = call.arg_size() > 1 ? call.getArgOperand(1) : b.getInt32(0);
    CallInst *barrier = b.CreateCall(
        builtin(M, sim::abi::NamedBarrierFn, b.getVoidTy(),
                {b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty(), ptrTy}),
        {call.getArgOperand(0), count, b.getInt32(0), ctx});
    barrier->addFnAttr(Attribute::Convergent);
    call.eraseFromParent();
    return true;
  }
  if (name.starts_with("llvm.nvvm.atomic.load.inc.32") ||
      name.starts_with("llvm.nvvm.atomic.load.dec.32")) { // atomicInc, atomicDec
    Value *old = b.CreateAtomicRMW(name.contains(".inc.") ? AtomicRMWInst::UIncWrap
                                                           : AtomicRMWInst::UDecWrap,
                                   call.getArgOperand(0), call.getArgOperand(1), MaybeAlign(4),
                                   AtomicOrdering::Monotonic);
    call.replaceAllUsesWith(old);
    call.eraseFromParent();
    return true;
  }
  if (name.starts_with("llvm.nvvm.membar.")) {
    createScopedFence(b, name.ends_with(".cta")   ? FenceScope::Block
                         : name.ends_with(".sys") ? FenceScope::System
                                                  : FenceScope::Gpu);
    call.eraseFromParent();
    return true;
  }
  if (name == "vprintf") {
    Value *result = b.CreateCall(
        builtin(M, sim::abi::PrintfFn, b.getInt32Ty(), {ptrTy, ptrTy, ptrTy}),
        {call.getArgOperand(0), call.getArgOperand(1), ctx});
    call.replaceAllUsesWith(result);
    call.eraseFromParent();
    return true;
  }
  if (name == "__assertfail") {
    callWithContext(b, call, sim::abi::AssertFailFn, ctx);
    return true;
  }
  if (name == "__musa_device_malloc" || name == "__musa_device_free") { // the device heap
    callWithContext(b, call,
                    name == "__musa_device_malloc" ? sim::abi::MallocFn : sim::abi::FreeFn, ctx);
    return true;
  }
  if (name == "__musa_device_launch") { // dynamic parallelism (musa_device_runtime_api.h)
    // The runtime finds the child by its device name: the kernel's address becomes its name
    // (null when the launched function is not a kernel known here).
    auto *kernel = dyn_cast<Function>(call.getArgOperand(0)->stripPointerCasts());
    call.setArgOperand(0, kernel ? cast<Value>(b.CreateGlobalStringPtr(kernel->getName()))
                                 : ConstantPointerNull::get(b.getPtrTy()));
    callWithContext(b, call, sim::abi::LaunchDeviceFn, ctx);
    return true;
  }
  if (name == "__musa_device_last_error") {
    callWithContext(b, call, sim::abi::DeviceLastErrorFn, ctx);
    return true;
  }
  if (name == "llvm.trap") {
    b.CreateCall(builtin(M, sim::abi::TrapFn, b.getVoidTy(), {ptrTy}), {ctx});
    call.eraseFromParent();
    return true;
  }
  return !name.starts_with("llvm.nvvm.");
}

} // namespace

namespace {
/// Reads of the headers' `extern const int warpSize` (through address-space casts) become
/// reads of the profile's warp size from the context; the variable itself is never defined.
void lowerWarpSizeVariable(Module &M) {
  GlobalVariable *var = M.getNamedGlobal("warpSize");
  if (!var || !var->isDeclaration())
    return;
  SmallVector<User *, 16> users(var->users());
  SmallVector<LoadInst *, 16> loads;
  while (!users.empty()) {
    User *U = users.pop_back_val();
    if (auto *load = dyn_cast<LoadInst>(U))
      loads.push_back(load);
    else if (isa<ConstantExpr>(U) || isa<AddrSpaceCastInst>(U) || isa<BitCastInst>(U))
      users.append(U->user_begin(), U->user_end());
  }
  for (LoadInst *load : loads) {
    Argument *ctx = getContextArg(*load->getFunction());
    if (!ctx || !load->getType()->isIntegerTy())
      continue;
    IRBuilder<> b(load);
    load->replaceAllUsesWith(b.CreateZExtOrTrunc(loadWarpSize(b, ctx), load->getType()));
    load->eraseFromParent();
  }
  var->removeDeadConstantUsers();
  if (var->use_empty())
    var->eraseFromParent();
}
} // namespace

PreservedAnalyses LowerDeviceCallsPass::run(Module &M, ModuleAnalysisManager &) {
  lowerWarpSizeVariable(M);
  // The headers declare these without the context; that name gives way to the lowered one.
  for (const char *name : {sim::abi::WarpFn, sim::abi::BarrierReduceFn, sim::abi::ActiveMaskFn,
                           sim::abi::NanosleepFn, sim::abi::GridSyncFn, sim::abi::GridValidFn,
                           sim::abi::NamedBarrierFn})
    if (Function *F = M.getFunction(name); F && F->isDeclaration())
      F->setName(std::string(name) + ".header");
  SmallVector<std::string, 4> unsupported;
  for (Function &F : M) {
    Value *ctx = getContextArg(F);
    if (!ctx)
      continue;
    SmallVector<CallInst *, 32> calls;
    for (Instruction &I : instructions(F))
      if (auto *call = dyn_cast<CallInst>(&I))
        calls.push_back(call);
    for (CallInst *call : calls) {
      std::string name = call->getCalledFunction()
                             ? call->getCalledFunction()->getName().str() : std::string();
      if (!lowerCall(*call, ctx) && !is_contained(unsupported, name))
        unsupported.push_back(name);
    }
  }
  if (!unsupported.empty()) {
    NamedMDNode *list = M.getOrInsertNamedMetadata("musa.unsupported");
    for (const std::string &name : unsupported)
      list->addOperand(MDNode::get(M.getContext(), MDString::get(M.getContext(), name)));
  }
  return PreservedAnalyses::none();
}

} // namespace musa::jit
