/* musa_builtin_vars.h - threadIdx, blockIdx, blockDim, gridDim and warpSize (MUSA sources).
 *
 * Each is a weak, never-defined object whose fields are properties: reading threadIdx.x
 * calls a static inline getter around the special-register builtin, so no code ever touches
 * the object itself. Needs dim3/uint3 (musa_vector_types.h) for the conversions. */
#ifndef __MUSA_BUILTIN_VARS_H__
#define __MUSA_BUILTIN_VARS_H__
#if defined(__CUDA__)

#define __MUSA_SREG_FIELD(field, reg)                                                      \
  __declspec(property(get = __musa_get_##field)) unsigned int field;                      \
  __musa_builtin_inline__ unsigned int __musa_get_##field(void) { return reg(); }

#define __MUSA_SREG_STRUCT(type, tidx, tidy, tidz)                                         \
  struct type {                                                                            \
    __MUSA_SREG_FIELD(x, tidx)                                                             \
    __MUSA_SREG_FIELD(y, tidy)                                                             \
    __MUSA_SREG_FIELD(z, tidz)                                                             \
    __device__ operator dim3() const { return dim3(x, y, z); }                            \
    __device__ operator uint3() const { return make_uint3(x, y, z); }                     \
    type() = delete;                                                                       \
    type(const type &) = delete;                                                           \
    void operator=(const type &) const = delete;                                           \
    type *operator&() const = delete;                                                      \
  }

__MUSA_SREG_STRUCT(__musa_threadIdx_t, __nvvm_read_ptx_sreg_tid_x, __nvvm_read_ptx_sreg_tid_y,
                   __nvvm_read_ptx_sreg_tid_z);
__MUSA_SREG_STRUCT(__musa_blockIdx_t, __nvvm_read_ptx_sreg_ctaid_x,
                   __nvvm_read_ptx_sreg_ctaid_y, __nvvm_read_ptx_sreg_ctaid_z);
__MUSA_SREG_STRUCT(__musa_blockDim_t, __nvvm_read_ptx_sreg_ntid_x, __nvvm_read_ptx_sreg_ntid_y,
                   __nvvm_read_ptx_sreg_ntid_z);
__MUSA_SREG_STRUCT(__musa_gridDim_t, __nvvm_read_ptx_sreg_nctaid_x,
                   __nvvm_read_ptx_sreg_nctaid_y, __nvvm_read_ptx_sreg_nctaid_z);

extern const __device__ __attribute__((weak)) __musa_threadIdx_t threadIdx;
extern const __device__ __attribute__((weak)) __musa_blockIdx_t blockIdx;
extern const __device__ __attribute__((weak)) __musa_blockDim_t blockDim;
extern const __device__ __attribute__((weak)) __musa_gridDim_t gridDim;
/* warpSize is an int, as in CUDA (printf("%d", warpSize), auto, std::min(warpSize, n)): in the
 * hardware pass (__MUSA_SIM_HW__: PTX for an NVIDIA GPU) the 32 of NVIDIA warps; in the
 * simulator a never-defined variable whose reads kernel-jit turns into reads of the profile's
 * warp size (LowerDeviceCalls). Not llvm.nvvm.read.ptx.sreg.warpsize: LLVM folds that to 32
 * in the device pass. */
#if defined(__MUSA_SIM_HW__)
static constexpr __device__ int warpSize = 32;
#else
extern const __device__ int warpSize;
#endif

#undef __MUSA_SREG_STRUCT
#undef __MUSA_SREG_FIELD
#endif /* __CUDA__ */
#endif /* __MUSA_BUILTIN_VARS_H__ */
