/* musa_runtime_api.h - the C entry points of libmusart implemented so far. */
#ifndef __MUSA_RUNTIME_API_H__
#define __MUSA_RUNTIME_API_H__

#include "musa_driver_types.h"

#define MUSART_VERSION 50100
#define __MUSART_API_VERSION 12080

#ifdef __cplusplus
#define __MUSA_EXTERN_C extern "C"
#define __MUSA_DEFAULT(x) = x
#else
#define __MUSA_EXTERN_C extern
#define __MUSA_DEFAULT(x)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* errors */
musaError_t musaGetLastError(void);
musaError_t musaPeekAtLastError(void);
const char *musaGetErrorString(musaError_t error);
/** CUDA's form; the guide's out-parameter form is a C++ overload in musa_runtime.h. */
const char *musaGetErrorName(musaError_t error);

/* devices */
musaError_t musaGetDeviceCount(int *count);
musaError_t musaGetDeviceProperties(struct musaDeviceProp *prop, int device);
musaError_t musaChooseDevice(int *device, const struct musaDeviceProp *prop);
musaError_t musaSetDevice(int device);
musaError_t musaGetDevice(int *device);
/* The devices a thread that never calls musaSetDevice may be given, first choice first (len
 * 0: every device in ordinal order, the default). */
musaError_t musaSetValidDevices(int *device_arr, int len);
musaError_t musaDeviceSynchronize(void);
/** Initialises a device without making it current; flags musaInitDeviceFlagsAreValid: set
 *  its device flags too (as musaSetDeviceFlags). */
musaError_t musaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
musaError_t musaDeviceReset(void);
musaError_t musaMemGetInfo(size_t *free, size_t *total);
musaError_t musaDriverGetVersion(int *version);
musaError_t musaGetDriverEntryPoint(const char *symbol, void **funcPtr, unsigned long long flags,
                                    enum musaDriverEntryPointQueryResult *driverStatus
                                        __MUSA_DEFAULT(0));
musaError_t musaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                             unsigned int musaVersion, unsigned long long flags,
                                             enum musaDriverEntryPointQueryResult *driverStatus
                                                 __MUSA_DEFAULT(0));
musaError_t musaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                 const struct musaChannelFormatDesc *fmtDesc,
                                                 int device);
musaError_t musaRuntimeGetVersion(int *version);
musaError_t musaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
/* Peer-to-peer attributes of a pair of devices (every simulated pair shares the host's
 * memory: access, atomics and arrays are supported, performance rank 0). */
enum musaDeviceP2PAttr {
  musaDevP2PAttrPerformanceRank = 1,
  musaDevP2PAttrAccessSupported = 2,
  musaDevP2PAttrNativeAtomicSupported = 3,
  musaDevP2PAttrMusaArrayAccessSupported = 4
};
typedef enum musaDeviceP2PAttr musaDeviceP2PAttr;
musaError_t musaDeviceGetP2PAttribute(int *value, enum musaDeviceP2PAttr attr, int srcDevice,
                                      int dstDevice);
enum musaFlushGPUDirectRDMAWritesTarget { musaFlushGPUDirectRDMAWritesTargetCurrentDevice = 0 };
enum musaFlushGPUDirectRDMAWritesScope {
  musaFlushGPUDirectRDMAWritesToOwner = 100,
  musaFlushGPUDirectRDMAWritesToAllDevices = 200
};
musaError_t musaDeviceFlushGPUDirectRDMAWrites(enum musaFlushGPUDirectRDMAWritesTarget target,
                                               enum musaFlushGPUDirectRDMAWritesScope scope);
/* The deprecated thread-level names of the device calls (older samples still use them). */
musaError_t musaThreadSynchronize(void);
musaError_t musaThreadExit(void);
musaError_t musaThreadSetLimit(enum musaLimit limit, size_t value);
musaError_t musaThreadGetLimit(size_t *value, enum musaLimit limit);
musaError_t musaThreadSetCacheConfig(enum musaFuncCache cacheConfig);
musaError_t musaThreadGetCacheConfig(enum musaFuncCache *pCacheConfig);
musaError_t musaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
musaError_t musaDeviceDisablePeerAccess(int peerDevice);
musaError_t musaDeviceGetPCIBusId(char *pciBusId, int len, int device);
musaError_t musaDeviceGetByPCIBusId(int *device, const char *pciBusId);
musaError_t musaDeviceGetUuid(musaUuid_t *uuid, int device);
musaError_t musaDeviceGetAttribute(int *value, enum musaDeviceAttr attr, int device);
musaError_t musaSetDeviceFlags(unsigned int flags);
musaError_t musaGetDeviceFlags(unsigned int *flags);
musaError_t musaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
musaError_t musaDeviceSetLimit(enum musaLimit limit, size_t value);
musaError_t musaCtxResetPersistingL2Cache(void);
musaError_t musaDeviceGetLimit(size_t *value, enum musaLimit limit);

/* memory */
musaError_t musaMalloc(void **devPtr, size_t size);
musaError_t musaFree(void *devPtr);
musaError_t musaMallocHost(void **ptr, size_t size);
musaError_t musaHostAlloc(void **ptr, size_t size, unsigned int flags);
musaError_t musaFreeHost(void *ptr);
musaError_t musaMemcpy(void *dst, const void *src, size_t count, enum musaMemcpyKind kind);
musaError_t musaMemcpyAsync(void *dst, const void *src, size_t count, enum musaMemcpyKind kind,
                            musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemset(void *devPtr, int value, size_t count);
musaError_t musaMemsetAsync(void *devPtr, int value, size_t count,
                            musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
musaError_t musaMalloc3D(struct musaPitchedPtr *pitchedDevPtr, struct musaExtent extent);
musaError_t musaMallocManaged(void **devPtr, size_t size,
                              unsigned int flags __MUSA_DEFAULT(musaMemAttachGlobal));
musaError_t musaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice,
                                 musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemAdvise(const void *devPtr, size_t count, enum musaMemoryAdvise advice,
                          int device);
/** CUDA 12.2's location forms (CUDA 13's only forms: musa_runtime.h gives C++ those names). */
musaError_t musaMemPrefetchAsync_v2(const void *devPtr, size_t count,
                                    struct musaMemLocation location, unsigned int flags,
                                    musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemAdvise_v2(const void *devPtr, size_t count, enum musaMemoryAdvise advice,
                             struct musaMemLocation location);
musaError_t musaMemRangeGetAttribute(void *data, size_t dataSize,
                                     enum musaMemRangeAttribute attribute, const void *devPtr,
                                     size_t count);
musaError_t musaMemRangeGetAttributes(void **data, size_t *dataSizes,
                                      enum musaMemRangeAttribute *attributes,
                                      size_t numAttributes, const void *devPtr, size_t count);
musaError_t musaHostRegister(void *ptr, size_t size, unsigned int flags);
musaError_t musaHostUnregister(void *ptr);
/** The guide's spelling of musaHostUnregister. */
musaError_t musaMemHostUnregister(void *ptr);
musaError_t musaHostGetDevicePointer(void **devPtr, void *hostPtr, unsigned int flags);
musaError_t musaHostGetFlags(unsigned int *flags, void *hostPtr);
musaError_t musaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum musaMemcpyKind kind);
musaError_t musaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum musaMemcpyKind kind,
                              musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemcpy3D(const struct musaMemcpy3DParms *p);
musaError_t musaMemcpy3DAsync(const struct musaMemcpy3DParms *p,
                              musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                           size_t count);
musaError_t musaMemcpy3DPeer(const struct musaMemcpy3DPeerParms *p);
musaError_t musaMemcpy3DPeerAsync(const struct musaMemcpy3DPeerParms *p,
                                  musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height);
musaError_t musaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                              size_t height, musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemset3D(struct musaPitchedPtr pitchedDevPtr, int value,
                         struct musaExtent extent);
musaError_t musaMemset3DAsync(struct musaPitchedPtr pitchedDevPtr, int value,
                              struct musaExtent extent, musaStream_t stream __MUSA_DEFAULT(0));

/* __device__ and __constant__ variables (the C++ overloads in musa_runtime.h take the
 * variable itself) */
musaError_t musaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                               size_t offset __MUSA_DEFAULT(0),
                               enum musaMemcpyKind kind __MUSA_DEFAULT(musaMemcpyHostToDevice));
musaError_t musaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum musaMemcpyKind kind,
                                    musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                 size_t offset __MUSA_DEFAULT(0),
                                 enum musaMemcpyKind kind __MUSA_DEFAULT(musaMemcpyDeviceToHost));
musaError_t musaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum musaMemcpyKind kind,
                                      musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaGetSymbolAddress(void **devPtr, const void *symbol);
musaError_t musaGetSymbolSize(size_t *size, const void *symbol);

/* arrays */
struct musaChannelFormatDesc musaCreateChannelDesc(int x, int y, int z, int w,
                                                   enum musaChannelFormatKind f);
musaError_t musaMallocArray(musaArray_t *array, const struct musaChannelFormatDesc *desc,
                            size_t width, size_t height __MUSA_DEFAULT(0),
                            unsigned int flags __MUSA_DEFAULT(0));
musaError_t musaMalloc3DArray(musaArray_t *array, const struct musaChannelFormatDesc *desc,
                              struct musaExtent extent, unsigned int flags __MUSA_DEFAULT(0));
musaError_t musaFreeArray(musaArray_t array);
musaError_t musaArrayGetPlane(musaArray_t *pPlaneArray, musaArray_t hArray,
                              unsigned int planeIdx);
musaError_t musaArrayGetInfo(struct musaChannelFormatDesc *desc, struct musaExtent *extent,
                             unsigned int *flags, musaArray_t array);
/* Kernel functions: attributes, cache and shared-memory preferences. */
musaError_t musaFuncGetAttributes(struct musaFuncAttributes *attr, const void *func);
musaError_t musaFuncGetParamInfo(const void *func, size_t paramIndex, size_t *paramOffset,
                                 size_t *paramSize);
musaError_t musaFuncSetAttribute(const void *func, enum musaFuncAttribute attr, int value);
musaError_t musaFuncSetCacheConfig(const void *func, enum musaFuncCache cacheConfig);
musaError_t musaFuncSetSharedMemConfig(const void *func, enum musaSharedMemConfig config);
musaError_t musaFuncGetName(const char **name, const void *func);
/* The driver-API handle of a kernel given its host-side symbol (what muLaunchKernel takes). */
musaError_t musaGetFuncBySymbol(musaFunction_t *functionPtr, const void *symbolPtr);
musaError_t musaDeviceSetCacheConfig(enum musaFuncCache cacheConfig);
musaError_t musaDeviceGetCacheConfig(enum musaFuncCache *pCacheConfig);
musaError_t musaDeviceSetSharedMemConfig(enum musaSharedMemConfig config);
musaError_t musaDeviceGetSharedMemConfig(enum musaSharedMemConfig *pConfig);
musaError_t musaGetChannelDesc(struct musaChannelFormatDesc *desc, musaArray_const_t array);
/* Texture and surface objects. */
musaError_t musaCreateTextureObject(musaTextureObject_t *pTexObject,
                                    const struct musaResourceDesc *pResDesc,
                                    const struct musaTextureDesc *pTexDesc,
                                    const struct musaResourceViewDesc *pResViewDesc);
musaError_t musaDestroyTextureObject(musaTextureObject_t texObject);
musaError_t musaGetTextureObjectResourceDesc(struct musaResourceDesc *pResDesc,
                                             musaTextureObject_t texObject);
musaError_t musaGetTextureObjectTextureDesc(struct musaTextureDesc *pTexDesc,
                                            musaTextureObject_t texObject);
musaError_t musaGetTextureObjectResourceViewDesc(struct musaResourceViewDesc *pResViewDesc,
                                                 musaTextureObject_t texObject);
musaError_t musaCreateSurfaceObject(musaSurfaceObject_t *pSurfObject,
                                    const struct musaResourceDesc *pResDesc);
musaError_t musaDestroySurfaceObject(musaSurfaceObject_t surfObject);
musaError_t musaGetSurfaceObjectResourceDesc(struct musaResourceDesc *pResDesc,
                                             musaSurfaceObject_t surfObject);
musaError_t musaMemcpy2DToArray(musaArray_t dst, size_t wOffset, size_t hOffset,
                                const void *src, size_t spitch, size_t width, size_t height,
                                enum musaMemcpyKind kind);
musaError_t musaMemcpy2DFromArray(void *dst, size_t dpitch, musaArray_const_t src,
                                  size_t wOffset, size_t hOffset, size_t width, size_t height,
                                  enum musaMemcpyKind kind);
musaError_t musaMemcpyToArray(musaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum musaMemcpyKind kind);
musaError_t musaMemcpyFromArray(void *dst, musaArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t count, enum musaMemcpyKind kind);
musaError_t musaMemcpy2DToArrayAsync(musaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t spitch, size_t width, size_t height,
                                     enum musaMemcpyKind kind,
                                     musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, musaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, enum musaMemcpyKind kind,
                                       musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemcpyToArrayAsync(musaArray_t dst, size_t wOffset, size_t hOffset,
                                   const void *src, size_t count, enum musaMemcpyKind kind,
                                   musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemcpyFromArrayAsync(void *dst, musaArray_const_t src, size_t wOffset,
                                     size_t hOffset, size_t count, enum musaMemcpyKind kind,
                                     musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaMemcpy2DArrayToArray(musaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     musaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                     size_t width, size_t height,
                                     enum musaMemcpyKind kind __MUSA_DEFAULT(musaMemcpyDeviceToDevice));
musaError_t musaMemcpyArrayToArray(musaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                   musaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                   size_t count,
                                   enum musaMemcpyKind kind __MUSA_DEFAULT(musaMemcpyDeviceToDevice));
/* Mipmapped arrays: a chain of arrays, each level half the size of the one before. */
musaError_t musaMallocMipmappedArray(musaMipmappedArray_t *mipmappedArray,
                                     const struct musaChannelFormatDesc *desc,
                                     struct musaExtent extent, unsigned int numLevels,
                                     unsigned int flags __MUSA_DEFAULT(0));
musaError_t musaGetMipmappedArrayLevel(musaArray_t *levelArray,
                                       musaMipmappedArray_const_t mipmappedArray,
                                       unsigned int level);
musaError_t musaFreeMipmappedArray(musaMipmappedArray_t mipmappedArray);

/* pointer queries */
musaError_t musaPointerGetAttributes(struct musaPointerAttributes *attributes, const void *ptr);
musaError_t musaPointerGetAttribute(void *data, enum musaPointer_attribute attribute,
                                    const void *ptr);
musaError_t musaPointerGetMemoryType(enum musaMemoryType *type, const void *ptr);
musaError_t musaPointerGetDevice(int *device, const void *ptr);

/* streams */
musaError_t musaStreamCreate(musaStream_t *stream);
musaError_t musaStreamCreateWithFlags(musaStream_t *stream, unsigned int flags);
musaError_t musaStreamDestroy(musaStream_t stream);
musaError_t musaStreamSynchronize(musaStream_t stream);
musaError_t musaStreamQuery(musaStream_t stream);
musaError_t musaStreamCreateWithPriority(musaStream_t *stream, unsigned int flags, int priority);
musaError_t musaStreamGetPriority(musaStream_t stream, int *priority);
musaError_t musaStreamSetAttribute(musaStream_t stream, musaStreamAttrID attr,
                                   const musaStreamAttrValue *value);
musaError_t musaStreamGetAttribute(musaStream_t stream, musaStreamAttrID attr,
                                   musaStreamAttrValue *value);
musaError_t musaStreamCopyAttributes(musaStream_t dst, musaStream_t src);
musaError_t musaStreamGetFlags(musaStream_t stream, unsigned int *flags);
musaError_t musaStreamGetDevice(musaStream_t stream, int *device);
musaError_t musaStreamGetId(musaStream_t stream, unsigned long long *streamId);
musaError_t musaStreamAttachMemAsync(musaStream_t stream, void *devPtr, size_t length,
                                     unsigned int flags);
musaError_t musaStreamAddCallback(musaStream_t stream, musaStreamCallback_t callback,
                                  void *userData, unsigned int flags);
musaError_t musaLaunchHostFunc(musaStream_t stream, musaHostFn_t fn, void *userData);
musaError_t musaStreamWaitEvent(musaStream_t stream, musaEvent_t event,
                                unsigned int flags __MUSA_DEFAULT(0));

/* events */
musaError_t musaEventCreate(musaEvent_t *event);
musaError_t musaEventCreateWithFlags(musaEvent_t *event, unsigned int flags);
musaError_t musaEventRecord(musaEvent_t event, musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaEventRecordWithFlags(musaEvent_t event, musaStream_t stream __MUSA_DEFAULT(0),
                                     unsigned int flags __MUSA_DEFAULT(0));
musaError_t musaEventQuery(musaEvent_t event);
musaError_t musaEventSynchronize(musaEvent_t event);
musaError_t musaEventElapsedTime(float *ms, musaEvent_t start, musaEvent_t end);
musaError_t musaEventDestroy(musaEvent_t event);

/* graphs */
musaError_t musaGraphCreate(musaGraph_t *graph, unsigned int flags);
musaError_t musaGraphDestroy(musaGraph_t graph);
musaError_t musaGraphDestroyNode(musaGraphNode_t node);
musaError_t musaGraphAddKernelNode(musaGraphNode_t *node, musaGraph_t graph,
                                   const musaGraphNode_t *deps, size_t numDeps,
                                   const struct musaKernelNodeParams *params);
musaError_t musaGraphAddMemcpyNode(musaGraphNode_t *node, musaGraph_t graph,
                                   const musaGraphNode_t *deps, size_t numDeps,
                                   const struct musaMemcpy3DParms *params);
musaError_t musaGraphAddMemcpyNode1D(musaGraphNode_t *node, musaGraph_t graph,
                                     const musaGraphNode_t *deps, size_t numDeps, void *dst,
                                     const void *src, size_t count, enum musaMemcpyKind kind);
musaError_t musaGraphAddMemcpyNodeToSymbol(musaGraphNode_t *node, musaGraph_t graph,
                                           const musaGraphNode_t *deps, size_t numDeps,
                                           const void *symbol, const void *src, size_t count,
                                           size_t offset, enum musaMemcpyKind kind);
musaError_t musaGraphAddMemcpyNodeFromSymbol(musaGraphNode_t *node, musaGraph_t graph,
                                             const musaGraphNode_t *deps, size_t numDeps,
                                             void *dst, const void *symbol, size_t count,
                                             size_t offset, enum musaMemcpyKind kind);
musaError_t musaGraphMemcpyNodeSetParams1D(musaGraphNode_t node, void *dst, const void *src,
                                           size_t count, enum musaMemcpyKind kind);
musaError_t musaGraphMemcpyNodeSetParamsToSymbol(musaGraphNode_t node, const void *symbol,
                                                 const void *src, size_t count, size_t offset,
                                                 enum musaMemcpyKind kind);
musaError_t musaGraphMemcpyNodeSetParamsFromSymbol(musaGraphNode_t node, void *dst,
                                                   const void *symbol, size_t count,
                                                   size_t offset, enum musaMemcpyKind kind);
musaError_t musaGraphExecMemcpyNodeSetParams1D(musaGraphExec_t exec, musaGraphNode_t node,
                                               void *dst, const void *src, size_t count,
                                               enum musaMemcpyKind kind);
musaError_t musaGraphExecMemcpyNodeSetParamsToSymbol(musaGraphExec_t exec, musaGraphNode_t node,
                                                     const void *symbol, const void *src,
                                                     size_t count, size_t offset,
                                                     enum musaMemcpyKind kind);
musaError_t musaGraphExecMemcpyNodeSetParamsFromSymbol(musaGraphExec_t exec,
                                                       musaGraphNode_t node, void *dst,
                                                       const void *symbol, size_t count,
                                                       size_t offset, enum musaMemcpyKind kind);
musaError_t musaGraphAddMemsetNode(musaGraphNode_t *node, musaGraph_t graph,
                                   const musaGraphNode_t *deps, size_t numDeps,
                                   const struct musaMemsetParams *params);
musaError_t musaGraphAddHostNode(musaGraphNode_t *node, musaGraph_t graph,
                                 const musaGraphNode_t *deps, size_t numDeps,
                                 const struct musaHostNodeParams *params);
musaError_t musaGraphAddEmptyNode(musaGraphNode_t *node, musaGraph_t graph,
                                  const musaGraphNode_t *deps, size_t numDeps);
musaError_t musaGraphAddChildGraphNode(musaGraphNode_t *node, musaGraph_t graph,
                                       const musaGraphNode_t *deps, size_t numDeps,
                                       musaGraph_t childGraph);
musaError_t musaGraphAddEventRecordNode(musaGraphNode_t *node, musaGraph_t graph,
                                        const musaGraphNode_t *deps, size_t numDeps,
                                        musaEvent_t event);
musaError_t musaGraphAddEventWaitNode(musaGraphNode_t *node, musaGraph_t graph,
                                      const musaGraphNode_t *deps, size_t numDeps,
                                      musaEvent_t event);
musaError_t musaGraphAddDependencies(musaGraph_t graph, const musaGraphNode_t *from,
                                     const musaGraphNode_t *to, size_t numDependencies);
musaError_t musaGraphRemoveDependencies(musaGraph_t graph, const musaGraphNode_t *from,
                                        const musaGraphNode_t *to, size_t numDependencies);
musaError_t musaGraphGetNodes(musaGraph_t graph, musaGraphNode_t *nodes, size_t *numNodes);
musaError_t musaGraphGetRootNodes(musaGraph_t graph, musaGraphNode_t *nodes, size_t *numNodes);
musaError_t musaGraphGetEdges(musaGraph_t graph, musaGraphNode_t *from, musaGraphNode_t *to,
                              size_t *numEdges);
musaError_t musaGraphNodeGetType(musaGraphNode_t node, enum musaGraphNodeType *type);
musaError_t musaGraphNodeGetDependencies(musaGraphNode_t node, musaGraphNode_t *deps,
                                         size_t *numDeps);
musaError_t musaGraphNodeGetDependentNodes(musaGraphNode_t node, musaGraphNode_t *nodes,
                                           size_t *numNodes);
musaError_t musaGraphKernelNodeGetParams(musaGraphNode_t node, struct musaKernelNodeParams *p);
musaError_t musaGraphKernelNodeSetParams(musaGraphNode_t node,
                                         const struct musaKernelNodeParams *p);
/** Kernel node attributes: the priority (used with musaGraphInstantiateFlagUseNodePriority). */
musaError_t musaGraphKernelNodeSetAttribute(musaGraphNode_t node, musaKernelNodeAttrID attr,
                                            const musaKernelNodeAttrValue *value);
musaError_t musaGraphKernelNodeGetAttribute(musaGraphNode_t node, musaKernelNodeAttrID attr,
                                            musaKernelNodeAttrValue *value);
musaError_t musaGraphExecChildGraphNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                                 musaGraph_t childGraph);
musaError_t musaGraphClone(musaGraph_t *clone, musaGraph_t original);
musaError_t musaGraphNodeFindInClone(musaGraphNode_t *cloneNode, musaGraphNode_t originalNode,
                                     musaGraph_t clonedGraph);
musaError_t musaGraphDebugDotPrint(musaGraph_t graph, const char *path, unsigned int flags);
/** The guide's three-argument form; CUDA's older five-argument form is a C++ overload in
 *  musa_runtime.h. */
musaError_t musaGraphInstantiate(musaGraphExec_t *exec, musaGraph_t graph,
                                 unsigned long long flags __MUSA_DEFAULT(0));
musaError_t musaGraphInstantiateWithFlags(musaGraphExec_t *exec, musaGraph_t graph,
                                          unsigned long long flags __MUSA_DEFAULT(0));
musaError_t musaGraphLaunch(musaGraphExec_t exec, musaStream_t stream);
musaError_t musaGraphUpload(musaGraphExec_t exec, musaStream_t stream);
musaError_t musaGraphExecDestroy(musaGraphExec_t exec);
musaError_t musaGraphNodeSetEnabled(musaGraphExec_t exec, musaGraphNode_t node,
                                    unsigned int isEnabled);
musaError_t musaGraphNodeGetEnabled(musaGraphExec_t exec, musaGraphNode_t node,
                                    unsigned int *isEnabled);
musaError_t musaGraphExecKernelNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                             const struct musaKernelNodeParams *p);
/** The generic forms: a node's parameters of its own type (not memory allocation, free or
 *  conditional nodes), in the graph or in an instantiated one. */
musaError_t musaGraphNodeSetParams(musaGraphNode_t node, struct musaGraphNodeParams *params);
musaError_t musaGraphExecNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                       struct musaGraphNodeParams *params);
musaError_t musaGraphExecGetFlags(musaGraphExec_t exec, unsigned long long *flags);
/* User objects: created with a reference count, retained and released by the program and by
 * graphs; the destructor runs once when the count reaches zero. */
musaError_t musaUserObjectCreate(musaUserObject_t *object_out, void *ptr, musaHostFn_t destroy,
                                 unsigned int initialRefcount, unsigned int flags);
musaError_t musaUserObjectRetain(musaUserObject_t object, unsigned int count __MUSA_DEFAULT(1));
musaError_t musaUserObjectRelease(musaUserObject_t object, unsigned int count __MUSA_DEFAULT(1));
musaError_t musaGraphRetainUserObject(musaGraph_t graph, musaUserObject_t object,
                                      unsigned int count __MUSA_DEFAULT(1),
                                      unsigned int flags __MUSA_DEFAULT(0));
musaError_t musaGraphReleaseUserObject(musaGraph_t graph, musaUserObject_t object,
                                       unsigned int count __MUSA_DEFAULT(1));
/** Copies a kernel node's launch attributes (priority, access policy window) to another. */
musaError_t musaGraphKernelNodeCopyAttributes(musaGraphNode_t dst, musaGraphNode_t src);

musaError_t musaGraphInstantiateWithParams(musaGraphExec_t *exec, musaGraph_t graph,
                                           musaGraphInstantiateParams *params);
/** The guide's form; CUDA's four-argument form is a C++ overload in musa_runtime.h. */
musaError_t musaGraphExecUpdate(musaGraphExec_t exec, musaGraph_t graph,
                                musaGraphExecUpdateResultInfo *resultInfo);
musaError_t musaGraphMemcpyNodeGetParams(musaGraphNode_t node, struct musaMemcpy3DParms *p);
musaError_t musaGraphMemcpyNodeSetParams(musaGraphNode_t node, const struct musaMemcpy3DParms *p);
musaError_t musaGraphMemsetNodeGetParams(musaGraphNode_t node, struct musaMemsetParams *p);
musaError_t musaGraphMemsetNodeSetParams(musaGraphNode_t node, const struct musaMemsetParams *p);
musaError_t musaGraphHostNodeGetParams(musaGraphNode_t node, struct musaHostNodeParams *p);
musaError_t musaGraphHostNodeSetParams(musaGraphNode_t node, const struct musaHostNodeParams *p);
musaError_t musaGraphExecMemcpyNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                             const struct musaMemcpy3DParms *p);
musaError_t musaGraphExecMemsetNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                             const struct musaMemsetParams *p);
musaError_t musaGraphExecHostNodeSetParams(musaGraphExec_t exec, musaGraphNode_t node,
                                           const struct musaHostNodeParams *p);

musaError_t musaGraphAddMemAllocNode(musaGraphNode_t *node, musaGraph_t graph,
                                     const musaGraphNode_t *deps, size_t numDeps,
                                     struct musaMemAllocNodeParams *params);
musaError_t musaGraphAddMemFreeNode(musaGraphNode_t *node, musaGraph_t graph,
                                    const musaGraphNode_t *deps, size_t numDeps, void *dptr);
musaError_t musaDeviceGetGraphMemAttribute(int device, enum musaGraphMemAttributeType attr,
                                           void *value);
musaError_t musaDeviceSetGraphMemAttribute(int device, enum musaGraphMemAttributeType attr,
                                           void *value);
musaError_t musaDeviceGraphMemTrim(int device);

musaError_t musaGraphConditionalHandleCreate(musaGraphConditionalHandle *handle,
                                             musaGraph_t graph,
                                             unsigned int defaultLaunchValue __MUSA_DEFAULT(0),
                                             unsigned int flags __MUSA_DEFAULT(0));
/** Adds any node type from its generic description (conditional nodes only this way). */
musaError_t musaGraphAddNode(musaGraphNode_t *node, musaGraph_t graph,
                             const musaGraphNode_t *deps, size_t numDeps,
                             struct musaGraphNodeParams *params);
/** With edge data (CUDA 12.3's _v2; CUDA 13's musaGraphAddNode, see musa_runtime.h). */
musaError_t musaGraphAddNode_v2(musaGraphNode_t *node, musaGraph_t graph,
                                const musaGraphNode_t *deps, const musaGraphEdgeData *edgeData,
                                size_t numDeps, struct musaGraphNodeParams *params);

musaError_t musaGraphAddExternalSemaphoresSignalNode(
    musaGraphNode_t *node, musaGraph_t graph, const musaGraphNode_t *deps, size_t numDeps,
    const struct musaExternalSemaphoreSignalNodeParams *params);
musaError_t musaGraphAddExternalSemaphoresWaitNode(
    musaGraphNode_t *node, musaGraph_t graph, const musaGraphNode_t *deps, size_t numDeps,
    const struct musaExternalSemaphoreWaitNodeParams *params);

musaError_t musaGraphEventRecordNodeGetEvent(musaGraphNode_t node, musaEvent_t *event);
musaError_t musaGraphEventRecordNodeSetEvent(musaGraphNode_t node, musaEvent_t event);
musaError_t musaGraphEventWaitNodeGetEvent(musaGraphNode_t node, musaEvent_t *event);
musaError_t musaGraphEventWaitNodeSetEvent(musaGraphNode_t node, musaEvent_t event);
musaError_t musaGraphExecEventRecordNodeSetEvent(musaGraphExec_t exec, musaGraphNode_t node,
                                                 musaEvent_t event);
musaError_t musaGraphExecEventWaitNodeSetEvent(musaGraphExec_t exec, musaGraphNode_t node,
                                               musaEvent_t event);
musaError_t musaGraphChildGraphNodeGetGraph(musaGraphNode_t node, musaGraph_t *graph);
musaError_t musaGraphMemAllocNodeGetParams(musaGraphNode_t node,
                                           struct musaMemAllocNodeParams *params);
musaError_t musaGraphMemFreeNodeGetParams(musaGraphNode_t node, void *dptr);

musaError_t musaGraphExternalSemaphoresSignalNodeGetParams(
    musaGraphNode_t node, struct musaExternalSemaphoreSignalNodeParams *params);
musaError_t musaGraphExternalSemaphoresSignalNodeSetParams(
    musaGraphNode_t node, const struct musaExternalSemaphoreSignalNodeParams *params);
musaError_t musaGraphExternalSemaphoresWaitNodeGetParams(
    musaGraphNode_t node, struct musaExternalSemaphoreWaitNodeParams *params);
musaError_t musaGraphExternalSemaphoresWaitNodeSetParams(
    musaGraphNode_t node, const struct musaExternalSemaphoreWaitNodeParams *params);
musaError_t musaGraphExecExternalSemaphoresSignalNodeSetParams(
    musaGraphExec_t exec, musaGraphNode_t node,
    const struct musaExternalSemaphoreSignalNodeParams *params);
musaError_t musaGraphExecExternalSemaphoresWaitNodeSetParams(
    musaGraphExec_t exec, musaGraphNode_t node,
    const struct musaExternalSemaphoreWaitNodeParams *params);

/* memory pools shared between processes: a pool made with musaMemHandleTypePosixFileDescriptor
 * exports a descriptor of its device's memory; the importer's pool maps the pointers the
 * exporter exports (musaFree / musaFreeAsync unmap them) and allocates nothing itself. */
musaError_t musaMemPoolExportToShareableHandle(void *shareableHandle, musaMemPool_t memPool,
                                               enum musaMemAllocationHandleType handleType,
                                               unsigned int flags);
musaError_t musaMemPoolImportFromShareableHandle(musaMemPool_t *memPool, void *shareableHandle,
                                                 enum musaMemAllocationHandleType handleType,
                                                 unsigned int flags);
musaError_t musaMemPoolExportPointer(struct musaMemPoolPtrExportData *exportData, void *ptr);
musaError_t musaMemPoolImportPointer(void **ptr, musaMemPool_t memPool,
                                     struct musaMemPoolPtrExportData *exportData);

/* batches (stream order for the batch as a whole, none within it; not on the legacy stream) */
musaError_t musaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                 size_t count, struct musaMemcpyAttributes *attrs,
                                 size_t *attrsIdxs, size_t numAttrs, musaStream_t stream);
musaError_t musaMemcpy3DBatchAsync(size_t numOps, struct musaMemcpy3DBatchOp *opList,
                                   unsigned long long flags, musaStream_t stream);
musaError_t musaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                      struct musaMemLocation *prefetchLocs,
                                      size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                      unsigned long long flags, musaStream_t stream);
/** Discarded managed memory reads back indeterminate: here its whole pages are given back to
 *  the host and read as zeros. */
musaError_t musaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                     unsigned long long flags, musaStream_t stream);
musaError_t musaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                struct musaMemLocation *prefetchLocs,
                                                size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                unsigned long long flags, musaStream_t stream);

/* libraries: device images (what the driver writes with --cuda-device-only or -fatbin)
 * loaded without a context; their kernels launch with musaLaunchKernel((const void *)k, ...).
 * JIT and library options are accepted and have no effect (images are compiled by the JIT). */
musaError_t musaLibraryLoadData(musaLibrary_t *library, const void *code,
                                musaJitOption *jitOptions, void **jitOptionsValues,
                                unsigned int numJitOptions, musaLibraryOption *libraryOptions,
                                void **libraryOptionValues, unsigned int numLibraryOptions);
musaError_t musaLibraryLoadFromFile(musaLibrary_t *library, const char *fileName,
                                    musaJitOption *jitOptions, void **jitOptionsValues,
                                    unsigned int numJitOptions, musaLibraryOption *libraryOptions,
                                    void **libraryOptionValues, unsigned int numLibraryOptions);
musaError_t musaLibraryUnload(musaLibrary_t library);
musaError_t musaLibraryGetKernel(musaKernel_t *pKernel, musaLibrary_t library, const char *name);
musaError_t musaLibraryGetKernelCount(unsigned int *count, musaLibrary_t lib);
musaError_t musaLibraryEnumerateKernels(musaKernel_t *kernels, unsigned int numKernels,
                                        musaLibrary_t lib);
musaError_t musaLibraryGetGlobal(void **dptr, size_t *bytes, musaLibrary_t library,
                                 const char *name);
musaError_t musaLibraryGetManaged(void **dptr, size_t *bytes, musaLibrary_t library,
                                  const char *name);
musaError_t musaLibraryGetUnifiedFunction(void **fptr, musaLibrary_t library, const char *symbol);
/** The kernel handle of a kernel of the program (its host stub), as libraries give them. */
musaError_t musaGetKernel(musaKernel_t *kernelPtr, const void *entryFuncAddr);
musaError_t musaKernelSetAttributeForDevice(musaKernel_t kernel, enum musaFuncAttribute attr,
                                            int value, int device);

/* external memory (OpaqueFd only; mipmapped arrays over it: musaErrorNotSupported) */
musaError_t musaImportExternalMemory(musaExternalMemory_t *extMem_out,
                                     const struct musaExternalMemoryHandleDesc *memHandleDesc);
musaError_t musaExternalMemoryGetMappedBuffer(void **devPtr, musaExternalMemory_t extMem,
                                              const struct musaExternalMemoryBufferDesc *bufferDesc);
musaError_t musaExternalMemoryGetMappedMipmappedArray(
    musaMipmappedArray_t *mipmap, musaExternalMemory_t extMem,
    const struct musaExternalMemoryMipmappedArrayDesc *mipmapDesc);
musaError_t musaDestroyExternalMemory(musaExternalMemory_t extMem);

/* external semaphores */
musaError_t musaImportExternalSemaphore(musaExternalSemaphore_t *sem,
                                        const struct musaExternalSemaphoreHandleDesc *desc);
musaError_t musaDestroyExternalSemaphore(musaExternalSemaphore_t sem);
musaError_t musaSignalExternalSemaphoresAsync(const musaExternalSemaphore_t *sems,
                                              const struct musaExternalSemaphoreSignalParams *p,
                                              unsigned int numExtSems,
                                              musaStream_t stream __MUSA_DEFAULT(0));
musaError_t musaWaitExternalSemaphoresAsync(const musaExternalSemaphore_t *sems,
                                            const struct musaExternalSemaphoreWaitParams *p,
                                            unsigned int numExtSems,
                                            musaStream_t stream __MUSA_DEFAULT(0));
/** musa-sim's own: creates an exportable semaphore (`timeline` 0: an eventfd counting
 *  semaphore; 1: a timeline) and returns its file descriptor for
 *  musaImportExternalSemaphore. */
musaError_t musaSimCreateSemaphoreFd(int *fd, int timeline);

/* edge-data forms (only default edge data is accepted) */
musaError_t musaGraphAddDependencies_v2(musaGraph_t graph, const musaGraphNode_t *from,
                                        const musaGraphNode_t *to,
                                        const musaGraphEdgeData *edgeData, size_t numDeps);
musaError_t musaGraphRemoveDependencies_v2(musaGraph_t graph, const musaGraphNode_t *from,
                                           const musaGraphNode_t *to,
                                           const musaGraphEdgeData *edgeData, size_t numDeps);
musaError_t musaGraphGetEdges_v2(musaGraph_t graph, musaGraphNode_t *from, musaGraphNode_t *to,
                                 musaGraphEdgeData *edgeData, size_t *numEdges);
musaError_t musaGraphNodeGetDependencies_v2(musaGraphNode_t node, musaGraphNode_t *deps,
                                            musaGraphEdgeData *edgeData, size_t *numDeps);
musaError_t musaGraphNodeGetDependentNodes_v2(musaGraphNode_t node, musaGraphNode_t *nodes,
                                              musaGraphEdgeData *edgeData, size_t *numNodes);

/* stream-ordered allocation */
musaError_t musaMallocAsync(void **devPtr, size_t size, musaStream_t stream);
musaError_t musaFreeAsync(void *devPtr, musaStream_t stream);
musaError_t musaMallocFromPoolAsync(void **devPtr, size_t size, musaMemPool_t memPool,
                                    musaStream_t stream);
musaError_t musaDeviceGetDefaultMemPool(musaMemPool_t *memPool, int device);
musaError_t musaDeviceGetMemPool(musaMemPool_t *memPool, int device);
musaError_t musaDeviceSetMemPool(int device, musaMemPool_t memPool);
musaError_t musaMemGetDefaultMemPool(musaMemPool_t *memPool, struct musaMemLocation *location,
                                     enum musaMemAllocationType type);
musaError_t musaMemGetMemPool(musaMemPool_t *memPool, struct musaMemLocation *location,
                              enum musaMemAllocationType type);
musaError_t musaMemSetMemPool(struct musaMemLocation *location, enum musaMemAllocationType type,
                              musaMemPool_t memPool);
musaError_t musaMemPoolCreate(musaMemPool_t *memPool, const struct musaMemPoolProps *props);
musaError_t musaMemPoolDestroy(musaMemPool_t memPool);
musaError_t musaMemPoolSetAttribute(musaMemPool_t memPool, enum musaMemPoolAttr attr,
                                    void *value);
musaError_t musaMemPoolGetAttribute(musaMemPool_t memPool, enum musaMemPoolAttr attr,
                                    void *value);
musaError_t musaMemPoolTrimTo(musaMemPool_t memPool, size_t minBytesToKeep);
musaError_t musaMemPoolSetAccess(musaMemPool_t memPool, const struct musaMemAccessDesc *descList,
                                 size_t count);
musaError_t musaMemPoolGetAccess(enum musaMemAccessFlags *flags, musaMemPool_t memPool,
                                 struct musaMemLocation *location);

/* stream capture */
musaError_t musaStreamBeginCapture(musaStream_t stream, enum musaStreamCaptureMode mode);
musaError_t musaStreamEndCapture(musaStream_t stream, musaGraph_t *graph);
musaError_t musaStreamBeginCaptureToGraph(musaStream_t stream, musaGraph_t graph,
                                          const musaGraphNode_t *deps,
                                          const musaGraphEdgeData *edgeData, size_t numDeps,
                                          enum musaStreamCaptureMode mode);
musaError_t musaStreamUpdateCaptureDependencies(musaStream_t stream, musaGraphNode_t *deps,
                                                size_t numDeps,
                                                unsigned int flags __MUSA_DEFAULT(0));
musaError_t musaThreadExchangeStreamCaptureMode(enum musaStreamCaptureMode *mode);
/** The guide's form: musaSuccess while capturing, musaErrorInvalidValue when not,
 *  musaErrorStreamCaptureInvalidated after an invalidating call (CUDA's two-argument form is
 *  a C++ overload in musa_runtime.h). */
musaError_t musaStreamIsCapturing(musaStream_t stream);
musaError_t musaStreamGetCaptureInfo(musaStream_t stream,
                                     enum musaStreamCaptureStatus *status,
                                     unsigned long long *id __MUSA_DEFAULT(0),
                                     musaGraph_t *graph __MUSA_DEFAULT(0),
                                     const musaGraphNode_t **deps __MUSA_DEFAULT(0),
                                     size_t *numDeps __MUSA_DEFAULT(0));
/** The edge-data forms (CUDA 12.3's names; CUDA 13 gives them the base names, which
 *  musa_runtime.h provides as C++ overloads). */
musaError_t musaStreamGetCaptureInfo_v3(musaStream_t stream,
                                        enum musaStreamCaptureStatus *status,
                                        unsigned long long *id, musaGraph_t *graph,
                                        const musaGraphNode_t **deps,
                                        const musaGraphEdgeData **edgeData, size_t *numDeps);
musaError_t musaStreamUpdateCaptureDependencies_v2(musaStream_t stream, musaGraphNode_t *deps,
                                                   const musaGraphEdgeData *edgeData,
                                                   size_t numDeps,
                                                   unsigned int flags __MUSA_DEFAULT(0));

/* inter-process handles */
musaError_t musaIpcGetMemHandle(musaIpcMemHandle_t *handle, void *devPtr);
musaError_t musaIpcOpenMemHandle(void **devPtr, musaIpcMemHandle_t handle, unsigned int flags);
musaError_t musaIpcCloseMemHandle(void *devPtr);
musaError_t musaIpcGetEventHandle(musaIpcEventHandle_t *handle, musaEvent_t event);
musaError_t musaIpcOpenEventHandle(musaEvent_t *event, musaIpcEventHandle_t handle);

/* launch */
musaError_t musaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, musaStream_t stream);

/** Launches a grid whose blocks must all be resident at once; refused with
 *  musaErrorCooperativeLaunchTooLarge when the profile cannot hold them. */
musaError_t musaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                        void **args, size_t sharedMem, musaStream_t stream);

/** musaLaunchKernel with attributes (CUDA's cudaLaunchKernelExC): cooperative launches and a
 *  launch priority take effect; a programmatic event (created with musaEventDisableTiming) is
 *  recorded once the kernel has run; access-policy windows, synchronization policy,
 *  programmatic serialization, memory-sync domains, cluster scheduling preferences and
 *  cluster dimensions (tiling the grid, at most 8 blocks: musaErrorInvalidClusterSize
 *  otherwise) are validated and otherwise change nothing. musa_runtime.h adds the C++
 *  musaLaunchKernelEx. */
musaError_t musaLaunchKernelExC(const musaLaunchConfig_t *config, const void *func, void **args);

/* occupancy: from the device profile's limits (threads, blocks and shared memory per
 * multiprocessor; registers at the profile's assumed use per thread, since the simulator
 * cannot count a kernel's registers). musa_runtime.h adds CUDA's C++ templates, including
 * musaOccupancyMaxPotentialBlockSize. */
musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func,
                                                          int blockSize, size_t dynamicSMemSize);
musaError_t musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                   const void *func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags);
musaError_t musaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, const void *func,
                                                      int numBlocks, int blockSize);

/* What clang's CUDA mode emits for <<<>>> and fat-binary registration (the ABI real
 * toolchains use), plus the MUSA-named spellings real mcc emits. */
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __MUSA_DEFAULT(0),
                                     void *stream __MUSA_DEFAULT(0));
musaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream);
musaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, musaStream_t stream);
musaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem __MUSA_DEFAULT(0),
                              musaStream_t stream __MUSA_DEFAULT(0));
unsigned __musaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem __MUSA_DEFAULT(0),
                                     void *stream __MUSA_DEFAULT(0));
musaError_t __musaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                       void *stream);

/** The per-thread default stream (nvcc's --default-stream per-thread, which the driver turns
 *  into MUSA_API_PER_THREAD_DEFAULT_STREAM; CUDA_API_PER_THREAD_DEFAULT_STREAM defined before
 *  the header does the same): stream 0 names the calling host thread's own stream, which does
 *  not synchronise with other streams, in launches, copies and every call taking a stream,
 *  and the synchronous copies and memsets run in it. A program compiled so makes the whole
 *  process use it (CUDA decides per translation unit). musaStreamLegacy still names the
 *  legacy stream. */
void __musaSimUsePerThreadDefaultStream(void);

#ifdef __cplusplus
}
#endif

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM) && !defined(MUSA_API_PER_THREAD_DEFAULT_STREAM)
#define MUSA_API_PER_THREAD_DEFAULT_STREAM 1
#endif
#if defined(MUSA_API_PER_THREAD_DEFAULT_STREAM) && !defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#endif
#if defined(MUSA_API_PER_THREAD_DEFAULT_STREAM) && !defined(__MUSA_ARCH__)
__attribute__((constructor)) static void __musa_sim_per_thread_default_stream(void) {
  __musaSimUsePerThreadDefaultStream();
}
#endif

#endif /* __MUSA_RUNTIME_API_H__ */
