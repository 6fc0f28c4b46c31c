// KernelJit end to end without the runtime: IR -> bitcode -> JIT -> run on the virtual GPU.
#include "DeviceIR.h"

#include "musa/jit/KernelJit.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <vector>

using namespace musa;

namespace {
std::string bitcodeOf(const char *ir) {
  llvm::LLVMContext C;
  llvm::SMDiagnostic diag;
  auto M = llvm::parseAssemblyString(ir, diag, C);
  EXPECT_TRUE(M) << diag.getMessage().str();
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::WriteBitcodeToFile(*M, os);
  return os.str();
}
} // namespace

TEST(KernelJit, CompiledBarrierKernelReversesEachBlock) {
  static const std::string bitcode = bitcodeOf(BarrierKernelIR);
  jit::JitModule module;
  jit::JitResult r = jit::KernelJit::instance().load(bitcode, module);
  ASSERT_TRUE(r.ok()) << r.error;
  sim::KernelEntry kernel;
  r = jit::KernelJit::instance().lookup(module, "reverse", kernel);
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(kernel.needsFibers);
  EXPECT_EQ(kernel.staticSharedBytes, 256u);

  std::vector<float> in(128), out(128, -1);
  for (int i = 0; i < 128; ++i)
    in[size_t(i)] = float(i);
  float *pin = in.data(), *pout = out.data();
  void *args[] = {&pin, &pout};
  sim::GridLaunch launch;
  launch.kernel = &kernel;
  launch.grid = {2, 1, 1};
  launch.block = {64, 1, 1};
  launch.dynamicSharedBytes = 64 * sizeof(float);
  launch.args = args;
  sim::LaunchOutcome outcome = sim::runGrid(launch);
  ASSERT_TRUE(outcome.ok()) << outcome.message;
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 64; ++t)
      ASSERT_EQ(out[size_t(b * 64 + t)], float(b * 64 + 63 - t));
}

TEST(KernelJit, LoopKernelSeesTheProfileWarpSize) {
  static const std::string bitcode = bitcodeOf(BarrierKernelIR);
  jit::JitModule module;
  ASSERT_TRUE(jit::KernelJit::instance().load(bitcode, module).ok());
  sim::KernelEntry kernel;
  ASSERT_TRUE(jit::KernelJit::instance().lookup(module, "plain", kernel).ok());
  EXPECT_FALSE(kernel.needsFibers);
  for (int warp : {32, 128}) {
    std::vector<int> out(40, 0);
    int *p = out.data(), k = 1000;
    void *args[] = {&p, &k};
    sim::GridLaunch launch;
    launch.kernel = &kernel;
    launch.block = {40, 1, 1};
    launch.args = args;
    launch.warpSize = warp;
    ASSERT_TRUE(sim::runGrid(launch).ok());
    for (int v : out)
      EXPECT_EQ(v, 1000 + warp);
  }
}

TEST(KernelJit, UnknownKernelAndBadBitcodeAreErrors) {
  jit::JitModule module;
  EXPECT_FALSE(jit::KernelJit::instance().load("not bitcode", module).ok());
  static const std::string bitcode = bitcodeOf(BarrierKernelIR);
  ASSERT_TRUE(jit::KernelJit::instance().load(bitcode, module).ok());
  sim::KernelEntry kernel;
  jit::JitResult r = jit::KernelJit::instance().lookup(module, "missing", kernel);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("missing"), std::string::npos);
}
