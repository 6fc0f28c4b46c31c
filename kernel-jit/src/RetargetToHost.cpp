// RetargetToHostPass: makes NVPTX device IR host IR and records which functions are kernels.
//
// NVPTX marks kernels in !nvvm.annotations ({fn, !"kernel", i32 1}) and may give them the
// ptx_kernel calling convention; both mean nothing to the host backend, so the kernel list is
// moved to our own named metadata before they are dropped. NVPTX target-cpu/features
// attributes would make x86 codegen reject the functions. A device pass at -O0 marks every
// function optnone+noinline; the JIT always optimises (the user's -O0 asks for debuggable host
// code, not a slow simulator), so those are removed together.
#include "musa/jit/DeviceLowering.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace musa::jit {

std::vector<Function *> getKernels(Module &M) {
  std::vector<Function *> kernels;
  if (NamedMDNode *list = M.getNamedMetadata(KernelListMD))
    for (MDNode *node : list->operands())
      if (auto *name = dyn_cast<MDString>(node->getOperand(0)))
        if (Function *F = M.getFunction(name->getString()))
          kernels.push_back(F);
  return kernels;
}

static void recordKernels(Module &M) {
  SmallVector<Function *, 8> kernels;
  if (NamedMDNode *ann = M.getNamedMetadata("nvvm.annotations")) {
    for (MDNode *node : ann->operands()) {
      if (node->getNumOperands() < 3)
        continue;
      auto *fnMD = dyn_cast_or_null<ValueAsMetadata>(node->getOperand(0).get());
      auto *kind = dyn_cast_or_null<MDString>(node->getOperand(1).get());
      auto *F = fnMD ? dyn_cast<Function>(fnMD->getValue()) : nullptr;
      if (!F || !kind)
        continue;
      if (kind->getString() == "kernel")
        kernels.push_back(F);
      // __launch_bounds__(N): clang writes maxntidx = N; the runtime refuses larger blocks.
      if (kind->getString() == "maxntidx")
        F->setMetadata(MaxThreadsMD, MDNode::get(M.getContext(), {node->getOperand(2)}));
    }
  }
  for (Function &F : M)
    if (F.getCallingConv() == CallingConv::PTX_Kernel && !is_contained(kernels, &F))
      kernels.push_back(&F);
  NamedMDNode *list = M.getOrInsertNamedMetadata(KernelListMD);
  for (Function *F : kernels)
    list->addOperand(MDNode::get(M.getContext(), MDString::get(M.getContext(), F->getName())));
}

PreservedAnalyses RetargetToHostPass::run(Module &M, ModuleAnalysisManager &) {
  recordKernels(M);
  if (NamedMDNode *ann = M.getNamedMetadata("nvvm.annotations"))
    M.eraseNamedMetadata(ann);
  M.setTargetTriple(triple);
  M.setDataLayout(dataLayout);
  // __device__ (addrspace 1) and __constant__ (addrspace 4) variables must be found by name
  // for the symbol API (musaMemcpyToSymbol, musaGetSymbolAddress), even file-static ones.
  for (GlobalVariable &G : M.globals()) {
    unsigned as = G.getAddressSpace();
    if (as == 4 && !G.isDeclaration()) // __isConstant() (LowerDeviceCalls) still knows them
      G.setMetadata("musa.constant", MDNode::get(M.getContext(), {}));
    if ((as == 1 || as == 4) && G.hasName() && !G.isDeclaration() && G.hasLocalLinkage() &&
        !G.getName().starts_with(".")) {
      G.setLinkage(GlobalValue::ExternalLinkage);
      G.setVisibility(GlobalValue::DefaultVisibility);
      G.setUnnamedAddr(GlobalValue::UnnamedAddr::None);
    }
  }
  for (Function &F : M) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("nvptx-f32ftz");
    if (F.hasFnAttribute(Attribute::OptimizeNone)) {
      F.removeFnAttr(Attribute::OptimizeNone);
      F.removeFnAttr(Attribute::NoInline);
    }
    F.setCallingConv(CallingConv::C);
    for (Instruction &I : instructions(F))
      if (auto *call = dyn_cast<CallBase>(&I))
        call->setCallingConv(CallingConv::C);
  }
  return PreservedAnalyses::none();
}

} // namespace musa::jit
