// LowerSharedMemoryPass: places __shared__ variables in the running block's buffer.
//
// Before:  @t = internal addrspace(3) global [64 x float] undef
//          store float %v, ptr addrspacecast (ptr addrspace(3) @t to ptr)
// After:   %base = load ptr, ptr (gep %ctx, SharedOffset)
//          %t    = addrspacecast (gep i8 %base, <offset of t>) to ptr addrspace(3)
//          store float %v, ptr addrspacecast (ptr addrspace(3) %t to ptr)
//
// Static variables get one module-wide offset each (see layOut: kernels overlap, so each
// kernel's static size is only what its own call tree uses), which lets a device function
// reached from two kernels find its variable at the same offset in both. Every
// `extern __shared__` array aliases ctx->dynamicShared, which the executor points after the
// running kernel's static variables (rounded up to DynamicSharedAlign), as on hardware.
#include "musa/jit/DeviceLowering.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"

using namespace llvm;

namespace musa::jit {

namespace {
constexpr unsigned SharedAddrSpace = 3;

bool isDynamicShared(const GlobalVariable &G) {
  if (G.hasInitializer() && !G.hasExternalLinkage())
    return false;
  auto *arr = dyn_cast<ArrayType>(G.getValueType());
  return G.isDeclaration() || (arr && arr->getNumElements() == 0);
}

/// Shared variables reached from a kernel through direct calls (and any address-taken use).
SmallVector<GlobalVariable *, 8> sharedVariablesOf(Function &K) {
  SmallPtrSet<Function *, 16> seen;
  SmallVector<Function *, 16> work{&K};
  SmallVector<GlobalVariable *, 8> used;
  while (!work.empty()) {
    Function *F = work.pop_back_val();
    if (!seen.insert(F).second || F->isDeclaration())
      continue;
    // Operands and the constant expressions inside them: a variable whose address reaches
    // inline assembly as an integer (ptrtoint of an addrspacecast) is used as much as one
    // loaded from directly.
    SmallVector<Value *, 16> values;
    for (Instruction &I : instructions(*F))
      values.append(I.op_begin(), I.op_end());
    SmallPtrSet<Value *, 32> visited;
    while (!values.empty()) {
      Value *v = values.pop_back_val();
      if (!visited.insert(v).second)
        continue;
      if (auto *G = dyn_cast<GlobalVariable>(v);
          G && G->getAddressSpace() == SharedAddrSpace && !is_contained(used, G))
        used.push_back(G);
      else if (auto *callee = dyn_cast<Function>(v))
        work.push_back(callee);
      else if (auto *expr = dyn_cast<ConstantExpr>(v))
        values.append(expr->op_begin(), expr->op_end());
    }
  }
  return used;
}

/// Offsets of static variables. Kernels overlap each other from offset 0; a variable reached
/// from several kernels goes after the current end of all of them, so no kernel sees two of
/// its variables overlap. Sets each kernel's static size as metadata for EmitKernelThunksPass.
DenseMap<GlobalVariable *, uint64_t> layOut(Module &M) {
  const DataLayout &DL = M.getDataLayout();
  std::vector<Function *> kernels = getKernels(M);
  DenseMap<Function *, SmallVector<GlobalVariable *, 8>> varsOf;
  for (Function *K : kernels)
    varsOf[K] = sharedVariablesOf(*K);
  DenseMap<Function *, uint64_t> endOf;
  DenseMap<GlobalVariable *, uint64_t> offsetOf;
  for (GlobalVariable &G : M.globals()) {
    if (G.getAddressSpace() != SharedAddrSpace || isDynamicShared(G))
      continue;
    uint64_t align = std::max<uint64_t>(G.getAlign().valueOrOne().value(),
                                        DL.getABITypeAlign(G.getValueType()).value());
    uint64_t offset = 0;
    for (Function *K : kernels)
      if (is_contained(varsOf[K], &G))
        offset = std::max(offset, alignTo(endOf[K], align));
    uint64_t end = offset + DL.getTypeAllocSize(G.getValueType());
    for (Function *K : kernels)
      if (is_contained(varsOf[K], &G))
        endOf[K] = end;
    offsetOf[&G] = offset;
  }
  LLVMContext &C = M.getContext();
  for (Function *K : kernels)
    K->setMetadata("musa.static_shared",
                   MDNode::get(C, ConstantAsMetadata::get(
                                      ConstantInt::get(Type::getInt64Ty(C), endOf[K]))));
  return offsetOf;
}

Value *contextPointer(Function &F, unsigned fieldOffset, const char *name,
                      DenseMap<std::pair<Function *, unsigned>, Value *> &cache) {
  auto [it, inserted] = cache.try_emplace({&F, fieldOffset}, nullptr);
  if (!inserted)
    return it->second;
  IRBuilder<> b(&*F.getEntryBlock().getFirstInsertionPt());
  Value *slot = b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), getContextArg(F), fieldOffset);
  it->second = b.CreateLoad(b.getPtrTy(), slot, name);
  return it->second;
}

void replaceInFunctions(GlobalVariable &G, unsigned baseField, uint64_t offset,
                        DenseMap<std::pair<Function *, unsigned>, Value *> &bases) {
  SmallVector<Use *, 16> uses;
  for (Use &U : G.uses())
    uses.push_back(&U);
  for (Use *U : uses) {
    auto *user = dyn_cast<Instruction>(U->getUser());
    if (!user || !getContextArg(*user->getFunction()))
      continue; // uses outside device code cannot exist after constant expansion
    Function &F = *user->getFunction();
    Value *base = contextPointer(F, baseField, "musa.shared", bases);
    IRBuilder<> b(cast<Instruction>(base)->getNextNode());
    Value *raw = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), base, offset, G.getName());
    U->set(b.CreateAddrSpaceCast(raw, G.getType()));
  }
}
} // namespace

PreservedAnalyses LowerSharedMemoryPass::run(Module &M, ModuleAnalysisManager &) {
  DenseMap<GlobalVariable *, uint64_t> offsetOf = layOut(M);
  DenseMap<std::pair<Function *, unsigned>, Value *> bases;
  SmallVector<GlobalVariable *, 8> done;
  // Constant expressions of every variable become instructions before any base pointer
  // exists: the expansion of one feeding a phi lands at the top of the incoming block, and
  // in the entry block it would precede a base pointer made for an earlier variable (a
  // ping-pong of two shared arrays swapped through pointers in a loop).
  SmallVector<Constant *, 8> shared;
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() == SharedAddrSpace)
      shared.push_back(&G);
  convertUsersOfConstantsToInstructions(shared);
  for (GlobalVariable &G : M.globals()) {
    if (G.getAddressSpace() != SharedAddrSpace)
      continue;
    if (isDynamicShared(G))
      replaceInFunctions(G, sim::abi::DynamicSharedOffset, 0, bases);
    else
      replaceInFunctions(G, sim::abi::SharedOffset, offsetOf.lookup(&G), bases);
    done.push_back(&G);
  }
  for (GlobalVariable *G : done)
    if (G->use_empty())
      G->eraseFromParent();
  return PreservedAnalyses::none();
}

} // namespace musa::jit
