// The one-row forms of graph memcpy nodes: to and from plain pointers (…1D) and to and from
// __device__/__constant__ variables (…ToSymbol, …FromSymbol), when a node is added, when a
// graph's node is given new parameters and when an executable graph's node is. Each becomes
// the 3D parameters of one row, which the general memcpy node work takes.
#include "GraphTables.h"
#include "MemoryTransfer.h"
#include "backend/Backend.h"

using namespace musa::rt;
using namespace musa::rt::graphs;

namespace {

musaMemcpy3DParms oneRow(void *dst, const void *src, size_t count, musaMemcpyKind kind) {
  musaMemcpy3DParms p = {};
  p.srcPtr = {const_cast<void *>(src), count, count, 1};
  p.dstPtr = {dst, count, count, 1};
  p.extent = {count, 1, 1};
  p.kind = kind;
  return p;
}

/// The work of a one-row copy.
musaError_t rowWork(void *dst, const void *src, size_t count, musaMemcpyKind kind,
                    std::unique_ptr<graph::NodeWork> &work) {
  musaMemcpy3DParms p = oneRow(dst, src, count, kind);
  return makeMemcpyWork(&p, work);
}

/// The same with `count` bytes at `offset` into `symbol` as the destination (`toSymbol`) or
/// the source, and `other` the other side.
musaError_t symbolWork(const void *symbol, void *other, size_t count, size_t offset,
                       musaMemcpyKind kind, bool toSymbol,
                       std::unique_ptr<graph::NodeWork> &work) {
  if (!symbolKindAllowed(kind, toSymbol))
    return musaErrorInvalidMemcpyDirection;
  char *at = nullptr;
  if (musaError_t e = symbolRange(symbol, offset, count, at))
    return e;
  return toSymbol ? rowWork(at, other, count, kind, work) : rowWork(other, at, count, kind, work);
}

/// Gives graph node `handle` (a memcpy node) `work`, if making it succeeded.
musaError_t setNodeWork(musaGraphNode_t handle, musaError_t made,
                        std::unique_ptr<graph::NodeWork> work) {
  graph::Node *n = findNode(handle);
  if (!n || n->type != graph::NodeType::Memcpy)
    return musaErrorInvalidValue;
  if (made)
    return made;
  n->work = std::move(work);
  return musaSuccess;
}

} // namespace

extern "C" {

musaError_t musaGraphAddMemcpyNode1D(musaGraphNode_t *node, musaGraph_t g,
                                     const musaGraphNode_t *deps, size_t numDeps, void *dst,
                                     const void *src, size_t count, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaGraphAddMemcpyNode1D, node, g, deps, numDeps, dst, src, count, kind);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = rowWork(dst, src, count, kind, work))
      return e;
    return addNode(node, g, deps, numDeps, graph::NodeType::Memcpy, std::move(work));
  });
}

musaError_t musaGraphAddMemcpyNodeToSymbol(musaGraphNode_t *node, musaGraph_t g,
                                           const musaGraphNode_t *deps, size_t numDeps,
                                           const void *symbol, const void *src, size_t count,
                                           size_t offset, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaGraphAddMemcpyNodeToSymbol, node, g, deps, numDeps, symbol, src, count,
                    offset, kind);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e =
            symbolWork(symbol, const_cast<void *>(src), count, offset, kind, true, work))
      return e;
    return addNode(node, g, deps, numDeps, graph::NodeType::Memcpy, std::move(work));
  });
}

musaError_t musaGraphAddMemcpyNodeFromSymbol(musaGraphNode_t *node, musaGraph_t g,
                                             const musaGraphNode_t *deps, size_t numDeps,
                                             void *dst, const void *symbol, size_t count,
                                             size_t offset, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaGraphAddMemcpyNodeFromSymbol, node, g, deps, numDeps, dst, symbol, count,
                    offset, kind);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = symbolWork(symbol, dst, count, offset, kind, false, work))
      return e;
    return addNode(node, g, deps, numDeps, graph::NodeType::Memcpy, std::move(work));
  });
}

musaError_t musaGraphMemcpyNodeSetParams1D(musaGraphNode_t node, void *dst, const void *src,
                                           size_t count, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaGraphMemcpyNodeSetParams1D, node, dst, src, count, kind);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    musaError_t made = rowWork(dst, src, count, kind, work);
    return setNodeWork(node, made, std::move(work));
  });
}

musaError_t musaGraphMemcpyNodeSetParamsToSymbol(musaGraphNode_t node, const void *symbol,
                                                 const void *src, size_t count, size_t offset,
                                                 enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaGraphMemcpyNodeSetParamsToSymbol, node, symbol, src, count, offset, kind);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    musaError_t made =
        symbolWork(symbol, const_cast<void *>(src), count, offset, kind, true, work);
    return setNodeWork(node, made, std::move(work));
  });
}

musaError_t musaGraphMemcpyNodeSetParamsFromSymbol(musaGraphNode_t node, void *dst,
                                                   const void *symbol, size_t count,
                                                   size_t offset, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaGraphMemcpyNodeSetParamsFromSymbol, node, dst, symbol, count, offset,
                    kind);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    musaError_t made = symbolWork(symbol, dst, count, offset, kind, false, work);
    return setNodeWork(node, made, std::move(work));
  });
}

musaError_t musaGraphExecMemcpyNodeSetParams1D(musaGraphExec_t exec, musaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaGraphExecMemcpyNodeSetParams1D, exec, node, dst, src, count, kind);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = rowWork(dst, src, count, kind, work))
      return e;
    return setExecWork(exec, node, graph::NodeType::Memcpy, std::move(work));
  });
}

musaError_t musaGraphExecMemcpyNodeSetParamsToSymbol(musaGraphExec_t exec, musaGraphNode_t node,
                                                     const void *symbol, const void *src,
                                                     size_t count, size_t offset,
                                                     enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaGraphExecMemcpyNodeSetParamsToSymbol, exec, node, symbol, src, count,
                    offset, kind);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e =
            symbolWork(symbol, const_cast<void *>(src), count, offset, kind, true, work))
      return e;
    return setExecWork(exec, node, graph::NodeType::Memcpy, std::move(work));
  });
}

musaError_t musaGraphExecMemcpyNodeSetParamsFromSymbol(musaGraphExec_t exec,
                                                       musaGraphNode_t node, void *dst,
                                                       const void *symbol, size_t count,
                                                       size_t offset, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaGraphExecMemcpyNodeSetParamsFromSymbol, exec, node, dst, symbol, count,
                    offset, kind);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = symbolWork(symbol, dst, count, offset, kind, false, work))
      return e;
    return setExecWork(exec, node, graph::NodeType::Memcpy, std::move(work));
  });
}

} // extern "C"
