// DeviceMemory: allocation table, bounds, freeing, exhaustion.
#include "musa/sim/DeviceMemory.h"

#include <gtest/gtest.h>

using musa::sim::DeviceMemory;

TEST(DeviceMemory, AllocationsAreAlignedDistinctAndWritable) {
  DeviceMemory mem(64 << 20);
  auto *a = static_cast<char *>(mem.allocate(100));
  auto *b = static_cast<char *>(mem.allocate(5000));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % DeviceMemory::Alignment, 0u);
  EXPECT_TRUE(b >= a + 100 || a >= b + 5000);
  a[99] = 1;
  b[4999] = 2;
  EXPECT_TRUE(mem.contains(a, 100));
  EXPECT_FALSE(mem.contains(a, 101)); // bounds are the requested size
  EXPECT_TRUE(mem.contains(b + 10, 4990));
  EXPECT_EQ(mem.find(b + 17)->base, b);
  EXPECT_TRUE(mem.owns(a));
}

TEST(DeviceMemory, FreeRejectsInteriorAndRepeatedPointers) {
  DeviceMemory mem(16 << 20);
  void *a = mem.allocate(4096);
  EXPECT_FALSE(mem.free(static_cast<char *>(a) + 8));
  EXPECT_TRUE(mem.free(a));
  EXPECT_FALSE(mem.free(a));
  EXPECT_FALSE(mem.find(a).has_value());
}

TEST(DeviceMemory, ExhaustionFailsAndFreedSpaceIsReused) {
  DeviceMemory mem(1 << 20);
  void *all = mem.allocate(1 << 20);
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(mem.allocate(1), nullptr);
  EXPECT_EQ(mem.used(), uint64_t(1) << 20);
  EXPECT_TRUE(mem.free(all));
  EXPECT_EQ(mem.used(), 0u);
  void *x = mem.allocate(300 << 10), *y = mem.allocate(300 << 10);
  ASSERT_NE(x, nullptr);
  ASSERT_NE(y, nullptr);
  mem.free(x);
  mem.free(y);
  // Coalesced: the whole range is available as one block again.
  EXPECT_NE(mem.allocate(1 << 20), nullptr);
}

TEST(DeviceMemory, ReservationDoesNotCommitHostMemory) {
  // 64 GiB of device address space on any host: only touched pages cost memory.
  DeviceMemory mem(uint64_t(64) << 30);
  ASSERT_EQ(mem.capacity(), uint64_t(64) << 30);
  void *p = mem.allocate(size_t(8) << 30);
  ASSERT_NE(p, nullptr);
  static_cast<char *>(p)[0] = 1;
  mem.freeAll();
  EXPECT_EQ(mem.used(), 0u);
}
