// StreamQueue: an in-order queue of device operations executed by its own worker thread.
//
// enqueue() returns at once; operations run one after another in submission order, each to
// completion, on a worker that sleeps on a condition variable when the queue is empty (no
// polling). synchronize() waits until everything enqueued before it has finished. Destroying
// the queue lets pending work finish first; retire() hands the queue's end to its own worker,
// so that whoever drops a stream never waits for the stream's work.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <atomic>
#include <mutex>
#include <thread>

namespace musa::sim {

/// Process exit with work in flight: from abandonWork() on, queues drop the operations they
/// have not started (their tickets still complete, so nothing waits forever) and running
/// grids stop at their next block. quiesce() waits, up to `timeoutMs`, until no queue runs an
/// operation; it returns whether that happened (a host function may block for ever).
void abandonWork();
inline std::atomic<bool> workAbandonedFlag{false};
inline bool workAbandoned() { return workAbandonedFlag.load(std::memory_order_relaxed); }
bool quiesce(int timeoutMs);

class StreamQueue {
public:
  using Operation = std::function<void()>;

  StreamQueue() = default;
  ~StreamQueue();
  StreamQueue(const StreamQueue &) = delete;
  StreamQueue &operator=(const StreamQueue &) = delete;

  /// Returns the operation's ticket: it has completed once waitUntil(ticket) returns.
  uint64_t enqueue(Operation op);
  /// The ticket of the most recently enqueued operation (0 if none).
  uint64_t lastTicket() const;
  /// Blocks until the operation with `ticket` (and all before it) has completed.
  void waitUntil(uint64_t ticket);
  /// Blocks until all operations enqueued so far have completed.
  void synchronize();
  /// True if no operation is queued or running.
  bool idle() const;
  /// Runs `last` once every operation enqueued so far has completed, on the worker thread
  /// (or at once on the caller's if the queue never started one), and returns at once. `last`
  /// may destroy this queue, and no more operations may be enqueued after this call.
  void retire(Operation last);
  /// Called inside a running operation: counts it complete now rather than when it returns,
  /// and runs `publish` (an event record completing its stamp) under the queue's lock, so
  /// that whoever sees either sees both: a stream queried after its last event completed is
  /// idle, an event queried after its stream synchronized is complete, as in CUDA. The
  /// operation must do nothing more that its stream orders.
  static void completeRunning(const std::function<void()> &publish = {});

private:
  void work();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable drained_;
  std::deque<Operation> queue_;
  uint64_t submitted_ = 0, completed_ = 0;
  bool stopping_ = false;
  Operation last_; // set by retire()
  bool completedEarly_ = false; // the running operation called completeRunning()
  std::thread worker_;
};

} // namespace musa::sim
