// musaDeviceSetLimit / musaDeviceGetLimit: defaults, per-device values, and every refusal.
#include "musa_runtime.h"

#include <gtest/gtest.h>

TEST(LimitApi, DefaultsAreCudas) {
  ASSERT_EQ(musaDeviceReset(), musaSuccess);
  size_t v = 0;
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitMallocHeapSize), musaSuccess);
  EXPECT_EQ(v, size_t(8) << 20);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitStackSize), musaSuccess);
  EXPECT_EQ(v, 1024u);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitPrintfFifoSize), musaSuccess);
  EXPECT_EQ(v, 8650752u); // the H100's and H200's (CUDA 13), not the 1 MiB CUDA documents
}

// What the GPU does with the sizes it is given (an H100: limits_rounding.h100.txt).
TEST(LimitApi, SizesAreRoundedAsTheGpuRoundsThem) {
  size_t v = 0;
  ASSERT_EQ(musaDeviceSetLimit(musaLimitStackSize, 1000), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitStackSize), musaSuccess);
  EXPECT_EQ(v, 1008u);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitStackSize, 1024), musaSuccess);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitPrintfFifoSize, 1000), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitPrintfFifoSize), musaSuccess);
  EXPECT_EQ(v, 524288u);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitMallocHeapSize, 1 << 20), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitMallocHeapSize), musaSuccess);
  EXPECT_EQ(v, size_t(4) << 20);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitMallocHeapSize, (4 << 20) + 1), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitMallocHeapSize), musaSuccess);
  EXPECT_EQ(v, 4259840u);
  // Far more than the device has: accepted, and what can be reserved is kept.
  musaDeviceProp prop;
  ASSERT_EQ(musaGetDeviceProperties(&prop, 0), musaSuccess);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitMallocHeapSize, size_t(1) << 50), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitMallocHeapSize), musaSuccess);
  EXPECT_GT(v, size_t(8) << 20);
  EXPECT_LT(v, prop.totalGlobalMem);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitDevRuntimePendingLaunchCount, 0), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitDevRuntimePendingLaunchCount), musaSuccess);
  EXPECT_EQ(v, 32u);
  ASSERT_EQ(musaDeviceReset(), musaSuccess);
}

TEST(LimitApi, ValuesAreKeptPerDeviceUntilReset) {
  ASSERT_EQ(musaSetDevice(1), musaSuccess);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitMallocHeapSize, 5 << 20), musaSuccess);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitStackSize, 4096), musaSuccess);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitPrintfFifoSize, 4 << 20), musaSuccess);
  size_t v = 0;
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitMallocHeapSize), musaSuccess);
  EXPECT_EQ(v, size_t(5) << 20);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitPrintfFifoSize), musaSuccess);
  EXPECT_EQ(v, size_t(4) << 20);
  ASSERT_EQ(musaSetDevice(0), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitStackSize), musaSuccess);
  EXPECT_EQ(v, 1024u); // device 0 untouched
  ASSERT_EQ(musaSetDevice(1), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitStackSize), musaSuccess);
  EXPECT_EQ(v, 4096u);
  ASSERT_EQ(musaDeviceReset(), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitStackSize), musaSuccess);
  EXPECT_EQ(v, 1024u);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitMallocHeapSize), musaSuccess);
  EXPECT_EQ(v, size_t(8) << 20);
  ASSERT_EQ(musaSetDevice(0), musaSuccess);
}

TEST(LimitApi, RefusalsLeaveValuesAlone) {
  size_t v = 77;
  EXPECT_EQ(musaDeviceGetLimit(nullptr, musaLimitStackSize), musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceGetLimit(&v, musaLimit(99)), musaErrorUnsupportedLimit);
  EXPECT_EQ(musaDeviceSetLimit(musaLimit(99), 1), musaErrorUnsupportedLimit);
  // No device-side synchronisation (CUDA 12's dynamic parallelism has none); no set-aside
  // beyond persistingL2CacheMaxSize.
  EXPECT_EQ(musaDeviceGetLimit(&v, musaLimitDevRuntimeSyncDepth), musaErrorUnsupportedLimit);
  musaDeviceProp prop;
  ASSERT_EQ(musaGetDeviceProperties(&prop, 0), musaSuccess);
  EXPECT_EQ(musaDeviceSetLimit(musaLimitPersistingL2CacheSize,
                               size_t(prop.persistingL2CacheMaxSize) + 1),
            musaErrorInvalidValue);
  EXPECT_EQ(v, 77u);
  // Too large: a stack beyond the simulator's thread stack.
  testing::internal::CaptureStderr();
  EXPECT_EQ(musaDeviceSetLimit(musaLimitStackSize, size_t(1) << 30), musaErrorInvalidValue);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("MUSA_SIM_STACK_SIZE"), std::string::npos);
  EXPECT_EQ(musaDeviceSetLimit(musaLimitMaxL2FetchGranularity, 256), musaErrorInvalidValue);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitStackSize), musaSuccess);
  EXPECT_EQ(v, 1024u);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitMallocHeapSize), musaSuccess);
  EXPECT_EQ(v, size_t(8) << 20);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitMaxL2FetchGranularity, 128), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitMaxL2FetchGranularity), musaSuccess);
  EXPECT_EQ(v, 128u);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitPersistingL2CacheSize), musaSuccess);
  EXPECT_EQ(v, 0u); // the refused set-aside left the default
  musaGetLastError();
}

TEST(LimitApi, PersistingL2SetAsideRoundTripsUpToTheDevicesMaximum) {
  musaDeviceProp prop;
  ASSERT_EQ(musaGetDeviceProperties(&prop, 0), musaSuccess);
  // As the H200 reports them (CUDA 13): 3/4 of the L2 for persistence, 128 MiB windows.
  EXPECT_EQ(prop.persistingL2CacheMaxSize, prop.l2CacheSize / 4 * 3);
  EXPECT_EQ(prop.accessPolicyMaxWindowSize, 134217728);
  size_t v = 0;
  ASSERT_EQ(musaDeviceSetLimit(musaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize),
            musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitPersistingL2CacheSize), musaSuccess);
  EXPECT_EQ(v, size_t(prop.persistingL2CacheMaxSize));
  EXPECT_EQ(musaCtxResetPersistingL2Cache(), musaSuccess);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitPersistingL2CacheSize, 0), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitPersistingL2CacheSize), musaSuccess);
  EXPECT_EQ(v, 0u);
}

TEST(LimitApi, PendingDeviceLaunchesDefaultAndSet) {
  size_t v = 0;
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitDevRuntimePendingLaunchCount), musaSuccess);
  EXPECT_EQ(v, 2048u); // CUDA's default
  ASSERT_EQ(musaDeviceSetLimit(musaLimitDevRuntimePendingLaunchCount, 100), musaSuccess);
  ASSERT_EQ(musaDeviceGetLimit(&v, musaLimitDevRuntimePendingLaunchCount), musaSuccess);
  EXPECT_EQ(v, 100u);
  ASSERT_EQ(musaDeviceSetLimit(musaLimitDevRuntimePendingLaunchCount, 2048), musaSuccess);
}
