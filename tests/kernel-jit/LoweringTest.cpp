// IR-in / IR-out tests of the lowering passes.
#include "DeviceIR.h"

#include "musa/jit/DeviceLowering.h"
#include "musa/sim/KernelAbi.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <set>

using namespace llvm;
using namespace musa::jit;

namespace {

constexpr const char *HostTriple = "x86_64-pc-linux-gnu";
constexpr const char *HostLayout =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";

std::unique_ptr<Module> parse(LLVMContext &C, const char *ir) {
  SMDiagnostic diag;
  auto M = parseAssemblyString(ir, diag, C);
  EXPECT_TRUE(M) << diag.getMessage().str();
  return M;
}

bool callsFunctionNamed(Function &F, StringRef name) {
  for (Instruction &I : instructions(F))
    if (auto *call = dyn_cast<CallBase>(&I))
      if (Function *callee = call->getCalledFunction(); callee && callee->getName() == name)
        return true;
  return false;
}

struct Facts {
  uint64_t staticShared;
  bool needsFibers;
  uint64_t maxThreads;
  std::vector<uint64_t> paramSizes;
  std::vector<uint64_t> paramAligns;
};

Facts factsOf(Module &M, StringRef kernel) {
  auto *G = M.getGlobalVariable((FactsPrefix + kernel).str());
  EXPECT_NE(G, nullptr);
  auto *init = cast<ConstantStruct>(G->getInitializer());
  Facts f;
  f.staticShared = cast<ConstantInt>(init->getOperand(0))->getZExtValue();
  f.needsFibers = cast<ConstantInt>(init->getOperand(1))->getZExtValue() != 0;
  f.maxThreads = cast<ConstantInt>(init->getOperand(2))->getZExtValue();
  if (auto *sizes = dyn_cast<ConstantDataSequential>(init->getOperand(4)))
    for (unsigned i = 0; i < sizes->getNumElements(); ++i) {
      uint64_t v = sizes->getElementAsInteger(i);
      f.paramSizes.push_back(v & ((1u << ParamAlignShift) - 1));
      f.paramAligns.push_back(uint64_t(1) << (v >> ParamAlignShift));
    }
  return f;
}

} // namespace

TEST(Lowering, RetargetRecordsKernelsAndStripsNvptxAttributes) {
  LLVMContext C;
  auto M = parse(C, BarrierKernelIR);
  ModuleAnalysisManager MAM;
  RetargetToHostPass{{}, HostTriple, HostLayout}.run(*M, MAM);
  EXPECT_EQ(M->getTargetTriple(), HostTriple);
  EXPECT_EQ(M->getNamedMetadata("nvvm.annotations"), nullptr);
  std::vector<Function *> kernels = getKernels(*M);
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0]->getName(), "reverse");
  EXPECT_FALSE(kernels[0]->hasFnAttribute("target-cpu"));
}

TEST(Lowering, EveryDeviceFunctionGetsTheContextAndCallsPassIt) {
  LLVMContext C;
  auto M = parse(C, BarrierKernelIR);
  ASSERT_EQ(lowerDeviceModule(*M, HostTriple, HostLayout), "");
  Function *reverse = M->getFunction("reverse");
  Function *lane = M->getFunction("lane");
  ASSERT_TRUE(reverse && lane);
  EXPECT_EQ(reverse->arg_size(), 3u);
  EXPECT_EQ(lane->arg_size(), 1u);
  ASSERT_NE(getContextArg(*reverse), nullptr);
  // Dereferenceable and aligned (so loads from it can be hoisted out of thread loops), but not
  // noalias: inlined into a thread loop that would declare a new alias scope per iteration.
  EXPECT_GE(reverse->getParamDereferenceableBytes(2), sizeof(musa::sim::ThreadContext));
  EXPECT_FALSE(reverse->hasParamAttribute(2, Attribute::NoAlias));
  for (Instruction &I : instructions(*reverse)) {
    if (auto *call = dyn_cast<CallInst>(&I); call && call->getCalledFunction() == lane) {
      EXPECT_EQ(call->getArgOperand(0), getContextArg(*reverse));
    }
  }
}

TEST(Lowering, NoNvvmIntrinsicsOrSharedGlobalsRemain) {
  LLVMContext C;
  auto M = parse(C, BarrierKernelIR);
  ASSERT_EQ(lowerDeviceModule(*M, HostTriple, HostLayout), "");
  for (Function &F : *M)
    EXPECT_FALSE(F.getName().starts_with("llvm.nvvm.") && !F.use_empty()) << F.getName().str();
  EXPECT_EQ(M->getGlobalVariable("tile", true), nullptr);
  EXPECT_EQ(M->getGlobalVariable("dyn", true), nullptr);
  EXPECT_TRUE(callsFunctionNamed(*M->getFunction("reverse"), musa::sim::abi::BarrierFn));
}

TEST(Lowering, ThunksAndFactsDescribeEachKernel) {
  LLVMContext C;
  auto M = parse(C, BarrierKernelIR);
  ASSERT_EQ(lowerDeviceModule(*M, HostTriple, HostLayout), "");
  EXPECT_NE(M->getFunction("__musa_thunk_reverse"), nullptr);
  EXPECT_NE(M->getFunction("__musa_block_plain"), nullptr);
  Facts reverse = factsOf(*M, "reverse"), plain = factsOf(*M, "plain");
  EXPECT_EQ(reverse.staticShared, 256u); // 64 floats
  EXPECT_TRUE(reverse.needsFibers);
  EXPECT_EQ(reverse.maxThreads, 64u); // __launch_bounds__(64): nvvm.annotations' maxntidx
  EXPECT_EQ(reverse.paramSizes, (std::vector<uint64_t>{8, 8}));
  EXPECT_EQ(plain.staticShared, 0u);
  EXPECT_EQ(plain.maxThreads, 0u);
  EXPECT_FALSE(plain.needsFibers);
  EXPECT_EQ(plain.paramSizes, (std::vector<uint64_t>{8, 4}));
  EXPECT_EQ(plain.paramAligns, (std::vector<uint64_t>{8, 4}));
}

// The records KernelJit reads through KernelFacts / RegionFacts have the layout the passes
// emit for them, on the host's data layout, for any number of entries.
TEST(Lowering, FactsRecordsMatchTheStructsTheJitReads) {
  LLVMContext C;
  DataLayout DL(HostLayout);
  for (unsigned n : {0u, 1u, 7u}) {
    const StructLayout *k = DL.getStructLayout(kernelFactsType(C, n));
    EXPECT_EQ(k->getElementOffset(0), offsetof(KernelFacts, staticSharedBytes));
    EXPECT_EQ(k->getElementOffset(1), offsetof(KernelFacts, needsFibers));
    EXPECT_EQ(k->getElementOffset(2), offsetof(KernelFacts, maxThreadsPerBlock));
    EXPECT_EQ(k->getElementOffset(3), offsetof(KernelFacts, paramCount));
    EXPECT_EQ(k->getElementOffset(4), offsetof(KernelFacts, paramSizes));
    const StructLayout *r = DL.getStructLayout(regionFactsType(C, n));
    EXPECT_EQ(r->getElementOffset(0), offsetof(RegionFacts, frameBytes));
    EXPECT_EQ(r->getElementOffset(1), offsetof(RegionFacts, parkPoints));
    EXPECT_EQ(r->getElementOffset(2), offsetof(RegionFacts, pointKinds));
  }
}

TEST(Lowering, FastIntrinsicsBecomeApproximateLibmCallsAndDivisions) {
  LLVMContext C;
  auto M = parse(C, R"IR(
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %p, float %x, float %y) {
  %s = call float @__musa_sim_fast_sinf(float %x)
  %q = call float @__musa_sim_fast_fdividef(float %s, float %y)
  store float %q, ptr %p
  ret void
}
declare float @__musa_sim_fast_sinf(float) #0
declare float @__musa_sim_fast_fdividef(float, float) #0
attributes #0 = { memory(none) nounwind }
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
)IR");
  ASSERT_EQ(lowerDeviceModule(*M, HostTriple, HostLayout), "");
  EXPECT_EQ(M->getFunction("__musa_sim_fast_sinf"), nullptr);
  EXPECT_EQ(M->getFunction("__musa_sim_fast_fdividef"), nullptr);
  bool sine = false, division = false;
  for (Function &F : *M)
    for (Instruction &I : instructions(F)) {
      if (auto *call = dyn_cast<CallInst>(&I); call && call->getCalledFunction() &&
                                                call->getCalledFunction()->getName() == "sinf")
        sine = call->hasApproxFunc() && call->getCalledFunction()->doesNotAccessMemory();
      if (I.getOpcode() == Instruction::FDiv)
        division = I.hasApproxFunc() && I.hasAllowReciprocal();
    }
  EXPECT_TRUE(sine);
  EXPECT_TRUE(division);
}

TEST(Lowering, UnsupportedIntrinsicIsNamed) {
  LLVMContext C;
  auto M = parse(C, R"IR(
target triple = "nvptx64-nvidia-cuda"
define void @k(ptr %p) {
  %v = call i32 @llvm.nvvm.read.ptx.sreg.pm0()
  store i32 %v, ptr %p
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.pm0()
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
)IR");
  std::string error = lowerDeviceModule(*M, HostTriple, HostLayout);
  EXPECT_NE(error.find("llvm.nvvm.read.ptx.sreg.pm0"), std::string::npos) << error;
}

namespace {
/// Calls of the timing hook in `F`: (info, site) of each.
std::vector<std::pair<uint32_t, uint32_t>> memoryHooks(Function &F) {
  std::vector<std::pair<uint32_t, uint32_t>> hooks;
  for (Instruction &I : instructions(F))
    if (auto *call = dyn_cast<CallInst>(&I))
      if (Function *callee = call->getCalledFunction();
          callee && callee->getName() == musa::sim::abi::MemAccessFn)
        hooks.push_back({uint32_t(cast<ConstantInt>(call->getArgOperand(1))->getZExtValue()),
                         uint32_t(cast<ConstantInt>(call->getArgOperand(2))->getZExtValue())});
  return hooks;
}
} // namespace

TEST(Lowering, TimingInstrumentationHooksEveryMemoryAccessButTheContext) {
  LLVMContext C;
  auto M = parse(C, BarrierKernelIR);
  ASSERT_EQ(lowerDeviceModule(*M, HostTriple, HostLayout, /*instrument=*/true), "");
  // The fully instrumented variant (sampled blocks) calls the hook before every access:
  // reverse has a global load, two shared stores, a shared load, a global store. The special
  // register reads (now context loads) are not memory accesses.
  Function *full = M->getFunction((Twine("reverse") + FullVariantSuffix).str());
  ASSERT_NE(full, nullptr);
  auto hooks = memoryHooks(*full);
  ASSERT_EQ(hooks.size(), 5u);
  // The light variant every other block runs calls nothing per access: it adds to its
  // site's counters, in their own alias scope.
  EXPECT_TRUE(memoryHooks(*M->getFunction("reverse")).empty());
  unsigned scoped = 0;
  for (Instruction &I : instructions(*M->getFunction("reverse")))
    scoped += isa<StoreInst>(I) && I.getMetadata(LLVMContext::MD_alias_scope);
  EXPECT_GE(scoped, 5u);
  EXPECT_NE(M->getGlobalVariable(TimingSiteInfoSymbol), nullptr);
  using namespace musa::sim::abi;
  EXPECT_EQ(hooks[0].first & 0xffff, 4u);
  EXPECT_EQ(hooks[0].first & (AccessStore | AccessAtomic), 0u);
  // Its basic block has one global load (the shared load beside it is not a memory wait).
  EXPECT_EQ(hooks[0].first >> AccessGroupShift, 1u);
  EXPECT_NE(hooks[1].first & AccessStore, 0u);
  std::set<uint32_t> sites;
  for (auto &h : hooks)
    sites.insert(h.second);
  EXPECT_EQ(sites.size(), 5u) << "every access has its own site";
  auto *count = M->getGlobalVariable(TimingSitesSymbol);
  ASSERT_NE(count, nullptr);
  EXPECT_GE(cast<ConstantInt>(count->getInitializer())->getZExtValue(), 6u); // + plain's store
  // The block table: one row per basic block, classes counted (reverse's entry block has
  // integer work and a barrier call).
  auto *table = M->getGlobalVariable(TimingBlocksSymbol);
  ASSERT_NE(table, nullptr);
  auto *init = cast<ConstantStruct>(table->getInitializer());
  uint64_t rows = cast<ConstantInt>(init->getOperand(0))->getZExtValue();
  EXPECT_GE(rows, 3u); // lane, reverse, plain: one block each
  bool sawBarrier = false;
  auto *tableRows = cast<ConstantArray>(init->getOperand(1));
  for (unsigned r = 0; r < rows; ++r) {
    auto *row = cast<ConstantDataSequential>(tableRows->getOperand(r));
    sawBarrier |= row->getElementAsInteger(ClassBarrier) == 1;
  }
  EXPECT_TRUE(sawBarrier);
}

TEST(Lowering, WithoutTheTimingModelNothingIsInstrumented) {
  LLVMContext C;
  auto M = parse(C, BarrierKernelIR);
  ASSERT_EQ(lowerDeviceModule(*M, HostTriple, HostLayout), "");
  EXPECT_TRUE(memoryHooks(*M->getFunction("reverse")).empty());
  EXPECT_EQ(M->getGlobalVariable(TimingSitesSymbol), nullptr);
}

// FormBarrierRegions: a kernel with a barrier gets a region-loop entry whose code never calls
// the barrier builtin (the cut replaces it), a plain kernel gets none, and a kernel whose
// barrier sits in a recursive function says why it stays on fibers.
TEST(Lowering, BarrierKernelsGetRegionLoops) {
  LLVMContext C;
  auto M = parse(C, BarrierKernelIR);
  ASSERT_EQ(lowerDeviceModule(*M, HostTriple, HostLayout), "");
  Function *entry = M->getFunction(std::string(RegionsPrefix) + "reverse");
  ASSERT_NE(entry, nullptr);
  EXPECT_EQ(M->getFunction(std::string(RegionsPrefix) + "plain"), nullptr);
  auto *facts = M->getGlobalVariable((RegionFactsPrefix + Twine("reverse")).str());
  ASSERT_NE(facts, nullptr);
  auto *init = cast<ConstantStruct>(facts->getInitializer());
  EXPECT_EQ(cast<ConstantInt>(init->getOperand(1))->getZExtValue(), 1u); // one park point
  // threadIdx and the global index live across the barrier: frame slots.
  EXPECT_GT(cast<ConstantInt>(init->getOperand(0))->getZExtValue(), 0u);
  unsigned regionLoops = 0;
  for (Function &F : *M)
    if (F.getName().starts_with("__musa_regions_body_reverse")) {
      ++regionLoops;
      EXPECT_FALSE(callsFunctionNamed(F, musa::sim::abi::BarrierFn)) << F.getName().str();
    }
  // Before and after the barrier, each also as the variant every thread enters.
  EXPECT_EQ(regionLoops, 4u);
}

TEST(Lowering, RecursionReachingABarrierStaysOnFibers) {
  LLVMContext C;
  auto M = parse(C, R"IR(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define internal void @down(i32 %n) {
  call void @llvm.nvvm.barrier0()
  %z = icmp eq i32 %n, 0
  br i1 %z, label %done, label %again
again:
  %m = sub i32 %n, 1
  call void @down(i32 %m)
  br label %done
done:
  ret void
}

define void @recursive(i32 %n) {
  call void @down(i32 %n)
  ret void
}

declare void @llvm.nvvm.barrier0()

!nvvm.annotations = !{!0}
!0 = !{ptr @recursive, !"kernel", i32 1}
)IR");
  ASSERT_EQ(lowerDeviceModule(*M, HostTriple, HostLayout), "");
  EXPECT_EQ(M->getFunction(std::string(RegionsPrefix) + "recursive"), nullptr);
  auto *why = M->getGlobalVariable((FibersBecausePrefix + Twine("recursive")).str());
  ASSERT_NE(why, nullptr);
  EXPECT_EQ(cast<ConstantDataArray>(why->getInitializer())->getAsCString(), "recursion");
}
