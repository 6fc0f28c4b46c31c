// MarkParallelThreadLoopsPass: a loop over a block's threads is a parallel loop, and says so.
//
// Between two barriers a block's threads run concurrently: a kernel whose result depended on
// the order of two threads' accesses to one location, with no barrier or atomic between them,
// has a data race (undefined in CUDA and MUSA alike). So the iterations of a thread loop (the
// block loop, or a region loop between park points) carry no dependence through memory, a
// fact the vectoriser cannot prove by itself: `s[tid] += s[tid + stride]` in a tree reduction
// reads and writes one array at a distance it does not know. This pass puts every memory
// access of the innermost thread loop in one access group and lists the group in the loop's
// `llvm.loop.parallel_accesses`.
//
// Only what the kernel's own semantics cover is claimed. The loop is left alone if it holds
//  - a volatile or atomic access, a fence, or a call that touches memory (warp-synchronous
//    code through volatile shared memory relies on the order of the threads; atomics and
//    calls do not vectorise anyway);
//  - a store of a value that changes from thread to thread to an address that does not (the
//    simulator's own per-block bookkeeping, such as the access-fault word or the thread's
//    index in the context, which the loop updates in order).
// Runs in the host optimiser just before SplitThreadGuardsPass (whose split loops keep the
// annotation) and the vectoriser.
#include "musa/jit/DeviceLowering.h"

#include "ThreadLoop.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

using namespace llvm;

namespace musa::jit {

namespace {

/// Whether every memory access of `L` may be claimed independent across iterations (see the
/// file comment); collects them in `accesses`.
bool claimable(Loop &L, ScalarEvolution &SE, SmallVectorImpl<Instruction *> &accesses) {
  auto invariant = [&](Value *v) {
    return L.isLoopInvariant(v) ||
           (SE.isSCEVable(v->getType()) && SE.isLoopInvariant(SE.getSCEV(v), &L));
  };
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (!I.mayReadOrWriteMemory())
        continue;
      if (auto *load = dyn_cast<LoadInst>(&I)) {
        if (!load->isSimple())
          return false;
      } else if (auto *store = dyn_cast<StoreInst>(&I)) {
        if (!store->isSimple() ||
            (invariant(store->getPointerOperand()) && !invariant(store->getValueOperand())))
          return false;
      } else if (auto *mem = dyn_cast<MemIntrinsic>(&I)) {
        if (mem->isVolatile() || invariant(mem->getRawDest()))
          return false;
      } else if (auto *intrinsic = dyn_cast<IntrinsicInst>(&I);
                 intrinsic && (intrinsic->isAssumeLikeIntrinsic() ||
                               isa<DbgInfoIntrinsic>(intrinsic))) {
        continue; // no memory the kernel sees
      } else {
        return false; // atomics, fences, calls
      }
      accesses.push_back(&I);
    }
  return true;
}

/// `groups` (an access group, a list of them, or null) with `group` added.
MDNode *withGroup(MDNode *groups, MDNode *group) {
  if (!groups)
    return group;
  SmallVector<Metadata *, 4> list;
  if (groups->getNumOperands() == 0) // a single group
    list.push_back(groups);
  else
    list.append(groups->op_begin(), groups->op_end());
  list.push_back(group);
  return MDNode::get(group->getContext(), list);
}

void markParallel(Loop &L, ArrayRef<Instruction *> accesses) {
  LLVMContext &C = L.getHeader()->getContext();
  MDNode *group = MDNode::getDistinct(C, {});
  for (Instruction *I : accesses)
    I->setMetadata(LLVMContext::MD_access_group,
                   withGroup(I->getMetadata(LLVMContext::MD_access_group), group));
  MDNode *parallel = MDNode::get(C, {MDString::get(C, "llvm.loop.parallel_accesses"), group});
  L.setLoopID(makePostTransformationMetadata(C, L.getLoopID(), {}, {parallel}));
}

} // namespace

PreservedAnalyses MarkParallelThreadLoopsPass::run(Function &F, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  bool changed = false;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!L->isInnermost() || !isThreadLoop(*L) || L->isAnnotatedParallel())
      continue;
    SmallVector<Instruction *, 32> accesses;
    if (!claimable(*L, SE, accesses))
      continue;
    markParallel(*L, accesses);
    changed = true;
  }
  if (!changed)
    return PreservedAnalyses::all();
  // Metadata only: the CFG and the analyses' results stand.
  PreservedAnalyses kept;
  kept.preserveSet<CFGAnalyses>();
  kept.preserve<LoopAnalysis>();
  kept.preserve<ScalarEvolutionAnalysis>();
  return kept;
}

} // namespace musa::jit
