// Graph entry points: creating and destroying graphs, adding nodes and edges, queries,
// cloning and DOT output.
#include "GraphTables.h"
#include "backend/Backend.h"

#include <cstring>

using namespace musa::rt;
using namespace musa::rt::graphs;
#include <fstream>

namespace musa::rt::graphs {

graph::Graph *findGraph(musaGraph_t handle) { return graph::Registry::get().find(handle); }

std::shared_ptr<graph::GraphExec> findExec(musaGraphExec_t handle) {
  return graph::Registry::get().findExec(handle);
}

graph::Node *findNode(musaGraphNode_t handle) { return graph::Registry::get().findNode(handle); }

musaGraph_t adopt(std::unique_ptr<graph::Graph> g) {
  return reinterpret_cast<musaGraph_t>(graph::Registry::get().adopt(std::move(g)));
}

/// Checks handles of an add-node call and collects its dependencies.
musaError_t checkAdd(musaGraphNode_t *out, musaGraph_t handle, const musaGraphNode_t *deps,
                     size_t numDeps, graph::Graph *&g, std::vector<graph::Node *> &depNodes) {
  if (!out || (numDeps && !deps))
    return musaErrorInvalidValue;
  g = findGraph(handle);
  if (!g)
    return musaErrorInvalidValue;
  depNodes.assign(reinterpret_cast<graph::Node *const *>(deps),
                  reinterpret_cast<graph::Node *const *>(deps) + numDeps);
  return g->validDependencies(depNodes) ? musaSuccess : musaErrorInvalidValue;
}

std::vector<graph::Graph::Edge> edgeList(const musaGraphNode_t *from, const musaGraphNode_t *to,
                                         size_t n) {
  std::vector<graph::Graph::Edge> edges;
  for (size_t i = 0; i < n; ++i)
    edges.emplace_back(reinterpret_cast<graph::Node *>(from[i]),
                       reinterpret_cast<graph::Node *>(to[i]));
  return edges;
}

musaError_t addNode(musaGraphNode_t *out, musaGraph_t handle, const musaGraphNode_t *deps,
                    size_t numDeps, graph::NodeType type, std::unique_ptr<graph::NodeWork> work) {
  graph::Graph *g;
  std::vector<graph::Node *> depNodes;
  if (musaError_t e = checkAdd(out, handle, deps, numDeps, g, depNodes))
    return e;
  *out = reinterpret_cast<musaGraphNode_t>(g->add(type, std::move(work), depNodes));
  return musaSuccess;
}

std::string bytesLabel(const char *what, size_t bytes) {
  return std::string(what) + " " + std::to_string(bytes) + " B";
}

const char *kindName(musaMemcpyKind kind) {
  static const char *names[] = {"HtoH", "HtoD", "DtoH", "DtoD", "Default"};
  return kind >= 0 && kind <= 4 ? names[kind] : "?";
}

musaError_t prepareKernelNode(const musaKernelNodeParams *p, std::shared_ptr<PreparedLaunch> &out) {
  if (!p || !p->func)
    return musaErrorInvalidValue;
  if (p->extra)
    return musaErrorNotSupported; // the launch-extra packing is not supported
  Device *d = Runtime::get().currentDevice();
  if (!d)
    return musaErrorNoDevice;
  out = std::make_shared<PreparedLaunch>();
  return prepareLaunch(p->func, p->gridDim, p->blockDim, p->kernelParams, p->sharedMemBytes, *d,
                       0, false, *out);
}

musaError_t makeMemcpyWork(const musaMemcpy3DParms *params,
                           std::unique_ptr<graph::NodeWork> &out) {
  std::function<void()> work;
  if (musaError_t e = prepareCopy3D(params, work))
    return e;
  const musaExtent &x = params->extent;
  out = std::make_unique<MemcpyWork>(*params, work,
                                     bytesLabel("memcpy", x.width * x.height * x.depth) + " " +
                                         kindName(params->kind));
  return musaSuccess;
}

musaError_t makeMemsetWork(const musaMemsetParams *p, std::unique_ptr<graph::NodeWork> &out) {
  if (!p)
    return musaErrorInvalidValue;
  std::function<void()> work;
  size_t height = p->height ? p->height : 1;
  size_t pitch = p->pitch ? p->pitch : p->width * p->elementSize;
  if (musaError_t e = prepareSet(p->dst, pitch, p->value, p->elementSize, p->width, height, work))
    return e;
  out = std::make_unique<MemsetWork>(*p, work,
                                     bytesLabel("memset", p->width * p->elementSize * height));
  return musaSuccess;
}

/// The node of an executable graph that corresponds to `node` of the graph it came from.
graph::Node *execNode(const std::shared_ptr<graph::GraphExec> &exec, musaGraphNode_t node) {
  return exec ? exec->copyOf(reinterpret_cast<graph::Node *>(node)) : nullptr;
}

/// Replaces the work of an executable graph's node of `type` (parameters only).
musaError_t setExecWork(musaGraphExec_t handle, musaGraphNode_t node, graph::NodeType type,
                        std::unique_ptr<graph::NodeWork> work) {
  auto exec = findExec(handle);
  graph::Node *copy = execNode(exec, node);
  if (!copy || copy->type != type)
    return musaErrorInvalidValue;
  // A copy keeps its direction (the guide's update limits; CUDA refuses the change too).
  auto *before = dynamic_cast<MemcpyWork *>(copy->work.get());
  auto *after = dynamic_cast<MemcpyWork *>(work.get());
  if (before && after && before->params().kind != after->params().kind)
    return musaErrorInvalidValue;
  exec->modifyNode(copy, [&](graph::Node &n) { n.work = std::move(work); });
  return musaSuccess;
}

} // namespace musa::rt::graphs

namespace {
/// What destroying a graph or one of its nodes answers (the H100 gives IllegalState for a
/// graph a stream captures into: tests/hardware/session19).
musaError_t destroyError(graph::Registry::DestroyResult result) {
  switch (result) {
  case graph::Registry::DestroyResult::Destroyed:
    return musaSuccess;
  case graph::Registry::DestroyResult::Capturing:
    return musaErrorIllegalState;
  default:
    return musaErrorInvalidValue;
  }
}
} // namespace

extern "C" {

musaError_t musaGraphCreate(musaGraph_t *out, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaGraphCreate, out, flags);
  return apiCall([&] {
    if (!out || flags != 0)
      return musaErrorInvalidValue;
    *out = adopt(std::make_unique<graph::Graph>());
    return musaSuccess;
  });
}

musaError_t musaGraphDestroy(musaGraph_t handle) {
  MUSA_BACKEND_HOOK(musaGraphDestroy, handle);
  return apiCall([&] { return destroyError(graph::Registry::get().destroy(handle)); });
}

musaError_t musaGraphAddKernelNode(musaGraphNode_t *node, musaGraph_t g,
                                   const musaGraphNode_t *deps, size_t numDeps,
                                   const musaKernelNodeParams *params) {
  MUSA_BACKEND_HOOK(musaGraphAddKernelNode, node, g, deps, numDeps, params);
  return apiCall([&] {
    if (!node)
      return musaErrorInvalidValue; // the handles first, then the kernel
    std::shared_ptr<PreparedLaunch> launch;
    if (musaError_t e = prepareKernelNode(params, launch))
      return e;
    return addNode(node, g, deps, numDeps, graph::NodeType::Kernel,
                   std::make_unique<KernelWork>(launch));
  });
}

musaError_t musaGraphAddMemcpyNode(musaGraphNode_t *node, musaGraph_t g,
                                   const musaGraphNode_t *deps, size_t numDeps,
                                   const musaMemcpy3DParms *params) {
  MUSA_BACKEND_HOOK(musaGraphAddMemcpyNode, node, g, deps, numDeps, params);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeMemcpyWork(params, work))
      return e;
    return addNode(node, g, deps, numDeps, graph::NodeType::Memcpy, std::move(work));
  });
}

musaError_t musaGraphAddMemsetNode(musaGraphNode_t *node, musaGraph_t g,
                                   const musaGraphNode_t *deps, size_t numDeps,
                                   const musaMemsetParams *p) {
  MUSA_BACKEND_HOOK(musaGraphAddMemsetNode, node, g, deps, numDeps, p);
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeMemsetWork(p, work))
      return e;
    return addNode(node, g, deps, numDeps, graph::NodeType::Memset, std::move(work));
  });
}

musaError_t musaGraphAddHostNode(musaGraphNode_t *node, musaGraph_t g,
                                 const musaGraphNode_t *deps, size_t numDeps,
                                 const musaHostNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphAddHostNode, node, g, deps, numDeps, p);
  return apiCall([&] {
    if (!p || !p->fn)
      return musaErrorInvalidValue;
    return addNode(node, g, deps, numDeps, graph::NodeType::Host,
                   std::make_unique<HostWork>(p->fn, p->userData));
  });
}

musaError_t musaGraphAddEmptyNode(musaGraphNode_t *node, musaGraph_t g,
                                  const musaGraphNode_t *deps, size_t numDeps) {
  MUSA_BACKEND_HOOK(musaGraphAddEmptyNode, node, g, deps, numDeps);
  return apiCall([&] { return addNode(node, g, deps, numDeps, graph::NodeType::Empty, nullptr); });
}

musaError_t musaGraphAddChildGraphNode(musaGraphNode_t *node, musaGraph_t g,
                                       const musaGraphNode_t *deps, size_t numDeps,
                                       musaGraph_t child) {
  MUSA_BACKEND_HOOK(musaGraphAddChildGraphNode, node, g, deps, numDeps, child);
  return apiCall([&] {
    graph::Graph *childGraph = findGraph(child);
    graph::Graph *parent;
    std::vector<graph::Node *> depNodes;
    if (!childGraph || child == g)
      return musaErrorInvalidValue;
    if (musaError_t e = checkAdd(node, g, deps, numDeps, parent, depNodes))
      return e;
    *node = reinterpret_cast<musaGraphNode_t>(parent->addChild(*childGraph, depNodes));
    return musaSuccess;
  });
}

musaError_t musaGraphAddEventRecordNode(musaGraphNode_t *node, musaGraph_t g,
                                        const musaGraphNode_t *deps, size_t numDeps,
                                        musaEvent_t event) {
  MUSA_BACKEND_HOOK(musaGraphAddEventRecordNode, node, g, deps, numDeps, event);
  return apiCall([&] {
    if (!Runtime::get().resolveEvent(event))
      return musaErrorInvalidResourceHandle;
    return addNode(node, g, deps, numDeps, graph::NodeType::EventRecord,
                   std::make_unique<EventWork>(event, true));
  });
}

musaError_t musaGraphAddEventWaitNode(musaGraphNode_t *node, musaGraph_t g,
                                      const musaGraphNode_t *deps, size_t numDeps,
                                      musaEvent_t event) {
  MUSA_BACKEND_HOOK(musaGraphAddEventWaitNode, node, g, deps, numDeps, event);
  return apiCall([&] {
    if (!Runtime::get().resolveEvent(event))
      return musaErrorInvalidResourceHandle;
    return addNode(node, g, deps, numDeps, graph::NodeType::EventWait,
                   std::make_unique<EventWork>(event, false));
  });
}

musaError_t musaGraphAddDependencies(musaGraph_t g, const musaGraphNode_t *from,
                                     const musaGraphNode_t *to, size_t n) {
  MUSA_BACKEND_HOOK(musaGraphAddDependencies, g, from, to, n);
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph || (n && (!from || !to)))
      return musaErrorInvalidValue;
    return graph->addEdges(edgeList(from, to, n)) ? musaSuccess : musaErrorInvalidValue;
  });
}

musaError_t musaGraphDestroyNode(musaGraphNode_t node) {
  MUSA_BACKEND_HOOK(musaGraphDestroyNode, node);
  return apiCall([&] { return destroyError(graph::Registry::get().destroyNode(node)); });
}

musaError_t musaGraphRemoveDependencies(musaGraph_t g, const musaGraphNode_t *from,
                                        const musaGraphNode_t *to, size_t n) {
  MUSA_BACKEND_HOOK(musaGraphRemoveDependencies, g, from, to, n);
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph || (n && (!from || !to)))
      return musaErrorInvalidValue;
    return graph->removeEdges(edgeList(from, to, n)) ? musaSuccess : musaErrorInvalidValue;
  });
}

musaError_t musaGraphGetNodes(musaGraph_t g, musaGraphNode_t *nodes, size_t *numNodes) {
  MUSA_BACKEND_HOOK(musaGraphGetNodes, g, nodes, numNodes);
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph)
      return musaErrorInvalidValue;
    std::vector<graph::Node *> all;
    for (auto &n : graph->nodes())
      all.push_back(n.get());
    return listOut(all, nodes, numNodes);
  });
}

musaError_t musaGraphGetRootNodes(musaGraph_t g, musaGraphNode_t *nodes, size_t *numNodes) {
  MUSA_BACKEND_HOOK(musaGraphGetRootNodes, g, nodes, numNodes);
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph)
      return musaErrorInvalidValue;
    return listOut(graph->roots(), nodes, numNodes);
  });
}

musaError_t musaGraphGetEdges(musaGraph_t g, musaGraphNode_t *from, musaGraphNode_t *to,
                              size_t *numEdges) {
  MUSA_BACKEND_HOOK(musaGraphGetEdges, g, from, to, numEdges);
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph || !numEdges || (!from != !to))
      return musaErrorInvalidValue;
    auto edges = graph->edges();
    std::vector<graph::Node *> a, b;
    for (auto &[x, y] : edges)
      a.push_back(x), b.push_back(y);
    size_t capacity = *numEdges;
    if (musaError_t e = listOut(a, from, numEdges))
      return e;
    *numEdges = capacity;
    return listOut(b, to, numEdges);
  });
}

musaError_t musaGraphNodeGetType(musaGraphNode_t handle, enum musaGraphNodeType *type) {
  MUSA_BACKEND_HOOK(musaGraphNodeGetType, handle, type);
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || !type)
      return musaErrorInvalidValue;
    *type = musaGraphNodeType(n->type);
    return musaSuccess;
  });
}

musaError_t musaGraphNodeGetDependencies(musaGraphNode_t handle, musaGraphNode_t *deps,
                                         size_t *numDeps) {
  MUSA_BACKEND_HOOK(musaGraphNodeGetDependencies, handle, deps, numDeps);
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n)
      return musaErrorInvalidValue;
    return listOut(n->dependencies, deps, numDeps);
  });
}

musaError_t musaGraphNodeGetDependentNodes(musaGraphNode_t handle, musaGraphNode_t *nodes,
                                           size_t *numNodes) {
  MUSA_BACKEND_HOOK(musaGraphNodeGetDependentNodes, handle, nodes, numNodes);
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n)
      return musaErrorInvalidValue;
    return listOut(n->dependents, nodes, numNodes);
  });
}

musaError_t musaGraphClone(musaGraph_t *out, musaGraph_t original) {
  MUSA_BACKEND_HOOK(musaGraphClone, out, original);
  return apiCall([&] {
    graph::Graph *g = findGraph(original);
    if (!out || !g)
      return musaErrorInvalidValue;
    *out = adopt(g->clone());
    return musaSuccess;
  });
}

musaError_t musaGraphNodeFindInClone(musaGraphNode_t *cloneNode, musaGraphNode_t original,
                                     musaGraph_t clone) {
  MUSA_BACKEND_HOOK(musaGraphNodeFindInClone, cloneNode, original, clone);
  return apiCall([&] {
    graph::Graph *g = findGraph(clone);
    if (!cloneNode || !g || !original)
      return musaErrorInvalidValue;
    for (auto &n : g->nodes())
      if (n->original == reinterpret_cast<graph::Node *>(original)) {
        *cloneNode = reinterpret_cast<musaGraphNode_t>(n.get());
        return musaSuccess;
      }
    return musaErrorInvalidValue;
  });
}

musaError_t musaGraphDebugDotPrint(musaGraph_t g, const char *path, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaGraphDebugDotPrint, g, path, flags);
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph || !path)
      return musaErrorInvalidValue;
    std::ofstream out(path);
    out << graph->dot(flags & musaGraphDebugDotFlagsVerbose);
    return out ? musaSuccess : musaErrorOperatingSystem;
  });
}

musaError_t musaGraphConditionalHandleCreate(musaGraphConditionalHandle *handle, musaGraph_t g,
                                             unsigned int defaultLaunchValue,
                                             unsigned int flags) {
  MUSA_BACKEND_HOOK(musaGraphConditionalHandleCreate, handle, g, defaultLaunchValue, flags);
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!handle || !graph || (flags & ~unsigned(musaGraphCondAssignDefault)))
      return musaErrorInvalidValue;
    // The handle is the condition's address, which device code stores to: memory kernels
    // may reach (MUSA_SIM_MEMCHECK) while the condition lives.
    std::shared_ptr<graph::ConditionCell> cell(new graph::ConditionCell, [](auto *c) {
      Runtime::unregisterKernelReadable(&c->value);
      delete c;
    });
    Runtime::registerKernelReadable(&cell->value, sizeof cell->value);
    cell->defaultValue = defaultLaunchValue;
    cell->assignDefault = flags & musaGraphCondAssignDefault;
    cell->value = defaultLaunchValue;
    graph::Registry::get().addCondition(graph, cell);
    // The handle is the condition's address: device code sets it with a plain store.
    *handle = reinterpret_cast<musaGraphConditionalHandle>(&cell->value);
    return musaSuccess;
  });
}

musaError_t musaGraphAddNode(musaGraphNode_t *node, musaGraph_t g, const musaGraphNode_t *deps,
                             size_t numDeps, musaGraphNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphAddNode, node, g, deps, numDeps, p);
  if (!p)
    return recordError(musaErrorInvalidValue);
  switch (p->type) {
  case musaGraphNodeTypeKernel:
    return musaGraphAddKernelNode(node, g, deps, numDeps, &p->kernel);
  case musaGraphNodeTypeMemcpy:
    return musaGraphAddMemcpyNode(node, g, deps, numDeps, &p->memcpy.copyParams);
  case musaGraphNodeTypeMemset:
    return musaGraphAddMemsetNode(node, g, deps, numDeps, &p->memset);
  case musaGraphNodeTypeHost:
    return musaGraphAddHostNode(node, g, deps, numDeps, &p->host);
  case musaGraphNodeTypeChildGraph:
    return musaGraphAddChildGraphNode(node, g, deps, numDeps, p->graph.graph);
  case musaGraphNodeTypeEmpty:
    return musaGraphAddEmptyNode(node, g, deps, numDeps);
  case musaGraphNodeTypeEventWait:
    return musaGraphAddEventWaitNode(node, g, deps, numDeps, p->eventWait.event);
  case musaGraphNodeTypeEventRecord:
    return musaGraphAddEventRecordNode(node, g, deps, numDeps, p->eventRecord.event);
  case musaGraphNodeTypeMemAlloc:
    return musaGraphAddMemAllocNode(node, g, deps, numDeps, &p->alloc);
  case musaGraphNodeTypeMemFree:
    return musaGraphAddMemFreeNode(node, g, deps, numDeps, p->free.dptr);
  case musaGraphNodeTypeExtSemasSignal:
    return musaGraphAddExternalSemaphoresSignalNode(node, g, deps, numDeps, &p->extSemSignal);
  case musaGraphNodeTypeExtSemasWait:
    return musaGraphAddExternalSemaphoresWaitNode(node, g, deps, numDeps, &p->extSemWait);
  case musaGraphNodeTypeConditional:
    break;
  default:
    // A type CUDA has but the simulator lacks is unsupported; a number no type has is invalid.
    return recordError(p->type >= 0 && p->type < musaGraphNodeTypeCount ? musaErrorNotSupported
                                                                        : musaErrorInvalidValue);
  }
  return apiCall([&] {
    const musaConditionalNodeParams &c = p->conditional;
    auto type = graph::ConditionalType(c.type);
    if (!graph::validBodyCount(type, c.size) || !c.phGraph_out)
      return musaErrorInvalidValue;
    graph::Graph *parent;
    std::vector<graph::Node *> depNodes;
    if (musaError_t e = checkAdd(node, g, deps, numDeps, parent, depNodes))
      return e;
    std::shared_ptr<graph::ConditionCell> cell = graph::Registry::get().findCondition(
        parent, reinterpret_cast<const void *>(c.handle));
    if (!cell)
      return musaErrorInvalidValue; // a handle of another graph, or none
    std::vector<musaGraph_t> handles;
    std::vector<graph::Graph *> bodies;
    for (unsigned i = 0; i < c.size; ++i) {
      handles.push_back(adopt(std::make_unique<graph::Graph>()));
      bodies.push_back(findGraph(handles.back()));
    }
    auto release = [handles] {
      for (musaGraph_t h : handles)
        musaGraphDestroy(h);
    };
    // A faulted device ends the launch: a WHILE body that faulted stops looping.
    Device *device = Runtime::get().currentDevice();
    auto cancelled = [device] { return device && device->stickyError() != musaSuccess; };
    *node = reinterpret_cast<musaGraphNode_t>(parent->add(
        graph::NodeType::Conditional,
        std::make_unique<graph::ConditionalWork>(cell, type, std::move(bodies), release,
                                                 cancelled),
        depNodes));
    std::copy(handles.begin(), handles.end(), c.phGraph_out);
    return musaSuccess;
  });
}

} // extern "C"

namespace musa::rt {

graph::UpdateResult MemsetWork::updatableTo(const graph::NodeWork &next) const {
  auto *n = dynamic_cast<const MemsetWork *>(&next);
  if (!n)
    return graph::UpdateResult::Success;
  auto now = Runtime::get().findDevicePointer(params_.dst);
  auto then = Runtime::get().findDevicePointer(n->params_.dst);
  return now && then && now->device == then->device ? graph::UpdateResult::Success
                                                    : graph::UpdateResult::ParametersChanged;
}

musaGraph_t adoptCapturedGraph(std::unique_ptr<graph::Graph> g) { return adopt(std::move(g)); }
musaError_t addGraphNode(musaGraphNode_t *node, musaGraph_t g, const musaGraphNode_t *deps,
                         size_t numDeps, graph::NodeType type,
                         std::unique_ptr<graph::NodeWork> work) {
  return addNode(node, g, deps, numDeps, type, std::move(work));
}
graph::Node *findGraphNode(musaGraphNode_t node) { return findNode(node); }
musaError_t setExecNodeWork(musaGraphExec_t exec, musaGraphNode_t node, graph::NodeType type,
                            std::unique_ptr<graph::NodeWork> work) {
  return setExecWork(exec, node, type, std::move(work));
}
graph::Graph *findUserGraph(musaGraph_t handle) { return findGraph(handle); }
void setCapturing(musaGraph_t handle, bool capturing) {
  graph::Registry::get().setCapturing(reinterpret_cast<const graph::Graph *>(handle), capturing);
}
void discardCapturedGraph(musaGraph_t handle) { musaGraphDestroy(handle); }
} // namespace musa::rt

namespace {
/// Edge-data outputs: zeroed, as every edge here carries default data.
musaError_t zeroEdgeData(musaGraphEdgeData *data, size_t n) {
  if (data)
    std::memset(data, 0, n * sizeof(musaGraphEdgeData));
  return musaSuccess;
}
bool defaultEdgeData(const musaGraphEdgeData *data, size_t n) {
  musaGraphEdgeData zero = {};
  for (size_t i = 0; data && i < n; ++i)
    if (std::memcmp(&data[i], &zero, sizeof zero) != 0)
      return false;
  return true;
}
} // namespace

extern "C" {

musaError_t musaGraphAddDependencies_v2(musaGraph_t g, const musaGraphNode_t *from,
                                        const musaGraphNode_t *to,
                                        const musaGraphEdgeData *edgeData, size_t n) {
  MUSA_BACKEND_HOOK(musaGraphAddDependencies_v2, g, from, to, edgeData, n);
  if (!defaultEdgeData(edgeData, n))
    return recordError(musaErrorNotSupported); // spec/DECISIONS.md 13 (CUDA: InvalidValue)
  return musaGraphAddDependencies(g, from, to, n);
}

musaError_t musaGraphRemoveDependencies_v2(musaGraph_t g, const musaGraphNode_t *from,
                                           const musaGraphNode_t *to,
                                           const musaGraphEdgeData *edgeData, size_t n) {
  MUSA_BACKEND_HOOK(musaGraphRemoveDependencies_v2, g, from, to, edgeData, n);
  if (!defaultEdgeData(edgeData, n))
    return recordError(musaErrorNotSupported);
  return musaGraphRemoveDependencies(g, from, to, n);
}

musaError_t musaGraphAddNode_v2(musaGraphNode_t *node, musaGraph_t g, const musaGraphNode_t *deps,
                                const musaGraphEdgeData *edgeData, size_t numDeps,
                                musaGraphNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphAddNode_v2, node, g, deps, edgeData, numDeps, p);
  if (!defaultEdgeData(edgeData, numDeps))
    return recordError(musaErrorNotSupported); // spec/DECISIONS.md 13
  return musaGraphAddNode(node, g, deps, numDeps, p);
}

musaError_t musaGraphGetEdges_v2(musaGraph_t g, musaGraphNode_t *from, musaGraphNode_t *to,
                                 musaGraphEdgeData *edgeData, size_t *numEdges) {
  MUSA_BACKEND_HOOK(musaGraphGetEdges_v2, g, from, to, edgeData, numEdges);
  size_t capacity = numEdges ? *numEdges : 0;
  musaError_t e = musaGraphGetEdges(g, from, to, numEdges);
  return e ? e : zeroEdgeData(edgeData, std::min(capacity, *numEdges));
}

musaError_t musaGraphNodeGetDependencies_v2(musaGraphNode_t node, musaGraphNode_t *deps,
                                            musaGraphEdgeData *edgeData, size_t *numDeps) {
  MUSA_BACKEND_HOOK(musaGraphNodeGetDependencies_v2, node, deps, edgeData, numDeps);
  size_t capacity = numDeps ? *numDeps : 0;
  musaError_t e = musaGraphNodeGetDependencies(node, deps, numDeps);
  return e ? e : zeroEdgeData(edgeData, std::min(capacity, *numDeps));
}

musaError_t musaGraphNodeGetDependentNodes_v2(musaGraphNode_t node, musaGraphNode_t *nodes,
                                              musaGraphEdgeData *edgeData, size_t *numNodes) {
  MUSA_BACKEND_HOOK(musaGraphNodeGetDependentNodes_v2, node, nodes, edgeData, numNodes);
  size_t capacity = numNodes ? *numNodes : 0;
  musaError_t e = musaGraphNodeGetDependentNodes(node, nodes, numNodes);
  return e ? e : zeroEdgeData(edgeData, std::min(capacity, *numNodes));
}

} // extern "C"
