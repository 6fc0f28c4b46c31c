// Device queries and properties.
#include "musa.h"
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

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

TEST(DeviceApi, ResetWhileOtherThreadsHaveWorkInFlight) {
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
  GTEST_SKIP() << "copies racing the reset hit freed memory on purpose; ThreadSanitizer's "
                  "memmove interceptor faults there before the simulator's fault guard";
#endif
#endif
  // Host threads queue copies, memsets, host functions, events and arrays in a loop while
  // this thread resets the device under them. Their calls may fail (handles destroyed by the
  // reset, a copy faulting on memory the reset freed), but the process survives and, after a
  // last reset, the device works.
  std::atomic<bool> stop{false};
  std::atomic<long> rounds{0};
  // Host buffers outlive the threads: an asynchronous copy whose stream the reset tore down
  // while it was being submitted may still land after the reset (undefined on hardware).
  std::vector<std::vector<char>> hosts(4, std::vector<char>(1 << 14));
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&, t] {
      std::vector<char> &host = hosts[t];
      std::fill(host.begin(), host.end(), char(t));
      musaChannelFormatDesc desc = musaCreateChannelDesc(32, 0, 0, 0, musaChannelFormatKindFloat);
      while (!stop) {
        musaStream_t s = nullptr;
        musaEvent_t e = nullptr;
        musaArray_t a = nullptr;
        char *d = nullptr;
        musaStreamCreate(&s);
        musaEventCreate(&e);
        musaMalloc(&d, host.size());
        musaMallocArray(&a, &desc, 64, 4);
        for (int k = 0; k < 4; ++k) {
          musaMemcpyAsync(d, host.data(), host.size(), musaMemcpyHostToDevice, s);
          musaMemsetAsync(d, k, 256, k % 2 ? s : musaStreamPerThread);
          musaLaunchHostFunc(s, [](void *) {}, nullptr);
          musaEventRecord(e, s);
          musaEventQuery(e);
          musaStreamWaitEvent(musaStreamPerThread, e, 0);
          musaMemcpy2DToArray(a, 0, 0, host.data(), 256, 256, 4, musaMemcpyHostToDevice);
        }
        musaMemcpyAsync(host.data(), d, host.size(), musaMemcpyDeviceToHost, s);
        musaEventSynchronize(e);
        musaStreamSynchronize(s);
        musaEventDestroy(e);
        musaFreeArray(a);
        musaStreamDestroy(s);
        musaFree(d);
        musaGetLastError();
        ++rounds;
      }
    });
  for (int r = 0; r < 40; ++r) {
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    EXPECT_EQ(musaDeviceReset(), musaSuccess);
  }
  stop = true;
  for (auto &th : threads)
    th.join();
  EXPECT_GT(rounds.load(), 0);
  ASSERT_EQ(musaDeviceReset(), musaSuccess);
  EXPECT_EQ(musaGetLastError(), musaSuccess);
  std::vector<int> in(1024, 42), out(1024, 0);
  int *d = nullptr;
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  ASSERT_EQ(musaMalloc(&d, 4096), musaSuccess);
  EXPECT_EQ(musaMemcpyAsync(d, in.data(), 4096, musaMemcpyHostToDevice, s), musaSuccess);
  EXPECT_EQ(musaMemcpyAsync(out.data(), d, 4096, musaMemcpyDeviceToHost, s), musaSuccess);
  EXPECT_EQ(musaStreamSynchronize(s), musaSuccess);
  EXPECT_EQ(out, in);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
  EXPECT_EQ(musaFree(d), musaSuccess);
}

namespace {

/// musaGetDevice on a new host thread that never set a device (-1 if the call fails).
int deviceOfFreshThread() {
  int device = -1;
  musaError_t e = musaErrorUnknown;
  std::thread([&] { e = musaGetDevice(&device); }).join();
  return e == musaSuccess ? device : -1;
}

/// Restores the default valid-device list however a test ends.
struct DefaultValidDevicesAtExit {
  ~DefaultValidDevicesAtExit() {
    musaSetValidDevices(nullptr, 0);
    musaGetLastError();
  }
};

} // namespace

TEST(DeviceApi, ValidDevicesChooseTheDeviceOfThreadsThatSetNone) {
  DefaultValidDevicesAtExit restore;
  int count = 0;
  ASSERT_EQ(musaGetDeviceCount(&count), musaSuccess);
  ASSERT_GE(count, 2);
  int mine = -1;
  ASSERT_EQ(musaGetDevice(&mine), musaSuccess);
  EXPECT_EQ(deviceOfFreshThread(), 0); // the default: every device in ordinal order

  int last = count - 1;
  ASSERT_EQ(musaSetValidDevices(&last, 1), musaSuccess);
  EXPECT_EQ(deviceOfFreshThread(), last);
  // The implicit device is where the thread's work goes.
  std::thread([&] {
    void *p = nullptr;
    ASSERT_EQ(musaMalloc(&p, 256), musaSuccess);
    musaPointerAttributes a;
    std::memset(&a, 0, sizeof a);
    EXPECT_EQ(musaPointerGetAttributes(&a, p), musaSuccess);
    EXPECT_EQ(a.type, musaMemoryTypeDevice);
    EXPECT_EQ(a.device, last);
    EXPECT_EQ(musaFree(p), musaSuccess);
  }).join();
  // musaSetDevice still chooses any device.
  std::thread([&] {
    int device = -1;
    EXPECT_EQ(musaSetDevice(0), musaSuccess);
    EXPECT_EQ(musaGetDevice(&device), musaSuccess);
    EXPECT_EQ(device, 0);
  }).join();
  // The calling thread had its device already: the list does not move it.
  int now = -1;
  EXPECT_EQ(musaGetDevice(&now), musaSuccess);
  EXPECT_EQ(now, mine);

  // In order of preference: the first of the list is taken.
  int order[2] = {1, 0};
  ASSERT_EQ(musaSetValidDevices(order, 2), musaSuccess);
  EXPECT_EQ(deviceOfFreshThread(), 1);
  order[0] = 0;
  order[1] = 1;
  ASSERT_EQ(musaSetValidDevices(order, 2), musaSuccess);
  EXPECT_EQ(deviceOfFreshThread(), 0);

  // Length 0 restores the default order, with or without an array.
  ASSERT_EQ(musaSetValidDevices(&last, 1), musaSuccess);
  ASSERT_EQ(musaSetValidDevices(nullptr, 0), musaSuccess);
  EXPECT_EQ(deviceOfFreshThread(), 0);
  ASSERT_EQ(musaSetValidDevices(&last, 1), musaSuccess);
  ASSERT_EQ(musaSetValidDevices(&last, 0), musaSuccess);
  EXPECT_EQ(deviceOfFreshThread(), 0);
}

TEST(DeviceApi, ValidDevicesDoNotMoveAThreadThatHasADevice) {
  DefaultValidDevicesAtExit restore;
  // A thread that was given the default device keeps it when the list changes afterwards.
  std::atomic<int> step{0};
  int before = -1, after = -1;
  std::thread worker([&] {
    musaGetDevice(&before);
    step = 1;
    while (step.load() != 2)
      std::this_thread::yield();
    musaGetDevice(&after);
  });
  while (step.load() != 1)
    std::this_thread::yield();
  int one = 1;
  EXPECT_EQ(musaSetValidDevices(&one, 1), musaSuccess);
  step = 2;
  worker.join();
  EXPECT_EQ(before, 0);
  EXPECT_EQ(after, 0);
  EXPECT_EQ(deviceOfFreshThread(), 1);
}

TEST(DeviceApi, ValidDevicesRefuseBadLists) {
  DefaultValidDevicesAtExit restore;
  int count = 0;
  ASSERT_EQ(musaGetDeviceCount(&count), musaSuccess);
  std::vector<int> zeros(size_t(count) + 1, 0);
  EXPECT_EQ(musaSetValidDevices(zeros.data(), -1), musaErrorInvalidValue);
  EXPECT_EQ(musaSetValidDevices(nullptr, 1), musaErrorInvalidValue);
  // CUDA: a list longer than the devices there are.
  EXPECT_EQ(musaSetValidDevices(zeros.data(), count + 1), musaErrorInvalidValue);
  int withBad[2] = {count - 1, count};
  EXPECT_EQ(musaSetValidDevices(withBad, 2), musaErrorInvalidDevice);
  int negative = -1;
  EXPECT_EQ(musaSetValidDevices(&negative, 1), musaErrorInvalidDevice);
  EXPECT_EQ(musaGetLastError(), musaErrorInvalidDevice);
  // A refused list changes nothing: [count - 1, count] did not make count - 1 the choice.
  EXPECT_EQ(deviceOfFreshThread(), 0);
}

// musaInitDevice: a device's flags set without making it current; bad devices and flags refused.
TEST(DeviceApi, InitDeviceSetsFlagsWithoutSwitching) {
  int count = 0;
  ASSERT_EQ(musaGetDeviceCount(&count), musaSuccess);
  int last = count - 1, current = -1;
  ASSERT_EQ(musaSetDevice(0), musaSuccess);
  ASSERT_EQ(musaInitDevice(last, musaDeviceScheduleBlockingSync, musaInitDeviceFlagsAreValid),
            musaSuccess);
  ASSERT_EQ(musaGetDevice(&current), musaSuccess);
  EXPECT_EQ(current, 0);
  ASSERT_EQ(musaSetDevice(last), musaSuccess);
  unsigned flags = 0;
  ASSERT_EQ(musaGetDeviceFlags(&flags), musaSuccess);
  EXPECT_TRUE(flags & musaDeviceScheduleBlockingSync);
  EXPECT_EQ(musaSetDeviceFlags(0), musaSuccess);
  ASSERT_EQ(musaSetDevice(0), musaSuccess);
  EXPECT_EQ(musaInitDevice(0, 0, 0), musaSuccess);
  EXPECT_EQ(musaInitDevice(count, 0, 0), musaErrorInvalidDevice);
  EXPECT_EQ(musaInitDevice(0, 0, 2), musaErrorInvalidValue);
  EXPECT_EQ(musaInitDevice(0, musaDeviceScheduleSpin | musaDeviceScheduleYield,
                           musaInitDeviceFlagsAreValid),
            musaErrorInvalidValue);
  musaGetLastError();
}

TEST(DeviceApi, DriverEntryPointsAreLibmusasFunctions) {
  void *init = nullptr, *count = nullptr, *cudaName = nullptr;
  musaDriverEntryPointQueryResult status = musaDriverEntryPointSymbolNotFound;
  ASSERT_EQ(musaGetDriverEntryPoint("muInit", &init, musaEnableDefault, &status), musaSuccess);
  EXPECT_EQ(status, musaDriverEntryPointSuccess);
  ASSERT_NE(init, nullptr);
  ASSERT_EQ(musaGetDriverEntryPoint("muDeviceGetCount", &count, musaEnableDefault, nullptr),
            musaSuccess);
  ASSERT_NE(count, nullptr);
  // A program ported from CUDA may still ask by the CUDA name.
  ASSERT_EQ(musaGetDriverEntryPoint("cuDeviceGetCount", &cudaName, musaEnableDefault, nullptr),
            musaSuccess);
  EXPECT_EQ(cudaName, count);
  EXPECT_EQ(reinterpret_cast<MUresult (*)(unsigned)>(init)(0), MUSA_SUCCESS);
  int devices = 0;
  EXPECT_EQ(reinterpret_cast<MUresult (*)(int *)>(count)(&devices), MUSA_SUCCESS);
  int runtimeDevices = 0;
  ASSERT_EQ(musaGetDeviceCount(&runtimeDevices), musaSuccess);
  EXPECT_EQ(devices, runtimeDevices);

  // As the H100 answers: an unknown name or a version too old is success with a null
  // function and the status saying why; unknown flags are InvalidValue.
  void *fn = &status;
  ASSERT_EQ(musaGetDriverEntryPoint("muNoSuchThing", &fn, musaEnableDefault, &status),
            musaSuccess);
  EXPECT_EQ(fn, nullptr);
  EXPECT_EQ(status, musaDriverEntryPointSymbolNotFound);
  fn = &status;
  ASSERT_EQ(musaGetDriverEntryPointByVersion("muInit", &fn, 1000, musaEnableDefault, &status),
            musaSuccess);
  EXPECT_EQ(fn, nullptr);
  EXPECT_EQ(status, musaDriverEntryPointVersionNotSufficent);
  ASSERT_EQ(musaGetDriverEntryPointByVersion("muInit", &fn, 12000, musaEnableDefault, &status),
            musaSuccess);
  EXPECT_EQ(fn, init);
  EXPECT_EQ(musaGetDriverEntryPoint("muInit", &fn, 0x100, nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaGetDriverEntryPoint("muInit", nullptr, 0, nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaGetDriverEntryPoint(nullptr, &fn, 0, nullptr), musaErrorInvalidValue);
  musaGetLastError();
}

TEST(DeviceApi, Texture1DLinearWidthByElementSize) {
  size_t width = 0;
  musaChannelFormatDesc f = musaCreateChannelDesc<float>();
  ASSERT_EQ(musaDeviceGetTexture1DLinearMaxWidth(&width, &f, 0), musaSuccess);
  EXPECT_EQ(width, size_t(1) << 30);
  f = musaCreateChannelDesc<float2>();
  ASSERT_EQ(musaDeviceGetTexture1DLinearMaxWidth(&width, &f, 0), musaSuccess);
  EXPECT_EQ(width, size_t(1) << 29);
  f = musaCreateChannelDesc<float4>();
  ASSERT_EQ(musaDeviceGetTexture1DLinearMaxWidth(&width, &f, 0), musaSuccess);
  EXPECT_EQ(width, size_t(1) << 28);
  f = musaCreateChannelDesc<char>();
  ASSERT_EQ(musaDeviceGetTexture1DLinearMaxWidth(&width, &f, 0), musaSuccess);
  EXPECT_EQ(width, size_t(1) << 30);
  EXPECT_EQ(musaDeviceGetTexture1DLinearMaxWidth(&width, &f, 99), musaErrorInvalidDevice);
  EXPECT_EQ(musaDeviceGetTexture1DLinearMaxWidth(nullptr, &f, 0), musaErrorInvalidValue);
  musaGetLastError();

  musaArray_t a, plane = nullptr;
  f = musaCreateChannelDesc<float>();
  ASSERT_EQ(musaMallocArray(&a, &f, 16, 16, 0), musaSuccess);
  EXPECT_EQ(musaArrayGetPlane(&plane, a, 0), musaErrorInvalidValue); // not multi-planar
  ASSERT_EQ(musaFreeArray(a), musaSuccess);
  EXPECT_EQ(musaArrayGetPlane(&plane, a, 0), musaErrorInvalidResourceHandle);
  musaGetLastError();
}
