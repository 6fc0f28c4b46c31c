// Registry: the process's live graphs and executable graphs, which the graph API's handles
// name. A handle is the object's address; every lookup checks that the object is live, so a
// destroyed or made-up handle is refused rather than followed.
#pragma once

#include "musa/graph/Conditional.h"
#include "musa/graph/GraphExec.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace musa::graph {

class Registry {
public:
  /// The process's registry (never destroyed: API calls from static destructors stay safe).
  static Registry &get();

  /// Takes a new top-level graph; its address is its handle.
  Graph *adopt(std::unique_ptr<Graph> g);
  /// A live top-level graph, or the embedded graph of a live graph's child node (which can be
  /// queried but not destroyed), or null.
  Graph *find(const void *handle) const;
  /// A node of a live top-level graph (not of child copies), or null.
  Node *findNode(const void *handle) const;

  enum class DestroyResult { Destroyed, Unknown, Capturing };
  /// Destroys a top-level graph and its conditional handles; refused while a stream captures
  /// into it. The graph is destroyed after the registry's lock is released (a conditional
  /// node's bodies are graphs of this registry too).
  DestroyResult destroy(const void *handle);
  /// Destroys a node of a top-level graph with its edges (after the lock is released, as a
  /// graph); refused while a stream captures into its graph.
  DestroyResult destroyNode(const void *handle);
  /// Streams capturing into `g` (counted: several streams can capture into one graph).
  void setCapturing(const Graph *g, bool capturing);

  /// Conditional handles belong to the graph they were made for.
  void addCondition(const Graph *g, std::shared_ptr<ConditionCell> cell);
  /// The condition of `g` whose handle (the address of its value) is `handle`, or null.
  std::shared_ptr<ConditionCell> findCondition(const Graph *g, const void *handle) const;

  /// Takes a new executable graph with its instantiation flags; its address is its handle.
  GraphExec *adoptExec(std::shared_ptr<GraphExec> exec, unsigned long long flags);
  std::shared_ptr<GraphExec> findExec(const void *handle) const;
  unsigned long long execFlags(const GraphExec *exec) const;
  /// False if `handle` names no live executable graph. Launches in flight hold their own
  /// reference and finish first.
  bool destroyExec(const void *handle);

private:
  mutable std::mutex mutex_;
  std::map<const Graph *, std::unique_ptr<Graph>> graphs_;
  std::map<const Graph *, std::vector<std::shared_ptr<ConditionCell>>> conditions_;
  std::multiset<const Graph *> capturing_;
  struct Exec {
    std::shared_ptr<GraphExec> exec;
    unsigned long long flags;
  };
  std::map<const GraphExec *, Exec> execs_;
};

} // namespace musa::graph
