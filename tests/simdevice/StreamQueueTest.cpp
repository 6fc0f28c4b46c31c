// StreamQueue: order, asynchrony, waiting by ticket, draining on destruction.
#include "musa/sim/StreamQueue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <vector>

using musa::sim::StreamQueue;

TEST(StreamQueue, RunsInSubmissionOrder) {
  StreamQueue q;
  std::vector<int> order;
  for (int i = 0; i < 100; ++i)
    q.enqueue([&order, i] { order.push_back(i); });
  q.synchronize();
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(order[size_t(i)], i);
  EXPECT_TRUE(q.idle());
}

TEST(StreamQueue, EnqueueReturnsBeforeTheWorkIsDone) {
  StreamQueue q;
  std::atomic<bool> release{false}, done{false};
  uint64_t ticket = q.enqueue([&] {
    while (!release)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    done = true;
  });
  EXPECT_FALSE(done);
  EXPECT_FALSE(q.idle());
  release = true;
  q.waitUntil(ticket);
  EXPECT_TRUE(done);
}

TEST(StreamQueue, DestructionDrainsPendingWork) {
  std::atomic<int> ran{0};
  {
    auto q = std::make_unique<StreamQueue>();
    for (int i = 0; i < 20; ++i)
      q->enqueue([&] {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
        ++ran;
      });
  }
  EXPECT_EQ(ran.load(), 20);
}

TEST(StreamQueue, RetireReturnsAtOnceAndEndsTheQueueAfterItsWork) {
  std::atomic<int> ran{0};
  std::atomic<bool> release{false}, ended{false};
  auto q = std::make_unique<StreamQueue>();
  for (int i = 0; i < 5; ++i)
    q->enqueue([&] {
      while (!release)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      ++ran;
    });
  StreamQueue *raw = q.release();
  // The last operation destroys the queue on its own worker, after the pending work.
  raw->retire([&, raw] {
    EXPECT_EQ(ran.load(), 5);
    std::unique_ptr<StreamQueue> owned(raw);
    owned.reset();
    ended = true;
  });
  EXPECT_FALSE(ended.load()); // retire did not wait for the held work
  release = true;
  for (int i = 0; i < 5000 && !ended; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(ended.load());
  EXPECT_EQ(ran.load(), 5);
}

TEST(StreamQueue, RetiringAnUnusedQueueRunsTheLastOperationAtOnce) {
  auto q = std::make_unique<StreamQueue>();
  bool ended = false;
  q->retire([&] { ended = true; });
  EXPECT_TRUE(ended);
}

// An operation that counts itself complete before publishing (an event record) leaves the
// queue idle for whoever sees what it published; the ticket counts once.
TEST(StreamQueue, AnOperationCompletedEarlyIsIdleBeforeItPublishes) {
  StreamQueue q;
  std::atomic<bool> published{false}, idleWhenPublished{false}, release{false};
  q.enqueue([&] {
    StreamQueue::completeRunning();
    StreamQueue::completeRunning(); // a second call counts nothing more
    idleWhenPublished = q.idle();
    published = true;
    while (!release) // still running: the ticket is counted already
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (!published)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(idleWhenPublished);
  EXPECT_TRUE(q.idle());
  release = true;
  uint64_t next = q.enqueue([] {});
  q.waitUntil(next);
  EXPECT_TRUE(q.idle());
  EXPECT_EQ(q.lastTicket(), 2u);
}

TEST(StreamQueue, CompleteRunningOutsideAnOperationDoesNothing) {
  StreamQueue q;
  StreamQueue::completeRunning();
  EXPECT_TRUE(q.idle());
  uint64_t ticket = q.enqueue([] {});
  q.waitUntil(ticket);
  EXPECT_TRUE(q.idle());
}
