// Node parameters: get and set for each node type, in graphs and in executable graphs.
#include "GraphTables.h"
#include "backend/Backend.h"

#include <cstring>

using namespace musa::rt;
using namespace musa::rt::graphs;

// Copies the parameters of a node whose work is a W into *out.
template <typename W, typename P> static musaError_t workParams(musaGraphNode_t handle, P *out) {
  graph::Node *n = findNode(handle);
  auto *work = n ? dynamic_cast<W *>(n->work.get()) : nullptr;
  if (!work || !out)
    return musaErrorInvalidValue;
  *out = work->params();
  return musaSuccess;
}

// Replaces the work of a node of the given type with what make builds from p.
template <typename P, typename Make>
static musaError_t replaceWork(musaGraphNode_t handle, graph::NodeType type, const P *p,
                               Make make) {
  graph::Node *n = findNode(handle);
  if (!n || n->type != type)
    return musaErrorInvalidValue;
  std::unique_ptr<graph::NodeWork> work;
  if (musaError_t e = make(p, work))
    return e;
  n->work = std::move(work);
  return musaSuccess;
}

// The same for the node of an executable graph (setExecWork checks the node and its type).
template <typename P, typename Make>
static musaError_t replaceExecWork(musaGraphExec_t exec, musaGraphNode_t node,
                                   graph::NodeType type, const P *p, Make make) {
  std::unique_ptr<graph::NodeWork> work;
  if (musaError_t e = make(p, work))
    return e;
  return setExecWork(exec, node, type, std::move(work));
}

extern "C" {

musaError_t musaGraphKernelNodeGetParams(musaGraphNode_t handle, musaKernelNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphKernelNodeGetParams, handle, p);
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
  MUSA_BACKEND_HOOK(musaGraphKernelNodeSetParams, handle, p);
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
  if (!value) // before a backend forwards it: CUDA crashes on a null attribute value
    return recordError(musaErrorInvalidValue);
  MUSA_BACKEND_HOOK(musaGraphKernelNodeSetAttribute, handle, attr, value);
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::Kernel || !value)
      return musaErrorInvalidValue;
    if (attr != musaLaunchAttributePriority && attr != musaLaunchAttributeAccessPolicyWindow)
      return musaErrorNotSupported;
    if (attr == musaLaunchAttributeAccessPolicyWindow &&
        !validAccessPolicyWindow(value->accessPolicyWindow))
      return musaErrorInvalidValue;
    auto launch = std::make_shared<PreparedLaunch>(static_cast<KernelWork &>(*n->work).launch());
    if (attr == musaLaunchAttributePriority)
      launch->nodePriority = value->priority;
    else
      launch->accessPolicyWindow = value->accessPolicyWindow;
    n->work = std::make_unique<KernelWork>(launch);
    return musaSuccess;
  });
}

musaError_t musaGraphKernelNodeGetAttribute(musaGraphNode_t handle, musaKernelNodeAttrID attr,
                                            musaKernelNodeAttrValue *value) {
  if (!value) // before a backend forwards it: CUDA crashes on a null attribute value
    return recordError(musaErrorInvalidValue);
  MUSA_BACKEND_HOOK(musaGraphKernelNodeGetAttribute, handle, attr, value);
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::Kernel || !value)
      return musaErrorInvalidValue;
    if (attr != musaLaunchAttributePriority && attr != musaLaunchAttributeAccessPolicyWindow)
      return musaErrorNotSupported;
    const PreparedLaunch &launch = static_cast<KernelWork &>(*n->work).launch();
    std::memset(value, 0, sizeof *value);
    if (attr == musaLaunchAttributePriority)
      value->priority = launch.nodePriority;
    else
      value->accessPolicyWindow = launch.accessPolicyWindow;
    return musaSuccess;
  });
}

musaError_t musaGraphExecChildGraphNodeSetParams(musaGraphExec_t handle, musaGraphNode_t node,
                                                 musaGraph_t child) {
  MUSA_BACKEND_HOOK(musaGraphExecChildGraphNodeSetParams, handle, node, child);
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
    exec->replaceChild(copy, *next);
    return musaSuccess;
  });
}

musaError_t musaGraphExecKernelNodeSetParams(musaGraphExec_t handle, musaGraphNode_t node,
                                             const musaKernelNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphExecKernelNodeSetParams, handle, node, p);
  return apiCall([&] {
    auto exec = findExec(handle);
    graph::Node *copy = execNode(exec, node);
    if (!copy || copy->type != graph::NodeType::Kernel)
      return musaErrorInvalidValue;
    std::shared_ptr<PreparedLaunch> launch;
    if (musaError_t e = prepareKernelNode(p, launch))
      return e;
    if (launch->func != static_cast<KernelWork &>(*copy->work).launch().func)
      return musaErrorInvalidValue; // an executable graph's kernel node keeps its function
    exec->modifyNode(copy, [&](graph::Node &n) { n.work = std::make_shared<KernelWork>(launch); });
    return musaSuccess;
  });
}

musaError_t musaGraphExecMemcpyNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                             const musaMemcpy3DParms *p) {
  MUSA_BACKEND_HOOK(musaGraphExecMemcpyNodeSetParams, exec, node, p);
  return apiCall(
      [&] { return replaceExecWork(exec, node, graph::NodeType::Memcpy, p, makeMemcpyWork); });
}

musaError_t musaGraphExecMemsetNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                             const musaMemsetParams *p) {
  MUSA_BACKEND_HOOK(musaGraphExecMemsetNodeSetParams, exec, node, p);
  return apiCall(
      [&] { return replaceExecWork(exec, node, graph::NodeType::Memset, p, makeMemsetWork); });
}

musaError_t musaGraphExecHostNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                           const musaHostNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphExecHostNodeSetParams, exec, node, p);
  return apiCall([&] {
    if (!p || !p->fn)
      return musaErrorInvalidValue;
    return setExecWork(exec, node, graph::NodeType::Host,
                       std::make_unique<HostWork>(p->fn, p->userData));
  });
}

musaError_t musaGraphMemcpyNodeGetParams(musaGraphNode_t handle, musaMemcpy3DParms *p) {
  MUSA_BACKEND_HOOK(musaGraphMemcpyNodeGetParams, handle, p);
  return apiCall([&] { return workParams<MemcpyWork>(handle, p); });
}

musaError_t musaGraphMemcpyNodeSetParams(musaGraphNode_t handle, const musaMemcpy3DParms *p) {
  MUSA_BACKEND_HOOK(musaGraphMemcpyNodeSetParams, handle, p);
  return apiCall([&] { return replaceWork(handle, graph::NodeType::Memcpy, p, makeMemcpyWork); });
}

musaError_t musaGraphMemsetNodeGetParams(musaGraphNode_t handle, musaMemsetParams *p) {
  MUSA_BACKEND_HOOK(musaGraphMemsetNodeGetParams, handle, p);
  return apiCall([&] { return workParams<MemsetWork>(handle, p); });
}

musaError_t musaGraphMemsetNodeSetParams(musaGraphNode_t handle, const musaMemsetParams *p) {
  MUSA_BACKEND_HOOK(musaGraphMemsetNodeSetParams, handle, p);
  return apiCall([&] { return replaceWork(handle, graph::NodeType::Memset, p, makeMemsetWork); });
}

musaError_t musaGraphHostNodeGetParams(musaGraphNode_t handle, musaHostNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphHostNodeGetParams, handle, p);
  return apiCall([&] { return workParams<HostWork>(handle, p); });
}

musaError_t musaGraphHostNodeSetParams(musaGraphNode_t handle, const musaHostNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphHostNodeSetParams, handle, p);
  return apiCall([&] {
    return replaceWork(handle, graph::NodeType::Host, p,
                       [](const musaHostNodeParams *hp, std::unique_ptr<graph::NodeWork> &work) {
                         if (!hp || !hp->fn)
                           return musaErrorInvalidValue;
                         work = std::make_unique<HostWork>(hp->fn, hp->userData);
                         return musaSuccess;
                       });
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
  MUSA_BACKEND_HOOK(musaGraphEventRecordNodeGetEvent, node, event);
  return apiCall([&] { return eventOfNode(node, graph::NodeType::EventRecord, event); });
}
musaError_t musaGraphEventRecordNodeSetEvent(musaGraphNode_t node, musaEvent_t event) {
  MUSA_BACKEND_HOOK(musaGraphEventRecordNodeSetEvent, node, event);
  return apiCall([&] { return setEventOfNode(node, graph::NodeType::EventRecord, event); });
}
musaError_t musaGraphEventWaitNodeGetEvent(musaGraphNode_t node, musaEvent_t *event) {
  MUSA_BACKEND_HOOK(musaGraphEventWaitNodeGetEvent, node, event);
  return apiCall([&] { return eventOfNode(node, graph::NodeType::EventWait, event); });
}
musaError_t musaGraphEventWaitNodeSetEvent(musaGraphNode_t node, musaEvent_t event) {
  MUSA_BACKEND_HOOK(musaGraphEventWaitNodeSetEvent, node, event);
  return apiCall([&] { return setEventOfNode(node, graph::NodeType::EventWait, event); });
}

musaError_t musaGraphExecEventRecordNodeSetEvent(musaGraphExec_t exec, musaGraphNode_t node,
                                                 musaEvent_t event) {
  MUSA_BACKEND_HOOK(musaGraphExecEventRecordNodeSetEvent, exec, node, event);
  return apiCall([&] {
    if (!Runtime::get().resolveEvent(event))
      return musaErrorInvalidResourceHandle;
    return setExecWork(exec, node, graph::NodeType::EventRecord,
                       std::make_unique<EventWork>(event, true));
  });
}

musaError_t musaGraphExecEventWaitNodeSetEvent(musaGraphExec_t exec, musaGraphNode_t node,
                                               musaEvent_t event) {
  MUSA_BACKEND_HOOK(musaGraphExecEventWaitNodeSetEvent, exec, node, event);
  return apiCall([&] {
    if (!Runtime::get().resolveEvent(event))
      return musaErrorInvalidResourceHandle;
    return setExecWork(exec, node, graph::NodeType::EventWait,
                       std::make_unique<EventWork>(event, false));
  });
}

musaError_t musaGraphChildGraphNodeGetGraph(musaGraphNode_t handle, musaGraph_t *out) {
  MUSA_BACKEND_HOOK(musaGraphChildGraphNodeGetGraph, handle, out);
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    if (!n || n->type != graph::NodeType::ChildGraph || !out)
      return musaErrorInvalidValue;
    *out = reinterpret_cast<musaGraph_t>(n->child.get());
    return musaSuccess;
  });
}

musaError_t musaGraphMemAllocNodeGetParams(musaGraphNode_t handle, musaMemAllocNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphMemAllocNodeGetParams, handle, p);
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
  MUSA_BACKEND_HOOK(musaGraphMemFreeNodeGetParams, handle, dptr);
  return apiCall([&] {
    graph::Node *n = findNode(handle);
    auto *work = n ? dynamic_cast<MemFreeWork *>(n->work.get()) : nullptr;
    if (!work || !dptr)
      return musaErrorInvalidValue;
    *static_cast<void **>(dptr) = work->pointer();
    return musaSuccess;
  });
}

// The generic forms pass each type's parameters to its own call; a node of another type than
// the parameters say is InvalidValue, as CUDA answers.
musaError_t musaGraphNodeSetParams(musaGraphNode_t node, musaGraphNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphNodeSetParams, node, p);
  musaGraphNodeType type;
  if (!p || musaGraphNodeGetType(node, &type) != musaSuccess || type != p->type)
    return recordError(musaErrorInvalidValue);
  switch (p->type) {
  case musaGraphNodeTypeKernel:
    return musaGraphKernelNodeSetParams(node, &p->kernel);
  case musaGraphNodeTypeMemcpy:
    return musaGraphMemcpyNodeSetParams(node, &p->memcpy.copyParams);
  case musaGraphNodeTypeMemset:
    return musaGraphMemsetNodeSetParams(node, &p->memset);
  case musaGraphNodeTypeHost:
    return musaGraphHostNodeSetParams(node, &p->host);
  case musaGraphNodeTypeEventRecord:
    return musaGraphEventRecordNodeSetEvent(node, p->eventRecord.event);
  case musaGraphNodeTypeEventWait:
    return musaGraphEventWaitNodeSetEvent(node, p->eventWait.event);
  case musaGraphNodeTypeExtSemasSignal:
    return musaGraphExternalSemaphoresSignalNodeSetParams(node, &p->extSemSignal);
  case musaGraphNodeTypeExtSemasWait:
    return musaGraphExternalSemaphoresWaitNodeSetParams(node, &p->extSemWait);
  case musaGraphNodeTypeEmpty:
    return musaSuccess; // nothing to set
  default: // child graphs, memory nodes and conditionals have no parameters to change here
    return recordError(musaErrorNotSupported);
  }
}

musaError_t musaGraphExecNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                       musaGraphNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphExecNodeSetParams, exec, node, p);
  musaGraphNodeType type;
  if (!p || musaGraphNodeGetType(node, &type) != musaSuccess || type != p->type)
    return recordError(musaErrorInvalidValue);
  switch (p->type) {
  case musaGraphNodeTypeKernel:
    return musaGraphExecKernelNodeSetParams(exec, node, &p->kernel);
  case musaGraphNodeTypeMemcpy:
    return musaGraphExecMemcpyNodeSetParams(exec, node, &p->memcpy.copyParams);
  case musaGraphNodeTypeMemset:
    return musaGraphExecMemsetNodeSetParams(exec, node, &p->memset);
  case musaGraphNodeTypeHost:
    return musaGraphExecHostNodeSetParams(exec, node, &p->host);
  case musaGraphNodeTypeChildGraph:
    return musaGraphExecChildGraphNodeSetParams(exec, node, p->graph.graph);
  case musaGraphNodeTypeEventRecord:
    return musaGraphExecEventRecordNodeSetEvent(exec, node, p->eventRecord.event);
  case musaGraphNodeTypeEventWait:
    return musaGraphExecEventWaitNodeSetEvent(exec, node, p->eventWait.event);
  case musaGraphNodeTypeExtSemasSignal:
    return musaGraphExecExternalSemaphoresSignalNodeSetParams(exec, node, &p->extSemSignal);
  case musaGraphNodeTypeExtSemasWait:
    return musaGraphExecExternalSemaphoresWaitNodeSetParams(exec, node, &p->extSemWait);
  case musaGraphNodeTypeEmpty:
    return findExec(exec) ? musaSuccess : recordError(musaErrorInvalidValue);
  default:
    return recordError(musaErrorNotSupported);
  }
}

musaError_t musaGraphExecGetFlags(musaGraphExec_t handle, unsigned long long *flags) {
  MUSA_BACKEND_HOOK(musaGraphExecGetFlags, handle, flags);
  return apiCall([&] {
    std::shared_ptr<graph::GraphExec> exec = findExec(handle);
    if (!exec || !flags)
      return musaErrorInvalidValue;
    *flags = graph::Registry::get().execFlags(exec.get());
    return musaSuccess;
  });
}

musaError_t musaGraphKernelNodeCopyAttributes(musaGraphNode_t dst, musaGraphNode_t src) {
  MUSA_BACKEND_HOOK(musaGraphKernelNodeCopyAttributes, dst, src);
  return apiCall([&] {
    graph::Node *to = findNode(dst), *from = findNode(src);
    if (!to || !from || to->type != graph::NodeType::Kernel ||
        from->type != graph::NodeType::Kernel)
      return musaErrorInvalidValue;
    const PreparedLaunch &source = static_cast<KernelWork &>(*from->work).launch();
    auto launch = std::make_shared<PreparedLaunch>(static_cast<KernelWork &>(*to->work).launch());
    launch->nodePriority = source.nodePriority;
    launch->accessPolicyWindow = source.accessPolicyWindow;
    to->work = std::make_unique<KernelWork>(launch);
    return musaSuccess;
  });
}

} // extern "C"
