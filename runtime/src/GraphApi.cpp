// Graph entry points: building graphs, querying them, instantiating and launching them.
#include "ApiShell.h"
#include "GraphWork.h"
#include "MemoryTransfer.h"
#include "Runtime.h"

#include "musa/graph/GraphExec.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

using namespace musa::rt;
namespace graph = musa::graph;

namespace {

/// Live graphs and executable graphs. Process-wide like every runtime table.
struct GraphTables {
  std::mutex mutex;
  std::map<const graph::Graph *, std::unique_ptr<graph::Graph>> graphs;
  std::map<const graph::GraphExec *, std::shared_ptr<graph::GraphExec>> execs;
  std::map<const graph::Graph *, std::vector<std::shared_ptr<ConditionCell>>> conditions;
  std::map<const graph::GraphExec *, unsigned long long> execFlags;
  static GraphTables &get() {
    static GraphTables *tables = std::make_unique<GraphTables>().release();
    return *tables;
  }
};

graph::Graph *findGraph(musaGraph_t handle) {
  auto &t = GraphTables::get();
  std::lock_guard lock(t.mutex);
  auto it = t.graphs.find(reinterpret_cast<const graph::Graph *>(handle));
  if (it != t.graphs.end())
    return it->second.get();
  // A child graph node's embedded graph, handed out by musaGraphChildGraphNodeGetGraph: it
  // can be queried (not destroyed) while its parent lives.
  auto *candidate = reinterpret_cast<const graph::Graph *>(handle);
  for (auto &[raw, g] : t.graphs)
    for (auto &n : g->nodes())
      if (n->child.get() == candidate)
        return n->child.get();
  return nullptr;
}

std::shared_ptr<graph::GraphExec> findExec(musaGraphExec_t handle) {
  auto &t = GraphTables::get();
  std::lock_guard lock(t.mutex);
  auto it = t.execs.find(reinterpret_cast<const graph::GraphExec *>(handle));
  return it == t.execs.end() ? nullptr : it->second;
}

/// A node of any live graph (not of child copies), or null.
graph::Node *findNode(musaGraphNode_t handle) {
  auto *node = reinterpret_cast<graph::Node *>(handle);
  auto &t = GraphTables::get();
  std::lock_guard lock(t.mutex);
  for (auto &[raw, g] : t.graphs)
    if (g->owns(node))
      return node;
  return nullptr;
}

musaGraph_t adopt(std::unique_ptr<graph::Graph> g) {
  auto &t = GraphTables::get();
  std::lock_guard lock(t.mutex);
  graph::Graph *raw = g.get();
  t.graphs[raw] = std::move(g);
  return reinterpret_cast<musaGraph_t>(raw);
}

/// Checks handles of an add-node call and collects its dependencies.
musaError_t checkAdd(musaGraphNode_t *out, musaGraph_t handle, const musaGraphNode_t *deps,
                     size_t numDeps, graph::Graph *&g, std::vector<graph::Node *> &depNodes) {
  if (!out || (numDeps && !deps))
    return musaErrorInvalidValue;
  g = findGraph(handle);
  if (!g)
    return musaErrorInvalidValue;
  for (size_t i = 0; i < numDeps; ++i) {
    auto *d = reinterpret_cast<graph::Node *>(deps[i]);
    if (!g->owns(d) || std::find(depNodes.begin(), depNodes.end(), d) != depNodes.end())
      return musaErrorInvalidValue; // foreign or repeated dependency
    depNodes.push_back(d);
  }
  return musaSuccess;
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
  exec->modify([&](graph::Graph &) { copy->work = std::move(work); });
  return musaSuccess;
}

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

} // namespace

extern "C" {

musaError_t musaGraphCreate(musaGraph_t *out, unsigned int flags) {
  return apiCall([&] {
    if (!out || flags != 0)
      return musaErrorInvalidValue;
    *out = adopt(std::make_unique<graph::Graph>());
    return musaSuccess;
  });
}

musaError_t musaGraphDestroy(musaGraph_t handle) {
  return apiCall([&] {
    auto &t = GraphTables::get();
    std::unique_ptr<graph::Graph> doomed;
    {
      std::lock_guard lock(t.mutex);
      auto it = t.graphs.find(reinterpret_cast<const graph::Graph *>(handle));
      if (it == t.graphs.end())
        return musaErrorInvalidValue;
      doomed = std::move(it->second);
      t.graphs.erase(it);
      t.conditions.erase(doomed.get());
    }
    // Destroyed unlocked: conditional nodes release their body graphs through the table.
    doomed.reset();
    return musaSuccess;
  });
}

musaError_t musaGraphAddKernelNode(musaGraphNode_t *node, musaGraph_t g,
                                   const musaGraphNode_t *deps, size_t numDeps,
                                   const musaKernelNodeParams *params) {
  return apiCall([&] {
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
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeMemcpyWork(params, work))
      return e;
    return addNode(node, g, deps, numDeps, graph::NodeType::Memcpy, std::move(work));
  });
}

musaError_t musaGraphAddMemcpyNode1D(musaGraphNode_t *node, musaGraph_t g,
                                     const musaGraphNode_t *deps, size_t numDeps, void *dst,
                                     const void *src, size_t count, enum musaMemcpyKind kind) {
  return apiCall([&] {
    // The 1D form is a 3D copy of one row.
    musaMemcpy3DParms p = {};
    p.srcPtr = {const_cast<void *>(src), count, count, 1};
    p.dstPtr = {dst, count, count, 1};
    p.extent = {count, 1, 1};
    p.kind = kind;
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeMemcpyWork(&p, work))
      return e;
    return addNode(node, g, deps, numDeps, graph::NodeType::Memcpy, std::move(work));
  });
}

musaError_t musaGraphAddMemsetNode(musaGraphNode_t *node, musaGraph_t g,
                                   const musaGraphNode_t *deps, size_t numDeps,
                                   const musaMemsetParams *p) {
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
  return apiCall([&] {
    if (!p || !p->fn)
      return musaErrorInvalidValue;
    return addNode(node, g, deps, numDeps, graph::NodeType::Host,
                   std::make_unique<HostWork>(p->fn, p->userData));
  });
}

musaError_t musaGraphAddEmptyNode(musaGraphNode_t *node, musaGraph_t g,
                                  const musaGraphNode_t *deps, size_t numDeps) {
  return apiCall([&] { return addNode(node, g, deps, numDeps, graph::NodeType::Empty, nullptr); });
}

musaError_t musaGraphAddChildGraphNode(musaGraphNode_t *node, musaGraph_t g,
                                       const musaGraphNode_t *deps, size_t numDeps,
                                       musaGraph_t child) {
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
  return apiCall([&] {
    if (!Runtime::get().resolveEvent(event))
      return musaErrorInvalidResourceHandle;
    return addNode(node, g, deps, numDeps, graph::NodeType::EventWait,
                   std::make_unique<EventWork>(event, false));
  });
}

musaError_t musaGraphAddDependencies(musaGraph_t g, const musaGraphNode_t *from,
                                     const musaGraphNode_t *to, size_t n) {
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph || (n && (!from || !to)))
      return musaErrorInvalidValue;
    for (size_t i = 0; i < n; ++i) { // validate all before changing any
      auto *a = reinterpret_cast<graph::Node *>(from[i]), *b = reinterpret_cast<graph::Node *>(to[i]);
      if (!graph->owns(a) || !graph->owns(b) || a == b ||
          std::find(b->dependencies.begin(), b->dependencies.end(), a) != b->dependencies.end())
        return musaErrorInvalidValue;
    }
    for (size_t i = 0; i < n; ++i)
      graph->addEdge(reinterpret_cast<graph::Node *>(from[i]), reinterpret_cast<graph::Node *>(to[i]));
    return musaSuccess;
  });
}

musaError_t musaGraphRemoveDependencies(musaGraph_t g, const musaGraphNode_t *from,
                                        const musaGraphNode_t *to, size_t n) {
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph || (n && (!from || !to)))
      return musaErrorInvalidValue;
    for (size_t i = 0; i < n; ++i) {
      auto *a = reinterpret_cast<graph::Node *>(from[i]), *b = reinterpret_cast<graph::Node *>(to[i]);
      if (!graph->owns(a) || !graph->owns(b) ||
          std::find(b->dependencies.begin(), b->dependencies.end(), a) == b->dependencies.end())
        return musaErrorInvalidValue;
    }
    for (size_t i = 0; i < n; ++i)
      graph->removeEdge(reinterpret_cast<graph::Node *>(from[i]),
                        reinterpret_cast<graph::Node *>(to[i]));
    return musaSuccess;
  });
}

musaError_t musaGraphGetNodes(musaGraph_t g, musaGraphNode_t *nodes, size_t *numNodes) {
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
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph)
      return musaErrorInvalidValue;
    return listOut(graph->roots(), nodes, numNodes);
  });
}

musaError_t musaGraphGetEdges(musaGraph_t g, musaGraphNode_t *from, musaGraphNode_t *to,
                              size_t *numEdges) {
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
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n)
      return musaErrorInvalidValue;
    return listOut(n->dependencies, deps, numDeps);
  });
}

musaError_t musaGraphNodeGetDependentNodes(musaGraphNode_t handle, musaGraphNode_t *nodes,
                                           size_t *numNodes) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n)
      return musaErrorInvalidValue;
    return listOut(n->dependents, nodes, numNodes);
  });
}

musaError_t musaGraphKernelNodeGetParams(musaGraphNode_t handle, musaKernelNodeParams *p) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || !p || n->type != graph::NodeType::Kernel)
      return musaErrorInvalidValue;
    const PreparedLaunch &l = static_cast<KernelWork &>(*n->work).launch();
    *p = {const_cast<void *>(l.func), l.grid, l.block, unsigned(l.sharedMem),
          l.args->pointers.data(), nullptr};
    return musaSuccess;
  });
}

musaError_t musaGraphKernelNodeSetParams(musaGraphNode_t handle, const musaKernelNodeParams *p) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::Kernel)
      return musaErrorInvalidValue;
    std::shared_ptr<PreparedLaunch> launch;
    if (musaError_t e = prepareKernelNode(p, launch))
      return e;
    n->work = std::make_unique<KernelWork>(launch);
    return musaSuccess;
  });
}

musaError_t musaGraphKernelNodeSetAttribute(musaGraphNode_t handle, musaKernelNodeAttrID attr,
                                            const musaKernelNodeAttrValue *value) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::Kernel || !value)
      return musaErrorInvalidValue;
    if (attr != musaLaunchAttributePriority)
      return musaErrorNotSupported;
    auto launch = std::make_shared<PreparedLaunch>(static_cast<KernelWork &>(*n->work).launch());
    launch->nodePriority = value->priority;
    n->work = std::make_unique<KernelWork>(launch);
    return musaSuccess;
  });
}

musaError_t musaGraphKernelNodeGetAttribute(musaGraphNode_t handle, musaKernelNodeAttrID attr,
                                            musaKernelNodeAttrValue *value) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::Kernel || !value)
      return musaErrorInvalidValue;
    if (attr != musaLaunchAttributePriority)
      return musaErrorNotSupported;
    std::memset(value, 0, sizeof *value);
    value->priority = static_cast<KernelWork &>(*n->work).launch().nodePriority;
    return musaSuccess;
  });
}

musaError_t musaGraphExecChildGraphNodeSetParams(musaGraphExec_t handle, musaGraphNode_t node,
                                                 musaGraph_t child) {
  return apiCall([&] {
    auto exec = findExec(handle);
    graph::Node *copy = execNode(exec, node);
    graph::Graph *next = findGraph(child);
    if (!copy || copy->type != graph::NodeType::ChildGraph || !next)
      return musaErrorInvalidValue;
    // The child's topology must stay (same nodes, types and edges, in creation order).
    const auto &a = copy->child->nodes(), &b = next->nodes();
    if (a.size() != b.size())
      return musaErrorInvalidValue;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i]->type != b[i]->type || a[i]->dependencies.size() != b[i]->dependencies.size())
        return musaErrorInvalidValue;
    exec->modify([&](graph::Graph &plan) {
      graph::Node *fresh = plan.addChild(*next, {});
      copy->work = std::move(fresh->work);
      copy->child = std::move(fresh->child);
      plan.remove(fresh);
    });
    return musaSuccess;
  });
}

musaError_t musaGraphClone(musaGraph_t *out, musaGraph_t original) {
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
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!graph || !path)
      return musaErrorInvalidValue;
    std::ofstream out(path);
    out << graph->dot(flags & musaGraphDebugDotFlagsVerbose);
    return out ? musaSuccess : musaErrorOperatingSystem;
  });
}

musaError_t musaGraphInstantiateWithFlags(musaGraphExec_t *exec, musaGraph_t g,
                                          unsigned long long flags) {
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    constexpr unsigned long long known =
        musaGraphInstantiateFlagAutoFreeOnLaunch | musaGraphInstantiateFlagUpload |
        musaGraphInstantiateFlagDeviceLaunch | musaGraphInstantiateFlagUseNodePriority;
    if (!exec || !graph || (flags & ~known))
      return musaErrorInvalidValue;
    if (flags & musaGraphInstantiateFlagDeviceLaunch)
      return musaErrorNotSupported; // graphs cannot be launched from device code here
    std::string error;
    std::shared_ptr<graph::GraphExec> e = graph::GraphExec::instantiate(*graph, error);
    if (!e)
      return musaErrorInvalidValue;
    auto &t = GraphTables::get();
    std::lock_guard lock(t.mutex);
    t.execs[e.get()] = e;
    t.execFlags[e.get()] = flags;
    *exec = reinterpret_cast<musaGraphExec_t>(e.get());
    return musaSuccess;
  });
}

musaError_t musaGraphInstantiate(musaGraphExec_t *exec, musaGraph_t g, unsigned long long flags) {
  return musaGraphInstantiateWithFlags(exec, g, flags);
}

musaError_t musaGraphLaunch(musaGraphExec_t handle, musaStream_t streamHandle) {
  return apiCall([&] {
    std::shared_ptr<graph::GraphExec> exec = findExec(handle);
    if (!exec)
      return musaErrorInvalidValue;
    std::shared_ptr<Stream> stream = Runtime::get().resolveStream(streamHandle);
    if (!stream)
      return musaErrorInvalidResourceHandle;
    if (musaError_t e = stream->device->stickyError())
      return e;
    // Memory a previous launch allocated and never freed: refused, unless the graph was
    // instantiated with AutoFreeOnLaunch, which frees it now.
    unsigned long long flags;
    {
      auto &t = GraphTables::get();
      std::lock_guard lock(t.mutex);
      flags = t.execFlags[exec.get()];
    }
    for (auto &n : exec->plan().nodes()) {
      auto *alloc = dynamic_cast<MemAllocWork *>(n->work.get());
      if (!alloc || !stream->device->graphMemory.inUse(alloc->pointer()))
        continue;
      if (!(flags & musaGraphInstantiateFlagAutoFreeOnLaunch))
        return musaErrorInvalidValue;
      stream->device->graphMemory.setInUse(alloc->pointer(), false);
    }
    // The whole graph is one stream operation; a destroyed exec finishes what was launched.
    GraphLaunchPriority priority{stream->priority,
                                 (flags & musaGraphInstantiateFlagUseNodePriority) != 0};
    stream->device->submit(*stream, [exec, priority] {
      setGraphLaunchPriority(priority);
      exec->run();
    });
    return musaSuccess;
  });
}

musaError_t musaGraphUpload(musaGraphExec_t handle, musaStream_t streamHandle) {
  return apiCall([&] {
    if (!findExec(handle))
      return musaErrorInvalidValue;
    // Instantiation already built everything a launch needs; the upload only orders.
    return Runtime::get().resolveStream(streamHandle) ? musaSuccess
                                                       : musaErrorInvalidResourceHandle;
  });
}

musaError_t musaGraphExecDestroy(musaGraphExec_t handle) {
  return apiCall([&] {
    auto &t = GraphTables::get();
    std::lock_guard lock(t.mutex);
    t.execFlags.erase(reinterpret_cast<const graph::GraphExec *>(handle));
    return t.execs.erase(reinterpret_cast<const graph::GraphExec *>(handle)) ? musaSuccess
                                                                             : musaErrorInvalidValue;
  });
}

musaError_t musaGraphNodeSetEnabled(musaGraphExec_t handle, musaGraphNode_t node,
                                    unsigned int isEnabled) {
  return apiCall([&] {
    auto exec = findExec(handle);
    graph::Node *copy = execNode(exec, node);
    if (!copy)
      return musaErrorInvalidValue;
    exec->modify([&](graph::Graph &) { copy->enabled = isEnabled != 0; });
    return musaSuccess;
  });
}

musaError_t musaGraphNodeGetEnabled(musaGraphExec_t handle, musaGraphNode_t node,
                                    unsigned int *isEnabled) {
  return apiCall([&] {
    auto exec = findExec(handle);
    graph::Node *copy = exec ? exec->copyOf(reinterpret_cast<graph::Node *>(node)) : nullptr;
    if (!copy || !isEnabled)
      return musaErrorInvalidValue;
    *isEnabled = copy->enabled;
    return musaSuccess;
  });
}

musaError_t musaGraphExecKernelNodeSetParams(musaGraphExec_t handle, musaGraphNode_t node,
                                             const musaKernelNodeParams *p) {
  return apiCall([&] {
    auto exec = findExec(handle);
    graph::Node *copy = exec ? exec->copyOf(reinterpret_cast<graph::Node *>(node)) : nullptr;
    if (!copy || copy->type != graph::NodeType::Kernel)
      return musaErrorInvalidValue;
    std::shared_ptr<PreparedLaunch> launch;
    if (musaError_t e = prepareKernelNode(p, launch))
      return e;
    if (launch->func != static_cast<KernelWork &>(*copy->work).launch().func)
      return musaErrorInvalidValue; // an executable graph's kernel node keeps its function
    exec->modify([&](graph::Graph &) { copy->work = std::make_unique<KernelWork>(launch); });
    return musaSuccess;
  });
}

musaError_t musaGraphExecMemcpyNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                             const musaMemcpy3DParms *p) {
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeMemcpyWork(p, work))
      return e;
    return setExecWork(exec, node, graph::NodeType::Memcpy, std::move(work));
  });
}

musaError_t musaGraphExecMemsetNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                             const musaMemsetParams *p) {
  return apiCall([&] {
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeMemsetWork(p, work))
      return e;
    return setExecWork(exec, node, graph::NodeType::Memset, std::move(work));
  });
}

musaError_t musaGraphExecHostNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                           const musaHostNodeParams *p) {
  return apiCall([&] {
    if (!p || !p->fn)
      return musaErrorInvalidValue;
    return setExecWork(exec, node, graph::NodeType::Host,
                       std::make_unique<HostWork>(p->fn, p->userData));
  });
}

musaError_t musaGraphMemcpyNodeGetParams(musaGraphNode_t handle, musaMemcpy3DParms *p) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    auto *work = n ? dynamic_cast<MemcpyWork *>(n->work.get()) : nullptr;
    if (!work || !p)
      return musaErrorInvalidValue;
    *p = work->params();
    return musaSuccess;
  });
}

musaError_t musaGraphMemcpyNodeSetParams(musaGraphNode_t handle, const musaMemcpy3DParms *p) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::Memcpy)
      return musaErrorInvalidValue;
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeMemcpyWork(p, work))
      return e;
    n->work = std::move(work);
    return musaSuccess;
  });
}

musaError_t musaGraphMemsetNodeGetParams(musaGraphNode_t handle, musaMemsetParams *p) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    auto *work = n ? dynamic_cast<MemsetWork *>(n->work.get()) : nullptr;
    if (!work || !p)
      return musaErrorInvalidValue;
    *p = work->params();
    return musaSuccess;
  });
}

musaError_t musaGraphMemsetNodeSetParams(musaGraphNode_t handle, const musaMemsetParams *p) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::Memset)
      return musaErrorInvalidValue;
    std::unique_ptr<graph::NodeWork> work;
    if (musaError_t e = makeMemsetWork(p, work))
      return e;
    n->work = std::move(work);
    return musaSuccess;
  });
}

musaError_t musaGraphHostNodeGetParams(musaGraphNode_t handle, musaHostNodeParams *p) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    auto *work = n ? dynamic_cast<HostWork *>(n->work.get()) : nullptr;
    if (!work || !p)
      return musaErrorInvalidValue;
    *p = work->params();
    return musaSuccess;
  });
}

musaError_t musaGraphHostNodeSetParams(musaGraphNode_t handle, const musaHostNodeParams *p) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::Host || !p || !p->fn)
      return musaErrorInvalidValue;
    n->work = std::make_unique<HostWork>(p->fn, p->userData);
    return musaSuccess;
  });
}

musaError_t musaGraphAddMemAllocNode(musaGraphNode_t *node, musaGraph_t g,
                                     const musaGraphNode_t *deps, size_t numDeps,
                                     musaMemAllocNodeParams *p) {
  return apiCall([&] {
    if (!p || p->bytesize == 0 || p->poolProps.allocType != musaMemAllocationTypePinned ||
        p->poolProps.location.type != musaMemLocationTypeDevice)
      return musaErrorInvalidValue;
    Device *device = Runtime::get().device(p->poolProps.location.id);
    if (!device)
      return musaErrorInvalidDevice;
    for (size_t i = 0; i < p->accessDescCount; ++i)
      if (!p->accessDescs || !Runtime::get().device(p->accessDescs[i].location.id))
        return musaErrorInvalidValue;
    graph::Graph *graph;
    std::vector<graph::Node *> depNodes;
    if (musaError_t e = checkAdd(node, g, deps, numDeps, graph, depNodes))
      return e;
    // The address is fixed now, as CUDA fixes it when the node is made.
    void *ptr = device->memory().allocate(p->bytesize, GraphAllocation);
    if (!ptr)
      return musaErrorOutOfMemory;
    auto allocation = std::make_shared<musa::rt::GraphMemoryBlock>(device, ptr, p->bytesize);
    *node = reinterpret_cast<musaGraphNode_t>(graph->add(
        graph::NodeType::MemAlloc, std::make_unique<MemAllocWork>(allocation), depNodes));
    p->dptr = ptr;
    return musaSuccess;
  });
}

musaError_t musaGraphAddMemFreeNode(musaGraphNode_t *node, musaGraph_t g,
                                    const musaGraphNode_t *deps, size_t numDeps, void *dptr) {
  return apiCall([&] {
    auto where = Runtime::get().findDevicePointer(dptr);
    if (!where || where->range.base != dptr || where->range.tag != GraphAllocation)
      return musaErrorInvalidValue; // only graph allocations have free nodes
    return addNode(node, g, deps, numDeps, graph::NodeType::MemFree,
                   std::make_unique<MemFreeWork>(where->device, dptr));
  });
}

musaError_t musaGraphConditionalHandleCreate(musaGraphConditionalHandle *handle, musaGraph_t g,
                                             unsigned int defaultLaunchValue,
                                             unsigned int flags) {
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    if (!handle || !graph || (flags & ~unsigned(musaGraphCondAssignDefault)))
      return musaErrorInvalidValue;
    auto cell = std::make_shared<ConditionCell>();
    cell->defaultValue = defaultLaunchValue;
    cell->assignDefault = flags & musaGraphCondAssignDefault;
    cell->value = defaultLaunchValue;
    auto &t = GraphTables::get();
    std::lock_guard lock(t.mutex);
    t.conditions[graph].push_back(cell);
    // The handle is the condition's address: device code sets it with a plain store.
    *handle = reinterpret_cast<musaGraphConditionalHandle>(&cell->value);
    return musaSuccess;
  });
}

musaError_t musaGraphAddNode(musaGraphNode_t *node, musaGraph_t g, const musaGraphNode_t *deps,
                             size_t numDeps, musaGraphNodeParams *p) {
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
    return recordError(musaErrorNotSupported);
  }
  return apiCall([&] {
    const musaConditionalNodeParams &c = p->conditional;
    if ((c.type != musaGraphCondTypeIf && c.type != musaGraphCondTypeWhile) || c.size != 1 ||
        !c.phGraph_out)
      return musaErrorInvalidValue;
    graph::Graph *parent;
    std::vector<graph::Node *> depNodes;
    if (musaError_t e = checkAdd(node, g, deps, numDeps, parent, depNodes))
      return e;
    std::shared_ptr<ConditionCell> cell;
    {
      auto &t = GraphTables::get();
      std::lock_guard lock(t.mutex);
      for (auto &candidate : t.conditions[parent])
        if (reinterpret_cast<musaGraphConditionalHandle>(&candidate->value) == c.handle)
          cell = candidate;
    }
    if (!cell)
      return musaErrorInvalidValue; // a handle of another graph, or none
    musaGraph_t bodyHandle = adopt(std::make_unique<graph::Graph>());
    graph::Graph *body = findGraph(bodyHandle);
    auto release = [bodyHandle] { musaGraphDestroy(bodyHandle); };
    *node = reinterpret_cast<musaGraphNode_t>(parent->add(
        graph::NodeType::Conditional,
        std::make_unique<ConditionalWork>(cell, c.type == musaGraphCondTypeWhile, body, release),
        depNodes));
    *c.phGraph_out = bodyHandle;
    return musaSuccess;
  });
}

musaError_t musaDeviceGetGraphMemAttribute(int device, enum musaGraphMemAttributeType attr,
                                           void *value) {
  return apiCall([&] {
    Device *d = Runtime::get().device(device);
    if (!d)
      return musaErrorInvalidDevice;
    if (!value)
      return musaErrorInvalidValue;
    GraphMemoryPool &pool = d->graphMemory;
    std::lock_guard lock(pool.mutex);
    uint64_t v;
    switch (attr) {
    case musaGraphMemAttrUsedMemCurrent: v = pool.usedCurrent; break;
    case musaGraphMemAttrUsedMemHigh: v = pool.usedHigh; break;
    case musaGraphMemAttrReservedMemCurrent: v = pool.reservedCurrent; break;
    case musaGraphMemAttrReservedMemHigh: v = pool.reservedHigh; break;
    default: return musaErrorInvalidValue;
    }
    *static_cast<uint64_t *>(value) = v;
    return musaSuccess;
  });
}

musaError_t musaDeviceSetGraphMemAttribute(int device, enum musaGraphMemAttributeType attr,
                                           void *value) {
  return apiCall([&] {
    Device *d = Runtime::get().device(device);
    if (!d)
      return musaErrorInvalidDevice;
    // Only the high watermarks can be set, and only back to zero (which restarts them).
    if (!value || *static_cast<uint64_t *>(value) != 0)
      return musaErrorInvalidValue;
    GraphMemoryPool &pool = d->graphMemory;
    std::lock_guard lock(pool.mutex);
    if (attr == musaGraphMemAttrUsedMemHigh)
      pool.usedHigh = pool.usedCurrent;
    else if (attr == musaGraphMemAttrReservedMemHigh)
      pool.reservedHigh = pool.reservedCurrent;
    else
      return musaErrorInvalidValue;
    return musaSuccess;
  });
}

musaError_t musaDeviceGraphMemTrim(int device) {
  return apiCall([&] {
    // Every reserved byte belongs to a live graph node (the pool caches nothing beyond
    // that), so there is nothing unused to give back.
    return Runtime::get().device(device) ? musaSuccess : musaErrorInvalidDevice;
  });
}

static musaError_t eventOfNode(musaGraphNode_t handle, graph::NodeType type, musaEvent_t *out) {
  graph::Node *n = findNode(handle);
  if (!n || n->type != type || !out)
    return musaErrorInvalidValue;
  *out = static_cast<EventWork &>(*n->work).event();
  return musaSuccess;
}

static musaError_t setEventOfNode(musaGraphNode_t handle, graph::NodeType type,
                                  musaEvent_t event) {
  graph::Node *n = findNode(handle);
  if (!n || n->type != type)
    return musaErrorInvalidValue;
  if (!Runtime::get().resolveEvent(event))
    return musaErrorInvalidResourceHandle;
  n->work = std::make_unique<EventWork>(event, type == graph::NodeType::EventRecord);
  return musaSuccess;
}

musaError_t musaGraphEventRecordNodeGetEvent(musaGraphNode_t node, musaEvent_t *event) {
  return apiCall([&] { return eventOfNode(node, graph::NodeType::EventRecord, event); });
}
musaError_t musaGraphEventRecordNodeSetEvent(musaGraphNode_t node, musaEvent_t event) {
  return apiCall([&] { return setEventOfNode(node, graph::NodeType::EventRecord, event); });
}
musaError_t musaGraphEventWaitNodeGetEvent(musaGraphNode_t node, musaEvent_t *event) {
  return apiCall([&] { return eventOfNode(node, graph::NodeType::EventWait, event); });
}
musaError_t musaGraphEventWaitNodeSetEvent(musaGraphNode_t node, musaEvent_t event) {
  return apiCall([&] { return setEventOfNode(node, graph::NodeType::EventWait, event); });
}

musaError_t musaGraphExecEventRecordNodeSetEvent(musaGraphExec_t exec, musaGraphNode_t node,
                                                 musaEvent_t event) {
  return apiCall([&] {
    if (!Runtime::get().resolveEvent(event))
      return musaErrorInvalidResourceHandle;
    return setExecWork(exec, node, graph::NodeType::EventRecord,
                       std::make_unique<EventWork>(event, true));
  });
}

musaError_t musaGraphExecEventWaitNodeSetEvent(musaGraphExec_t exec, musaGraphNode_t node,
                                               musaEvent_t event) {
  return apiCall([&] {
    if (!Runtime::get().resolveEvent(event))
      return musaErrorInvalidResourceHandle;
    return setExecWork(exec, node, graph::NodeType::EventWait,
                       std::make_unique<EventWork>(event, false));
  });
}

musaError_t musaGraphChildGraphNodeGetGraph(musaGraphNode_t handle, musaGraph_t *out) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::ChildGraph || !out)
      return musaErrorInvalidValue;
    *out = reinterpret_cast<musaGraph_t>(n->child.get());
    return musaSuccess;
  });
}

musaError_t musaGraphMemAllocNodeGetParams(musaGraphNode_t handle, musaMemAllocNodeParams *p) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    auto *work = n ? dynamic_cast<MemAllocWork *>(n->work.get()) : nullptr;
    if (!work || !p)
      return musaErrorInvalidValue;
    *p = {};
    p->poolProps.allocType = musaMemAllocationTypePinned;
    p->poolProps.location = {musaMemLocationTypeDevice, work->device()};
    p->bytesize = work->size();
    p->dptr = work->pointer();
    return musaSuccess;
  });
}

musaError_t musaGraphMemFreeNodeGetParams(musaGraphNode_t handle, void *dptr) {
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    auto *work = n ? dynamic_cast<MemFreeWork *>(n->work.get()) : nullptr;
    if (!work || !dptr)
      return musaErrorInvalidValue;
    *static_cast<void **>(dptr) = work->pointer();
    return musaSuccess;
  });
}

musaError_t musaGraphInstantiateWithParams(musaGraphExec_t *exec, musaGraph_t g,
                                           musaGraphInstantiateParams *params) {
  if (!params)
    return recordError(musaErrorInvalidValue);
  params->errNode_out = nullptr;
  graph::Graph *graph = findGraph(g);
  musaError_t e = musaGraphInstantiateWithFlags(exec, g, params->flags);
  params->result_out = e == musaSuccess ? musaGraphInstantiateSuccess
                       : (e == musaErrorInvalidValue && graph && exec &&
                          graph->topologicalOrder().size() != graph->nodes().size())
                           ? musaGraphInstantiateInvalidStructure
                       : e == musaErrorNotSupported ? musaGraphInstantiateNodeOperationNotSupported
                                                    : musaGraphInstantiateError;
  return e;
}

musaError_t musaGraphExecUpdate(musaGraphExec_t handle, musaGraph_t g,
                                musaGraphExecUpdateResultInfo *info) {
  return apiCall([&] {
    if (!info)
      return musaErrorInvalidValue;
    auto exec = findExec(handle);
    graph::Graph *graph = findGraph(g);
    if (!exec || !graph) {
      *info = {musaGraphExecUpdateError, nullptr, nullptr};
      return musaErrorInvalidValue;
    }
    *info = {musaGraphExecUpdateSuccess, nullptr, nullptr};
    auto fail = [&](musaGraphExecUpdateResult r, const graph::Node *node,
                    const graph::Node *from = nullptr) {
      *info = {r, reinterpret_cast<musaGraphNode_t>(const_cast<graph::Node *>(node)),
               reinterpret_cast<musaGraphNode_t>(const_cast<graph::Node *>(from))};
      return musaErrorGraphExecUpdateFailure;
    };
    musaError_t result = musaSuccess;
    exec->modify([&](graph::Graph &plan) {
      // Nodes correspond in creation order; the topology must be the same.
      const auto &now = plan.nodes(), &next = graph->nodes();
      if (now.size() != next.size()) {
        result = fail(musaGraphExecUpdateErrorTopologyChanged, nullptr);
        return;
      }
      std::map<const graph::Node *, size_t> indexNow, indexNext;
      for (size_t i = 0; i < now.size(); ++i)
        indexNow[now[i].get()] = i, indexNext[next[i].get()] = i;
      for (size_t i = 0; i < now.size(); ++i) {
        const graph::Node &a = *now[i], &b = *next[i];
        if (a.type != b.type) {
          result = fail(musaGraphExecUpdateErrorNodeTypeChanged, &b);
          return;
        }
        if (a.dependencies.size() != b.dependencies.size()) {
          result = fail(musaGraphExecUpdateErrorTopologyChanged, &b);
          return;
        }
        for (size_t k = 0; k < a.dependencies.size(); ++k)
          if (indexNow[a.dependencies[k]] != indexNext[b.dependencies[k]]) {
            result = fail(musaGraphExecUpdateErrorTopologyChanged, &b, b.dependencies[k]);
            return;
          }
        if (a.type == graph::NodeType::Kernel &&
            static_cast<KernelWork &>(*a.work).launch().func !=
                static_cast<KernelWork &>(*b.work).launch().func) {
          result = fail(musaGraphExecUpdateErrorFunctionChanged, &b);
          return;
        }
        if (a.type == graph::NodeType::Kernel &&
            static_cast<KernelWork &>(*a.work).launch().nodePriority !=
                static_cast<KernelWork &>(*b.work).launch().nodePriority) {
          result = fail(musaGraphExecUpdateErrorAttributesChanged, &b);
          return;
        }
        // A copy may not change direction, nor a memset its device (the guide's limits).
        auto *ca = dynamic_cast<MemcpyWork *>(a.work.get());
        auto *cb = dynamic_cast<MemcpyWork *>(b.work.get());
        if (ca && cb && ca->params().kind != cb->params().kind) {
          result = fail(musaGraphExecUpdateErrorParametersChanged, &b);
          return;
        }
        auto *sa = dynamic_cast<MemsetWork *>(a.work.get());
        auto *sb = dynamic_cast<MemsetWork *>(b.work.get());
        if (sa && sb) {
          auto da = Runtime::get().findDevicePointer(sa->params().dst);
          auto db = Runtime::get().findDevicePointer(sb->params().dst);
          if (!da || !db || da->device != db->device) {
            result = fail(musaGraphExecUpdateErrorParametersChanged, &b);
            return;
          }
        }
        if (a.type == graph::NodeType::ChildGraph || a.type == graph::NodeType::MemAlloc ||
            a.type == graph::NodeType::MemFree || a.type == graph::NodeType::Conditional) {
          result = fail(musaGraphExecUpdateErrorNotSupported, &b);
          return;
        }
      }
      for (size_t i = 0; i < now.size(); ++i) // all checks passed: take the new parameters
        now[i]->work = next[i]->work ? next[i]->work->clone() : nullptr;
    });
    return result;
  });
}

} // extern "C"

namespace musa::rt {
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
  if (!defaultEdgeData(edgeData, n))
    return recordError(musaErrorNotSupported);
  return musaGraphAddDependencies(g, from, to, n);
}

musaError_t musaGraphRemoveDependencies_v2(musaGraph_t g, const musaGraphNode_t *from,
                                           const musaGraphNode_t *to,
                                           const musaGraphEdgeData *edgeData, size_t n) {
  if (!defaultEdgeData(edgeData, n))
    return recordError(musaErrorNotSupported);
  return musaGraphRemoveDependencies(g, from, to, n);
}

musaError_t musaGraphGetEdges_v2(musaGraph_t g, musaGraphNode_t *from, musaGraphNode_t *to,
                                 musaGraphEdgeData *edgeData, size_t *numEdges) {
  size_t capacity = numEdges ? *numEdges : 0;
  musaError_t e = musaGraphGetEdges(g, from, to, numEdges);
  return e ? e : zeroEdgeData(edgeData, std::min(capacity, *numEdges));
}

musaError_t musaGraphNodeGetDependencies_v2(musaGraphNode_t node, musaGraphNode_t *deps,
                                            musaGraphEdgeData *edgeData, size_t *numDeps) {
  size_t capacity = numDeps ? *numDeps : 0;
  musaError_t e = musaGraphNodeGetDependencies(node, deps, numDeps);
  return e ? e : zeroEdgeData(edgeData, std::min(capacity, *numDeps));
}

musaError_t musaGraphNodeGetDependentNodes_v2(musaGraphNode_t node, musaGraphNode_t *nodes,
                                              musaGraphEdgeData *edgeData, size_t *numNodes) {
  size_t capacity = numNodes ? *numNodes : 0;
  musaError_t e = musaGraphNodeGetDependentNodes(node, nodes, numNodes);
  return e ? e : zeroEdgeData(edgeData, std::min(capacity, *numNodes));
}

} // extern "C"
