// The ordered lowering pipeline (see DeviceLowering.h for why this order).
#include "musa/jit/DeviceLowering.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace musa::jit {

std::string lowerDeviceModule(Module &M, const std::string &triple,
                              const std::string &dataLayout, bool instrument,
                              bool memcheck) {
  // The passes use no analyses, so they run directly rather than through a pass manager
  // (which would need the whole analysis registry for nothing).
  ModuleAnalysisManager MAM;
  RetargetToHostPass{{}, triple, dataLayout}.run(M, MAM);
  LowerInlineAsmPass().run(M, MAM);
  AddContextParamPass().run(M, MAM);
  LowerSharedMemoryPass().run(M, MAM);
  LowerDeviceCallsPass().run(M, MAM);
  if (instrument)
    InstrumentTimingPass().run(M, MAM);
  CheckAccessesPass{{}, memcheck}.run(M, MAM);
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

} // namespace musa::jit
