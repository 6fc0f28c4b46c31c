// Stream-ordered allocation and memory pools: reuse, counters, attributes, access, and every
// refusal.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace {

struct Gate {
  std::atomic<bool> open{false};
  static void MUSART_CB wait(void *self) {
    while (!static_cast<Gate *>(self)->open)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
};

uint64_t attr(musaMemPool_t pool, musaMemPoolAttr a) {
  uint64_t v = ~0ull;
  EXPECT_EQ(musaMemPoolGetAttribute(pool, a, &v), musaSuccess);
  return v;
}

musaMemPoolProps deviceProps(int device) {
  musaMemPoolProps props{};
  props.allocType = musaMemAllocationTypePinned;
  props.location.type = musaMemLocationTypeDevice;
  props.location.id = device;
  return props;
}

void keepEverything(musaMemPool_t pool) {
  uint64_t all = UINT64_MAX;
  ASSERT_EQ(musaMemPoolSetAttribute(pool, musaMemPoolAttrReleaseThreshold, &all), musaSuccess);
}

} // namespace

TEST(MemoryPoolApi, DevicesReportPoolsSupported) {
  int v = 0;
  ASSERT_EQ(musaDeviceGetAttribute(&v, musaDevAttrMemoryPoolsSupported, 0), musaSuccess);
  EXPECT_EQ(v, 1);
  musaDeviceProp prop;
  ASSERT_EQ(musaGetDeviceProperties(&prop, 0), musaSuccess);
  EXPECT_EQ(prop.memoryPoolsSupported, 1);
}

TEST(MemoryPoolApi, DefaultPoolIsCurrentAndCountsUseAndReservation) {
  musaMemPool_t def = nullptr, cur = nullptr, other = nullptr;
  ASSERT_EQ(musaDeviceGetDefaultMemPool(&def, 0), musaSuccess);
  ASSERT_EQ(musaDeviceGetMemPool(&cur, 0), musaSuccess);
  ASSERT_EQ(musaDeviceGetDefaultMemPool(&other, 1), musaSuccess);
  EXPECT_EQ(def, cur);
  EXPECT_NE(def, other);
  ASSERT_EQ(musaMemPoolTrimTo(def, 0), musaSuccess);
  uint64_t zero = 0;
  ASSERT_EQ(musaMemPoolSetAttribute(def, musaMemPoolAttrUsedMemHigh, &zero), musaSuccess);
  ASSERT_EQ(musaMemPoolSetAttribute(def, musaMemPoolAttrReservedMemHigh, &zero), musaSuccess);
  EXPECT_EQ(attr(def, musaMemPoolAttrReleaseThreshold), 0u);

  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  int *p = nullptr;
  ASSERT_EQ(musaMallocAsync(&p, 10000, s), musaSuccess);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(attr(def, musaMemPoolAttrUsedMemCurrent), 12288u); // page-granular blocks
  EXPECT_EQ(attr(def, musaMemPoolAttrReservedMemCurrent), 12288u);
  std::vector<int> in(2500, 7), out(2500, 0);
  ASSERT_EQ(musaMemcpyAsync(p, in.data(), 10000, musaMemcpyHostToDevice, s), musaSuccess);
  ASSERT_EQ(musaMemcpyAsync(out.data(), p, 10000, musaMemcpyDeviceToHost, s), musaSuccess);
  ASSERT_EQ(musaFreeAsync(p, s), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(s), musaSuccess);
  EXPECT_EQ(out, in);
  EXPECT_EQ(attr(def, musaMemPoolAttrUsedMemCurrent), 0u);
  // Threshold 0: the synchronisation gave the memory back.
  EXPECT_EQ(attr(def, musaMemPoolAttrReservedMemCurrent), 0u);
  EXPECT_EQ(attr(def, musaMemPoolAttrUsedMemHigh), 12288u);
  EXPECT_EQ(attr(def, musaMemPoolAttrReservedMemHigh), 12288u);
  // Freed memory is gone for copies, as after musaFree.
  EXPECT_EQ(musaMemcpy(out.data(), p, 4, musaMemcpyDeviceToHost), musaErrorInvalidValue);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
  musaGetLastError();
}

TEST(MemoryPoolApi, AllocationsFollowTheCurrentPool) {
  musaMemPool_t def, pool;
  musaMemPoolProps props = deviceProps(0);
  ASSERT_EQ(musaDeviceGetDefaultMemPool(&def, 0), musaSuccess);
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  ASSERT_EQ(musaDeviceSetMemPool(0, pool), musaSuccess);
  musaMemPool_t cur;
  ASSERT_EQ(musaDeviceGetMemPool(&cur, 0), musaSuccess);
  EXPECT_EQ(cur, pool);
  void *p;
  ASSERT_EQ(musaMallocAsync(&p, 4096, 0), musaSuccess);
  EXPECT_EQ(attr(pool, musaMemPoolAttrUsedMemCurrent), 4096u);
  ASSERT_EQ(musaFreeAsync(p, 0), musaSuccess);
  // Destroying the current pool makes the default current again.
  ASSERT_EQ(musaMemPoolDestroy(pool), musaSuccess);
  ASSERT_EQ(musaDeviceGetMemPool(&cur, 0), musaSuccess);
  EXPECT_EQ(cur, def);
  ASSERT_EQ(musaDeviceSynchronize(), musaSuccess);
}

TEST(MemoryPoolApi, AStreamReusesWhatItFreedBeforeTheFreeRuns) {
  musaMemPool_t pool;
  musaMemPoolProps props = deviceProps(0);
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  musaStream_t s;
  ASSERT_EQ(musaStreamCreateWithFlags(&s, musaStreamNonBlocking), musaSuccess);
  Gate gate;
  ASSERT_EQ(musaLaunchHostFunc(s, Gate::wait, &gate), musaSuccess); // nothing runs yet
  void *a = nullptr, *b = nullptr, *c = nullptr;
  ASSERT_EQ(musaMallocFromPoolAsync(&a, 8192, pool, s), musaSuccess);
  ASSERT_EQ(musaMemsetAsync(a, 1, 8192, s), musaSuccess);
  ASSERT_EQ(musaFreeAsync(a, s), musaSuccess);
  ASSERT_EQ(musaMallocFromPoolAsync(&b, 8000, pool, s), musaSuccess);
  EXPECT_EQ(b, a); // stream order makes the reuse safe
  EXPECT_EQ(attr(pool, musaMemPoolAttrReservedMemCurrent), 8192u);
  EXPECT_EQ(attr(pool, musaMemPoolAttrUsedMemCurrent), 8192u);
  // A second allocation while `b` is in use gets memory of its own.
  ASSERT_EQ(musaMallocFromPoolAsync(&c, 8192, pool, s), musaSuccess);
  EXPECT_NE(c, a);
  gate.open = true;
  ASSERT_EQ(musaStreamSynchronize(s), musaSuccess);
  // The stale free of `a` left `b` alone: it is still usable.
  char byte = 3;
  EXPECT_EQ(musaMemcpy(b, &byte, 1, musaMemcpyHostToDevice), musaSuccess);
  EXPECT_EQ(musaFreeAsync(b, s), musaSuccess);
  EXPECT_EQ(musaFreeAsync(c, s), musaSuccess);
  EXPECT_EQ(musaStreamSynchronize(s), musaSuccess);
  EXPECT_EQ(musaMemPoolDestroy(pool), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
}

TEST(MemoryPoolApi, OpportunisticReuseCanBeTurnedOff) {
  musaMemPool_t pool;
  musaMemPoolProps props = deviceProps(0);
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  keepEverything(pool);
  musaStream_t s1, s2;
  ASSERT_EQ(musaStreamCreate(&s1), musaSuccess);
  ASSERT_EQ(musaStreamCreate(&s2), musaSuccess);
  void *a, *b;
  ASSERT_EQ(musaMallocFromPoolAsync(&a, 4096, pool, s1), musaSuccess);
  ASSERT_EQ(musaFreeAsync(a, s1), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(s1), musaSuccess);
  EXPECT_EQ(attr(pool, musaMemPoolAttrReservedMemCurrent), 4096u); // kept: threshold
  // Allowed (the default): another stream takes the cached block.
  ASSERT_EQ(musaMallocFromPoolAsync(&b, 4096, pool, s2), musaSuccess);
  EXPECT_EQ(b, a);
  ASSERT_EQ(musaFreeAsync(b, s1), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(s1), musaSuccess);
  int off = 0;
  ASSERT_EQ(musaMemPoolSetAttribute(pool, musaMemPoolReuseAllowOpportunistic, &off), musaSuccess);
  EXPECT_EQ(attr(pool, musaMemPoolReuseAllowOpportunistic) & 0xffffffffu, 0u);
  ASSERT_EQ(musaMallocFromPoolAsync(&b, 4096, pool, s2), musaSuccess);
  EXPECT_NE(b, a); // s2 may not take what s1 freed
  void *c;
  ASSERT_EQ(musaMallocFromPoolAsync(&c, 4096, pool, s1), musaSuccess);
  EXPECT_EQ(c, a); // s1 may
  EXPECT_EQ(attr(pool, musaMemPoolAttrReservedMemCurrent), 8192u);
  ASSERT_EQ(musaFreeAsync(b, s2), musaSuccess);
  ASSERT_EQ(musaFreeAsync(c, s1), musaSuccess);
  ASSERT_EQ(musaDeviceSynchronize(), musaSuccess);
  ASSERT_EQ(musaMemPoolTrimTo(pool, 0), musaSuccess);
  EXPECT_EQ(attr(pool, musaMemPoolAttrReservedMemCurrent), 0u);
  EXPECT_EQ(musaMemPoolDestroy(pool), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s1), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s2), musaSuccess);
}

TEST(MemoryPoolApi, TrimToKeepsAtMostWhatItIsAsked) {
  musaMemPool_t pool;
  musaMemPoolProps props = deviceProps(0);
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  keepEverything(pool);
  void *p[3];
  for (size_t i = 0; i < 3; ++i)
    ASSERT_EQ(musaMallocFromPoolAsync(&p[i], 4096 * (i + 1), pool, 0), musaSuccess);
  void *live;
  ASSERT_EQ(musaMallocFromPoolAsync(&live, 4096, pool, 0), musaSuccess);
  for (void *q : p)
    ASSERT_EQ(musaFreeAsync(q, 0), musaSuccess);
  ASSERT_EQ(musaDeviceSynchronize(), musaSuccess);
  EXPECT_EQ(attr(pool, musaMemPoolAttrReservedMemCurrent), 4096u * 7);
  ASSERT_EQ(musaMemPoolTrimTo(pool, 4096 * 4), musaSuccess);
  EXPECT_LE(attr(pool, musaMemPoolAttrReservedMemCurrent), 4096u * 4);
  // Memory in use is never trimmed.
  ASSERT_EQ(musaMemPoolTrimTo(pool, 0), musaSuccess);
  EXPECT_EQ(attr(pool, musaMemPoolAttrReservedMemCurrent), 4096u);
  ASSERT_EQ(musaMemset(live, 0, 4096), musaSuccess);
  ASSERT_EQ(musaFree(live), musaSuccess); // musaFree takes pool memory too
  EXPECT_EQ(attr(pool, musaMemPoolAttrUsedMemCurrent), 0u);
  EXPECT_EQ(musaMemPoolDestroy(pool), musaSuccess);
}

TEST(MemoryPoolApi, MaxSizeLimitsThePool) {
  musaMemPool_t pool;
  musaMemPoolProps props = deviceProps(0);
  props.maxSize = 64 << 10;
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  void *a, *b = reinterpret_cast<void *>(0x1234);
  ASSERT_EQ(musaMallocFromPoolAsync(&a, 48 << 10, pool, 0), musaSuccess);
  EXPECT_EQ(musaMallocFromPoolAsync(&b, 32 << 10, pool, 0), musaErrorOutOfMemory);
  EXPECT_EQ(b, reinterpret_cast<void *>(0x1234));
  musaGetLastError();
  ASSERT_EQ(musaFreeAsync(a, 0), musaSuccess);
  // Once the free has run, the cached block is released to make room.
  uint64_t all = UINT64_MAX;
  ASSERT_EQ(musaMemPoolSetAttribute(pool, musaMemPoolAttrReleaseThreshold, &all), musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(0), musaSuccess);
  EXPECT_EQ(attr(pool, musaMemPoolAttrReservedMemCurrent), 48u << 10);
  ASSERT_EQ(musaMallocFromPoolAsync(&b, 60 << 10, pool, 0), musaSuccess);
  ASSERT_EQ(musaFreeAsync(b, 0), musaSuccess);
  ASSERT_EQ(musaDeviceSynchronize(), musaSuccess);
  EXPECT_EQ(musaMemPoolDestroy(pool), musaSuccess);
}

TEST(MemoryPoolApi, AttributesValidateTheirValues) {
  musaMemPool_t pool;
  musaMemPoolProps props = deviceProps(0);
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  for (musaMemPoolAttr a : {musaMemPoolReuseFollowEventDependencies,
                            musaMemPoolReuseAllowOpportunistic,
                            musaMemPoolReuseAllowInternalDependencies}) {
    int v = -1;
    ASSERT_EQ(musaMemPoolGetAttribute(pool, a, &v), musaSuccess);
    EXPECT_EQ(v, 1); // CUDA's defaults
    int off = 0, two = 2;
    EXPECT_EQ(musaMemPoolSetAttribute(pool, a, &off), musaSuccess);
    ASSERT_EQ(musaMemPoolGetAttribute(pool, a, &v), musaSuccess);
    EXPECT_EQ(v, 0);
    EXPECT_EQ(musaMemPoolSetAttribute(pool, a, &two), musaErrorInvalidValue);
  }
  uint64_t threshold = 1 << 20, five = 5, zero = 0;
  EXPECT_EQ(musaMemPoolSetAttribute(pool, musaMemPoolAttrReleaseThreshold, &threshold),
            musaSuccess);
  EXPECT_EQ(attr(pool, musaMemPoolAttrReleaseThreshold), threshold);
  EXPECT_EQ(musaMemPoolSetAttribute(pool, musaMemPoolAttrUsedMemCurrent, &zero),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolSetAttribute(pool, musaMemPoolAttrReservedMemCurrent, &zero),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolSetAttribute(pool, musaMemPoolAttrUsedMemHigh, &five),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolSetAttribute(pool, musaMemPoolAttrUsedMemHigh, &zero), musaSuccess);
  EXPECT_EQ(musaMemPoolSetAttribute(pool, musaMemPoolAttr(42), &zero), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolGetAttribute(pool, musaMemPoolAttr(42), &zero), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolGetAttribute(pool, musaMemPoolAttrUsedMemHigh, nullptr),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolDestroy(pool), musaSuccess);
  musaGetLastError();
}

TEST(MemoryPoolApi, CreateAndDestroyRefuseBadArguments) {
  musaMemPool_t pool = nullptr, untouched = reinterpret_cast<musaMemPool_t>(0x1);
  musaMemPoolProps props = deviceProps(0);
  EXPECT_EQ(musaMemPoolCreate(nullptr, &props), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolCreate(&untouched, nullptr), musaErrorInvalidValue);
  props.allocType = musaMemAllocationTypeInvalid;
  EXPECT_EQ(musaMemPoolCreate(&untouched, &props), musaErrorInvalidValue);
  props = deviceProps(0);
  props.location.type = musaMemLocationTypeInvalid;
  EXPECT_EQ(musaMemPoolCreate(&untouched, &props), musaErrorInvalidValue);
  props = deviceProps(7);
  EXPECT_EQ(musaMemPoolCreate(&untouched, &props), musaErrorInvalidDevice);
  EXPECT_EQ(untouched, reinterpret_cast<musaMemPool_t>(0x1));

  musaMemPool_t def;
  ASSERT_EQ(musaDeviceGetDefaultMemPool(&def, 0), musaSuccess);
  EXPECT_EQ(musaMemPoolDestroy(def), musaErrorInvalidValue); // the default pool stays
  EXPECT_EQ(musaDeviceGetDefaultMemPool(&def, 9), musaErrorInvalidDevice);
  EXPECT_EQ(musaDeviceGetMemPool(nullptr, 0), musaErrorInvalidValue);

  props = deviceProps(1);
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  EXPECT_EQ(musaDeviceSetMemPool(0, pool), musaErrorInvalidDevice); // another device's pool
  EXPECT_EQ(musaDeviceSetMemPool(5, pool), musaErrorInvalidDevice);
  ASSERT_EQ(musaMemPoolDestroy(pool), musaSuccess);
  // A destroyed (or never created) pool is a bad handle everywhere.
  void *p = nullptr;
  uint64_t v;
  EXPECT_EQ(musaMemPoolDestroy(pool), musaErrorInvalidValue);
  EXPECT_EQ(musaMallocFromPoolAsync(&p, 64, pool, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolGetAttribute(pool, musaMemPoolAttrUsedMemHigh, &v), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolTrimTo(pool, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceSetMemPool(1, pool), musaErrorInvalidValue);
  auto bogus = reinterpret_cast<musaMemPool_t>(&v);
  EXPECT_EQ(musaMemPoolTrimTo(bogus, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolDestroy(nullptr), musaErrorInvalidValue);
  musaGetLastError();
}

TEST(MemoryPoolApi, DestroyWithOutstandingAllocationsLetsThemLive) {
  musaMemPool_t pool;
  musaMemPoolProps props = deviceProps(0);
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  int *p;
  ASSERT_EQ(musaMallocFromPoolAsync(&p, 4096, pool, 0), musaSuccess);
  ASSERT_EQ(musaMemPoolDestroy(pool), musaSuccess);
  int v = 5, back = 0;
  EXPECT_EQ(musaMemcpy(p, &v, sizeof v, musaMemcpyHostToDevice), musaSuccess);
  EXPECT_EQ(musaMemcpy(&back, p, sizeof v, musaMemcpyDeviceToHost), musaSuccess);
  EXPECT_EQ(back, 5);
  EXPECT_EQ(musaFreeAsync(p, 0), musaSuccess);
  EXPECT_EQ(musaDeviceSynchronize(), musaSuccess);
  EXPECT_EQ(musaMemcpy(&back, p, sizeof v, musaMemcpyDeviceToHost), musaErrorInvalidValue);
  musaGetLastError();
}

TEST(MemoryPoolApi, FreesOfWrongPointersAreRefused) {
  char *p;
  ASSERT_EQ(musaMallocAsync(&p, 4096, 0), musaSuccess);
  char host[8];
  EXPECT_EQ(musaFreeAsync(p + 16, 0), musaErrorInvalidValue); // not an allocation's start
  EXPECT_EQ(musaFreeAsync(host, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaFreeAsync(p, reinterpret_cast<musaStream_t>(host)),
            musaErrorInvalidResourceHandle);
  ASSERT_EQ(musaFreeAsync(p, 0), musaSuccess);
  EXPECT_EQ(musaFreeAsync(p, 0), musaErrorInvalidValue); // already being freed
  EXPECT_EQ(musaFree(p), musaErrorInvalidValue);
  ASSERT_EQ(musaDeviceSynchronize(), musaSuccess);
  EXPECT_EQ(musaFreeAsync(p, 0), musaErrorInvalidValue); // freed
  EXPECT_EQ(musaMallocAsync(nullptr, 64, 0), musaErrorInvalidValue);
  void *z = reinterpret_cast<void *>(0x1);
  EXPECT_EQ(musaMallocAsync(&z, 0, 0), musaSuccess);
  EXPECT_EQ(z, nullptr);
  musaGetLastError();
}

TEST(MemoryPoolApi, AccessIsValidatedRecordedAndReported) {
  musaMemPool_t pool;
  musaMemPoolProps props = deviceProps(0);
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  musaMemAccessFlags flags = musaMemAccessFlagsProtRead;
  musaMemLocation self{musaMemLocationTypeDevice, 0}, peer{musaMemLocationTypeDevice, 1};
  ASSERT_EQ(musaMemPoolGetAccess(&flags, pool, &self), musaSuccess);
  EXPECT_EQ(flags, musaMemAccessFlagsProtReadWrite);
  ASSERT_EQ(musaMemPoolGetAccess(&flags, pool, &peer), musaSuccess);
  EXPECT_EQ(flags, musaMemAccessFlagsProtNone);

  musaMemAccessDesc good{peer, musaMemAccessFlagsProtReadWrite};
  musaMemAccessDesc selfNone{self, musaMemAccessFlagsProtNone};
  musaMemAccessDesc readOnly{peer, musaMemAccessFlagsProtRead};
  musaMemAccessDesc noDevice{{musaMemLocationTypeDevice, 6}, musaMemAccessFlagsProtReadWrite};
  musaMemAccessDesc noType{{musaMemLocationTypeInvalid, 1}, musaMemAccessFlagsProtReadWrite};
  EXPECT_EQ(musaMemPoolSetAccess(pool, &selfNone, 1), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolSetAccess(pool, &readOnly, 1), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolSetAccess(pool, &noDevice, 1), musaErrorInvalidDevice);
  EXPECT_EQ(musaMemPoolSetAccess(pool, &noType, 1), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolSetAccess(pool, nullptr, 1), musaErrorInvalidValue);
  // Validated before anything changes: the good descriptor before a bad one is not applied.
  musaMemAccessDesc mixed[2] = {good, readOnly};
  EXPECT_EQ(musaMemPoolSetAccess(pool, mixed, 2), musaErrorInvalidValue);
  ASSERT_EQ(musaMemPoolGetAccess(&flags, pool, &peer), musaSuccess);
  EXPECT_EQ(flags, musaMemAccessFlagsProtNone);
  ASSERT_EQ(musaMemPoolSetAccess(pool, &good, 1), musaSuccess);
  ASSERT_EQ(musaMemPoolGetAccess(&flags, pool, &peer), musaSuccess);
  EXPECT_EQ(flags, musaMemAccessFlagsProtReadWrite);
  musaMemLocation bad{musaMemLocationTypeDevice, 8};
  EXPECT_EQ(musaMemPoolGetAccess(&flags, pool, &bad), musaErrorInvalidDevice);
  EXPECT_EQ(musaMemPoolGetAccess(nullptr, pool, &peer), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPoolDestroy(pool), musaSuccess);
  musaGetLastError();
}

TEST(MemoryPoolApi, DeviceResetEndsUserPools) {
  ASSERT_EQ(musaSetDevice(1), musaSuccess);
  musaMemPool_t pool;
  musaMemPoolProps props = deviceProps(1);
  ASSERT_EQ(musaMemPoolCreate(&pool, &props), musaSuccess);
  void *p;
  ASSERT_EQ(musaMallocFromPoolAsync(&p, 4096, pool, 0), musaSuccess);
  ASSERT_EQ(musaDeviceReset(), musaSuccess);
  EXPECT_EQ(musaMemPoolTrimTo(pool, 0), musaErrorInvalidValue);
  musaMemPool_t def;
  ASSERT_EQ(musaDeviceGetDefaultMemPool(&def, 1), musaSuccess);
  EXPECT_EQ(attr(def, musaMemPoolAttrReservedMemCurrent), 0u);
  ASSERT_EQ(musaMallocAsync(&p, 4096, 0), musaSuccess);
  EXPECT_EQ(musaFreeAsync(p, 0), musaSuccess);
  EXPECT_EQ(musaDeviceSynchronize(), musaSuccess);
  ASSERT_EQ(musaSetDevice(0), musaSuccess);
  musaGetLastError();
}

TEST(MemoryPoolApi, LocationFormsNameTheDevicesPools) {
  musaMemPool_t def = nullptr, cur = nullptr, p = nullptr;
  ASSERT_EQ(musaDeviceGetDefaultMemPool(&def, 0), musaSuccess);
  musaMemLocation dev = {musaMemLocationTypeDevice, 0};
  ASSERT_EQ(musaMemGetDefaultMemPool(&p, &dev, musaMemAllocationTypePinned), musaSuccess);
  EXPECT_EQ(p, def);
  musaMemPoolProps props = {};
  props.allocType = musaMemAllocationTypePinned;
  props.location = dev;
  musaMemPool_t mine = nullptr;
  ASSERT_EQ(musaMemPoolCreate(&mine, &props), musaSuccess);
  ASSERT_EQ(musaMemSetMemPool(&dev, musaMemAllocationTypePinned, mine), musaSuccess);
  ASSERT_EQ(musaDeviceGetMemPool(&cur, 0), musaSuccess);
  EXPECT_EQ(cur, mine);
  ASSERT_EQ(musaMemGetMemPool(&p, &dev, musaMemAllocationTypePinned), musaSuccess);
  EXPECT_EQ(p, mine);
  // The H100's answers (tests/hardware/session19/location_pools.txt): InvalidValue, not
  // InvalidDevice, for a device that does not exist.
  musaMemLocation bad = {musaMemLocationTypeDevice, 7};
  EXPECT_EQ(musaMemGetDefaultMemPool(&p, &bad, musaMemAllocationTypePinned), musaErrorInvalidValue);
  EXPECT_EQ(musaMemSetMemPool(&bad, musaMemAllocationTypePinned, mine), musaErrorInvalidValue);
  EXPECT_EQ(musaMemSetMemPool(&dev, musaMemAllocationTypePinned, nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaMemGetDefaultMemPool(nullptr, &dev, musaMemAllocationTypePinned),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemGetDefaultMemPool(&p, nullptr, musaMemAllocationTypePinned),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemGetDefaultMemPool(&p, &dev, musaMemAllocationTypeInvalid),
            musaErrorInvalidValue);
  // Host pools exist on the GPU but not here.
  musaMemLocation host = {musaMemLocationTypeHost, 0};
  EXPECT_EQ(musaMemGetDefaultMemPool(&p, &host, musaMemAllocationTypePinned),
            musaErrorNotSupported);
  musaGetLastError();
  ASSERT_EQ(musaDeviceSetMemPool(0, def), musaSuccess);
  EXPECT_EQ(musaMemPoolDestroy(mine), musaSuccess);
}
