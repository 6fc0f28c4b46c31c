/* cooperative_groups.h - thread groups for MUSA kernels: the block, static tiles of up to a
 * warp (with shuffles of any trivially copyable type, votes and matches), dynamic tiles,
 * coalesced groups and their partitions, and the grid (grid.sync() in kernels launched with
 * musaLaunchCooperativeKernel). reduce and the scans are in cooperative_groups/reduce.h and
 * scan.h, included here too. */
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
static __device__ __forceinline__ int __musa_sim_grid_valid(void) { return 1; }
#else
extern "C" __device__ void __musa_sim_grid_sync(void);
/* grid_group::is_valid(): true in a cooperative launch and in any whose grid the device holds
 * at once, as the H200 answers for an ordinary <<<2, 32>>> launch (grid.sync() still needs a
 * cooperative launch: an ordinary one's ends the launch). */
extern "C" __device__ int __musa_sim_grid_valid(void);
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
/// This thread's lane in its 32-lane quarter of the warp (the whole warp on 32-lane warps).
__MUSA_CG unsigned quarterLane() { return blockRank() % 32; }

/* Warp operation codes of __musa_sim_warp (musa_sim_collective_ops.h). */
enum : unsigned {
  OpSync = __MUSA_SIM_WARP_SYNC, OpShflIdx = __MUSA_SIM_WARP_SHFL_IDX,
  OpShflUp = __MUSA_SIM_WARP_SHFL_UP, OpShflDown = __MUSA_SIM_WARP_SHFL_DOWN,
  OpShflXor = __MUSA_SIM_WARP_SHFL_XOR, OpBallot = __MUSA_SIM_WARP_BALLOT,
  OpAny = __MUSA_SIM_WARP_ANY, OpAll = __MUSA_SIM_WARP_ALL,
  OpMatchAny = __MUSA_SIM_WARP_MATCH_ANY, OpMatchAll = __MUSA_SIM_WARP_MATCH_ALL,
  OpConverge = __MUSA_SIM_WARP_CONVERGE,
  /* The mask names lanes of the caller's quarter only: coalesced groups. */
  QuarterLocal = __MUSA_SIM_WARP_QUARTER_LOCAL
};

/// A warp exchange of any trivially copyable type: values wider than 64 bits travel as
/// 64-bit words, one exchange each (a struct, double2, ...). Values come by reference: lanes
/// may pass one they never set (the warp-aggregated atomic's `int prev;`), which a by-value
/// parameter would make undefined behaviour (clang 19 misplaces maybe_undef on members).
template <class T>
__MUSA_CG T exchange(unsigned op, unsigned mask, const T &value, int arg, int width) {
  constexpr unsigned words = (sizeof(T) + 7) / 8;
  unsigned long long in[words] = {}, out[words];
  __builtin_memcpy(in, &value, sizeof(T));
  for (unsigned i = 0; i < words; ++i)
    out[i] = __musa_sim_warp(op, mask, in[i], arg, width);
  T result;
  __builtin_memcpy(&result, out, sizeof(T));
  return result;
}

/// The bits of `lanes` (lanes of a quarter) renumbered by rank in `group` (a lane mask).
__MUSA_CG unsigned packLanes(unsigned group, unsigned lanes) {
  unsigned packed = 0, rank = 0;
  for (unsigned m = group; m; m &= m - 1, ++rank)
    if (lanes & m & (~m + 1))
      packed |= 1u << rank;
  return packed;
}
/// The lane of the `rank`-th set bit of `group`, or 32 if there is none.
__MUSA_CG unsigned laneOfRank(unsigned group, unsigned rank) {
  for (unsigned m = group; m; m &= m - 1, --rank)
    if (rank == 0)
      return unsigned(__builtin_ctz(m));
  return 32;
}
} // namespace details

/// Any group. Blocks and tiles are consecutive threads; a coalesced group (coalesced_threads,
/// labeled_partition, ...) is a set of lanes of one 32-lane quarter, named by `lanes_`.
class thread_group {
public:
  __MUSA_CG explicit thread_group(unsigned size, unsigned rank, unsigned lanes = 0,
                                  unsigned metaRank = 0, unsigned metaSize = 1)
      : size_(size), rank_(rank), lanes_(lanes), metaRank_(metaRank), metaSize_(metaSize) {}
  __MUSA_CG unsigned size() const { return size_; }
  __MUSA_CG unsigned num_threads() const { return size_; }
  __MUSA_CG unsigned thread_rank() const { return rank_; }
  __MUSA_CG bool is_valid() const { return size_ != 0; }
  __MUSA_CG void sync() const {
    if (lanes_)
      __musa_sim_warp(details::OpSync | details::QuarterLocal, lanes_, 0, 0, 0);
    else if (size_ == details::blockSize())
      __syncthreads();
    else
      __syncwarp(details::tileMask(size_));
  }

protected:
  unsigned size_, rank_;
  unsigned lanes_;              // coalesced groups: the quarter's lanes in the group; else 0
  unsigned metaRank_, metaSize_; // coalesced groups: place among their parent's partitions
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

/// Scratch the hardware needs for tiles wider than 32 threads. Accepts CUDA 12's
/// block_tile_memory<MaxBlockSize> and CUDA 11's block_tile_memory<CommunicationSize,
/// MaxBlockSize>; this simulator's tiles use the warp exchange and leave it unused.
template <unsigned First = 1024, unsigned Second = 0> struct block_tile_memory {
  static constexpr unsigned max_block_size = Second ? Second : First;
  static_assert(max_block_size > 0 && max_block_size <= 1024, "block size out of range");
  char scratch_[8];
};

__MUSA_CG thread_block this_thread_block() { return thread_block(); }
template <unsigned First, unsigned Second>
__MUSA_CG thread_block this_thread_block(block_tile_memory<First, Second> &) {
  return thread_block();
}
template <class Group> __MUSA_CG void sync(const Group &g) { g.sync(); }

/// Active threads of a warp quarter that reached the same point together (coalesced_threads())
/// or a partition of them. Collectives take the group's lanes only; ranks count set bits.
class coalesced_group : public thread_group {
public:
  __MUSA_CG explicit coalesced_group(unsigned lanes, unsigned metaRank = 0, unsigned metaSize = 1)
      : thread_group(unsigned(__builtin_popcount(lanes)),
                     unsigned(__builtin_popcount(lanes & ((1u << details::quarterLane()) - 1u))),
                     lanes, metaRank, metaSize) {}
  __MUSA_CG unsigned meta_group_rank() const { return metaRank_; }
  __MUSA_CG unsigned meta_group_size() const { return metaSize_; }
  /// The group's lanes in the caller's 32-lane quarter (the hardware's active mask).
  __MUSA_CG unsigned get_mask() const { return lanes_; }
  __MUSA_CG void sync() const { thread_group::sync(); }
  template <class T> __MUSA_CG T shfl(const T &v, unsigned rank) const {
    return fromLane(v, details::laneOfRank(lanes_, rank % size_));
  }
  template <class T> __MUSA_CG T shfl_down(const T &v, unsigned delta) const {
    return fromLane(v, rank_ + delta < size_ ? details::laneOfRank(lanes_, rank_ + delta)
                                             : details::quarterLane());
  }
  template <class T> __MUSA_CG T shfl_up(const T &v, unsigned delta) const {
    return fromLane(v, rank_ >= delta ? details::laneOfRank(lanes_, rank_ - delta)
                                      : details::quarterLane());
  }
  __MUSA_CG int any(int p) const { return int(vote(details::OpAny, p != 0)); }
  __MUSA_CG int all(int p) const { return int(vote(details::OpAll, p != 0)); }
  /// Bit r set when the predicate holds for the thread of rank r.
  __MUSA_CG unsigned ballot(int p) const {
    return details::packLanes(lanes_, unsigned(vote(details::OpBallot, p != 0)));
  }
  template <class T> __MUSA_CG unsigned match_any(T v) const {
    return details::packLanes(lanes_, unsigned(vote(details::OpMatchAny, __musa_bits(v))));
  }
  template <class T> __MUSA_CG unsigned match_all(const T &v, int &pred) const {
    unsigned lanes = unsigned(vote(details::OpMatchAll, __musa_bits(v)));
    pred = lanes != 0;
    return details::packLanes(lanes_, lanes);
  }

private:
  template <class T> __MUSA_CG T fromLane(const T &v, unsigned lane) const {
    return details::exchange(details::OpShflIdx | details::QuarterLocal, lanes_, v, int(lane), 32);
  }
  __MUSA_CG unsigned long long vote(unsigned op, unsigned long long value) const {
    return __musa_sim_warp(op | details::QuarterLocal, lanes_, value, 0, 0);
  }
};

/// The threads of the caller's warp quarter that are active here, together.
__MUSA_CG coalesced_group coalesced_threads() {
  return coalesced_group(unsigned(__musa_sim_warp(details::OpConverge, 0xffffffffu, 0, 0, 0)));
}

/// A tile of Size consecutive threads of the block (Size a power of two, at most the warp).
/// thread_block_tile<Size, Parent> (what tiled_partition<Size>(parent) returns) is one too.
template <unsigned Size, class Parent = void> class thread_block_tile;

template <unsigned Size> class thread_block_tile<Size, void> : public thread_group {
  static_assert(Size > 0 && (Size & (Size - 1)) == 0 && Size <= 1024,
                "tile size must be a power of two no larger than 1024");

public:
  __MUSA_CG thread_block_tile() : thread_group(Size, details::blockRank() % Size) {
    if (Size > 32 && Size > unsigned(warpSize)) { // CUDA 12 allows them; not simulated yet
      printf("cooperative_groups: tiled_partition<%u> spans more than one %d-lane warp; the "
             "simulator supports static tiles of at most a warp\n", Size, warpSize);
      __trap();
    }
  }
  __MUSA_CG static constexpr unsigned size() { return Size; }
  __MUSA_CG static constexpr unsigned num_threads() { return Size; }
  __MUSA_CG unsigned meta_group_rank() const { return details::blockRank() / Size; }
  __MUSA_CG unsigned meta_group_size() const { return (details::blockSize() + Size - 1) / Size; }
  __MUSA_CG void sync() const { __syncwarp(mask()); }
  __MUSA_CG unsigned mask() const { return details::tileMask(Size); }
  template <class T> __MUSA_CG T shfl(const T &v, int src) const {
    return details::exchange(details::OpShflIdx, mask(), v, src, int(Size));
  }
  template <class T> __MUSA_CG T shfl_down(const T &v, unsigned d) const {
    return details::exchange(details::OpShflDown, mask(), v, int(d), int(Size));
  }
  template <class T> __MUSA_CG T shfl_up(const T &v, unsigned d) const {
    return details::exchange(details::OpShflUp, mask(), v, int(d), int(Size));
  }
  template <class T> __MUSA_CG T shfl_xor(const T &v, int m) const {
    return details::exchange(details::OpShflXor, mask(), v, m, int(Size));
  }
  __MUSA_CG int any(int p) const { return __any_sync(mask(), p); }
  __MUSA_CG int all(int p) const { return __all_sync(mask(), p); }
  __MUSA_CG unsigned ballot(int p) const { return __ballot_sync(mask(), p) >> shift(); }
  template <class T> __MUSA_CG unsigned match_any(T v) const {
    return __match_any_sync(mask(), v) >> shift();
  }
  template <class T> __MUSA_CG unsigned match_all(const T &v, int &pred) const {
    return __match_all_sync(mask(), v, &pred) >> shift();
  }

private:
  /// Where the tile's lanes start in the caller's quarter (mask-valued results count from it).
  __MUSA_CG unsigned shift() const { return Size >= 32 ? 0 : details::quarterLane() / Size * Size; }
};

template <unsigned Size, class Parent>
class thread_block_tile : public thread_block_tile<Size, void> {};
/// A tile of a tile: its place among the tiles its parent tile was cut into.
template <unsigned Size, unsigned ParentSize, class Grandparent>
class thread_block_tile<Size, thread_block_tile<ParentSize, Grandparent>>
    : public thread_block_tile<Size, void> {
  static_assert(Size <= ParentSize, "a tile cannot be larger than the tile it partitions");

public:
  __MUSA_CG unsigned meta_group_rank() const {
    return details::blockRank() % ParentSize / Size;
  }
  __MUSA_CG unsigned meta_group_size() const { return ParentSize / Size; }
};

template <unsigned Size, class Parent>
__MUSA_CG thread_block_tile<Size, Parent> tiled_partition(const Parent &) {
  return thread_block_tile<Size, Parent>();
}

/// Dynamic tiles: `size` consecutive threads (a power of two no larger than the warp) of a
/// block or tile.
__MUSA_CG thread_group tiled_partition(const thread_group &parent, unsigned size) {
  return thread_group(size, parent.thread_rank() % size);
}
__MUSA_CG thread_group tiled_partition(const thread_block &parent, unsigned size) {
  return thread_group(size, parent.thread_rank() % size);
}
/// A coalesced group in tiles of `size` threads by rank (the last one may be smaller).
__MUSA_CG coalesced_group tiled_partition(const coalesced_group &parent, unsigned size) {
  unsigned first = parent.thread_rank() / size * size, lanes = 0;
  for (unsigned r = first; r < first + size && r < parent.size(); ++r)
    lanes |= 1u << details::laneOfRank(parent.get_mask(), r);
  return coalesced_group(lanes, parent.thread_rank() / size,
                         (parent.size() + size - 1) / size);
}

/// The threads of `group` with the same label, as a coalesced group.
__MUSA_CG coalesced_group labeled_partition(const coalesced_group &group, int label) {
  return coalesced_group(unsigned(__musa_sim_warp(details::OpMatchAny | details::QuarterLocal,
                                                  group.get_mask(), unsigned(label), 0, 0)));
}
template <unsigned Size, class Parent>
__MUSA_CG coalesced_group labeled_partition(const thread_block_tile<Size, Parent> &tile,
                                            int label) {
  static_assert(Size <= 32, "labeled_partition takes tiles of at most 32 threads");
  return coalesced_group(unsigned(__musa_sim_warp(details::OpMatchAny | details::QuarterLocal,
                                                  tile.mask(), unsigned(label), 0, 0)));
}
/// Two coalesced groups: the threads whose predicate holds, and the others.
__MUSA_CG coalesced_group binary_partition(const coalesced_group &group, bool pred) {
  return labeled_partition(group, int(pred));
}
template <unsigned Size, class Parent>
__MUSA_CG coalesced_group binary_partition(const thread_block_tile<Size, Parent> &tile, bool pred) {
  return labeled_partition(tile, int(pred));
}

/// Calls `fn(args...)` on one thread of a tile or coalesced group (the one of rank 0).
template <class Group, class Fn, class... Args>
__MUSA_CG void invoke_one(const Group &group, Fn &&fn, Args &&...args) {
  if (group.thread_rank() == 0)
    fn(static_cast<Args &&>(args)...);
}
/// As invoke_one, and every thread of the group gets what the call returned.
template <class Group, class Fn, class... Args>
__MUSA_CG auto invoke_one_broadcast(const Group &group, Fn &&fn, Args &&...args)
    -> decltype(fn(static_cast<Args &&>(args)...)) {
  decltype(fn(static_cast<Args &&>(args)...)) result{};
  if (group.thread_rank() == 0)
    result = fn(static_cast<Args &&>(args)...);
  return group.shfl(result, 0);
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
  __MUSA_CG unsigned long long num_blocks() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
  }
  __MUSA_CG unsigned long long block_rank() const {
    return blockIdx.x + (unsigned long long)gridDim.x *
                            (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  }
  __MUSA_CG dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __MUSA_CG dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  /// Whether the grid can synchronise: only in a cooperative launch, as in CUDA.
  __MUSA_CG bool is_valid() const { return __musa_sim_grid_valid() != 0; }
  /// Every thread of the grid meets here; the launch must be musaLaunchCooperativeKernel.
  __MUSA_CG void sync() const { __musa_sim_grid_sync(); }
};
__MUSA_CG grid_group this_grid() { return grid_group(); }

#undef __MUSA_CG
} // namespace cooperative_groups
#endif /* __CUDA__ */

#include "cooperative_groups/reduce.h"
#include "cooperative_groups/scan.h"
#include "cooperative_groups/memcpy_async.h"

#endif /* __MUSA_COOPERATIVE_GROUPS_H__ */
