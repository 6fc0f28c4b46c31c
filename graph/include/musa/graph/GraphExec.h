// GraphExec: an instantiated graph. Owns a frozen copy of the graph and runs it as oneTBB
// tasks: independent branches run concurrently, a node starts when its last dependency has
// finished (a count of unfinished dependencies per node). One GraphExec never runs
// concurrently with itself: launches serialise on its own lock.
//
// Why not a tbb::flow::graph with wait_for_all, as oneTBB's examples do:
// - A flow graph attaches to the arena it is made in (or makes an arena of its own), and an
//   arena counts its attached handles in 12 bits: past 4,095 executable graphs the count
//   overflows, the arena stops getting workers, and every launch waits for ever.
// - wait_for_all waits inside the arena, where the waiting thread runs whatever task it
//   finds: a launch could find itself running, and blocked in, another graph's node (an
//   event wait, a host function) that needs the first launch to end.
// So every graph's nodes are tasks enqueued in one arena shared by the process, and the
// thread that launches a graph (a stream's worker) sleeps on a condition variable until its
// last node has run: it never waits inside the arena.
#pragma once

#include "musa/graph/Graph.h"

#include <mutex>

namespace musa::graph {

class GraphExec {
public:
  /// Instantiates `graph`; null with `error` set if it is invalid (a cycle).
  static std::unique_ptr<GraphExec> instantiate(const Graph &graph, std::string &error);
  ~GraphExec();

  /// Runs every enabled node once, in dependency order, and returns when all are done. An
  /// exception a node's work threw is rethrown here, after the other nodes have run.
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
