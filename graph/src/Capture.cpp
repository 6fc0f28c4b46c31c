#include "musa/graph/Capture.h"

#include <algorithm>
#include <set>

namespace musa::graph {

Node *CaptureTail::append(Graph &g, NodeType type, std::unique_ptr<NodeWork> work) {
  Node *node = g.add(type, std::move(work), nodes_);
  nodes_ = {node};
  return node;
}

void CaptureTail::merge(const std::vector<Node *> &more) {
  for (Node *node : more)
    if (std::find(nodes_.begin(), nodes_.end(), node) == nodes_.end())
      nodes_.push_back(node);
}

bool CaptureTail::update(const Graph &g, const std::vector<Node *> &nodes, bool replace) {
  for (const Node *node : nodes)
    if (!g.owns(node))
      return false;
  if (replace)
    nodes_.clear();
  merge(nodes);
  return true;
}

bool joinedBack(const std::vector<Node *> &joined, const std::vector<Node *> &forked) {
  std::set<const Node *> seen; // `joined` and every node it depends on
  std::vector<const Node *> work(joined.begin(), joined.end());
  while (!work.empty()) {
    const Node *n = work.back();
    work.pop_back();
    if (seen.insert(n).second)
      work.insert(work.end(), n->dependencies.begin(), n->dependencies.end());
  }
  return std::all_of(forked.begin(), forked.end(), [&](const Node *n) { return seen.count(n); });
}

} // namespace musa::graph
