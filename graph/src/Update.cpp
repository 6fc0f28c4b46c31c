// musaGraphExecUpdate's rules (Update.h).
#include "musa/graph/Update.h"

#include <map>

namespace musa::graph {

UpdateCheck checkUpdate(const Graph &nowGraph, const Graph &nextGraph) {
  const auto &now = nowGraph.nodes(), &next = nextGraph.nodes();
  if (now.size() != next.size())
    return {UpdateResult::TopologyChanged};
  std::map<const Node *, size_t> indexNow, indexNext;
  for (size_t i = 0; i < now.size(); ++i)
    indexNow[now[i].get()] = i, indexNext[next[i].get()] = i;
  for (size_t i = 0; i < now.size(); ++i) {
    const Node &a = *now[i], &b = *next[i];
    if (a.type != b.type)
      return {UpdateResult::NodeTypeChanged, &b};
    if (a.dependencies.size() != b.dependencies.size())
      return {UpdateResult::TopologyChanged, &b};
    for (size_t k = 0; k < a.dependencies.size(); ++k)
      if (indexNow[a.dependencies[k]] != indexNext[b.dependencies[k]])
        return {UpdateResult::TopologyChanged, &b, b.dependencies[k]};
    if (a.work && b.work)
      if (UpdateResult r = a.work->updatableTo(*b.work); r != UpdateResult::Success)
        return {r, &b};
    if (a.type == NodeType::ChildGraph || a.type == NodeType::MemAlloc ||
        a.type == NodeType::MemFree || a.type == NodeType::Conditional)
      return {UpdateResult::NotSupported, &b};
  }
  return {};
}

void takeWork(Graph &nowGraph, const Graph &nextGraph) {
  const auto &now = nowGraph.nodes(), &next = nextGraph.nodes();
  for (size_t i = 0; i < now.size() && i < next.size(); ++i)
    now[i]->work = next[i]->work ? next[i]->work->clone() : nullptr;
}

} // namespace musa::graph
