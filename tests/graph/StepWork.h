// Node work for the graph layer's tests: each run appends the node's id to a shared log.
#pragma once

#include "musa/graph/Graph.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace musa::graph::test {

/// Records the order nodes run in.
struct Log {
  std::mutex mutex;
  std::vector<int> order;
};

class Step final : public NodeWork {
public:
  Step(Log &log, int id) : log_(log), id_(id) {}
  std::unique_ptr<NodeWork> clone() const override { return std::make_unique<Step>(log_, id_); }
  void run() override {
    std::lock_guard lock(log_.mutex);
    log_.order.push_back(id_);
  }
  std::string label() const override { return "step " + std::to_string(id_); }

private:
  Log &log_;
  int id_;
};

} // namespace musa::graph::test
