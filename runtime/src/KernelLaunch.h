// A validated kernel launch that can run now or later: streams enqueue one, graph kernel
// nodes hold one and run it each time the graph runs.
#pragma once

#include "musa_runtime_api.h"

#include "musa/sim/ChildGrids.h"
#include "musa/sim/GridLauncher.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace musa::rt {

class Device;

using sim::ArgumentCopy;

struct PreparedLaunch {
  const void *func = nullptr;
  dim3 grid, block;
  size_t sharedMem = 0;
  Device *device = nullptr;
  sim::GridLaunch config;
  std::shared_ptr<ArgumentCopy> args;

  /// Runs the grid to completion on the calling thread, then the grids its kernels launched
  /// (musa/sim/ChildGrids.h); a fault becomes the device's sticky error (and nothing runs once
  /// one is set).
  /// `graphNode`: a kernel node of an executable graph (its launch overhead is
  /// graph_kernel_node_us).
  void run(bool graphNode = false) const;
  /// Graph kernel nodes: the node's own priority (musaLaunchAttributePriority), used when the
  /// graph was instantiated with UseNodePriority; otherwise the launching stream's applies.
  int nodePriority = 0;
  /// Graph kernel nodes: musaKernelNodeAttributeAccessPolicyWindow, kept and read back (the
  /// simulated L2 has no persisting part).
  musaAccessPolicyWindow accessPolicyWindow{};

private:
  /// The timing model's estimate of the finished grid, charged to the device's clock.
  void chargeKernel(const sim::GridLaunch &launch, sim::KernelCounters &counters,
                    bool graphNode) const;
  /// The grid alone; returns the grids its kernels launched, in the order they run.
  std::vector<sim::ChildGrids::Child> runGrid(bool graphNode) const;
  /// A grid launched from device code (alone); returns its own children.
  std::vector<sim::ChildGrids::Child> runChild(sim::ChildGrids::Child &child) const;
};

/// How graph kernel nodes choose their priority during one graph launch (set by the stream
/// operation that runs the graph, read by the nodes, on the threads that run them).
struct GraphLaunchPriority {
  int streamPriority = 0;
  bool useNodePriority = false;
};
void setGraphLaunchPriority(GraphLaunchPriority p);
GraphLaunchPriority graphLaunchPriority();

/// The dynamic shared memory a launch of `func` may ask for (FuncApi.cpp): the kernel's
/// musaFuncAttributeMaxDynamicSharedMemorySize, or by default (and for a null `func`: a
/// kernel without host stub) what fits beside its static shared memory in the device's
/// sharedMemPerBlock.
size_t dynamicSharedLimit(const void *func, const sim::KernelEntry &kernel,
                          const sim::DeviceProfile &profile);

/// Validates func, configuration and arguments against `device` and copies the arguments.
musaError_t prepareLaunch(const void *func, dim3 grid, dim3 block, void **args, size_t sharedMem,
                          Device &device, int priority, bool cooperative, PreparedLaunch &out);
/// The same for a kernel already found; `func`, its host stub, may be null (a kernel only
/// device code launches).
musaError_t prepareKernelLaunch(const sim::KernelEntry &kernel, const void *func, dim3 grid,
                                dim3 block, void **args, size_t sharedMem, Device &device,
                                int priority, bool cooperative, PreparedLaunch &out);

} // namespace musa::rt
