// The lowering passes as an LLVM pass plugin, for `opt` and the FileCheck tests:
//   opt -load-pass-plugin=libMusaSimPasses.so
//       -passes='musa-retarget,musa-add-context,musa-lower-shared,musa-lower-calls,...'
// Names: musa-retarget (host triple and data layout of the x86-64 System V ABI),
// musa-add-context, musa-lower-shared, musa-lower-calls, musa-instrument-timing,
// musa-mark-warp-synchronous, musa-check-accesses[-shared], musa-emit-thunks, musa-form-regions; musa-lower runs the whole pipeline as the JIT does;
// musa-mark-parallel, musa-split-guards and musa-close-reductions (function passes) are the
// ones the JIT adds to the host optimiser.
#include "musa/jit/DeviceLowering.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace {

constexpr const char *HostTriple = "x86_64-unknown-linux-gnu";
constexpr const char *HostLayout =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";

/// The whole pipeline (as KernelJit runs it, with the timing counters).
struct LowerAllPass : PassInfoMixin<LowerAllPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    std::string error = musa::jit::lowerDeviceModule(M, HostTriple, HostLayout, true);
    if (!error.empty())
      errs() << "musa-lower: " << error << "\n";
    return PreservedAnalyses::none();
  }
};

bool addPass(StringRef name, ModulePassManager &MPM) {
  using namespace musa::jit;
  if (name == "musa-retarget")
    MPM.addPass(RetargetToHostPass{{}, HostTriple, HostLayout});
  else if (name == "musa-add-context")
    MPM.addPass(AddContextParamPass());
  else if (name == "musa-lower-shared")
    MPM.addPass(LowerSharedMemoryPass());
  else if (name == "musa-lower-asm")
    MPM.addPass(LowerInlineAsmPass());
  else if (name == "musa-lower-calls")
    MPM.addPass(LowerDeviceCallsPass());
  else if (name == "musa-instrument-timing")
    MPM.addPass(InstrumentTimingPass());
  else if (name == "musa-check-accesses")
    MPM.addPass(CheckAccessesPass());
  else if (name == "musa-check-accesses-memcheck") // as with MUSA_SIM_MEMCHECK=1
    MPM.addPass(CheckAccessesPass{{}, true});
  else if (name == "musa-gpu-arithmetic")
    MPM.addPass(GpuArithmeticPass());
  else if (name == "musa-mark-warp-synchronous")
    MPM.addPass(MarkWarpSynchronousPass());
  else if (name == "musa-mark-spins")
    MPM.addPass(MarkSpinLoopsPass());
  else if (name == "musa-emit-thunks")
    MPM.addPass(EmitKernelThunksPass());
  else if (name == "musa-form-regions")
    MPM.addPass(FormBarrierRegionsPass());
  else if (name == "musa-lower")
    MPM.addPass(LowerAllPass());
  else
    return false;
  return true;
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "MusaSimPasses", "1", [](PassBuilder &PB) {
            PB.registerPipelineParsingCallback(
                [](StringRef name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
                  return addPass(name, MPM);
                });
            PB.registerPipelineParsingCallback(
                [](StringRef name, FunctionPassManager &FPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (name == "musa-mark-parallel")
                    FPM.addPass(musa::jit::MarkParallelThreadLoopsPass());
                  else if (name == "musa-split-guards")
                    FPM.addPass(musa::jit::SplitThreadGuardsPass());
                  else if (name == "musa-close-reductions")
                    FPM.addPass(musa::jit::CloseLoopReductionsPass());
                  else
                    return false;
                  return true;
                });
          }};
}
