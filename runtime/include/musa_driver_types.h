/* musa_driver_types.h - the runtime's plain types: error codes, handles, enums, flags and
 * musaDeviceProp. Error numbers: see musa_error_codes.def (the spec's table, then CUDA's). */
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__

#include <stddef.h>

#include "musa_vector_types.h"

/* ---- errors ------------------------------------------------------------------------- */
enum musaError {
#define MUSA_ERROR_CODE(name, value, text) name = value,
#undef MUSA_ERROR_ALIAS
#define MUSA_ERROR_ALIAS(alias, primary) alias = primary,
#include "musa_error_codes.def"
#undef MUSA_ERROR_CODE
#undef MUSA_ERROR_ALIAS
};
typedef enum musaError musaError_t;

/* ---- handles ------------------------------------------------------------------------ */
typedef struct MUstream_st *musaStream_t;
typedef struct MUevent_st *musaEvent_t;

/** The per-thread default stream, as the guide writes it; musaStreamLegacy names stream 0's
 *  legacy behaviour explicitly. */
#define musaStreamLegacy ((musaStream_t)0x1)
#define musaStreamPerThread ((musaStream_t)-1)

#define musaStreamDefault 0x00
#define musaStreamNonBlocking 0x01

#define musaHostAllocDefault 0x00
#define musaHostAllocPortable 0x01
#define musaHostAllocMapped 0x02
#define musaHostAllocWriteCombined 0x04

#define musaDeviceScheduleAuto 0x00
#define musaDeviceScheduleSpin 0x01
#define musaDeviceScheduleYield 0x02
#define musaDeviceScheduleBlockingSync 0x04
#define musaDeviceMapHost 0x08
#define musaDeviceLmemResizeToMax 0x10

enum musaMemcpyKind {
  musaMemcpyHostToHost = 0,
  musaMemcpyHostToDevice = 1,
  musaMemcpyDeviceToHost = 2,
  musaMemcpyDeviceToDevice = 3,
  musaMemcpyDefault = 4
};
typedef enum musaMemcpyKind musaMemcpyKind;

enum musaComputeMode {
  musaComputeModeDefault = 0,
  musaComputeModeExclusive = 1,
  musaComputeModeProhibited = 2,
  musaComputeModeExclusiveProcess = 3
};

typedef struct MUuuid_st {
  char bytes[16];
} musaUUID_t;

/** Every field of CUDA's cudaDeviceProp, filled from the device profile. */
struct musaDeviceProp {
  char name[256];
  musaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseMusaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingMusaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved[63];
};
typedef struct musaDeviceProp musaDeviceProp;
typedef struct musaDeviceProp musaDeviceProp_t;

#endif /* __DRIVER_TYPES_H__ */
