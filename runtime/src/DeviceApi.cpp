// Device management entry points.
#include "ApiShell.h"
#include "Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

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
  p.deviceOverlap = d.asyncEngineCount > 0;
  p.multiProcessorCount = d.multiProcessorCount;
  p.canMapHostMemory = 1;
  p.computeMode = musaComputeModeDefault;
  p.concurrentKernels = 1;
  p.pciBusID = 0x10 + ordinal;
  p.pciDeviceID = 0;
  p.pciDomainID = 0;
  p.asyncEngineCount = d.asyncEngineCount;
  p.unifiedAddressing = 1;
  p.memoryClockRate = d.memoryClockRateKHz;
  p.memoryBusWidth = d.memoryBusWidth;
  p.l2CacheSize = d.l2CacheSize;
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
  p.hostRegisterSupported = 1;
  p.ipcEventSupported = 1;
}

} // namespace

extern "C" musaError_t musaGetDeviceCount(int *count) {
  return apiCall([&] {
    if (!count)
      return musaErrorInvalidValue;
    *count = Runtime::get().deviceCount();
    return *count ? musaSuccess : noDevice();
  });
}

extern "C" musaError_t musaGetDeviceProperties(musaDeviceProp *prop, int device) {
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

extern "C" musaError_t musaSetDevice(int device) {
  return apiCall([&] {
    if (!Runtime::get().device(device))
      return Runtime::get().deviceCount() ? musaErrorInvalidDevice : noDevice();
    Runtime::get().setCurrentOrdinal(device);
    return musaSuccess;
  });
}

extern "C" musaError_t musaGetDevice(int *device) {
  return apiCall([&] {
    if (!device)
      return musaErrorInvalidValue;
    if (!Runtime::get().currentDevice())
      return noDevice();
    *device = Runtime::get().currentOrdinal();
    return musaSuccess;
  });
}

extern "C" musaError_t musaDeviceSynchronize(void) {
  return apiCall([&] {
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return noDevice();
    d->synchronize();
    return d->stickyError();
  });
}

extern "C" musaError_t musaDeviceReset(void) {
  return apiCall([&] {
    Device *d = Runtime::get().currentDevice();
    if (!d)
      return noDevice();
    d->reset();
    lastError(true);
    return musaSuccess;
  });
}

extern "C" musaError_t musaMemGetInfo(size_t *free, size_t *total) {
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
  return apiCall([&] { return reportVersion(version); });
}

extern "C" musaError_t musaRuntimeGetVersion(int *version) {
  return apiCall([&] { return reportVersion(version); });
}
