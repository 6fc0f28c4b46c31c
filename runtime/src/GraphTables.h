// The graph API's shared pieces: handle lookups in the graph layer's registry, and the node-work builders the add, set-params and update calls share.
#pragma once

#include "ApiShell.h"
#include "GraphWork.h"
#include "MemoryTransfer.h"
#include "Runtime.h"

#include "musa/graph/GraphExec.h"
#include "musa/graph/Registry.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace musa::rt::graphs {

namespace graph = musa::graph;

/// Handles of the graph API, looked up in graph::Registry (live objects only).
graph::Graph *findGraph(musaGraph_t handle);
std::shared_ptr<graph::GraphExec> findExec(musaGraphExec_t handle);
/// A node of any live graph (not of child copies), or null.
graph::Node *findNode(musaGraphNode_t handle);
musaGraph_t adopt(std::unique_ptr<graph::Graph> g);
/// Checks handles of an add-node call and collects its dependencies.
musaError_t checkAdd(musaGraphNode_t *out, musaGraph_t handle, const musaGraphNode_t *deps,
                     size_t numDeps, graph::Graph *&g, std::vector<graph::Node *> &depNodes);
/// The API's parallel from/to arrays as edges.
std::vector<graph::Graph::Edge> edgeList(const musaGraphNode_t *from, const musaGraphNode_t *to,
                                         size_t n);
musaError_t addNode(musaGraphNode_t *out, musaGraph_t handle, const musaGraphNode_t *deps,
                    size_t numDeps, graph::NodeType type, std::unique_ptr<graph::NodeWork> work);
std::string bytesLabel(const char *what, size_t bytes);
const char *kindName(musaMemcpyKind kind);
musaError_t prepareKernelNode(const musaKernelNodeParams *p, std::shared_ptr<PreparedLaunch> &out);
musaError_t makeMemcpyWork(const musaMemcpy3DParms *params, std::unique_ptr<graph::NodeWork> &out);
musaError_t makeMemsetWork(const musaMemsetParams *p, std::unique_ptr<graph::NodeWork> &out);
/// The node of an executable graph that corresponds to `node` of the graph it came from.
graph::Node *execNode(const std::shared_ptr<graph::GraphExec> &exec, musaGraphNode_t node);
/// Replaces the work of an executable graph's node of `type` (parameters only).
musaError_t setExecWork(musaGraphExec_t handle, musaGraphNode_t node, graph::NodeType type,
                        std::unique_ptr<graph::NodeWork> work);

/// Writes a node list the CUDA way: `out` may be null (count only); extra slots are nulled.
template <class Array>
musaError_t listOut(const Array &items, musaGraphNode_t *out, size_t *count) {
  if (!count)
    return musaErrorInvalidValue;
  if (out) {
    size_t n = std::min(*count, items.size());
    for (size_t i = 0; i < n; ++i)
      out[i] = reinterpret_cast<musaGraphNode_t>(items[i]);
    for (size_t i = n; i < *count; ++i)
      out[i] = nullptr;
  }
  *count = items.size();
  return musaSuccess;
}


} // namespace musa::rt::graphs
