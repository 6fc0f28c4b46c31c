// Graph structure: nodes, edges, order, cloning and DOT output.
#include "musa/graph/Graph.h"
#include "musa/graph/Update.h"

#include <algorithm>
#include <cstdio>
#include <deque>

namespace musa::graph {

const char *typeName(NodeType type) {
  switch (type) {
  case NodeType::Kernel: return "Kernel";
  case NodeType::Memcpy: return "Memcpy";
  case NodeType::Memset: return "Memset";
  case NodeType::Host: return "Host";
  case NodeType::ChildGraph: return "ChildGraph";
  case NodeType::Empty: return "Empty";
  case NodeType::EventWait: return "EventWait";
  case NodeType::EventRecord: return "EventRecord";
  case NodeType::ExtSemaphoreSignal: return "ExtSemaphoreSignal";
  case NodeType::ExtSemaphoreWait: return "ExtSemaphoreWait";
  case NodeType::MemAlloc: return "MemAlloc";
  case NodeType::MemFree: return "MemFree";
  case NodeType::Conditional: return "Conditional";
  }
  return "Unknown";
}

UpdateResult NodeWork::updatableTo(const NodeWork &) const { return UpdateResult::Success; }

namespace {
/// Runs a child graph: its nodes in dependency order, on the calling thread.
class ChildGraphWork final : public NodeWork {
public:
  explicit ChildGraphWork(const Graph &graph) : graph_(graph.clone()) {}
  std::unique_ptr<NodeWork> clone() const override {
    return std::make_unique<ChildGraphWork>(*graph_);
  }
  void run() override { graph_->runInline(); }
  std::string label() const override {
    return "child graph (" + std::to_string(graph_->nodes().size()) + " nodes)";
  }

private:
  std::unique_ptr<Graph> graph_;
};
} // namespace

Node *Graph::add(NodeType type, std::unique_ptr<NodeWork> work, const std::vector<Node *> &deps) {
  auto node = std::make_unique<Node>();
  node->type = type;
  node->work = std::move(work);
  node->owner = this;
  Node *raw = node.get();
  nodes_.push_back(std::move(node));
  for (Node *d : deps)
    addEdge(d, raw);
  return raw;
}

Node *Graph::addChild(const Graph &child, const std::vector<Node *> &deps) {
  Node *node = add(NodeType::ChildGraph, std::make_unique<ChildGraphWork>(child), deps);
  node->child = child.clone();
  return node;
}

bool Graph::owns(const Node *node) const {
  return std::any_of(nodes_.begin(), nodes_.end(),
                     [&](const std::unique_ptr<Node> &n) { return n.get() == node; });
}

bool Graph::remove(Node *node) {
  if (!node->dependencies.empty() || !node->dependents.empty())
    return false;
  auto it = std::find_if(nodes_.begin(), nodes_.end(),
                         [&](const std::unique_ptr<Node> &n) { return n.get() == node; });
  if (it == nodes_.end())
    return false;
  nodes_.erase(it);
  return true;
}

std::unique_ptr<Node> Graph::detach(Node *node) {
  auto it = std::find_if(nodes_.begin(), nodes_.end(),
                         [&](const std::unique_ptr<Node> &n) { return n.get() == node; });
  if (it == nodes_.end())
    return nullptr;
  while (!node->dependencies.empty())
    removeEdge(node->dependencies.back(), node);
  while (!node->dependents.empty())
    removeEdge(node, node->dependents.back());
  std::unique_ptr<Node> out = std::move(*it);
  nodes_.erase(it);
  return out;
}

bool Graph::addEdge(Node *from, Node *to) {
  if (from == to || std::find(to->dependencies.begin(), to->dependencies.end(), from) !=
                        to->dependencies.end())
    return false;
  to->dependencies.push_back(from);
  from->dependents.push_back(to);
  return true;
}

bool Graph::removeEdge(Node *from, Node *to) {
  auto it = std::find(to->dependencies.begin(), to->dependencies.end(), from);
  if (it == to->dependencies.end())
    return false;
  to->dependencies.erase(it);
  from->dependents.erase(std::find(from->dependents.begin(), from->dependents.end(), to));
  return true;
}

namespace {
bool hasEdge(const Node *from, const Node *to) {
  return std::find(to->dependencies.begin(), to->dependencies.end(), from) !=
         to->dependencies.end();
}
} // namespace

bool Graph::addEdges(const std::vector<Edge> &edges) {
  for (auto [from, to] : edges)
    if (!owns(from) || !owns(to) || from == to || hasEdge(from, to))
      return false;
  for (auto [from, to] : edges)
    addEdge(from, to); // a pair given twice is added once
  return true;
}

bool Graph::removeEdges(const std::vector<Edge> &edges) {
  for (auto [from, to] : edges)
    if (!owns(from) || !owns(to) || !hasEdge(from, to))
      return false;
  for (auto [from, to] : edges)
    removeEdge(from, to);
  return true;
}

bool Graph::validDependencies(const std::vector<Node *> &deps) const {
  for (size_t i = 0; i < deps.size(); ++i)
    if (!owns(deps[i]) || std::find(deps.begin(), deps.begin() + i, deps[i]) != deps.begin() + i)
      return false;
  return true;
}

std::vector<Node *> Graph::roots() const {
  std::vector<Node *> out;
  for (auto &n : nodes_)
    if (n->dependencies.empty())
      out.push_back(n.get());
  return out;
}

std::vector<std::pair<Node *, Node *>> Graph::edges() const {
  std::vector<std::pair<Node *, Node *>> out;
  for (auto &n : nodes_)
    for (Node *d : n->dependents)
      out.push_back({n.get(), d});
  return out;
}

std::vector<Node *> Graph::topologicalOrder() const {
  std::map<const Node *, size_t> waiting;
  std::deque<Node *> ready;
  for (auto &n : nodes_) {
    waiting[n.get()] = n->dependencies.size();
    if (n->dependencies.empty())
      ready.push_back(n.get());
  }
  std::vector<Node *> order;
  while (!ready.empty()) {
    Node *n = ready.front();
    ready.pop_front();
    order.push_back(n);
    for (Node *d : n->dependents)
      if (--waiting[d] == 0)
        ready.push_back(d);
  }
  if (order.size() != nodes_.size())
    order.clear(); // a cycle
  return order;
}

std::unique_ptr<Graph> Graph::clone(std::map<const Node *, Node *> *mapping) const {
  auto copy = std::make_unique<Graph>();
  std::map<const Node *, Node *> local;
  std::map<const Node *, Node *> &map = mapping ? *mapping : local;
  for (auto &n : nodes_) {
    auto c = std::make_unique<Node>();
    c->type = n->type;
    c->work = n->work ? n->work->clone() : nullptr;
    c->child = n->child ? n->child->clone(&map) : nullptr;
    c->owner = copy.get();
    c->enabled = n->enabled;
    c->original = n.get();
    map[n.get()] = c.get();
    copy->nodes_.push_back(std::move(c));
  }
  for (auto &n : nodes_)
    for (Node *d : n->dependents)
      copy->addEdge(map[n.get()], map[d]);
  copy->ownedReferences = ownedReferences;
  return copy;
}

void Graph::runInline() const {
  for (auto &n : nodes_)
    if (n->work)
      n->work->beforeLaunch();
  for (Node *n : topologicalOrder())
    if (n->enabled && n->work)
      n->work->run();
}

std::string Graph::dot(bool verbose) const {
  std::string out = "digraph musaGraph {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
  std::map<const Node *, size_t> id;
  for (auto &n : nodes_)
    id[n.get()] = id.size();
  auto escape = [](std::string s) {
    std::string e;
    for (char c : s) {
      if (c == '"' || c == '\\')
        e += '\\';
      e += c;
    }
    return e;
  };
  for (auto &n : nodes_) {
    std::string label = n->work ? n->work->label() : typeName(n->type);
    if (verbose) {
      char addr[32];
      std::snprintf(addr, sizeof addr, "%p", static_cast<const void *>(n.get()));
      label = std::string(typeName(n->type)) + "\\n" + escape(label) + "\\n" + addr;
    } else {
      label = escape(label);
    }
    out += "  n" + std::to_string(id[n.get()]) + " [label=\"" + label + "\"" +
           (n->enabled ? "" : ", style=dashed") + "];\n";
  }
  for (auto &[from, to] : edges())
    out += "  n" + std::to_string(id[from]) + " -> n" + std::to_string(id[to]) + ";\n";
  return out + "}\n";
}

} // namespace musa::graph
