/* cooperative_groups/memcpy_async.h - cg::memcpy_async, cg::wait and cg::wait_prior: a group
 * copies bytes from global to shared memory (or any two addresses) collectively. The threads
 * of the group share the copy (each a slice, in 4-byte words where the addresses allow); the
 * data is only guaranteed to be there after cg::wait(group) or cg::wait_prior<N>(group),
 * which synchronise the group, as on the GPU. Nothing is asynchronous in the simulator, so
 * wait_prior<N> waits for everything, which is allowed. */
#include "../cooperative_groups.h"

#ifndef __MUSA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H__
#define __MUSA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H__

#include <stddef.h>

#if defined(__CUDA__)
namespace cuda {
/* cuda::aligned_size_t<N>(bytes): a size that promises N-byte alignment. */
template <size_t Align> struct aligned_size_t {
  size_t value;
  __host__ __device__ constexpr explicit aligned_size_t(size_t size) : value(size) {}
  __host__ __device__ constexpr operator size_t() const { return value; }
};
} // namespace cuda

namespace cooperative_groups {

#define __MUSA_CG __device__ __forceinline__

template <class Group>
__MUSA_CG void __musa_copy_slices(const Group &group, void *dst, const void *src, size_t bytes) {
  unsigned rank = group.thread_rank(), size = group.size();
  char *d = (char *)dst;
  const char *s = (const char *)src;
  if ((((unsigned long long)d | (unsigned long long)s) & 3) == 0) {
    size_t words = bytes / 4;
    for (size_t i = rank; i < words; i += size)
      ((unsigned *)d)[i] = ((const unsigned *)s)[i];
    for (size_t i = words * 4 + rank; i < bytes; i += size)
      d[i] = s[i];
  } else {
    for (size_t i = rank; i < bytes; i += size)
      d[i] = s[i];
  }
}

template <class Group, class T>
__MUSA_CG void memcpy_async(const Group &group, T *dst, const T *src, size_t bytes) {
  __musa_copy_slices(group, dst, src, bytes);
}
template <class Group, class T, size_t Align>
__MUSA_CG void memcpy_async(const Group &group, T *dst, const T *src,
                            cuda::aligned_size_t<Align> bytes) {
  __musa_copy_slices(group, dst, src, size_t(bytes));
}
/* The element-count form: dst has dstCount elements, src srcCount; copies srcCount. */
template <class Group, class T>
__MUSA_CG void memcpy_async(const Group &group, T *dst, size_t dstCount, const T *src,
                            size_t srcCount) {
  __musa_copy_slices(group, dst, src, (srcCount < dstCount ? srcCount : dstCount) * sizeof(T));
}

template <class Group> __MUSA_CG void wait(const Group &group) { group.sync(); }
template <unsigned N, class Group> __MUSA_CG void wait_prior(const Group &group) { group.sync(); }

#undef __MUSA_CG
} // namespace cooperative_groups
#endif /* __CUDA__ */

#endif /* __MUSA_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H__ */
