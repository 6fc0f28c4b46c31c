// Kernel functions: musaFuncGetAttributes, musaFuncSetAttribute (the dynamic shared memory a
// launch may ask for, the shared-memory carveout), cache and bank-size preferences, names, the
// driver-API handle of a kernel (musaGetFuncBySymbol); and the per-device cache and
// shared-memory configuration. The launch path asks dynamicSharedLimit() (KernelLaunch.h).
#include "ApiShell.h"
#include "backend/Backend.h"
#include "FatBinaryRegistry.h"
#include "KernelLaunch.h"
#include "Runtime.h"

#include <atomic>
#include <map>
#include <mutex>

using namespace musa::rt;
namespace sim = musa::sim;

namespace {

/// What a program set for one kernel that it can read back or that changes a launch (keyed
/// by its host entry, as CUDA's are per function). Cache and bank-size preferences change
/// nothing in the simulator and CUDA gives no way to read them back: they are only checked.
struct FuncSettings {
  int maxDynamicShared = -1; // -1: the default, what fits beside static shared in 48 KiB
  int carveout = musaSharedmemCarveoutDefault;
};

struct FuncTable {
  std::mutex mutex;
  std::map<const void *, FuncSettings> funcs;
  std::map<const Device *, musaFuncCache> devices;
  std::atomic<bool> anyFunc{false}; // every launch asks: no lock until a program sets one
  static FuncTable &get() {
    static FuncTable *table = new FuncTable; // exit-time API calls may still use it
    return *table;
  }
  FuncSettings settings(const void *func) {
    if (!anyFunc.load(std::memory_order_acquire))
      return FuncSettings();
    std::lock_guard lock(mutex);
    auto it = funcs.find(func);
    return it == funcs.end() ? FuncSettings() : it->second;
  }
  template <class Change> void change(const void *func, Change &&c) {
    std::lock_guard lock(mutex);
    c(funcs[func]);
    anyFunc.store(true, std::memory_order_release);
  }
};

/// The kernel behind `func` on the current device.
musaError_t resolve(const void *func, const sim::KernelEntry *&kernel, Device *&device) {
  device = Runtime::get().currentDevice();
  if (!device)
    return musaErrorNoDevice;
  if (!func)
    return musaErrorInvalidDeviceFunction;
  musaError_t e = FatBinaryRegistry::get().findKernel(func, kernel);
  // The H200's answer for an address that is no kernel (a host function's).
  return e == musaErrorInvalidDeviceFunction ? musaErrorInvalidResourceHandle : e;
}

/// Without musaFuncAttributeMaxDynamicSharedMemorySize a launch may use what fits beside the
/// kernel's static shared memory in the device's default per-block shared memory (48 KiB on
/// the H200); with it, what the program set, up to the opt-in maximum.
size_t defaultDynamicShared(const sim::KernelEntry &k, const sim::DeviceProfile &p) {
  return p.sharedMemPerBlock > k.staticSharedBytes ? p.sharedMemPerBlock - k.staticSharedBytes
                                                   : 0;
}

/// Checks a kernel and an enumerated preference for it (which has no effect to record).
template <class E> musaError_t checkPreference(const void *func, E value, E lowest, E highest) {
  const sim::KernelEntry *kernel = nullptr;
  Device *device = nullptr;
  if (musaError_t e = resolve(func, kernel, device))
    return e;
  return value < lowest || value > highest ? musaErrorInvalidValue : musaSuccess;
}

} // namespace

namespace musa::rt {

size_t dynamicSharedLimit(const void *func, const sim::KernelEntry &kernel,
                          const sim::DeviceProfile &profile) {
  int set = func ? FuncTable::get().settings(func).maxDynamicShared : -1;
  return set >= 0 ? size_t(set) : defaultDynamicShared(kernel, profile);
}

} // namespace musa::rt

extern "C" {

musaError_t musaFuncGetAttributes(musaFuncAttributes *attr, const void *func) {
  MUSA_BACKEND_HOOK(musaFuncGetAttributes, attr, func);
  return apiCall([&] {
    if (!attr)
      return musaErrorInvalidValue;
    const sim::KernelEntry *kernel = nullptr;
    Device *device = nullptr;
    if (musaError_t e = resolve(func, kernel, device))
      return e;
    const sim::DeviceProfile &p = device->profile();
    FuncSettings s = FuncTable::get().settings(func);
    *attr = musaFuncAttributes{};
    attr->sharedSizeBytes = kernel->staticSharedBytes;
    // Constant data and local (stack) sizes are not known per kernel: the simulator's device
    // code is host code, compiled without a GPU register allocator.
    attr->constSizeBytes = 0;
    attr->localSizeBytes = 0;
    attr->maxThreadsPerBlock = kernel->maxThreadsPerBlock
                                   ? std::min<int>(int(kernel->maxThreadsPerBlock),
                                                   p.maxThreadsPerBlock)
                                   : p.maxThreadsPerBlock;
    // The registers per thread the occupancy model assumes for every kernel (the profile's
    // regs_per_thread), so that numbers computed from numRegs agree with the occupancy API.
    attr->numRegs = p.regsPerThread;
    attr->ptxVersion = attr->binaryVersion = p.computeMajor * 10 + p.computeMinor;
    attr->cacheModeCA = 0;
    attr->maxDynamicSharedSizeBytes = int(dynamicSharedLimit(func, *kernel, p));
    attr->preferredShmemCarveout = s.carveout;
    return musaSuccess;
  });
}

musaError_t musaFuncSetAttribute(const void *func, musaFuncAttribute attr, int value) {
  MUSA_BACKEND_HOOK(musaFuncSetAttribute, func, attr, value);
  return apiCall([&] {
    const sim::KernelEntry *kernel = nullptr;
    Device *device = nullptr;
    if (musaError_t e = resolve(func, kernel, device))
      return e;
    const sim::DeviceProfile &p = device->profile();
    switch (attr) {
    case musaFuncAttributeMaxDynamicSharedMemorySize:
      if (value < 0 || uint64_t(value) + kernel->staticSharedBytes > p.sharedMemPerBlockOptin)
        return musaErrorInvalidValue;
      FuncTable::get().change(func, [&](FuncSettings &s) { s.maxDynamicShared = value; });
      return musaSuccess;
    case musaFuncAttributePreferredSharedMemoryCarveout:
      if (value < -1 || value > 100)
        return musaErrorInvalidValue;
      FuncTable::get().change(func, [&](FuncSettings &s) { s.carveout = value; });
      return musaSuccess;
    case musaFuncAttributeClusterDimMustBeSet:
    case musaFuncAttributeRequiredClusterWidth:
    case musaFuncAttributeRequiredClusterHeight:
    case musaFuncAttributeRequiredClusterDepth:
    case musaFuncAttributeNonPortableClusterSizeAllowed:
    case musaFuncAttributeClusterSchedulingPolicyPreference:
      // Thread-block clusters: the simulated devices have none.
      return musaErrorNotSupported;
    default:
      return musaErrorInvalidValue;
    }
  });
}

musaError_t musaFuncSetCacheConfig(const void *func, musaFuncCache cacheConfig) {
  MUSA_BACKEND_HOOK(musaFuncSetCacheConfig, func, cacheConfig);
  // A preference: the simulated L1 and shared memory do not trade capacity.
  return apiCall([&] {
    return checkPreference(func, cacheConfig, musaFuncCachePreferNone, musaFuncCachePreferEqual);
  });
}

musaError_t musaFuncSetSharedMemConfig(const void *func, musaSharedMemConfig config) {
  MUSA_BACKEND_HOOK(musaFuncSetSharedMemConfig, func, config);
  // Deprecated in CUDA and without effect on current GPUs: banks stay four bytes wide.
  return apiCall([&] {
    return checkPreference(func, config, musaSharedMemBankSizeDefault,
                           musaSharedMemBankSizeEightByte);
  });
}

musaError_t musaFuncGetName(const char **name, const void *func) {
  MUSA_BACKEND_HOOK(musaFuncGetName, name, func);
  return apiCall([&] {
    if (!name)
      return musaErrorInvalidValue;
    const sim::KernelEntry *kernel = nullptr;
    Device *device = nullptr;
    if (musaError_t e = resolve(func, kernel, device))
      return e;
    *name = kernel->name.c_str(); // the device (mangled) name, as CUDA gives it
    return musaSuccess;
  });
}

musaError_t musaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                 size_t *paramSize) {
  MUSA_BACKEND_HOOK(musaFuncGetParamInfo, func, paramIndex, paramOffset, paramSize);
  return apiCall([&] {
    const sim::KernelEntry *kernel = nullptr;
    Device *device = nullptr;
    if (musaError_t e = resolve(func, kernel, device))
      return e;
    if (paramIndex >= kernel->paramSizes.size() || !paramOffset || !paramSize)
      return musaErrorInvalidValue;
    *paramOffset = kernel->paramOffsets[paramIndex];
    *paramSize = kernel->paramSizes[paramIndex];
    return musaSuccess;
  });
}

musaError_t musaGetFuncBySymbol(musaFunction_t *functionPtr, const void *symbolPtr) {
  MUSA_BACKEND_HOOK(musaGetFuncBySymbol, functionPtr, symbolPtr);
  return apiCall([&] {
    if (!functionPtr)
      return musaErrorInvalidValue;
    if (!Runtime::get().currentDevice())
      return musaErrorNoDevice;
    if (musaError_t e = FatBinaryRegistry::get().knownFunction(symbolPtr))
      return e;
    // The handle is the kernel's host stub, the key every kernel call looks it up by (as a
    // module's function handle is a key of the registry's): muLaunchKernel launches it as
    // musaLaunchKernel does the symbol, and the musaFunc* calls take it cast back.
    *functionPtr = reinterpret_cast<musaFunction_t>(const_cast<void *>(symbolPtr));
    return musaSuccess;
  });
}

musaError_t musaDeviceSetCacheConfig(musaFuncCache cacheConfig) {
  MUSA_BACKEND_HOOK(musaDeviceSetCacheConfig, cacheConfig);
  return apiCall([&] {
    Device *device = Runtime::get().currentDevice();
    if (!device)
      return musaErrorNoDevice;
    if (cacheConfig < musaFuncCachePreferNone || cacheConfig > musaFuncCachePreferEqual)
      return musaErrorInvalidValue;
    FuncTable &t = FuncTable::get();
    std::lock_guard lock(t.mutex);
    t.devices[device] = cacheConfig; // a preference, as for functions
    return musaSuccess;
  });
}

musaError_t musaDeviceGetCacheConfig(musaFuncCache *pCacheConfig) {
  MUSA_BACKEND_HOOK(musaDeviceGetCacheConfig, pCacheConfig);
  return apiCall([&] {
    Device *device = Runtime::get().currentDevice();
    if (!device)
      return musaErrorNoDevice;
    if (!pCacheConfig)
      return musaErrorInvalidValue;
    FuncTable &t = FuncTable::get();
    std::lock_guard lock(t.mutex);
    auto it = t.devices.find(device);
    *pCacheConfig = it == t.devices.end() ? musaFuncCachePreferNone : it->second;
    return musaSuccess;
  });
}

musaError_t musaDeviceSetSharedMemConfig(musaSharedMemConfig config) {
  MUSA_BACKEND_HOOK(musaDeviceSetSharedMemConfig, config);
  return apiCall([&] {
    Device *device = Runtime::get().currentDevice();
    if (!device)
      return musaErrorNoDevice;
    if (config < musaSharedMemBankSizeDefault || config > musaSharedMemBankSizeEightByte)
      return musaErrorInvalidValue;
    return musaSuccess; // deprecated: accepted, banks stay four bytes wide (what Get reports)
  });
}

musaError_t musaDeviceGetSharedMemConfig(musaSharedMemConfig *pConfig) {
  MUSA_BACKEND_HOOK(musaDeviceGetSharedMemConfig, pConfig);
  return apiCall([&] {
    if (!Runtime::get().currentDevice())
      return musaErrorNoDevice;
    if (!pConfig)
      return musaErrorInvalidValue;
    *pConfig = musaSharedMemBankSizeFourByte;
    return musaSuccess;
  });
}

} // extern "C"
