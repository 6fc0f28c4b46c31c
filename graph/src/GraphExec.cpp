// Instantiated graphs on a oneTBB flow graph.
#include "musa/graph/GraphExec.h"

#include "musa/sim/Timing.h"

#include <tbb/flow_graph.h>

#include <algorithm>

namespace musa::graph {

struct GraphExec::Flow {
  tbb::flow::graph graph;
  std::vector<std::unique_ptr<tbb::flow::continue_node<tbb::flow::continue_msg>>> nodes;
  std::vector<tbb::flow::continue_node<tbb::flow::continue_msg> *> roots;
  // Simulated time: each node's own timeline starts when its last dependency's ends (or at
  // the launch's start for roots); the launch ends with the last node.
  std::unique_ptr<sim::Timeline[]> times;
  std::vector<std::vector<size_t>> dependencies; // node index -> its dependencies' indices
  double startNs = 0;
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
  std::map<const Node *, tbb::flow::continue_node<tbb::flow::continue_msg> *> flowNode;
  std::map<const Node *, size_t> index;
  size_t count = exec->plan_->nodes().size();
  flow.times = std::make_unique<sim::Timeline[]>(count);
  flow.dependencies.resize(count);
  for (auto &n : exec->plan_->nodes()) {
    Node *node = n.get();
    size_t i = index.size();
    index[node] = i;
    flow.nodes.push_back(std::make_unique<tbb::flow::continue_node<tbb::flow::continue_msg>>(
        flow.graph, [node, i, &flow](const tbb::flow::continue_msg &) {
          double ready = flow.startNs;
          for (size_t d : flow.dependencies[i])
            ready = std::max(ready, flow.times[d].readyNs.load());
          flow.times[i].readyNs = ready;
          sim::TimelineScope scope(&flow.times[i]);
          if (node->enabled && node->work)
            node->work->run();
        }));
    flowNode[node] = flow.nodes.back().get();
    if (node->dependencies.empty())
      flow.roots.push_back(flow.nodes.back().get());
  }
  for (auto &[from, to] : exec->plan_->edges()) {
    tbb::flow::make_edge(*flowNode[from], *flowNode[to]);
    flow.dependencies[index[to]].push_back(index[from]);
  }
  return exec;
}

GraphExec::~GraphExec() = default;

void GraphExec::run() {
  std::lock_guard lock(running_);
  for (auto &n : plan_->nodes())
    if (n->work)
      n->work->beforeLaunch();
  sim::Timeline *outer = sim::currentTimeline();
  flow_->startNs = outer ? outer->readyNs.load() : 0;
  for (auto *root : flow_->roots)
    root->try_put(tbb::flow::continue_msg());
  flow_->graph.wait_for_all();
  if (outer) {
    double end = flow_->startNs;
    for (size_t i = 0; i < flow_->dependencies.size(); ++i)
      end = std::max(end, flow_->times[i].readyNs.load());
    outer->readyNs = end;
  }
}

void GraphExec::modify(const std::function<void(Graph &)> &change) {
  std::lock_guard lock(running_);
  change(*plan_);
}

Node *GraphExec::copyOf(const Node *original) const {
  auto it = copies_.find(original);
  return it == copies_.end() ? nullptr : it->second;
}

} // namespace musa::graph
