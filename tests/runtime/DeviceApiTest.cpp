// Device queries and properties.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <cstring>

TEST(DeviceApi, OneDeviceWithTheProfileProperties) {
  int count = 0;
  ASSERT_EQ(musaGetDeviceCount(&count), musaSuccess);
  EXPECT_EQ(count, 1);
  musaDeviceProp prop;
  ASSERT_EQ(musaGetDeviceProperties(&prop, 0), musaSuccess);
  EXPECT_STREQ(prop.name, "MTT S4000");
  EXPECT_EQ(prop.warpSize, 128);
  EXPECT_EQ(prop.maxThreadsPerBlock, 1024);
  EXPECT_EQ(prop.totalGlobalMem, size_t(48) << 30);
  EXPECT_EQ(prop.sharedMemPerBlock, size_t(72) << 10);
  EXPECT_EQ(prop.major, 2);
  EXPECT_EQ(prop.minor, 2);
  musaDeviceProp_t alias;
  EXPECT_EQ(musaGetDeviceProperties(&alias, 0), musaSuccess);
  EXPECT_EQ(std::memcmp(&alias, &prop, sizeof prop), 0);
}

TEST(DeviceApi, InvalidArgumentsAreRefusedWithoutWritingOutputs) {
  musaDeviceProp prop;
  EXPECT_EQ(musaGetDeviceProperties(&prop, 1), musaErrorInvalidDevice);
  EXPECT_EQ(musaGetDeviceProperties(&prop, -1), musaErrorInvalidDevice);
  EXPECT_EQ(musaGetDeviceProperties(nullptr, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaGetDeviceCount(nullptr), musaErrorInvalidValue);
  int device = 7;
  EXPECT_EQ(musaSetDevice(1), musaErrorInvalidDevice);
  EXPECT_EQ(musaGetDevice(&device), musaSuccess);
  EXPECT_EQ(device, 0);
  EXPECT_EQ(musaGetDevice(nullptr), musaErrorInvalidValue);
  musaGetLastError();
}

TEST(DeviceApi, MemGetInfoTracksAllocations) {
  size_t free0, total;
  ASSERT_EQ(musaMemGetInfo(&free0, &total), musaSuccess);
  EXPECT_EQ(total, size_t(48) << 30);
  void *p;
  ASSERT_EQ(musaMalloc(&p, 64 << 20), musaSuccess);
  size_t free1;
  ASSERT_EQ(musaMemGetInfo(&free1, &total), musaSuccess);
  EXPECT_EQ(free0 - free1, size_t(64) << 20);
  EXPECT_EQ(musaFree(p), musaSuccess);
}

TEST(DeviceApi, Versions) {
  int v = 0;
  EXPECT_EQ(musaRuntimeGetVersion(&v), musaSuccess);
  EXPECT_EQ(v, MUSART_VERSION);
  EXPECT_EQ(musaDriverGetVersion(nullptr), musaErrorInvalidValue);
  musaGetLastError();
}
