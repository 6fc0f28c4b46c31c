// Executable graphs: instantiate, launch, upload, update, enable and destroy.
#include "GraphTables.h"
#include "backend/Backend.h"

#include <cstring>

using namespace musa::rt;
using namespace musa::rt::graphs;

extern "C" {

musaError_t musaGraphInstantiateWithFlags(musaGraphExec_t *exec, musaGraph_t g,
                                          unsigned long long flags) {
  MUSA_BACKEND_HOOK(musaGraphInstantiateWithFlags, exec, g, flags);
  return apiCall([&] {
    graph::Graph *graph = findGraph(g);
    constexpr unsigned long long known =
        musaGraphInstantiateFlagAutoFreeOnLaunch | musaGraphInstantiateFlagUpload |
        musaGraphInstantiateFlagDeviceLaunch | musaGraphInstantiateFlagUseNodePriority;
    if (!exec || !graph || (flags & ~known))
      return musaErrorInvalidValue;
    // DeviceLaunch: CUDA accepts graphs of kernel, memcpy and memset nodes only (and not with
    // AutoFreeOnLaunch); such an executable graph launches from the host as usual. Device code
    // cannot launch graphs here (no device-side musaGraphLaunch), so the flag changes nothing
    // else.
    if (flags & musaGraphInstantiateFlagDeviceLaunch) {
      if (flags & musaGraphInstantiateFlagAutoFreeOnLaunch)
        return musaErrorInvalidValue;
      for (auto &n : graph->nodes())
        if (n->type != graph::NodeType::Kernel && n->type != graph::NodeType::Memcpy &&
            n->type != graph::NodeType::Memset)
          return musaErrorInvalidValue; // as the H200 answers (tests/hardware/graph_corner_cases)
    }
    std::string error;
    std::shared_ptr<graph::GraphExec> e = graph::GraphExec::instantiate(*graph, error);
    if (!e)
      return musaErrorInvalidValue;
    *exec = reinterpret_cast<musaGraphExec_t>(graph::Registry::get().adoptExec(e, flags));
    return musaSuccess;
  });
}

musaError_t musaGraphInstantiate(musaGraphExec_t *exec, musaGraph_t g, unsigned long long flags) {
  MUSA_BACKEND_HOOK(musaGraphInstantiate, exec, g, flags);
  return musaGraphInstantiateWithFlags(exec, g, flags);
}

namespace {
/// Whether a graph has nodes that wait for the host program (host functions, external
/// semaphore waits), child graphs included.
bool waitsForHost(const graph::Graph &g) {
  for (const auto &node : g.nodes())
    if (node->type == graph::NodeType::Host || node->type == graph::NodeType::ExtSemaphoreWait ||
        (node->child && waitsForHost(*node->child)))
      return true;
  return false;
}
} // namespace

musaError_t musaGraphLaunch(musaGraphExec_t handle, musaStream_t streamHandle) {
  MUSA_BACKEND_HOOK(musaGraphLaunch, handle, streamHandle);
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
    unsigned long long flags = graph::Registry::get().execFlags(exec.get());
    // The parameters as they are now: later updates reach only later launches.
    std::shared_ptr<const graph::GraphExec::Snapshot> launch = exec->snapshot();
    for (const auto &step : launch->steps) {
      auto *alloc = dynamic_cast<MemAllocWork *>(step.work.get());
      if (!alloc || !stream->device->graphMemory.inUse(alloc->pointer()))
        continue;
      if (!(flags & musaGraphInstantiateFlagAutoFreeOnLaunch))
        return musaErrorInvalidValue;
      stream->device->graphMemory.setInUse(alloc->pointer(), false);
    }
    // The whole graph is one stream operation; it holds the exec, so an exec destroyed while
    // launches are pending finishes them first.
    GraphLaunchPriority priority{stream->priority,
                                 (flags & musaGraphInstantiateFlagUseNodePriority) != 0};
    stream->device->hostLaunchCall();
    std::function<void()> op = [exec, launch, priority] {
      setGraphLaunchPriority(priority);
      exec->run(*launch);
    };
    bool held = backend::mode() == backend::Mode::Diff && waitsForHost(exec->plan());
    stream->device->submit(*stream, held ? holdsForHost(*stream, op) : op);
    return musaSuccess;
  });
}

musaError_t musaGraphUpload(musaGraphExec_t handle, musaStream_t streamHandle) {
  MUSA_BACKEND_HOOK(musaGraphUpload, handle, streamHandle);
  return apiCall([&] {
    if (!findExec(handle))
      return musaErrorInvalidValue;
    // Instantiation already built everything a launch needs; the upload only orders.
    return Runtime::get().resolveStream(streamHandle) ? musaSuccess
                                                       : musaErrorInvalidResourceHandle;
  });
}

musaError_t musaGraphExecDestroy(musaGraphExec_t handle) {
  MUSA_BACKEND_HOOK(musaGraphExecDestroy, handle);
  return apiCall([&] {
    return graph::Registry::get().destroyExec(handle) ? musaSuccess : musaErrorInvalidValue;
  });
}

/// Only kernel, memcpy and memset nodes can be disabled, as in CUDA.
static bool canDisable(const musa::graph::Node &node) {
  using musa::graph::NodeType;
  return node.type == NodeType::Kernel || node.type == NodeType::Memcpy ||
         node.type == NodeType::Memset;
}

musaError_t musaGraphNodeSetEnabled(musaGraphExec_t handle, musaGraphNode_t node,
                                    unsigned int isEnabled) {
  MUSA_BACKEND_HOOK(musaGraphNodeSetEnabled, handle, node, isEnabled);
  return apiCall([&] {
    auto exec = findExec(handle);
    graph::Node *copy = execNode(exec, node);
    if (!copy || !canDisable(*copy))
      return musaErrorInvalidValue;
    exec->modifyNode(copy, [&](graph::Node &n) { n.enabled = isEnabled != 0; });
    return musaSuccess;
  });
}

musaError_t musaGraphNodeGetEnabled(musaGraphExec_t handle, musaGraphNode_t node,
                                    unsigned int *isEnabled) {
  MUSA_BACKEND_HOOK(musaGraphNodeGetEnabled, handle, node, isEnabled);
  return apiCall([&] {
    auto exec = findExec(handle);
    graph::Node *copy = execNode(exec, node);
    if (!copy || !isEnabled || !canDisable(*copy))
      return musaErrorInvalidValue;
    *isEnabled = copy->enabled;
    return musaSuccess;
  });
}

musaError_t musaGraphInstantiateWithParams(musaGraphExec_t *exec, musaGraph_t g,
                                           musaGraphInstantiateParams *params) {
  MUSA_BACKEND_HOOK(musaGraphInstantiateWithParams, exec, g, params);
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
  MUSA_BACKEND_HOOK(musaGraphExecUpdate, handle, g, info);
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
    musaError_t result = musaSuccess;
    exec->modify([&](graph::Graph &plan) {
      graph::UpdateCheck check = graph::checkUpdate(plan, *graph);
      if (check.result == graph::UpdateResult::Success) {
        graph::takeWork(plan, *graph);
        return;
      }
      static const musaGraphExecUpdateResult codes[] = {
          musaGraphExecUpdateSuccess,
          musaGraphExecUpdateErrorTopologyChanged,
          musaGraphExecUpdateErrorNodeTypeChanged,
          musaGraphExecUpdateErrorFunctionChanged,
          musaGraphExecUpdateErrorParametersChanged,
          musaGraphExecUpdateErrorAttributesChanged,
          musaGraphExecUpdateErrorNotSupported};
      *info = {codes[int(check.result)],
               reinterpret_cast<musaGraphNode_t>(const_cast<graph::Node *>(check.node)),
               reinterpret_cast<musaGraphNode_t>(const_cast<graph::Node *>(check.from))};
      result = musaErrorGraphExecUpdateFailure;
    });
    return result;
  });
}

} // extern "C"
