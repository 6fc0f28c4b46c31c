// Streams: handles, ordering, asynchrony of copies.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <dirent.h>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

TEST(StreamApi, CopiesOnOneStreamRunInOrder) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  std::vector<int> a(1 << 16, 1), b(1 << 16, 2), out(1 << 16, 0);
  int *d;
  ASSERT_EQ(musaMalloc(&d, a.size() * sizeof(int)), musaSuccess);
  ASSERT_EQ(musaMemcpyAsync(d, a.data(), a.size() * sizeof(int), musaMemcpyHostToDevice, s),
            musaSuccess);
  ASSERT_EQ(musaMemcpyAsync(d, b.data(), b.size() * sizeof(int), musaMemcpyHostToDevice, s),
            musaSuccess);
  ASSERT_EQ(musaMemcpyAsync(out.data(), d, out.size() * sizeof(int), musaMemcpyDeviceToHost, s),
            musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(s), musaSuccess);
  EXPECT_EQ(out, b);
  EXPECT_EQ(musaStreamQuery(s), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
  EXPECT_EQ(musaFree(d), musaSuccess);
}

TEST(StreamApi, StaleAndForeignHandlesAreErrorsNotCrashes) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreateWithFlags(&s, musaStreamNonBlocking), musaSuccess);
  ASSERT_EQ(musaStreamDestroy(s), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaStreamSynchronize(s), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaStreamQuery(s), musaErrorInvalidResourceHandle);
  int local = 0;
  auto foreign = reinterpret_cast<musaStream_t>(&local);
  EXPECT_EQ(musaStreamSynchronize(foreign), musaErrorInvalidResourceHandle);
  char host[8], *d;
  ASSERT_EQ(musaMalloc(&d, 8), musaSuccess);
  EXPECT_EQ(musaMemcpyAsync(d, host, 8, musaMemcpyHostToDevice, foreign),
            musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaStreamCreateWithFlags(&s, 0x40), musaErrorInvalidValue);
  EXPECT_EQ(musaStreamCreate(nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaStreamDestroy(nullptr), musaErrorInvalidResourceHandle);
  // The default stream and the per-thread stream are always valid.
  EXPECT_EQ(musaStreamSynchronize(0), musaSuccess);
  EXPECT_EQ(musaStreamSynchronize(musaStreamPerThread), musaSuccess);
  EXPECT_EQ(musaFree(d), musaSuccess);
  musaGetLastError();
}

namespace {
struct Gate {
  std::atomic<bool> open{false};
  static void MUSART_CB wait(void *self) {
    auto *g = static_cast<Gate *>(self);
    while (!g->open)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
};
std::vector<int> callbackOrder;
std::mutex callbackMutex;
void MUSART_CB recordCallback(musaStream_t, musaError_t status, void *tag) {
  std::lock_guard lock(callbackMutex);
  callbackOrder.push_back(status == musaSuccess ? int(reinterpret_cast<intptr_t>(tag)) : -1);
}
} // namespace

TEST(StreamApi, AsynchronousWorkReturnsBeforeItIsDone) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  Gate gate;
  ASSERT_EQ(musaLaunchHostFunc(s, Gate::wait, &gate), musaSuccess);
  EXPECT_EQ(musaStreamQuery(s), musaErrorNotReady);
  gate.open = true;
  EXPECT_EQ(musaStreamSynchronize(s), musaSuccess);
  EXPECT_EQ(musaStreamQuery(s), musaSuccess);
  musaStreamDestroy(s);
}

TEST(StreamApi, NotReadyFromAQueryIsNotTheLastError) {
  // As in CUDA, polling unfinished work is not an error: the last error stays musaSuccess.
  musaStream_t s;
  musaEvent_t e;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  ASSERT_EQ(musaEventCreate(&e), musaSuccess);
  ASSERT_EQ(musaGetLastError(), musaSuccess);
  Gate gate;
  ASSERT_EQ(musaLaunchHostFunc(s, Gate::wait, &gate), musaSuccess);
  ASSERT_EQ(musaEventRecord(e, s), musaSuccess);
  EXPECT_EQ(musaStreamQuery(s), musaErrorNotReady);
  EXPECT_EQ(musaEventQuery(e), musaErrorNotReady);
  EXPECT_EQ(musaPeekAtLastError(), musaSuccess);
  EXPECT_EQ(musaGetLastError(), musaSuccess);
  // A real error is still recorded, and a later NotReady does not overwrite it.
  EXPECT_EQ(musaStreamQuery(reinterpret_cast<musaStream_t>(&gate)),
            musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaStreamQuery(s), musaErrorNotReady);
  EXPECT_EQ(musaGetLastError(), musaErrorInvalidResourceHandle);
  gate.open = true;
  EXPECT_EQ(musaStreamSynchronize(s), musaSuccess);
  EXPECT_EQ(musaEventQuery(e), musaSuccess);
  EXPECT_EQ(musaEventDestroy(e), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
}

TEST(StreamApi, CallbacksRunInStreamOrder) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  callbackOrder.clear();
  std::vector<char> host(1 << 20, 1);
  char *d;
  ASSERT_EQ(musaMalloc(&d, host.size()), musaSuccess);
  for (intptr_t i = 0; i < 20; ++i) {
    ASSERT_EQ(musaMemcpyAsync(d, host.data(), host.size(), musaMemcpyHostToDevice, s),
              musaSuccess);
    ASSERT_EQ(musaStreamAddCallback(s, recordCallback, reinterpret_cast<void *>(i), 0),
              musaSuccess);
  }
  ASSERT_EQ(musaStreamSynchronize(s), musaSuccess);
  ASSERT_EQ(callbackOrder.size(), 20u);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(callbackOrder[size_t(i)], i);
  EXPECT_EQ(musaStreamAddCallback(s, recordCallback, nullptr, 1), musaErrorInvalidValue);
  EXPECT_EQ(musaStreamAddCallback(s, nullptr, nullptr, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaLaunchHostFunc(s, nullptr, nullptr), musaErrorInvalidValue);
  musaFree(d);
  musaStreamDestroy(s);
  musaGetLastError();
}

TEST(StreamApi, LegacyStreamWaitsForBlockingStreamsButNotNonBlocking) {
  musaStream_t blocking, nonBlocking;
  ASSERT_EQ(musaStreamCreate(&blocking), musaSuccess);
  ASSERT_EQ(musaStreamCreateWithFlags(&nonBlocking, musaStreamNonBlocking), musaSuccess);
  Gate held;
  ASSERT_EQ(musaLaunchHostFunc(nonBlocking, Gate::wait, &held), musaSuccess);
  // The legacy stream ignores the held non-blocking stream...
  ASSERT_EQ(musaLaunchHostFunc(0, [](void *) {}, nullptr), musaSuccess);
  EXPECT_EQ(musaStreamSynchronize(0), musaSuccess);
  // ...but waits for earlier work on a blocking stream.
  Gate blocker;
  ASSERT_EQ(musaLaunchHostFunc(blocking, Gate::wait, &blocker), musaSuccess);
  std::atomic<bool> legacyRan{false};
  ASSERT_EQ(musaLaunchHostFunc(
                0, [](void *f) { static_cast<std::atomic<bool> *>(f)->store(true); }, &legacyRan),
            musaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(legacyRan.load());
  EXPECT_EQ(musaStreamQuery(0), musaErrorNotReady);
  // And later work on a blocking stream waits for the legacy stream.
  std::atomic<bool> after{false};
  musaStream_t other;
  ASSERT_EQ(musaStreamCreate(&other), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(
                other, [](void *f) { static_cast<std::atomic<bool> *>(f)->store(true); }, &after),
            musaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(after.load());
  blocker.open = true;
  EXPECT_EQ(musaStreamSynchronize(other), musaSuccess);
  EXPECT_TRUE(legacyRan.load());
  EXPECT_TRUE(after.load());
  held.open = true;
  EXPECT_EQ(musaDeviceSynchronize(), musaSuccess);
  musaStreamDestroy(blocking);
  musaStreamDestroy(nonBlocking);
  musaStreamDestroy(other);
}

TEST(StreamApi, PrioritiesAndFlags) {
  int least = 1, greatest = 1;
  ASSERT_EQ(musaDeviceGetStreamPriorityRange(&least, &greatest), musaSuccess);
  EXPECT_EQ(least, 0);
  EXPECT_LT(greatest, 0);
  musaStream_t high, clamped;
  ASSERT_EQ(musaStreamCreateWithPriority(&high, musaStreamNonBlocking, greatest), musaSuccess);
  ASSERT_EQ(musaStreamCreateWithPriority(&clamped, musaStreamDefault, -100), musaSuccess);
  int p = 0;
  unsigned flags = 9;
  EXPECT_EQ(musaStreamGetPriority(high, &p), musaSuccess);
  EXPECT_EQ(p, greatest);
  EXPECT_EQ(musaStreamGetPriority(clamped, &p), musaSuccess);
  EXPECT_EQ(p, greatest);
  EXPECT_EQ(musaStreamGetFlags(high, &flags), musaSuccess);
  EXPECT_EQ(flags, unsigned(musaStreamNonBlocking));
  EXPECT_EQ(musaStreamGetFlags(0, &flags), musaSuccess);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(musaStreamGetPriority(high, nullptr), musaErrorInvalidValue);
  musaStreamDestroy(high);
  musaStreamDestroy(clamped);
  EXPECT_EQ(musaStreamGetPriority(high, &p), musaErrorInvalidResourceHandle);
  musaGetLastError();
}

TEST(StreamApi, PerThreadDefaultStreamIsOnePerThread) {
  // Holding this thread's per-thread stream does not hold another thread's.
  Gate gate;
  ASSERT_EQ(musaLaunchHostFunc(musaStreamPerThread, Gate::wait, &gate), musaSuccess);
  EXPECT_EQ(musaStreamQuery(musaStreamPerThread), musaErrorNotReady);
  std::thread other([] {
    EXPECT_EQ(musaLaunchHostFunc(musaStreamPerThread, [](void *) {}, nullptr), musaSuccess);
    EXPECT_EQ(musaStreamSynchronize(musaStreamPerThread), musaSuccess);
  });
  other.join();
  gate.open = true;
  EXPECT_EQ(musaStreamSynchronize(musaStreamPerThread), musaSuccess);
}

TEST(StreamApi, ManyHostThreadsCallTheApiAtOnce) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 20; ++i) {
        musaStream_t s;
        musaEvent_t e;
        int *d = nullptr;
        std::vector<int> in(256, t * 1000 + i), out(256, 0);
        bool ok = musaStreamCreateWithFlags(&s, i % 2 ? musaStreamNonBlocking : 0) == musaSuccess &&
                  musaEventCreate(&e) == musaSuccess && musaMalloc(&d, 1024) == musaSuccess &&
                  musaMemcpyAsync(d, in.data(), 1024, musaMemcpyHostToDevice, s) == musaSuccess &&
                  musaEventRecord(e, s) == musaSuccess &&
                  musaStreamWaitEvent(musaStreamPerThread, e, 0) == musaSuccess &&
                  musaMemcpyAsync(out.data(), d, 1024, musaMemcpyDeviceToHost,
                                  musaStreamPerThread) == musaSuccess &&
                  musaStreamSynchronize(musaStreamPerThread) == musaSuccess && out == in &&
                  musaEventDestroy(e) == musaSuccess && musaStreamDestroy(s) == musaSuccess &&
                  musaFree(d) == musaSuccess;
        if (!ok)
          ++failures;
      }
    });
  for (auto &th : threads)
    th.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(StreamApi, DestroyReturnsAtOnceAndQueuedWorkStillLands) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  std::vector<int> in(1 << 14, 7);
  int *d = nullptr, *out = nullptr;
  ASSERT_EQ(musaMalloc(&d, in.size() * sizeof(int)), musaSuccess);
  ASSERT_EQ(musaMallocHost(&out, in.size() * sizeof(int)), musaSuccess);
  std::fill(out, out + in.size(), 0);
  Gate gate;
  std::atomic<bool> ran{false};
  ASSERT_EQ(musaLaunchHostFunc(s, Gate::wait, &gate), musaSuccess);
  ASSERT_EQ(musaMemcpyAsync(d, in.data(), in.size() * sizeof(int), musaMemcpyHostToDevice, s),
            musaSuccess);
  ASSERT_EQ(musaMemcpyAsync(out, d, in.size() * sizeof(int), musaMemcpyDeviceToHost, s),
            musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(
                s, [](void *flag) { *static_cast<std::atomic<bool> *>(flag) = true; }, &ran),
            musaSuccess);
  // The stream's work is held at the gate: destroy must not wait for it.
  auto destroyed = std::async(std::launch::async, [s] { return musaStreamDestroy(s); });
  bool returned = destroyed.wait_for(std::chrono::seconds(5)) == std::future_status::ready;
  if (!returned)
    gate.open = true; // let a blocking destroy finish so the test fails instead of hanging
  ASSERT_TRUE(returned) << "musaStreamDestroy waited for the stream's work";
  EXPECT_EQ(destroyed.get(), musaSuccess);
  EXPECT_FALSE(ran.load());
  EXPECT_EQ(musaStreamQuery(s), musaErrorInvalidResourceHandle); // the handle is gone
  // musaDeviceSynchronize waits for the destroyed stream's work, which lands.
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gate.open = true;
  });
  EXPECT_EQ(musaDeviceSynchronize(), musaSuccess);
  EXPECT_TRUE(ran.load());
  EXPECT_TRUE(std::equal(in.begin(), in.end(), out));
  opener.join();
  EXPECT_EQ(musaFreeHost(out), musaSuccess);
  EXPECT_EQ(musaFree(d), musaSuccess);
  musaGetLastError();
}

namespace {
int threadCount() {
  int n = 0;
  if (DIR *dir = opendir("/proc/self/task")) {
    while (dirent *entry = readdir(dir))
      n += entry->d_name[0] != '.';
    closedir(dir);
  }
  return n;
}
} // namespace

TEST(StreamApi, PerThreadStreamsOfEndedThreadsAreReleased) {
  // Each short-lived host thread uses its per-thread stream; once the threads have ended and
  // their work is done, their streams' worker threads are gone too.
  ASSERT_EQ(musaDeviceSynchronize(), musaSuccess);
  int before = threadCount();
  ASSERT_GT(before, 0);
  int *d = nullptr;
  ASSERT_EQ(musaMalloc(&d, 200 * sizeof(int)), musaSuccess);
  std::atomic<int> failures{0};
  for (int i = 0; i < 200; ++i) {
    std::thread([&, i] {
      int value = i;
      if (musaMemcpyAsync(d + i, &value, sizeof value, musaMemcpyHostToDevice,
                          musaStreamPerThread) != musaSuccess ||
          musaLaunchHostFunc(musaStreamPerThread, [](void *) {}, nullptr) != musaSuccess ||
          musaStreamSynchronize(musaStreamPerThread) != musaSuccess)
        ++failures;
    }).join();
  }
  EXPECT_EQ(failures.load(), 0);
  ASSERT_EQ(musaDeviceSynchronize(), musaSuccess); // the released streams' work is done
  // A stream's worker ends just after its last work: allow it a moment to exit.
  int after = threadCount();
  for (int i = 0; i < 500 && after > before + 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    after = threadCount();
  }
  EXPECT_LE(after, before + 2) << "threads before: " << before << ", after: " << after;
  std::vector<int> got(200);
  ASSERT_EQ(musaMemcpy(got.data(), d, got.size() * sizeof(int), musaMemcpyDeviceToHost),
            musaSuccess);
  for (int i = 0; i < 200; ++i)
    EXPECT_EQ(got[size_t(i)], i);
  EXPECT_EQ(musaFree(d), musaSuccess);
}

TEST(StreamApi, IdsAreUniqueAndStable) {
  musaStream_t a, b;
  ASSERT_EQ(musaStreamCreate(&a), musaSuccess);
  ASSERT_EQ(musaStreamCreate(&b), musaSuccess);
  unsigned long long ia = 0, ia2 = 0, ib = 0, legacy = 0;
  EXPECT_EQ(musaStreamGetId(a, &ia), musaSuccess);
  EXPECT_EQ(musaStreamGetId(a, &ia2), musaSuccess);
  EXPECT_EQ(musaStreamGetId(b, &ib), musaSuccess);
  EXPECT_EQ(musaStreamGetId(nullptr, &legacy), musaSuccess);
  EXPECT_EQ(ia, ia2);
  EXPECT_NE(ia, ib);
  EXPECT_NE(ia, legacy);
  EXPECT_EQ(musaStreamGetId(a, nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaStreamDestroy(a), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(b), musaSuccess);
}

TEST(StreamApi, AttachMemAsyncTakesWholeManagedAllocations) {
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  float *managed, *plain;
  ASSERT_EQ(musaMallocManaged(&managed, 4096), musaSuccess);
  ASSERT_EQ(musaMalloc(&plain, 4096), musaSuccess);
  EXPECT_EQ(musaStreamAttachMemAsync(s, managed, 0, musaMemAttachSingle), musaSuccess);
  EXPECT_EQ(musaStreamAttachMemAsync(s, managed, 4096, musaMemAttachHost), musaSuccess);
  EXPECT_EQ(musaStreamAttachMemAsync(nullptr, managed, 0, musaMemAttachGlobal), musaSuccess);
  EXPECT_EQ(musaStreamSynchronize(s), musaSuccess);
  EXPECT_EQ(musaStreamAttachMemAsync(s, managed, 100, musaMemAttachGlobal),
            musaErrorInvalidValue); // part of an allocation
  EXPECT_EQ(musaStreamAttachMemAsync(s, managed + 1, 0, musaMemAttachGlobal),
            musaErrorInvalidValue); // not its start
  EXPECT_EQ(musaStreamAttachMemAsync(s, plain, 0, musaMemAttachGlobal), musaErrorInvalidValue);
  EXPECT_EQ(musaStreamAttachMemAsync(s, managed, 0, 0x8), musaErrorInvalidValue);
  EXPECT_EQ(musaStreamAttachMemAsync(nullptr, managed, 0, musaMemAttachSingle),
            musaErrorInvalidValue);
  EXPECT_EQ(musaFree(managed), musaSuccess);
  EXPECT_EQ(musaFree(plain), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
}

TEST(StreamApi, ThreadNamesAreTheDeviceCalls) {
  EXPECT_EQ(musaThreadSynchronize(), musaSuccess);
  size_t stack = 0;
  EXPECT_EQ(musaThreadSetLimit(musaLimitStackSize, 4096), musaSuccess);
  EXPECT_EQ(musaThreadGetLimit(&stack, musaLimitStackSize), musaSuccess);
  size_t viaDevice = 0;
  EXPECT_EQ(musaDeviceGetLimit(&viaDevice, musaLimitStackSize), musaSuccess);
  EXPECT_EQ(stack, viaDevice);
  musaFuncCache cache;
  EXPECT_EQ(musaThreadSetCacheConfig(musaFuncCachePreferShared), musaSuccess);
  EXPECT_EQ(musaThreadGetCacheConfig(&cache), musaSuccess);
  EXPECT_EQ(cache, musaFuncCachePreferShared);
  EXPECT_EQ(musaThreadSetCacheConfig(musaFuncCachePreferNone), musaSuccess);
}
