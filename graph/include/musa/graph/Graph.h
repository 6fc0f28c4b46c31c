// Graph: the mutable description of a MUSA graph (nodes, edges, node work). GraphExec
// (GraphExec.h) is the immutable plan made from one.
//
// The graph layer knows node types, edges and how to run a DAG; what a node *does* is a
// NodeWork the runtime supplies (a kernel launch, a copy, a host call, ...), so this layer
// needs neither LLVM nor the musa* API.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace musa::graph {

/// CUDA's numbering (cudaGraphNodeType).
enum class NodeType : int {
  Kernel = 0,
  Memcpy = 1,
  Memset = 2,
  Host = 3,
  ChildGraph = 4,
  Empty = 5,
  EventWait = 6,
  EventRecord = 7,
  ExtSemaphoreSignal = 8,
  ExtSemaphoreWait = 9,
  MemAlloc = 10,
  MemFree = 11,
  Conditional = 13,
};

const char *typeName(NodeType type);

enum class UpdateResult; // Update.h

/// What a node does when its graph runs. Implementations must be copyable through clone():
/// instantiation and musaGraphClone copy them.
class NodeWork {
public:
  virtual ~NodeWork() = default;
  virtual std::unique_ptr<NodeWork> clone() const = 0;
  virtual void run() = 0;
  /// A one-line description for DOT output ("vectorAdd<<<4,256>>>", "memcpy 4096 B H2D").
  virtual std::string label() const = 0;
  /// Called for every node before each launch of an executable graph (before any node runs).
  virtual void beforeLaunch() {}
  /// Whether a node doing this work can take `next` (work of a node of the same type) in an
  /// executable graph update: UpdateResult::Success (the default), or why not.
  virtual UpdateResult updatableTo(const NodeWork &next) const;
};

class Graph;

struct Node {
  NodeType type = NodeType::Empty;
  // Never changed once made (an update replaces it): an executable graph's launches share
  // the work they were made with (GraphExec.h).
  std::shared_ptr<NodeWork> work;
  std::unique_ptr<Graph> child; // ChildGraph nodes: the embedded copy
  Graph *owner = nullptr;
  std::vector<Node *> dependencies;
  std::vector<Node *> dependents;
  bool enabled = true;
  const Node *original = nullptr; // in a clone: the node it was copied from
};

class Graph {
public:
  Graph() = default;
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;

  /// Adds a node after `deps` (all must belong to this graph; the caller checks).
  Node *add(NodeType type, std::unique_ptr<NodeWork> work, const std::vector<Node *> &deps);
  /// A child-graph node holding a copy of `child`.
  Node *addChild(const Graph &child, const std::vector<Node *> &deps);

  bool owns(const Node *node) const;
  /// Removes a node with no edges (used to build replacement work); false otherwise.
  bool remove(Node *node);
  /// Takes `node` out of the graph with every edge to and from it (musaGraphDestroyNode);
  /// null if it is not a node of this graph.
  std::unique_ptr<Node> detach(Node *node);
  /// False if the edge exists already or would join a node to itself.
  bool addEdge(Node *from, Node *to);
  /// False if there is no such edge.
  bool removeEdge(Node *from, Node *to);
  /// The API's batch forms (musaGraphAddDependencies / RemoveDependencies): every edge is
  /// checked before any changes (both ends nodes of this graph; to add: distinct and not an
  /// edge yet; to remove: an edge); false, and nothing changes, if one fails.
  using Edge = std::pair<Node *, Node *>;
  bool addEdges(const std::vector<Edge> &edges);
  bool removeEdges(const std::vector<Edge> &edges);
  /// Whether `deps` can be a new node's dependencies: nodes of this graph, none twice.
  bool validDependencies(const std::vector<Node *> &deps) const;

  const std::vector<std::unique_ptr<Node>> &nodes() const { return nodes_; }
  std::vector<Node *> roots() const;
  std::vector<std::pair<Node *, Node *>> edges() const;
  /// Nodes in an order where every node follows its dependencies; empty if there is a cycle.
  std::vector<Node *> topologicalOrder() const;

  /// A deep copy; `mapping` (if given) receives original -> copy for every node, children
  /// included.
  std::unique_ptr<Graph> clone(std::map<const Node *, Node *> *mapping = nullptr) const;

  /// Graphviz DOT text; `verbose` adds node types and addresses.
  std::string dot(bool verbose) const;

  /// Runs every enabled node once in dependency order on the calling thread (child graphs and
  /// conditional bodies), with the beforeLaunch step first.
  void runInline() const;

  /// References the graph owns to objects outside it (user objects: a token per object that
  /// releases the graph's references when the last graph sharing it goes). A clone, and so an
  /// instantiation, shares the tokens; a graph that changes its count takes a new token.
  std::map<const void *, std::shared_ptr<void>> ownedReferences;

private:
  std::vector<std::unique_ptr<Node>> nodes_;
};

} // namespace musa::graph
