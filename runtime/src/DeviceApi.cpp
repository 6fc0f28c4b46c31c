// Device management entry points.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Arrays.h"
#include "Capture.h"
#include "Runtime.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

using namespace musa::rt;

namespace {

musaError_t noDevice() {
  return musaErrorNoDevice; // no profile loaded; Runtime printed why
}

void fillProperties(musaDeviceProp &p, const musa::sim::DeviceProfile &d, int ordinal) {
  std::memset(&p, 0, sizeof p);
  std::snprintf(p.name, sizeof p.name, "%s", d.name.c_str());
  // A stable UUID derived from the profile and ordinal.
  for (size_t i = 0; i < sizeof p.uuid.bytes; ++i)
    p.uuid.bytes[i] = char((i < d.id.size() ? d.id[i] : 0x5a) ^ (ordinal * 37 + int(i)));
  p.totalGlobalMem = d.totalGlobalMem;
  p.sharedMemPerBlock = d.sharedMemPerBlock;
  p.regsPerBlock = d.regsPerBlock;
  p.warpSize = d.warpSize;
  p.memPitch = d.memPitch;
  p.maxThreadsPerBlock = d.maxThreadsPerBlock;
  std::copy(d.maxBlockDim.begin(), d.maxBlockDim.end(), p.maxThreadsDim);
  std::copy(d.maxGridDim.begin(), d.maxGridDim.end(), p.maxGridSize);
  p.clockRate = d.clockRateKHz;
  p.totalConstMem = d.totalConstMem;
  p.major = d.computeMajor;
  p.minor = d.computeMinor;
  p.textureAlignment = d.textureAlignment;
  p.texturePitchAlignment = d.texturePitchAlignment;
  describeTextureLimits(p);
  p.deviceOverlap = d.asyncEngineCount > 0;
  p.multiProcessorCount = d.multiProcessorCount;
  p.canMapHostMemory = 1;
  p.computeMode = musaComputeModeDefault;
  p.concurrentKernels = 1;
  p.pciBusID = 0x10 + ordinal; // see pciBus()
  p.pciDeviceID = 0;
  p.pciDomainID = 0;
  p.asyncEngineCount = d.asyncEngineCount;
  p.unifiedAddressing = 1;
  p.memoryClockRate = d.memoryClockRateKHz;
  p.memoryBusWidth = d.memoryBusWidth;
  p.l2CacheSize = d.l2CacheSize;
  p.persistingL2CacheMaxSize = int(persistingL2MaxSize(d));
  p.accessPolicyMaxWindowSize = int(AccessPolicyMaxWindowSize);
  p.maxThreadsPerMultiProcessor = d.maxThreadsPerMultiProcessor;
  p.streamPrioritiesSupported = 1;
  p.globalL1CacheSupported = 1;
  p.localL1CacheSupported = 1;
  p.sharedMemPerMultiprocessor = d.sharedMemPerMultiprocessor;
  p.regsPerMultiprocessor = d.regsPerMultiprocessor;
  p.managedMemory = 1;
  p.hostNativeAtomicSupported = 1;
  p.singleToDoublePrecisionPerfRatio = 2;
  p.sharedMemPerBlockOptin = d.sharedMemPerBlockOptin;
  p.maxBlocksPerMultiProcessor = d.maxBlocksPerMultiProcessor;
  // Cooperative launches run (all blocks resident, grid.sync()); the limit is the occupancy
  // API's (OccupancyApi.cpp).
  p.cooperativeLaunch = 1;
  // Stream-ordered allocation and memory pools (MemoryPool.h); no pool memory is exported
  // to other processes, so no shareable handle type is supported.
  p.memoryPoolsSupported = 1;
  p.hostRegisterSupported = 1;
  p.ipcEventSupported = 1;
}

} // namespace

extern "C" musaError_t musaGetDeviceCount(int *count) {
  MUSA_BACKEND_HOOK(musaGetDeviceCount, count);
  return apiCall([&] {
    if (!count)
      return musaErrorInvalidValue;
    *count = Runtime::get().deviceCount();
    return *count ? musaSuccess : noDevice();
  });
}

extern "C" musaError_t musaGetDeviceProperties(musaDeviceProp *prop, int device) {
  MUSA_BACKEND_HOOK(musaGetDeviceProperties, prop, device);
  return apiCall([&] {
    if (!prop)
      return musaErrorInvalidValue;
    Device *d = Runtime::get().device(device);
    if (!d)
      return Runtime::get().deviceCount() ? musaErrorInvalidDevice : noDevice();
    fillProperties(*prop, d->profile(), device);
    return musaSuccess;
  });
}

// The device that best matches *prop: the fields a program sets (compute capability, memory,
// multiprocessors, warp size, name) each count when a device meets them; ties go to the
// lower ordinal.
extern "C" musaError_t musaChooseDevice(int *device, const musaDeviceProp *prop) {
  MUSA_BACKEND_HOOK(musaChooseDevice, device, prop);
  return apiCall([&] {
    if (!device || !prop)
      return musaErrorInvalidValue;
    int count = Runtime::get().deviceCount();
    if (!count)
      return noDevice();
    int best = 0, bestScore = -1;
    for (int i = 0; i < count; ++i) {
      musaDeviceProp p;
      fillProperties(p, Runtime::get().device(i)->profile(), i);
      int score = 0;
      if (prop->major || prop->minor) {
        bool atLeast = p.major > prop->major || (p.major == prop->major && p.minor >= prop->minor);
        score += atLeast ? 4 : 0;
        score += p.major == prop->major && p.minor == prop->minor ? 2 : 0;
      }
      score += prop->totalGlobalMem && p.totalGlobalMem >= prop->totalGlobalMem;
      score += prop->multiProcessorCount && p.multiProcessorCount >= prop->multiProcessorCount;
      score += prop->warpSize && p.warpSize == prop->warpSize;
      score += prop->name[0] && std::strncmp(p.name, prop->name, sizeof p.name) == 0;
      if (score > bestScore)
        best = i, bestScore = score;
    }
    *device = best;
    return musaSuccess;
  });
}

extern "C" musaError_t musaSetDevice(int device) {
  MUSA_BACKEND_HOOK(musaSetDevice, device);
  return apiCall([&] {
    if (!Runtime::get().device(device))
      return Runtime::get().deviceCount() ? musaErrorInvalidDevice : noDevice();
    Runtime::get().setCurrentOrdinal(device);
    return musaSuccess;
  });
}

extern "C" musaError_t musaGetDevice(int *device) {
  MUSA_BACKEND_HOOK(musaGetDevice, device);
  return apiCall([&] {
    if (!device)
      return musaErrorInvalidValue;
    if (!Runtime::get().currentDevice())
      return noDevice();
    *device = Runtime::get().currentOrdinal();
    return musaSuccess;
  });
}

// The devices a thread that never calls musaSetDevice may be given, in order of preference:
// its first call that needs a device takes the first of them (CUDA tries each in turn until
// one initialises; a simulated device always does). A length of 0 restores the default order.
extern "C" musaError_t musaSetValidDevices(int *device_arr, int len) {
  MUSA_BACKEND_HOOK(musaSetValidDevices, device_arr, len);
  return apiCall([&] {
    if (len < 0 || (len > 0 && !device_arr))
      return musaErrorInvalidValue;
    Runtime &rt = Runtime::get();
    if (len > 0 && !rt.deviceCount())
      return noDevice();
    if (len > rt.deviceCount()) // CUDA: a list longer than the devices there are
      return musaErrorInvalidValue;
    for (int i = 0; i < len; ++i)
      if (!rt.device(device_arr[i]))
        return musaErrorInvalidDevice;
    rt.setValidDevices(std::vector<int>(device_arr, device_arr + len)); // len 0: the default
    return musaSuccess;
  });
}

extern "C" musaError_t musaDeviceSynchronize(void) {
  MUSA_BACKEND_HOOK(musaDeviceSynchronize);
  return apiCall([&] {
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return noDevice();
    bool capturing;
    {
      std::lock_guard lock(d->capturesMutex);
      capturing = !d->captures.empty();
    }
    if (capturing) // it would wait for captured work that never runs
      return Capture::invalidateAll(*d, musaErrorStreamCaptureUnsupported);
    d->synchronize();
    releasePoolMemoryAboveThresholds();
    return d->stickyError();
  });
}

extern "C" musaError_t musaDeviceReset(void) {
  MUSA_BACKEND_HOOK(musaDeviceReset);
  return apiCall([&] {
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return noDevice();
    dropTexturesOf(d);
    dropArraysOf(d);
    Capture::abandonAll(*d); // captures in progress end, invalidated
    d->reset();
    lastError(true);
    return musaSuccess;
  });
}

extern "C" musaError_t musaMemGetInfo(size_t *free, size_t *total) {
  MUSA_BACKEND_HOOK(musaMemGetInfo, free, total);
  return apiCall([&] {
    if (!free || !total)
      return musaErrorInvalidValue;
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return noDevice();
    *total = d->memory().capacity();
    *free = *total - d->memory().used();
    return musaSuccess;
  });
}

namespace {
musaError_t reportVersion(int *version) {
  if (!version)
    return musaErrorInvalidValue;
  *version = MUSART_VERSION;
  return musaSuccess;
}
} // namespace

// The simulated driver and the runtime are one library of one version.
extern "C" musaError_t musaDriverGetVersion(int *version) {
  MUSA_BACKEND_HOOK(musaDriverGetVersion, version);
  return apiCall([&] { return reportVersion(version); });
}

namespace {
/// The driver API function `name` (mu…, or its CUDA name cu…) of libmusa, loaded from beside
/// this library if the program did not link it; null if there is no such function.
void *driverFunction(const char *name) {
  std::string mu = name;
  if (mu.rfind("cu", 0) == 0)
    mu = "mu" + mu.substr(2);
  if (mu.rfind("mu", 0) != 0)
    return nullptr;
  if (void *f = dlsym(RTLD_DEFAULT, mu.c_str()))
    return f;
  static void *library = [] {
    Dl_info self{};
    if (!dladdr(reinterpret_cast<void *>(&musaDriverGetVersion), &self) || !self.dli_fname)
      return static_cast<void *>(nullptr);
    std::string path = self.dli_fname;
    path = path.substr(0, path.rfind('/') + 1) + "libmusa.so";
    return dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  }();
  return library ? dlsym(library, mu.c_str()) : nullptr;
}

/// musaGetDriverEntryPoint(ByVersion): as the H100 answers (tests/hardware/session19): an
/// unknown symbol or a version too old is success with a null function and the status; flags
/// other than the three are InvalidValue.
musaError_t entryPoint(const char *symbol, void **funcPtr, unsigned version,
                       unsigned long long flags, musaDriverEntryPointQueryResult *status) {
  if (!symbol || !funcPtr || flags > musaEnablePerThreadDefaultStream)
    return musaErrorInvalidValue;
  *funcPtr = driverFunction(symbol);
  musaDriverEntryPointQueryResult found =
      *funcPtr ? musaDriverEntryPointSuccess : musaDriverEntryPointSymbolNotFound;
  // The simulator's driver functions have the forms CUDA 3.2 gave the driver API (the _v2
  // memory calls); an older version asked for names other functions.
  if (*funcPtr && version < 3020) {
    *funcPtr = nullptr;
    found = musaDriverEntryPointVersionNotSufficent;
  }
  if (status)
    *status = found;
  return musaSuccess;
}
} // namespace

extern "C" musaError_t musaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                               unsigned long long flags,
                                               musaDriverEntryPointQueryResult *driverStatus) {
  MUSA_BACKEND_HOOK(musaGetDriverEntryPoint, symbol, funcPtr, flags, driverStatus);
  return apiCall([&] { return entryPoint(symbol, funcPtr, MUSART_VERSION, flags, driverStatus); });
}

extern "C" musaError_t
musaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr, unsigned int musaVersion,
                                 unsigned long long flags,
                                 musaDriverEntryPointQueryResult *driverStatus) {
  MUSA_BACKEND_HOOK(musaGetDriverEntryPointByVersion, symbol, funcPtr, musaVersion, flags,
                    driverStatus);
  return apiCall([&] { return entryPoint(symbol, funcPtr, musaVersion, flags, driverStatus); });
}

extern "C" musaError_t musaRuntimeGetVersion(int *version) {
  MUSA_BACKEND_HOOK(musaRuntimeGetVersion, version);
  return apiCall([&] { return reportVersion(version); });
}

namespace {

Device *deviceOrNull(int ordinal) { return Runtime::get().device(ordinal); }

/// PCI location of a simulated device: domain 0, bus 0x10 + ordinal, device 0, function 0.
int pciBus(int ordinal) { return 0x10 + ordinal; }

bool attributeValue(const musaDeviceProp &p, musaDeviceAttr attr, int &v) {
  switch (attr) {
  case musaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; return true;
  case musaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; return true;
  case musaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; return true;
  case musaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; return true;
  case musaDevAttrMaxGridDimX: v = p.maxGridSize[0]; return true;
  case musaDevAttrMaxGridDimY: v = p.maxGridSize[1]; return true;
  case musaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; return true;
  case musaDevAttrMaxSharedMemoryPerBlock: v = int(p.sharedMemPerBlock); return true;
  case musaDevAttrTotalConstantMemory: v = int(p.totalConstMem); return true;
  case musaDevAttrWarpSize: v = p.warpSize; return true;
  case musaDevAttrMaxPitch: v = int(std::min<size_t>(p.memPitch, INT32_MAX)); return true;
  case musaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; return true;
  case musaDevAttrClockRate: v = p.clockRate; return true;
  case musaDevAttrTextureAlignment: v = int(p.textureAlignment); return true;
  case musaDevAttrGpuOverlap: v = p.deviceOverlap; return true;
  case musaDevAttrMultiProcessorCount: v = p.multiProcessorCount; return true;
  case musaDevAttrKernelExecTimeout: v = p.kernelExecTimeoutEnabled; return true;
  case musaDevAttrIntegrated: v = p.integrated; return true;
  case musaDevAttrCanMapHostMemory: v = p.canMapHostMemory; return true;
  case musaDevAttrComputeMode: v = p.computeMode; return true;
  case musaDevAttrConcurrentKernels: v = p.concurrentKernels; return true;
  case musaDevAttrEccEnabled: v = p.ECCEnabled; return true;
  case musaDevAttrPciBusId: v = p.pciBusID; return true;
  case musaDevAttrPciDeviceId: v = p.pciDeviceID; return true;
  case musaDevAttrTccDriver: v = p.tccDriver; return true;
  case musaDevAttrMemoryClockRate: v = p.memoryClockRate; return true;
  case musaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; return true;
  case musaDevAttrL2CacheSize: v = p.l2CacheSize; return true;
  case musaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; return true;
  case musaDevAttrAsyncEngineCount: v = p.asyncEngineCount; return true;
  case musaDevAttrUnifiedAddressing: v = p.unifiedAddressing; return true;
  case musaDevAttrPciDomainId: v = p.pciDomainID; return true;
  case musaDevAttrTexturePitchAlignment: v = int(p.texturePitchAlignment); return true;
  case musaDevAttrComputeCapabilityMajor: v = p.major; return true;
  case musaDevAttrComputeCapabilityMinor: v = p.minor; return true;
  case musaDevAttrStreamPrioritiesSupported: v = p.streamPrioritiesSupported; return true;
  case musaDevAttrGlobalL1CacheSupported: v = p.globalL1CacheSupported; return true;
  case musaDevAttrLocalL1CacheSupported: v = p.localL1CacheSupported; return true;
  case musaDevAttrMaxSharedMemoryPerMultiprocessor:
    v = int(p.sharedMemPerMultiprocessor);
    return true;
  case musaDevAttrMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; return true;
  case musaDevAttrManagedMemory: v = p.managedMemory; return true;
  case musaDevAttrIsMultiGpuBoard: v = p.isMultiGpuBoard; return true;
  case musaDevAttrMultiGpuBoardGroupID: v = p.multiGpuBoardGroupID; return true;
  case musaDevAttrHostNativeAtomicSupported: v = p.hostNativeAtomicSupported; return true;
  case musaDevAttrSingleToDoublePrecisionPerfRatio:
    v = p.singleToDoublePrecisionPerfRatio;
    return true;
  case musaDevAttrPageableMemoryAccess: v = p.pageableMemoryAccess; return true;
  case musaDevAttrConcurrentManagedAccess: v = p.concurrentManagedAccess; return true;
  case musaDevAttrComputePreemptionSupported: v = p.computePreemptionSupported; return true;
  case musaDevAttrCanUseHostPointerForRegisteredMem:
    v = p.canUseHostPointerForRegisteredMem;
    return true;
  case musaDevAttrCooperativeLaunch: v = p.cooperativeLaunch; return true;
  case musaDevAttrCooperativeMultiDeviceLaunch: v = p.cooperativeMultiDeviceLaunch; return true;
  case musaDevAttrMaxSharedMemoryPerBlockOptin: v = int(p.sharedMemPerBlockOptin); return true;
  case musaDevAttrCanFlushRemoteWrites: v = 0; return true;
  case musaDevAttrHostRegisterSupported: v = p.hostRegisterSupported; return true;
  case musaDevAttrPageableMemoryAccessUsesHostPageTables:
    v = p.pageableMemoryAccessUsesHostPageTables;
    return true;
  case musaDevAttrDirectManagedMemAccessFromHost: v = p.directManagedMemAccessFromHost; return true;
  case musaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; return true;
  case musaDevAttrMaxPersistingL2CacheSize: v = p.persistingL2CacheMaxSize; return true;
  case musaDevAttrMaxAccessPolicyWindowSize: v = p.accessPolicyMaxWindowSize; return true;
  case musaDevAttrReservedSharedMemoryPerBlock: v = int(p.reservedSharedMemPerBlock); return true;
  case musaDevAttrSparseMusaArraySupported: v = p.sparseMusaArraySupported; return true;
  case musaDevAttrHostRegisterReadOnlySupported: v = p.hostRegisterReadOnlySupported; return true;
  case musaDevAttrMemoryPoolsSupported: v = p.memoryPoolsSupported; return true;
  }
  return false;
}

constexpr unsigned KnownDeviceFlags = musaDeviceScheduleSpin | musaDeviceScheduleYield |
                                      musaDeviceScheduleBlockingSync | musaDeviceMapHost |
                                      musaDeviceLmemResizeToMax;

/// Known flags with at most one scheduling policy (BlockingSync is 4: 1, 2 and 4 exclusive).
bool validDeviceFlags(unsigned flags) {
  unsigned schedule = flags & 0x07;
  return !(flags & ~KnownDeviceFlags) && !(schedule & (schedule - 1));
}

} // namespace

extern "C" musaError_t musaDeviceCanAccessPeer(int *canAccessPeer, int device, int peer) {
  MUSA_BACKEND_HOOK(musaDeviceCanAccessPeer, canAccessPeer, device, peer);
  return apiCall([&] {
    if (!canAccessPeer)
      return musaErrorInvalidValue;
    if (!deviceOrNull(device) || !deviceOrNull(peer))
      return musaErrorInvalidDevice;
    // Every simulated device shares the host's memory; a device is not its own peer.
    *canAccessPeer = device != peer;
    return musaSuccess;
  });
}

extern "C" musaError_t musaDeviceGetP2PAttribute(int *value, enum musaDeviceP2PAttr attr,
                                                 int srcDevice, int dstDevice) {
  MUSA_BACKEND_HOOK(musaDeviceGetP2PAttribute, value, attr, srcDevice, dstDevice);
  return apiCall([&] {
    if (!value)
      return musaErrorInvalidValue;
    if (!deviceOrNull(srcDevice) || !deviceOrNull(dstDevice) || srcDevice == dstDevice)
      return musaErrorInvalidDevice; // a device is not its own peer (as musaDeviceCanAccessPeer)
    switch (attr) {
    case musaDevP2PAttrPerformanceRank: *value = 0; return musaSuccess;
    // One shared memory: peer loads, stores, atomics and arrays all work.
    case musaDevP2PAttrAccessSupported:
    case musaDevP2PAttrNativeAtomicSupported:
    case musaDevP2PAttrMusaArrayAccessSupported: *value = 1; return musaSuccess;
    }
    return musaErrorInvalidValue;
  });
}

extern "C" musaError_t musaDeviceFlushGPUDirectRDMAWrites(
    enum musaFlushGPUDirectRDMAWritesTarget target, enum musaFlushGPUDirectRDMAWritesScope scope) {
  MUSA_BACKEND_HOOK(musaDeviceFlushGPUDirectRDMAWrites, target, scope);
  return apiCall([&] {
    if (target != musaFlushGPUDirectRDMAWritesTargetCurrentDevice ||
        (scope != musaFlushGPUDirectRDMAWritesToOwner &&
         scope != musaFlushGPUDirectRDMAWritesToAllDevices))
      return musaErrorInvalidValue;
    if (!Runtime::get().currentDevice())
      return musaErrorNoDevice;
    // No third-party device writes into simulated memory over RDMA: once the device's own
    // writes are visible (they are host memory writes), there is nothing left to flush.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return musaSuccess;
  });
}

// The deprecated thread-level names: the device calls themselves (their hooks forward them).
extern "C" musaError_t musaThreadSynchronize(void) { return musaDeviceSynchronize(); }
extern "C" musaError_t musaThreadExit(void) { return musaDeviceReset(); }
extern "C" musaError_t musaThreadSetLimit(enum musaLimit limit, size_t value) {
  return musaDeviceSetLimit(limit, value);
}
extern "C" musaError_t musaThreadGetLimit(size_t *value, enum musaLimit limit) {
  return musaDeviceGetLimit(value, limit);
}
extern "C" musaError_t musaThreadSetCacheConfig(enum musaFuncCache cacheConfig) {
  return musaDeviceSetCacheConfig(cacheConfig);
}
extern "C" musaError_t musaThreadGetCacheConfig(enum musaFuncCache *pCacheConfig) {
  return musaDeviceGetCacheConfig(pCacheConfig);
}

extern "C" musaError_t musaDeviceEnablePeerAccess(int peer, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaDeviceEnablePeerAccess, peer, flags);
  return apiCall([&] {
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    if (flags != 0)
      return musaErrorInvalidValue;
    if (!deviceOrNull(peer) || peer == d->ordinal())
      return musaErrorInvalidDevice;
    std::lock_guard lock(d->peerMutex);
    return d->peers.insert(peer).second ? musaSuccess : musaErrorPeerAccessAlreadyEnabled;
  });
}

extern "C" musaError_t musaDeviceDisablePeerAccess(int peer) {
  MUSA_BACKEND_HOOK(musaDeviceDisablePeerAccess, peer);
  return apiCall([&] {
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    if (!deviceOrNull(peer) || peer == d->ordinal())
      return musaErrorInvalidDevice;
    std::lock_guard lock(d->peerMutex);
    return d->peers.erase(peer) ? musaSuccess : musaErrorPeerAccessNotEnabled;
  });
}

extern "C" musaError_t musaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  MUSA_BACKEND_HOOK(musaDeviceGetPCIBusId, pciBusId, len, device);
  return apiCall([&] {
    if (!pciBusId || len <= 0)
      return musaErrorInvalidValue;
    if (!deviceOrNull(device))
      return musaErrorInvalidDevice;
    char id[32];
    int n = std::snprintf(id, sizeof id, "0000:%02x:00.0", pciBus(device));
    if (n >= len)
      return musaErrorInvalidValue;
    std::memcpy(pciBusId, id, size_t(n) + 1);
    return musaSuccess;
  });
}

extern "C" musaError_t musaDeviceGetByPCIBusId(int *device, const char *pciBusId) {
  MUSA_BACKEND_HOOK(musaDeviceGetByPCIBusId, device, pciBusId);
  return apiCall([&] {
    if (!device || !pciBusId)
      return musaErrorInvalidValue;
    unsigned domain = 0, bus = 0, dev = 0, fn = 0;
    // Accepted forms: domain:bus:device.function and bus:device.function (hex).
    if (std::sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) {
      domain = 0;
      if (std::sscanf(pciBusId, "%x:%x.%x", &bus, &dev, &fn) != 3)
        return musaErrorInvalidValue;
    }
    for (int i = 0; i < Runtime::get().deviceCount(); ++i)
      if (domain == 0 && bus == unsigned(pciBus(i)) && dev == 0 && fn == 0) {
        *device = i;
        return musaSuccess;
      }
    return musaErrorInvalidDevice;
  });
}

extern "C" musaError_t musaDeviceGetUuid(musaUuid_t *uuid, int device) {
  MUSA_BACKEND_HOOK(musaDeviceGetUuid, uuid, device);
  return apiCall([&] {
    if (!uuid)
      return musaErrorInvalidValue;
    Device *d = deviceOrNull(device);
    if (!d)
      return musaErrorInvalidDevice;
    musaDeviceProp prop;
    fillProperties(prop, d->profile(), device);
    *uuid = prop.uuid;
    return musaSuccess;
  });
}

extern "C" musaError_t musaDeviceGetAttribute(int *value, musaDeviceAttr attr, int device) {
  MUSA_BACKEND_HOOK(musaDeviceGetAttribute, value, attr, device);
  return apiCall([&] {
    if (!value)
      return musaErrorInvalidValue;
    Device *d = deviceOrNull(device);
    if (!d)
      return musaErrorInvalidDevice;
    musaDeviceProp prop;
    fillProperties(prop, d->profile(), device);
    int v = 0;
    if (!attributeValue(prop, attr, v))
      return musaErrorInvalidValue;
    *value = v;
    return musaSuccess;
  });
}

extern "C" musaError_t musaSetDeviceFlags(unsigned int flags) {
  MUSA_BACKEND_HOOK(musaSetDeviceFlags, flags);
  return apiCall([&] {
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    if (!validDeviceFlags(flags))
      return musaErrorInvalidValue;
    d->flags = flags;
    return musaSuccess;
  });
}

// The simulator's devices need no initialisation: the call checks its arguments and, with
// musaInitDeviceFlagsAreValid, sets the device's flags as musaSetDeviceFlags would.
extern "C" musaError_t musaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaInitDevice, device, deviceFlags, flags);
  return apiCall([&] {
    Device *d = Runtime::get().device(device);
    if (!d)
      return musaErrorInvalidDevice;
    if (flags & ~unsigned(musaInitDeviceFlagsAreValid))
      return musaErrorInvalidValue;
    if (!(flags & musaInitDeviceFlagsAreValid))
      return musaSuccess;
    if (!validDeviceFlags(deviceFlags))
      return musaErrorInvalidValue;
    d->flags = deviceFlags;
    return musaSuccess;
  });
}

extern "C" musaError_t musaGetDeviceFlags(unsigned int *flags) {
  MUSA_BACKEND_HOOK(musaGetDeviceFlags, flags);
  return apiCall([&] {
    if (!flags)
      return musaErrorInvalidValue;
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return musaErrorNoDevice;
    // Mapped pinned memory is always available (unified addressing), as CUDA reports.
    *flags = d->flags | musaDeviceMapHost;
    return musaSuccess;
  });
}
