// Stream capture, the graph side: the nodes a capturing stream's next operation depends on
// (its tail), how captured operations, dependency updates and event waits move it, and the
// rule that forked work must be joined back before a capture ends. The runtime keeps which
// streams capture, the capture modes and their errors (runtime/src/Capture.h).
#pragma once

#include "musa/graph/Graph.h"

#include <memory>
#include <vector>

namespace musa::graph {

class CaptureTail {
public:
  const std::vector<Node *> &nodes() const { return nodes_; }
  void clear() { nodes_.clear(); }
  /// A captured operation: a node of `type` in `g` after the tail; the tail becomes that node.
  Node *append(Graph &g, NodeType type, std::unique_ptr<NodeWork> work);
  /// Adds each of `more` not in the tail yet: a wait on an event recorded in the capture
  /// (fork), or an update that adds dependencies.
  void merge(const std::vector<Node *> &more);
  /// musaStreamUpdateCaptureDependencies: `nodes` are added to the tail or replace it
  /// (`replace`); false, and nothing changes, if one of them is not a node of `g`.
  bool update(const Graph &g, const std::vector<Node *> &nodes, bool replace);

private:
  std::vector<Node *> nodes_;
};

/// Whether every node of `forked` (the tails of the streams a capture spread to) is in
/// `joined` (the origin stream's tail) or precedes one of its nodes: the forked work was
/// joined back into the origin before the capture ended.
bool joinedBack(const std::vector<Node *> &joined, const std::vector<Node *> &forked);

} // namespace musa::graph
