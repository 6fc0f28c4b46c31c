#include "musa/graph/Registry.h"

namespace musa::graph {

Registry &Registry::get() {
  static Registry *registry = new Registry;
  return *registry;
}

Graph *Registry::adopt(std::unique_ptr<Graph> g) {
  std::lock_guard lock(mutex_);
  Graph *raw = g.get();
  graphs_[raw] = std::move(g);
  return raw;
}

Graph *Registry::find(const void *handle) const {
  auto *candidate = static_cast<const Graph *>(handle);
  std::lock_guard lock(mutex_);
  if (auto it = graphs_.find(candidate); it != graphs_.end())
    return it->second.get();
  for (auto &[raw, g] : graphs_)
    for (auto &n : g->nodes())
      if (n->child.get() == candidate)
        return n->child.get();
  return nullptr;
}

Node *Registry::findNode(const void *handle) const {
  auto *node = static_cast<const Node *>(handle);
  std::lock_guard lock(mutex_);
  for (auto &[raw, g] : graphs_)
    if (g->owns(node))
      return const_cast<Node *>(node);
  return nullptr;
}

Registry::DestroyResult Registry::destroy(const void *handle) {
  std::unique_ptr<Graph> doomed;
  {
    std::lock_guard lock(mutex_);
    auto it = graphs_.find(static_cast<const Graph *>(handle));
    if (it == graphs_.end())
      return DestroyResult::Unknown;
    if (capturing_.count(it->first))
      return DestroyResult::Capturing;
    doomed = std::move(it->second);
    graphs_.erase(it);
    conditions_.erase(doomed.get());
  }
  doomed.reset(); // unlocked: conditional nodes release their bodies through the registry
  return DestroyResult::Destroyed;
}

Registry::DestroyResult Registry::destroyNode(const void *handle) {
  auto *node = static_cast<const Node *>(handle);
  std::unique_ptr<Node> doomed;
  {
    std::lock_guard lock(mutex_);
    for (auto &[raw, g] : graphs_) {
      if (!g->owns(node))
        continue;
      if (capturing_.count(raw))
        return DestroyResult::Capturing;
      doomed = g->detach(const_cast<Node *>(node));
      break;
    }
  }
  return doomed ? DestroyResult::Destroyed : DestroyResult::Unknown;
}

void Registry::setCapturing(const Graph *g, bool capturing) {
  std::lock_guard lock(mutex_);
  if (capturing)
    capturing_.insert(g);
  else if (auto it = capturing_.find(g); it != capturing_.end())
    capturing_.erase(it);
}

void Registry::addCondition(const Graph *g, std::shared_ptr<ConditionCell> cell) {
  std::lock_guard lock(mutex_);
  conditions_[g].push_back(std::move(cell));
}

std::shared_ptr<ConditionCell> Registry::findCondition(const Graph *g, const void *handle) const {
  std::lock_guard lock(mutex_);
  auto it = conditions_.find(g);
  if (it != conditions_.end())
    for (const auto &cell : it->second)
      if (static_cast<const void *>(&cell->value) == handle)
        return cell;
  return nullptr;
}

GraphExec *Registry::adoptExec(std::shared_ptr<GraphExec> exec, unsigned long long flags) {
  std::lock_guard lock(mutex_);
  GraphExec *raw = exec.get();
  execs_[raw] = {std::move(exec), flags};
  return raw;
}

std::shared_ptr<GraphExec> Registry::findExec(const void *handle) const {
  std::lock_guard lock(mutex_);
  auto it = execs_.find(static_cast<const GraphExec *>(handle));
  return it == execs_.end() ? nullptr : it->second.exec;
}

unsigned long long Registry::execFlags(const GraphExec *exec) const {
  std::lock_guard lock(mutex_);
  auto it = execs_.find(exec);
  return it == execs_.end() ? 0 : it->second.flags;
}

bool Registry::destroyExec(const void *handle) {
  std::shared_ptr<GraphExec> doomed;
  {
    std::lock_guard lock(mutex_);
    auto it = execs_.find(static_cast<const GraphExec *>(handle));
    if (it == execs_.end())
      return false;
    doomed = std::move(it->second.exec);
    execs_.erase(it);
  }
  return true; // the last reference (if it is) goes unlocked
}

} // namespace musa::graph
