// Events: record, query, synchronize, cross-stream waits, timing, destruction, bad handles.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace {
/// A host function that holds its stream until released.
struct Gate {
  std::atomic<bool> open{false};
  static void MUSART_CB wait(void *self) {
    auto *g = static_cast<Gate *>(self);
    while (!g->open)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
};
} // namespace

TEST(EventApi, RecordQuerySynchronize) {
  musaStream_t s;
  musaEvent_t e;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  ASSERT_EQ(musaEventCreate(&e), musaSuccess);
  EXPECT_EQ(musaEventQuery(e), musaSuccess); // never recorded: complete
  Gate gate;
  ASSERT_EQ(musaLaunchHostFunc(s, Gate::wait, &gate), musaSuccess);
  ASSERT_EQ(musaEventRecord(e, s), musaSuccess);
  EXPECT_EQ(musaEventQuery(e), musaErrorNotReady);
  gate.open = true;
  EXPECT_EQ(musaEventSynchronize(e), musaSuccess);
  EXPECT_EQ(musaEventQuery(e), musaSuccess);
  EXPECT_EQ(musaEventDestroy(e), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
}

// Once the last event recorded in a stream has completed, the stream is idle, and once the
// stream has synchronized, its events are complete: CUDA's queries answer success at once.
// Repeated, as the windows the simulator once left were brief.
TEST(EventApi, StreamIsIdleOnceItsLastEventCompletes) {
  musaStream_t s;
  musaEvent_t e;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  ASSERT_EQ(musaEventCreate(&e), musaSuccess);
  int busy = 0, pending = 0;
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(musaEventRecord(e, s), musaSuccess);
    if (i % 2) {
      ASSERT_EQ(musaEventSynchronize(e), musaSuccess);
      busy += musaStreamQuery(s) != musaSuccess;
    } else { // and the other way round
      ASSERT_EQ(musaStreamSynchronize(s), musaSuccess);
      pending += musaEventQuery(e) != musaSuccess;
    }
  }
  EXPECT_EQ(busy, 0) << "the stream read busy after its last event completed";
  EXPECT_EQ(pending, 0) << "the event read pending after its stream synchronized";
  EXPECT_EQ(musaEventDestroy(e), musaSuccess);
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
}

TEST(EventApi, StreamWaitEventOrdersAcrossStreams) {
  musaStream_t producer, consumer;
  ASSERT_EQ(musaStreamCreateWithFlags(&producer, musaStreamNonBlocking), musaSuccess);
  ASSERT_EQ(musaStreamCreateWithFlags(&consumer, musaStreamNonBlocking), musaSuccess);
  musaEvent_t ready;
  ASSERT_EQ(musaEventCreateWithFlags(&ready, musaEventDisableTiming), musaSuccess);
  Gate gate;
  ASSERT_EQ(musaLaunchHostFunc(producer, Gate::wait, &gate), musaSuccess);
  ASSERT_EQ(musaEventRecord(ready, producer), musaSuccess);
  ASSERT_EQ(musaStreamWaitEvent(consumer, ready, 0), musaSuccess);
  std::atomic<bool> consumed{false};
  ASSERT_EQ(musaLaunchHostFunc(
                consumer, [](void *f) { static_cast<std::atomic<bool> *>(f)->store(true); },
                &consumed),
            musaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(consumed.load()); // still behind the producer's gate
  EXPECT_EQ(musaStreamQuery(consumer), musaErrorNotReady);
  // Destroying the event while work waits on it is allowed; the wait still completes.
  EXPECT_EQ(musaEventDestroy(ready), musaSuccess);
  gate.open = true;
  EXPECT_EQ(musaStreamSynchronize(consumer), musaSuccess);
  EXPECT_TRUE(consumed.load());
  musaStreamDestroy(producer);
  musaStreamDestroy(consumer);
}

TEST(EventApi, ElapsedTimeBetweenTwoRecords) {
  musaEvent_t start, stop;
  ASSERT_EQ(musaEventCreate(&start), musaSuccess);
  ASSERT_EQ(musaEventCreate(&stop), musaSuccess);
  float ms = -1;
  EXPECT_EQ(musaEventElapsedTime(&ms, start, stop), musaErrorInvalidResourceHandle); // unrecorded
  ASSERT_EQ(musaEventRecord(start, 0), musaSuccess);
  ASSERT_EQ(musaLaunchHostFunc(
                0, [](void *) { std::this_thread::sleep_for(std::chrono::milliseconds(5)); },
                nullptr),
            musaSuccess);
  ASSERT_EQ(musaEventRecord(stop, 0), musaSuccess);
  ASSERT_EQ(musaEventSynchronize(stop), musaSuccess);
  ASSERT_EQ(musaEventElapsedTime(&ms, start, stop), musaSuccess);
  EXPECT_GE(ms, 0.0f);
  EXPECT_EQ(musaEventElapsedTime(nullptr, start, stop), musaErrorInvalidValue);
  musaEventDestroy(start);
  musaEventDestroy(stop);
  musaGetLastError();
}

// Pinned copies queued behind their stream's previous operation start at the copy engine's
// own cost: mtt-s4000 (the tests' profile) has copy_latency_us 10, copy_queued_us 3.2 after a
// copy in the same direction and copy_switch_us 6.2 after one in the other; 4 KB at 25 GB/s
// adds 0.16 us. A synchronous copy returns to the host sync_return_us (4.5) after it ends, so
// the event after it, or the next copy, comes that much later.
TEST(EventApi, QueuedPinnedCopiesCostTheEnginesShareNotTheIsolatedLatency) {
  const size_t bytes = 4096;
  void *host = nullptr, *dev = nullptr;
  ASSERT_EQ(musaMallocHost(&host, bytes), musaSuccess);
  ASSERT_EQ(musaMalloc(&dev, bytes), musaSuccess);
  musaEvent_t start, stop;
  ASSERT_EQ(musaEventCreate(&start), musaSuccess);
  ASSERT_EQ(musaEventCreate(&stop), musaSuccess);
  auto usPerCopy = [&](int copies, bool alternate, bool async) {
    EXPECT_EQ(musaDeviceSynchronize(), musaSuccess);
    EXPECT_EQ(musaEventRecord(start, 0), musaSuccess);
    for (int k = 0; k < copies; ++k) {
      bool up = !alternate || k % 2 == 0;
      void *dst = up ? dev : host;
      const void *src = up ? host : dev;
      musaMemcpyKind kind = up ? musaMemcpyHostToDevice : musaMemcpyDeviceToHost;
      EXPECT_EQ(async ? musaMemcpyAsync(dst, src, bytes, kind, 0)
                      : musaMemcpy(dst, src, bytes, kind),
                musaSuccess);
    }
    EXPECT_EQ(musaEventRecord(stop, 0), musaSuccess);
    EXPECT_EQ(musaEventSynchronize(stop), musaSuccess);
    float ms = 0;
    EXPECT_EQ(musaEventElapsedTime(&ms, start, stop), musaSuccess);
    return ms * 1000 / copies;
  };
  const float isolated = usPerCopy(1, false, false);
  const float sameWay = usPerCopy(101, false, true);
  const float alternating = usPerCopy(101, true, true);
  EXPECT_NEAR(isolated, 10.16 + 4.5, 1.0);
  EXPECT_NEAR(sameWay, 3.36, 0.3);     // the first at 10.16, the rest at 3.36
  EXPECT_NEAR(alternating, 6.36, 0.3); // every copy follows one in the other direction
  // Synchronous copies are never queued: the host waited for the one before.
  EXPECT_NEAR(usPerCopy(5, true, false), 10.16 + 4.5, 1.0);
  EXPECT_NEAR(usPerCopy(1, false, true), 10.16, 1.0); // asynchronous, alone
  musaEventDestroy(start);
  musaEventDestroy(stop);
  musaFreeHost(host);
  musaFree(dev);
}

TEST(EventApi, DisableTimingEventsRefuseElapsedTime) {
  musaEvent_t a, b;
  ASSERT_EQ(musaEventCreateWithFlags(&a, musaEventDisableTiming), musaSuccess);
  ASSERT_EQ(musaEventCreateWithFlags(&b, musaEventBlockingSync), musaSuccess);
  ASSERT_EQ(musaEventRecord(a, 0), musaSuccess);
  ASSERT_EQ(musaEventRecordWithFlags(b, 0, musaEventRecordExternal), musaSuccess);
  ASSERT_EQ(musaDeviceSynchronize(), musaSuccess);
  float ms;
  EXPECT_EQ(musaEventElapsedTime(&ms, a, b), musaErrorInvalidResourceHandle);
  musaEventDestroy(a);
  musaEventDestroy(b);
  musaGetLastError();
}

TEST(EventApi, BadFlagsAndHandles) {
  musaEvent_t e;
  EXPECT_EQ(musaEventCreateWithFlags(&e, 0x80), musaErrorInvalidValue);
  EXPECT_EQ(musaEventCreateWithFlags(&e, musaEventInterprocess), musaErrorInvalidValue);
  EXPECT_EQ(musaEventCreateWithFlags(&e, musaEventInterprocess | musaEventDisableTiming),
            musaSuccess);
  EXPECT_EQ(musaEventCreate(nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaEventRecordWithFlags(e, 0, 0x10), musaErrorInvalidValue);
  EXPECT_EQ(musaEventDestroy(e), musaSuccess);
  EXPECT_EQ(musaEventDestroy(e), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaEventRecord(e, 0), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaEventQuery(e), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaEventSynchronize(e), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaStreamWaitEvent(0, e, 0), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaEventDestroy(nullptr), musaErrorInvalidResourceHandle);
  int local;
  EXPECT_EQ(musaEventQuery(reinterpret_cast<musaEvent_t>(&local)),
            musaErrorInvalidResourceHandle);
  musaEvent_t ok;
  ASSERT_EQ(musaEventCreate(&ok), musaSuccess);
  EXPECT_EQ(musaStreamWaitEvent(0, ok, 0x4), musaErrorInvalidValue);
  musaStream_t dead;
  ASSERT_EQ(musaStreamCreate(&dead), musaSuccess);
  ASSERT_EQ(musaStreamDestroy(dead), musaSuccess);
  EXPECT_EQ(musaEventRecord(ok, dead), musaErrorInvalidResourceHandle);
  musaEventDestroy(ok);
  musaGetLastError();
}
