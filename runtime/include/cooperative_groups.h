/* cooperative_groups.h - thread groups for MUSA kernels: the block, static tiles of up to a
 * warp (with shuffles, votes and reduce), dynamic tiles, and the grid (grid.sync() in kernels
 * launched with musaLaunchCooperativeKernel). */
#ifndef __MUSA_COOPERATIVE_GROUPS_H__
#define __MUSA_COOPERATIVE_GROUPS_H__

#include "musa_runtime.h"

#if defined(__CUDA__)
#if defined(__MUSA_SIM_HW__)
/* The hardware pass: a grid barrier of our own (a cooperative launch makes every block
 * resident): block leaders count arrivals; the last one resets the count and advances the
 * generation the others wait on. */
__device__ __attribute__((weak)) unsigned int __musa_hw_grid_barrier[2];
static __device__ __forceinline__ void __musa_sim_grid_sync(void) {
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {
    volatile unsigned int *generation = &__musa_hw_grid_barrier[1];
    unsigned int seen = *generation;
    __threadfence();
    unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
    if (atomicAdd(&__musa_hw_grid_barrier[0], 1u) == blocks - 1) {
      atomicExch(&__musa_hw_grid_barrier[0], 0u);
      __threadfence();
      atomicAdd(&__musa_hw_grid_barrier[1], 1u);
    } else {
      while (*generation == seen) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}
#else
extern "C" __device__ void __musa_sim_grid_sync(void);
#endif
namespace cooperative_groups {

#define __MUSA_CG __device__ __forceinline__

namespace details {
__MUSA_CG unsigned blockRank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__MUSA_CG unsigned blockSize() { return blockDim.x * blockDim.y * blockDim.z; }
/// The 32-bit mask of a tile of `size` lanes containing this lane (see musa_device_functions.h
/// for how masks name lanes of 128-lane warps). Tiles wider than 32 lanes use the full mask.
__MUSA_CG unsigned tileMask(unsigned size) {
  if (size >= 32)
    return 0xffffffffu;
  unsigned lane = blockRank() % 32;
  return ((1u << size) - 1u) << (lane / size * size);
}
} // namespace details

class thread_group {
public:
  __MUSA_CG explicit thread_group(unsigned size, unsigned rank) : size_(size), rank_(rank) {}
  __MUSA_CG unsigned size() const { return size_; }
  __MUSA_CG unsigned num_threads() const { return size_; }
  __MUSA_CG unsigned thread_rank() const { return rank_; }
  __MUSA_CG void sync() const {
    if (size_ == details::blockSize())
      __syncthreads();
    else
      __syncwarp(details::tileMask(size_));
  }

protected:
  unsigned size_, rank_;
};

class thread_block : public thread_group {
public:
  __MUSA_CG thread_block() : thread_group(details::blockSize(), details::blockRank()) {}
  __MUSA_CG void sync() const { __syncthreads(); }
  __MUSA_CG dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __MUSA_CG dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __MUSA_CG dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __MUSA_CG dim3 dim_threads() const { return group_dim(); }
};

__MUSA_CG thread_block this_thread_block() { return thread_block(); }
template <class Group> __MUSA_CG void sync(const Group &g) { g.sync(); }

/// A tile of Size consecutive threads of the block (Size a power of two, at most the warp).
template <unsigned Size> class thread_block_tile : public thread_group {
  static_assert(Size > 0 && (Size & (Size - 1)) == 0 && Size <= 128,
                "tile size must be a power of two no larger than a warp");

public:
  __MUSA_CG thread_block_tile() : thread_group(Size, details::blockRank() % Size) {}
  __MUSA_CG static constexpr unsigned size() { return Size; }
  __MUSA_CG static constexpr unsigned num_threads() { return Size; }
  __MUSA_CG unsigned meta_group_rank() const { return details::blockRank() / Size; }
  __MUSA_CG unsigned meta_group_size() const { return (details::blockSize() + Size - 1) / Size; }
  __MUSA_CG void sync() const { __syncwarp(mask()); }
  __MUSA_CG unsigned mask() const { return details::tileMask(Size); }
  template <class T> __MUSA_CG T shfl(T v, int src) const { return __shfl_sync(mask(), v, src, Size); }
  template <class T> __MUSA_CG T shfl_down(T v, unsigned d) const {
    return __shfl_down_sync(mask(), v, d, Size);
  }
  template <class T> __MUSA_CG T shfl_up(T v, unsigned d) const {
    return __shfl_up_sync(mask(), v, d, Size);
  }
  template <class T> __MUSA_CG T shfl_xor(T v, int m) const {
    return __shfl_xor_sync(mask(), v, m, Size);
  }
  __MUSA_CG int any(int p) const { return __any_sync(mask(), p); }
  __MUSA_CG int all(int p) const { return __all_sync(mask(), p); }
  __MUSA_CG unsigned ballot(int p) const { return __ballot_sync(mask(), p) >> (Size >= 32 ? 0 : (details::blockRank() % 32) / Size * Size); }
};

template <unsigned Size, class Parent>
__MUSA_CG thread_block_tile<Size> tiled_partition(const Parent &) {
  return thread_block_tile<Size>();
}

/// Dynamic tiles: `size` consecutive threads (a power of two no larger than the warp).
__MUSA_CG thread_group tiled_partition(const thread_block &, unsigned size) {
  return thread_group(size, details::blockRank() % size);
}

template <class T> struct plus { __MUSA_CG T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __MUSA_CG T operator()(T a, T b) const { return a < b ? a : b; } };
template <class T> struct greater { __MUSA_CG T operator()(T a, T b) const { return a > b ? a : b; } };
template <class T> struct bit_and { __MUSA_CG T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __MUSA_CG T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __MUSA_CG T operator()(T a, T b) const { return a ^ b; } };

/// Butterfly all-reduce over a tile: every thread of the tile gets the result.
template <unsigned Size, class T, class Op>
__MUSA_CG T reduce(const thread_block_tile<Size> &tile, T value, Op op) {
  for (unsigned m = Size / 2; m > 0; m /= 2)
    value = op(value, tile.shfl_xor(value, int(m)));
  return value;
}

/// The whole grid. size() and thread_rank() work in any launch.
class grid_group {
public:
  __MUSA_CG unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * details::blockSize();
  }
  __MUSA_CG unsigned long long num_threads() const { return size(); }
  __MUSA_CG unsigned long long thread_rank() const {
    unsigned long long block = blockIdx.x + (unsigned long long)gridDim.x *
                                                (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    return block * details::blockSize() + details::blockRank();
  }
  __MUSA_CG bool is_valid() const { return true; }
  /// Every thread of the grid meets here; the launch must be musaLaunchCooperativeKernel.
  __MUSA_CG void sync() const { __musa_sim_grid_sync(); }
};
__MUSA_CG grid_group this_grid() { return grid_group(); }

#undef __MUSA_CG
} // namespace cooperative_groups
#endif /* __CUDA__ */

#endif /* __MUSA_COOPERATIVE_GROUPS_H__ */
