// The runtime's node work: what kernel, copy, memset, host and event nodes do when a graph
// runs (musa::graph::NodeWork implementations).
#pragma once

#include "KernelLaunch.h"
#include "MemoryTransfer.h"
#include "Runtime.h"

#include "musa/graph/Graph.h"
#include "musa/graph/Update.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace musa::rt {

class KernelWork final : public graph::NodeWork {
public:
  explicit KernelWork(std::shared_ptr<PreparedLaunch> launch) : launch_(std::move(launch)) {}
  std::unique_ptr<graph::NodeWork> clone() const override {
    return std::make_unique<KernelWork>(launch_);
  }
  void run() override {
    GraphLaunchPriority p = graphLaunchPriority();
    if (launch_->config.priority == (p.useNodePriority ? launch_->nodePriority : p.streamPriority)) {
      launch_->run(true);
      return;
    }
    PreparedLaunch withPriority = *launch_;
    withPriority.config.priority = p.useNodePriority ? launch_->nodePriority : p.streamPriority;
    withPriority.run(true);
  }
  std::string label() const override;
  /// A kernel node keeps its function and its priority attribute.
  graph::UpdateResult updatableTo(const graph::NodeWork &next) const override {
    const auto &n = static_cast<const KernelWork &>(next).launch();
    if (n.func != launch_->func)
      return graph::UpdateResult::FunctionChanged;
    if (n.nodePriority != launch_->nodePriority)
      return graph::UpdateResult::AttributesChanged;
    return graph::UpdateResult::Success;
  }
  const PreparedLaunch &launch() const { return *launch_; }

private:
  std::shared_ptr<PreparedLaunch> launch_; // immutable once made: clones share it
};

/// A prepared copy or memset.
class TransferWork final : public graph::NodeWork {
public:
  TransferWork(std::function<void()> work, std::string label)
      : work_(std::move(work)), label_(std::move(label)) {}
  std::unique_ptr<graph::NodeWork> clone() const override {
    return std::make_unique<TransferWork>(work_, label_);
  }
  void run() override {
    TransferNodeScope node(label_); // a fault names this node
    if (work_)
      work_();
  }
  std::string label() const override { return label_; }

private:
  std::function<void()> work_;
  std::string label_;
};

/// A copy node made from musaMemcpy3DParms (kept for get/set params).
class MemcpyWork final : public graph::NodeWork {
public:
  MemcpyWork(const musaMemcpy3DParms &params, std::function<void()> work, std::string label)
      : params_(params), work_(std::move(work), std::move(label)) {}
  std::unique_ptr<graph::NodeWork> clone() const override {
    return std::make_unique<MemcpyWork>(*this);
  }
  void run() override { work_.run(); }
  std::string label() const override { return work_.label(); }
  const musaMemcpy3DParms &params() const { return params_; }
  /// A copy keeps its direction (the guide's limit).
  graph::UpdateResult updatableTo(const graph::NodeWork &next) const override {
    auto *n = dynamic_cast<const MemcpyWork *>(&next);
    return n && n->params_.kind != params_.kind ? graph::UpdateResult::ParametersChanged
                                                : graph::UpdateResult::Success;
  }

private:
  musaMemcpy3DParms params_;
  TransferWork work_;
};

/// A memset node (kept for get/set params).
class MemsetWork final : public graph::NodeWork {
public:
  MemsetWork(const musaMemsetParams &params, std::function<void()> work, std::string label)
      : params_(params), work_(std::move(work), std::move(label)) {}
  std::unique_ptr<graph::NodeWork> clone() const override {
    return std::make_unique<MemsetWork>(*this);
  }
  void run() override { work_.run(); }
  std::string label() const override { return work_.label(); }
  const musaMemsetParams &params() const { return params_; }
  /// A memset stays on its device (the guide's limit).
  graph::UpdateResult updatableTo(const graph::NodeWork &next) const override;

private:
  musaMemsetParams params_;
  TransferWork work_;
};

class HostWork final : public graph::NodeWork {
public:
  HostWork(musaHostFn_t fn, void *data) : fn_(fn), data_(data) {}
  std::unique_ptr<graph::NodeWork> clone() const override {
    return std::make_unique<HostWork>(fn_, data_);
  }
  void run() override { fn_(data_); }
  std::string label() const override { return "host function"; }
  musaHostNodeParams params() const { return {fn_, data_}; }

private:
  musaHostFn_t fn_;
  void *data_;
};

/// Device memory a graph allocation node owns: reserved for as long as any graph or
/// executable graph holds the node, returned to the device when the last one goes.
struct GraphMemoryBlock {
  Device *device;
  void *ptr;
  size_t size;
  uint64_t reservation;
  GraphMemoryBlock(Device *d, void *p, size_t n)
      : device(d), ptr(p), size(n), reservation(device->graphMemory.reserve(ptr, size)) {}
  ~GraphMemoryBlock() {
    if (device->graphMemory.release(ptr, reservation)) // not if a reset freed it already
      device->memory().free(ptr);
  }
};

/// A memory allocation node: its memory is in use from the node's run until it is freed.
class MemAllocWork final : public graph::NodeWork {
public:
  explicit MemAllocWork(std::shared_ptr<GraphMemoryBlock> a) : a_(std::move(a)) {}
  std::unique_ptr<graph::NodeWork> clone() const override {
    return std::make_unique<MemAllocWork>(a_);
  }
  void run() override { a_->device->graphMemory.setInUse(a_->ptr, true); }
  std::string label() const override { return "alloc " + std::to_string(a_->size) + " B"; }
  void *pointer() const { return a_->ptr; }
  size_t size() const { return a_->size; }
  int device() const { return a_->device->ordinal(); }

private:
  std::shared_ptr<GraphMemoryBlock> a_;
};

/// A memory free node: returns a graph allocation to the graph's pool.
class MemFreeWork final : public graph::NodeWork {
public:
  MemFreeWork(Device *device, void *ptr) : device_(device), ptr_(ptr) {}
  std::unique_ptr<graph::NodeWork> clone() const override {
    return std::make_unique<MemFreeWork>(device_, ptr_);
  }
  void run() override { device_->graphMemory.setInUse(ptr_, false); }
  std::string label() const override { return "free"; }
  void *pointer() const { return ptr_; }

private:
  Device *device_;
  void *ptr_;
};

/// The condition value of a conditional node: kernels set it through the handle (its
/// address); launches may reset it to a default first.
/// Records (or waits for) an event each time the graph runs.
class EventWork final : public graph::NodeWork {
public:
  EventWork(musaEvent_t event, bool record) : event_(event), record_(record) {}
  std::unique_ptr<graph::NodeWork> clone() const override {
    return std::make_unique<EventWork>(event_, record_);
  }
  void run() override;
  std::string label() const override { return record_ ? "event record" : "event wait"; }
  musaEvent_t event() const { return event_; }

private:
  musaEvent_t event_;
  bool record_;
};

} // namespace musa::rt
