// Interprocess event state in a shared page, with futex waits.
#include "SharedEvent.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <string>

namespace musa::rt {

namespace {

constexpr size_t PageBytes = 4096;

void futexWake(std::atomic<uint32_t> *word) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAKE, INT_MAX, nullptr, nullptr,
          0);
}

void futexWait(std::atomic<uint32_t> *word, uint32_t seen) {
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(word), FUTEX_WAIT, seen, nullptr, nullptr, 0);
}

/// Wrap-safe "a is at or after b" for sequence numbers.
bool reached(uint32_t a, uint32_t b) { return int32_t(a - b) >= 0; }

SharedEventPage::State *mapState(int fd) {
  void *p = mmap(nullptr, PageBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : static_cast<SharedEventPage::State *>(p);
}

} // namespace

/// Done when the shared `completed` counter reaches this record's number.
class SharedStamp final : public EventStamp {
public:
  SharedStamp(std::shared_ptr<SharedEventPage> page, uint32_t target)
      : page_(std::move(page)), target_(target) {}
  void complete(double) override {
    auto &completed = page_->state_->completed;
    uint32_t seen = completed.load();
    while (!reached(seen, target_) && !completed.compare_exchange_weak(seen, target_)) {
    }
    futexWake(&completed);
  }
  bool done() const override { return reached(page_->state_->completed.load(), target_); }
  void wait() const override {
    auto &completed = page_->state_->completed;
    for (uint32_t seen = completed.load(); !reached(seen, target_); seen = completed.load())
      futexWait(&completed, seen);
  }
  double timeMs() const override { return 0; } // interprocess events never time

private:
  std::shared_ptr<SharedEventPage> page_;
  uint32_t target_;
};

std::shared_ptr<SharedEventPage> SharedEventPage::create() {
  int fd = memfd_create("musa-sim-event", MFD_CLOEXEC);
  if (fd < 0)
    return nullptr;
  State *state = ftruncate(fd, PageBytes) == 0 ? mapState(fd) : nullptr;
  if (!state) {
    close(fd);
    return nullptr;
  }
  return std::make_shared<SharedEventPage>(Key{}, fd, state);
}

std::shared_ptr<SharedEventPage> SharedEventPage::open(int pid, int fd) {
  std::string path = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
  int mine = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (mine < 0)
    return nullptr;
  State *state = mapState(mine);
  if (!state) {
    close(mine);
    return nullptr;
  }
  return std::make_shared<SharedEventPage>(Key{}, mine, state);
}

SharedEventPage::~SharedEventPage() {
  munmap(state_, PageBytes);
  close(fd_);
}

std::shared_ptr<EventStamp> SharedEventPage::stampForNextRecord() {
  return std::make_shared<SharedStamp>(shared_from_this(), state_->recorded.fetch_add(1) + 1);
}

std::shared_ptr<EventStamp> SharedEventPage::stampForLatestRecord() {
  uint32_t latest = state_->recorded.load();
  if (latest == 0)
    return nullptr; // never recorded
  return std::make_shared<SharedStamp>(shared_from_this(), latest);
}

} // namespace musa::rt
