/* musa_external_types.h - external memory and external semaphores: handle types,
 * descriptions, signal and wait parameters and their graph node forms. Included by
 * musa_driver_types.h, after the stream and graph types they use. */
#ifndef __MUSA_EXTERNAL_TYPES_H__
#define __MUSA_EXTERNAL_TYPES_H__

/* ---- external memory ----------------------------------------------------------------------
 * OpaqueFd: any file descriptor the host can map (a memfd, a file, a driver-API allocation
 * exported with muMemExportToShareableHandle); importing it hands the descriptor to the
 * runtime, which closes it when the external memory is destroyed. */
typedef struct MUexternalMemory_st *musaExternalMemory_t;
enum musaExternalMemoryHandleType {
  musaExternalMemoryHandleTypeOpaqueFd = 1,
  musaExternalMemoryHandleTypeOpaqueWin32 = 2,
  musaExternalMemoryHandleTypeOpaqueWin32Kmt = 3,
  musaExternalMemoryHandleTypeD3D12Heap = 4,
  musaExternalMemoryHandleTypeD3D12Resource = 5,
  musaExternalMemoryHandleTypeD3D11Resource = 6,
  musaExternalMemoryHandleTypeD3D11ResourceKmt = 7,
  musaExternalMemoryHandleTypeNvSciBuf = 8
};
#define musaExternalMemoryDedicated 0x1
struct musaExternalMemoryHandleDesc {
  enum musaExternalMemoryHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciBufObject;
  } handle;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
};
struct musaExternalMemoryBufferDesc {
  unsigned long long offset;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
};
struct musaExternalMemoryMipmappedArrayDesc {
  unsigned long long offset;
  struct musaChannelFormatDesc formatDesc;
  struct musaExtent extent;
  unsigned int flags;
  unsigned int numLevels;
  unsigned int reserved[16];
};

/* ---- external semaphores ----------------------------------------------------------------
 * OpaqueFd: an eventfd (signal adds one, wait takes one). TimelineSemaphoreFd: a timeline
 * (signal sets the value, wait waits until it is reached) made by musaSimCreateSemaphoreFd,
 * since no graphics API exports one here. */
typedef struct MUexternalSemaphore_st *musaExternalSemaphore_t;
enum musaExternalSemaphoreHandleType {
  musaExternalSemaphoreHandleTypeOpaqueFd = 1,
  musaExternalSemaphoreHandleTypeTimelineSemaphoreFd = 9
};
struct musaExternalSemaphoreHandleDesc {
  enum musaExternalSemaphoreHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciSyncObj;
  } handle;
  unsigned int flags;
  unsigned int reserved[16];
};
struct musaExternalSemaphoreSignalParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
    } keyedMutex;
    unsigned int reserved[12];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
};
struct musaExternalSemaphoreWaitParams {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
      unsigned int timeoutMs;
    } keyedMutex;
    unsigned int reserved[10];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
};
struct musaExternalSemaphoreSignalNodeParams {
  musaExternalSemaphore_t *extSemArray;
  const struct musaExternalSemaphoreSignalParams *paramsArray;
  unsigned int numExtSems;
};
struct musaExternalSemaphoreWaitNodeParams {
  musaExternalSemaphore_t *extSemArray;
  const struct musaExternalSemaphoreWaitParams *paramsArray;
  unsigned int numExtSems;
};

#endif /* __MUSA_EXTERNAL_TYPES_H__ */
