/* Operation numbers of the virtual GPU's warp and block collectives: the one definition that
   the device headers (musa_device_functions.h, cooperative_groups.h: arguments of
   __musa_sim_warp and __musa_sim_barrier_reduce) and simdevice (musa/sim/WarpCollective.h,
   musa/sim/KernelAbi.h) share. Plain C without a namespace, because device code includes it;
   the build copies it next to the public headers (build/include, the install prefix). */
#ifndef MUSA_SIM_COLLECTIVE_OPS_H
#define MUSA_SIM_COLLECTIVE_OPS_H

enum __musa_sim_warp_op {
  __MUSA_SIM_WARP_SYNC = 0,
  __MUSA_SIM_WARP_SHFL_IDX = 1,
  __MUSA_SIM_WARP_SHFL_UP = 2,
  __MUSA_SIM_WARP_SHFL_DOWN = 3,
  __MUSA_SIM_WARP_SHFL_XOR = 4,
  __MUSA_SIM_WARP_BALLOT = 5,
  __MUSA_SIM_WARP_ANY = 6,
  __MUSA_SIM_WARP_ALL = 7,
  __MUSA_SIM_WARP_MATCH_ANY = 8,
  __MUSA_SIM_WARP_MATCH_ALL = 9,
  __MUSA_SIM_WARP_REDUCE_ADD = 10,
  __MUSA_SIM_WARP_REDUCE_MIN_U = 11,
  __MUSA_SIM_WARP_REDUCE_MAX_U = 12,
  __MUSA_SIM_WARP_REDUCE_MIN_S = 13,
  __MUSA_SIM_WARP_REDUCE_MAX_S = 14,
  __MUSA_SIM_WARP_REDUCE_AND = 15,
  __MUSA_SIM_WARP_REDUCE_OR = 16,
  __MUSA_SIM_WARP_REDUCE_XOR = 17,
  /* The lanes converged at this call (__activemask, coalesced_threads); the compiler numbers
     its calls by call site. */
  __MUSA_SIM_WARP_CONVERGE = 18,
  /* A warp matrix multiply-accumulate (mma.h's mma_sync): value is the lane's
     __musa_sim_mma_operands, arg its shape and types (the code below). Each 32-lane
     quarter multiplies its own tile; element e of an M x N tile (row-major) is slot e / 32 of
     lane e % 32's fragment. */
  __MUSA_SIM_WARP_MMA = 19,
  /* A flag: the mask names lanes of the caller's 32-lane quarter only (coalesced groups on
     128-lane warps). */
  __MUSA_SIM_WARP_QUARTER_LOCAL = 0x100
};

/* The arg of a __MUSA_SIM_WARP_SYNC that only keeps a wmma load or store a warp-wide step (a
   GPU's fragment loads and stores are warp-wide instructions: no synchronisation of their own,
   which the timing model then does not count). */
#define __MUSA_SIM_WARP_SYNC_MMA_STEP 0x6d6d61

/* The operands of one lane's mma_sync: its fragments' element arrays. */
struct __musa_sim_mma_operands {
  const void *a, *b, *c;
  void *d;
};

/* Shapes (M x N x K) and element types of __MUSA_SIM_WARP_MMA, packed into its arg (below). */
enum __musa_sim_mma_shape {
  __MUSA_SIM_MMA_16x16x16 = 0,
  __MUSA_SIM_MMA_32x8x16 = 1,
  __MUSA_SIM_MMA_8x32x16 = 2,
  __MUSA_SIM_MMA_16x16x8 = 3,
  __MUSA_SIM_MMA_8x8x4 = 4
};
enum __musa_sim_mma_type {
  __MUSA_SIM_MMA_F16 = 0,
  __MUSA_SIM_MMA_BF16 = 1,
  __MUSA_SIM_MMA_TF32 = 2, /* float storage, read as tf32 */
  __MUSA_SIM_MMA_S8 = 3,
  __MUSA_SIM_MMA_U8 = 4,
  __MUSA_SIM_MMA_F32 = 5,
  __MUSA_SIM_MMA_S32 = 6,
  __MUSA_SIM_MMA_F64 = 7
};
/* The code (WarpMma's arg): shape | A and B type << 4 | C type << 8 | D type << 12, and bits
   16 (satf), 17 (A stored col_major) and 18 (B stored col_major). */

/* __syncthreads_count / _and / _or. */
enum __musa_sim_block_reduce_op {
  __MUSA_SIM_BLOCK_COUNT = 0,
  __MUSA_SIM_BLOCK_AND = 1,
  __MUSA_SIM_BLOCK_OR = 2
};

#endif
