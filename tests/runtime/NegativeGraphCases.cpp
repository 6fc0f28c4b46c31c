// Negative cases: graphs, their nodes, executable graphs and node parameters.
#include "NegativeApiCases.h"

namespace negative {

namespace {
using Adder = musaError_t (*)(Ctx &, musaGraphNode_t *, musaGraph_t, const musaGraphNode_t *,
                              size_t);

musaMemsetParams memsetParams(Ctx &c) {
  musaMemsetParams p = {};
  p.dst = c.d;
  p.pitch = 0;
  p.value = 0;
  p.elementSize = 1;
  p.width = 64;
  p.height = 1;
  return p;
}

musaMemcpy3DParms copyParams(Ctx &c) {
  musaMemcpy3DParms p = {};
  p.srcPtr = make_musaPitchedPtr(c.host, 64, 64, 1);
  p.dstPtr = make_musaPitchedPtr(c.d, 64, 64, 1);
  p.extent = make_musaExtent(64, 1, 1);
  p.kind = musaMemcpyHostToDevice;
  return p;
}

musaMemAllocNodeParams allocParams() {
  musaMemAllocNodeParams p = {};
  p.poolProps.allocType = musaMemAllocationTypePinned;
  p.poolProps.location.type = musaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  p.bytesize = 1024;
  return p;
}

struct NamedAdder {
  const char *api;
  Adder add;
};
const NamedAdder Adders[] = {
    {"musaGraphAddEmptyNode",
     [](Ctx &, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       return musaGraphAddEmptyNode(o, g, d, n);
     }},
    {"musaGraphAddHostNode",
     [](Ctx &, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       musaHostNodeParams p = {&Ctx::noop, nullptr};
       return musaGraphAddHostNode(o, g, d, n, &p);
     }},
    {"musaGraphAddMemcpyNode",
     [](Ctx &c, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       musaMemcpy3DParms p = copyParams(c);
       return musaGraphAddMemcpyNode(o, g, d, n, &p);
     }},
    {"musaGraphAddMemcpyNode1D",
     [](Ctx &c, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       return musaGraphAddMemcpyNode1D(o, g, d, n, c.d, c.host, 64, musaMemcpyHostToDevice);
     }},
    {"musaGraphAddMemsetNode",
     [](Ctx &c, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       musaMemsetParams p = memsetParams(c);
       return musaGraphAddMemsetNode(o, g, d, n, &p);
     }},
    {"musaGraphAddChildGraphNode",
     [](Ctx &c, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       return musaGraphAddChildGraphNode(o, g, d, n, c.other);
     }},
    {"musaGraphAddEventRecordNode",
     [](Ctx &c, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       return musaGraphAddEventRecordNode(o, g, d, n, c.e);
     }},
    {"musaGraphAddEventWaitNode",
     [](Ctx &c, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       return musaGraphAddEventWaitNode(o, g, d, n, c.e);
     }},
    {"musaGraphAddMemAllocNode",
     [](Ctx &, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       musaMemAllocNodeParams p = allocParams();
       return musaGraphAddMemAllocNode(o, g, d, n, &p);
     }},
    {"musaGraphAddNode",
     [](Ctx &, musaGraphNode_t *o, musaGraph_t g, const musaGraphNode_t *d, size_t n) {
       musaGraphNodeParams p = {};
       p.type = musaGraphNodeTypeEmpty;
       return musaGraphAddNode(o, g, d, n, &p);
     }},
};
} // namespace

void addGraphCases() {
  constexpr musaError_t V = musaErrorInvalidValue;
  NEG(musaGraphCreate, "nullGraph", V, musaGraphCreate(nullptr, 0));
  for (unsigned flags : {1u, 0x80u})
    NEG(musaGraphCreate, "badFlags" + std::to_string(flags), V, [&] {
      musaGraph_t g;
      return musaGraphCreate(&g, flags);
    }());

  // Every add-node call, with each bad handle or dependency list.
  for (const NamedAdder &a : Adders) {
    Adder f = a.add;
    add(a.api, "nullNodeOut", V, [f](Ctx &c) { return f(c, nullptr, c.g, nullptr, 0); });
    add(a.api, "nullGraph", V, [f](Ctx &c) {
      musaGraphNode_t o;
      return f(c, &o, nullptr, nullptr, 0);
    });
    add(a.api, "destroyedGraph", V, [f](Ctx &c) {
      musaGraphNode_t o;
      return f(c, &o, c.deadGraph, nullptr, 0);
    });
    add(a.api, "foreignGraph", V, [f](Ctx &c) {
      musaGraphNode_t o;
      return f(c, &o, foreign<musaGraph_t>(), nullptr, 0);
    });
    add(a.api, "nullDepsWithCount", V, [f](Ctx &c) {
      musaGraphNode_t o;
      return f(c, &o, c.g, nullptr, 1);
    });
    add(a.api, "depOfAnotherGraph", V, [f](Ctx &c) {
      musaGraphNode_t o;
      return f(c, &o, c.g, &c.otherNode, 1);
    });
    add(a.api, "duplicateDep", V, [f](Ctx &c) {
      musaGraphNode_t o, deps[2] = {c.n, c.n};
      return f(c, &o, c.g, deps, 2);
    });
    add(a.api, "nullDepEntry", V, [f](Ctx &c) {
      musaGraphNode_t o, deps[2] = {c.n, nullptr};
      return f(c, &o, c.g, deps, 2);
    });
  }
  // Each add call's own parameters.
  NEG(musaGraphAddKernelNode, "nullParams", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddKernelNode(&o, c.g, nullptr, 0, nullptr);
  }());
  NEG(musaGraphAddKernelNode, "nullNodeOut", V, [&] {
    musaKernelNodeParams p = {};
    p.func = c.host;
    p.gridDim = dim3(1);
    p.blockDim = dim3(32);
    return musaGraphAddKernelNode(nullptr, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddKernelNode, "notAKernel", musaErrorInvalidDeviceFunction, [&] {
    musaGraphNode_t o;
    musaKernelNodeParams p = {};
    p.func = c.host;
    p.gridDim = dim3(1);
    p.blockDim = dim3(32);
    return musaGraphAddKernelNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddHostNode, "nullParams", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddHostNode(&o, c.g, nullptr, 0, nullptr);
  }());
  NEG(musaGraphAddHostNode, "nullFn", V, [&] {
    musaGraphNode_t o;
    musaHostNodeParams p = {nullptr, nullptr};
    return musaGraphAddHostNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddMemcpyNode, "nullParams", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemcpyNode(&o, c.g, nullptr, 0, nullptr);
  }());
  NEG(musaGraphAddMemcpyNode, "badKind", musaErrorInvalidMemcpyDirection, [&] {
    musaGraphNode_t o;
    musaMemcpy3DParms p = copyParams(c);
    p.kind = musaMemcpyKind(9);
    return musaGraphAddMemcpyNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddMemcpyNode, "nullDstPtr", V, [&] {
    musaGraphNode_t o;
    musaMemcpy3DParms p = copyParams(c);
    p.dstPtr.ptr = nullptr;
    return musaGraphAddMemcpyNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddMemcpyNode1D, "nullDst", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemcpyNode1D(&o, c.g, nullptr, 0, nullptr, c.host, 64,
                                    musaMemcpyHostToDevice);
  }());
  NEG(musaGraphAddMemcpyNode1D, "nullSrc", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemcpyNode1D(&o, c.g, nullptr, 0, c.d, nullptr, 64,
                                    musaMemcpyHostToDevice);
  }());
  NEG(musaGraphAddMemcpyNode1D, "badKind", musaErrorInvalidMemcpyDirection, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemcpyNode1D(&o, c.g, nullptr, 0, c.d, c.host, 64, musaMemcpyKind(8));
  }());
  NEG(musaGraphAddMemcpyNode1D, "countBeyondAllocation", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemcpyNode1D(&o, c.g, nullptr, 0, c.d, c.host, 2 * Ctx::Bytes,
                                    musaMemcpyHostToDevice);
  }());
  NEG(musaGraphAddMemsetNode, "nullParams", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemsetNode(&o, c.g, nullptr, 0, nullptr);
  }());
  for (unsigned size : {0u, 3u, 8u})
    NEG(musaGraphAddMemsetNode, "elementSize" + std::to_string(size), V, [&] {
      musaGraphNode_t o;
      musaMemsetParams p = memsetParams(c);
      p.elementSize = size;
      return musaGraphAddMemsetNode(&o, c.g, nullptr, 0, &p);
    }());
  NEG(musaGraphAddMemsetNode, "nullDst", V, [&] {
    musaGraphNode_t o;
    musaMemsetParams p = memsetParams(c);
    p.dst = nullptr;
    return musaGraphAddMemsetNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddMemsetNode, "pitchBelowWidth", V, [&] {
    musaGraphNode_t o;
    musaMemsetParams p = memsetParams(c);
    p.height = 2;
    p.pitch = 16;
    return musaGraphAddMemsetNode(&o, c.g, nullptr, 0, &p);
  }()).divergence = "a memset node with pitch < width gives InvalidPitchValue; "
                    "cudaGraphAddMemsetNode documents InvalidValue";
  NEG(musaGraphAddChildGraphNode, "nullChild", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddChildGraphNode(&o, c.g, nullptr, 0, nullptr);
  }());
  NEG(musaGraphAddChildGraphNode, "destroyedChild", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddChildGraphNode(&o, c.g, nullptr, 0, c.deadGraph);
  }());
  NEG(musaGraphAddChildGraphNode, "itself", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddChildGraphNode(&o, c.g, nullptr, 0, c.g);
  }());
  for (const char *which : {"Record", "Wait"}) {
    bool record = which[0] == 'R';
    auto addEvent = [record](Ctx &c, musaEvent_t ev) {
      musaGraphNode_t o;
      return record ? musaGraphAddEventRecordNode(&o, c.g, nullptr, 0, ev)
                    : musaGraphAddEventWaitNode(&o, c.g, nullptr, 0, ev);
    };
    std::string api = std::string("musaGraphAddEvent") + which + "Node";
    add(api.c_str(), "destroyedEvent", musaErrorInvalidResourceHandle,
        [=](Ctx &c) { return addEvent(c, c.deadEvent); });
    add(api.c_str(), "foreignEvent", musaErrorInvalidResourceHandle,
        [=](Ctx &c) { return addEvent(c, foreign<musaEvent_t>()); });
    add(api.c_str(), "nullEvent", musaErrorInvalidResourceHandle,
        [=](Ctx &c) { return addEvent(c, nullptr); });
  }
  NEG(musaGraphAddMemAllocNode, "nullParams", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemAllocNode(&o, c.g, nullptr, 0, nullptr);
  }());
  NEG(musaGraphAddMemAllocNode, "zeroSize", V, [&] {
    musaGraphNode_t o;
    musaMemAllocNodeParams p = allocParams();
    p.bytesize = 0;
    return musaGraphAddMemAllocNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddMemAllocNode, "badLocationType", V, [&] {
    musaGraphNode_t o;
    musaMemAllocNodeParams p = allocParams();
    p.poolProps.location.type = musaMemLocationTypeInvalid;
    return musaGraphAddMemAllocNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddMemAllocNode, "badLocationDevice", musaErrorInvalidDevice, [&] {
    musaGraphNode_t o;
    musaMemAllocNodeParams p = allocParams();
    p.poolProps.location.id = 1000;
    return musaGraphAddMemAllocNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddMemAllocNode, "badAllocType", V, [&] {
    musaGraphNode_t o;
    musaMemAllocNodeParams p = allocParams();
    p.poolProps.allocType = musaMemAllocationTypeInvalid;
    return musaGraphAddMemAllocNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddMemAllocNode, "nullAccessDescsWithCount", V, [&] {
    musaGraphNode_t o;
    musaMemAllocNodeParams p = allocParams();
    p.accessDescCount = 1;
    return musaGraphAddMemAllocNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddMemFreeNode, "nullDptr", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemFreeNode(&o, c.g, nullptr, 0, nullptr);
  }());
  NEG(musaGraphAddMemFreeNode, "notAGraphAllocation", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemFreeNode(&o, c.g, nullptr, 0, c.host);
  }());
  NEG(musaGraphAddMemFreeNode, "nullGraph", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddMemFreeNode(&o, nullptr, nullptr, 0, c.d);
  }());
  NEG(musaGraphAddNode, "nullParams", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddNode(&o, c.g, nullptr, 0, nullptr);
  }());
  for (int type : {99, -1})
    NEG(musaGraphAddNode, "badType" + std::to_string(type), V, [&] {
      musaGraphNode_t o;
      musaGraphNodeParams p = {};
      p.type = musaGraphNodeType(type);
      return musaGraphAddNode(&o, c.g, nullptr, 0, &p);
    }());

  // edges
  NEG(musaGraphAddDependencies, "nullGraph", V, musaGraphAddDependencies(nullptr, &c.n, &c.hostNode, 1));
  NEG(musaGraphAddDependencies, "nullFrom", V, musaGraphAddDependencies(c.g, nullptr, &c.hostNode, 1));
  NEG(musaGraphAddDependencies, "nullTo", V, musaGraphAddDependencies(c.g, &c.n, nullptr, 1));
  NEG(musaGraphAddDependencies, "fromOfAnotherGraph", V,
      musaGraphAddDependencies(c.g, &c.otherNode, &c.hostNode, 1));
  NEG(musaGraphAddDependencies, "toOfAnotherGraph", V,
      musaGraphAddDependencies(c.g, &c.n, &c.otherNode, 1));
  NEG(musaGraphAddDependencies, "selfEdge", V, musaGraphAddDependencies(c.g, &c.n, &c.n, 1));
  NEG(musaGraphAddDependencies, "existingEdge", V, musaGraphAddDependencies(c.g, &c.n, &c.n1, 1));
  NEG(musaGraphAddDependencies, "destroyedGraph", V,
      musaGraphAddDependencies(c.deadGraph, &c.n, &c.hostNode, 1));
  NEG(musaGraphRemoveDependencies, "missingEdge", V,
      musaGraphRemoveDependencies(c.g, &c.n, &c.hostNode, 1));
  NEG(musaGraphRemoveDependencies, "reversedEdge", V,
      musaGraphRemoveDependencies(c.g, &c.n1, &c.n, 1));
  NEG(musaGraphRemoveDependencies, "nullGraph", V,
      musaGraphRemoveDependencies(nullptr, &c.n, &c.n1, 1));
  NEG(musaGraphRemoveDependencies, "nullFrom", V,
      musaGraphRemoveDependencies(c.g, nullptr, &c.n1, 1));
  NEG(musaGraphRemoveDependencies, "nullTo", V, musaGraphRemoveDependencies(c.g, &c.n, nullptr, 1));
  NEG(musaGraphRemoveDependencies, "nodeOfAnotherGraph", V,
      musaGraphRemoveDependencies(c.g, &c.otherNode, &c.n1, 1));
  musaGraphEdgeData odd = {};
  odd.type = 1;
  NEG(musaGraphAddDependencies_v2, "nonDefaultEdgeData", musaErrorNotSupported,
      musaGraphAddDependencies_v2(c.g, &c.n, &c.hostNode, &odd, 1));
  NEG(musaGraphAddDependencies_v2, "nullGraph", V,
      musaGraphAddDependencies_v2(nullptr, &c.n, &c.hostNode, nullptr, 1));
  NEG(musaGraphRemoveDependencies_v2, "missingEdge", V,
      musaGraphRemoveDependencies_v2(c.g, &c.n, &c.hostNode, nullptr, 1));

  // queries
  NEG(musaGraphGetNodes, "nullCount", V, musaGraphGetNodes(c.g, nullptr, nullptr));
  NEG(musaGraphGetNodes, "nullGraph", V, [&] {
    size_t k;
    return musaGraphGetNodes(nullptr, nullptr, &k);
  }());
  NEG(musaGraphGetNodes, "destroyedGraph", V, [&] {
    size_t k;
    return musaGraphGetNodes(c.deadGraph, nullptr, &k);
  }());
  NEG(musaGraphGetRootNodes, "nullCount", V, musaGraphGetRootNodes(c.g, nullptr, nullptr));
  NEG(musaGraphGetRootNodes, "nullGraph", V, [&] {
    size_t k;
    return musaGraphGetRootNodes(nullptr, nullptr, &k);
  }());
  NEG(musaGraphGetEdges, "nullCount", V, musaGraphGetEdges(c.g, nullptr, nullptr, nullptr));
  NEG(musaGraphGetEdges, "nullGraph", V, [&] {
    size_t k;
    return musaGraphGetEdges(nullptr, nullptr, nullptr, &k);
  }());
  NEG(musaGraphGetEdges, "fromWithoutTo", V, [&] {
    size_t k = 4;
    musaGraphNode_t from[4];
    return musaGraphGetEdges(c.g, from, nullptr, &k);
  }());
  NEG(musaGraphGetEdges, "toWithoutFrom", V, [&] {
    size_t k = 4;
    musaGraphNode_t to[4];
    return musaGraphGetEdges(c.g, nullptr, to, &k);
  }());
  NEG(musaGraphGetEdges_v2, "nullCount", V,
      musaGraphGetEdges_v2(c.g, nullptr, nullptr, nullptr, nullptr));

  // Calls taking a node, with each bad node handle.
  struct BadNode {
    const char *name;
    musaGraphNode_t (*get)(Ctx &);
  };
  const BadNode badNodes[] = {
      {"nullNode", [](Ctx &) { return musaGraphNode_t(nullptr); }},
      {"foreignNode", [](Ctx &) { return foreign<musaGraphNode_t>(); }},
  };
  for (const BadNode &bn : badNodes) {
    std::string arg = bn.name;
    auto get = bn.get;
    NEG(musaGraphNodeGetType, arg, V, [&] {
      musaGraphNodeType t;
      return musaGraphNodeGetType(get(c), &t);
    }());
    NEG(musaGraphNodeGetDependencies, arg, V, [&] {
      size_t k;
      return musaGraphNodeGetDependencies(get(c), nullptr, &k);
    }());
    NEG(musaGraphNodeGetDependentNodes, arg, V, [&] {
      size_t k;
      return musaGraphNodeGetDependentNodes(get(c), nullptr, &k);
    }());
    NEG(musaGraphNodeGetDependencies_v2, arg, V, [&] {
      size_t k;
      return musaGraphNodeGetDependencies_v2(get(c), nullptr, nullptr, &k);
    }());
    NEG(musaGraphNodeGetDependentNodes_v2, arg, V, [&] {
      size_t k;
      return musaGraphNodeGetDependentNodes_v2(get(c), nullptr, nullptr, &k);
    }());
    NEG(musaGraphKernelNodeGetParams, arg, V, [&] {
      musaKernelNodeParams p;
      return musaGraphKernelNodeGetParams(get(c), &p);
    }());
    NEG(musaGraphMemcpyNodeGetParams, arg, V, [&] {
      musaMemcpy3DParms p;
      return musaGraphMemcpyNodeGetParams(get(c), &p);
    }());
    NEG(musaGraphMemsetNodeGetParams, arg, V, [&] {
      musaMemsetParams p;
      return musaGraphMemsetNodeGetParams(get(c), &p);
    }());
    NEG(musaGraphHostNodeGetParams, arg, V, [&] {
      musaHostNodeParams p;
      return musaGraphHostNodeGetParams(get(c), &p);
    }());
    NEG(musaGraphHostNodeSetParams, arg, V, [&] {
      musaHostNodeParams p = {&Ctx::noop, nullptr};
      return musaGraphHostNodeSetParams(get(c), &p);
    }());
    NEG(musaGraphEventRecordNodeGetEvent, arg, V, [&] {
      musaEvent_t ev;
      return musaGraphEventRecordNodeGetEvent(get(c), &ev);
    }());
    NEG(musaGraphEventWaitNodeGetEvent, arg, V, [&] {
      musaEvent_t ev;
      return musaGraphEventWaitNodeGetEvent(get(c), &ev);
    }());
    NEG(musaGraphChildGraphNodeGetGraph, arg, V, [&] {
      musaGraph_t g;
      return musaGraphChildGraphNodeGetGraph(get(c), &g);
    }());
    NEG(musaGraphNodeFindInClone, arg + "_original", V, [&] {
      musaGraph_t clone;
      musaGraphNode_t found;
      if (musaGraphClone(&clone, c.g))
        return musaErrorUnknown;
      c.cleanups.push_back([clone] { musaGraphDestroy(clone); });
      return musaGraphNodeFindInClone(&found, get(c), clone);
    }());
    NEG(musaGraphNodeSetEnabled, arg, V, musaGraphNodeSetEnabled(c.exec, get(c), 0));
    NEG(musaGraphNodeGetEnabled, arg, V, [&] {
      unsigned on;
      return musaGraphNodeGetEnabled(c.exec, get(c), &on);
    }());
    NEG(musaGraphExecHostNodeSetParams, arg, V, [&] {
      musaHostNodeParams p = {&Ctx::noop, nullptr};
      return musaGraphExecHostNodeSetParams(c.exec, get(c), &p);
    }());
  }
  NEG(musaGraphNodeGetType, "nullType", V, musaGraphNodeGetType(c.n, nullptr));
  NEG(musaGraphNodeGetDependencies, "nullCount", V,
      musaGraphNodeGetDependencies(c.n, nullptr, nullptr));
  NEG(musaGraphNodeGetDependentNodes, "nullCount", V,
      musaGraphNodeGetDependentNodes(c.n, nullptr, nullptr));

  // Type-specific calls on a node of another type (an empty node), and null outputs.
  NEG(musaGraphKernelNodeGetParams, "emptyNode", V, [&] {
    musaKernelNodeParams p;
    return musaGraphKernelNodeGetParams(c.n, &p);
  }());
  NEG(musaGraphKernelNodeSetParams, "emptyNode", V, [&] {
    musaKernelNodeParams p = {};
    return musaGraphKernelNodeSetParams(c.n, &p);
  }());
  NEG(musaGraphKernelNodeSetParams, "nullParams", V, musaGraphKernelNodeSetParams(c.n, nullptr));
  NEG(musaGraphKernelNodeGetAttribute, "emptyNode", V, [&] {
    musaKernelNodeAttrValue v;
    return musaGraphKernelNodeGetAttribute(c.n, musaKernelNodeAttributePriority, &v);
  }());
  NEG(musaGraphKernelNodeSetAttribute, "emptyNode", V, [&] {
    musaKernelNodeAttrValue v = {};
    return musaGraphKernelNodeSetAttribute(c.n, musaKernelNodeAttributePriority, &v);
  }());
  NEG(musaGraphMemcpyNodeGetParams, "emptyNode", V, [&] {
    musaMemcpy3DParms p;
    return musaGraphMemcpyNodeGetParams(c.n, &p);
  }());
  NEG(musaGraphMemcpyNodeSetParams, "emptyNode", V, [&] {
    musaMemcpy3DParms p = copyParams(c);
    return musaGraphMemcpyNodeSetParams(c.n, &p);
  }());
  NEG(musaGraphMemcpyNodeSetParams, "nullParams", V, musaGraphMemcpyNodeSetParams(c.n, nullptr));
  NEG(musaGraphMemsetNodeGetParams, "emptyNode", V, [&] {
    musaMemsetParams p;
    return musaGraphMemsetNodeGetParams(c.n, &p);
  }());
  NEG(musaGraphMemsetNodeSetParams, "emptyNode", V, [&] {
    musaMemsetParams p = memsetParams(c);
    return musaGraphMemsetNodeSetParams(c.n, &p);
  }());
  NEG(musaGraphMemsetNodeSetParams, "nullParams", V, musaGraphMemsetNodeSetParams(c.n, nullptr));
  NEG(musaGraphHostNodeGetParams, "emptyNode", V, [&] {
    musaHostNodeParams p;
    return musaGraphHostNodeGetParams(c.n, &p);
  }());
  NEG(musaGraphHostNodeGetParams, "nullParams", V, musaGraphHostNodeGetParams(c.hostNode, nullptr));
  NEG(musaGraphHostNodeSetParams, "emptyNode", V, [&] {
    musaHostNodeParams p = {&Ctx::noop, nullptr};
    return musaGraphHostNodeSetParams(c.n, &p);
  }());
  NEG(musaGraphHostNodeSetParams, "nullParams", V, musaGraphHostNodeSetParams(c.hostNode, nullptr));
  NEG(musaGraphHostNodeSetParams, "nullFn", V, [&] {
    musaHostNodeParams p = {nullptr, nullptr};
    return musaGraphHostNodeSetParams(c.hostNode, &p);
  }());
  NEG(musaGraphEventRecordNodeGetEvent, "emptyNode", V, [&] {
    musaEvent_t ev;
    return musaGraphEventRecordNodeGetEvent(c.n, &ev);
  }());
  NEG(musaGraphEventRecordNodeSetEvent, "emptyNode", V,
      musaGraphEventRecordNodeSetEvent(c.n, c.e));
  NEG(musaGraphEventWaitNodeGetEvent, "emptyNode", V, [&] {
    musaEvent_t ev;
    return musaGraphEventWaitNodeGetEvent(c.n, &ev);
  }());
  NEG(musaGraphEventWaitNodeSetEvent, "emptyNode", V, musaGraphEventWaitNodeSetEvent(c.n, c.e));
  NEG(musaGraphChildGraphNodeGetGraph, "emptyNode", V, [&] {
    musaGraph_t g;
    return musaGraphChildGraphNodeGetGraph(c.n, &g);
  }());
  NEG(musaGraphMemAllocNodeGetParams, "emptyNode", V, [&] {
    musaMemAllocNodeParams p;
    return musaGraphMemAllocNodeGetParams(c.n, &p);
  }());
  NEG(musaGraphMemFreeNodeGetParams, "emptyNode", V, [&] {
    void *p;
    return musaGraphMemFreeNodeGetParams(c.n, &p);
  }());
  NEG(musaGraphExternalSemaphoresSignalNodeGetParams, "emptyNode", V, [&] {
    musaExternalSemaphoreSignalNodeParams p;
    return musaGraphExternalSemaphoresSignalNodeGetParams(c.n, &p);
  }());
  NEG(musaGraphExternalSemaphoresWaitNodeGetParams, "emptyNode", V, [&] {
    musaExternalSemaphoreWaitNodeParams p;
    return musaGraphExternalSemaphoresWaitNodeGetParams(c.n, &p);
  }());
  NEG(musaGraphExternalSemaphoresSignalNodeSetParams, "nullParams", V,
      musaGraphExternalSemaphoresSignalNodeSetParams(c.n, nullptr));
  NEG(musaGraphExternalSemaphoresWaitNodeSetParams, "nullParams", V,
      musaGraphExternalSemaphoresWaitNodeSetParams(c.n, nullptr));
  NEG(musaGraphAddExternalSemaphoresSignalNode, "nullParams", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddExternalSemaphoresSignalNode(&o, c.g, nullptr, 0, nullptr);
  }());
  NEG(musaGraphAddExternalSemaphoresWaitNode, "nullParams", V, [&] {
    musaGraphNode_t o;
    return musaGraphAddExternalSemaphoresWaitNode(&o, c.g, nullptr, 0, nullptr);
  }());
  NEG(musaGraphAddExternalSemaphoresSignalNode, "nullSemaphoreArray", V, [&] {
    musaGraphNode_t o;
    musaExternalSemaphoreSignalParams sp = {};
    musaExternalSemaphoreSignalNodeParams p = {nullptr, &sp, 1};
    return musaGraphAddExternalSemaphoresSignalNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddExternalSemaphoresWaitNode, "nullSemaphoreArray", V, [&] {
    musaGraphNode_t o;
    musaExternalSemaphoreWaitParams wp = {};
    musaExternalSemaphoreWaitNodeParams p = {nullptr, &wp, 1};
    return musaGraphAddExternalSemaphoresWaitNode(&o, c.g, nullptr, 0, &p);
  }());

  // clone, dot print, instantiate
  NEG(musaGraphClone, "nullClone", V, musaGraphClone(nullptr, c.g));
  NEG(musaGraphClone, "nullOriginal", V, [&] {
    musaGraph_t g;
    return musaGraphClone(&g, nullptr);
  }());
  NEG(musaGraphClone, "destroyedOriginal", V, [&] {
    musaGraph_t g;
    return musaGraphClone(&g, c.deadGraph);
  }());
  NEG(musaGraphNodeFindInClone, "nullOut", V, musaGraphNodeFindInClone(nullptr, c.n, c.other));
  NEG(musaGraphNodeFindInClone, "nullClonedGraph", V, [&] {
    musaGraphNode_t found;
    return musaGraphNodeFindInClone(&found, c.n, nullptr);
  }());
  NEG(musaGraphNodeFindInClone, "notAClone", V, [&] {
    musaGraphNode_t found;
    return musaGraphNodeFindInClone(&found, c.n, c.other);
  }());
  NEG(musaGraphDebugDotPrint, "nullPath", V, musaGraphDebugDotPrint(c.g, nullptr, 0));
  NEG(musaGraphDebugDotPrint, "nullGraph", V,
      musaGraphDebugDotPrint(nullptr, "/tmp/negative.dot", 0));
  NEG(musaGraphDebugDotPrint, "unwritablePath", musaErrorOperatingSystem,
      musaGraphDebugDotPrint(c.g, "/nonexistent-dir/negative.dot", 0));
  NEG(musaGraphDestroy, "nullGraph", V, musaGraphDestroy(nullptr));
  NEG(musaGraphDestroy, "destroyedGraph", V, musaGraphDestroy(c.deadGraph));
  NEG(musaGraphDestroy, "foreignGraph", V, musaGraphDestroy(foreign<musaGraph_t>()));
  NEG(musaGraphInstantiate, "nullExec", V, musaGraphInstantiate(nullptr, c.g, 0));
  NEG(musaGraphInstantiate, "nullGraph", V, [&] {
    musaGraphExec_t x;
    return musaGraphInstantiate(&x, nullptr, 0);
  }());
  NEG(musaGraphInstantiate, "destroyedGraph", V, [&] {
    musaGraphExec_t x;
    return musaGraphInstantiate(&x, c.deadGraph, 0);
  }());
  for (unsigned long long flags : {0x10ull, 0x100ull})
    NEG(musaGraphInstantiateWithFlags, "badFlags" + std::to_string(flags), V, [&] {
      musaGraphExec_t x;
      return musaGraphInstantiateWithFlags(&x, c.g, flags);
    }());
  NEG(musaGraphInstantiateWithFlags, "nullExec", V,
      musaGraphInstantiateWithFlags(nullptr, c.g, 0));
  NEG(musaGraphInstantiateWithFlags, "nullGraph", V, [&] {
    musaGraphExec_t x;
    return musaGraphInstantiateWithFlags(&x, nullptr, 0);
  }());
  NEG(musaGraphInstantiateWithParams, "nullParams", V, [&] {
    musaGraphExec_t x;
    return musaGraphInstantiateWithParams(&x, c.g, nullptr);
  }());
  NEG(musaGraphInstantiateWithParams, "nullExec", V, [&] {
    musaGraphInstantiateParams p = {};
    return musaGraphInstantiateWithParams(nullptr, c.g, &p);
  }());
  NEG(musaGraphInstantiateWithParams, "nullGraph", V, [&] {
    musaGraphExec_t x;
    musaGraphInstantiateParams p = {};
    return musaGraphInstantiateWithParams(&x, nullptr, &p);
  }());

  // Calls taking an executable graph, with each bad exec handle.
  struct BadExec {
    const char *name;
    musaGraphExec_t (*get)(Ctx &);
  };
  const BadExec badExecs[] = {
      {"nullExec", [](Ctx &) { return musaGraphExec_t(nullptr); }},
      {"destroyedExec", [](Ctx &c) { return c.deadExec; }},
      {"foreignExec", [](Ctx &) { return foreign<musaGraphExec_t>(); }},
  };
  for (const BadExec &bx : badExecs) {
    std::string arg = bx.name;
    auto get = bx.get;
    NEG(musaGraphLaunch, arg, V, musaGraphLaunch(get(c), c.s));
    NEG(musaGraphUpload, arg, V, musaGraphUpload(get(c), c.s));
    NEG(musaGraphExecDestroy, arg, V, musaGraphExecDestroy(get(c)));
    NEG(musaGraphNodeSetEnabled, arg, V, musaGraphNodeSetEnabled(get(c), c.n, 1));
    NEG(musaGraphExecUpdate, arg, V, [&] {
      musaGraphExecUpdateResultInfo info;
      return musaGraphExecUpdate(get(c), c.g, &info);
    }());
    NEG(musaGraphExecHostNodeSetParams, arg, V, [&] {
      musaHostNodeParams p = {&Ctx::noop, nullptr};
      return musaGraphExecHostNodeSetParams(get(c), c.hostNode, &p);
    }());
    NEG(musaGraphExecChildGraphNodeSetParams, arg, V,
        musaGraphExecChildGraphNodeSetParams(get(c), c.n, c.other));
    NEG(musaGraphExecEventRecordNodeSetEvent, arg, V,
        musaGraphExecEventRecordNodeSetEvent(get(c), c.n, c.e));
  }
  NEG(musaGraphNodeSetEnabled, "emptyNodeCannotBeDisabled", V,
      musaGraphNodeSetEnabled(c.exec, c.n, 0));
  NEG(musaGraphNodeSetEnabled, "nodeOfAnotherGraph", V,
      musaGraphNodeSetEnabled(c.exec, c.otherNode, 0));
  NEG(musaGraphNodeGetEnabled, "nullIsEnabled", V,
      musaGraphNodeGetEnabled(c.exec, c.hostNode, nullptr));
  NEG(musaGraphExecUpdate, "nullGraph", V, [&] {
    musaGraphExecUpdateResultInfo info;
    return musaGraphExecUpdate(c.exec, nullptr, &info);
  }());
  NEG(musaGraphExecUpdate, "nullResultInfo", V, musaGraphExecUpdate(c.exec, c.g, nullptr));
  NEG(musaGraphExecHostNodeSetParams, "emptyNode", V, [&] {
    musaHostNodeParams p = {&Ctx::noop, nullptr};
    return musaGraphExecHostNodeSetParams(c.exec, c.n, &p);
  }());
  NEG(musaGraphExecHostNodeSetParams, "nullParams", V,
      musaGraphExecHostNodeSetParams(c.exec, c.hostNode, nullptr));
  NEG(musaGraphExecHostNodeSetParams, "nodeOfAnotherGraph", V, [&] {
    musaHostNodeParams p = {&Ctx::noop, nullptr};
    return musaGraphExecHostNodeSetParams(c.exec, c.otherNode, &p);
  }());
  NEG(musaGraphExecKernelNodeSetParams, "emptyNode", V, [&] {
    musaKernelNodeParams p = {};
    return musaGraphExecKernelNodeSetParams(c.exec, c.n, &p);
  }());
  NEG(musaGraphExecMemcpyNodeSetParams, "emptyNode", V, [&] {
    musaMemcpy3DParms p = copyParams(c);
    return musaGraphExecMemcpyNodeSetParams(c.exec, c.n, &p);
  }());
  NEG(musaGraphExecMemsetNodeSetParams, "emptyNode", V, [&] {
    musaMemsetParams p = memsetParams(c);
    return musaGraphExecMemsetNodeSetParams(c.exec, c.n, &p);
  }());
  NEG(musaGraphExecChildGraphNodeSetParams, "emptyNode", V,
      musaGraphExecChildGraphNodeSetParams(c.exec, c.n, c.other));
  NEG(musaGraphExecEventRecordNodeSetEvent, "emptyNode", V,
      musaGraphExecEventRecordNodeSetEvent(c.exec, c.n, c.e));
  NEG(musaGraphExecEventWaitNodeSetEvent, "emptyNode", V,
      musaGraphExecEventWaitNodeSetEvent(c.exec, c.n, c.e));
  NEG(musaGraphExecExternalSemaphoresSignalNodeSetParams, "nullParams", V,
      musaGraphExecExternalSemaphoresSignalNodeSetParams(c.exec, c.n, nullptr));
  NEG(musaGraphExecExternalSemaphoresWaitNodeSetParams, "nullParams", V,
      musaGraphExecExternalSemaphoresWaitNodeSetParams(c.exec, c.n, nullptr));

  // conditional handles
  NEG(musaGraphConditionalHandleCreate, "nullHandle", V,
      musaGraphConditionalHandleCreate(nullptr, c.g, 0, 0));
  NEG(musaGraphConditionalHandleCreate, "nullGraph", V, [&] {
    musaGraphConditionalHandle h;
    return musaGraphConditionalHandleCreate(&h, nullptr, 0, 0);
  }());
  NEG(musaGraphConditionalHandleCreate, "badFlags", V, [&] {
    musaGraphConditionalHandle h;
    return musaGraphConditionalHandleCreate(&h, c.g, 0, 0x80);
  }());
  NEG(musaGraphAddNode, "conditionalSizeNotOne", V, [&] {
    musaGraphConditionalHandle h;
    if (musaGraphConditionalHandleCreate(&h, c.g, 0, 0))
      return musaErrorUnknown;
    musaGraphNode_t o;
    musaGraph_t body[2];
    musaGraphNodeParams p = {};
    p.type = musaGraphNodeTypeConditional;
    p.conditional.handle = h;
    // A WHILE node has exactly one body (an IF may have two since CUDA 12.8: then and else).
    p.conditional.type = musaGraphCondTypeWhile;
    p.conditional.size = 2;
    p.conditional.phGraph_out = body;
    return musaGraphAddNode(&o, c.g, nullptr, 0, &p);
  }());
  NEG(musaGraphAddNode, "conditionalHandleOfAnotherGraph", V, [&] {
    musaGraphConditionalHandle h;
    if (musaGraphConditionalHandleCreate(&h, c.other, 0, 0))
      return musaErrorUnknown;
    musaGraphNode_t o;
    musaGraph_t body;
    musaGraphNodeParams p = {};
    p.type = musaGraphNodeTypeConditional;
    p.conditional.handle = h;
    p.conditional.type = musaGraphCondTypeIf;
    p.conditional.size = 1;
    p.conditional.phGraph_out = &body;
    return musaGraphAddNode(&o, c.g, nullptr, 0, &p);
  }());
}

} // namespace negative
