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
/** A kernel as the driver API names it (musa.h's MUfunction: the same type), as
 *  musaGetFuncBySymbol returns it. */
typedef struct MUfunc_st *musaFunction_t;

/** The per-thread default stream, as the guide writes it; musaStreamLegacy names stream 0's
 *  legacy behaviour explicitly. */
#define musaStreamLegacy ((musaStream_t)0x1)
#define musaStreamPerThread ((musaStream_t)-1)
/** Device-side launches only (musa_device_runtime_api.h), as CUDA's: a tail launch runs after
 *  the launching grid and all its other children; fire-and-forget has no ordering. */
#define musaStreamTailLaunch ((musaStream_t)0x3)
#define musaStreamFireAndForget ((musaStream_t)0x4)

#define musaStreamDefault 0x00
#define musaStreamNonBlocking 0x01

enum musaMemcpyKind {
  musaMemcpyHostToHost = 0,
  musaMemcpyHostToDevice = 1,
  musaMemcpyDeviceToHost = 2,
  musaMemcpyDeviceToDevice = 3,
  musaMemcpyDefault = 4
};
typedef enum musaMemcpyKind musaMemcpyKind;

/* ---- events -------------------------------------------------------------------------- */
#define musaEventDefault 0x00
#define musaEventBlockingSync 0x01
#define musaEventDisableTiming 0x02
#define musaEventInterprocess 0x04
#define musaEventRecordDefault 0x00
#define musaEventRecordExternal 0x01
#define musaEventWaitDefault 0x00
#define musaEventWaitExternal 0x01

#define MUSA_IPC_HANDLE_SIZE 64
typedef struct musaIpcEventHandle_st {
  char reserved[MUSA_IPC_HANDLE_SIZE];
} musaIpcEventHandle_t;
typedef struct musaIpcMemHandle_st {
  char reserved[MUSA_IPC_HANDLE_SIZE];
} musaIpcMemHandle_t;
#define musaIpcMemLazyEnablePeerAccess 0x01

/* ---- stream callbacks ---------------------------------------------------------------- */
#define MUSART_CB
typedef void(MUSART_CB *musaStreamCallback_t)(musaStream_t stream, musaError_t status,
                                              void *userData);
typedef void(MUSART_CB *musaHostFn_t)(void *userData);
/* User objects: a destructor the runtime calls when the last reference goes (graphs own
 * references to them). */
typedef struct musaUserObject *musaUserObject_t;
/* musaGetDriverEntryPoint: flags and what it found. */
enum musaDriverEntryPointFlags {
  musaEnableDefault = 0,
  musaEnableLegacyStream = 1,
  musaEnablePerThreadDefaultStream = 2
};
enum musaDriverEntryPointQueryResult {
  musaDriverEntryPointSuccess = 0,
  musaDriverEntryPointSymbolNotFound = 1,
  musaDriverEntryPointVersionNotSufficent = 2 /* CUDA's spelling */
};
enum musaUserObjectFlags { musaUserObjectNoDestructorSync = 0x1 };
enum musaUserObjectRetainFlags { musaGraphUserObjectMove = 0x1 };

/* ---- host and managed memory --------------------------------------------------------- */
#define musaHostRegisterDefault 0x00
#define musaHostRegisterPortable 0x01
#define musaHostRegisterMapped 0x02
#define musaHostRegisterIoMemory 0x04
#define musaHostRegisterReadOnly 0x08

#define musaMemAttachGlobal 0x01
#define musaMemAttachHost 0x02
#define musaMemAttachSingle 0x04

#define musaCpuDeviceId ((int)-1)
#define musaInvalidDeviceId ((int)-2)

enum musaMemoryAdvise {
  musaMemAdviseSetReadMostly = 1,
  musaMemAdviseUnsetReadMostly = 2,
  musaMemAdviseSetPreferredLocation = 3,
  musaMemAdviseUnsetPreferredLocation = 4,
  musaMemAdviseSetAccessedBy = 5,
  musaMemAdviseUnsetAccessedBy = 6
};
typedef enum musaMemoryAdvise musaMemoryAdvise;

enum musaMemRangeAttribute {
  musaMemRangeAttributeReadMostly = 1,
  musaMemRangeAttributePreferredLocation = 2,
  musaMemRangeAttributeAccessedBy = 3,
  musaMemRangeAttributeLastPrefetchLocation = 4,
  musaMemRangeAttributePreferredLocationType = 5,
  musaMemRangeAttributePreferredLocationId = 6,
  musaMemRangeAttributeLastPrefetchLocationType = 7,
  musaMemRangeAttributeLastPrefetchLocationId = 8
};
typedef enum musaMemRangeAttribute musaMemRangeAttribute;

enum musaMemoryType {
  musaMemoryTypeUnregistered = 0,
  musaMemoryTypeHost = 1,
  musaMemoryTypeDevice = 2,
  musaMemoryTypeManaged = 3
};
typedef enum musaMemoryType musaMemoryType;

struct musaPointerAttributes {
  enum musaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};

/** The guide's musaPointerGetAttribute: the attributes of CUDA's driver API
 *  (CU_POINTER_ATTRIBUTE_*), same numbers. Value types: CONTEXT void*, MEMORY_TYPE
 *  musaMemoryType (unsigned), DEVICE_POINTER / HOST_POINTER / RANGE_START_ADDR void*,
 *  IS_MANAGED / MAPPED unsigned (0/1), DEVICE_ORDINAL int, RANGE_SIZE size_t, BUFFER_ID
 *  unsigned long long, SYNC_MEMOPS unsigned. */
enum musaPointer_attribute {
  MUSA_POINTER_ATTRIBUTE_CONTEXT = 1,
  MUSA_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
  MUSA_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
  MUSA_POINTER_ATTRIBUTE_HOST_POINTER = 4,
  MUSA_POINTER_ATTRIBUTE_P2P_TOKENS = 5,
  MUSA_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6,
  MUSA_POINTER_ATTRIBUTE_BUFFER_ID = 7,
  MUSA_POINTER_ATTRIBUTE_IS_MANAGED = 8,
  MUSA_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
  MUSA_POINTER_ATTRIBUTE_IS_LEGACY_IPC_CAPABLE = 10,
  MUSA_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
  MUSA_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
  MUSA_POINTER_ATTRIBUTE_MAPPED = 13
};
typedef enum musaPointer_attribute musaPointer_attribute;

/* ---- pitched memory, extents, arrays ------------------------------------------------- */
struct musaPitchedPtr {
  void *ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};
struct musaExtent {
  size_t width; /* bytes for linear memory, elements for arrays */
  size_t height;
  size_t depth;
};
struct musaPos {
  size_t x, y, z;
};
typedef struct musaPitchedPtr musaPitchedPtr;
typedef struct musaExtent musaExtent;
typedef struct musaPos musaPos;

enum musaChannelFormatKind {
  musaChannelFormatKindSigned = 0,
  musaChannelFormatKindUnsigned = 1,
  musaChannelFormatKindFloat = 2,
  musaChannelFormatKindNone = 3
};
struct musaChannelFormatDesc {
  int x, y, z, w;
  enum musaChannelFormatKind f;
};
typedef struct musaChannelFormatDesc musaChannelFormatDesc;

typedef struct musaArray *musaArray_t;
typedef const struct musaArray *musaArray_const_t;
#define musaArrayDefault 0x00
#define musaArrayLayered 0x01
#define musaArraySurfaceLoadStore 0x02
#define musaArrayCubemap 0x04
#define musaArrayTextureGather 0x08

/* Kernel function attributes (musaFuncGetAttributes, musaFuncSetAttribute). */
struct musaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};
typedef struct musaFuncAttributes musaFuncAttributes;
enum musaFuncAttribute {
  musaFuncAttributeMaxDynamicSharedMemorySize = 8,
  musaFuncAttributePreferredSharedMemoryCarveout = 9,
  musaFuncAttributeClusterDimMustBeSet = 10,
  musaFuncAttributeRequiredClusterWidth = 11,
  musaFuncAttributeRequiredClusterHeight = 12,
  musaFuncAttributeRequiredClusterDepth = 13,
  musaFuncAttributeNonPortableClusterSizeAllowed = 14,
  musaFuncAttributeClusterSchedulingPolicyPreference = 15,
  musaFuncAttributeMax
};
enum musaFuncCache {
  musaFuncCachePreferNone = 0,
  musaFuncCachePreferShared = 1,
  musaFuncCachePreferL1 = 2,
  musaFuncCachePreferEqual = 3
};
enum musaSharedMemConfig {
  musaSharedMemBankSizeDefault = 0,
  musaSharedMemBankSizeFourByte = 1,
  musaSharedMemBankSizeEightByte = 2
};
enum musaSharedCarveout {
  musaSharedmemCarveoutDefault = -1,
  musaSharedmemCarveoutMaxShared = 100,
  musaSharedmemCarveoutMaxL1 = 0
};

/* Texture and surface objects (musa_texture_functions.h has the device side). */
typedef unsigned long long musaTextureObject_t;
typedef unsigned long long musaSurfaceObject_t;
enum musaResourceType {
  musaResourceTypeArray = 0,
  musaResourceTypeMipmappedArray = 1,
  musaResourceTypeLinear = 2,
  musaResourceTypePitch2D = 3
};
typedef struct musaMipmappedArray *musaMipmappedArray_t;
typedef const struct musaMipmappedArray *musaMipmappedArray_const_t;
struct musaResourceDesc {
  enum musaResourceType resType;
  union {
    struct {
      musaArray_t array;
    } array;
    struct {
      musaMipmappedArray_t mipmap;
    } mipmap;
    struct {
      void *devPtr;
      struct musaChannelFormatDesc desc;
      size_t sizeInBytes;
    } linear;
    struct {
      void *devPtr;
      struct musaChannelFormatDesc desc;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
  } res;
  unsigned int flags;
};
enum musaTextureAddressMode {
  musaAddressModeWrap = 0,
  musaAddressModeClamp = 1,
  musaAddressModeMirror = 2,
  musaAddressModeBorder = 3
};
enum musaTextureFilterMode { musaFilterModePoint = 0, musaFilterModeLinear = 1 };
enum musaTextureReadMode { musaReadModeElementType = 0, musaReadModeNormalizedFloat = 1 };
struct musaTextureDesc {
  enum musaTextureAddressMode addressMode[3];
  enum musaTextureFilterMode filterMode;
  enum musaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum musaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};
enum musaResourceViewFormat {
  musaResViewFormatNone = 0x00,
  musaResViewFormatUnsignedChar1 = 0x01,
  musaResViewFormatUnsignedChar2 = 0x02,
  musaResViewFormatUnsignedChar4 = 0x03,
  musaResViewFormatSignedChar1 = 0x04,
  musaResViewFormatSignedChar2 = 0x05,
  musaResViewFormatSignedChar4 = 0x06,
  musaResViewFormatUnsignedShort1 = 0x07,
  musaResViewFormatUnsignedShort2 = 0x08,
  musaResViewFormatUnsignedShort4 = 0x09,
  musaResViewFormatSignedShort1 = 0x0a,
  musaResViewFormatSignedShort2 = 0x0b,
  musaResViewFormatSignedShort4 = 0x0c,
  musaResViewFormatUnsignedInt1 = 0x0d,
  musaResViewFormatUnsignedInt2 = 0x0e,
  musaResViewFormatUnsignedInt4 = 0x0f,
  musaResViewFormatSignedInt1 = 0x10,
  musaResViewFormatSignedInt2 = 0x11,
  musaResViewFormatSignedInt4 = 0x12,
  musaResViewFormatHalf1 = 0x13,
  musaResViewFormatHalf2 = 0x14,
  musaResViewFormatHalf4 = 0x15,
  musaResViewFormatFloat1 = 0x16,
  musaResViewFormatFloat2 = 0x17,
  musaResViewFormatFloat4 = 0x18
};
struct musaResourceViewDesc {
  enum musaResourceViewFormat format;
  size_t width;
  size_t height;
  size_t depth;
  unsigned int firstMipmapLevel;
  unsigned int lastMipmapLevel;
  unsigned int firstLayer;
  unsigned int lastLayer;
};
enum musaSurfaceBoundaryMode {
  musaBoundaryModeZero = 0,
  musaBoundaryModeClamp = 1,
  musaBoundaryModeTrap = 2
};
enum musaSurfaceFormatMode { musaFormatModeForced = 0, musaFormatModeAuto = 1 };

struct musaMemcpy3DParms {
  musaArray_t srcArray;
  struct musaPos srcPos;
  struct musaPitchedPtr srcPtr;
  musaArray_t dstArray;
  struct musaPos dstPos;
  struct musaPitchedPtr dstPtr;
  struct musaExtent extent;
  enum musaMemcpyKind kind;
};
typedef struct musaMemcpy3DParms musaMemcpy3DParms;

struct musaMemcpy3DPeerParms {
  musaArray_t srcArray;
  struct musaPos srcPos;
  struct musaPitchedPtr srcPtr;
  int srcDevice;
  musaArray_t dstArray;
  struct musaPos dstPos;
  struct musaPitchedPtr dstPtr;
  int dstDevice;
  struct musaExtent extent;
};

/* ---- launch attributes (streams and kernel nodes): CUDA's numbers and layout ----------- */
/** How the L2 cache treats accesses in an access policy window. */
enum musaAccessProperty {
  musaAccessPropertyNormal = 0,
  musaAccessPropertyStreaming = 1,
  musaAccessPropertyPersisting = 2
};
typedef enum musaAccessProperty musaAccessProperty;
/** An address range whose accesses get hitProp with probability hitRatio, missProp otherwise. */
struct musaAccessPolicyWindow {
  void *base_ptr;
  size_t num_bytes;
  float hitRatio;
  enum musaAccessProperty hitProp;
  enum musaAccessProperty missProp;
};
typedef struct musaAccessPolicyWindow musaAccessPolicyWindow;
/** How a host thread waits for a stream (musaStreamAttributeSynchronizationPolicy). */
enum musaSynchronizationPolicy {
  musaSyncPolicyAuto = 1,
  musaSyncPolicySpin = 2,
  musaSyncPolicyYield = 3,
  musaSyncPolicyBlockingSync = 4
};
typedef enum musaSynchronizationPolicy musaSynchronizationPolicy;
enum musaLaunchAttributeID {
  musaLaunchAttributeIgnore = 0,
  musaLaunchAttributeAccessPolicyWindow = 1,
  musaLaunchAttributeCooperative = 2,
  musaLaunchAttributeSynchronizationPolicy = 3,
  musaLaunchAttributeClusterDimension = 4,
  musaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  musaLaunchAttributeProgrammaticStreamSerialization = 6,
  musaLaunchAttributeProgrammaticEvent = 7,
  musaLaunchAttributePriority = 8,
  musaLaunchAttributeMemSyncDomainMap = 9,
  musaLaunchAttributeMemSyncDomain = 10
};
typedef enum musaLaunchAttributeID musaLaunchAttributeID;
enum musaClusterSchedulingPolicy {
  musaClusterSchedulingPolicyDefault = 0,
  musaClusterSchedulingPolicySpread = 1,
  musaClusterSchedulingPolicyLoadBalancing = 2
};
enum musaLaunchMemSyncDomain {
  musaLaunchMemSyncDomainDefault = 0,
  musaLaunchMemSyncDomainRemote = 1
};
typedef struct musaLaunchMemSyncDomainMap_st {
  unsigned char default_;
  unsigned char remote;
} musaLaunchMemSyncDomainMap;
typedef union musaLaunchAttributeValue {
  char pad[64];
  struct musaAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  enum musaSynchronizationPolicy syncPolicy;
  struct {
    unsigned int x, y, z;
  } clusterDim;
  enum musaClusterSchedulingPolicy clusterSchedulingPolicyPreference;
  int programmaticStreamSerializationAllowed;
  struct {
    musaEvent_t event;
    int flags;
    int triggerAtBlockStart;
  } programmaticEvent;
  int priority;
  musaLaunchMemSyncDomainMap memSyncDomainMap;
  enum musaLaunchMemSyncDomain memSyncDomain;
} musaLaunchAttributeValue;
/** One attribute of a musaLaunchKernelEx launch. */
typedef struct musaLaunchAttribute_st {
  musaLaunchAttributeID id;
  char pad[8 - sizeof(musaLaunchAttributeID)];
  musaLaunchAttributeValue val;
} musaLaunchAttribute;
/** What musaLaunchKernelEx launches with: the <<<>>> configuration plus attributes. */
typedef struct musaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  musaStream_t stream;
  musaLaunchAttribute *attrs;
  unsigned int numAttrs;
} musaLaunchConfig_t;
typedef enum musaLaunchAttributeID musaKernelNodeAttrID;
typedef musaLaunchAttributeValue musaKernelNodeAttrValue;
#define musaKernelNodeAttributeAccessPolicyWindow musaLaunchAttributeAccessPolicyWindow
#define musaKernelNodeAttributeCooperative musaLaunchAttributeCooperative
#define musaKernelNodeAttributePriority musaLaunchAttributePriority
typedef enum musaLaunchAttributeID musaStreamAttrID;
typedef musaLaunchAttributeValue musaStreamAttrValue;
#define musaStreamAttributeAccessPolicyWindow musaLaunchAttributeAccessPolicyWindow
#define musaStreamAttributeSynchronizationPolicy musaLaunchAttributeSynchronizationPolicy
#define musaStreamAttributePriority musaLaunchAttributePriority

/* ---- memory pools (what graph allocation nodes describe) ---------------------------- */
enum musaMemAllocationType { musaMemAllocationTypeInvalid = 0, musaMemAllocationTypePinned = 1 };
enum musaMemAllocationHandleType {
  musaMemHandleTypeNone = 0,
  musaMemHandleTypePosixFileDescriptor = 1
};
enum musaMemLocationType {
  musaMemLocationTypeInvalid = 0,
  musaMemLocationTypeDevice = 1,
  musaMemLocationTypeHost = 2,
  musaMemLocationTypeHostNuma = 3,
  musaMemLocationTypeHostNumaCurrent = 4
};
enum musaMemAccessFlags {
  musaMemAccessFlagsProtNone = 0,
  musaMemAccessFlagsProtRead = 1,
  musaMemAccessFlagsProtReadWrite = 3
};
struct musaMemLocation {
  enum musaMemLocationType type;
  int id;
};
/* What musaMemPoolExportPointer writes and musaMemPoolImportPointer reads (opaque). */
struct musaMemPoolPtrExportData {
  unsigned char reserved[64];
};
typedef struct musaMemPoolPtrExportData musaMemPoolPtrExportData;
struct musaMemPoolProps {
  enum musaMemAllocationType allocType;
  enum musaMemAllocationHandleType handleTypes;
  struct musaMemLocation location;
  void *win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};
struct musaMemAccessDesc {
  struct musaMemLocation location;
  enum musaMemAccessFlags flags;
};
typedef struct musaMemPoolProps musaMemPoolProps;
typedef struct musaMemAccessDesc musaMemAccessDesc;

/** A stream-ordered memory pool (musaMemPoolCreate, musaDeviceGetDefaultMemPool). */
typedef struct MUmemPoolHandle_st *musaMemPool_t;
/** Pool attributes, CUDA's numbers. The reuse flags are int (0/1); the rest uint64_t (the
 *  two high watermarks can only be set to 0, which restarts them; the currents are
 *  read-only). */
enum musaMemPoolAttr {
  musaMemPoolReuseFollowEventDependencies = 0x1,
  musaMemPoolReuseAllowOpportunistic = 0x2,
  musaMemPoolReuseAllowInternalDependencies = 0x3,
  musaMemPoolAttrReleaseThreshold = 0x4,
  musaMemPoolAttrReservedMemCurrent = 0x5,
  musaMemPoolAttrReservedMemHigh = 0x6,
  musaMemPoolAttrUsedMemCurrent = 0x7,
  musaMemPoolAttrUsedMemHigh = 0x8
};
typedef enum musaMemPoolAttr musaMemPoolAttr;

/* ---- graphs ------------------------------------------------------------------------- */
typedef struct MUgraph_st *musaGraph_t;
typedef struct MUgraphNode_st *musaGraphNode_t;
typedef struct MUgraphExec_st *musaGraphExec_t;

/** Node types: CUDA's numbers; the guide's names and CUDA's are both defined (DECISIONS 5). */
enum musaGraphNodeType {
  musaGraphNodeTypeKernel = 0,
  musaGraphNodeTypeMemcpy = 1,
  musaGraphNodeTypeMemset = 2,
  musaGraphNodeTypeHost = 3,
  musaGraphNodeTypeChildGraph = 4,
  musaGraphNodeTypeGraph = 4,
  musaGraphNodeTypeEmpty = 5,
  musaGraphNodeTypeEventWait = 6,
  musaGraphNodeTypeWaitEvent = 6,
  musaGraphNodeTypeEventRecord = 7,
  musaGraphNodeTypeExternalSemaphoreSignal = 8,
  musaGraphNodeTypeExtSemasSignal = 8,
  musaGraphNodeTypeExternalSemaphoreWait = 9,
  musaGraphNodeTypeExtSemasWait = 9,
  musaGraphNodeTypeMemAlloc = 10,
  musaGraphNodeTypeMemFree = 11,
  musaGraphNodeTypeConditional = 13,
  musaGraphNodeTypeCount
};
typedef enum musaGraphNodeType musaGraphNodeType;

struct musaKernelNodeParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void **kernelParams;
  void **extra;
};
typedef struct musaKernelNodeParams musaKernelNodeParams;

struct musaMemsetParams {
  void *dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};
typedef struct musaMemsetParams musaMemsetParams;

struct musaHostNodeParams {
  musaHostFn_t fn;
  void *userData;
};
typedef struct musaHostNodeParams musaHostNodeParams;

enum musaStreamCaptureMode {
  musaStreamCaptureModeGlobal = 0,
  musaStreamCaptureModeThreadLocal = 1,
  musaStreamCaptureModeRelaxed = 2
};
typedef enum musaStreamCaptureMode musaStreamCaptureMode;

enum musaStreamCaptureStatus {
  musaStreamCaptureStatusNone = 0,
  musaStreamCaptureStatusActive = 1,
  musaStreamCaptureStatusInvalidated = 2
};
typedef enum musaStreamCaptureStatus musaStreamCaptureStatus;

#define musaGraphInstantiateFlagAutoFreeOnLaunch 1
#define musaGraphInstantiateFlagUpload 2
#define musaGraphInstantiateFlagDeviceLaunch 4
#define musaGraphInstantiateFlagUseNodePriority 8

#define musaGraphDebugDotFlagsVerbose (1 << 0)

typedef enum {
  musaGraphInstantiateSuccess = 0,
  musaGraphInstantiateError = 1,
  musaGraphInstantiateInvalidStructure = 2,
  musaGraphInstantiateNodeOperationNotSupported = 3,
  musaGraphInstantiateMultipleDevicesNotSupported = 4
} musaGraphInstantiateResult;

/** The guide's layout (CUDA's has an uploadStream member after flags). */
typedef struct {
  unsigned long long flags;
  musaGraphNode_t errNode_out;
  musaGraphInstantiateResult result_out;
} musaGraphInstantiateParams;

/** The guide's numbers (spec/DECISIONS.md, 3). */
typedef enum {
  musaGraphExecUpdateSuccess = 0,
  musaGraphExecUpdateError = 1,
  musaGraphExecUpdateErrorTopologyChanged = 2,
  musaGraphExecUpdateErrorNodeTypeChanged = 3,
  musaGraphExecUpdateErrorFunctionChanged = 4,
  musaGraphExecUpdateErrorParametersChanged = 5,
  musaGraphExecUpdateErrorAttributesChanged = 6,
  musaGraphExecUpdateErrorNotSupported = 7,
  musaGraphExecUpdateErrorUnsupportedFunctionChange = 8
} musaGraphExecUpdateResult;

struct musaMemAllocNodeParams {
  struct musaMemPoolProps poolProps;
  const struct musaMemAccessDesc *accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void *dptr; /* out */
};
typedef struct musaMemAllocNodeParams musaMemAllocNodeParams;

/** Edge data: only the default (all zero) is supported (spec/DECISIONS.md, 13). */
typedef struct musaGraphEdgeData_st {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
} musaGraphEdgeData;

#define musaStreamAddCaptureDependencies 0x0
#define musaStreamSetCaptureDependencies 0x1

#include "musa_batch_types.h"

/* ---- libraries (context-independent loading of device images) --------------------------- */
typedef struct MUlib_st *musaLibrary_t;
typedef struct MUkern_st *musaKernel_t; /* launches as its function: (const void *)kernel */
enum musaJitOption {
  musaJitMaxRegisters = 0,
  musaJitThreadsPerBlock = 1,
  musaJitWallTime = 2,
  musaJitInfoLogBuffer = 3,
  musaJitInfoLogBufferSizeBytes = 4,
  musaJitErrorLogBuffer = 5,
  musaJitErrorLogBufferSizeBytes = 6,
  musaJitOptimizationLevel = 7,
  musaJitFallbackStrategy = 10,
  musaJitGenerateDebugInfo = 11,
  musaJitLogVerbose = 12,
  musaJitGenerateLineInfo = 13,
  musaJitCacheMode = 14,
  musaJitPositionIndependentCode = 30,
  musaJitMinCtaPerSm = 31,
  musaJitMaxThreadsPerBlock = 32,
  musaJitOverrideDirectiveValues = 33
};
typedef enum musaJitOption musaJitOption;
enum musaLibraryOption {
  musaLibraryHostUniversalFunctionAndDataTable = 0,
  musaLibraryBinaryIsPreserved = 1
};
typedef enum musaLibraryOption musaLibraryOption;

#include "musa_external_types.h"

/* conditional nodes (CUDA 12.4's API) */
typedef unsigned long long musaGraphConditionalHandle;
#define musaGraphCondAssignDefault 1
enum musaGraphConditionalNodeType {
  musaGraphCondTypeIf = 0,    /* size 1, or 2: the second body is the ELSE (CUDA 12.8) */
  musaGraphCondTypeWhile = 1, /* size 1 */
  musaGraphCondTypeSwitch = 2 /* size n: body i runs when the condition is i (CUDA 12.8) */
};
typedef enum musaGraphConditionalNodeType musaGraphConditionalNodeType;
struct musaConditionalNodeParams {
  musaGraphConditionalHandle handle;
  enum musaGraphConditionalNodeType type;
  unsigned int size;          /* the number of bodies */
  musaGraph_t *phGraph_out;   /* out: `size` body graphs, owned by the node */
};

/* The generic node description of musaGraphAddNode. */
struct musaMemcpyNodeParams {
  int flags;
  int reserved[3];
  struct musaMemcpy3DParms copyParams;
};
struct musaChildGraphNodeParams {
  musaGraph_t graph;
};
struct musaEventNodeParams {
  musaEvent_t event;
};
struct musaMemFreeNodeParams {
  void *dptr;
};
struct musaGraphNodeParams {
  enum musaGraphNodeType type;
  int reserved0[3];
  union {
    long long reserved1[29];
    struct musaKernelNodeParams kernel;
    struct musaMemcpyNodeParams memcpy;
    struct musaMemsetParams memset;
    struct musaHostNodeParams host;
    struct musaChildGraphNodeParams graph;
    struct musaEventNodeParams eventWait;
    struct musaEventNodeParams eventRecord;
    struct musaMemAllocNodeParams alloc;
    struct musaMemFreeNodeParams free;
    struct musaConditionalNodeParams conditional;
    struct musaExternalSemaphoreSignalNodeParams extSemSignal;
    struct musaExternalSemaphoreWaitNodeParams extSemWait;
  };
  long long reserved2;
};
typedef struct musaGraphNodeParams musaGraphNodeParams;

/** The guide's numbers 1..4 (spec/DECISIONS.md, 4). */
enum musaGraphMemAttributeType {
  musaGraphMemAttrUsedMemCurrent = 1,
  musaGraphMemAttrUsedMemHigh = 2,
  musaGraphMemAttrReservedMemCurrent = 3,
  musaGraphMemAttrReservedMemHigh = 4
};

typedef struct {
  musaGraphExecUpdateResult result;
  musaGraphNode_t errorNode;
  musaGraphNode_t errorFromNode;
} musaGraphExecUpdateResultInfo;

/* ---- device attributes (CUDA's numbers) ---------------------------------------------- */
/* Flags of musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags. */
#define musaInitDeviceFlagsAreValid 0x01 /* musaInitDevice: deviceFlags are to be set */
#define musaOccupancyDefault 0x00
#define musaOccupancyDisableCachingOverride 0x01

enum musaDeviceAttr {
  musaDevAttrMaxThreadsPerBlock = 1,
  musaDevAttrMaxBlockDimX = 2,
  musaDevAttrMaxBlockDimY = 3,
  musaDevAttrMaxBlockDimZ = 4,
  musaDevAttrMaxGridDimX = 5,
  musaDevAttrMaxGridDimY = 6,
  musaDevAttrMaxGridDimZ = 7,
  musaDevAttrMaxSharedMemoryPerBlock = 8,
  musaDevAttrTotalConstantMemory = 9,
  musaDevAttrWarpSize = 10,
  musaDevAttrMaxPitch = 11,
  musaDevAttrMaxRegistersPerBlock = 12,
  musaDevAttrClockRate = 13,
  musaDevAttrTextureAlignment = 14,
  musaDevAttrGpuOverlap = 15,
  musaDevAttrMultiProcessorCount = 16,
  musaDevAttrKernelExecTimeout = 17,
  musaDevAttrIntegrated = 18,
  musaDevAttrCanMapHostMemory = 19,
  musaDevAttrComputeMode = 20,
  musaDevAttrConcurrentKernels = 31,
  musaDevAttrEccEnabled = 32,
  musaDevAttrPciBusId = 33,
  musaDevAttrPciDeviceId = 34,
  musaDevAttrTccDriver = 35,
  musaDevAttrMemoryClockRate = 36,
  musaDevAttrGlobalMemoryBusWidth = 37,
  musaDevAttrL2CacheSize = 38,
  musaDevAttrMaxThreadsPerMultiProcessor = 39,
  musaDevAttrAsyncEngineCount = 40,
  musaDevAttrUnifiedAddressing = 41,
  musaDevAttrPciDomainId = 50,
  musaDevAttrTexturePitchAlignment = 51,
  musaDevAttrComputeCapabilityMajor = 75,
  musaDevAttrComputeCapabilityMinor = 76,
  musaDevAttrStreamPrioritiesSupported = 78,
  musaDevAttrGlobalL1CacheSupported = 79,
  musaDevAttrLocalL1CacheSupported = 80,
  musaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  musaDevAttrMaxRegistersPerMultiprocessor = 82,
  musaDevAttrManagedMemory = 83,
  musaDevAttrIsMultiGpuBoard = 84,
  musaDevAttrMultiGpuBoardGroupID = 85,
  musaDevAttrHostNativeAtomicSupported = 86,
  musaDevAttrSingleToDoublePrecisionPerfRatio = 87,
  musaDevAttrPageableMemoryAccess = 88,
  musaDevAttrConcurrentManagedAccess = 89,
  musaDevAttrComputePreemptionSupported = 90,
  musaDevAttrCanUseHostPointerForRegisteredMem = 91,
  musaDevAttrCooperativeLaunch = 95,
  musaDevAttrCooperativeMultiDeviceLaunch = 96,
  musaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  musaDevAttrCanFlushRemoteWrites = 98,
  musaDevAttrHostRegisterSupported = 99,
  musaDevAttrPageableMemoryAccessUsesHostPageTables = 100,
  musaDevAttrDirectManagedMemAccessFromHost = 101,
  musaDevAttrMaxBlocksPerMultiprocessor = 106,
  musaDevAttrMaxPersistingL2CacheSize = 108,
  musaDevAttrMaxAccessPolicyWindowSize = 109,
  musaDevAttrReservedSharedMemoryPerBlock = 111,
  musaDevAttrSparseMusaArraySupported = 112,
  musaDevAttrHostRegisterReadOnlySupported = 113,
  musaDevAttrMemoryPoolsSupported = 115
};
typedef enum musaDeviceAttr musaDeviceAttr;

#define musaHostAllocDefault 0x00
#define musaHostAllocPortable 0x01
#define musaHostAllocMapped 0x02
#define musaHostAllocWriteCombined 0x04

/** musaDeviceSetLimit / musaDeviceGetLimit: CUDA's numbers. */
enum musaLimit {
  musaLimitStackSize = 0x00,
  musaLimitPrintfFifoSize = 0x01,
  musaLimitMallocHeapSize = 0x02,
  musaLimitDevRuntimeSyncDepth = 0x03,
  musaLimitDevRuntimePendingLaunchCount = 0x04,
  musaLimitMaxL2FetchGranularity = 0x05,
  musaLimitPersistingL2CacheSize = 0x06
};
typedef enum musaLimit musaLimit;

#define musaDeviceScheduleAuto 0x00
#define musaDeviceScheduleSpin 0x01
#define musaDeviceScheduleYield 0x02
#define musaDeviceScheduleBlockingSync 0x04
#define musaDeviceBlockingSync 0x04 /* CUDA's older name of the same flag */
#define musaDeviceMapHost 0x08
#define musaDeviceLmemResizeToMax 0x10


enum musaComputeMode {
  musaComputeModeDefault = 0,
  musaComputeModeExclusive = 1,
  musaComputeModeProhibited = 2,
  musaComputeModeExclusiveProcess = 3
};

typedef struct MUuuid_st {
  char bytes[16];
} musaUUID_t;
typedef musaUUID_t musaUuid_t;

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
