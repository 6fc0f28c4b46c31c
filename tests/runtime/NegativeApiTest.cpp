// Negative tests in the style of hip-tests: one bad call per argument of each runtime entry
// point, each checked for CUDA's error code, the per-thread last error, and a runtime that
// still works afterwards. The table lives in NegativeApiCases.cpp.
#include "NegativeApiCases.h"

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace negative {

Ctx::Ctx() {
  EXPECT_EQ(musaGetDeviceCount(&count), musaSuccess);
  EXPECT_EQ(musaMalloc(&d, Bytes), musaSuccess);
  EXPECT_EQ(musaMallocHost(&pinned, Bytes), musaSuccess);
  EXPECT_EQ(musaMallocManaged(&managed, Bytes), musaSuccess);
  EXPECT_EQ(musaStreamCreateWithFlags(&s, musaStreamNonBlocking), musaSuccess);
  EXPECT_EQ(musaEventCreate(&e), musaSuccess);
  EXPECT_EQ(musaEventCreateWithFlags(&untimed, musaEventDisableTiming), musaSuccess);
  EXPECT_EQ(musaGraphCreate(&g, 0), musaSuccess);
  EXPECT_EQ(musaGraphCreate(&other, 0), musaSuccess);
  EXPECT_EQ(musaGraphAddEmptyNode(&n, g, nullptr, 0), musaSuccess);
  EXPECT_EQ(musaGraphAddEmptyNode(&n1, g, &n, 1), musaSuccess);
  musaHostNodeParams hp = {&Ctx::noop, nullptr};
  EXPECT_EQ(musaGraphAddHostNode(&hostNode, g, nullptr, 0, &hp), musaSuccess);
  EXPECT_EQ(musaGraphAddEmptyNode(&otherNode, other, nullptr, 0), musaSuccess);
  EXPECT_EQ(musaGraphInstantiate(&exec, g, 0), musaSuccess);
  musaGraphExec_t dead;
  EXPECT_EQ(musaGraphInstantiate(&dead, other, 0), musaSuccess);
  EXPECT_EQ(musaGraphExecDestroy(dead), musaSuccess);
  deadExec = dead;
  EXPECT_EQ(musaDeviceGetDefaultMemPool(&pool, 0), musaSuccess);
  musaChannelFormatDesc desc = musaCreateChannelDesc<float>();
  EXPECT_EQ(musaMallocArray(&array, &desc, 16, 16), musaSuccess);
  EXPECT_EQ(musaMallocArray(&deadArray, &desc, 16, 16), musaSuccess);
  EXPECT_EQ(musaFreeArray(deadArray), musaSuccess);
  // The stale handles last: made and destroyed while every live handle is held, so none of
  // them is a live handle's address again.
  EXPECT_EQ(musaMalloc(&freed, Bytes), musaSuccess);
  EXPECT_EQ(musaFree(freed), musaSuccess);
  EXPECT_EQ(musaStreamCreate(&deadStream), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(deadStream), musaSuccess);
  EXPECT_EQ(musaEventCreate(&deadEvent), musaSuccess);
  EXPECT_EQ(musaEventDestroy(deadEvent), musaSuccess);
  EXPECT_EQ(musaGraphCreate(&deadGraph, 0), musaSuccess);
  EXPECT_EQ(musaGraphDestroy(deadGraph), musaSuccess);
  EXPECT_NE(static_cast<void *>(deadStream), static_cast<void *>(s));
  EXPECT_NE(static_cast<void *>(deadEvent), static_cast<void *>(e));
  EXPECT_NE(static_cast<void *>(deadEvent), static_cast<void *>(untimed));
  EXPECT_NE(static_cast<void *>(deadGraph), static_cast<void *>(g));
  EXPECT_NE(static_cast<void *>(deadGraph), static_cast<void *>(other));
  EXPECT_NE(freed, d);
}

Ctx::~Ctx() {
  for (auto it = cleanups.rbegin(); it != cleanups.rend(); ++it)
    (*it)();
  musaStreamSynchronize(s);
  musaDeviceSynchronize();
  musaFreeArray(array);
  musaGraphExecDestroy(exec);
  musaGraphDestroy(g);
  musaGraphDestroy(other);
  musaEventDestroy(e);
  musaEventDestroy(untimed);
  musaStreamDestroy(s);
  musaFree(managed);
  musaFreeHost(pinned);
  musaFree(d);
  musaSetDevice(0);
  musaGetLastError();
}

namespace {
std::vector<Case> *filling = nullptr;
}

std::vector<Case> &registry() {
  static std::vector<Case> cases = [] {
    std::vector<Case> all;
    filling = &all;
    addDeviceCases();
    addMemoryCases();
    addStreamEventCases();
    addGraphCases();
    addOtherCases();
    filling = nullptr;
    return all;
  }();
  return cases;
}

Case &add(const char *api, std::string arg, musaError_t expected, Call call) {
  filling->push_back({api, std::move(arg), expected, std::move(call), {}});
  return filling->back();
}

namespace {

/// A small round trip through device memory: the runtime still works.
void expectRuntimeWorks() {
  constexpr size_t N = 64;
  unsigned char *dev = nullptr;
  unsigned char out[N] = {};
  ASSERT_EQ(musaMalloc(&dev, N), musaSuccess);
  EXPECT_EQ(musaMemset(dev, 0x5a, N), musaSuccess);
  EXPECT_EQ(musaMemcpy(out, dev, N, musaMemcpyDeviceToHost), musaSuccess);
  EXPECT_EQ(musaFree(dev), musaSuccess);
  for (unsigned char byte : out)
    ASSERT_EQ(byte, 0x5a);
  EXPECT_EQ(musaGetLastError(), musaSuccess);
}

std::vector<std::string> caseNames() {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const Case &c : registry()) {
    std::string name = c.api + "_" + c.arg;
    for (char &ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch)))
        ch = '_';
    std::string unique = name;
    for (int i = 2; !seen.insert(unique).second; ++i)
      unique = name + "_" + std::to_string(i);
    names.push_back(unique);
  }
  return names;
}

const std::vector<std::string> &names() {
  static const std::vector<std::string> all = caseNames();
  return all;
}

class NegativeApiTest : public testing::TestWithParam<size_t> {};

TEST_P(NegativeApiTest, FailsWithCudasErrorAndLeavesRuntimeWorking) {
  const Case &c = registry()[GetParam()];
  if (!c.divergence.empty())
    GTEST_SKIP() << "known divergence: " << c.divergence;
  musaGetLastError();
  {
    Ctx ctx;
    ASSERT_FALSE(HasFailure()) << "setting up the handles failed";
    ASSERT_EQ(musaGetLastError(), musaSuccess);
    musaError_t got = c.call(ctx);
    EXPECT_EQ(got, c.expected) << c.api << " (" << c.arg << "): got " << musaGetErrorName(got)
                               << ", CUDA gives " << musaGetErrorName(c.expected);
    // musaErrorNotReady is a status, never recorded as the last error.
    musaError_t recorded = c.expected == musaErrorNotReady ? musaSuccess : c.expected;
    EXPECT_EQ(musaPeekAtLastError(), recorded);
    EXPECT_EQ(musaGetLastError(), recorded);
    EXPECT_EQ(musaGetLastError(), musaSuccess) << "the error must not be sticky";
  }
  expectRuntimeWorks();
}

INSTANTIATE_TEST_SUITE_P(Table, NegativeApiTest, testing::Range(size_t(0), registry().size()),
                         [](const testing::TestParamInfo<size_t> &info) {
                           return names()[info.param];
                         });

TEST(NegativeApiTable, HasAtLeastFiveHundredCases) { EXPECT_GE(registry().size(), 500u); }

} // namespace
} // namespace negative
