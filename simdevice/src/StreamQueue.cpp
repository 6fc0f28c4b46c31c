// In-order operation queue with a sleeping worker thread.
#include "musa/sim/StreamQueue.h"

namespace musa::sim {

StreamQueue::~StreamQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (worker_.joinable())
    worker_.join();
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
    if (queue_.empty())
      return; // stopping and drained
    Operation op = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    op();
    lock.lock();
    ++completed_;
    drained_.notify_all();
  }
}

} // namespace musa::sim
