// Device printf formatting against clang's packed argument layout.
#include "musa/sim/DevicePrintf.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
struct Packer {
  std::vector<char> bytes;
  template <class T> Packer &add(T v) {
    size_t off = (bytes.size() + sizeof(T) - 1) / sizeof(T) * sizeof(T);
    bytes.resize(off + sizeof(T));
    std::memcpy(bytes.data() + off, &v, sizeof(T));
    return *this;
  }
};
} // namespace

using musa::sim::formatDevicePrintf;

TEST(DevicePrintf, IntegersFloatsStringsAndAlignment) {
  const char *name = "block";
  Packer p;
  p.add<int32_t>(-42).add<double>(3.5).add<const char *>(name).add<int32_t>('Z').add<int64_t>(
      1234567890123LL);
  EXPECT_EQ(formatDevicePrintf("%d %.2f %s %c %lld\n", p.bytes.data()),
            "-42 3.50 block Z 1234567890123\n");
}

TEST(DevicePrintf, WidthsFlagsAndStarArguments) {
  Packer p;
  p.add<uint32_t>(255).add<int32_t>(6).add<int32_t>(7).add<double>(0.000123).add<uint32_t>(8);
  EXPECT_EQ(formatDevicePrintf("[%#06x][%*d][%e][%o]%%", p.bytes.data()),
            "[0x00ff][     7][1.230000e-04][10]%");
}

TEST(DevicePrintf, NoArgumentsAndNullString) {
  EXPECT_EQ(formatDevicePrintf("plain text", nullptr), "plain text");
  Packer p;
  p.add<const char *>(nullptr);
  EXPECT_EQ(formatDevicePrintf("%s", p.bytes.data()), "(null)");
}
