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

MUresult muStreamCreate(MUstream *phStream, unsigned int Flags);
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
