// localizeCounters: the light timing counters of a thread loop in registers.
//
// The light instrumentation adds to memory reached through the context (per-class counts,
// basic-block counts, per-site accumulators). Inside a loop over a block's threads those
// updates are loop-carried memory operations; where they are conditional (a counter in an
// `if (i < n)` block) the optimiser may not keep them in registers, since that would add
// stores on paths that had none to memory other threads can see. Here the kernel is inlined
// into the loop function and its reads of the counters' addresses become stack arrays: stack
// memory is private, SROA turns each counter into a value, and the vectoriser sees plain
// reductions (add, umin, umax). Before returning, the function adds the arrays to the real
// counters. Device functions the kernel calls keep adding to the real counters.
#include "musa/jit/DeviceLowering.h"

#include "musa/sim/KernelAbi.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace musa::jit {

void localizeCounters(Function &L, Value *ctx, Function &K) {
  Module &M = *L.getParent();
  std::optional<CounterRange> counted = counterRangeOf(K);
  if (!M.getNamedGlobal(TimingSitesSymbol) || !counted)
    return;
  // The kernel's own code, inlined here, reads the counters' addresses from the context;
  // those reads become the local arrays. Functions it calls keep the real counters.
  SmallVector<CallBase *, 2> calls;
  for (Instruction &I : instructions(L))
    if (auto *call = dyn_cast<CallBase>(&I); call && call->getCalledFunction() == &K)
      calls.push_back(call);
  for (CallBase *call : calls) {
    InlineFunctionInfo info;
    if (!InlineFunction(*call, info).isSuccess())
      return;
  }
  // A range that is empty (end <= first) counts nothing.
  CounterRange range = *counted;
  if (range.endBlock <= range.firstBlock)
    range.firstBlock = range.endBlock = 0;
  if (range.endSite <= range.firstSite)
    range.firstSite = range.endSite = 0;
  SmallVector<LoadInst *, 16> reads[3];
  const unsigned offsets[3] = {sim::abi::CountersOffset, sim::abi::BlockCountsOffset,
                               sim::abi::SiteAccumOffset};
  for (Instruction &I : instructions(L)) {
    auto *load = dyn_cast<LoadInst>(&I);
    if (!load || !load->getType()->isPointerTy())
      continue;
    APInt offset(64, 0);
    if (load->getPointerOperand()->stripAndAccumulateConstantOffsets(M.getDataLayout(), offset,
                                                                     true) != ctx)
      continue;
    for (unsigned k = 0; k < 3; ++k)
      if (offset == offsets[k])
        reads[k].push_back(load);
  }
  LLVMContext &C = M.getContext();
  Type *i64 = Type::getInt64Ty(C), *ptrTy = PointerType::getUnqual(C);
  auto *accumTy = StructType::get(i64, i64, i64, i64);
  uint32_t blocks = range.endBlock > range.firstBlock ? range.endBlock - range.firstBlock : 0;
  uint32_t sites = range.endSite > range.firstSite ? range.endSite - range.firstSite : 0;

  IRBuilder<> b(&*L.getEntryBlock().getFirstInsertionPt());
  auto field = [&](unsigned offset) {
    return b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), ctx, offset);
  };
  Value *realClasses = b.CreateLoad(ptrTy, field(sim::abi::CountersOffset));
  Value *realBlocks = b.CreateLoad(ptrTy, field(sim::abi::BlockCountsOffset));
  Value *realSites = b.CreateLoad(ptrTy, field(sim::abi::SiteAccumOffset));
  auto *classesTy = ArrayType::get(i64, sim::abi::ClassCount);
  Value *classes = b.CreateAlloca(classesTy, nullptr, "local.classes");
  // The light variant's block counts are u64 (emitBlockCounts).
  Value *blockCounts = b.CreateAlloca(ArrayType::get(i64, std::max(blocks, 1u)), nullptr,
                                      "local.blocks");
  Value *siteAccum = b.CreateAlloca(ArrayType::get(accumTy, std::max(sites, 1u)), nullptr,
                                    "local.sites");
  for (unsigned k = 0; k < sim::abi::ClassCount; ++k)
    b.CreateStore(b.getInt64(0), b.CreateConstInBoundsGEP2_32(classesTy, classes, 0, k));
  for (uint32_t i = 0; i < blocks; ++i)
    b.CreateStore(b.getInt64(0), b.CreateConstInBoundsGEP1_32(i64, blockCounts, i));
  for (uint32_t i = 0; i < sites; ++i)
    for (unsigned f = 0; f < 4; ++f)
      b.CreateStore(b.getInt64(f == 2 ? ~uint64_t(0) : 0),
                    b.CreateConstInBoundsGEP2_32(accumTy, siteAccum, i, f));
  // Generated code indexes blocks and sites by their module-wide numbers.
  Value *local[3] = {classes,
                     b.CreateGEP(i64, blockCounts, b.getInt64(-int64_t(range.firstBlock))),
                     b.CreateGEP(accumTy, siteAccum, b.getInt64(-int64_t(range.firstSite)))};
  for (unsigned k = 0; k < 3; ++k)
    for (LoadInst *load : reads[k]) {
      load->replaceAllUsesWith(local[k]);
      load->eraseFromParent();
    }

  SmallVector<ReturnInst *, 2> returns;
  for (BasicBlock &BB : L)
    if (auto *ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      returns.push_back(ret);
  for (ReturnInst *ret : returns) {
    b.SetInsertPoint(ret);
    auto addInto = [&](Type *T, Value *real, Value *local) {
      b.CreateStore(b.CreateAdd(b.CreateLoad(T, real), b.CreateLoad(T, local)), real);
    };
    for (unsigned k = 0; k < sim::abi::ClassCount; ++k)
      addInto(i64, b.CreateConstInBoundsGEP1_32(i64, realClasses, k),
              b.CreateConstInBoundsGEP2_32(classesTy, classes, 0, k));
    for (uint32_t i = 0; i < blocks; ++i)
      addInto(i64, b.CreateConstInBoundsGEP1_32(i64, realBlocks, range.firstBlock + i),
              b.CreateConstInBoundsGEP1_32(i64, blockCounts, i));
    for (uint32_t i = 0; i < sites; ++i) {
      Value *real = b.CreateConstInBoundsGEP1_32(accumTy, realSites, range.firstSite + i);
      Value *local = b.CreateConstInBoundsGEP1_32(accumTy, siteAccum, i);
      auto at = [&](Value *base, unsigned f) { return b.CreateConstInBoundsGEP2_32(accumTy, base, 0, f); };
      addInto(i64, at(real, 0), at(local, 0));
      addInto(i64, at(real, 1), at(local, 1));
      for (unsigned f : {2u, 3u}) {
        Value *mine = b.CreateLoad(i64, at(local, f)), *theirs = b.CreateLoad(i64, at(real, f));
        b.CreateStore(b.CreateBinaryIntrinsic(f == 2 ? Intrinsic::umin : Intrinsic::umax, mine,
                                              theirs),
                      at(real, f));
      }
    }
  }
}

} // namespace musa::jit
