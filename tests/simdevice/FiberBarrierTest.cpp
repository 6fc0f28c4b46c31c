// BlockExecutor and GridLauncher with hand-written kernels (no JIT): barriers, divergence,
// faults, and the loop path.
#include "musa/sim/GridLauncher.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

using namespace musa::sim;

namespace {

uint32_t linearTid(const ThreadContext *c) {
  return c->tid[0] + c->ntid[0] * (c->tid[1] + c->ntid[1] * c->tid[2]);
}

// slots[tid] = tid + 1; barrier; seen[tid] = sum of all slots.
void sumAfterBarrier(void **args, ThreadContext *c) {
  auto *slots = *static_cast<int **>(args[0]);
  auto *seen = *static_cast<int **>(args[1]);
  uint32_t n = c->ntid[0] * c->ntid[1] * c->ntid[2], t = linearTid(c);
  slots[t] = int(t + 1);
  __musa_sim_barrier(c);
  int sum = 0;
  for (uint32_t i = 0; i < n; ++i)
    sum += slots[i];
  seen[t] = sum;
}

// Ten phases; in each, every thread checks that all threads finished the previous phase.
void phases(void **args, ThreadContext *c) {
  auto *counter = *static_cast<std::atomic<int> **>(args[0]);
  auto *errors = *static_cast<std::atomic<int> **>(args[1]);
  int n = int(c->ntid[0] * c->ntid[1] * c->ntid[2]);
  for (int phase = 0; phase < 10; ++phase) {
    counter->fetch_add(1);
    __musa_sim_barrier(c);
    if (counter->load() != n * (phase + 1))
      errors->fetch_add(1);
    __musa_sim_barrier(c);
  }
}

void firstFourWait(void **args, ThreadContext *c) {
  auto *after = *static_cast<std::atomic<int> **>(args[0]);
  if (linearTid(c) < 4) {
    __musa_sim_barrier(c);
    after->fetch_add(1);
  }
}

void touchNull(void **, ThreadContext *c) {
  __musa_sim_barrier(c);
  if (c->ctaid[0] == 1 && linearTid(c) == 3)
    *static_cast<volatile int *>(nullptr) = 1;
}

int recurseDeep(volatile char *prev, int depth) {
  volatile char frame[1024];
  frame[0] = prev ? prev[0] : char(depth);
  return depth == 0 ? frame[0] : recurseDeep(frame, depth - 1) + frame[0];
}

void overflowStack(void **, ThreadContext *c) {
  __musa_sim_barrier(c);
  recurseDeep(nullptr, 1 << 20);
}

void trapThread(void **, ThreadContext *c) {
  __musa_sim_barrier(c);
  if (linearTid(c) == 2)
    __musa_sim_trap(c);
}

// The loop path's entry: the block function iterates over threads itself.
void writeBlockIndex(void **args, ThreadContext *c) {
  auto *out = *static_cast<uint32_t **>(args[0]);
  for (uint32_t x = 0; x < c->ntid[0]; ++x)
    out[c->ctaid[0] * c->ntid[0] + x] = c->ctaid[0] * 1000 + x;
}

// Loop path, 2-D grid: every block's linear index from its ctaid; block (3,5) faults.
void writeOrFault(void **args, ThreadContext *c) {
  auto *out = *static_cast<uint32_t **>(args[0]);
  uint32_t block = c->ctaid[0] + c->nctaid[0] * c->ctaid[1];
  if (c->ctaid[0] == 3 && c->ctaid[1] == 5)
    *static_cast<volatile int *>(nullptr) = 1;
  for (uint32_t x = 0; x < c->ntid[0]; ++x)
    out[block * c->ntid[0] + x] += block + 1;
}

// Loop path: block 41 reports a misaligned access the way CheckAccesses' code does.
void flagMisaligned(void **args, ThreadContext *c) {
  auto *ran = *static_cast<std::atomic<int> **>(args[0]);
  ran->fetch_add(1);
  if (c->ctaid[0] == 41)
    c->accessFaults |= musa::sim::abi::AccessFaultMisaligned;
}

LaunchOutcome launch(KernelThunk thunk, Dim3 grid, Dim3 block, std::vector<void *> args,
                     bool fibers = true, int warpSize = 32) {
  KernelEntry kernel;
  kernel.name = "_Z4testv";
  kernel.thread = fibers ? thunk : nullptr;
  kernel.block = fibers ? nullptr : thunk;
  kernel.needsFibers = fibers;
  GridLaunch l;
  l.kernel = &kernel;
  l.grid = grid;
  l.block = block;
  l.args = args.data();
  l.warpSize = warpSize;
  return runGrid(l);
}

} // namespace

TEST(FiberBarrier, AllThreadsSeeEveryWriteAfterTheBarrier) {
  for (Dim3 block : {Dim3{64, 1, 1}, Dim3{8, 4, 2}, Dim3{1, 1, 1}, Dim3{1024, 1, 1}}) {
    uint32_t n = uint32_t(block.count());
    std::vector<int> slots(n), seen(n);
    int *s = slots.data(), *v = seen.data();
    LaunchOutcome out = launch(sumAfterBarrier, {1, 1, 1}, block, {&s, &v});
    ASSERT_TRUE(out.ok()) << out.message;
    for (uint32_t i = 0; i < n; ++i)
      ASSERT_EQ(seen[i], int(n * (n + 1) / 2)) << "thread " << i << " of " << n;
  }
}

TEST(FiberBarrier, BarrierInALoopKeepsPhasesApart) {
  std::atomic<int> counter{0}, errors{0};
  std::atomic<int> *c = &counter, *e = &errors;
  LaunchOutcome out = launch(phases, {1, 1, 1}, {96, 1, 1}, {&c, &e});
  ASSERT_TRUE(out.ok()) << out.message;
  EXPECT_EQ(errors.load(), 0);
  EXPECT_EQ(counter.load(), 960);
}

TEST(FiberBarrier, ExitedThreadsDoNotHoldTheBarrierUp) {
  // As PTX does: 28 threads of each block return, the 4 that wait are released.
  std::atomic<int> after{0};
  std::atomic<int> *a = &after;
  LaunchOutcome out = launch(firstFourWait, {2, 1, 1}, {32, 1, 1}, {&a});
  ASSERT_TRUE(out.ok()) << out.message;
  EXPECT_EQ(after.load(), 8);
}

TEST(FiberBarrier, BadAddressNamesBlockAndThread) {
  LaunchOutcome out = launch(touchNull, {3, 1, 1}, {8, 1, 1}, {});
  EXPECT_EQ(out.fault, FaultKind::IllegalAddress);
  EXPECT_NE(out.message.find("block (1,0,0) thread (3,0,0)"), std::string::npos)
      << out.message;
}

TEST(FiberBarrier, StackOverflowHitsTheGuardPage) {
  LaunchOutcome out = launch(overflowStack, {1, 1, 1}, {4, 1, 1}, {});
  EXPECT_EQ(out.fault, FaultKind::StackOverflow) << out.message;
  // The worker survives and runs the next launch normally.
  std::vector<int> slots(16), seen(16);
  int *s = slots.data(), *v = seen.data();
  EXPECT_TRUE(launch(sumAfterBarrier, {1, 1, 1}, {16, 1, 1}, {&s, &v}).ok());
  EXPECT_EQ(seen[15], 136);
}

TEST(FiberBarrier, TrapEndsTheLaunch) {
  LaunchOutcome out = launch(trapThread, {1, 1, 1}, {4, 1, 1}, {});
  EXPECT_EQ(out.fault, FaultKind::Trap);
  EXPECT_NE(out.message.find("thread (2,0,0)"), std::string::npos) << out.message;
}

TEST(LoopBlocks, EveryBlockRunsOnceWithItsIndex) {
  std::vector<uint32_t> out(100 * 7);
  uint32_t *o = out.data();
  ASSERT_TRUE(launch(writeBlockIndex, {100, 1, 1}, {7, 1, 1}, {&o}, false).ok());
  for (uint32_t b = 0; b < 100; ++b)
    for (uint32_t x = 0; x < 7; ++x)
      ASSERT_EQ(out[b * 7 + x], b * 1000 + x);
}

TEST(LoopBlocks, EveryBlockOfA2DGridRunsOnceUntilOneFaults) {
  // Consecutive blocks share one set-up and one fault guard (runBlockBatch): each still sees
  // its own index, and a fault names its own block, not the batch's first.
  std::vector<uint32_t> out(8 * 6 * 3);
  uint32_t *o = out.data();
  LaunchOutcome fault = launch(writeOrFault, {8, 6, 1}, {3, 1, 1}, {&o}, false);
  EXPECT_EQ(fault.fault, FaultKind::IllegalAddress);
  EXPECT_NE(fault.message.find("block (3,5,0)"), std::string::npos) << fault.message;
  for (uint32_t b = 0; b < 8 * 6; ++b)
    for (uint32_t x = 0; x < 3; ++x)
      ASSERT_LE(out[b * 3 + x], b + 1) << "block " << b << " ran twice";
  std::fill(out.begin(), out.end(), 0);
  LaunchOutcome ok = launch(writeOrFault, {8, 5, 1}, {3, 1, 1}, {&o}, false);
  ASSERT_TRUE(ok.ok()) << ok.message;
  for (uint32_t b = 0; b < 8 * 5; ++b)
    for (uint32_t x = 0; x < 3; ++x)
      ASSERT_EQ(out[b * 3 + x], b + 1) << "block " << b;
}

TEST(LoopBlocks, AnAccessFaultNamesItsBlockAndStopsTheGrid) {
  std::atomic<int> ran{0};
  std::atomic<int> *r = &ran;
  LaunchOutcome out = launch(flagMisaligned, {4096, 1, 1}, {1, 1, 1}, {&r}, false);
  EXPECT_EQ(out.fault, FaultKind::MisalignedAddress);
  EXPECT_NE(out.message.find("block (41,0,0)"), std::string::npos) << out.message;
  EXPECT_LT(ran.load(), 4096); // the first fault stops the blocks not yet started
}

TEST(LaunchConfig, LimitsComeFromTheProfile) {
  std::string error;
  auto profile = DeviceProfile::load("mtt-s4000", error);
  ASSERT_TRUE(profile) << error;
  KernelEntry kernel;
  kernel.staticSharedBytes = 1024;
  GridLaunch l;
  l.kernel = &kernel;
  l.block = {1024, 1, 1};
  EXPECT_EQ(checkLaunchConfig(*profile, l), "");
  l.block = {1025, 1, 1};
  EXPECT_NE(checkLaunchConfig(*profile, l), "");
  l.block = {32, 1, 1};
  l.grid = {1, 0, 1};
  EXPECT_NE(checkLaunchConfig(*profile, l), "");
  l.grid = {1, 1, 1};
  l.dynamicSharedBytes = profile->sharedMemPerBlockOptin - 1024 + 1;
  EXPECT_NE(checkLaunchConfig(*profile, l).find("shared memory"), std::string::npos);
}
