// Occupancy: each profile limit binds where it should, and impossible blocks give 0.
#include "musa/sim/Occupancy.h"

#include <gtest/gtest.h>

using namespace musa::sim;

namespace {
/// A profile with round numbers: 32-lane warps, 2048 threads, 16 blocks, 64 KiB shared memory
/// and 65536 registers per SM; 1024 threads and 48 KiB per block; 32 registers per thread.
DeviceProfile roundProfile() {
  DeviceProfile p;
  p.warpSize = 32;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsPerMultiProcessor = 2048;
  p.maxBlocksPerMultiProcessor = 16;
  p.sharedMemPerBlock = 48 << 10;
  p.sharedMemPerBlockOptin = 48 << 10;
  p.sharedMemPerMultiprocessor = 64 << 10;
  p.regsPerBlock = 65536;
  p.regsPerMultiprocessor = 65536;
  p.regsPerThread = 32;
  p.multiProcessorCount = 4;
  return p;
}
} // namespace

TEST(Occupancy, SmallBlocksAreLimitedByBlocksPerMultiprocessor) {
  EXPECT_EQ(residentBlocksPerMultiprocessor(roundProfile(), 32, 0), 16);
}

TEST(Occupancy, ThreadsCountInWholeWarps) {
  // 33 threads take two warps: 2048 / 64 = 32, then the 16-block limit; 600 take 19 warps.
  EXPECT_EQ(residentBlocksPerMultiprocessor(roundProfile(), 600, 0), 2048 / 608);
  EXPECT_EQ(residentBlocksPerMultiprocessor(roundProfile(), 1024, 0), 2);
}

TEST(Occupancy, SharedMemoryLimitsResidency) {
  EXPECT_EQ(residentBlocksPerMultiprocessor(roundProfile(), 64, 20 << 10), 3);
  EXPECT_EQ(residentBlocksPerMultiprocessor(roundProfile(), 64, 48 << 10), 1);
}

TEST(Occupancy, RegistersAtTheAssumedUsePerThreadLimitResidency) {
  DeviceProfile p = roundProfile();
  p.regsPerThread = 64; // 65536 / (64 * 256) = 4 blocks of 256 threads, not 8
  EXPECT_EQ(residentBlocksPerMultiprocessor(p, 256, 0), 4);
  p.regsPerThread = 255; // too many for even one block: still resident once (see header)
  EXPECT_EQ(residentBlocksPerMultiprocessor(p, 1024, 0), 1);
}

TEST(Occupancy, BlocksTheDeviceCannotRunGiveZero) {
  EXPECT_EQ(residentBlocksPerMultiprocessor(roundProfile(), 0, 0), 0);
  EXPECT_EQ(residentBlocksPerMultiprocessor(roundProfile(), 1025, 0), 0);
  EXPECT_EQ(residentBlocksPerMultiprocessor(roundProfile(), 32, (48 << 10) + 1), 0);
}

TEST(Occupancy, AvailableDynamicSharedMemorySplitsTheMultiprocessor) {
  // Two blocks share 64 KiB: 32 KiB each, less 4 KiB static.
  EXPECT_EQ(availableDynamicSharedPerBlock(roundProfile(), 128, 2, 4 << 10), 28u << 10);
  // One block: the per-block limit (48 KiB) binds, not the SM's 64 KiB.
  EXPECT_EQ(availableDynamicSharedPerBlock(roundProfile(), 128, 1, 0), 48u << 10);
  // More blocks than threads allow: none.
  EXPECT_EQ(availableDynamicSharedPerBlock(roundProfile(), 1024, 3, 0), 0u);
  EXPECT_EQ(availableDynamicSharedPerBlock(roundProfile(), 128, 2, 40 << 10), 0u);
}
