/* musa_vector_types.h - vector types (int2, float4, ...), dim3 and the make_* helpers.
 * Alignments follow CUDA's so structures shared between host and device code agree. */
#ifndef __VECTOR_TYPES_H__
#define __VECTOR_TYPES_H__

#include "musa_device_prelude.h"

/* One family: T1..T4 with CUDA's alignments (A2, A4; 1- and 3-element types align as T). */
#define __MUSA_VECTOR_FAMILY(name, T, A2, A4)                                                  \
  typedef struct name##1 { T x; } name##1;                                                   \
  typedef struct __align__(A2) name##2 { T x, y; } name##2;                                  \
  typedef struct name##3 { T x, y, z; } name##3;                                             \
  typedef struct __align__(A4) name##4 { T x, y, z, w; } name##4;                            \
  static __inline__ __host__ __device__ name##1 make_##name##1(T x) {                        \
    name##1 v = {x};                                                                         \
    return v;                                                                                \
  }                                                                                          \
  static __inline__ __host__ __device__ name##2 make_##name##2(T x, T y) {                   \
    name##2 v = {x, y};                                                                      \
    return v;                                                                                \
  }                                                                                          \
  static __inline__ __host__ __device__ name##3 make_##name##3(T x, T y, T z) {              \
    name##3 v = {x, y, z};                                                                   \
    return v;                                                                                \
  }                                                                                          \
  static __inline__ __host__ __device__ name##4 make_##name##4(T x, T y, T z, T w) {         \
    name##4 v = {x, y, z, w};                                                                \
    return v;                                                                                \
  }

__MUSA_VECTOR_FAMILY(char, signed char, 2, 4)
__MUSA_VECTOR_FAMILY(uchar, unsigned char, 2, 4)
__MUSA_VECTOR_FAMILY(short, short, 4, 8)
__MUSA_VECTOR_FAMILY(ushort, unsigned short, 4, 8)
__MUSA_VECTOR_FAMILY(int, int, 8, 16)
__MUSA_VECTOR_FAMILY(uint, unsigned int, 8, 16)
__MUSA_VECTOR_FAMILY(long, long, 16, 16)
__MUSA_VECTOR_FAMILY(ulong, unsigned long, 16, 16)
__MUSA_VECTOR_FAMILY(longlong, long long, 16, 16)
__MUSA_VECTOR_FAMILY(ulonglong, unsigned long long, 16, 16)
__MUSA_VECTOR_FAMILY(float, float, 8, 16)
__MUSA_VECTOR_FAMILY(double, double, 16, 16)
#undef __MUSA_VECTOR_FAMILY

#ifdef __cplusplus
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
#else
typedef struct dim3 { unsigned int x, y, z; } dim3;
#endif

#endif /* __VECTOR_TYPES_H__ */
