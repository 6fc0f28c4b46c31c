// LowerInlineAsmPass: the inline PTX assembly that GPU programs commonly write becomes the
// operation it stands for, so that the host code generator never sees PTX text (which it
// cannot assemble: without this pass such a kernel aborted the process).
//
// Recognised, one instruction per asm statement (whitespace and a trailing ';' ignored):
//   mov.u32/u64 $0, %laneid | %warpid | %smid | %nsmid | %clock | %clock64 | %globaltimer |
//                   %tid.x ... |
//                   %lanemask_eq | _lt | _le | _gt | _ge          the special register
//   membar.cta | membar.gl | membar.sys | fence.* (no operands)   a sequentially consistent fence
//   bar.sync 0 | barrier.sync 0                                    __syncthreads()
//   prefetch.* / prefetchu.* [$0]                                  nothing (a hint)
//   ld.<qualifiers>.<type> $0, [$k(+offset)]                       a load of that width
//   st.<qualifiers>.<type> [$k(+offset)], $m                       a store (.volatile kept,
//                                                   .relaxed/.acquire/.release as orderings)
//   an empty statement ("" with or without clobbers)               a compiler barrier
// Anything else prints its text and traps when a thread reaches it (musaErrorLaunchFailure
// for that launch; the module's other kernels are unaffected).
#include "musa/jit/DeviceLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

namespace musa::jit {
namespace {

/// The statement with runs of whitespace as one space, trimmed, without a trailing ';'.
std::string normalise(StringRef text) {
  std::string out;
  for (char c : text) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (space) {
      if (!out.empty() && out.back() != ' ')
        out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == ';'))
    out.pop_back();
  return out;
}

/// The NVVM intrinsic that reads special register `reg` (as the asm names it), or "".
std::string specialRegisterIntrinsic(StringRef reg) {
  static const char *const direct[] = {"laneid", "warpid", "clock", "clock64", "globaltimer",
                                       "tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y",
                                       "ntid.z", "ctaid.x", "ctaid.y", "ctaid.z", "nctaid.x",
                                       "nctaid.y", "nctaid.z", "smid", "nsmid"};
  for (const char *name : direct)
    if (reg == name)
      return std::string("llvm.nvvm.read.ptx.sreg.") + name;
  for (const char *mask : {"lanemask_eq", "lanemask_lt", "lanemask_le", "lanemask_gt",
                           "lanemask_ge"})
    if (reg == mask)
      return std::string("llvm.nvvm.read.ptx.sreg.lanemask.") + (mask + 9);
  return {};
}

/// The call argument PTX operand `$k` names (outputs come first), or null.
Value *operand(CallInst &call, StringRef text) {
  unsigned k = 0;
  if (!text.consume_front("$") || text.getAsInteger(10, k))
    return nullptr;
  unsigned outputs = call.getType()->isVoidTy() ? 0 : 1;
  return k >= outputs && k - outputs < call.arg_size() ? call.getArgOperand(k - outputs) : nullptr;
}

/// ld.* / st.* with one scalar operand and an address `[$k]` or `[$k+offset]`: the load or
/// store it makes (state space and cache qualifiers are hints here; .volatile stays volatile,
/// .relaxed/.acquire/.release become atomic orderings).
bool lowerLoadStore(CallInst &call, StringRef t) {
  bool load = t.consume_front("ld.");
  if (!load && !t.consume_front("st."))
    return false;
  auto [opcode, operands] = t.split(' ');
  SmallVector<StringRef, 6> parts;
  opcode.split(parts, '.');
  bool isVolatile = false;
  AtomicOrdering ordering = AtomicOrdering::NotAtomic;
  unsigned bits = 0;
  bool isSigned = false, isFloat = false;
  for (StringRef q : parts) {
    if (q == "volatile")
      isVolatile = true;
    else if (q == "relaxed")
      ordering = AtomicOrdering::Monotonic;
    else if (q == "acquire" || q == "release")
      ordering = load ? AtomicOrdering::Acquire : AtomicOrdering::Release;
    else if (q.size() >= 2 && StringRef("usbf").contains(q[0]) && !q.drop_front().getAsInteger(10, bits))
      isSigned = q[0] == 's', isFloat = q[0] == 'f';
    else if (q.starts_with("v") && q.size() <= 2) // vector forms: not handled here
      return false;
  }
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
    return false;
  // "$0, [$1+8]" (load) or "[$0], $1" (store).
  auto [first, second] = operands.split(',');
  StringRef address = (load ? second : first).trim(), valueText = (load ? first : second).trim();
  if (!address.consume_front("[") || !address.consume_back("]"))
    return false;
  auto [base, offsetText] = address.split('+');
  int64_t offset = 0;
  if (!offsetText.trim().empty() && offsetText.trim().getAsInteger(0, offset))
    return false;
  Value *pointer = operand(call, base.trim());
  if (!pointer || (load && valueText != "$0"))
    return false;
  IRBuilder<> b(&call);
  if (pointer->getType()->isIntegerTy())
    pointer = b.CreateIntToPtr(pointer, b.getPtrTy());
  else if (!pointer->getType()->isPointerTy())
    return false;
  pointer = b.CreateConstGEP1_64(b.getInt8Ty(), pointer, offset);
  Type *memType = isFloat ? (bits == 64 ? b.getDoubleTy() : bits == 32 ? b.getFloatTy() : nullptr)
                          : b.getIntNTy(bits);
  if (!memType)
    return false;
  Align align(bits / 8);
  if (load) {
    Type *resultType = call.getType();
    if (!resultType->isIntegerTy() && !resultType->isFloatingPointTy())
      return false;
    LoadInst *value = b.CreateAlignedLoad(memType, pointer, align, isVolatile);
    if (ordering != AtomicOrdering::NotAtomic)
      value->setAtomic(ordering);
    Value *result = value;
    if (resultType != memType) {
      if (isFloat || resultType->isFloatingPointTy()) {
        if (resultType->getPrimitiveSizeInBits() != memType->getPrimitiveSizeInBits())
          return false;
        result = b.CreateBitCast(value, resultType);
      } else {
        result = b.CreateIntCast(value, resultType, isSigned);
      }
    }
    call.replaceAllUsesWith(result);
  } else {
    Value *value = operand(call, valueText);
    if (!value || !call.getType()->isVoidTy())
      return false;
    if (value->getType()->isFloatingPointTy() || isFloat) {
      if (value->getType()->getPrimitiveSizeInBits() != bits)
        return false;
      value = b.CreateBitCast(value, memType);
    } else if (value->getType()->isIntegerTy()) {
      value = b.CreateIntCast(value, memType, false);
    } else {
      return false;
    }
    StoreInst *store = b.CreateAlignedStore(value, pointer, align, isVolatile);
    if (ordering != AtomicOrdering::NotAtomic)
      store->setAtomic(ordering);
  }
  call.eraseFromParent();
  return true;
}

/// Replaces `call` (an inline asm statement) with what it does; false if not recognised.
bool lower(CallInst &call, const std::string &text) {
  IRBuilder<> b(&call);
  Module &M = *call.getModule();
  StringRef t(text);
  if (t.empty()) { // asm volatile("" ::: "memory"): only orders memory for the compiler
    b.CreateFence(AtomicOrdering::SequentiallyConsistent, SyncScope::SingleThread);
    call.eraseFromParent();
    return true;
  }
  if (t == "membar.cta" || t == "membar.gl" || t == "membar.sys" ||
      (t.starts_with("fence.") && !t.contains(' '))) {
    b.CreateFence(AtomicOrdering::SequentiallyConsistent);
    call.eraseFromParent();
    return true;
  }
  if (t == "bar.sync 0" || t == "barrier.sync 0" || t == "bar.sync 0, 0") {
    CallInst *barrier = b.CreateCall(M.getOrInsertFunction(
        "llvm.nvvm.barrier0", FunctionType::get(b.getVoidTy(), false)));
    barrier->addFnAttr(Attribute::Convergent);
    call.eraseFromParent();
    return true;
  }
  if (lowerLoadStore(call, t))
    return true;
  if ((t.starts_with("prefetch.") || t.starts_with("prefetchu.")) && call.getType()->isVoidTy()) {
    call.eraseFromParent();
    return true;
  }
  // mov.u32 $0, %reg / mov.u64 $0, %reg / mov.b32 ...
  if (t.consume_front("mov.") && (t.consume_front("u32 ") || t.consume_front("u64 ") ||
                                  t.consume_front("b32 ") || t.consume_front("b64 ") ||
                                  t.consume_front("s32 "))) {
    if (!t.consume_front("$0, %") && !t.consume_front("$0,%"))
      return false;
    std::string intrinsic = specialRegisterIntrinsic(t);
    if (intrinsic.empty() || !call.getType()->isIntegerTy())
      return false;
    bool wide = StringRef(intrinsic).ends_with("clock64") ||
                StringRef(intrinsic).ends_with("globaltimer");
    Type *regType = wide ? b.getInt64Ty() : b.getInt32Ty();
    Value *value =
        b.CreateCall(M.getOrInsertFunction(intrinsic, FunctionType::get(regType, false)));
    call.replaceAllUsesWith(b.CreateZExtOrTrunc(value, call.getType()));
    call.eraseFromParent();
    return true;
  }
  return false;
}

/// A statement the simulator does not implement: the thread that reaches it prints which one
/// and traps (the launch fails with musaErrorLaunchFailure), so the module's other kernels
/// still run. No PTX text is left for the host code generator.
void refuseAtRunTime(CallInst &call, const std::string &text) {
  Module &M = *call.getModule();
  IRBuilder<> b(&call);
  std::string message = "musa-sim: inline PTX the simulator does not implement: asm(\"";
  for (char c : text) // printf's format: a '%' stands for itself
    message += c == '%' ? std::string("%%") : std::string(1, c);
  message += "\")\n";
  Type *ptrTy = b.getPtrTy();
  b.CreateCall(M.getOrInsertFunction("vprintf", FunctionType::get(b.getInt32Ty(),
                                                                  {ptrTy, ptrTy}, false)),
               {b.CreateGlobalStringPtr(message), ConstantPointerNull::get(b.getPtrTy())});
  b.CreateCall(M.getOrInsertFunction("llvm.trap", FunctionType::get(b.getVoidTy(), false)));
  if (!call.getType()->isVoidTy())
    call.replaceAllUsesWith(PoisonValue::get(call.getType()));
  call.eraseFromParent();
}

} // namespace

PreservedAnalyses LowerInlineAsmPass::run(Module &M, ModuleAnalysisManager &) {
  SmallVector<std::pair<CallInst *, std::string>, 8> statements;
  for (Function &F : M)
    for (BasicBlock &B : F)
      for (Instruction &I : B)
        if (auto *call = dyn_cast<CallInst>(&I))
          if (auto *asmText = dyn_cast<InlineAsm>(call->getCalledOperand()))
            statements.push_back({call, normalise(asmText->getAsmString())});
  for (auto &[call, text] : statements)
    if (!lower(*call, text))
      refuseAtRunTime(*call, text);
  return statements.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

} // namespace musa::jit
