/* musa_device_runtime_api.h - the runtime API as device code calls it (dynamic parallelism).
 *
 * A kernel launches a kernel with the launch syntax, `child<<<grid, block, shared, stream>>>(
 * args)`, as with nvcc -rdc=true. clang 19 refuses that syntax in device code, so musa-sim-cc
 * rewrites each such launch to `__musa_sim_device_launch<&child>(grid, block, shared,
 * stream)(args)` (below) before the device pass. The kernel's arguments are converted to its
 * parameter types and copied at the launch; the child grid runs after its parent grid, before
 * the parent's launch counts as complete (a parent cannot wait for its children: device-side
 * musaDeviceSynchronize went with CUDA 12's CDP2, see the end of this file). Children of one
 * block on the same stream run in launch order, each with its own children before the next;
 * tail launches (musaStreamTailLaunch) after all of the parent's other children.
 *
 * Device code also has musaGetLastError/musaPeekAtLastError (the launching thread's last
 * device-side launch error), musaGetErrorName/musaGetErrorString, musaMalloc/musaFree (the
 * device heap), musaStreamCreateWithFlags/musaStreamDestroy and musaEventCreateWithFlags/
 * musaEventRecord/musaStreamWaitEvent/musaEventDestroy (device events must be
 * musaEventDisableTiming). */
#ifndef __MUSA_DEVICE_RUNTIME_API_H__
#define __MUSA_DEVICE_RUNTIME_API_H__

#if defined(__CUDA__) && defined(__cplusplus)

#include "musa_error_text.h"

extern "C" {
/* The simulator's device-side launch (kernel-jit lowers both to runtime calls): `config` holds
 * grid.x/y/z and block.x/y/z; `args` and `sizes` each argument's address and bytes. */
__device__ musaError_t __musa_device_launch(const void *kernel, const unsigned int *config,
                                            size_t sharedMem, musaStream_t stream, void **args,
                                            const unsigned int *sizes, unsigned int count);
/* The calling thread's last device-side launch error; reset to musaSuccess when `reset`. */
__device__ musaError_t __musa_device_last_error(int reset);
}

/* The kernel's address as a constant: a variable's initializer may name a kernel where a
 * device function's body may not (clang: "reference to __global__ function"). */
template <auto __Kernel>
__device__ const void *const __musa_sim_kernel_address = reinterpret_cast<const void *>(__Kernel);

template <auto __Kernel> struct __musa_sim_device_launcher;
template <typename... __Params, void (*__Kernel)(__Params...)>
struct __musa_sim_device_launcher<__Kernel> {
  unsigned int config[6];
  size_t sharedMem;
  musaStream_t stream;
  /* Arguments convert to the kernel's parameter types here, as a host launch converts them. */
  __device__ void operator()(__Params... params) const {
    void *args[sizeof...(__Params) + 1] = {
        const_cast<void *>(static_cast<const void *>(&params))...};
    const unsigned int sizes[sizeof...(__Params) + 1] = {(unsigned int)sizeof(__Params)...};
    __musa_device_launch(__musa_sim_kernel_address<__Kernel>, config, sharedMem, stream, args,
                         sizes, sizeof...(__Params));
  }
};

/* What musa-sim-cc makes of `kernel<<<grid, block, sharedMem, stream>>>(args)` in device code. */
template <auto __Kernel>
__device__ __musa_sim_device_launcher<__Kernel>
__musa_sim_device_launch(dim3 grid, dim3 block, size_t sharedMem = 0, musaStream_t stream = 0) {
  return {{grid.x, grid.y, grid.z, block.x, block.y, block.z}, sharedMem, stream};
}

__device__ inline musaError_t musaGetLastError(void) { return __musa_device_last_error(1); }
__device__ inline musaError_t musaPeekAtLastError(void) { return __musa_device_last_error(0); }

__device__ inline const char *musaGetErrorName(musaError_t error) {
  return __musa_error_text(error, 1);
}
__device__ inline const char *musaGetErrorString(musaError_t error) {
  return __musa_error_text(error, 0);
}

/* Device-side musaMalloc/musaFree take the device heap, as malloc/free in kernels do. */
__device__ inline musaError_t musaMalloc(void **devPtr, size_t size) {
  if (!devPtr)
    return musaErrorInvalidValue;
  *devPtr = malloc(size);
  return *devPtr || size == 0 ? musaSuccess : musaErrorMemoryAllocation;
}
template <class T> __device__ inline musaError_t musaMalloc(T **devPtr, size_t size) {
  return musaMalloc(reinterpret_cast<void **>(devPtr), size);
}
__device__ inline musaError_t musaFree(void *devPtr) {
  free(devPtr);
  return musaSuccess;
}

/* Device streams and events order the launches made into them; the simulator runs a parent's
 * children one after another in launch order, which every such order allows, so recording an
 * event and waiting for one have nothing left to do. Each stream and event gets its own handle. */
static __device__ unsigned long long __musa_sim_device_streams;
__device__ inline musaError_t musaStreamCreateWithFlags(musaStream_t *stream, unsigned int flags) {
  if (!stream)
    return musaErrorInvalidValue;
  /* CUDA documents musaStreamNonBlocking as required; the H100 accepts the default too. */
  if (flags != musaStreamNonBlocking && flags != musaStreamDefault)
    return musaErrorInvalidValue;
  unsigned long long n = atomicAdd(&__musa_sim_device_streams, 1ull);
  *stream = (musaStream_t)(size_t)(0x1000 + 16 * n);
  return musaSuccess;
}
__device__ inline musaError_t musaStreamDestroy(musaStream_t stream) {
  return stream ? musaSuccess : musaErrorInvalidResourceHandle;
}
__device__ inline musaError_t musaEventCreateWithFlags(musaEvent_t *event, unsigned int flags) {
  if (!event)
    return musaErrorInvalidValue;
  if (!(flags & musaEventDisableTiming)) /* as CUDA: device events have no timing */
    return musaErrorInvalidValue;
  unsigned long long n = atomicAdd(&__musa_sim_device_streams, 1ull);
  *event = (musaEvent_t)(size_t)(0x1000 + 16 * n);
  return musaSuccess;
}
__device__ inline musaError_t musaEventRecord(musaEvent_t event, musaStream_t stream = 0) {
  return event ? musaSuccess : musaErrorInvalidResourceHandle;
}
__device__ inline musaError_t musaStreamWaitEvent(musaStream_t stream, musaEvent_t event,
                                                  unsigned int flags = 0) {
  return event && flags == 0 ? musaSuccess : musaErrorInvalidValue;
}
__device__ inline musaError_t musaEventDestroy(musaEvent_t event) {
  return event ? musaSuccess : musaErrorInvalidResourceHandle;
}

/* No device-side musaDeviceSynchronize: CUDA 12 removed it (CDP1) and nvcc refuses it for
 * current GPUs. The host function stays the only one, so a kernel calling it gets clang's
 * error (and the driver's note) while a __host__ __device__ function or lambda that only the
 * host runs still compiles. */

#endif /* __CUDA__ && __cplusplus */
#endif /* __MUSA_DEVICE_RUNTIME_API_H__ */
