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

#include <sys/mman.h>
#include <unistd.h>

TEST(DeviceMemory, MappingsLiveInReservationsAndFollowTheirRules) {
  DeviceMemory mem(64 << 20);
  const size_t g = 2 << 20;
  int fd = memfd_create("device-memory-test", 0);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, off_t(2 * g)), 0);
  auto *r = static_cast<char *>(mem.reserve(4 * g, g, 0));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(r) % g, 0u);
  EXPECT_FALSE(mem.find(r).has_value());          // reserved is not allocated
  void *a = mem.allocate(g);                      // allocations keep out of the reservation
  EXPECT_TRUE(static_cast<char *>(a) >= r + 4 * g || static_cast<char *>(a) + g <= r);
  EXPECT_FALSE(mem.map(r + 3 * g, 2 * g, fd, 0, 8)); // runs past the reservation's end
  ASSERT_TRUE(mem.map(r, g, fd, 0, 8));
  ASSERT_TRUE(mem.map(r + g, g, fd, g, 8));
  EXPECT_FALSE(mem.map(r + g, g, fd, 0, 8)); // over a mapping
  ASSERT_TRUE(mem.map(r + 3 * g, g, fd, 0, 8)); // the first half again, at another address
  EXPECT_FALSE(mem.mappingAt(r + 2 * g).has_value());
  EXPECT_FALSE(mem.mappingAt(r + 5)->read);
  // Back-to-back mappings are one stretch to find(); a gap ends it.
  EXPECT_EQ(mem.find(r + g + 7)->base, r);
  EXPECT_EQ(mem.find(r + g + 7)->size, 2 * g);
  EXPECT_FALSE(mem.protect(r, g / 2, true, true)); // part of a mapping
  ASSERT_TRUE(mem.protect(r, 2 * g, true, true));
  ASSERT_TRUE(mem.protect(r + 3 * g, g, true, false));
  r[10] = 42;
  EXPECT_EQ(r[3 * g + 10], 42); // the same physical page
  EXPECT_FALSE(mem.unreserve(r, 4 * g)); // still mapped
  EXPECT_FALSE(mem.unmap(r, g + g / 2));
  EXPECT_TRUE(mem.unmap(r, 2 * g)); // two mappings at once
  EXPECT_FALSE(mem.find(r).has_value());
  EXPECT_TRUE(mem.unmap(r + 3 * g, g));
  EXPECT_FALSE(mem.unreserve(r, 2 * g)); // not the whole reservation
  EXPECT_TRUE(mem.unreserve(r, 4 * g));
  EXPECT_EQ(mem.reserve(4 * g, g, reinterpret_cast<uintptr_t>(r)), r); // free again: the hint holds
  EXPECT_TRUE(mem.charge(32 << 20));
  EXPECT_FALSE(mem.charge(64 << 20));
  EXPECT_EQ(mem.used(), (32u << 20) + g);
  mem.uncharge(32 << 20);
  close(fd);
}
