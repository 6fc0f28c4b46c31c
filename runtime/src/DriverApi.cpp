// libmusa: the MUSA Driver API (musa.h) over the runtime. Contexts are records naming a device
// (the primary one per device, shared with the runtime API, and created ones); every call that
// needs a context takes the calling thread's current one and makes its device the runtime's
// current device. Modules are device images the driver writes with --cuda-device-only, loaded
// and compiled by the fat-binary registry; a function handle launches through the same path
// as a host stub. Memory, streams and events are the runtime's, so handles interoperate.
#include "FatBinaryRegistry.h"
#include "backend/Backend.h"
#include "Runtime.h"
// After the runtime's headers: musa.h declares the runtime's C++ overloads too.
#include "DriverShell.h"

#include "musa.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

struct MUctx_st {
  MUdevice device = 0;
  bool primary = false;
  bool alive = true;
  unsigned flags = 0;
  unsigned retained = 0;             // primary contexts: muDevicePrimaryCtxRetain count
  bool resetSinceRetain = false;     // primary contexts: inactive until retained again
  std::set<void *> allocations;      // created contexts: freed with the context
  std::vector<void **> modules;      // created contexts: unloaded with the context
};

namespace {

using musa::rt::FatBinaryRegistry;

struct DriverState {
  std::mutex mutex;
  bool initialized = false;
  std::vector<std::unique_ptr<MUctx_st>> primaries; // one per device, made on first use
  std::set<MUctx_st *> created;                     // every created context, dead or alive
  std::vector<std::unique_ptr<MUctx_st>> owned;
};

DriverState &state() {
  static DriverState *s = new DriverState; // used from atexit handlers too: never destroyed
  return *s;
}

thread_local std::vector<MUctx_st *> contextStack;

} // namespace

namespace musa::drv {

MUresult toResult(musaError_t e) {
  switch (e) {
  case musaSuccess: return MUSA_SUCCESS;
  case musaErrorInvalidValue:
  case musaErrorInvalidConfiguration:
  case musaErrorInvalidDevicePointer:
  case musaErrorInvalidMemcpyDirection:
  case musaErrorInvalidPitchValue: return MUSA_ERROR_INVALID_VALUE;
  case musaErrorOutOfMemory: return MUSA_ERROR_OUT_OF_MEMORY;
  case musaErrorNotInitialized: return MUSA_ERROR_NOT_INITIALIZED;
  case musaErrorCudartUnloading: return MUSA_ERROR_DEINITIALIZED;
  case musaErrorInvalidSymbol:
  case musaErrorSymbolNotFound: return MUSA_ERROR_NOT_FOUND;
  case musaErrorInvalidDeviceFunction:
  case musaErrorInvalidResourceHandle: return MUSA_ERROR_INVALID_HANDLE;
  case musaErrorNoDevice: return MUSA_ERROR_NO_DEVICE;
  case musaErrorInvalidDevice: return MUSA_ERROR_INVALID_DEVICE;
  case musaErrorInvalidKernel:
  case musaErrorInvalidKernelImage: return MUSA_ERROR_INVALID_IMAGE;
  case musaErrorLaunchFailure: return MUSA_ERROR_LAUNCH_FAILED;
  case musaErrorLaunchTimeout: return MUSA_ERROR_LAUNCH_TIMEOUT;
  case musaErrorIllegalState: return MUSA_ERROR_ILLEGAL_STATE;
  default:
    break;
  }
  int code = int(e);
  if (code >= 600 && code < 1000)
    return MUresult(code); // the codes from 600 on are numbered alike
  return MUSA_ERROR_UNKNOWN;
}

MUresult enter(MUctx_st *&ctx) {
  if (!state().initialized)
    return MUSA_ERROR_NOT_INITIALIZED;
  if (contextStack.empty())
    return MUSA_ERROR_INVALID_CONTEXT;
  ctx = contextStack.back();
  if (!ctx->alive)
    return MUSA_ERROR_CONTEXT_IS_DESTROYED;
  return toResult(musaSetDevice(ctx->device));
}


MUresult checkDevice(MUdevice dev) {
  if (!state().initialized)
    return MUSA_ERROR_NOT_INITIALIZED;
  int count = 0;
  if (musaGetDeviceCount(&count) != musaSuccess || dev < 0 || dev >= count)
    return MUSA_ERROR_INVALID_DEVICE;
  return MUSA_SUCCESS;
}

MUresult deviceProperties(MUdevice dev, const void *out, musaDeviceProp &prop) {
  if (MUresult r = checkDevice(dev))
    return r;
  if (!out)
    return MUSA_ERROR_INVALID_VALUE;
  return toResult(musaGetDeviceProperties(&prop, dev));
}

} // namespace musa::drv

namespace {

using namespace musa::drv;


/// Whether `ctx` is a context this library handed out (destroyed ones included).
bool known(MUctx_st *ctx) {
  DriverState &s = state();
  if (s.created.count(ctx))
    return true;
  for (auto &p : s.primaries)
    if (p.get() == ctx)
      return true;
  return false;
}


MUctx_st *primaryOf(MUdevice dev) {
  DriverState &s = state();
  if (s.primaries.size() <= size_t(dev))
    s.primaries.resize(size_t(dev) + 1);
  if (!s.primaries[size_t(dev)]) {
    s.primaries[size_t(dev)] = std::make_unique<MUctx_st>();
    s.primaries[size_t(dev)]->device = dev;
    s.primaries[size_t(dev)]->primary = true;
  }
  return s.primaries[size_t(dev)].get();
}

void *ptr(MUdeviceptr p) { return reinterpret_cast<void *>(uintptr_t(p)); }

MUresult loadModule(MUmodule *module, const void *image, uint64_t size) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (!module || !image)
    return MUSA_ERROR_INVALID_VALUE;
  std::string error;
  void **handle = FatBinaryRegistry::get().loadModule(image, size, error);
  if (!handle) {
    std::fprintf(stderr, "musa-sim: muModuleLoad: %s\n", error.c_str());
    return MUSA_ERROR_INVALID_IMAGE;
  }
  std::lock_guard lock(state().mutex);
  if (!ctx->primary)
    ctx->modules.push_back(handle);
  *module = reinterpret_cast<MUmodule>(handle);
  return MUSA_SUCCESS;
}

struct ErrorText {
  MUresult code;
  const char *name;
  const char *text;
};
constexpr ErrorText errorTexts[] = {
    {MUSA_SUCCESS, "MUSA_SUCCESS", "no error"},
    {MUSA_ERROR_INVALID_VALUE, "MUSA_ERROR_INVALID_VALUE", "invalid argument"},
    {MUSA_ERROR_OUT_OF_MEMORY, "MUSA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {MUSA_ERROR_NOT_INITIALIZED, "MUSA_ERROR_NOT_INITIALIZED", "initialization error"},
    {MUSA_ERROR_DEINITIALIZED, "MUSA_ERROR_DEINITIALIZED", "driver shutting down"},
    {MUSA_ERROR_NO_DEVICE, "MUSA_ERROR_NO_DEVICE", "no MUSA-capable device is detected"},
    {MUSA_ERROR_INVALID_DEVICE, "MUSA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {MUSA_ERROR_INVALID_IMAGE, "MUSA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {MUSA_ERROR_INVALID_CONTEXT, "MUSA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {MUSA_ERROR_NO_BINARY_FOR_GPU, "MUSA_ERROR_NO_BINARY_FOR_GPU",
     "no kernel image is available for execution on the device"},
    {MUSA_ERROR_INVALID_SOURCE, "MUSA_ERROR_INVALID_SOURCE", "device kernel image is invalid"},
    {MUSA_ERROR_FILE_NOT_FOUND, "MUSA_ERROR_FILE_NOT_FOUND", "file not found"},
    {MUSA_ERROR_INVALID_HANDLE, "MUSA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {MUSA_ERROR_ILLEGAL_STATE, "MUSA_ERROR_ILLEGAL_STATE",
     "the operation cannot be performed in the present state"},
    {MUSA_ERROR_NOT_FOUND, "MUSA_ERROR_NOT_FOUND", "named symbol not found"},
    {MUSA_ERROR_NOT_READY, "MUSA_ERROR_NOT_READY", "device not ready"},
    {MUSA_ERROR_ILLEGAL_ADDRESS, "MUSA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {MUSA_ERROR_LAUNCH_OUT_OF_RESOURCES, "MUSA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {MUSA_ERROR_LAUNCH_TIMEOUT, "MUSA_ERROR_LAUNCH_TIMEOUT",
     "the launch timed out and was terminated"},
    {MUSA_ERROR_PRIMARY_CONTEXT_ACTIVE, "MUSA_ERROR_PRIMARY_CONTEXT_ACTIVE",
     "primary context active"},
    {MUSA_ERROR_CONTEXT_IS_DESTROYED, "MUSA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed"},
    {MUSA_ERROR_ASSERT, "MUSA_ERROR_ASSERT", "device-side assert triggered"},
    {MUSA_ERROR_HARDWARE_STACK_ERROR, "MUSA_ERROR_HARDWARE_STACK_ERROR", "hardware stack error"},
    {MUSA_ERROR_ILLEGAL_INSTRUCTION, "MUSA_ERROR_ILLEGAL_INSTRUCTION",
     "an illegal instruction was encountered"},
    {MUSA_ERROR_MISALIGNED_ADDRESS, "MUSA_ERROR_MISALIGNED_ADDRESS", "misaligned address"},
    {MUSA_ERROR_LAUNCH_FAILED, "MUSA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {MUSA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "MUSA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
     "too many blocks in cooperative launch"},
    {MUSA_ERROR_NOT_PERMITTED, "MUSA_ERROR_NOT_PERMITTED", "operation not permitted"},
    {MUSA_ERROR_NOT_SUPPORTED, "MUSA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {MUSA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "MUSA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
     "operation not permitted when stream is capturing"},
    {MUSA_ERROR_UNKNOWN, "MUSA_ERROR_UNKNOWN", "unknown error"},
};

const ErrorText *findError(MUresult error) {
  for (const ErrorText &e : errorTexts)
    if (e.code == error)
      return &e;
  return nullptr;
}

} // namespace

using namespace musa::drv;

extern "C" {

MUresult muInit(unsigned int flags) {
  if (flags != 0)
    return MUSA_ERROR_INVALID_VALUE;
  int count = 0;
  if (musaError_t e = musaGetDeviceCount(&count))
    return toResult(e);
  if (count == 0)
    return MUSA_ERROR_NO_DEVICE;
  std::lock_guard lock(state().mutex);
  state().initialized = true;
  return MUSA_SUCCESS;
}

MUresult muDriverGetVersion(int *driverVersion) {
  if (!driverVersion)
    return MUSA_ERROR_INVALID_VALUE;
  *driverVersion = MUSA_VERSION;
  return MUSA_SUCCESS;
}

MUresult muGetErrorName(MUresult error, const char **pStr) {
  if (!pStr)
    return MUSA_ERROR_INVALID_VALUE;
  const ErrorText *e = findError(error);
  *pStr = e ? e->name : nullptr;
  return e ? MUSA_SUCCESS : MUSA_ERROR_INVALID_VALUE;
}

MUresult muGetErrorString(MUresult error, const char **pStr) {
  if (!pStr)
    return MUSA_ERROR_INVALID_VALUE;
  const ErrorText *e = findError(error);
  *pStr = e ? e->text : nullptr;
  return e ? MUSA_SUCCESS : MUSA_ERROR_INVALID_VALUE;
}

MUresult muDeviceGetCount(int *count) {
  if (!state().initialized)
    return MUSA_ERROR_NOT_INITIALIZED;
  if (!count)
    return MUSA_ERROR_INVALID_VALUE;
  return toResult(musaGetDeviceCount(count));
}

MUresult muDeviceGet(MUdevice *device, int ordinal) {
  if (!state().initialized)
    return MUSA_ERROR_NOT_INITIALIZED;
  if (!device)
    return MUSA_ERROR_INVALID_VALUE;
  if (MUresult r = checkDevice(ordinal))
    return r;
  *device = ordinal;
  return MUSA_SUCCESS;
}

MUresult muDeviceGetName(char *name, int len, MUdevice dev) {
  musaDeviceProp prop;
  if (MUresult r = deviceProperties(dev, len > 0 ? name : nullptr, prop))
    return r;
  std::snprintf(name, size_t(len), "%s", prop.name);
  return MUSA_SUCCESS;
}

MUresult muDeviceTotalMem(size_t *bytes, MUdevice dev) {
  musaDeviceProp prop;
  if (MUresult r = deviceProperties(dev, bytes, prop))
    return r;
  *bytes = prop.totalGlobalMem;
  return MUSA_SUCCESS;
}

MUresult muDeviceGetAttribute(int *pi, MUdevice_attribute attrib, MUdevice dev) {
  if (MUresult r = checkDevice(dev))
    return r;
  if (!pi)
    return MUSA_ERROR_INVALID_VALUE;
  return toResult(musaDeviceGetAttribute(pi, musaDeviceAttr(attrib), dev));
}

MUresult muDeviceComputeCapability(int *major, int *minor, MUdevice dev) {
  if (!major || !minor)
    return MUSA_ERROR_INVALID_VALUE;
  if (MUresult r = muDeviceGetAttribute(major, MU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev))
    return r;
  return muDeviceGetAttribute(minor, MU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
}

MUresult muDevicePrimaryCtxRetain(MUcontext *pctx, MUdevice dev) {
  if (MUresult r = checkDevice(dev))
    return r;
  if (!pctx)
    return MUSA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state().mutex);
  MUctx_st *ctx = primaryOf(dev);
  ++ctx->retained;
  ctx->resetSinceRetain = false;
  *pctx = ctx;
  return MUSA_SUCCESS;
}

MUresult muDevicePrimaryCtxRelease(MUdevice dev) {
  if (MUresult r = checkDevice(dev))
    return r;
  std::lock_guard lock(state().mutex);
  MUctx_st *ctx = primaryOf(dev);
  if (ctx->retained == 0)
    return MUSA_ERROR_INVALID_CONTEXT;
  --ctx->retained;
  return MUSA_SUCCESS;
}

MUresult muDevicePrimaryCtxGetState(MUdevice dev, unsigned int *flags, int *active) {
  if (MUresult r = checkDevice(dev))
    return r;
  if (!flags || !active)
    return MUSA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state().mutex);
  MUctx_st *ctx = primaryOf(dev);
  *flags = ctx->flags;
  *active = ctx->retained > 0 && !ctx->resetSinceRetain;
  return MUSA_SUCCESS;
}

MUresult muDevicePrimaryCtxSetFlags(MUdevice dev, unsigned int flags) {
  if (MUresult r = checkDevice(dev))
    return r;
  if (flags & ~0x1fu)
    return MUSA_ERROR_INVALID_VALUE;
  std::lock_guard lock(state().mutex);
  primaryOf(dev)->flags = flags;
  return MUSA_SUCCESS;
}

MUresult muDevicePrimaryCtxReset(MUdevice dev) {
  if (MUresult r = checkDevice(dev))
    return r;
  // The primary context is the runtime's device state: resetting one resets the other.
  int previous = 0;
  musaGetDevice(&previous);
  musaSetDevice(dev);
  musaError_t e = musaDeviceReset();
  musaSetDevice(previous);
  // As the H200 does (tests/hardware/probes/primary_reset.h200.txt): the flags go back to 0
  // and the context reads inactive until retained again; the retain count stands, so a
  // release after the reset still succeeds.
  std::lock_guard lock(state().mutex);
  MUctx_st *ctx = primaryOf(dev);
  ctx->flags = 0;
  ctx->resetSinceRetain = true;
  return toResult(e);
}

MUresult muCtxCreate(MUcontext *pctx, unsigned int flags, MUdevice dev) {
  if (MUresult r = checkDevice(dev))
    return r;
  if (!pctx || (flags & ~0x1fu))
    return MUSA_ERROR_INVALID_VALUE;
  auto ctx = std::make_unique<MUctx_st>();
  ctx->device = dev;
  ctx->flags = flags;
  std::lock_guard lock(state().mutex);
  MUctx_st *raw = ctx.get();
  state().created.insert(raw);
  state().owned.push_back(std::move(ctx));
  contextStack.push_back(raw); // a new context becomes current, as in CUDA
  *pctx = raw;
  return MUSA_SUCCESS;
}

MUresult muCtxDestroy(MUcontext ctx) {
  if (!state().initialized)
    return MUSA_ERROR_NOT_INITIALIZED;
  std::set<void *> allocations;
  std::vector<void **> modules;
  {
    std::lock_guard lock(state().mutex);
    if (!ctx || !state().created.count(ctx) || !ctx->alive)
      return MUSA_ERROR_INVALID_CONTEXT;
    ctx->alive = false;
    allocations.swap(ctx->allocations);
    modules.swap(ctx->modules);
  }
  // Its work ends, then what it owned goes with it.
  int previous = 0;
  musaGetDevice(&previous);
  musaSetDevice(ctx->device);
  musaDeviceSynchronize();
  for (void *p : allocations)
    musaFree(p);
  for (void **m : modules)
    FatBinaryRegistry::get().unloadModule(m);
  musaSetDevice(previous);
  if (!contextStack.empty() && contextStack.back() == ctx)
    contextStack.pop_back();
  return MUSA_SUCCESS;
}

MUresult muCtxGetCurrent(MUcontext *pctx) {
  if (!state().initialized)
    return MUSA_ERROR_NOT_INITIALIZED;
  if (!pctx)
    return MUSA_ERROR_INVALID_VALUE;
  *pctx = contextStack.empty() ? nullptr : contextStack.back();
  return MUSA_SUCCESS;
}

MUresult muCtxSetCurrent(MUcontext ctx) {
  if (!state().initialized)
    return MUSA_ERROR_NOT_INITIALIZED;
  if (!ctx) { // unbinds the current context
    if (!contextStack.empty())
      contextStack.pop_back();
    return MUSA_SUCCESS;
  }
  {
    std::lock_guard lock(state().mutex);
    if (!known(ctx) || !ctx->alive)
      return MUSA_ERROR_INVALID_CONTEXT;
  }
  if (contextStack.empty())
    contextStack.push_back(ctx);
  else
    contextStack.back() = ctx;
  return MUSA_SUCCESS;
}

MUresult muCtxPushCurrent(MUcontext ctx) {
  if (!state().initialized)
    return MUSA_ERROR_NOT_INITIALIZED;
  std::lock_guard lock(state().mutex);
  if (!ctx || !known(ctx) || !ctx->alive)
    return MUSA_ERROR_INVALID_CONTEXT;
  contextStack.push_back(ctx);
  return MUSA_SUCCESS;
}

MUresult muCtxPopCurrent(MUcontext *pctx) {
  if (!state().initialized)
    return MUSA_ERROR_NOT_INITIALIZED;
  if (contextStack.empty())
    return MUSA_ERROR_INVALID_CONTEXT;
  if (pctx)
    *pctx = contextStack.back();
  contextStack.pop_back();
  return MUSA_SUCCESS;
}

MUresult muCtxGetDevice(MUdevice *device) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (!device)
    return MUSA_ERROR_INVALID_VALUE;
  *device = ctx->device;
  return MUSA_SUCCESS;
}

MUresult muCtxGetFlags(unsigned int *flags) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (!flags)
    return MUSA_ERROR_INVALID_VALUE;
  *flags = ctx->flags;
  return MUSA_SUCCESS;
}

MUresult muCtxSynchronize(void) {
  return inContext([&] { return musaDeviceSynchronize(); });
}

MUresult muModuleLoad(MUmodule *module, const char *fname) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (!module || !fname)
    return MUSA_ERROR_INVALID_VALUE;
  std::ifstream in(fname, std::ios::binary);
  if (!in)
    return MUSA_ERROR_FILE_NOT_FOUND;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return loadModule(module, bytes.data(), bytes.size());
}

MUresult muModuleLoadData(MUmodule *module, const void *image) {
  return loadModule(module, image, UINT64_MAX);
}

MUresult muModuleLoadDataEx(MUmodule *module, const void *image, unsigned int numOptions,
                            int *options, void **optionValues) {
  // JIT options tune PTX compilation, which does not happen here; they are accepted as
  // CUDA accepts them, but must be well formed.
  if (numOptions && (!options || !optionValues))
    return MUSA_ERROR_INVALID_VALUE;
  return loadModule(module, image, UINT64_MAX);
}

MUresult muModuleLoadFatBinary(MUmodule *module, const void *fatCubin) {
  return loadModule(module, fatCubin, UINT64_MAX);
}

MUresult muModuleUnload(MUmodule hmod) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  void **handle = reinterpret_cast<void **>(hmod);
  if (musaError_t e = FatBinaryRegistry::get().unloadModule(handle))
    return toResult(e);
  std::lock_guard lock(state().mutex);
  std::erase(ctx->modules, handle);
  return MUSA_SUCCESS;
}

MUresult muModuleGetFunction(MUfunction *hfunc, MUmodule hmod, const char *name) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (!hfunc || !name)
    return MUSA_ERROR_INVALID_VALUE;
  const void *function = nullptr;
  if (musaError_t e = FatBinaryRegistry::get().moduleFunction(reinterpret_cast<void **>(hmod),
                                                              name, function))
    return toResult(e);
  *hfunc = reinterpret_cast<MUfunction>(const_cast<void *>(function));
  return MUSA_SUCCESS;
}

MUresult muModuleGetGlobal(MUdeviceptr *dptr, size_t *bytes, MUmodule hmod, const char *name) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (!name)
    return MUSA_ERROR_INVALID_VALUE;
  void *address = nullptr;
  size_t size = 0;
  if (musaError_t e = FatBinaryRegistry::get().moduleGlobal(reinterpret_cast<void **>(hmod),
                                                            name, address, size))
    return toResult(e);
  // Device memory to copies and memsets from now on, as a runtime symbol's is.
  musa::rt::Runtime::registerSymbolRange(static_cast<char *>(address), size);
  // Pass-through: the hardware's copy of the variable (differential mode: its twin).
  if (musaError_t e = musa::rt::backend::moduleGlobal(reinterpret_cast<void **>(hmod), name,
                                                      address, size))
    return toResult(e);
  if (dptr)
    *dptr = MUdeviceptr(uintptr_t(address));
  if (bytes)
    *bytes = size;
  return MUSA_SUCCESS;
}

MUresult muLaunchKernel(MUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                        unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes, MUstream hStream,
                        void **kernelParams, void **extra) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (!f)
    return MUSA_ERROR_INVALID_HANDLE;
  if (kernelParams && extra)
    return MUSA_ERROR_INVALID_VALUE;
  std::vector<void *> unpacked;
  if (extra) {
    // {MU_LAUNCH_PARAM_BUFFER_POINTER, buf, MU_LAUNCH_PARAM_BUFFER_SIZE, &size, END}: the
    // arguments packed at their natural alignment.
    const char *buffer = nullptr;
    const size_t *size = nullptr;
    for (size_t i = 0; extra[i] != MU_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == MU_LAUNCH_PARAM_BUFFER_POINTER)
        buffer = static_cast<const char *>(extra[i + 1]);
      else if (extra[i] == MU_LAUNCH_PARAM_BUFFER_SIZE)
        size = static_cast<const size_t *>(extra[i + 1]);
      else
        return MUSA_ERROR_INVALID_VALUE;
    }
    const musa::sim::KernelEntry *kernel = nullptr;
    if (musaError_t e = FatBinaryRegistry::get().findKernel(f, kernel))
      return toResult(e);
    if (!kernel->paramSizes.empty() && (!buffer || !size))
      return MUSA_ERROR_INVALID_VALUE;
    const std::vector<size_t> &offsets = kernel->paramOffsets;
    for (size_t i = 0; i < offsets.size(); ++i) {
      if (offsets[i] + kernel->paramSizes[i] > *size)
        return MUSA_ERROR_INVALID_VALUE;
      unpacked.push_back(const_cast<char *>(buffer + offsets[i]));
    }
    kernelParams = unpacked.data();
  }
  return toResult(musaLaunchKernel(reinterpret_cast<const void *>(f),
                                   dim3(gridDimX, gridDimY, gridDimZ),
                                   dim3(blockDimX, blockDimY, blockDimZ), kernelParams,
                                   sharedMemBytes, hStream));
}

MUresult muMemAlloc(MUdeviceptr *dptr, size_t bytesize) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (!dptr || bytesize == 0)
    return MUSA_ERROR_INVALID_VALUE;
  void *p = nullptr;
  if (musaError_t e = musaMalloc(&p, bytesize))
    return toResult(e);
  if (!ctx->primary) {
    std::lock_guard lock(state().mutex);
    ctx->allocations.insert(p);
  }
  *dptr = MUdeviceptr(uintptr_t(p));
  return MUSA_SUCCESS;
}

MUresult muMemFree(MUdeviceptr dptr) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (musaError_t e = musaFree(ptr(dptr)))
    return toResult(e);
  std::lock_guard lock(state().mutex);
  ctx->allocations.erase(ptr(dptr));
  return MUSA_SUCCESS;
}

MUresult muMemGetInfo(size_t *free, size_t *total) {
  return inContext([&] { return musaMemGetInfo(free, total); });
}

MUresult muMemGetAddressRange(MUdeviceptr *pbase, size_t *psize, MUdeviceptr dptr) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  auto where = musa::rt::Runtime::get().findDevicePointer(ptr(dptr));
  if (!where || where->range.tag == musa::rt::SymbolAllocation)
    return MUSA_ERROR_NOT_FOUND;
  // A virtual memory mapping is its own range (copies see mappings back to back as one).
  if (auto mapping = where->device->memory().mappingAt(ptr(dptr)))
    where->range.base = mapping->base, where->range.size = mapping->size;
  if (pbase)
    *pbase = MUdeviceptr(uintptr_t(where->range.base));
  if (psize)
    *psize = where->range.size;
  return MUSA_SUCCESS;
}

MUresult muMemAllocHost(void **pp, size_t bytesize) {
  return inContext([&] { return musaMallocHost(pp, bytesize); });
}

MUresult muMemFreeHost(void *p) {
  return inContext([&] { return musaFreeHost(p); });
}

MUresult muMemcpy(MUdeviceptr dst, MUdeviceptr src, size_t ByteCount) {
  return inContext([&] { return musaMemcpy(ptr(dst), ptr(src), ByteCount, musaMemcpyDefault); });
}

MUresult muMemcpyHtoD(MUdeviceptr dstDevice, const void *srcHost, size_t ByteCount) {
  return inContext(
      [&] { return musaMemcpy(ptr(dstDevice), srcHost, ByteCount, musaMemcpyHostToDevice); });
}

MUresult muMemcpyDtoH(void *dstHost, MUdeviceptr srcDevice, size_t ByteCount) {
  return inContext(
      [&] { return musaMemcpy(dstHost, ptr(srcDevice), ByteCount, musaMemcpyDeviceToHost); });
}

MUresult muMemcpyDtoD(MUdeviceptr dstDevice, MUdeviceptr srcDevice, size_t ByteCount) {
  return inContext([&] {
    return musaMemcpy(ptr(dstDevice), ptr(srcDevice), ByteCount, musaMemcpyDeviceToDevice);
  });
}

MUresult muMemcpyHtoDAsync(MUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                           MUstream hStream) {
  return inContext([&] {
    return musaMemcpyAsync(ptr(dstDevice), srcHost, ByteCount, musaMemcpyHostToDevice, hStream);
  });
}

MUresult muMemcpyDtoHAsync(void *dstHost, MUdeviceptr srcDevice, size_t ByteCount,
                           MUstream hStream) {
  return inContext([&] {
    return musaMemcpyAsync(dstHost, ptr(srcDevice), ByteCount, musaMemcpyDeviceToHost, hStream);
  });
}

} // extern "C"

namespace {

/// muMemsetD16/D32: N elements of `value`, as one copy of a host pattern (a byte memset when
/// every byte is equal).
template <class T> MUresult memsetElements(MUdeviceptr dst, T value, size_t n) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (dst % sizeof(T))
    return MUSA_ERROR_INVALID_VALUE;
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  if (std::all_of(bytes, bytes + sizeof(T), [&](unsigned char b) { return b == bytes[0]; }))
    return toResult(musaMemset(ptr(dst), bytes[0], n * sizeof(T)));
  std::vector<T> pattern(n, value);
  return toResult(musaMemcpy(ptr(dst), pattern.data(), n * sizeof(T), musaMemcpyHostToDevice));
}

} // namespace

extern "C" {

MUresult muMemsetD8(MUdeviceptr dstDevice, unsigned char uc, size_t N) {
  return memsetElements(dstDevice, uc, N);
}
MUresult muMemsetD16(MUdeviceptr dstDevice, unsigned short us, size_t N) {
  return memsetElements(dstDevice, us, N);
}
MUresult muMemsetD32(MUdeviceptr dstDevice, unsigned int ui, size_t N) {
  return memsetElements(dstDevice, ui, N);
}

MUresult muStreamCreate(MUstream *phStream, unsigned int Flags) {
  return inContext([&] { return musaStreamCreateWithFlags(phStream, Flags); });
}

MUresult muStreamDestroy(MUstream hStream) {
  return inContext([&] { return musaStreamDestroy(hStream); });
}

MUresult muStreamSynchronize(MUstream hStream) {
  return inContext([&] { return musaStreamSynchronize(hStream); });
}

MUresult muStreamQuery(MUstream hStream) {
  return inContext([&] { return musaStreamQuery(hStream); });
}

MUresult muEventCreate(MUevent *phEvent, unsigned int Flags) {
  return inContext([&] { return musaEventCreateWithFlags(phEvent, Flags); });
}

MUresult muEventDestroy(MUevent hEvent) {
  return inContext([&] { return musaEventDestroy(hEvent); });
}

MUresult muEventRecord(MUevent hEvent, MUstream hStream) {
  return inContext([&] { return musaEventRecord(hEvent, hStream); });
}

MUresult muEventSynchronize(MUevent hEvent) {
  return inContext([&] { return musaEventSynchronize(hEvent); });
}

MUresult muEventQuery(MUevent hEvent) {
  return inContext([&] { return musaEventQuery(hEvent); });
}

MUresult muEventElapsedTime(float *pMilliseconds, MUevent hStart, MUevent hEnd) {
  return inContext([&] { return musaEventElapsedTime(pMilliseconds, hStart, hEnd); });
}

} // extern "C"
