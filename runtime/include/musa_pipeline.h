/* musa_pipeline.h - the asynchronous-copy primitives (musa_pipeline_primitives.h) and the
 * C++ form of CUDA's cuda_pipeline.h: a per-thread pipeline object with memcpy_async of one
 * object or one array, commit, wait_prior<N> and commit_and_wait. Copies complete when they
 * are issued (see musa_pipeline_primitives.h). */
#ifndef __MUSA_PIPELINE_H__
#define __MUSA_PIPELINE_H__

#include "musa_pipeline_primitives.h"

#if defined(__CUDA__) && defined(__cplusplus)
namespace nvcuda {
namespace experimental {

class pipeline {
public:
  __device__ pipeline() {}
  __device__ void commit() { __pipeline_commit(); }
  __device__ void commit_and_wait() {
    __pipeline_commit();
    __pipeline_wait_prior(0);
  }
  __device__ void wait_prior(size_t prior) { __pipeline_wait_prior(prior); }
  template <size_t N> __device__ void wait_prior() { __pipeline_wait_prior(N); }
  pipeline(const pipeline &) = delete;
  pipeline &operator=(const pipeline &) = delete;
};

/* One object of 4, 8 or 16 bytes. */
template <class T> __device__ void memcpy_async(T &dst, const T &src, pipeline &) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "memcpy_async copies objects of 4, 8 or 16 bytes");
  __pipeline_memcpy_async(&dst, &src, sizeof(T));
}

/* An array: the first SrcN elements of src into dst, zero-filling dst's remaining elements. */
template <class T, size_t DstN, size_t SrcN>
__device__ void memcpy_async(T (*dst)[DstN], const T (*src)[SrcN], pipeline &) {
  static_assert(DstN >= SrcN, "memcpy_async: the destination array is smaller than the source");
  static_assert(sizeof(T[DstN]) == 4 || sizeof(T[DstN]) == 8 || sizeof(T[DstN]) == 16,
                "memcpy_async copies arrays of 4, 8 or 16 bytes");
  __pipeline_memcpy_async(dst, src, sizeof(T[DstN]), sizeof(T[DstN]) - sizeof(T[SrcN]));
}

} // namespace experimental
} // namespace nvcuda
#endif /* __CUDA__ && __cplusplus */

#endif /* __MUSA_PIPELINE_H__ */
