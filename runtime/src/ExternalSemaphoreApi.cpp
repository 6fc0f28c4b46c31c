// External semaphores: import, signal and wait on streams, and as graph nodes.
//
// OpaqueFd semaphores are eventfds (signal adds one, wait consumes one, blocking). Timeline
// semaphores are a memfd page holding a 64-bit value (signal raises it, wait sleeps on a
// futex until it is reached); musaSimCreateSemaphoreFd makes either kind, and any process
// holding the descriptor can import it.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Capture.h"
#include "GraphWork.h"
#include "Runtime.h"

#include <linux/futex.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <map>
#include <type_traits>
#include <mutex>

using namespace musa::rt;
namespace graph = musa::graph;

namespace {

constexpr char TimelineMagic[8] = {'M', 'S', 'I', 'M', 'S', 'E', 'M', 'T'};

struct TimelinePage {
  char magic[8];
  std::atomic<uint32_t> generation; // futex word, bumped on every signal
  std::atomic<uint64_t> value;
};

class Semaphore {
public:
  Semaphore(int fd, TimelinePage *page) : fd_(fd), page_(page) {}
  ~Semaphore() {
    if (page_)
      munmap(page_, sizeof(TimelinePage));
    close(fd_);
  }
  void signal(unsigned long long value) {
    if (!page_) {
      uint64_t one = 1;
      (void)!write(fd_, &one, sizeof one);
      return;
    }
    uint64_t seen = page_->value.load();
    while (seen < value && !page_->value.compare_exchange_weak(seen, value)) {
    }
    page_->generation.fetch_add(1);
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(&page_->generation), FUTEX_WAKE, INT_MAX,
            nullptr, nullptr, 0);
  }
  void wait(unsigned long long value) {
    if (!page_) {
      uint64_t taken;
      while (read(fd_, &taken, sizeof taken) < 0 && errno == EINTR) {
      }
      return;
    }
    for (;;) {
      uint32_t gen = page_->generation.load();
      if (page_->value.load() >= value)
        return;
      syscall(SYS_futex, reinterpret_cast<uint32_t *>(&page_->generation), FUTEX_WAIT, gen,
              nullptr, nullptr, 0);
    }
  }

private:
  int fd_;
  TimelinePage *page_;
};

struct SemaphoreTable {
  std::mutex mutex;
  std::map<const Semaphore *, std::shared_ptr<Semaphore>> live;
  static SemaphoreTable &get() {
    static SemaphoreTable *table = std::make_unique<SemaphoreTable>().release();
    return *table;
  }
};

std::shared_ptr<Semaphore> findSemaphore(musaExternalSemaphore_t handle) {
  auto &t = SemaphoreTable::get();
  std::lock_guard lock(t.mutex);
  auto it = t.live.find(reinterpret_cast<const Semaphore *>(handle));
  return it == t.live.end() ? nullptr : it->second;
}

/// Signals or waits on a list of semaphores, in order. Keeps the caller's handles and
/// parameters for the get-params calls.
class SemaphoreWork final : public graph::NodeWork {
public:
  SemaphoreWork(std::vector<std::shared_ptr<Semaphore>> sems, std::vector<uint64_t> values,
                bool signal)
      : sems_(std::move(sems)), values_(std::move(values)), signal_(signal) {}
  std::unique_ptr<graph::NodeWork> clone() const override {
    auto copy = std::make_unique<SemaphoreWork>(sems_, values_, signal_);
    copy->handles = handles;
    copy->signalParams = signalParams;
    copy->waitParams = waitParams;
    return copy;
  }
  std::vector<musaExternalSemaphore_t> handles;
  std::vector<musaExternalSemaphoreSignalParams> signalParams;
  std::vector<musaExternalSemaphoreWaitParams> waitParams;
  void run() override {
    for (size_t i = 0; i < sems_.size(); ++i)
      signal_ ? sems_[i]->signal(values_[i]) : sems_[i]->wait(values_[i]);
  }
  std::string label() const override {
    return std::string(signal_ ? "signal " : "wait ") + std::to_string(sems_.size()) +
           " external semaphore(s)";
  }

private:
  std::vector<std::shared_ptr<Semaphore>> sems_;
  std::vector<uint64_t> values_;
  bool signal_;
};

template <class Params>
musaError_t makeWork(const musaExternalSemaphore_t *handles, const Params *params, unsigned n,
                     bool signal, std::unique_ptr<graph::NodeWork> &out) {
  if (!handles || !params || n == 0)
    return musaErrorInvalidValue;
  std::vector<std::shared_ptr<Semaphore>> sems;
  std::vector<uint64_t> values;
  for (unsigned i = 0; i < n; ++i) {
    auto s = findSemaphore(handles[i]);
    if (!s)
      return musaErrorInvalidResourceHandle;
    sems.push_back(s);
    values.push_back(params[i].params.fence.value);
  }
  auto work = std::make_unique<SemaphoreWork>(std::move(sems), std::move(values), signal);
  work->handles.assign(handles, handles + n);
  if constexpr (std::is_same_v<Params, musaExternalSemaphoreSignalParams>)
    work->signalParams.assign(params, params + n);
  else
    work->waitParams.assign(params, params + n);
  out = std::move(work);
  return musaSuccess;
}

/// The semaphore work of a graph node of `type` (owned by a graph or an executable graph).
SemaphoreWork *semaphoreWork(graph::Node *n, graph::NodeType type) {
  return n && n->type == type ? dynamic_cast<SemaphoreWork *>(n->work.get()) : nullptr;
}

template <class Params>
musaError_t submitSemaphores(const musaExternalSemaphore_t *handles, const Params *params,
                             unsigned n, musaStream_t streamHandle, bool signal) {
  std::unique_ptr<graph::NodeWork> work;
  if (musaError_t e = makeWork(handles, params, n, signal, work))
    return e;
  std::shared_ptr<Stream> stream = Runtime::get().resolveStream(streamHandle);
  if (!stream)
    return musaErrorInvalidResourceHandle;
  bool captured;
  auto shared = std::shared_ptr<graph::NodeWork>(work.release());
  if (musaError_t e = Capture::route(
          *stream,
          signal ? graph::NodeType::ExtSemaphoreSignal : graph::NodeType::ExtSemaphoreWait,
          [&] { return shared->clone(); }, captured);
      e || captured)
    return e;
  std::function<void()> op = [shared] { shared->run(); };
  stream->device->submit(*stream, signal ? op : holdsForHost(*stream, op));
  return musaSuccess;
}

} // namespace

// The graph adders live here with the semaphore objects; GraphApi.cpp's helpers are reused.
namespace musa::rt {
musaError_t addGraphNode(musaGraphNode_t *node, musaGraph_t g, const musaGraphNode_t *deps,
                         size_t numDeps, graph::NodeType type,
                         std::unique_ptr<graph::NodeWork> work);
graph::Node *findGraphNode(musaGraphNode_t node);
musaError_t setExecNodeWork(musaGraphExec_t exec, musaGraphNode_t node, graph::NodeType type,
                            std::unique_ptr<graph::NodeWork> work);
}

extern "C" {

musaError_t musaSimCreateSemaphoreFd(int *fd, int timeline) {
  MUSA_BACKEND_HOOK(musaSimCreateSemaphoreFd, fd, timeline);
  return apiCall([&] {
    if (!fd || (timeline != 0 && timeline != 1))
      return musaErrorInvalidValue;
    if (!timeline) {
      int e = eventfd(0, EFD_CLOEXEC | EFD_SEMAPHORE);
      if (e < 0)
        return musaErrorOperatingSystem;
      *fd = e;
      return musaSuccess;
    }
    int m = memfd_create("musa-sim-semaphore", MFD_CLOEXEC);
    if (m < 0 || ftruncate(m, sizeof(TimelinePage)) != 0) {
      if (m >= 0)
        close(m);
      return musaErrorOperatingSystem;
    }
    void *p = mmap(nullptr, sizeof(TimelinePage), PROT_READ | PROT_WRITE, MAP_SHARED, m, 0);
    if (p == MAP_FAILED) {
      close(m);
      return musaErrorOperatingSystem;
    }
    std::memcpy(static_cast<TimelinePage *>(p)->magic, TimelineMagic, sizeof TimelineMagic);
    munmap(p, sizeof(TimelinePage));
    *fd = m;
    return musaSuccess;
  });
}

musaError_t musaImportExternalSemaphore(musaExternalSemaphore_t *out,
                                        const musaExternalSemaphoreHandleDesc *desc) {
  MUSA_BACKEND_HOOK(musaImportExternalSemaphore, out, desc);
  return apiCall([&] {
    // CUDA's handle types are 1..10; any other number is an invalid argument, not an
    // unsupported type.
    if (!out || !desc || desc->handle.fd < 0 || desc->type < 1 || desc->type > 10)
      return musaErrorInvalidValue;
    TimelinePage *page = nullptr;
    if (desc->type == musaExternalSemaphoreHandleTypeTimelineSemaphoreFd) {
      void *p = mmap(nullptr, sizeof(TimelinePage), PROT_READ | PROT_WRITE, MAP_SHARED,
                     desc->handle.fd, 0);
      if (p == MAP_FAILED)
        return musaErrorInvalidValue;
      page = static_cast<TimelinePage *>(p);
      if (std::memcmp(page->magic, TimelineMagic, sizeof TimelineMagic) != 0) {
        munmap(p, sizeof(TimelinePage));
        return musaErrorInvalidValue; // not a timeline musa-sim made
      }
    } else if (desc->type != musaExternalSemaphoreHandleTypeOpaqueFd) {
      return musaErrorNotSupported; // Win32, D3D, NvSciSync and keyed mutexes do not exist here
    }
    // Importing takes ownership of the descriptor, as CUDA does.
    auto sem = std::make_shared<Semaphore>(desc->handle.fd, page);
    auto &t = SemaphoreTable::get();
    std::lock_guard lock(t.mutex);
    t.live[sem.get()] = sem;
    *out = reinterpret_cast<musaExternalSemaphore_t>(sem.get());
    return musaSuccess;
  });
}

musaError_t musaDestroyExternalSemaphore(musaExternalSemaphore_t handle) {
  MUSA_BACKEND_HOOK(musaDestroyExternalSemaphore, handle);
  return apiCall([&] {
    auto &t = SemaphoreTable::get();
    std::lock_guard lock(t.mutex);
    return t.live.erase(reinterpret_cast<const Semaphore *>(handle)) ? musaSuccess
                                                                     : musaErrorInvalidResourceHandle;
  });
}

musaError_t musaSignalExternalSemaphoresAsync(const musaExternalSemaphore_t *sems,
                                              const musaExternalSemaphoreSignalParams *p,
                                              unsigned int n, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaSignalExternalSemaphoresAsync, sems, p, n, stream);
  return apiCall([&] { return submitSemaphores(sems, p, n, stream, true); });
}

musaError_t musaWaitExternalSemaphoresAsync(const musaExternalSemaphore_t *sems,
                                            const musaExternalSemaphoreWaitParams *p,
                                            unsigned int n, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaWaitExternalSemaphoresAsync, sems, p, n, stream);
  return apiCall([&] { return submitSemaphores(sems, p, n, stream, false); });
}

musaError_t musaGraphAddExternalSemaphoresSignalNode(
    musaGraphNode_t *node, musaGraph_t g, const musaGraphNode_t *deps, size_t numDeps,
    const musaExternalSemaphoreSignalNodeParams *params) {
  MUSA_BACKEND_HOOK(musaGraphAddExternalSemaphoresSignalNode, node, g, deps, numDeps, params);
  return apiCall([&] {
    if (!params)
      return musaErrorInvalidValue;
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeWork(params->extSemArray, params->paramsArray, params->numExtSems,
                                 true, work))
      return e;
    return addGraphNode(node, g, deps, numDeps, graph::NodeType::ExtSemaphoreSignal,
                        std::move(work));
  });
}

musaError_t musaGraphAddExternalSemaphoresWaitNode(
    musaGraphNode_t *node, musaGraph_t g, const musaGraphNode_t *deps, size_t numDeps,
    const musaExternalSemaphoreWaitNodeParams *params) {
  MUSA_BACKEND_HOOK(musaGraphAddExternalSemaphoresWaitNode, node, g, deps, numDeps, params);
  return apiCall([&] {
    if (!params)
      return musaErrorInvalidValue;
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeWork(params->extSemArray, params->paramsArray, params->numExtSems,
                                 false, work))
      return e;
    return addGraphNode(node, g, deps, numDeps, graph::NodeType::ExtSemaphoreWait,
                        std::move(work));
  });
}

} // extern "C"

extern "C" {

musaError_t musaGraphExternalSemaphoresSignalNodeGetParams(
    musaGraphNode_t node, musaExternalSemaphoreSignalNodeParams *out) {
  MUSA_BACKEND_HOOK(musaGraphExternalSemaphoresSignalNodeGetParams, node, out);
  return apiCall([&] {
    SemaphoreWork *w = semaphoreWork(findGraphNode(node), graph::NodeType::ExtSemaphoreSignal);
    if (!w || !out)
      return musaErrorInvalidValue;
    *out = {w->handles.data(), w->signalParams.data(), unsigned(w->handles.size())};
    return musaSuccess;
  });
}

musaError_t musaGraphExternalSemaphoresWaitNodeGetParams(
    musaGraphNode_t node, musaExternalSemaphoreWaitNodeParams *out) {
  MUSA_BACKEND_HOOK(musaGraphExternalSemaphoresWaitNodeGetParams, node, out);
  return apiCall([&] {
    SemaphoreWork *w = semaphoreWork(findGraphNode(node), graph::NodeType::ExtSemaphoreWait);
    if (!w || !out)
      return musaErrorInvalidValue;
    *out = {w->handles.data(), w->waitParams.data(), unsigned(w->handles.size())};
    return musaSuccess;
  });
}

musaError_t musaGraphExternalSemaphoresSignalNodeSetParams(
    musaGraphNode_t node, const musaExternalSemaphoreSignalNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphExternalSemaphoresSignalNodeSetParams, node, p);
  return apiCall([&] {
    graph::Node *n = findGraphNode(node);
    std::unique_ptr<graph::NodeWork> work;
    if (!semaphoreWork(n, graph::NodeType::ExtSemaphoreSignal) || !p)
      return musaErrorInvalidValue;
    if (musaError_t e = makeWork(p->extSemArray, p->paramsArray, p->numExtSems, true, work))
      return e;
    n->work = std::move(work);
    return musaSuccess;
  });
}

musaError_t musaGraphExternalSemaphoresWaitNodeSetParams(
    musaGraphNode_t node, const musaExternalSemaphoreWaitNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphExternalSemaphoresWaitNodeSetParams, node, p);
  return apiCall([&] {
    graph::Node *n = findGraphNode(node);
    std::unique_ptr<graph::NodeWork> work;
    if (!semaphoreWork(n, graph::NodeType::ExtSemaphoreWait) || !p)
      return musaErrorInvalidValue;
    if (musaError_t e = makeWork(p->extSemArray, p->paramsArray, p->numExtSems, false, work))
      return e;
    n->work = std::move(work);
    return musaSuccess;
  });
}

musaError_t musaGraphExecExternalSemaphoresSignalNodeSetParams(
    musaGraphExec_t exec, musaGraphNode_t node, const musaExternalSemaphoreSignalNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphExecExternalSemaphoresSignalNodeSetParams, exec, node, p);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (!p)
      return musaErrorInvalidValue;
    if (musaError_t e = makeWork(p->extSemArray, p->paramsArray, p->numExtSems, true, work))
      return e;
    return setExecNodeWork(exec, node, graph::NodeType::ExtSemaphoreSignal, std::move(work));
  });
}

musaError_t musaGraphExecExternalSemaphoresWaitNodeSetParams(
    musaGraphExec_t exec, musaGraphNode_t node, const musaExternalSemaphoreWaitNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphExecExternalSemaphoresWaitNodeSetParams, exec, node, p);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (!p)
      return musaErrorInvalidValue;
    if (musaError_t e = makeWork(p->extSemArray, p->paramsArray, p->numExtSems, false, work))
      return e;
    return setExecNodeWork(exec, node, graph::NodeType::ExtSemaphoreWait, std::move(work));
  });
}

} // extern "C"
