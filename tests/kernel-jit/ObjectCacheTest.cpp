// The on-disk object cache and KernelJit's use of it.
#include "DeviceIR.h"

#include "musa/jit/KernelJit.h"
#include "musa/jit/ObjectCache.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <unistd.h>
#include <thread>
#include <vector>

using musa::jit::ObjectCache;

namespace {
std::string freshDir(const char *name) {
  auto dir = std::filesystem::temp_directory_path() /
             (std::string("musa-sim-test-") + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}
} // namespace

TEST(ObjectCache, StoresAndReturnsObjects) {
  ObjectCache cache(freshDir("store"));
  EXPECT_FALSE(cache.get("k1").has_value());
  cache.put("k1", std::string("\x7f" "ELF object bytes\0with nul", 26));
  auto got = cache.get("k1");
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, std::string("\x7f" "ELF object bytes\0with nul", 26));
  std::filesystem::remove_all(cache.directory());
}

TEST(ObjectCache, ConcurrentWritersNeverExposeAPartialObject) {
  ObjectCache cache(freshDir("race"));
  std::string big(1 << 20, 'x');
  std::vector<std::thread> writers;
  for (int i = 0; i < 4; ++i)
    writers.emplace_back([&] {
      for (int j = 0; j < 5; ++j)
        cache.put("same", big);
    });
  for (int j = 0; j < 50; ++j) {
    if (auto got = cache.get("same")) {
      ASSERT_EQ(got->size(), big.size());
    }
  }
  for (auto &w : writers)
    w.join();
  EXPECT_EQ(cache.get("same")->size(), big.size());
  // No temporary files are left behind.
  size_t files = 0;
  for (auto &entry : std::filesystem::directory_iterator(cache.directory()))
    files += entry.is_regular_file();
  EXPECT_EQ(files, 1u);
  std::filesystem::remove_all(cache.directory());
}

TEST(ObjectCache, SecondLoadOfTheSameCodeDoesNotRecompile) {
  ASSERT_NE(std::getenv("MUSA_SIM_CACHE_DIR"), nullptr) << "tests run with a cache directory";
  llvm::LLVMContext C;
  llvm::SMDiagnostic diag;
  auto M = llvm::parseAssemblyString(BarrierKernelIR, diag, C);
  ASSERT_TRUE(M);
  // A unique module so the first load really compiles.
  M->setModuleIdentifier("unique");
  M->getOrInsertNamedMetadata("musa.test.nonce")
      ->addOperand(llvm::MDNode::get(C, llvm::MDString::get(C, std::to_string(
                                                            std::random_device()()))));
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(*M, os);
  os.flush();

  auto &jit = musa::jit::KernelJit::instance();
  musa::jit::JitModule first, second;
  unsigned compiled = jit.compiledCount(), hits = jit.cacheHitCount();
  ASSERT_TRUE(jit.load(bitcode, first).ok());
  EXPECT_EQ(jit.compiledCount(), compiled + 1);
  ASSERT_TRUE(jit.load(bitcode, second).ok());
  EXPECT_EQ(jit.compiledCount(), compiled + 1);
  EXPECT_EQ(jit.cacheHitCount(), hits + 1);
  musa::sim::KernelEntry kernel;
  EXPECT_TRUE(jit.lookup(second, "reverse", kernel).ok());
  EXPECT_EQ(kernel.staticSharedBytes, 256u);
}
