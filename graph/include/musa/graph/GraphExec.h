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
//
// Parameters are taken when a launch is made, not when it runs (as in CUDA): an update of the
// executable graph (new node work, a node enabled or disabled) reaches only later launches,
// while a launch enqueued earlier may not have started. A launch holds a Snapshot, the
// immutable list of every step's work and enabled flag; taking one is a shared-pointer copy.
// An update copies the snapshot (the work pointers, not the work) only if a launch has taken
// it since the last copy, and otherwise edits it in place: nobody else has seen it. Node work
// is never changed once made (an update replaces it), so snapshots share it.
#pragma once

#include "musa/graph/Graph.h"

#include <mutex>

namespace musa::graph {

class GraphExec {
public:
  /// What one launch runs: each step's work and enabled flag as the launch was made.
  struct Snapshot {
    struct Step {
      std::shared_ptr<NodeWork> work;
      bool enabled = true;
    };
    std::vector<Step> steps; // in the plan's node order
  };

  /// Instantiates `graph`; null with `error` set if it is invalid (a cycle).
  static std::unique_ptr<GraphExec> instantiate(const Graph &graph, std::string &error);
  ~GraphExec();

  /// The parameters a launch made now runs with (cheap: the snapshot is shared).
  std::shared_ptr<const Snapshot> snapshot();
  /// Runs every enabled step of `launch` once, in dependency order, and returns when all are
  /// done. An exception a node's work threw is rethrown here, after the other nodes have run.
  void run(const Snapshot &launch);
  /// Runs with the current parameters.
  void run() { run(*snapshot()); }

  /// The current plan (what the next launch runs), and the copy of each original node in it.
  /// Change the plan only through modify() or modifyNode().
  const Graph &plan() const { return *plan_; }
  Node *copyOf(const Node *original) const;
  /// Changes one node of the plan (its work, its enabled flag). Launches made before keep
  /// what they had.
  void modifyNode(Node *copy, const std::function<void(Node &)> &change);
  /// Changes the work and enabled flags of any nodes of the plan (not its structure), as
  /// modifyNode does.
  void modify(const std::function<void(Graph &)> &change);
  /// Replaces the embedded graph of child-graph node `copy` (same topology; the caller
  /// checks) with a copy of `child`; the child's nodes keep their correspondence to the
  /// originals.
  void replaceChild(Node *copy, const Graph &child);

private:
  GraphExec() = default;
  struct Flow;
  /// The snapshot to change: a private copy if a launch has taken the current one.
  Snapshot &writableSnapshot();
  void refreshStep(const Node &copy);

  std::unique_ptr<Graph> plan_;
  std::map<const Node *, Node *> copies_;
  std::map<const Node *, size_t> stepOf_; // plan node -> step index
  std::unique_ptr<Flow> flow_;
  std::mutex running_; // one launch at a time (Flow holds the running launch's state)
  mutable std::mutex params_; // plan_ node work and flags, snapshot_, snapshotTaken_, copies_
  std::shared_ptr<Snapshot> snapshot_;
  bool snapshotTaken_ = false; // a launch holds (or held) snapshot_
};

} // namespace musa::graph
