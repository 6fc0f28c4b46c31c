// In-order operation queue with a sleeping worker thread.
#include "musa/sim/StreamQueue.h"

#include <chrono>

namespace musa::sim {

namespace {
std::atomic<int> running{0}; // operations executing now, over all queues
// Whether this thread is a worker inside one of them: exit() called from a host function
// quiesces on that worker, and must not wait for its own operation.
thread_local bool insideOperation = false;
thread_local StreamQueue *runningQueue = nullptr; // the queue whose operation this worker runs
} // namespace

void StreamQueue::completeRunning(const std::function<void()> &publish) {
  StreamQueue *queue = runningQueue;
  if (!queue) { // not inside an operation (a graph's event node, say): nothing to count
    if (publish)
      publish();
    return;
  }
  std::lock_guard lock(queue->mutex_);
  if (!queue->completedEarly_) {
    queue->completedEarly_ = true;
    ++queue->completed_;
  }
  if (publish)
    publish();
  queue->drained_.notify_all();
}

void abandonWork() { workAbandonedFlag.store(true); }

bool quiesce(int timeoutMs) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
  const int own = insideOperation ? 1 : 0;
  while (running.load() > own) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

StreamQueue::~StreamQueue() {
  if (worker_.joinable() && worker_.get_id() == std::this_thread::get_id()) {
    // retire()'s last operation destroys the queue on its own worker, which has nothing left
    // to do and returns without touching the queue again.
    worker_.detach();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable())
    worker_.join();
}

void StreamQueue::retire(Operation last) {
  bool started;
  {
    std::lock_guard lock(mutex_);
    started = worker_.joinable();
    if (started) {
      last_ = std::move(last);
      stopping_ = true;
      // Notified under the lock: the worker, which may destroy the queue as soon as it runs
      // `last`, cannot get past its wait before this call is done with the queue.
      wake_.notify_all();
    }
  }
  if (!started)
    last(); // no worker was ever started: nothing is pending
}

uint64_t StreamQueue::enqueue(Operation op) {
  uint64_t ticket;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(op));
    ticket = ++submitted_;
    if (!worker_.joinable())
      worker_ = std::thread([this] { work(); });
  }
  wake_.notify_one();
  return ticket;
}

uint64_t StreamQueue::lastTicket() const {
  std::lock_guard lock(mutex_);
  return submitted_;
}

void StreamQueue::waitUntil(uint64_t ticket) {
  std::unique_lock lock(mutex_);
  drained_.wait(lock, [&] { return completed_ >= ticket; });
}

void StreamQueue::synchronize() { waitUntil(lastTicket()); }

bool StreamQueue::idle() const {
  std::lock_guard lock(mutex_);
  return completed_ == submitted_;
}

void StreamQueue::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) {
      // Stopping and drained. A retired queue's last operation may destroy the queue: after
      // it, nothing here may be touched.
      Operation last = std::move(last_);
      lock.unlock();
      if (last)
        last();
      return;
    }
    Operation op = std::move(queue_.front());
    queue_.pop_front();
    running.fetch_add(1);
    lock.unlock();
    insideOperation = true;
    runningQueue = this;
    if (!workAbandoned())
      op();
    runningQueue = nullptr;
    insideOperation = false;
    op = nullptr; // what the operation held (streams it waited for) goes before the lock
    running.fetch_sub(1);
    lock.lock();
    if (completedEarly_)
      completedEarly_ = false;
    else
      ++completed_;
    drained_.notify_all();
  }
}

} // namespace musa::sim
