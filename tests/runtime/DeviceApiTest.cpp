// Device queries and properties.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <cstring>

TEST(DeviceApi, TwoDevicesWithTheProfileProperties) {
  int count = 0;
  ASSERT_EQ(musaGetDeviceCount(&count), musaSuccess);
  EXPECT_EQ(count, 2); // MUSA_SIM_DEVICE_COUNT=2 in this suite
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
  EXPECT_EQ(musaGetDeviceProperties(&prop, 2), musaErrorInvalidDevice);
  EXPECT_EQ(musaGetDeviceProperties(&prop, -1), musaErrorInvalidDevice);
  EXPECT_EQ(musaGetDeviceProperties(nullptr, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaGetDeviceCount(nullptr), musaErrorInvalidValue);
  int device = 7;
  EXPECT_EQ(musaSetDevice(2), musaErrorInvalidDevice);
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

TEST(DeviceApi, PciBusIdsRoundTrip) {
  char id[16];
  ASSERT_EQ(musaDeviceGetPCIBusId(id, sizeof id, 1), musaSuccess);
  EXPECT_STREQ(id, "0000:11:00.0");
  int device = -1;
  ASSERT_EQ(musaDeviceGetByPCIBusId(&device, id), musaSuccess);
  EXPECT_EQ(device, 1);
  EXPECT_EQ(musaDeviceGetByPCIBusId(&device, "10:00.0"), musaSuccess);
  EXPECT_EQ(device, 0);
  char tiny[4];
  EXPECT_EQ(musaDeviceGetPCIBusId(tiny, sizeof tiny, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceGetPCIBusId(id, sizeof id, 9), musaErrorInvalidDevice);
  EXPECT_EQ(musaDeviceGetByPCIBusId(&device, "not a bus id"), musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceGetByPCIBusId(&device, "0000:7f:00.0"), musaErrorInvalidDevice);
  musaGetLastError();
}

TEST(DeviceApi, UuidMatchesPropertiesAndDiffersPerDevice) {
  musaUuid_t a, b;
  ASSERT_EQ(musaDeviceGetUuid(&a, 0), musaSuccess);
  ASSERT_EQ(musaDeviceGetUuid(&b, 1), musaSuccess);
  musaDeviceProp prop;
  ASSERT_EQ(musaGetDeviceProperties(&prop, 0), musaSuccess);
  EXPECT_EQ(std::memcmp(a.bytes, prop.uuid.bytes, 16), 0);
  EXPECT_NE(std::memcmp(a.bytes, b.bytes, 16), 0);
  EXPECT_EQ(musaDeviceGetUuid(nullptr, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceGetUuid(&a, 3), musaErrorInvalidDevice);
  musaGetLastError();
}

TEST(DeviceApi, AttributesAgreeWithProperties) {
  musaDeviceProp prop;
  ASSERT_EQ(musaGetDeviceProperties(&prop, 0), musaSuccess);
  int v = 0;
  ASSERT_EQ(musaDeviceGetAttribute(&v, musaDevAttrWarpSize, 0), musaSuccess);
  EXPECT_EQ(v, prop.warpSize);
  ASSERT_EQ(musaDeviceGetAttribute(&v, musaDevAttrMultiProcessorCount, 0), musaSuccess);
  EXPECT_EQ(v, prop.multiProcessorCount);
  ASSERT_EQ(musaDeviceGetAttribute(&v, musaDevAttrMaxSharedMemoryPerBlockOptin, 0), musaSuccess);
  EXPECT_EQ(size_t(v), prop.sharedMemPerBlockOptin);
  ASSERT_EQ(musaDeviceGetAttribute(&v, musaDevAttrComputeCapabilityMajor, 0), musaSuccess);
  EXPECT_EQ(v, prop.major);
  EXPECT_EQ(musaDeviceGetAttribute(&v, musaDeviceAttr(9999), 0), musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceGetAttribute(nullptr, musaDevAttrWarpSize, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceGetAttribute(&v, musaDevAttrWarpSize, 5), musaErrorInvalidDevice);
  musaGetLastError();
}

TEST(DeviceApi, DeviceFlags) {
  EXPECT_EQ(musaSetDeviceFlags(musaDeviceScheduleBlockingSync | musaDeviceMapHost), musaSuccess);
  unsigned flags = 0;
  EXPECT_EQ(musaGetDeviceFlags(&flags), musaSuccess);
  EXPECT_EQ(flags, unsigned(musaDeviceScheduleBlockingSync | musaDeviceMapHost));
  EXPECT_EQ(musaSetDeviceFlags(musaDeviceScheduleSpin | musaDeviceScheduleYield),
            musaErrorInvalidValue);
  EXPECT_EQ(musaSetDeviceFlags(0x100), musaErrorInvalidValue);
  EXPECT_EQ(musaGetDeviceFlags(nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaSetDeviceFlags(0), musaSuccess);
  musaGetLastError();
}
