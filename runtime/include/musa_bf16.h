/* musa_bf16.h - bfloat16 (__mt_bfloat16, __mt_bfloat162; the CUDA spellings __nv_bfloat16 and
 * __nv_bfloat162 are aliases) with the same operations as __half. Conversion from float rounds
 * to nearest-even on the bit pattern; NaNs stay NaNs. */
#ifndef __MUSA_BF16_H__
#define __MUSA_BF16_H__

#include "musa_fp16.h"

/* Nearest-even rounding of a float's bits to bfloat16's; NaNs stay NaNs (made quiet). */
__MUSA_HD unsigned short __musa_bf16_bits(float f) {
  unsigned int bits = __builtin_bit_cast(unsigned int, f);
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    return (unsigned short)((bits >> 16) | 0x40);
  return (unsigned short)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}
/* A double rounded once to bfloat16. In simulated device code, one narrowing (the simulator's
 * __truncdfbf2 does it, and the timing model sees one conversion); elsewhere rounded to odd
 * into a float (exact or with an odd last bit, which keeps the sticky information), then to
 * nearest-even, which is the correct rounding since float has more than 8 + 2 bits. */
__MUSA_HD unsigned short __musa_bf16_bits_of_double(double d) {
#if defined(__CUDA_ARCH__)
  return __builtin_bit_cast(unsigned short, (__bf16)d);
#else
  float f = (float)d;
  unsigned int bits = __builtin_bit_cast(unsigned int, f);
  if (d == d && (double)f != d && !(bits & 1u))
    bits += __builtin_fabs((double)f) > __builtin_fabs(d) ? -1 : 1;
  return __musa_bf16_bits(__builtin_bit_cast(float, bits));
#endif
}

/* The raw bit patterns (`__nv_bfloat16_raw`). */
typedef struct __mt_bfloat16_raw {
  unsigned short x;
} __mt_bfloat16_raw;
typedef struct __mt_bfloat162_raw {
  unsigned short x, y;
} __mt_bfloat162_raw;

struct __mt_bfloat16 {
  unsigned short __x;
#ifdef __cplusplus
  __mt_bfloat16() = default;
  __host__ __device__ __mt_bfloat16(float f) : __x(__musa_bf16_bits(f)) {}
  __host__ __device__ __mt_bfloat16(double d) : __x(__musa_bf16_bits_of_double(d)) {}
  /* Integers round once (musa_fp16.h's __musa_int_to_float_odd), short ones are exact. */
  __host__ __device__ __mt_bfloat16(short i) : __mt_bfloat16((float)i) {}
  __host__ __device__ __mt_bfloat16(unsigned short i) : __mt_bfloat16((float)i) {}
  __host__ __device__ __mt_bfloat16(int i) : __mt_bfloat16(__MUSA_INT_ODD(i)) {}
  __host__ __device__ __mt_bfloat16(unsigned int i) : __mt_bfloat16(__MUSA_INT_ODD(i)) {}
  __host__ __device__ __mt_bfloat16(long i) : __mt_bfloat16(__MUSA_INT_ODD(i)) {}
  __host__ __device__ __mt_bfloat16(unsigned long i) : __mt_bfloat16(__MUSA_INT_ODD(i)) {}
  __host__ __device__ __mt_bfloat16(long long i) : __mt_bfloat16(__MUSA_INT_ODD(i)) {}
  __host__ __device__ __mt_bfloat16(unsigned long long i) : __mt_bfloat16(__MUSA_INT_ODD(i)) {}
  __host__ __device__ __mt_bfloat16(const __mt_bfloat16_raw &r) : __x(r.x) {}
  __host__ __device__ __mt_bfloat16 &operator=(const __mt_bfloat16_raw &r) {
    __x = r.x;
    return *this;
  }
  __host__ __device__ operator __mt_bfloat16_raw() const {
    __mt_bfloat16_raw r;
    r.x = __x;
    return r;
  }
  __host__ __device__ operator float() const {
    return __builtin_bit_cast(float, (unsigned int)__x << 16);
  }
#endif
};
struct __align__(4) __mt_bfloat162 {
  struct __mt_bfloat16 x, y;
#ifdef __cplusplus
  __mt_bfloat162() = default;
  __host__ __device__ __mt_bfloat162(__mt_bfloat16 a, __mt_bfloat16 b) : x(a), y(b) {}
  __host__ __device__ __mt_bfloat162(const __mt_bfloat162_raw &r)
      : x(__mt_bfloat16_raw{r.x}), y(__mt_bfloat16_raw{r.y}) {}
  __host__ __device__ operator __mt_bfloat162_raw() const {
    __mt_bfloat162_raw r;
    r.x = x.__x, r.y = y.__x;
    return r;
  }
#endif
};
typedef struct __mt_bfloat16 __nv_bfloat16;
typedef struct __mt_bfloat162 __nv_bfloat162;
typedef struct __mt_bfloat16_raw __nv_bfloat16_raw;
typedef struct __mt_bfloat162_raw __nv_bfloat162_raw;
typedef struct __mt_bfloat16 mt_bfloat16;
typedef struct __mt_bfloat162 mt_bfloat162;
typedef struct __mt_bfloat16 nv_bfloat16;
typedef struct __mt_bfloat162 nv_bfloat162;

__MUSA_HD float __musa_bf16_to_float(struct __mt_bfloat16 b) {
  return __builtin_bit_cast(float, (unsigned int)b.__x << 16);
}
__MUSA_HD struct __mt_bfloat16 __musa_bf16_from_float(float f) {
  return __builtin_bit_cast(struct __mt_bfloat16, __musa_bf16_bits(f));
}
__MUSA_HD struct __mt_bfloat16 __musa_bf16_from_double(double d) {
  return __builtin_bit_cast(struct __mt_bfloat16, __musa_bf16_bits_of_double(d));
}
#define __MUSA_BF16_TO_FLOAT(b) __musa_bf16_to_float(b)
#define __MUSA_BF16_FROM_FLOAT(f) __musa_bf16_from_float(f)
#define __MUSA_BF16_FROM_DOUBLE(d) __musa_bf16_from_double(d)
/* The shared operations (second instance: the half-specific pairs such as __low2float are
 * overloads on the bfloat16 types). */
__MUSA_LOW_PRECISION(__mt_bfloat16, __mt_bfloat162, bfloat16, __MUSA_BF16_TO_FLOAT,
                     __MUSA_BF16_FROM_FLOAT, __MUSA_BF16_FROM_DOUBLE)
#ifdef __cplusplus
__MUSA_LOW_PRECISION_MORE(__mt_bfloat16, __mt_bfloat162, bfloat16, __MUSA_BF16_TO_FLOAT,
                          __MUSA_BF16_FROM_FLOAT)
__MUSA_LOW_PRECISION_OPERATORS(__mt_bfloat16, __mt_bfloat162)
#endif
__MUSA_HD __mt_bfloat162 make_bfloat162(__mt_bfloat16 x, __mt_bfloat16 y) {
  __mt_bfloat162 r = {x, y};
  return r;
}
#ifdef __cplusplus
__MUSA_ATOMIC_ADD_16_SCOPES(__mt_bfloat16, __mt_bfloat162, __bf16)
#endif
__MUSA_HD short __bfloat16_as_short(struct __mt_bfloat16 h) { return (short)h.__x; }
__MUSA_HD unsigned short __bfloat16_as_ushort(struct __mt_bfloat16 h) { return h.__x; }
__MUSA_HD struct __mt_bfloat16 __short_as_bfloat16(short s) {
  return __builtin_bit_cast(struct __mt_bfloat16, s);
}
__MUSA_HD struct __mt_bfloat16 __ushort_as_bfloat16(unsigned short s) {
  return __builtin_bit_cast(struct __mt_bfloat16, s);
}

#endif /* __MUSA_BF16_H__ */
