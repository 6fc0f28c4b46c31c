/* musa_pipeline_primitives.h - the per-thread asynchronous-copy primitives (CUDA's
 * cuda_pipeline_primitives.h): __pipeline_memcpy_async, __pipeline_commit and
 * __pipeline_wait_prior, as double-buffered kernels use them to stage global memory in
 * shared memory.
 *
 * On the GPU a thread's copies complete in the background and are only guaranteed to have
 * landed after it waits on the batch they were committed in; another thread sees them after
 * its own wait and a barrier. The simulator performs each copy when it is issued, so every
 * wait finds its batches complete: an ordering the GPU also allows. The checks the GPU leaves
 * undefined are enforced: the size must be 4, 8 or 16 bytes, both addresses aligned to it,
 * and the zero-fill at most the size (a violation traps, which the runtime reports as a
 * fault of the kernel). */
#ifndef __MUSA_PIPELINE_PRIMITIVES_H__
#define __MUSA_PIPELINE_PRIMITIVES_H__

#include "musa_vector_types.h"

#if defined(__CUDA__)
#include <stddef.h>

/* Copies size_and_align - zfill bytes from src_global to dst_shared and writes zfill zero
 * bytes after them. */
static __device__ __forceinline__ void __pipeline_memcpy_async(void *dst_shared,
                                                               const void *src_global,
                                                               size_t size_and_align,
                                                               size_t zfill = 0) {
  unsigned long long d = (unsigned long long)dst_shared, s = (unsigned long long)src_global;
  if ((size_and_align != 4 && size_and_align != 8 && size_and_align != 16) ||
      zfill > size_and_align || ((d | s) & (size_and_align - 1)) != 0)
    __builtin_trap();
  if (zfill == 0) {
    if (size_and_align == 16)
      *(uint4 *)dst_shared = *(const uint4 *)src_global;
    else if (size_and_align == 8)
      *(uint2 *)dst_shared = *(const uint2 *)src_global;
    else
      *(unsigned *)dst_shared = *(const unsigned *)src_global;
    return;
  }
  char *out = (char *)dst_shared;
  const char *in = (const char *)src_global;
  size_t copied = size_and_align - zfill;
  for (size_t i = 0; i < copied; ++i)
    out[i] = in[i];
  for (size_t i = copied; i < size_and_align; ++i)
    out[i] = 0;
}

/* Closes the current batch of this thread's copies. */
static __device__ __forceinline__ void __pipeline_commit() {}

/* Waits until at most `prior` of this thread's committed batches are still in flight. */
static __device__ __forceinline__ void __pipeline_wait_prior(size_t prior) { (void)prior; }

#endif /* __CUDA__ */
#endif /* __MUSA_PIPELINE_PRIMITIVES_H__ */
