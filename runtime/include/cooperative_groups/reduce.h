/* cooperative_groups/reduce.h - cg::reduce over a tile or a coalesced group, and the function
 * objects it takes (plus, less, greater, bit_and, bit_or, bit_xor). Every thread of the group
 * gets the result. */
/* The main header first: it includes this one once its groups are defined. */
#include "../cooperative_groups.h"

#ifndef __MUSA_COOPERATIVE_GROUPS_REDUCE_H__
#define __MUSA_COOPERATIVE_GROUPS_REDUCE_H__

#if defined(__CUDA__)
namespace cooperative_groups {

#define __MUSA_CG __device__ __forceinline__

template <class T> struct plus { __MUSA_CG T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { __MUSA_CG T operator()(T a, T b) const { return a < b ? a : b; } };
template <class T> struct greater { __MUSA_CG T operator()(T a, T b) const { return a > b ? a : b; } };
template <class T> struct bit_and { __MUSA_CG T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { __MUSA_CG T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { __MUSA_CG T operator()(T a, T b) const { return a ^ b; } };

/// A tile: a butterfly, after which every thread holds the whole tile's result.
template <unsigned Size, class Parent, class T, class Op>
__MUSA_CG T reduce(const thread_block_tile<Size, Parent> &tile, T value, Op op) {
  for (unsigned m = Size / 2; m > 0; m /= 2)
    value = op(value, tile.shfl_xor(value, int(m)));
  return value;
}

/// A coalesced group (any size): a tree towards rank 0, which then broadcasts. The operands
/// keep rank order, so an associative `op` need not commute.
template <class T, class Op>
__MUSA_CG T reduce(const coalesced_group &group, T value, Op op) {
  const unsigned rank = group.thread_rank(), size = group.size();
  for (unsigned d = 1; d < size; d *= 2) {
    T other = group.shfl_down(value, d);
    if (rank % (2 * d) == 0 && rank + d < size)
      value = op(value, other);
  }
  return group.shfl(value, 0);
}

#undef __MUSA_CG
} // namespace cooperative_groups
#endif /* __CUDA__ */

#endif /* __MUSA_COOPERATIVE_GROUPS_REDUCE_H__ */
