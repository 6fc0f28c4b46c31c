/* musa.h - the MUSA Driver API (libmusa), as CUDA's cuda.h is to libcuda: explicit
 * initialisation, contexts, modules loaded from device images, launches by function handle.
 * Handles interoperate with the runtime API's (an MUstream is a musaStream_t, device memory
 * from muMemAlloc is usable by musaMemcpy and kernels). For compatibility with programs that
 * include <musa.h> for the runtime API, this header also declares the runtime API. */
#ifndef __MUSA_H__
#define __MUSA_H__

#include "musa_runtime.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MUSA_VERSION 5010 /* the driver API version: 5.1 */

typedef int MUdevice;
typedef unsigned long long MUdeviceptr;
typedef struct MUctx_st *MUcontext;
typedef struct MUmod_st *MUmodule;
typedef struct MUfunc_st *MUfunction;
typedef struct MUstream_st *MUstream; /* the same type as musaStream_t */
typedef struct MUevent_st *MUevent;   /* the same type as musaEvent_t */

/* Result codes: CUDA's CUresult values under MUSA names. */
typedef enum MUresult {
  MUSA_SUCCESS = 0,
  MUSA_ERROR_INVALID_VALUE = 1,
  MUSA_ERROR_OUT_OF_MEMORY = 2,
  MUSA_ERROR_NOT_INITIALIZED = 3,
  MUSA_ERROR_DEINITIALIZED = 4,
  MUSA_ERROR_NO_DEVICE = 100,
  MUSA_ERROR_INVALID_DEVICE = 101,
  MUSA_ERROR_INVALID_IMAGE = 200,
  MUSA_ERROR_INVALID_CONTEXT = 201,
  MUSA_ERROR_NO_BINARY_FOR_GPU = 209,
  MUSA_ERROR_INVALID_SOURCE = 300,
  MUSA_ERROR_FILE_NOT_FOUND = 301,
  MUSA_ERROR_INVALID_HANDLE = 400,
  MUSA_ERROR_ILLEGAL_STATE = 401,
  MUSA_ERROR_NOT_FOUND = 500,
  MUSA_ERROR_NOT_READY = 600,
  MUSA_ERROR_ILLEGAL_ADDRESS = 700,
  MUSA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
  MUSA_ERROR_LAUNCH_TIMEOUT = 702,
  MUSA_ERROR_PRIMARY_CONTEXT_ACTIVE = 708,
  MUSA_ERROR_CONTEXT_IS_DESTROYED = 709,
  MUSA_ERROR_ASSERT = 710,
  MUSA_ERROR_HARDWARE_STACK_ERROR = 714,
  MUSA_ERROR_ILLEGAL_INSTRUCTION = 715,
  MUSA_ERROR_MISALIGNED_ADDRESS = 716,
  MUSA_ERROR_LAUNCH_FAILED = 719,
  MUSA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
  MUSA_ERROR_NOT_PERMITTED = 800,
  MUSA_ERROR_NOT_SUPPORTED = 801,
  MUSA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
  MUSA_ERROR_UNKNOWN = 999
} MUresult;

/* Device attributes: the numbering of musaDeviceAttr (and CUDA's). */
typedef enum MUdevice_attribute {
  MU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  MU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  MU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  MU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  MU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  MU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  MU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  MU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  MU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
  MU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  MU_DEVICE_ATTRIBUTE_MAX_PITCH = 11,
  MU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
  MU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
  MU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  MU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
  MU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
  MU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS = 31,
  MU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
  MU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
  MU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
  MU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
  MU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
  MU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
  MU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
  MU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
  MU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  MU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  MU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
  MU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
  MU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
  MU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106
} MUdevice_attribute;

typedef enum MUctx_flags {
  MU_CTX_SCHED_AUTO = 0x00,
  MU_CTX_SCHED_SPIN = 0x01,
  MU_CTX_SCHED_YIELD = 0x02,
  MU_CTX_SCHED_BLOCKING_SYNC = 0x04,
  MU_CTX_MAP_HOST = 0x08,
  MU_CTX_LMEM_RESIZE_TO_MAX = 0x10
} MUctx_flags;

/* muLaunchKernel's `extra`: a packed argument buffer instead of kernelParams. */
#define MU_LAUNCH_PARAM_END ((void *)0x00)
#define MU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define MU_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

typedef struct musaArray *MUarray; /* the same type as musaArray_t */
typedef struct MUuuid_st MUuuid;
typedef enum musaPointer_attribute MUpointer_attribute; /* MU_POINTER_ATTRIBUTE_* below */
#define MU_POINTER_ATTRIBUTE_CONTEXT MUSA_POINTER_ATTRIBUTE_CONTEXT
#define MU_POINTER_ATTRIBUTE_MEMORY_TYPE MUSA_POINTER_ATTRIBUTE_MEMORY_TYPE
#define MU_POINTER_ATTRIBUTE_DEVICE_POINTER MUSA_POINTER_ATTRIBUTE_DEVICE_POINTER
#define MU_POINTER_ATTRIBUTE_HOST_POINTER MUSA_POINTER_ATTRIBUTE_HOST_POINTER
#define MU_POINTER_ATTRIBUTE_SYNC_MEMOPS MUSA_POINTER_ATTRIBUTE_SYNC_MEMOPS
#define MU_POINTER_ATTRIBUTE_BUFFER_ID MUSA_POINTER_ATTRIBUTE_BUFFER_ID
#define MU_POINTER_ATTRIBUTE_IS_MANAGED MUSA_POINTER_ATTRIBUTE_IS_MANAGED
#define MU_POINTER_ATTRIBUTE_DEVICE_ORDINAL MUSA_POINTER_ATTRIBUTE_DEVICE_ORDINAL
#define MU_POINTER_ATTRIBUTE_RANGE_START_ADDR MUSA_POINTER_ATTRIBUTE_RANGE_START_ADDR
#define MU_POINTER_ATTRIBUTE_RANGE_SIZE MUSA_POINTER_ATTRIBUTE_RANGE_SIZE
#define MU_POINTER_ATTRIBUTE_MAPPED MUSA_POINTER_ATTRIBUTE_MAPPED

/* Memory types of muMemcpy2D and muPointerGetAttribute(MEMORY_TYPE). */
typedef enum MUmemorytype {
  MU_MEMORYTYPE_HOST = 1,
  MU_MEMORYTYPE_DEVICE = 2,
  MU_MEMORYTYPE_ARRAY = 3,
  MU_MEMORYTYPE_UNIFIED = 4
} MUmemorytype;
typedef struct MUSA_MEMCPY2D_st {
  size_t srcXInBytes;
  size_t srcY;
  MUmemorytype srcMemoryType;
  const void *srcHost;
  MUdeviceptr srcDevice;
  MUarray srcArray;
  size_t srcPitch;
  size_t dstXInBytes;
  size_t dstY;
  MUmemorytype dstMemoryType;
  void *dstHost;
  MUdeviceptr dstDevice;
  MUarray dstArray;
  size_t dstPitch;
  size_t WidthInBytes;
  size_t Height;
} MUSA_MEMCPY2D;

/* Kernel attributes (muFuncGetAttribute / muFuncSetAttribute): CUDA's numbering. */
typedef enum MUfunction_attribute {
  MU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  MU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  MU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
  MU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
  MU_FUNC_ATTRIBUTE_NUM_REGS = 4,
  MU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
  MU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
  MU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
  MU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  MU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
  MU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10,
  MU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 11,
  MU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT = 12,
  MU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH = 13,
  MU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
  MU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15
} MUfunction_attribute;
typedef enum musaFuncCache MUfunc_cache; /* MU_FUNC_CACHE_PREFER_* are musaFuncCachePrefer* */
#define MU_FUNC_CACHE_PREFER_NONE musaFuncCachePreferNone
#define MU_FUNC_CACHE_PREFER_SHARED musaFuncCachePreferShared
#define MU_FUNC_CACHE_PREFER_L1 musaFuncCachePreferL1
#define MU_FUNC_CACHE_PREFER_EQUAL musaFuncCachePreferEqual
typedef enum musaLimit MUlimit; /* MU_LIMIT_* are musaLimit* */
#define MU_LIMIT_STACK_SIZE musaLimitStackSize
#define MU_LIMIT_PRINTF_FIFO_SIZE musaLimitPrintfFifoSize
#define MU_LIMIT_MALLOC_HEAP_SIZE musaLimitMallocHeapSize

#define MU_MEMHOSTALLOC_PORTABLE 0x01
#define MU_MEMHOSTALLOC_DEVICEMAP 0x02
#define MU_MEMHOSTALLOC_WRITECOMBINED 0x04
#define MU_MEMHOSTREGISTER_PORTABLE 0x01
#define MU_MEMHOSTREGISTER_DEVICEMAP 0x02
#define MU_MEMHOSTREGISTER_IOMEMORY 0x04
#define MU_MEMHOSTREGISTER_READ_ONLY 0x08
typedef enum MUmemAttach_flags {
  MU_MEM_ATTACH_GLOBAL = 0x1,
  MU_MEM_ATTACH_HOST = 0x2,
  MU_MEM_ATTACH_SINGLE = 0x4
} MUmemAttach_flags;
typedef enum MUstream_flags { MU_STREAM_DEFAULT = 0x0, MU_STREAM_NON_BLOCKING = 0x1 } MUstream_flags;
typedef enum MUevent_flags {
  MU_EVENT_DEFAULT = 0x0,
  MU_EVENT_BLOCKING_SYNC = 0x1,
  MU_EVENT_DISABLE_TIMING = 0x2,
  MU_EVENT_INTERPROCESS = 0x4
} MUevent_flags;
typedef void (*MUhostFn)(void *userData);
typedef void (*MUstreamCallback)(MUstream hStream, MUresult status, void *userData);
typedef size_t (*MUoccupancyB2DSize)(int blockSize);

/* Virtual memory management: physical allocations (muMemCreate) mapped into reserved address
 * ranges (muMemAddressReserve, muMemMap) and made accessible (muMemSetAccess). */
typedef unsigned long long MUmemGenericAllocationHandle;
typedef enum MUmemAllocationType {
  MU_MEM_ALLOCATION_TYPE_INVALID = 0,
  MU_MEM_ALLOCATION_TYPE_PINNED = 1,
  MU_MEM_ALLOCATION_TYPE_MAX = 0x7FFFFFFF
} MUmemAllocationType;
typedef enum MUmemAllocationHandleType {
  MU_MEM_HANDLE_TYPE_NONE = 0,
  MU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR = 1,
  MU_MEM_HANDLE_TYPE_WIN32 = 2,
  MU_MEM_HANDLE_TYPE_WIN32_KMT = 4,
  MU_MEM_HANDLE_TYPE_FABRIC = 8,
  MU_MEM_HANDLE_TYPE_MAX = 0x7FFFFFFF
} MUmemAllocationHandleType;
typedef enum MUmemLocationType {
  MU_MEM_LOCATION_TYPE_INVALID = 0,
  MU_MEM_LOCATION_TYPE_DEVICE = 1,
  MU_MEM_LOCATION_TYPE_HOST = 2,
  MU_MEM_LOCATION_TYPE_HOST_NUMA = 3,
  MU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT = 4,
  MU_MEM_LOCATION_TYPE_MAX = 0x7FFFFFFF
} MUmemLocationType;
typedef enum MUmemAccess_flags {
  MU_MEM_ACCESS_FLAGS_PROT_NONE = 0,
  MU_MEM_ACCESS_FLAGS_PROT_READ = 1,
  MU_MEM_ACCESS_FLAGS_PROT_READWRITE = 3,
  MU_MEM_ACCESS_FLAGS_PROT_MAX = 0x7FFFFFFF
} MUmemAccess_flags;
typedef enum MUmemAllocationGranularity_flags {
  MU_MEM_ALLOC_GRANULARITY_MINIMUM = 0,
  MU_MEM_ALLOC_GRANULARITY_RECOMMENDED = 1
} MUmemAllocationGranularity_flags;
typedef enum MUmemAllocationCompType {
  MU_MEM_ALLOCATION_COMP_NONE = 0,
  MU_MEM_ALLOCATION_COMP_GENERIC = 1
} MUmemAllocationCompType;
typedef struct MUmemLocation_st {
  MUmemLocationType type;
  int id;
} MUmemLocation;
typedef struct MUmemAllocationProp_st {
  MUmemAllocationType type;
  MUmemAllocationHandleType requestedHandleTypes;
  MUmemLocation location;
  void *win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
    unsigned char reserved[4];
  } allocFlags;
} MUmemAllocationProp;
typedef struct MUmemAccessDesc_st {
  MUmemLocation location;
  MUmemAccess_flags flags;
} MUmemAccessDesc;

MUresult muInit(unsigned int flags);
MUresult muDriverGetVersion(int *driverVersion);
MUresult muGetErrorName(MUresult error, const char **pStr);
MUresult muGetErrorString(MUresult error, const char **pStr);

MUresult muDeviceGet(MUdevice *device, int ordinal);
MUresult muDeviceGetCount(int *count);
MUresult muDeviceGetName(char *name, int len, MUdevice dev);
MUresult muDeviceTotalMem(size_t *bytes, MUdevice dev);
MUresult muDeviceGetAttribute(int *pi, MUdevice_attribute attrib, MUdevice dev);
MUresult muDeviceComputeCapability(int *major, int *minor, MUdevice dev);

MUresult muDevicePrimaryCtxRetain(MUcontext *pctx, MUdevice dev);
MUresult muDevicePrimaryCtxRelease(MUdevice dev);
MUresult muDevicePrimaryCtxReset(MUdevice dev);
MUresult muDevicePrimaryCtxGetState(MUdevice dev, unsigned int *flags, int *active);
MUresult muDevicePrimaryCtxSetFlags(MUdevice dev, unsigned int flags);
MUresult muCtxCreate(MUcontext *pctx, unsigned int flags, MUdevice dev);
MUresult muCtxDestroy(MUcontext ctx);
MUresult muCtxGetCurrent(MUcontext *pctx);
MUresult muCtxSetCurrent(MUcontext ctx);
MUresult muCtxPushCurrent(MUcontext ctx);
MUresult muCtxPopCurrent(MUcontext *pctx);
MUresult muCtxGetDevice(MUdevice *device);
MUresult muCtxGetFlags(unsigned int *flags);
MUresult muCtxSynchronize(void);

MUresult muModuleLoad(MUmodule *module, const char *fname);
MUresult muModuleLoadData(MUmodule *module, const void *image);
MUresult muModuleLoadDataEx(MUmodule *module, const void *image, unsigned int numOptions,
                            int *options, void **optionValues);
MUresult muModuleLoadFatBinary(MUmodule *module, const void *fatCubin);
MUresult muModuleUnload(MUmodule hmod);
MUresult muModuleGetFunction(MUfunction *hfunc, MUmodule hmod, const char *name);
MUresult muModuleGetGlobal(MUdeviceptr *dptr, size_t *bytes, MUmodule hmod, const char *name);
MUresult muLaunchKernel(MUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                        unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                        unsigned int blockDimZ, unsigned int sharedMemBytes, MUstream hStream,
                        void **kernelParams, void **extra);

MUresult muMemAlloc(MUdeviceptr *dptr, size_t bytesize);
MUresult muMemFree(MUdeviceptr dptr);
MUresult muMemGetInfo(size_t *free, size_t *total);
MUresult muMemAllocHost(void **pp, size_t bytesize);
MUresult muMemFreeHost(void *p);
MUresult muMemcpy(MUdeviceptr dst, MUdeviceptr src, size_t ByteCount);
MUresult muMemcpyHtoD(MUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
MUresult muMemcpyDtoH(void *dstHost, MUdeviceptr srcDevice, size_t ByteCount);
MUresult muMemcpyDtoD(MUdeviceptr dstDevice, MUdeviceptr srcDevice, size_t ByteCount);
MUresult muMemcpyHtoDAsync(MUdeviceptr dstDevice, const void *srcHost, size_t ByteCount,
                           MUstream hStream);
MUresult muMemcpyDtoHAsync(void *dstHost, MUdeviceptr srcDevice, size_t ByteCount,
                           MUstream hStream);
MUresult muMemGetAddressRange(MUdeviceptr *pbase, size_t *psize, MUdeviceptr dptr);
MUresult muMemAllocPitch(MUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes, size_t Height,
                         unsigned int ElementSizeBytes);
MUresult muMemAllocManaged(MUdeviceptr *dptr, size_t bytesize, unsigned int flags);
MUresult muMemAllocAsync(MUdeviceptr *dptr, size_t bytesize, MUstream hStream);
MUresult muMemFreeAsync(MUdeviceptr dptr, MUstream hStream);
MUresult muMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
MUresult muMemHostGetDevicePointer(MUdeviceptr *pdptr, void *p, unsigned int Flags);
MUresult muMemHostGetFlags(unsigned int *pFlags, void *p);
MUresult muMemHostRegister(void *p, size_t bytesize, unsigned int Flags);
MUresult muMemHostUnregister(void *p);
MUresult muPointerGetAttribute(void *data, MUpointer_attribute attribute, MUdeviceptr ptr);
MUresult muMemcpyAsync(MUdeviceptr dst, MUdeviceptr src, size_t ByteCount, MUstream hStream);
MUresult muMemcpyDtoDAsync(MUdeviceptr dstDevice, MUdeviceptr srcDevice, size_t ByteCount,
                           MUstream hStream);
MUresult muMemcpy2D(const MUSA_MEMCPY2D *pCopy);
MUresult muMemcpy2DUnaligned(const MUSA_MEMCPY2D *pCopy);
MUresult muMemcpy2DAsync(const MUSA_MEMCPY2D *pCopy, MUstream hStream);
MUresult muMemsetD8Async(MUdeviceptr dstDevice, unsigned char uc, size_t N, MUstream hStream);
MUresult muMemsetD16Async(MUdeviceptr dstDevice, unsigned short us, size_t N, MUstream hStream);
MUresult muMemsetD32Async(MUdeviceptr dstDevice, unsigned int ui, size_t N, MUstream hStream);

MUresult muMemGetAllocationGranularity(size_t *granularity, const MUmemAllocationProp *prop,
                                       MUmemAllocationGranularity_flags option);
MUresult muMemCreate(MUmemGenericAllocationHandle *handle, size_t size,
                     const MUmemAllocationProp *prop, unsigned long long flags);
MUresult muMemRelease(MUmemGenericAllocationHandle handle);
MUresult muMemAddressReserve(MUdeviceptr *ptr, size_t size, size_t alignment, MUdeviceptr addr,
                             unsigned long long flags);
MUresult muMemAddressFree(MUdeviceptr ptr, size_t size);
MUresult muMemMap(MUdeviceptr ptr, size_t size, size_t offset,
                  MUmemGenericAllocationHandle handle, unsigned long long flags);
MUresult muMemUnmap(MUdeviceptr ptr, size_t size);
MUresult muMemSetAccess(MUdeviceptr ptr, size_t size, const MUmemAccessDesc *desc, size_t count);
MUresult muMemGetAccess(unsigned long long *flags, const MUmemLocation *location, MUdeviceptr ptr);
MUresult muMemGetAllocationPropertiesFromHandle(MUmemAllocationProp *prop,
                                                MUmemGenericAllocationHandle handle);
MUresult muMemRetainAllocationHandle(MUmemGenericAllocationHandle *handle, void *addr);
MUresult muMemExportToShareableHandle(void *shareableHandle, MUmemGenericAllocationHandle handle,
                                      MUmemAllocationHandleType handleType,
                                      unsigned long long flags);
MUresult muMemImportFromShareableHandle(MUmemGenericAllocationHandle *handle, void *osHandle,
                                        MUmemAllocationHandleType shHandleType);

MUresult muMemsetD8(MUdeviceptr dstDevice, unsigned char uc, size_t N);
MUresult muMemsetD16(MUdeviceptr dstDevice, unsigned short us, size_t N);
MUresult muMemsetD32(MUdeviceptr dstDevice, unsigned int ui, size_t N);

MUresult muFuncGetAttribute(int *pi, MUfunction_attribute attrib, MUfunction hfunc);
MUresult muFuncSetAttribute(MUfunction hfunc, MUfunction_attribute attrib, int value);
MUresult muFuncSetCacheConfig(MUfunction hfunc, MUfunc_cache config);
MUresult muOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, MUfunction func,
                                                     int blockSize, size_t dynamicSMemSize);
MUresult muOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, MUfunction func,
                                                              int blockSize,
                                                              size_t dynamicSMemSize,
                                                              unsigned int flags);
MUresult muOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, MUfunction func,
                                          MUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                          size_t dynamicSMemSize, int blockSizeLimit);
MUresult muOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize,
                                                   MUfunction func,
                                                   MUoccupancyB2DSize blockSizeToDynamicSMemSize,
                                                   size_t dynamicSMemSize, int blockSizeLimit,
                                                   unsigned int flags);
MUresult muLaunchCooperativeKernel(MUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                   unsigned int gridDimZ, unsigned int blockDimX,
                                   unsigned int blockDimY, unsigned int blockDimZ,
                                   unsigned int sharedMemBytes, MUstream hStream,
                                   void **kernelParams);
MUresult muLaunchHostFunc(MUstream hStream, MUhostFn fn, void *userData);

MUresult muCtxGetApiVersion(MUcontext ctx, unsigned int *version);
MUresult muCtxGetLimit(size_t *pvalue, MUlimit limit);
MUresult muCtxSetLimit(MUlimit limit, size_t value);
MUresult muCtxGetCacheConfig(MUfunc_cache *pconfig);
MUresult muCtxSetCacheConfig(MUfunc_cache config);
MUresult muCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority);
MUresult muDeviceGetUuid(MUuuid *uuid, MUdevice dev);
MUresult muDeviceGetPCIBusId(char *pciBusId, int len, MUdevice dev);
MUresult muDeviceGetByPCIBusId(MUdevice *dev, const char *pciBusId);
MUresult muDeviceCanAccessPeer(int *canAccessPeer, MUdevice dev, MUdevice peerDev);

MUresult muStreamCreate(MUstream *phStream, unsigned int Flags);
MUresult muStreamCreateWithPriority(MUstream *phStream, unsigned int flags, int priority);
MUresult muStreamGetPriority(MUstream hStream, int *priority);
MUresult muStreamGetFlags(MUstream hStream, unsigned int *flags);
MUresult muStreamWaitEvent(MUstream hStream, MUevent hEvent, unsigned int Flags);
MUresult muStreamAddCallback(MUstream hStream, MUstreamCallback callback, void *userData,
                             unsigned int flags);
MUresult muStreamDestroy(MUstream hStream);
MUresult muStreamSynchronize(MUstream hStream);
MUresult muStreamQuery(MUstream hStream);
MUresult muEventCreate(MUevent *phEvent, unsigned int Flags);
MUresult muEventDestroy(MUevent hEvent);
MUresult muEventRecord(MUevent hEvent, MUstream hStream);
MUresult muEventSynchronize(MUevent hEvent);
MUresult muEventQuery(MUevent hEvent);
MUresult muEventElapsedTime(float *pMilliseconds, MUevent hStart, MUevent hEnd);

#ifdef __cplusplus
}
#endif

#endif /* __MUSA_H__ */
