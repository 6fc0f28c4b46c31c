// Repeated launches and the timing model's samples (simdevice/src/SampleMemo.cpp): which
// launches of a key sample, which reuse, and that the memo forgets keys past its bound.
#include "musa/sim/Timing.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace musa::sim;

namespace {
/// Launches of one kernel over 4096 blocks with one int argument; each call counts `ints`
/// integer instructions and says whether it reused samples.
struct Launches {
  KernelEntry kernel;
  std::vector<char> memory = std::vector<char>(1 << 16);
  explicit Launches(const char *name) {
    kernel.name = name; // a name of its own: the memo is process-wide
    kernel.instrumented = true;
    kernel.timingSites = 1;
    kernel.paramSizes = {4};
  }
  bool run(int argument, uint64_t ints) {
    void *args[] = {&argument};
    GridLaunch launch;
    launch.kernel = &kernel;
    launch.grid = {4096, 1, 1};
    launch.block = {256, 1, 1};
    launch.args = args;
    KernelCounters counters(launch, memory.data(), memory.size());
    bool reused = counters.reusesSamples();
    counters.classes[musa::sim::abi::ClassInt] = ints;
    counters.finishSampling();
    return reused;
  }
};
} // namespace

TEST(SampleMemo, RepeatsReuseWhileCountsHoldAndResampleAtPowersOfTwo) {
  Launches l("sample_memo_repeats");
  std::string seen;
  for (int n = 0; n < 18; ++n)
    seen += l.run(1, 100) ? 'r' : 's';
  // After 0, 1, 2, 4, 8 and 16 earlier launches: sampled; otherwise reused.
  EXPECT_EQ(seen, "sssrsrrrsrrrrrrrsr");
}

TEST(SampleMemo, ChangedCountsSampleUntilTheyHoldAgain) {
  Launches l("sample_memo_changes");
  std::string seen;
  const uint64_t counts[] = {100, 100, 100, 100, 100, 200, 200, 200, 200, 200};
  for (uint64_t c : counts)
    seen += l.run(1, c) ? 'r' : 's';
  // Launch 5 reuses (its predecessor matched) but counts otherwise, so 6 samples; 6 differs
  // from the sampled launch before it, so 7 samples too; 8 is after a power of two; 9, whose
  // predecessor matched the sampled 200, reuses.
  EXPECT_EQ(seen, "sssrsrsssr");
}

TEST(SampleMemo, OtherArgumentsAreOtherKeysAndTheMemoIsBounded) {
  Launches l("sample_memo_keys");
  for (int n = 0; n < 3; ++n)
    EXPECT_FALSE(l.run(1, 100));
  EXPECT_FALSE(l.run(2, 100)); // another argument: its own first launch
  EXPECT_TRUE(l.run(1, 100));  // the first key's fourth launch
  for (int key = 10; key < 10 + 300; ++key)
    l.run(key, 100); // more keys than the memo keeps: the first is forgotten
  std::string seen;
  for (int n = 0; n < 4; ++n)
    seen += l.run(1, 100) ? 'r' : 's';
  EXPECT_EQ(seen, "sssr");
}
