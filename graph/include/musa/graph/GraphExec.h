// GraphExec: an instantiated graph. Owns a frozen copy of the graph and a oneTBB flow graph
// with one continue_node per node, wired like the graph's edges: independent branches run
// concurrently, a node starts when its last dependency has finished. One GraphExec never runs
// concurrently with itself: launches serialise on its own lock.
#pragma once

#include "musa/graph/Graph.h"

#include <mutex>

namespace tbb::detail::d1 {
class graph;
}

namespace musa::graph {

class GraphExec {
public:
  /// Instantiates `graph`; null with `error` set if it is invalid (a cycle).
  static std::unique_ptr<GraphExec> instantiate(const Graph &graph, std::string &error);
  ~GraphExec();

  /// Runs every enabled node once, in dependency order, and returns when all are done.
  void run();

  /// The frozen plan, and the copy of each original node in it.
  Graph &plan() { return *plan_; }
  Node *copyOf(const Node *original) const;
  /// Changes the plan (node parameters, enabled flags) while no launch of it runs.
  void modify(const std::function<void(Graph &)> &change);

private:
  GraphExec() = default;
  struct Flow;
  std::unique_ptr<Graph> plan_;
  std::map<const Node *, Node *> copies_;
  std::unique_ptr<Flow> flow_;
  std::mutex running_;
};

} // namespace musa::graph
