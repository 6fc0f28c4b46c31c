// Whether an executable graph can take the parameters of another graph
// (musaGraphExecUpdate): the rules of the graphs guide, independent of what nodes do.
#pragma once

#include "musa/graph/Graph.h"

namespace musa::graph {

/// CUDA's cudaGraphExecUpdateResult meanings, in this layer's words.
enum class UpdateResult {
  Success,
  TopologyChanged,   // another node count, other dependencies
  NodeTypeChanged,   // a node of another type at the same place
  FunctionChanged,   // a kernel node runs another function
  ParametersChanged, // parameters that cannot change (a copy's direction, a memset's device)
  AttributesChanged, // node attributes that cannot change (a kernel node's priority)
  NotSupported,      // a node type whose parameters cannot be updated
};

struct UpdateCheck {
  UpdateResult result = UpdateResult::Success;
  const Node *node = nullptr; // in `next`: the node that failed
  const Node *from = nullptr; // in `next`: the dependency that differs (TopologyChanged)
};

/// Compares `now` (an executable graph's plan) with `next`. Nodes correspond in creation
/// order; both graphs must have the same nodes and edges and types, no child graph, memory
/// or conditional node, and every node's work must accept the new one
/// (NodeWork::updatableTo). The first failure found is returned.
UpdateCheck checkUpdate(const Graph &now, const Graph &next);

/// Gives every node of `now` a copy of the work of its counterpart in `next` (after a
/// successful checkUpdate).
void takeWork(Graph &now, const Graph &next);

} // namespace musa::graph
