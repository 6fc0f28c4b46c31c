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
