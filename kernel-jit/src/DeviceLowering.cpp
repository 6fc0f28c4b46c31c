// The ordered lowering pipeline (see DeviceLowering.h for why this order).
#include "musa/jit/DeviceLowering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Vectorize/LoadStoreVectorizer.h"

#include <cstdlib>

using namespace llvm;

namespace musa::jit {

namespace {
/// Merges adjacent loads and stores of a thread into vector accesses, as the NVPTX back end
/// does before it emits SASS (a float4's x, y and z read from constant memory become an
/// LDC.64 and an LDC, two struct fields an LDG.64): the timing model then counts the memory
/// instructions nvcc issues, not clang's scalar ones. Runs on the device IR, address spaces
/// still apart, before anything is lowered.
void vectorizeAdjacentAccesses(Module &M) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  MPM.addPass(createModuleToFunctionPassAdaptor(LoadStoreVectorizerPass()));
  MPM.run(M, MAM);
}

/// The headers' fast intrinsics (__sinf, __expf, __powf, __fdividef, ...) call
/// `__musa_sim_fast_<libm name>`: each call becomes that libm function, or for __fdividef a
/// division, with the approximate-function flag (and for the division the reciprocal one).
/// The host computes the accurate result; InstrumentTiming counts what the GPU runs for the
/// fast form (one or a few MUFU operations and multiplies, math_pipes.h200.txt), as it does
/// for any call so flagged (--use_fast_math).
void lowerFastIntrinsics(Module &M) {
  const StringRef prefix = "__musa_sim_fast_";
  if (Function *F = M.getFunction("__musa_sim_sincos_cosf"); F && F->isDeclaration()) {
    // sincosf's cosine: an accurate cosine marked as the second half of one sincos.
    Function *cosine =
        Intrinsic::getDeclaration(&M, Intrinsic::cos, {Type::getFloatTy(M.getContext())});
    for (User *U : make_early_inc_range(F->users()))
      if (auto *call = dyn_cast<CallInst>(U); call && call->getCalledFunction() == F) {
        CallInst *v = CallInst::Create(cosine, {call->getArgOperand(0)}, "", call->getIterator());
        v->setMetadata(SincosMetadata, MDNode::get(M.getContext(), {}));
        v->takeName(call);
        call->replaceAllUsesWith(v);
        call->eraseFromParent();
      }
    if (F->use_empty())
      F->eraseFromParent();
  }
  for (Function &F : make_early_inc_range(M)) {
    StringRef name = F.getName();
    if (!F.isDeclaration() || !name.consume_front(prefix))
      continue;
    FunctionCallee libm;
    if (name != "fdividef") {
      libm = M.getOrInsertFunction(name, F.getFunctionType());
      if (auto *target = dyn_cast<Function>(libm.getCallee())) {
        target->setDoesNotAccessMemory();
        target->setDoesNotThrow();
        target->setWillReturn();
      }
    }
    for (User *U : make_early_inc_range(F.users())) {
      auto *call = dyn_cast<CallInst>(U);
      if (!call || call->getCalledFunction() != &F)
        continue;
      IRBuilder<> B(call);
      FastMathFlags flags;
      flags.setApproxFunc();
      flags.setAllowReciprocal();
      B.setFastMathFlags(flags);
      SmallVector<Value *, 2> args(call->args());
      Value *v = name == "fdividef" ? B.CreateFDiv(args[0], args[1])
                                    : B.CreateCall(libm, args);
      v->takeName(call);
      call->replaceAllUsesWith(v);
      call->eraseFromParent();
    }
    if (F.use_empty())
      F.eraseFromParent();
  }
}
} // namespace

std::string lowerDeviceModule(Module &M, const std::string &triple,
                              const std::string &dataLayout, bool instrument,
                              bool memcheck) {
  lowerFastIntrinsics(M);
  vectorizeAdjacentAccesses(M);
  // Our passes use no analyses, so they run directly rather than through a pass manager
  // (which would need the whole analysis registry for nothing).
  ModuleAnalysisManager MAM;
  RetargetToHostPass{{}, triple, dataLayout}.run(M, MAM);
  LowerInlineAsmPass().run(M, MAM);
  MarkWarpSynchronousPass().run(M, MAM);
  AddContextParamPass().run(M, MAM);
  LowerSharedMemoryPass().run(M, MAM);
  LowerDeviceCallsPass().run(M, MAM);
  if (instrument)
    InstrumentTimingPass().run(M, MAM);
  CheckAccessesPass{{}, memcheck}.run(M, MAM);
  GpuArithmeticPass().run(M, MAM);
  MarkSpinLoopsPass().run(M, MAM);
  EmitKernelThunksPass().run(M, MAM);
  FormBarrierRegionsPass().run(M, MAM);

  if (NamedMDNode *list = M.getNamedMetadata("musa.unsupported")) {
    std::string names;
    for (MDNode *node : list->operands())
      names += " " + cast<MDString>(node->getOperand(0))->getString().str();
    return "device code uses operations the simulator does not support:" + names;
  }
  std::string problems;
  raw_string_ostream os(problems);
  if (verifyModule(M, &os)) {
    if (const char *dump = std::getenv("MUSA_SIM_DUMP_IR")) {
      std::error_code ec;
      raw_fd_ostream file(dump, ec);
      M.print(file, nullptr);
    }
    return "lowered device module is invalid (simulator bug): " + os.str();
  }
  return {};
}

FenceInst *createScopedFence(IRBuilderBase &b, FenceScope scope) {
  FenceInst *fence = b.CreateFence(AtomicOrdering::SequentiallyConsistent);
  if (scope != FenceScope::Gpu)
    fence->setMetadata(FenceScopeMetadata,
                       MDNode::get(b.getContext(), {ConstantAsMetadata::get(
                                                      b.getInt32(unsigned(scope)))}));
  return fence;
}

FenceScope fenceScopeOf(const FenceInst &fence) {
  if (MDNode *md = fence.getMetadata(FenceScopeMetadata))
    if (md->getNumOperands() == 1)
      if (auto *c = mdconst::dyn_extract<ConstantInt>(md->getOperand(0)))
        return FenceScope(std::min<uint64_t>(c->getZExtValue(), unsigned(FenceScope::System)));
  return FenceScope::Gpu;
}

} // namespace musa::jit
