// Conditional nodes (CUDA 12.4 and later): a condition value kernels set through its handle,
// and IF, WHILE or SWITCH bodies that run inline each time the node runs.
#pragma once

#include "musa/graph/Graph.h"

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace musa::graph {

/// A conditional handle's value: the handle is the address of `value`, so device code sets it
/// with a plain store (musaGraphSetConditional).
struct ConditionCell {
  std::atomic<unsigned> value{0};
  unsigned defaultValue = 0;
  bool assignDefault = false; // reset to defaultValue before each launch
};

/// CUDA's numbering (cudaGraphConditionalNodeType).
enum class ConditionalType : int { If = 0, While = 1, Switch = 2 };

/// Whether a conditional node of `type` may have `bodies` body graphs: IF one or two (the
/// second its ELSE), WHILE one, SWITCH any number from one (CUDA 12.8).
bool validBodyCount(ConditionalType type, unsigned bodies);

/// IF runs body 0 once when the condition is non-zero (and body 1, if it has two, when it is
/// zero); WHILE runs body 0 while it is non-zero; SWITCH runs body n when it is n (none when
/// it names no body). The bodies are the user-filled graphs until instantiation copies them.
class ConditionalWork final : public NodeWork {
public:
  /// `releaseBodies` runs when the original node goes (it owns its body graphs). `cancelled`
  /// (if given) ends a WHILE loop early: its body faulted and can no longer change the
  /// condition (a device fault ends the whole launch on hardware).
  ConditionalWork(std::shared_ptr<ConditionCell> cell, ConditionalType type,
                  std::vector<Graph *> bodies, std::function<void()> releaseBodies,
                  std::function<bool()> cancelled = nullptr);
  ~ConditionalWork() override;
  std::unique_ptr<NodeWork> clone() const override;
  void beforeLaunch() override;
  void run() override;
  std::string label() const override;

private:
  size_t size() const { return frozen_.empty() ? bodies_.size() : frozen_.size(); }
  const Graph &body(size_t i) const { return frozen_.empty() ? *bodies_[i] : *frozen_[i]; }

  std::shared_ptr<ConditionCell> cell_;
  ConditionalType type_;
  std::vector<Graph *> bodies_;
  std::vector<std::unique_ptr<Graph>> frozen_;
  std::function<void()> releaseBodies_;
  std::function<bool()> cancelled_;
};

} // namespace musa::graph
