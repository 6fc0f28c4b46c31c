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

#include <cmath>
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

namespace {
// A kernel calling a host function device code has no business with (getenv), and one dividing
// complex floats through the compiler helper clang emits (__divsc3, NVPTX's {float, float}).
constexpr const char *HostCallIR = R"IR(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @peek(ptr %out) {
  %v = call ptr @getenv(ptr null)
  store ptr %v, ptr %out
  ret void
}
declare ptr @getenv(ptr)
!nvvm.annotations = !{!0}
!0 = !{ptr @peek, !"kernel", i32 1}
)IR";

constexpr const char *ComplexDivideIR = R"IR(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @divide(ptr %in, ptr %out) {
  %a = load float, ptr %in
  %p1 = getelementptr float, ptr %in, i64 1
  %b = load float, ptr %p1
  %p2 = getelementptr float, ptr %in, i64 2
  %c = load float, ptr %p2
  %p3 = getelementptr float, ptr %in, i64 3
  %d = load float, ptr %p3
  %q = call { float, float } @__divsc3(float %a, float %b, float %c, float %d)
  %re = extractvalue { float, float } %q, 0
  %im = extractvalue { float, float } %q, 1
  store float %re, ptr %out
  %o1 = getelementptr float, ptr %out, i64 1
  store float %im, ptr %o1
  ret void
}
declare { float, float } @__divsc3(float, float, float, float)
!nvvm.annotations = !{!0}
!0 = !{ptr @divide, !"kernel", i32 1}
)IR";
} // namespace

TEST(KernelJit, HostSymbolOutsideTheAllowListFailsTheLoadByName) {
  static const std::string bitcode = bitcodeOf(HostCallIR);
  jit::JitModule module;
  jit::JitResult r = jit::KernelJit::instance().load(bitcode, module);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error.find("'getenv'"), std::string::npos) << r.error;
  EXPECT_EQ(module.dylib, nullptr);
}

TEST(KernelJit, ComplexDivisionUsesTheDeviceLibrary) {
  static const std::string bitcode = bitcodeOf(ComplexDivideIR);
  jit::JitModule module;
  jit::JitResult r = jit::KernelJit::instance().load(bitcode, module);
  ASSERT_TRUE(r.ok()) << r.error;
  sim::KernelEntry kernel;
  ASSERT_TRUE(jit::KernelJit::instance().lookup(module, "divide", kernel).ok());
  // (1 + 2i) / (3 + 4i) = 0.44 + 0.08i; (-6 + 8i) / 2i = 4 + 3i; 5 / 0 is infinite.
  const float cases[][4] = {{1, 2, 3, 4}, {-6, 8, 0, 2}, {5, 0, 0, 0}};
  const float want[][2] = {{0.44f, 0.08f}, {4, 3}};
  for (int i = 0; i < 3; ++i) {
    float in[4] = {cases[i][0], cases[i][1], cases[i][2], cases[i][3]}, out[2] = {-1, -1};
    float *pin = in, *pout = out;
    void *args[] = {&pin, &pout};
    sim::GridLaunch launch;
    launch.kernel = &kernel;
    launch.block = {1, 1, 1};
    launch.args = args;
    ASSERT_TRUE(sim::runGrid(launch).ok());
    if (i < 2) {
      EXPECT_NEAR(out[0], want[i][0], 1e-6f) << "case " << i;
      EXPECT_NEAR(out[1], want[i][1], 1e-6f) << "case " << i;
    } else {
      EXPECT_TRUE(std::isinf(out[0])) << out[0];
    }
  }
}

namespace {
// Two kernels sharing what a module's kernels share: a mutable __device__ variable (one object
// for both), an internal constant table (copied into each kernel's part for folding), an
// internal helper both call, and a table of function pointers (its functions defined once).
constexpr const char *SharedStateIR = R"IR(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@counter = internal global i32 0
@table = internal constant [4 x i32] [i32 10, i32 20, i32 30, i32 40]
@ops = internal constant [2 x ptr] [ptr @twice, ptr @thrice]

define internal i32 @twice(i32 %x) { %r = mul i32 %x, 2
  ret i32 %r }
define internal i32 @thrice(i32 %x) { %r = mul i32 %x, 3
  ret i32 %r }
define internal i32 @lookup(i32 %i) {
  %p = getelementptr [4 x i32], ptr @table, i32 0, i32 %i
  %v = load i32, ptr %p
  ret i32 %v
}
define void @add(i32 %i) {
  %v = call i32 @lookup(i32 %i)
  %old = atomicrmw add ptr @counter, i32 %v seq_cst
  ret void
}
define void @read(ptr %out, i32 %which) {
  %c = load i32, ptr @counter
  %t = call i32 @lookup(i32 3)
  %slot = getelementptr [2 x ptr], ptr @ops, i32 0, i32 %which
  %f = load ptr, ptr %slot
  %r = call i32 %f(i32 %c)
  %sum = add i32 %r, %t
  store i32 %sum, ptr %out
  ret void
}
!nvvm.annotations = !{!0, !1}
!0 = !{ptr @add, !"kernel", i32 1}
!1 = !{ptr @read, !"kernel", i32 1}
)IR";

void launchOne(const sim::KernelEntry &kernel, void **args) {
  sim::GridLaunch launch;
  launch.kernel = &kernel;
  launch.grid = {1, 1, 1};
  launch.block = {1, 1, 1};
  launch.args = args;
  sim::LaunchOutcome outcome = sim::runGrid(launch);
  ASSERT_TRUE(outcome.ok()) << outcome.message;
}
} // namespace

TEST(KernelJit, EachKernelCompilesAtItsFirstLookupAndSharesTheModulesVariables) {
  static const std::string bitcode = bitcodeOf(SharedStateIR);
  auto &jit = jit::KernelJit::instance();
  jit::JitModule module;
  ASSERT_TRUE(jit.load(bitcode, module).ok());
  // Loading compiled (or read from the cache) the module's variables, no kernel.
  unsigned objects = jit.compiledCount() + jit.cacheHitCount();
  sim::KernelEntry add, read;
  ASSERT_TRUE(jit.lookup(module, "add", add).ok());
  EXPECT_EQ(jit.compiledCount() + jit.cacheHitCount(), objects + 1);
  ASSERT_TRUE(jit.lookup(module, "add", add).ok()); // once
  EXPECT_EQ(jit.compiledCount() + jit.cacheHitCount(), objects + 1);
  ASSERT_TRUE(jit.lookup(module, "read", read).ok());
  EXPECT_EQ(jit.compiledCount() + jit.cacheHitCount(), objects + 2);

  void *counter = nullptr;
  ASSERT_TRUE(jit.lookupSymbol(module, "counter", counter).ok());
  *static_cast<int *>(counter) = 1;
  for (int i : {0, 2}) { // 1 + 10 + 30
    void *args[] = {&i};
    launchOne(add, args);
  }
  EXPECT_EQ(*static_cast<int *>(counter), 41);
  for (int which : {0, 1}) { // (41 * 2 or 3) + 40
    int out = -1, *pout = &out;
    void *args[] = {&pout, &which};
    launchOne(read, args);
    EXPECT_EQ(out, 41 * (2 + which) + 40);
  }
  sim::KernelEntry missing;
  EXPECT_FALSE(jit.lookup(module, "absent", missing).ok());
}
