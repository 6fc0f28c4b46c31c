/* musa_runtime.h - the MUSA Runtime API as programs include it. MUSA sources (.mu) get it
 * implicitly from musa-sim-cc, as with mcc. */
#ifndef __MUSA_RUNTIME_H__
#define __MUSA_RUNTIME_H__

/* As with mcc and nvcc, the C library basics come with the runtime header. */
#include <stdlib.h>
#include <string.h>

#include "musa_device_prelude.h"
#include "musa_vector_types.h"
#include "musa_driver_types.h"
#include "musa_runtime_api.h"
#include "musa_builtin_vars.h"

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
}
#endif

#if defined(__cplusplus)
/** The guide's form: musaGetErrorName(&name, err). */
static inline musaError_t musaGetErrorName(const char **name, musaError_t error) {
  if (!name)
    return musaErrorInvalidValue;
  *name = musaGetErrorName(error);
  return musaSuccess;
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
template <class T>
static inline musaError_t musaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                                           size_t sharedMem = 0, musaStream_t stream = 0) {
  return musaLaunchKernel(reinterpret_cast<const void *>(func), gridDim, blockDim, args,
                          sharedMem, stream);
}
#endif

#endif /* __MUSA_RUNTIME_H__ */
