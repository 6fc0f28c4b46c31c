// SharedEventPage: the state of an interprocess event, in a memfd page that every process
// holding the event maps. Two counters: records issued and records completed. A record takes
// the next number; its stamp is done once `completed` reaches it. Waiters sleep on the
// `completed` word with a (non-private) futex, so a waiter in one process wakes when a stream
// in another process reaches the record.
#pragma once

#include "Runtime.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace musa::rt {

class SharedEventPage : public std::enable_shared_from_this<SharedEventPage> {
public:
  struct State {
    std::atomic<uint32_t> recorded;
    std::atomic<uint32_t> completed;
  };

  /// A new page (this process exports it), or null if the host refuses.
  static std::shared_ptr<SharedEventPage> create();
  /// Maps the page of process `pid`'s descriptor `fd`, or null if it cannot be opened.
  static std::shared_ptr<SharedEventPage> open(int pid, int fd);
  ~SharedEventPage();

  int fd() const { return fd_; }
  std::shared_ptr<EventStamp> stampForNextRecord();
  std::shared_ptr<EventStamp> stampForLatestRecord();

private:
  struct Key {}; // only the factories construct pages
public:
  SharedEventPage(Key, int fd, State *state) : fd_(fd), state_(state) {}

private:
  friend class SharedStamp;
  int fd_;
  State *state_;
};

} // namespace musa::rt
