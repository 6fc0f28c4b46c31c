// Instantiated graphs: nodes run as oneTBB tasks of one shared arena, each started when its
// last dependency has finished.
#include "musa/graph/GraphExec.h"

#include "musa/sim/Timing.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <limits>
#include <map>
#include <utility>

namespace musa::graph {

namespace {
/// The arena every executable graph's nodes run in (GraphExec.h says why one). Deliberately
/// never destroyed, like the runtime: stream workers may still run graphs while the process
/// exits.
tbb::task_arena &graphArena() {
  static tbb::task_arena *arena = std::make_unique<tbb::task_arena>().release();
  return *arena;
}
constexpr size_t None = std::numeric_limits<size_t>::max();
} // namespace

struct GraphExec::Flow {
  struct Step {
    std::vector<size_t> dependencies, dependents; // step indices
    std::atomic<size_t> waiting{0}; // dependencies not finished yet in the running launch
  };
  std::unique_ptr<Step[]> steps;
  size_t count = 0;
  std::vector<size_t> roots;
  const Snapshot *launch = nullptr; // the running launch's parameters
  // Simulated time: each node's own timeline starts when its last dependency's ends (or at
  // the launch's start for roots); the launch ends with the last node.
  std::unique_ptr<sim::Timeline[]> times;
  double startNs = 0;
  // The launch in progress: steps whose work has not finished; the launching thread sleeps
  // on `done` until none is left.
  std::atomic<size_t> remaining{0};
  std::mutex doneMutex;
  std::condition_variable done;
  std::exception_ptr failure; // the first exception a node's work threw (under doneMutex)

  void start(size_t i) {
    graphArena().enqueue([this, i] { runFrom(i); });
  }
  /// Runs step `i`, then each dependent it was the last dependency of: one on this thread,
  /// the others as new tasks.
  void runFrom(size_t i) {
    // Acquire what the launching thread and the dependencies wrote (ThreadSanitizer cannot
    // see the ordering oneTBB's queue gives).
    remaining.load(std::memory_order_acquire);
    steps[i].waiting.load(std::memory_order_acquire);
    for (;;) {
      runStep(i);
      size_t next = None;
      for (size_t d : steps[i].dependents)
        if (--steps[d].waiting == 0) {
          if (next == None)
            next = d;
          else
            start(d);
        }
      // Once the count reaches zero the launching thread may go on and destroy this Flow:
      // nothing of it is touched after that.
      if (--remaining == 0) {
        std::lock_guard lock(doneMutex);
        done.notify_all();
      }
      if (next == None)
        return;
      i = next; // not finished, so `remaining` is still above zero
    }
  }
  void runStep(size_t i) {
    double ready = startNs;
    for (size_t d : steps[i].dependencies)
      ready = std::max(ready, times[d].readyNs.load());
    times[i].readyNs = ready;
    sim::TimelineScope scope(&times[i]);
    const Snapshot::Step &step = launch->steps[i];
    // An exception ends only its own node: the dependents still run, the launch still ends
    // (run() rethrows it).
    try {
      if (step.enabled && step.work)
        step.work->run();
    } catch (...) {
      std::lock_guard lock(doneMutex);
      if (!failure)
        failure = std::current_exception();
    }
  }
};

std::unique_ptr<GraphExec> GraphExec::instantiate(const Graph &graph, std::string &error) {
  if (graph.topologicalOrder().size() != graph.nodes().size()) {
    error = "the graph has a cycle";
    return nullptr;
  }
  std::unique_ptr<GraphExec> exec(new GraphExec());
  exec->plan_ = graph.clone(&exec->copies_);
  exec->flow_ = std::make_unique<Flow>();
  Flow &flow = *exec->flow_;
  flow.count = exec->plan_->nodes().size();
  flow.steps = std::make_unique<Flow::Step[]>(flow.count);
  flow.times = std::make_unique<sim::Timeline[]>(flow.count);
  std::map<const Node *, size_t> &index = exec->stepOf_;
  exec->snapshot_ = std::make_shared<Snapshot>();
  for (auto &n : exec->plan_->nodes()) {
    size_t i = index.size();
    index[n.get()] = i;
    exec->snapshot_->steps.push_back({n->work, n->enabled});
    if (n->dependencies.empty())
      flow.roots.push_back(i);
  }
  for (auto &[from, to] : exec->plan_->edges()) {
    flow.steps[index[from]].dependents.push_back(index[to]);
    flow.steps[index[to]].dependencies.push_back(index[from]);
  }
  return exec;
}

GraphExec::~GraphExec() = default;

std::shared_ptr<const GraphExec::Snapshot> GraphExec::snapshot() {
  std::lock_guard lock(params_);
  snapshotTaken_ = true;
  return snapshot_;
}

void GraphExec::run(const Snapshot &launch) {
  std::lock_guard lock(running_);
  for (const Snapshot::Step &step : launch.steps)
    if (step.work)
      step.work->beforeLaunch();
  Flow &flow = *flow_;
  flow.launch = &launch;
  sim::Timeline *outer = sim::currentTimeline();
  flow.startNs = outer ? outer->readyNs.load() : 0;
  if (flow.count) {
    for (size_t i = 0; i < flow.count; ++i)
      flow.steps[i].waiting.store(flow.steps[i].dependencies.size(), std::memory_order_relaxed);
    flow.remaining.store(flow.count, std::memory_order_release);
    for (size_t root : flow.roots)
      flow.start(root);
    std::unique_lock done(flow.doneMutex);
    flow.done.wait(done, [&] { return flow.remaining.load() == 0; });
  }
  if (std::exception_ptr failure = std::exchange(flow.failure, nullptr))
    std::rethrow_exception(failure);
  if (outer) {
    double end = flow.startNs;
    for (size_t i = 0; i < flow.count; ++i)
      end = std::max(end, flow.times[i].readyNs.load());
    outer->readyNs = end;
  }
}

GraphExec::Snapshot &GraphExec::writableSnapshot() {
  if (snapshotTaken_) {
    snapshot_ = std::make_shared<Snapshot>(*snapshot_);
    snapshotTaken_ = false;
  }
  return *snapshot_;
}

void GraphExec::refreshStep(const Node &copy) {
  auto it = stepOf_.find(&copy);
  if (it == stepOf_.end())
    return; // a node inside a child graph's copy: not a step of its own
  Snapshot::Step &step = writableSnapshot().steps[it->second];
  step.work = copy.work;
  step.enabled = copy.enabled;
}

void GraphExec::modifyNode(Node *copy, const std::function<void(Node &)> &change) {
  std::lock_guard lock(params_);
  change(*copy);
  refreshStep(*copy);
}

void GraphExec::modify(const std::function<void(Graph &)> &change) {
  std::lock_guard lock(params_);
  change(*plan_);
  for (auto &n : plan_->nodes())
    refreshStep(*n);
}

void GraphExec::replaceChild(Node *copy, const Graph &child) {
  Graph scratch;
  Node *fresh = scratch.addChild(child, {});
  std::lock_guard lock(params_);
  // The nodes of the old copy and the new one correspond in creation order (the topology is
  // the same); the originals now map to the new copies, so no entry points at a freed node.
  std::map<const Node *, Node *> renamed;
  std::function<void(const Graph &, const Graph &)> pair = [&](const Graph &from,
                                                               const Graph &to) {
    for (size_t i = 0; i < from.nodes().size() && i < to.nodes().size(); ++i) {
      renamed[from.nodes()[i].get()] = to.nodes()[i].get();
      if (from.nodes()[i]->child && to.nodes()[i]->child)
        pair(*from.nodes()[i]->child, *to.nodes()[i]->child);
    }
  };
  if (copy->child && fresh->child)
    pair(*copy->child, *fresh->child);
  for (auto &[original, c] : copies_)
    if (auto it = renamed.find(c); it != renamed.end())
      c = it->second;
  copy->work = std::move(fresh->work);
  copy->child = std::move(fresh->child);
  refreshStep(*copy);
}

Node *GraphExec::copyOf(const Node *original) const {
  std::lock_guard lock(params_);
  auto it = copies_.find(original);
  return it == copies_.end() ? nullptr : it->second;
}

} // namespace musa::graph
