// Instantiated graphs on a oneTBB flow graph.
#include "musa/graph/GraphExec.h"

#include <tbb/flow_graph.h>

namespace musa::graph {

struct GraphExec::Flow {
  tbb::flow::graph graph;
  std::vector<std::unique_ptr<tbb::flow::continue_node<tbb::flow::continue_msg>>> nodes;
  std::vector<tbb::flow::continue_node<tbb::flow::continue_msg> *> roots;
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
  for (auto &n : exec->plan_->nodes()) {
    Node *node = n.get();
    flow.nodes.push_back(std::make_unique<tbb::flow::continue_node<tbb::flow::continue_msg>>(
        flow.graph, [node](const tbb::flow::continue_msg &) {
          if (node->enabled && node->work)
            node->work->run();
        }));
    flowNode[node] = flow.nodes.back().get();
    if (node->dependencies.empty())
      flow.roots.push_back(flow.nodes.back().get());
  }
  for (auto &[from, to] : exec->plan_->edges())
    tbb::flow::make_edge(*flowNode[from], *flowNode[to]);
  return exec;
}

GraphExec::~GraphExec() = default;

void GraphExec::run() {
  std::lock_guard lock(running_);
  for (auto &n : plan_->nodes())
    if (n->work)
      n->work->beforeLaunch();
  for (auto *root : flow_->roots)
    root->try_put(tbb::flow::continue_msg());
  flow_->graph.wait_for_all();
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
