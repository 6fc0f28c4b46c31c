/* musa_device_prelude.h - the MUSA kernel language keywords and built-in variables.
 *
 * In MUSA sources (clang CUDA mode, __CUDA__ defined) the keywords are clang's CUDA
 * attributes and threadIdx/blockIdx/blockDim/gridDim/warpSize read the executing thread's
 * special registers (kernel-jit lowers those reads to the simulator's thread context).
 * warpSize comes from the device profile (128 on mp_21/mp_22, 32 on mp_31), so it is an
 * object convertible to int rather than a constant. In plain C++ files the keywords expand to
 * nothing so host code that includes musa_runtime.h still compiles. */
#ifndef __MUSA_DEVICE_PRELUDE_H__
#define __MUSA_DEVICE_PRELUDE_H__

#if defined(__CUDA__)
#define __MUSACC__ 1
#define __MUSA__ 1
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
/* A __managed__ variable is a __device__ variable marked for the simulator: its storage is
 * the host's (the registered shadow, given its initial value before main), which host code
 * reads and writes directly and device code is bound to when its image loads (clang accepts
 * the managed attribute itself only for HIP). */
#define __managed__ __attribute__((device)) __attribute__((annotate("musa.managed")))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#else
#define __global__
#define __device__
#define __host__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#endif
#define __forceinline__ __inline__ __attribute__((always_inline))
/* __noinline__ is a keyword of clang's CUDA mode; defining it would break libstdc++, which
 * spells the attribute __attribute__((__noinline__)). */
#define __align__(n) __attribute__((aligned(n)))
#define __musa_builtin_inline__ static __inline__ __attribute__((always_inline)) __device__

#endif /* __MUSA_DEVICE_PRELUDE_H__ */
