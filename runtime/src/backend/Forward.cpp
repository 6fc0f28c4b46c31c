// The calls Forwarded.def marks CUSTOM: kernels (PTX through the driver API), symbols, structs
// whose layout differs from the target's, and calls whose signature changed in CUDA 13.
#include "backend/Backend.h"

#include <cstdint>
#include <cstring>

namespace musa::rt::backend {

namespace {

Target &ready(musaError_t &error) {
  Target &t = Target::get();
  error = t.ready() ? musaSuccess : t.unavailable();
  return t;
}

/// Calls `<runtime prefix><suffix>` with exactly these argument types.
template <class... A> musaError_t callRuntime(const char *suffix, A... args) {
  Target &t = Target::get();
  void *symbol = t.runtimeSymbol(suffix);
  if (!symbol)
    return t.missing((std::string("musa") + suffix).c_str());
  return t.runtimeError(reinterpret_cast<int (*)(A...)>(symbol)(args...));
}
template <class... A> musaError_t callDriver(const char *suffix, A... args) {
  Target &t = Target::get();
  void *symbol = t.driverSymbol(suffix);
  if (!symbol)
    return t.missing(suffix);
  if (musaError_t e = t.bindContext())
    return e;
  return t.driverError(reinterpret_cast<int (*)(A...)>(symbol)(args...));
}

using Stream = musaStream_t;
#define MUSA_READY                                                                             \
  musaError_t ready_error;                                                                     \
  Target &t = ready(ready_error);                                                              \
  (void)t;                                                                                     \
  if (ready_error)                                                                             \
  return ready_error

/// CUDA_KERNEL_NODE_PARAMS_v2 (its v1 is a prefix: kern and ctx zero).
struct DriverKernelNodeParams {
  void *func;
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  void **kernelParams;
  void **extra;
  void *kern;
  void *ctx;
};

musaError_t toDriver(const musaKernelNodeParams *p, DriverKernelNodeParams &out) {
  if (!p)
    return musaErrorInvalidValue;
  std::memset(&out, 0, sizeof out);
  if (musaError_t e = Target::get().kernel(p->func, out.func))
    return e;
  out.gridDimX = p->gridDim.x;
  out.gridDimY = p->gridDim.y;
  out.gridDimZ = p->gridDim.z;
  out.blockDimX = p->blockDim.x;
  out.blockDimY = p->blockDim.y;
  out.blockDimZ = p->blockDim.z;
  out.sharedMemBytes = p->sharedMemBytes;
  out.kernelParams = p->kernelParams;
  out.extra = p->extra;
  return musaSuccess;
}

musaError_t launch(const void *func, dim3 grid, dim3 block, void **args, size_t sharedMem,
                   Stream stream, bool cooperative) {
  MUSA_READY;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  using Launch = int (*)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                         unsigned, void *, void **, void **);
  using CoLaunch = int (*)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, void *, void **);
  if (musaError_t e = t.bindContext())
    return e;
  void *s = toTarget(stream);
  if (cooperative) {
    auto fn = reinterpret_cast<CoLaunch>(t.driverSymbol("LaunchCooperativeKernel"));
    if (!fn)
      return t.missing("LaunchCooperativeKernel");
    musaError_t e = t.driverError(fn(function, grid.x, grid.y, grid.z, block.x, block.y,
                                     block.z, unsigned(sharedMem), s, args));
    return e == musaErrorInvalidValue ? musaErrorInvalidConfiguration : e;
  }
  auto fn = reinterpret_cast<Launch>(t.driverSymbol("LaunchKernel"));
  if (!fn)
    return t.missing("LaunchKernel");
  musaError_t e = t.driverError(fn(function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                   unsigned(sharedMem), s, args, nullptr));
  // The driver calls a bad shape an invalid value; the runtime API (cudart, and ours) calls
  // it an invalid configuration.
  return e == musaErrorInvalidValue ? musaErrorInvalidConfiguration : e;
}

/// A padded out-buffer for target structs that may have grown (CUDA 13 added reserved fields).
struct Padded {
  alignas(16) unsigned char bytes[1024] = {};
};

musaError_t pointerAttributes(musaPointerAttributes *out, const void *ptr) {
  if (!out)
    return musaErrorInvalidValue;
  Padded buffer;
  if (musaError_t e = callRuntime("PointerGetAttributes", static_cast<void *>(buffer.bytes), ptr))
    return e;
  std::memcpy(out, buffer.bytes, sizeof *out); // type, device, devicePointer, hostPointer
  return musaSuccess;
}

/// cudaMemLocation (CUDA 13 takes it by value where 12 took a device number).
struct MemLocation {
  int type; // 1 device, 2 host
  int id;
};
MemLocation location(int device) {
  return device == musaCpuDeviceId ? MemLocation{2, 0} : MemLocation{1, device};
}

} // namespace

namespace fwd {

musaError_t musaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t sharedMem, musaStream_t stream) {
  return launch(func, grid, block, args, sharedMem, stream, false);
}
musaError_t musaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        size_t sharedMem, musaStream_t stream) {
  return launch(func, grid, block, args, sharedMem, stream, true);
}

musaError_t musaGetDeviceProperties(musaDeviceProp *prop, int device) {
  MUSA_READY;
  if (!prop)
    return musaErrorInvalidValue;
  // Field by field from device attributes: cudaDeviceProp's layout changes between CUDA
  // versions (and its symbol is versioned), attribute numbers do not (ours equal CUDA's).
  std::memset(prop, 0, sizeof *prop);
  auto attr = [&](musaDeviceAttr a) {
    int v = 0;
    return ::musa::rt::backend::fwd::musaDeviceGetAttribute(&v, a, device) ? 0 : v;
  };
  if (musaError_t e = fwd::musaDeviceGetAttribute(&prop->major, musaDevAttrComputeCapabilityMajor,
                                                 device))
    return e;
  int cuDevice = 0;
  if (musaError_t e = callDriver("DeviceGet", &cuDevice, device))
    return e;
  size_t total = 0; // name, memory and UUID where the driver has them (a fake may not)
  if (t.driverSymbol("DeviceGetName"))
    callDriver("DeviceGetName", prop->name, int(sizeof prop->name), cuDevice);
  if (t.driverSymbol("DeviceTotalMem"))
    callDriver("DeviceTotalMem", &total, cuDevice);
  if (t.driverSymbol("DeviceGetUuid"))
    callDriver("DeviceGetUuid", static_cast<void *>(&prop->uuid), cuDevice);
  prop->totalGlobalMem = total;
  prop->minor = attr(musaDevAttrComputeCapabilityMinor);
  prop->sharedMemPerBlock = size_t(attr(musaDevAttrMaxSharedMemoryPerBlock));
  prop->regsPerBlock = attr(musaDevAttrMaxRegistersPerBlock);
  prop->warpSize = attr(musaDevAttrWarpSize);
  prop->memPitch = size_t(attr(musaDevAttrMaxPitch));
  prop->maxThreadsPerBlock = attr(musaDevAttrMaxThreadsPerBlock);
  prop->maxThreadsDim[0] = attr(musaDevAttrMaxBlockDimX);
  prop->maxThreadsDim[1] = attr(musaDevAttrMaxBlockDimY);
  prop->maxThreadsDim[2] = attr(musaDevAttrMaxBlockDimZ);
  prop->maxGridSize[0] = attr(musaDevAttrMaxGridDimX);
  prop->maxGridSize[1] = attr(musaDevAttrMaxGridDimY);
  prop->maxGridSize[2] = attr(musaDevAttrMaxGridDimZ);
  prop->clockRate = attr(musaDevAttrClockRate);
  prop->totalConstMem = size_t(attr(musaDevAttrTotalConstantMemory));
  prop->textureAlignment = size_t(attr(musaDevAttrTextureAlignment));
  prop->texturePitchAlignment = size_t(attr(musaDevAttrTexturePitchAlignment));
  prop->deviceOverlap = attr(musaDevAttrGpuOverlap);
  prop->multiProcessorCount = attr(musaDevAttrMultiProcessorCount);
  prop->kernelExecTimeoutEnabled = attr(musaDevAttrKernelExecTimeout);
  prop->integrated = attr(musaDevAttrIntegrated);
  prop->canMapHostMemory = attr(musaDevAttrCanMapHostMemory);
  prop->computeMode = attr(musaDevAttrComputeMode);
  prop->concurrentKernels = attr(musaDevAttrConcurrentKernels);
  prop->ECCEnabled = attr(musaDevAttrEccEnabled);
  prop->pciBusID = attr(musaDevAttrPciBusId);
  prop->pciDeviceID = attr(musaDevAttrPciDeviceId);
  prop->pciDomainID = attr(musaDevAttrPciDomainId);
  prop->tccDriver = attr(musaDevAttrTccDriver);
  prop->asyncEngineCount = attr(musaDevAttrAsyncEngineCount);
  prop->unifiedAddressing = attr(musaDevAttrUnifiedAddressing);
  prop->memoryClockRate = attr(musaDevAttrMemoryClockRate);
  prop->memoryBusWidth = attr(musaDevAttrGlobalMemoryBusWidth);
  prop->l2CacheSize = attr(musaDevAttrL2CacheSize);
  prop->persistingL2CacheMaxSize = attr(musaDevAttrMaxPersistingL2CacheSize);
  prop->maxThreadsPerMultiProcessor = attr(musaDevAttrMaxThreadsPerMultiProcessor);
  prop->streamPrioritiesSupported = attr(musaDevAttrStreamPrioritiesSupported);
  prop->globalL1CacheSupported = attr(musaDevAttrGlobalL1CacheSupported);
  prop->localL1CacheSupported = attr(musaDevAttrLocalL1CacheSupported);
  prop->sharedMemPerMultiprocessor = size_t(attr(musaDevAttrMaxSharedMemoryPerMultiprocessor));
  prop->regsPerMultiprocessor = attr(musaDevAttrMaxRegistersPerMultiprocessor);
  prop->managedMemory = attr(musaDevAttrManagedMemory);
  prop->isMultiGpuBoard = attr(musaDevAttrIsMultiGpuBoard);
  prop->multiGpuBoardGroupID = attr(musaDevAttrMultiGpuBoardGroupID);
  prop->hostNativeAtomicSupported = attr(musaDevAttrHostNativeAtomicSupported);
  prop->singleToDoublePrecisionPerfRatio = attr(musaDevAttrSingleToDoublePrecisionPerfRatio);
  prop->pageableMemoryAccess = attr(musaDevAttrPageableMemoryAccess);
  prop->concurrentManagedAccess = attr(musaDevAttrConcurrentManagedAccess);
  prop->computePreemptionSupported = attr(musaDevAttrComputePreemptionSupported);
  prop->canUseHostPointerForRegisteredMem = attr(musaDevAttrCanUseHostPointerForRegisteredMem);
  prop->cooperativeLaunch = attr(musaDevAttrCooperativeLaunch);
  prop->cooperativeMultiDeviceLaunch = attr(musaDevAttrCooperativeMultiDeviceLaunch);
  prop->sharedMemPerBlockOptin = size_t(attr(musaDevAttrMaxSharedMemoryPerBlockOptin));
  prop->pageableMemoryAccessUsesHostPageTables =
      attr(musaDevAttrPageableMemoryAccessUsesHostPageTables);
  prop->directManagedMemAccessFromHost = attr(musaDevAttrDirectManagedMemAccessFromHost);
  prop->maxBlocksPerMultiProcessor = attr(musaDevAttrMaxBlocksPerMultiprocessor);
  prop->accessPolicyMaxWindowSize = attr(musaDevAttrMaxAccessPolicyWindowSize);
  prop->reservedSharedMemPerBlock = size_t(attr(musaDevAttrReservedSharedMemoryPerBlock));
  prop->hostRegisterSupported = attr(musaDevAttrHostRegisterSupported);
  prop->sparseMusaArraySupported = attr(musaDevAttrSparseMusaArraySupported);
  prop->hostRegisterReadOnlySupported = attr(musaDevAttrHostRegisterReadOnlySupported);
  prop->memoryPoolsSupported = attr(musaDevAttrMemoryPoolsSupported);
  return musaSuccess;
}

musaError_t musaDeviceGetUuid(musaUuid_t *uuid, int device) {
  MUSA_READY;
  if (!uuid)
    return musaErrorInvalidValue;
  int cuDevice = 0;
  if (musaError_t e = callDriver("DeviceGet", &cuDevice, device))
    return e;
  return callDriver("DeviceGetUuid", static_cast<void *>(uuid), cuDevice);
}

musaError_t musaDeviceReset(void) {
  MUSA_READY;
  musaError_t e = callRuntime("DeviceReset");
  t.forgetModules(); // the primary context and its modules are gone
  return e;
}

// ---- symbols: the module's global through the driver, then an ordinary copy ---------------
musaError_t musaGetSymbolAddress(void **devPtr, const void *symbol) {
  MUSA_READY;
  if (!devPtr)
    return musaErrorInvalidValue;
  size_t size = 0;
  return t.variable(symbol, *devPtr, size);
}
musaError_t musaGetSymbolSize(size_t *size, const void *symbol) {
  MUSA_READY;
  if (!size)
    return musaErrorInvalidValue;
  void *address = nullptr;
  return t.variable(symbol, address, *size);
}
namespace {
musaError_t symbolCopy(const void *symbol, size_t count, size_t offset, char *&address,
                       musaMemcpyKind kind, bool toSymbol) {
  // As the runtime API: the symbol's side is the device.
  musaMemcpyKind allowed = toSymbol ? musaMemcpyHostToDevice : musaMemcpyDeviceToHost;
  if (kind != allowed && kind != musaMemcpyDeviceToDevice && kind != musaMemcpyDefault)
    return musaErrorInvalidMemcpyDirection;
  void *base = nullptr;
  size_t size = 0;
  if (musaError_t e = Target::get().variable(symbol, base, size))
    return e;
  if (offset > size || count > size - offset)
    return musaErrorInvalidValue;
  address = static_cast<char *>(base) + offset;
  return musaSuccess;
}
} // namespace
musaError_t musaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               musaMemcpyKind kind) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, true))
    return e;
  return callRuntime("Memcpy", static_cast<void *>(address), src, count, int(kind));
}
// Graph memcpy nodes on a symbol: the 1D forms on the target's address of the variable.
musaError_t musaGraphAddMemcpyNodeToSymbol(musaGraphNode_t *node, musaGraph_t g,
                                           const musaGraphNode_t *deps, size_t numDeps,
                                           const void *symbol, const void *src, size_t count,
                                           size_t offset, musaMemcpyKind kind) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, true))
    return e;
  return callRuntime("GraphAddMemcpyNode1D", node, g, deps, numDeps, static_cast<void *>(address),
                     src, count, int(kind));
}
musaError_t musaGraphAddMemcpyNodeFromSymbol(musaGraphNode_t *node, musaGraph_t g,
                                             const musaGraphNode_t *deps, size_t numDeps,
                                             void *dst, const void *symbol, size_t count,
                                             size_t offset, musaMemcpyKind kind) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, false))
    return e;
  return callRuntime("GraphAddMemcpyNode1D", node, g, deps, numDeps, dst,
                     static_cast<const void *>(address), count, int(kind));
}
musaError_t musaGraphMemcpyNodeSetParamsToSymbol(musaGraphNode_t node, const void *symbol,
                                                 const void *src, size_t count, size_t offset,
                                                 musaMemcpyKind kind) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, true))
    return e;
  return callRuntime("GraphMemcpyNodeSetParams1D", node, static_cast<void *>(address), src,
                     count, int(kind));
}
musaError_t musaGraphMemcpyNodeSetParamsFromSymbol(musaGraphNode_t node, void *dst,
                                                   const void *symbol, size_t count,
                                                   size_t offset, musaMemcpyKind kind) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, false))
    return e;
  return callRuntime("GraphMemcpyNodeSetParams1D", node, dst, static_cast<const void *>(address),
                     count, int(kind));
}
musaError_t musaGraphExecMemcpyNodeSetParamsToSymbol(musaGraphExec_t exec, musaGraphNode_t node,
                                                     const void *symbol, const void *src,
                                                     size_t count, size_t offset,
                                                     musaMemcpyKind kind) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, true))
    return e;
  return callRuntime("GraphExecMemcpyNodeSetParams1D", exec, node, static_cast<void *>(address),
                     src, count, int(kind));
}
musaError_t musaGraphExecMemcpyNodeSetParamsFromSymbol(musaGraphExec_t exec,
                                                       musaGraphNode_t node, void *dst,
                                                       const void *symbol, size_t count,
                                                       size_t offset, musaMemcpyKind kind) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, false))
    return e;
  return callRuntime("GraphExecMemcpyNodeSetParams1D", exec, node, dst,
                     static_cast<const void *>(address), count, int(kind));
}
musaError_t musaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 musaMemcpyKind kind) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, false))
    return e;
  return callRuntime("Memcpy", dst, static_cast<const void *>(address), count, int(kind));
}
musaError_t musaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, musaMemcpyKind kind, musaStream_t stream) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, true))
    return e;
  return callRuntime("MemcpyAsync", static_cast<void *>(address), src, count, int(kind),
                     toTarget(stream));
}
musaError_t musaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      musaMemcpyKind kind, musaStream_t stream) {
  MUSA_READY;
  char *address = nullptr;
  if (musaError_t e = symbolCopy(symbol, count, offset, address, kind, false))
    return e;
  return callRuntime("MemcpyAsync", dst, static_cast<const void *>(address), count, int(kind),
                     toTarget(stream));
}

// ---- kernel nodes: the driver's graph calls take the kernel handle -------------------------
musaError_t musaGraphAddKernelNode(musaGraphNode_t *node, musaGraph_t graph,
                                   const musaGraphNode_t *deps, size_t numDeps,
                                   const musaKernelNodeParams *params) {
  MUSA_READY;
  DriverKernelNodeParams p;
  if (musaError_t e = toDriver(params, p))
    return e;
  return callDriver("GraphAddKernelNode", node, graph, deps, numDeps,
                    static_cast<const DriverKernelNodeParams *>(&p));
}
musaError_t musaGraphKernelNodeSetParams(musaGraphNode_t node, const musaKernelNodeParams *params) {
  MUSA_READY;
  DriverKernelNodeParams p;
  if (musaError_t e = toDriver(params, p))
    return e;
  return callDriver("GraphKernelNodeSetParams", node,
                    static_cast<const DriverKernelNodeParams *>(&p));
}
musaError_t musaGraphExecKernelNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                             const musaKernelNodeParams *params) {
  MUSA_READY;
  DriverKernelNodeParams p;
  if (musaError_t e = toDriver(params, p))
    return e;
  return callDriver("GraphExecKernelNodeSetParams", exec, node,
                    static_cast<const DriverKernelNodeParams *>(&p));
}
musaError_t musaGraphKernelNodeGetParams(musaGraphNode_t node, musaKernelNodeParams *params) {
  MUSA_READY;
  if (!params)
    return musaErrorInvalidValue;
  DriverKernelNodeParams p{};
  if (musaError_t e = callDriver("GraphKernelNodeGetParams", node, &p))
    return e;
  params->func = const_cast<void *>(t.hostStubOf(p.func));
  params->gridDim = dim3(p.gridDimX, p.gridDimY, p.gridDimZ);
  params->blockDim = dim3(p.blockDimX, p.blockDimY, p.blockDimZ);
  params->sharedMemBytes = p.sharedMemBytes;
  params->kernelParams = p.kernelParams;
  params->extra = p.extra;
  return musaSuccess;
}
musaError_t musaGraphAddNode(musaGraphNode_t *node, musaGraph_t graph, const musaGraphNode_t *deps,
                             size_t numDeps, musaGraphNodeParams *params) {
  MUSA_READY;
  if (!params)
    return musaErrorInvalidValue;
  if (params->type == musaGraphNodeTypeKernel)
    return fwd::musaGraphAddKernelNode(node, graph, deps, numDeps, &params->kernel);
  // The other node kinds' parameters have CUDA's layout.
  if (t.edgeDataInBaseNames())
    return callRuntime("GraphAddNode", node, graph, deps,
                       static_cast<const musaGraphEdgeData *>(nullptr), numDeps, params);
  return callRuntime("GraphAddNode", node, graph, deps, numDeps, params);
}
// Kernel parameters name a host stub: translated by the kernel node calls; the rest have
// CUDA's layout.
musaError_t musaGraphNodeSetParams(musaGraphNode_t node, musaGraphNodeParams *params) {
  MUSA_READY;
  if (!params)
    return musaErrorInvalidValue;
  if (params->type == musaGraphNodeTypeKernel)
    return fwd::musaGraphKernelNodeSetParams(node, &params->kernel);
  return callRuntime("GraphNodeSetParams", node, params);
}
musaError_t musaGraphExecNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                       musaGraphNodeParams *params) {
  MUSA_READY;
  if (!params)
    return musaErrorInvalidValue;
  if (params->type == musaGraphNodeTypeKernel)
    return fwd::musaGraphExecKernelNodeSetParams(exec, node, &params->kernel);
  return callRuntime("GraphExecNodeSetParams", exec, node, params);
}
musaError_t musaGraphAddNode_v2(musaGraphNode_t *node, musaGraph_t graph,
                                const musaGraphNode_t *deps, const musaGraphEdgeData *edgeData,
                                size_t numDeps, musaGraphNodeParams *params) {
  MUSA_READY;
  if (!params)
    return musaErrorInvalidValue;
  if (params->type == musaGraphNodeTypeKernel) { // translated by hand, without edge data
    musaGraphEdgeData zero{};
    for (size_t i = 0; edgeData && i < numDeps; ++i)
      if (std::memcmp(&edgeData[i], &zero, sizeof zero) != 0)
        return musaErrorNotSupported;
    return fwd::musaGraphAddKernelNode(node, graph, deps, numDeps, &params->kernel);
  }
  return callRuntime(t.edgeDataInBaseNames() ? "GraphAddNode" : "GraphAddNode_v2", node, graph,
                     deps, edgeData, numDeps, params);
}

musaError_t musaGraphInstantiateWithParams(musaGraphExec_t *exec, musaGraph_t graph,
                                           musaGraphInstantiateParams *params) {
  MUSA_READY;
  if (!params)
    return musaErrorInvalidValue;
  struct {
    unsigned long long flags;
    void *uploadStream;
    musaGraphNode_t errNode_out;
    int result_out;
  } p{params->flags, nullptr, nullptr, 0};
  musaError_t e = callRuntime("GraphInstantiateWithParams", exec, graph, static_cast<void *>(&p));
  params->errNode_out = p.errNode_out;
  params->result_out = musaGraphInstantiateResult(p.result_out);
  return e;
}

// ---- occupancy: the driver's calls on the kernel handle -----------------------------------
musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t smem) {
  MUSA_READY;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  return callDriver("OccupancyMaxActiveBlocksPerMultiprocessor", numBlocks, function, blockSize,
                    smem);
}
musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize, size_t smem,
                                                                   unsigned int flags) {
  MUSA_READY;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  return callDriver("OccupancyMaxActiveBlocksPerMultiprocessorWithFlags", numBlocks, function,
                    blockSize, smem, flags);
}
musaError_t musaOccupancyAvailableDynamicSMemPerBlock(size_t *smem, const void *func,
                                                      int numBlocks, int blockSize) {
  MUSA_READY;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  return callDriver("OccupancyAvailableDynamicSMemPerBlock", smem, function, numBlocks,
                    blockSize);
}

// ---- kernel functions: the driver's calls on the kernel handle -------------------------------
// CUfunction_attribute numbers the settable attributes as musaFuncAttribute does (8, 9, ...),
// CUfunc_cache as musaFuncCache and CUsharedconfig as musaSharedMemConfig.
musaError_t musaFuncGetAttributes(musaFuncAttributes *attr, const void *func) {
  MUSA_READY;
  if (!attr)
    return musaErrorInvalidValue;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  *attr = musaFuncAttributes{};
  int v[10] = {}; // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK (0) .. PREFERRED_SHARED_MEMORY_CARVEOUT (9)
  for (int k = 0; k < 10; ++k)
    if (musaError_t e = callDriver("FuncGetAttribute", &v[k], k, function))
      return e;
  attr->maxThreadsPerBlock = v[0];
  attr->sharedSizeBytes = size_t(v[1]);
  attr->constSizeBytes = size_t(v[2]);
  attr->localSizeBytes = size_t(v[3]);
  attr->numRegs = v[4];
  attr->ptxVersion = v[5];
  attr->binaryVersion = v[6];
  attr->cacheModeCA = v[7];
  attr->maxDynamicSharedSizeBytes = v[8];
  attr->preferredShmemCarveout = v[9];
  return musaSuccess;
}
musaError_t musaFuncSetAttribute(const void *func, musaFuncAttribute attr, int value) {
  MUSA_READY;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  return callDriver("FuncSetAttribute", function, int(attr), value);
}
musaError_t musaFuncSetCacheConfig(const void *func, musaFuncCache config) {
  MUSA_READY;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  return callDriver("FuncSetCacheConfig", function, int(config));
}
musaError_t musaFuncSetSharedMemConfig(const void *func, musaSharedMemConfig config) {
  MUSA_READY;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  return callDriver("FuncSetSharedMemConfig", function, int(config));
}
musaError_t musaFuncGetName(const char **name, const void *func) {
  MUSA_READY;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  return callDriver("FuncGetName", name, function);
}
musaError_t musaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                 size_t *paramSize) {
  MUSA_READY;
  void *function = nullptr;
  if (musaError_t e = t.kernel(func, function))
    return e;
  return callDriver("FuncGetParamInfo", function, paramIndex, paramOffset, paramSize);
}
// The handle stays ours (the host stub, as the simulator gives it): muLaunchKernel and the
// kernel calls above take it to the target's function through t.kernel(). Asking for it
// loads the kernel on the target, as cudaGetFuncBySymbol loads its module.
musaError_t musaGetFuncBySymbol(musaFunction_t *functionPtr, const void *symbolPtr) {
  MUSA_READY;
  if (!functionPtr)
    return musaErrorInvalidValue;
  void *function = nullptr;
  if (musaError_t e = t.kernel(symbolPtr, function))
    return e;
  *functionPtr = reinterpret_cast<musaFunction_t>(const_cast<void *>(symbolPtr));
  return musaSuccess;
}

// ---- pointers -------------------------------------------------------------------------------
musaError_t musaPointerGetAttributes(musaPointerAttributes *attributes, const void *ptr) {
  MUSA_READY;
  return pointerAttributes(attributes, ptr);
}
musaError_t musaPointerGetMemoryType(musaMemoryType *type, const void *ptr) {
  MUSA_READY;
  musaPointerAttributes a;
  if (!type)
    return musaErrorInvalidValue;
  if (musaError_t e = pointerAttributes(&a, ptr))
    return e;
  *type = a.type;
  return musaSuccess;
}
musaError_t musaPointerGetDevice(int *device, const void *ptr) {
  MUSA_READY;
  musaPointerAttributes a;
  if (!device)
    return musaErrorInvalidValue;
  if (musaError_t e = pointerAttributes(&a, ptr))
    return e;
  if (a.type == musaMemoryTypeUnregistered)
    return musaErrorInvalidValue;
  *device = a.device;
  return musaSuccess;
}
musaError_t musaPointerGetAttribute(void *data, musaPointer_attribute attribute, const void *ptr) {
  MUSA_READY; // attribute numbers are the driver's CU_POINTER_ATTRIBUTE_* (same values)
  return callDriver("PointerGetAttribute", data, int(attribute),
                    static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(ptr)));
}

musaError_t musaMemHostUnregister(void *ptr) {
  MUSA_READY;
  return callRuntime("HostUnregister", ptr);
}

// ---- calls whose signature CUDA 13 changed ---------------------------------------------------
musaError_t musaMemAdvise(const void *devPtr, size_t count, musaMemoryAdvise advice, int device) {
  MUSA_READY;
  if (t.edgeDataInBaseNames())
    return callRuntime("MemAdvise", devPtr, count, int(advice), location(device));
  return callRuntime("MemAdvise", devPtr, count, int(advice), device);
}
musaError_t musaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                 musaStream_t stream) {
  MUSA_READY;
  if (t.edgeDataInBaseNames())
    return callRuntime("MemPrefetchAsync", devPtr, count, location(dstDevice), 0u,
                       toTarget(stream));
  return callRuntime("MemPrefetchAsync", devPtr, count, dstDevice, toTarget(stream));
}
// The location forms: CUDA 12's X_v2, CUDA 13's X (musaMemLocation has CUDA's layout).
musaError_t musaMemAdvise_v2(const void *devPtr, size_t count, musaMemoryAdvise advice,
                             musaMemLocation where) {
  MUSA_READY;
  return callRuntime(t.edgeDataInBaseNames() ? "MemAdvise" : "MemAdvise_v2", devPtr, count,
                     int(advice), where);
}
musaError_t musaMemPrefetchAsync_v2(const void *devPtr, size_t count, musaMemLocation where,
                                    unsigned int flags, musaStream_t stream) {
  MUSA_READY;
  return callRuntime(t.edgeDataInBaseNames() ? "MemPrefetchAsync" : "MemPrefetchAsync_v2",
                     devPtr, count, where, flags, toTarget(stream));
}

namespace {
const musaGraphEdgeData *const noEdges = nullptr;
}
// CUDA 12: X (no edge data) and X_v2 (edge data); CUDA 13: X (edge data) only.

musaError_t musaGraphAddDependencies(musaGraph_t g, const musaGraphNode_t *from,
                                     const musaGraphNode_t *to, size_t n) {
  MUSA_READY;
  if (t.edgeDataInBaseNames())
    return callRuntime("GraphAddDependencies", g, from, to, noEdges, n);
  return callRuntime("GraphAddDependencies", g, from, to, n);
}
musaError_t musaGraphAddDependencies_v2(musaGraph_t g, const musaGraphNode_t *from,
                                        const musaGraphNode_t *to, const musaGraphEdgeData *e,
                                        size_t n) {
  MUSA_READY;
  return callRuntime(t.edgeDataInBaseNames() ? "GraphAddDependencies" : "GraphAddDependencies_v2",
                     g, from, to, e, n);
}
musaError_t musaGraphRemoveDependencies(musaGraph_t g, const musaGraphNode_t *from,
                                        const musaGraphNode_t *to, size_t n) {
  MUSA_READY;
  if (t.edgeDataInBaseNames())
    return callRuntime("GraphRemoveDependencies", g, from, to, noEdges, n);
  return callRuntime("GraphRemoveDependencies", g, from, to, n);
}
musaError_t musaGraphRemoveDependencies_v2(musaGraph_t g, const musaGraphNode_t *from,
                                           const musaGraphNode_t *to, const musaGraphEdgeData *e,
                                           size_t n) {
  MUSA_READY;
  return callRuntime(t.edgeDataInBaseNames() ? "GraphRemoveDependencies"
                                             : "GraphRemoveDependencies_v2",
                     g, from, to, e, n);
}
musaError_t musaGraphGetEdges(musaGraph_t g, musaGraphNode_t *from, musaGraphNode_t *to,
                              size_t *n) {
  MUSA_READY;
  if (t.edgeDataInBaseNames())
    return callRuntime("GraphGetEdges", g, from, to, static_cast<musaGraphEdgeData *>(nullptr), n);
  return callRuntime("GraphGetEdges", g, from, to, n);
}
musaError_t musaGraphGetEdges_v2(musaGraph_t g, musaGraphNode_t *from, musaGraphNode_t *to,
                                 musaGraphEdgeData *e, size_t *n) {
  MUSA_READY;
  return callRuntime(t.edgeDataInBaseNames() ? "GraphGetEdges" : "GraphGetEdges_v2", g, from, to,
                     e, n);
}
musaError_t musaGraphNodeGetDependencies(musaGraphNode_t node, musaGraphNode_t *deps, size_t *n) {
  MUSA_READY;
  if (t.edgeDataInBaseNames())
    return callRuntime("GraphNodeGetDependencies", node, deps,
                       static_cast<musaGraphEdgeData *>(nullptr), n);
  return callRuntime("GraphNodeGetDependencies", node, deps, n);
}
musaError_t musaGraphNodeGetDependencies_v2(musaGraphNode_t node, musaGraphNode_t *deps,
                                            musaGraphEdgeData *e, size_t *n) {
  MUSA_READY;
  return callRuntime(t.edgeDataInBaseNames() ? "GraphNodeGetDependencies"
                                             : "GraphNodeGetDependencies_v2",
                     node, deps, e, n);
}
musaError_t musaGraphNodeGetDependentNodes(musaGraphNode_t node, musaGraphNode_t *nodes,
                                           size_t *n) {
  MUSA_READY;
  if (t.edgeDataInBaseNames())
    return callRuntime("GraphNodeGetDependentNodes", node, nodes,
                       static_cast<musaGraphEdgeData *>(nullptr), n);
  return callRuntime("GraphNodeGetDependentNodes", node, nodes, n);
}
musaError_t musaGraphNodeGetDependentNodes_v2(musaGraphNode_t node, musaGraphNode_t *nodes,
                                              musaGraphEdgeData *e, size_t *n) {
  MUSA_READY;
  return callRuntime(t.edgeDataInBaseNames() ? "GraphNodeGetDependentNodes"
                                             : "GraphNodeGetDependentNodes_v2",
                     node, nodes, e, n);
}
musaError_t musaStreamGetCaptureInfo(musaStream_t stream, musaStreamCaptureStatus *status,
                                     unsigned long long *id, musaGraph_t *graph,
                                     const musaGraphNode_t **deps, size_t *numDeps) {
  MUSA_READY;
  if (t.edgeDataInBaseNames())
    return callRuntime("StreamGetCaptureInfo", toTarget(stream), status, id, graph, deps,
                       static_cast<const musaGraphEdgeData **>(nullptr), numDeps);
  return callRuntime("StreamGetCaptureInfo", toTarget(stream), status, id, graph, deps, numDeps);
}
musaError_t musaStreamGetCaptureInfo_v3(musaStream_t stream, musaStreamCaptureStatus *status,
                                        unsigned long long *id, musaGraph_t *graph,
                                        const musaGraphNode_t **deps,
                                        const musaGraphEdgeData **edgeData, size_t *numDeps) {
  MUSA_READY;
  return callRuntime(t.edgeDataInBaseNames() ? "StreamGetCaptureInfo" : "StreamGetCaptureInfo_v3",
                     toTarget(stream), status, id, graph, deps, edgeData, numDeps);
}
/// The guide's one-argument form over CUDA's (stream, status*).
musaError_t musaStreamIsCapturing(musaStream_t stream) {
  MUSA_READY;
  int status = 0;
  if (musaError_t e = callRuntime("StreamIsCapturing", toTarget(stream), &status))
    return e;
  return status == musaStreamCaptureStatusActive        ? musaSuccess
         : status == musaStreamCaptureStatusInvalidated ? musaErrorStreamCaptureInvalidated
                                                        : musaErrorInvalidValue;
}
musaError_t musaStreamUpdateCaptureDependencies(musaStream_t stream, musaGraphNode_t *deps,
                                                size_t numDeps, unsigned int flags) {
  MUSA_READY;
  if (t.edgeDataInBaseNames())
    return callRuntime("StreamUpdateCaptureDependencies", toTarget(stream), deps, noEdges,
                       numDeps, flags);
  return callRuntime("StreamUpdateCaptureDependencies", toTarget(stream), deps, numDeps, flags);
}
musaError_t musaStreamUpdateCaptureDependencies_v2(musaStream_t stream, musaGraphNode_t *deps,
                                                   const musaGraphEdgeData *edgeData,
                                                   size_t numDeps, unsigned int flags) {
  MUSA_READY;
  return callRuntime(t.edgeDataInBaseNames() ? "StreamUpdateCaptureDependencies"
                                             : "StreamUpdateCaptureDependencies_v2",
                     toTarget(stream), deps, edgeData, numDeps, flags);
}

} // namespace fwd
} // namespace musa::rt::backend
