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
musaError_t musaSetDevice(int device);
musaError_t musaGetDevice(int *device);
musaError_t musaDeviceSynchronize(void);
musaError_t musaDeviceReset(void);
musaError_t musaMemGetInfo(size_t *free, size_t *total);
musaError_t musaDriverGetVersion(int *version);
musaError_t musaRuntimeGetVersion(int *version);

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

/* streams */
musaError_t musaStreamCreate(musaStream_t *stream);
musaError_t musaStreamCreateWithFlags(musaStream_t *stream, unsigned int flags);
musaError_t musaStreamDestroy(musaStream_t stream);
musaError_t musaStreamSynchronize(musaStream_t stream);
musaError_t musaStreamQuery(musaStream_t stream);

/* launch */
musaError_t musaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                             size_t sharedMem, musaStream_t stream);

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

#ifdef __cplusplus
}
#endif

#endif /* __MUSA_RUNTIME_API_H__ */
