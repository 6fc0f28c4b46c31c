// Graph memory: allocation and free nodes and the per-device graph memory attributes.
#include "GraphTables.h"
#include "backend/Backend.h"

#include <cstring>

using namespace musa::rt;
using namespace musa::rt::graphs;

extern "C" {

musaError_t musaGraphAddMemAllocNode(musaGraphNode_t *node, musaGraph_t g,
                                     const musaGraphNode_t *deps, size_t numDeps,
                                     musaMemAllocNodeParams *p) {
  MUSA_BACKEND_HOOK(musaGraphAddMemAllocNode, node, g, deps, numDeps, p);
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
  MUSA_BACKEND_HOOK(musaGraphAddMemFreeNode, node, g, deps, numDeps, dptr);
  return apiCall([&] {
    auto where = Runtime::get().findDevicePointer(dptr);
    if (!where || where->range.base != dptr || where->range.tag != GraphAllocation)
      return musaErrorInvalidValue; // only graph allocations have free nodes
    return addNode(node, g, deps, numDeps, graph::NodeType::MemFree,
                   std::make_unique<MemFreeWork>(where->device, dptr));
  });
}

musaError_t musaDeviceGetGraphMemAttribute(int device, enum musaGraphMemAttributeType attr,
                                           void *value) {
  MUSA_BACKEND_HOOK(musaDeviceGetGraphMemAttribute, device, attr, value);
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
  MUSA_BACKEND_HOOK(musaDeviceSetGraphMemAttribute, device, attr, value);
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
  MUSA_BACKEND_HOOK(musaDeviceGraphMemTrim, device);
  return apiCall([&] {
    // Every reserved byte belongs to a live graph node (the pool caches nothing beyond
    // that), so there is nothing unused to give back.
    return Runtime::get().device(device) ? musaSuccess : musaErrorInvalidDevice;
  });
}

} // extern "C"
