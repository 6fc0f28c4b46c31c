// The driver API calls that are runtime calls under another name: memory (pitched, managed,
// pinned and registered host memory, stream-ordered allocation, pointer attributes), copies
// and memsets in streams and in two dimensions, function attributes and occupancy, launches,
// stream and context queries. Each enters the calling thread's current context and makes the
// runtime's call, so the answers, the errors and the pass-through backend are the runtime's.
#include "Runtime.h"
// After the runtime's headers: musa.h declares the runtime's C++ overloads too.
#include "DriverShell.h"

#include <algorithm>
#include <cstring>
#include <new>

using namespace musa::drv;

namespace {

void *ptr(MUdeviceptr p) { return reinterpret_cast<void *>(uintptr_t(p)); }
const void *fn(MUfunction f) { return reinterpret_cast<const void *>(f); }

/// Where one side of a muMemcpy2D is: its address (host, device or unified) or its array.
struct Side {
  char *address = nullptr;
  musaArray_t array = nullptr;
  size_t x = 0, y = 0;
  size_t pitch = 0;
  bool device = false;
};

MUresult side(MUmemorytype type, const void *host, MUdeviceptr device, MUarray array, size_t x,
              size_t y, size_t pitch, Side &s) {
  s.x = x;
  s.y = y;
  s.pitch = pitch;
  switch (type) {
  case MU_MEMORYTYPE_HOST:
    s.address = static_cast<char *>(const_cast<void *>(host));
    break;
  case MU_MEMORYTYPE_DEVICE:
  case MU_MEMORYTYPE_UNIFIED:
    s.address = static_cast<char *>(ptr(device));
    s.device = true;
    break;
  case MU_MEMORYTYPE_ARRAY:
    if (!array)
      return MUSA_ERROR_INVALID_VALUE;
    s.array = array;
    return MUSA_SUCCESS;
  default:
    return MUSA_ERROR_INVALID_VALUE;
  }
  if (!s.address)
    return MUSA_ERROR_INVALID_VALUE;
  s.address += y * pitch + x;
  return MUSA_SUCCESS;
}

/// muMemcpy2D and its stream form: each pair of sides is the runtime's 2D copy of that pair.
MUresult copy2D(const MUSA_MEMCPY2D *c, musaStream_t stream, bool async) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (!c)
    return MUSA_ERROR_INVALID_VALUE;
  Side from, to;
  if (MUresult r = side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcArray, c->srcXInBytes,
                        c->srcY, c->srcPitch, from))
    return r;
  if (MUresult r = side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstArray, c->dstXInBytes,
                        c->dstY, c->dstPitch, to))
    return r;
  size_t w = c->WidthInBytes, h = c->Height;
  // A pitch below the width is refused for every row but a single one.
  size_t sp = from.array ? 0 : std::max(from.pitch, h <= 1 ? w : 0);
  size_t dp = to.array ? 0 : std::max(to.pitch, h <= 1 ? w : 0);
  musaError_t e;
  if (from.array && to.array)
    e = musaMemcpy2DArrayToArray(to.array, to.x, to.y, from.array, from.x, from.y, w, h,
                                 musaMemcpyDeviceToDevice);
  else if (to.array)
    e = async ? musaMemcpy2DToArrayAsync(to.array, to.x, to.y, from.address, sp, w, h,
                                         musaMemcpyDefault, stream)
              : musaMemcpy2DToArray(to.array, to.x, to.y, from.address, sp, w, h,
                                    musaMemcpyDefault);
  else if (from.array)
    e = async ? musaMemcpy2DFromArrayAsync(to.address, dp, from.array, from.x, from.y, w, h,
                                           musaMemcpyDefault, stream)
              : musaMemcpy2DFromArray(to.address, dp, from.array, from.x, from.y, w, h,
                                      musaMemcpyDefault);
  else
    e = async ? musaMemcpy2DAsync(to.address, dp, from.address, sp, w, h, musaMemcpyDefault,
                                  stream)
              : musaMemcpy2D(to.address, dp, from.address, sp, w, h, musaMemcpyDefault);
  return toResult(e);
}

/// muMemsetD16Async/D32Async: a byte memset in the stream when every byte of the value is
/// equal; otherwise the elements are written once the stream's earlier work is done (the call
/// waits for it: the pattern is the caller's to keep only for the call).
template <class T> MUresult memsetAsync(MUdeviceptr dst, T value, size_t n, MUstream stream) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  if (dst % sizeof(T))
    return MUSA_ERROR_INVALID_VALUE;
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  if (std::all_of(bytes, bytes + sizeof(T), [&](unsigned char b) { return b == bytes[0]; }))
    return toResult(musaMemsetAsync(ptr(dst), bytes[0], n * sizeof(T), stream));
  if (musaError_t e = musaStreamSynchronize(stream))
    return toResult(e);
  if (sizeof(T) == 2)
    return muMemsetD16(dst, (unsigned short)value, n);
  return muMemsetD32(dst, (unsigned int)value, n);
}

struct StreamCallback {
  MUstreamCallback callback;
  void *userData;
};

void MUSART_CB runCallback(musaStream_t stream, musaError_t status, void *data) {
  StreamCallback c = *static_cast<StreamCallback *>(data);
  delete static_cast<StreamCallback *>(data);
  c.callback(stream, toResult(status), c.userData);
}

} // namespace

extern "C" {

MUresult muMemAllocPitch(MUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                         unsigned int ElementSizeBytes) {
  return inContext([&] {
    if (!dptr || (ElementSizeBytes != 4 && ElementSizeBytes != 8 && ElementSizeBytes != 16)) {
      // The H100's driver clears both outputs when it refuses the element size
      // (tests/hardware/session21/results.txt: driver_calls read pitch 0 after it).
      if (dptr)
        *dptr = 0;
      if (pPitch)
        *pPitch = 0;
      return musaErrorInvalidValue;
    }
    return musaMallocPitch(reinterpret_cast<void **>(dptr), pPitch, WidthInBytes, Height);
  });
}

MUresult muMemAllocManaged(MUdeviceptr *dptr, size_t bytesize, unsigned int flags) {
  return inContext(
      [&] { return musaMallocManaged(reinterpret_cast<void **>(dptr), bytesize, flags); });
}

MUresult muMemAllocAsync(MUdeviceptr *dptr, size_t bytesize, MUstream hStream) {
  return inContext(
      [&] { return musaMallocAsync(reinterpret_cast<void **>(dptr), bytesize, hStream); });
}

MUresult muMemFreeAsync(MUdeviceptr dptr, MUstream hStream) {
  return inContext([&] { return musaFreeAsync(ptr(dptr), hStream); });
}

MUresult muMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags) {
  return inContext([&] { return musaHostAlloc(pp, bytesize, Flags); });
}

MUresult muMemHostGetDevicePointer(MUdeviceptr *pdptr, void *p, unsigned int Flags) {
  return inContext(
      [&] { return musaHostGetDevicePointer(reinterpret_cast<void **>(pdptr), p, Flags); });
}

MUresult muMemHostGetFlags(unsigned int *pFlags, void *p) {
  return inContext([&] { return musaHostGetFlags(pFlags, p); });
}

MUresult muMemHostRegister(void *p, size_t bytesize, unsigned int Flags) {
  return inContext([&] { return musaHostRegister(p, bytesize, Flags); });
}

MUresult muMemHostUnregister(void *p) {
  return inContext([&] { return musaHostUnregister(p); });
}

MUresult muPointerGetAttribute(void *data, MUpointer_attribute attribute, MUdeviceptr p) {
  return inContext([&] { return musaPointerGetAttribute(data, attribute, ptr(p)); });
}

MUresult muMemcpyAsync(MUdeviceptr dst, MUdeviceptr src, size_t ByteCount, MUstream hStream) {
  return inContext([&] {
    return musaMemcpyAsync(ptr(dst), ptr(src), ByteCount, musaMemcpyDefault, hStream);
  });
}

MUresult muMemcpyDtoDAsync(MUdeviceptr dstDevice, MUdeviceptr srcDevice, size_t ByteCount,
                           MUstream hStream) {
  return inContext([&] {
    return musaMemcpyAsync(ptr(dstDevice), ptr(srcDevice), ByteCount, musaMemcpyDeviceToDevice,
                           hStream);
  });
}

MUresult muMemcpy2D(const MUSA_MEMCPY2D *pCopy) { return copy2D(pCopy, nullptr, false); }
MUresult muMemcpy2DUnaligned(const MUSA_MEMCPY2D *pCopy) { return copy2D(pCopy, nullptr, false); }
MUresult muMemcpy2DAsync(const MUSA_MEMCPY2D *pCopy, MUstream hStream) {
  return copy2D(pCopy, hStream, true);
}

MUresult muMemsetD8Async(MUdeviceptr dstDevice, unsigned char uc, size_t N, MUstream hStream) {
  return inContext([&] { return musaMemsetAsync(ptr(dstDevice), uc, N, hStream); });
}
MUresult muMemsetD16Async(MUdeviceptr dstDevice, unsigned short us, size_t N, MUstream hStream) {
  return memsetAsync(dstDevice, us, N, hStream);
}
MUresult muMemsetD32Async(MUdeviceptr dstDevice, unsigned int ui, size_t N, MUstream hStream) {
  return memsetAsync(dstDevice, ui, N, hStream);
}

MUresult muFuncGetAttribute(int *pi, MUfunction_attribute attrib, MUfunction hfunc) {
  return inContext([&] {
    if (!pi)
      return musaErrorInvalidValue;
    musaFuncAttributes a;
    if (musaError_t e = musaFuncGetAttributes(&a, fn(hfunc)))
      return e;
    switch (attrib) {
    case MU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = a.maxThreadsPerBlock; break;
    case MU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = int(a.sharedSizeBytes); break;
    case MU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: *pi = int(a.constSizeBytes); break;
    case MU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = int(a.localSizeBytes); break;
    case MU_FUNC_ATTRIBUTE_NUM_REGS: *pi = a.numRegs; break;
    case MU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = a.ptxVersion; break;
    case MU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = a.binaryVersion; break;
    case MU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = a.cacheModeCA; break;
    case MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = a.maxDynamicSharedSizeBytes; break;
    case MU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = a.preferredShmemCarveout; break;
    case MU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET: *pi = a.clusterDimMustBeSet; break;
    case MU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH: *pi = a.requiredClusterWidth; break;
    case MU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT: *pi = a.requiredClusterHeight; break;
    case MU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH: *pi = a.requiredClusterDepth; break;
    case MU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
      *pi = a.nonPortableClusterSizeAllowed;
      break;
    case MU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
      *pi = a.clusterSchedulingPolicyPreference;
      break;
    default:
      return musaErrorInvalidValue;
    }
    return musaSuccess;
  });
}

MUresult muFuncSetAttribute(MUfunction hfunc, MUfunction_attribute attrib, int value) {
  // The settable attributes share the runtime's numbers (musaFuncAttribute).
  return inContext(
      [&] { return musaFuncSetAttribute(fn(hfunc), musaFuncAttribute(int(attrib)), value); });
}

MUresult muFuncSetCacheConfig(MUfunction hfunc, MUfunc_cache config) {
  return inContext([&] { return musaFuncSetCacheConfig(fn(hfunc), config); });
}

MUresult muOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, MUfunction func,
                                                     int blockSize, size_t dynamicSMemSize) {
  return inContext([&] {
    return musaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, fn(func), blockSize,
                                                         dynamicSMemSize);
  });
}

MUresult muOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, MUfunction func,
                                                              int blockSize,
                                                              size_t dynamicSMemSize,
                                                              unsigned int flags) {
  return inContext([&] {
    return musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, fn(func), blockSize,
                                                                  dynamicSMemSize, flags);
  });
}

MUresult muOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                                   MUfunction func,
                                                   MUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                   size_t dynamicSMemSize, int blockSizeLimit,
                                                   unsigned int flags) {
  return inContext([&] {
    // The callback, when given, says each block size's dynamic shared memory; else it is fixed.
    auto smem = [&](int size) {
      return blockSizeToDynamicSMemSize ? blockSizeToDynamicSMemSize(size) : dynamicSMemSize;
    };
    return musaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, fn(func), smem, blockSizeLimit, flags);
  });
}

MUresult muOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, MUfunction func,
                                          MUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                          size_t dynamicSMemSize, int blockSizeLimit) {
  return muOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func,
                                                   blockSizeToDynamicSMemSize, dynamicSMemSize,
                                                   blockSizeLimit, musaOccupancyDefault);
}

MUresult muLaunchCooperativeKernel(MUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                   unsigned int gridDimZ, unsigned int blockDimX,
                                   unsigned int blockDimY, unsigned int blockDimZ,
                                   unsigned int sharedMemBytes, MUstream hStream,
                                   void **kernelParams) {
  return inContext([&] {
    return musaLaunchCooperativeKernel(fn(f), dim3(gridDimX, gridDimY, gridDimZ),
                                       dim3(blockDimX, blockDimY, blockDimZ), kernelParams,
                                       sharedMemBytes, hStream);
  });
}

MUresult muLaunchHostFunc(MUstream hStream, MUhostFn fn, void *userData) {
  return inContext([&] { return musaLaunchHostFunc(hStream, fn, userData); });
}

MUresult muCtxGetApiVersion(MUcontext ctx, unsigned int *version) {
  MUctx_st *current = nullptr;
  if (MUresult r = enter(current))
    if (ctx == nullptr || r != MUSA_ERROR_INVALID_CONTEXT)
      return r;
  if (!version)
    return MUSA_ERROR_INVALID_VALUE;
  *version = 3020; // every context since the 3.2 API reports this
  return MUSA_SUCCESS;
}

MUresult muCtxGetLimit(size_t *pvalue, MUlimit limit) {
  return inContext([&] { return musaDeviceGetLimit(pvalue, limit); });
}

MUresult muCtxSetLimit(MUlimit limit, size_t value) {
  return inContext([&] { return musaDeviceSetLimit(limit, value); });
}

MUresult muCtxGetCacheConfig(MUfunc_cache *pconfig) {
  return inContext([&] { return musaDeviceGetCacheConfig(pconfig); });
}

MUresult muCtxSetCacheConfig(MUfunc_cache config) {
  return inContext([&] { return musaDeviceSetCacheConfig(config); });
}

MUresult muCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  return inContext(
      [&] { return musaDeviceGetStreamPriorityRange(leastPriority, greatestPriority); });
}

MUresult muDeviceGetUuid(MUuuid *uuid, MUdevice dev) {
  musaDeviceProp prop;
  if (MUresult r = deviceProperties(dev, uuid, prop))
    return r;
  *uuid = prop.uuid;
  return MUSA_SUCCESS;
}

MUresult muDeviceGetPCIBusId(char *pciBusId, int len, MUdevice dev) {
  if (MUresult r = checkDevice(dev))
    return r;
  return toResult(musaDeviceGetPCIBusId(pciBusId, len, dev));
}

MUresult muDeviceGetByPCIBusId(MUdevice *dev, const char *pciBusId) {
  if (MUresult r = checkDevice(0))
    return r;
  return toResult(musaDeviceGetByPCIBusId(dev, pciBusId));
}

MUresult muDeviceCanAccessPeer(int *canAccessPeer, MUdevice dev, MUdevice peerDev) {
  if (MUresult r = checkDevice(dev))
    return r;
  if (MUresult r = checkDevice(peerDev))
    return r;
  return toResult(musaDeviceCanAccessPeer(canAccessPeer, dev, peerDev));
}

MUresult muStreamCreateWithPriority(MUstream *phStream, unsigned int flags, int priority) {
  return inContext([&] { return musaStreamCreateWithPriority(phStream, flags, priority); });
}

MUresult muStreamGetPriority(MUstream hStream, int *priority) {
  return inContext([&] { return musaStreamGetPriority(hStream, priority); });
}

MUresult muStreamGetFlags(MUstream hStream, unsigned int *flags) {
  return inContext([&] { return musaStreamGetFlags(hStream, flags); });
}

MUresult muStreamWaitEvent(MUstream hStream, MUevent hEvent, unsigned int Flags) {
  return inContext([&] { return musaStreamWaitEvent(hStream, hEvent, Flags); });
}

MUresult muStreamAddCallback(MUstream hStream, MUstreamCallback callback, void *userData,
                             unsigned int flags) {
  return inContext([&] {
    if (!callback)
      return musaErrorInvalidValue;
    auto *c = new StreamCallback{callback, userData};
    musaError_t e = musaStreamAddCallback(hStream, runCallback, c, flags);
    if (e != musaSuccess)
      delete c;
    return e;
  });
}

} // extern "C"
