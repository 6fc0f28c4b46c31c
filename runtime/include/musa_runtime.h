/* musa_runtime.h - the MUSA Runtime API as programs include it. MUSA sources (.mu) get it
 * implicitly from musa-sim-cc, as with mcc. */
#ifndef __MUSA_RUNTIME_H__
#define __MUSA_RUNTIME_H__

/* As with mcc and nvcc, the C library basics come with the runtime header: programs written
 * for them use printf, malloc, memcpy, sqrt, INT_MAX, FLT_MAX and clock() without including
 * anything, since nvcc's implicit cuda_runtime.h brings in <cstdio>, <cstdlib>, <cstring>,
 * <cmath>, <ctime>, <climits>, <cfloat> and <new>, and <utility> (its cudaLaunchKernelEx
 * template forwards arguments): std::pair, std::swap, std::move and a range-for over a braced
 * list work too. <assert.h> is not among them (programs that assert include it, as they must
 * for nvcc). */
#if defined(__cplusplus)
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>
#include <utility>
#else
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#endif

#include "musa_device_prelude.h"
#include "musa_vector_types.h"
#include "musa_driver_types.h"
#include "musa_runtime_api.h"
#include "musa_builtin_vars.h"
#include "musa_device_functions.h"
#include "musa_texture_functions.h"

#if defined(__CUDA__)
/* Device side of assert(): glibc's macro calls __assert_fail, which on the device becomes the
 * simulator's __assertfail (kernel-jit lowers it: message, then musaErrorAssert). */
extern "C" {
__device__ void __assertfail(const char *message, const char *file, unsigned int line,
                             const char *function, size_t charSize);
__device__ static inline void __assert_fail(const char *message, const char *file,
                                            unsigned int line, const char *function) {
  __assertfail(message, file, line, function, sizeof(char));
}
__device__ void __trap(void) __asm("llvm.trap");
/* Device printf: clang turns each call into vprintf(format, packed arguments). */
__device__ int printf(const char *format, ...);
/* The device heap (musaLimitMallocHeapSize, 8 MiB by default): kernel-jit lowers these to the
 * simulator's heap; malloc returns NULL when it is exhausted. Their own symbol names keep the
 * optimiser from treating them as the C library's (it would elide an allocation whose pointer
 * is only tested, where the hardware runs the heap's system call). */
__device__ void *malloc(size_t size) __asm__("__musa_device_malloc") __attribute__((nothrow));
__device__ void free(void *ptr) __asm__("__musa_device_free") __attribute__((nothrow));
}
/* new and delete in device code take the device heap, as with nvcc: clang's CUDA wrapper
 * for <new> defines them on top of the device malloc/free above, once __device__ exists (the
 * first <new> above came too early for it). A failed new returns NULL (no exceptions). */
#include <new>
#endif
#include "musa_device_runtime_api.h"

static __inline__ __host__ struct musaExtent make_musaExtent(size_t w, size_t h, size_t d) {
  struct musaExtent e = {w, h, d};
  return e;
}
static __inline__ __host__ struct musaPitchedPtr make_musaPitchedPtr(void *d, size_t p,
                                                                     size_t xsz, size_t ysz) {
  struct musaPitchedPtr s = {d, p, xsz, ysz};
  return s;
}
static __inline__ __host__ struct musaPos make_musaPos(size_t x, size_t y, size_t z) {
  struct musaPos p = {x, y, z};
  return p;
}

#if defined(__cplusplus)
/** The channel descriptor of an element type, as CUDA's template. */
template <class T> struct __musa_channel_of;
#define __MUSA_CHANNEL(T, x, y, z, w, kind)                                                  \
  template <> struct __musa_channel_of<T> {                                                 \
    static musaChannelFormatDesc get() { return musaCreateChannelDesc(x, y, z, w, kind); } \
  };
__MUSA_CHANNEL(float, 32, 0, 0, 0, musaChannelFormatKindFloat)
__MUSA_CHANNEL(float2, 32, 32, 0, 0, musaChannelFormatKindFloat)
__MUSA_CHANNEL(float4, 32, 32, 32, 32, musaChannelFormatKindFloat)
__MUSA_CHANNEL(int, 32, 0, 0, 0, musaChannelFormatKindSigned)
__MUSA_CHANNEL(unsigned int, 32, 0, 0, 0, musaChannelFormatKindUnsigned)
__MUSA_CHANNEL(char, 8, 0, 0, 0, musaChannelFormatKindSigned)
__MUSA_CHANNEL(signed char, 8, 0, 0, 0, musaChannelFormatKindSigned)
__MUSA_CHANNEL(unsigned char, 8, 0, 0, 0, musaChannelFormatKindUnsigned)
__MUSA_CHANNEL(short, 16, 0, 0, 0, musaChannelFormatKindSigned)
__MUSA_CHANNEL(unsigned short, 16, 0, 0, 0, musaChannelFormatKindUnsigned)
/* Vector types: one channel per component (1, 2 and 4 components, as CUDA). */
#define __MUSA_CHANNEL_VECTORS(V, bits, kind)                                                \
  __MUSA_CHANNEL(V##1, bits, 0, 0, 0, kind)                                                  \
  __MUSA_CHANNEL(V##2, bits, bits, 0, 0, kind)                                               \
  __MUSA_CHANNEL(V##4, bits, bits, bits, bits, kind)
__MUSA_CHANNEL(float1, 32, 0, 0, 0, musaChannelFormatKindFloat)
__MUSA_CHANNEL_VECTORS(char, 8, musaChannelFormatKindSigned)
__MUSA_CHANNEL_VECTORS(uchar, 8, musaChannelFormatKindUnsigned)
__MUSA_CHANNEL_VECTORS(short, 16, musaChannelFormatKindSigned)
__MUSA_CHANNEL_VECTORS(ushort, 16, musaChannelFormatKindUnsigned)
__MUSA_CHANNEL_VECTORS(int, 32, musaChannelFormatKindSigned)
__MUSA_CHANNEL_VECTORS(uint, 32, musaChannelFormatKindUnsigned)
#undef __MUSA_CHANNEL_VECTORS
#undef __MUSA_CHANNEL
template <class T> static inline musaChannelFormatDesc musaCreateChannelDesc() {
  return __musa_channel_of<T>::get();
}
template <class T>
static inline musaError_t musaMallocAsync(T **ptr, size_t size, musaStream_t stream) {
  return musaMallocAsync(reinterpret_cast<void **>(ptr), size, stream);
}
/** CUDA's overload that takes the pool before the stream (musaMallocFromPoolAsync). */
static inline musaError_t musaMallocAsync(void **ptr, size_t size, musaMemPool_t memPool,
                                         musaStream_t stream) {
  return musaMallocFromPoolAsync(ptr, size, memPool, stream);
}
template <class T>
static inline musaError_t musaMallocAsync(T **ptr, size_t size, musaMemPool_t memPool,
                                         musaStream_t stream) {
  return musaMallocFromPoolAsync(reinterpret_cast<void **>(ptr), size, memPool, stream);
}
template <class T>
static inline musaError_t musaMallocFromPoolAsync(T **ptr, size_t size, musaMemPool_t memPool,
                                                 musaStream_t stream) {
  return musaMallocFromPoolAsync(reinterpret_cast<void **>(ptr), size, memPool, stream);
}
template <class T>
static inline musaError_t musaMallocManaged(T **ptr, size_t size,
                                            unsigned int flags = musaMemAttachGlobal) {
  return musaMallocManaged(reinterpret_cast<void **>(ptr), size, flags);
}
template <class T>
static inline musaError_t musaMallocPitch(T **ptr, size_t *pitch, size_t width, size_t height) {
  return musaMallocPitch(reinterpret_cast<void **>(ptr), pitch, width, height);
}
template <class T>
static inline musaError_t musaHostGetDevicePointer(T **devPtr, void *hostPtr,
                                                   unsigned int flags) {
  return musaHostGetDevicePointer(reinterpret_cast<void **>(devPtr), hostPtr, flags);
}
/** The symbol API taking the variable itself, as CUDA's C++ overloads. */
template <class T>
static inline musaError_t musaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                             size_t offset = 0,
                                             musaMemcpyKind kind = musaMemcpyHostToDevice) {
  return musaMemcpyToSymbol(static_cast<const void *>(&symbol), src, count, offset, kind);
}
template <class T>
static inline musaError_t musaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                  size_t offset = 0,
                                                  musaMemcpyKind kind = musaMemcpyHostToDevice,
                                                  musaStream_t stream = 0) {
  return musaMemcpyToSymbolAsync(static_cast<const void *>(&symbol), src, count, offset, kind,
                                 stream);
}
template <class T>
static inline musaError_t musaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                               size_t offset = 0,
                                               musaMemcpyKind kind = musaMemcpyDeviceToHost) {
  return musaMemcpyFromSymbol(dst, static_cast<const void *>(&symbol), count, offset, kind);
}
template <class T>
static inline musaError_t musaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
                                                    size_t offset = 0,
                                                    musaMemcpyKind kind = musaMemcpyDeviceToHost,
                                                    musaStream_t stream = 0) {
  return musaMemcpyFromSymbolAsync(dst, static_cast<const void *>(&symbol), count, offset, kind,
                                   stream);
}
template <class T, class U>
static inline musaError_t musaGetSymbolAddress(T **devPtr, const U &symbol) {
  return musaGetSymbolAddress(reinterpret_cast<void **>(devPtr),
                              static_cast<const void *>(&symbol));
}
template <class T> static inline musaError_t musaGetSymbolSize(size_t *size, const T &symbol) {
  return musaGetSymbolSize(size, static_cast<const void *>(&symbol));
}

/** CUDA's older five-argument instantiate, used by ported code and MUSA's own headers. */
static inline musaError_t musaGraphInstantiate(musaGraphExec_t *exec, musaGraph_t graph,
                                               musaGraphNode_t *errorNode, char *logBuffer,
                                               size_t bufferSize) {
  musaError_t e = musaGraphInstantiate(exec, graph, 0ull);
  if (errorNode)
    *errorNode = 0;
  if (logBuffer && bufferSize)
    logBuffer[0] = '\0';
  return e;
}

/** CUDA's four-argument musaGraphExecUpdate. */
static inline musaError_t musaGraphExecUpdate(musaGraphExec_t exec, musaGraph_t graph,
                                              musaGraphNode_t *errorNode,
                                              musaGraphExecUpdateResult *result) {
  musaGraphExecUpdateResultInfo info;
  musaError_t e = musaGraphExecUpdate(exec, graph, &info);
  if (errorNode)
    *errorNode = info.errorNode;
  if (result)
    *result = info.result;
  return e;
}

/** CUDA 13's forms of prefetch and advice, which name a location instead of a device. */
static inline musaError_t musaMemPrefetchAsync(const void *devPtr, size_t count,
                                               struct musaMemLocation location,
                                               unsigned int flags, musaStream_t stream = 0) {
  return musaMemPrefetchAsync_v2(devPtr, count, location, flags, stream);
}
static inline musaError_t musaMemAdvise(const void *devPtr, size_t count,
                                        enum musaMemoryAdvise advice,
                                        struct musaMemLocation location) {
  return musaMemAdvise_v2(devPtr, count, advice, location);
}

/** CUDA 13's edge-data forms under their base names. */
static inline musaError_t musaGraphAddNode(musaGraphNode_t *node, musaGraph_t graph,
                                           const musaGraphNode_t *deps,
                                           const musaGraphEdgeData *edgeData, size_t numDeps,
                                           struct musaGraphNodeParams *params) {
  return musaGraphAddNode_v2(node, graph, deps, edgeData, numDeps, params);
}
static inline musaError_t musaStreamGetCaptureInfo(musaStream_t stream,
                                                   enum musaStreamCaptureStatus *status,
                                                   unsigned long long *id, musaGraph_t *graph,
                                                   const musaGraphNode_t **deps,
                                                   const musaGraphEdgeData **edgeData,
                                                   size_t *numDeps) {
  return musaStreamGetCaptureInfo_v3(stream, status, id, graph, deps, edgeData, numDeps);
}
static inline musaError_t musaStreamUpdateCaptureDependencies(musaStream_t stream,
                                                              musaGraphNode_t *deps,
                                                              const musaGraphEdgeData *edgeData,
                                                              size_t numDeps, unsigned int flags) {
  return musaStreamUpdateCaptureDependencies_v2(stream, deps, edgeData, numDeps, flags);
}

/** CUDA's two-argument form. */
static inline musaError_t musaStreamIsCapturing(musaStream_t stream,
                                                enum musaStreamCaptureStatus *status) {
  return musaStreamGetCaptureInfo(stream, status);
}

/** CUDA's C++ overload cudaEventCreate(event, flags). */
static inline musaError_t musaEventCreate(musaEvent_t *event, unsigned int flags) {
  return musaEventCreateWithFlags(event, flags);
}

template <class T>
static inline musaError_t musaLaunchCooperativeKernel(T *func, dim3 gridDim, dim3 blockDim,
                                                      void **args, size_t sharedMem = 0,
                                                      musaStream_t stream = 0) {
  return musaLaunchCooperativeKernel(reinterpret_cast<const void *>(func), gridDim, blockDim,
                                     args, sharedMem, stream);
}

/** The guide's form: musaGetErrorName(&name, err). */
static inline musaError_t musaGetErrorName(const char **name, musaError_t error) {
  if (!name)
    return musaErrorInvalidValue;
  *name = musaGetErrorName(error);
  return musaSuccess;
}

/* The kernel-function API's C++ forms, taking the kernel itself. */
template <class T>
static inline musaError_t musaFuncGetAttributes(struct musaFuncAttributes *attr, T *entry) {
  return ::musaFuncGetAttributes(attr, reinterpret_cast<const void *>(entry));
}
template <class T>
static inline musaError_t musaFuncSetAttribute(T *entry, enum musaFuncAttribute attr, int value) {
  return ::musaFuncSetAttribute(reinterpret_cast<const void *>(entry), attr, value);
}
template <class T>
static inline musaError_t musaFuncSetCacheConfig(T *entry, enum musaFuncCache cacheConfig) {
  return ::musaFuncSetCacheConfig(reinterpret_cast<const void *>(entry), cacheConfig);
}
template <class T>
static inline musaError_t musaFuncSetSharedMemConfig(T *entry, enum musaSharedMemConfig config) {
  return ::musaFuncSetSharedMemConfig(reinterpret_cast<const void *>(entry), config);
}
template <class T> static inline musaError_t musaFuncGetName(const char **name, T *entry) {
  return ::musaFuncGetName(name, reinterpret_cast<const void *>(entry));
}
template <class T>
static inline musaError_t musaGetFuncBySymbol(musaFunction_t *functionPtr, T *symbolPtr) {
  return ::musaGetFuncBySymbol(functionPtr, reinterpret_cast<const void *>(symbolPtr));
}

/* The occupancy API's C++ forms, taking the kernel itself. */
template <class T>
static inline musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                                                        int blockSize,
                                                                        size_t dynamicSMemSize) {
  return ::musaOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, reinterpret_cast<const void *>(func), blockSize, dynamicSMemSize);
}
template <class T>
static inline musaError_t
musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, T func, int blockSize,
                                                       size_t dynamicSMemSize,
                                                       unsigned int flags) {
  return ::musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, reinterpret_cast<const void *>(func), blockSize, dynamicSMemSize, flags);
}
template <class T>
static inline musaError_t musaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                                    T func, int numBlocks,
                                                                    int blockSize) {
  return ::musaOccupancyAvailableDynamicSMemPerBlock(
      dynamicSmemSize, reinterpret_cast<const void *>(func), numBlocks, blockSize);
}

/** The block size that keeps the most threads resident per multiprocessor (the largest such
 *  size on a tie), trying every whole-warp size up to blockSizeLimit (0: the most the device
 *  and the kernel allow, the kernel's being its __launch_bounds__), with
 *  blockSizeToDynamicSMemSize(size) bytes of dynamic shared memory per block; and the grid
 *  that fills the device once at that size (*minGridSize). */
template <class UnaryFunction, class T>
static inline musaError_t musaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize,
    int blockSizeLimit = 0, unsigned int flags = musaOccupancyDefault) {
  if (!minGridSize || !blockSize)
    return musaErrorInvalidValue;
  if (!func)
    return musaErrorInvalidDeviceFunction;
  int device = 0, threadsPerSm = 0, warp = 0, maxBlock = 0, sms = 0;
  musaError_t e = musaGetDevice(&device);
  if (e == musaSuccess)
    e = musaDeviceGetAttribute(&threadsPerSm, musaDevAttrMaxThreadsPerMultiProcessor, device);
  if (e == musaSuccess)
    e = musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, device);
  if (e == musaSuccess)
    e = musaDeviceGetAttribute(&maxBlock, musaDevAttrMaxThreadsPerBlock, device);
  if (e == musaSuccess)
    e = musaDeviceGetAttribute(&sms, musaDevAttrMultiProcessorCount, device);
  musaFuncAttributes attributes;
  if (e == musaSuccess)
    e = ::musaFuncGetAttributes(&attributes, reinterpret_cast<const void *>(func));
  if (e != musaSuccess)
    return e;
  if (attributes.maxThreadsPerBlock > 0 && attributes.maxThreadsPerBlock < maxBlock)
    maxBlock = attributes.maxThreadsPerBlock;
  int limit = blockSizeLimit > 0 && blockSizeLimit < maxBlock ? blockSizeLimit : maxBlock;
  int bestSize = 0, bestBlocks = 0, bestThreads = 0;
  for (int aligned = (limit + warp - 1) / warp * warp; aligned > 0; aligned -= warp) {
    int size = aligned < limit ? aligned : limit;
    int blocks = 0;
    e = ::musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocks, reinterpret_cast<const void *>(func), size,
        (size_t)blockSizeToDynamicSMemSize(size), flags);
    if (e != musaSuccess)
      return e;
    if (blocks * size > bestThreads) {
      bestSize = size;
      bestBlocks = blocks;
      bestThreads = blocks * size;
    }
    if (bestThreads == threadsPerSm)
      break; // no smaller size can do better
  }
  *minGridSize = bestBlocks * sms;
  *blockSize = bestSize;
  return musaSuccess;
}
template <class UnaryFunction, class T>
static inline musaError_t
musaOccupancyMaxPotentialBlockSizeVariableSMem(int *minGridSize, int *blockSize, T func,
                                               UnaryFunction blockSizeToDynamicSMemSize,
                                               int blockSizeLimit = 0) {
  return musaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, blockSizeToDynamicSMemSize, blockSizeLimit,
      musaOccupancyDefault);
}
/** The same, with the same dynamic shared memory for every block size. */
struct __musaOccupancyConstantSMem {
  size_t bytes;
  size_t operator()(int) const { return bytes; }
};
template <class T>
static inline musaError_t
musaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, T func,
                                            size_t dynamicSMemSize = 0, int blockSizeLimit = 0,
                                            unsigned int flags = musaOccupancyDefault) {
  return musaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __musaOccupancyConstantSMem{dynamicSMemSize},
      blockSizeLimit, flags);
}
template <class T>
static inline musaError_t musaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
                                                             T func, size_t dynamicSMemSize = 0,
                                                             int blockSizeLimit = 0) {
  return musaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
      minGridSize, blockSize, func, __musaOccupancyConstantSMem{dynamicSMemSize},
      blockSizeLimit, musaOccupancyDefault);
}

template <class T> static inline musaError_t musaMalloc(T **devPtr, size_t size) {
  return musaMalloc(reinterpret_cast<void **>(devPtr), size);
}
template <class T> static inline musaError_t musaMallocHost(T **ptr, size_t size) {
  return musaMallocHost(reinterpret_cast<void **>(ptr), size);
}
template <class T>
static inline musaError_t musaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return musaHostAlloc(reinterpret_cast<void **>(ptr), size, flags);
}
/** CUDA's C++ cudaLaunchKernelEx: the arguments converted to the kernel's parameter types. */
template <typename... ExpTypes, typename... ActTypes>
static inline musaError_t musaLaunchKernelEx(const musaLaunchConfig_t *config,
                                             void (*kernel)(ExpTypes...), ActTypes &&...args) {
  return [&](ExpTypes... coerced) {
    void *pointers[] = {static_cast<void *>(&coerced)..., nullptr};
    return ::musaLaunchKernelExC(config, reinterpret_cast<const void *>(kernel), pointers);
  }(static_cast<ActTypes &&>(args)...);
}
template <class T>
static inline musaError_t musaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                           size_t sharedMem = 0, musaStream_t stream = 0) {
  return musaLaunchKernel(reinterpret_cast<const void *>(func), gridDim, blockDim, args,
                          sharedMem, stream);
}
#endif

#endif /* __MUSA_RUNTIME_H__ */
