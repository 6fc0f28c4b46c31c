/* cooperative_groups/scan.h - inclusive_scan and exclusive_scan over a tile or a coalesced
 * group (cg::plus<T> unless another associative operation is given). */
/* The main header first: it includes this one once its groups are defined. */
#include "../cooperative_groups.h"

#ifndef __MUSA_COOPERATIVE_GROUPS_SCAN_H__
#define __MUSA_COOPERATIVE_GROUPS_SCAN_H__

#if defined(__CUDA__)
namespace cooperative_groups {

#define __MUSA_CG __device__ __forceinline__

/// Thread r gets op(v_0, ..., v_r) (Hillis-Steele over the group's ranks).
template <class Group, class T, class Op>
__MUSA_CG T inclusive_scan(const Group &group, T value, Op op) {
  const unsigned rank = group.thread_rank(), size = group.size();
  for (unsigned d = 1; d < size; d *= 2) {
    T before = group.shfl_up(value, d);
    if (rank >= d)
      value = op(before, value);
  }
  return value;
}
template <class Group, class T> __MUSA_CG T inclusive_scan(const Group &group, T value) {
  return inclusive_scan(group, value, plus<T>());
}

/// Thread r gets op(v_0, ..., v_{r-1}); thread 0 gets T() (CUDA leaves it unspecified for
/// operations other than plus, whose identity T() is).
template <class Group, class T, class Op>
__MUSA_CG T exclusive_scan(const Group &group, T value, Op op) {
  T inclusive = inclusive_scan(group, value, op);
  T before = group.shfl_up(inclusive, 1);
  return group.thread_rank() == 0 ? T() : before;
}
template <class Group, class T> __MUSA_CG T exclusive_scan(const Group &group, T value) {
  return exclusive_scan(group, value, plus<T>());
}

#undef __MUSA_CG
} // namespace cooperative_groups
#endif /* __CUDA__ */

#endif /* __MUSA_COOPERATIVE_GROUPS_SCAN_H__ */
