/* musa_fp16.h - __half and __half2 (IEEE binary16) with arithmetic, comparisons, conversions
 * and the h* intrinsics, on host and device.
 *
 * Arithmetic converts to float, computes and rounds back to nearest-even: for +, -, *, / and
 * sqrt that gives the correctly rounded binary16 result (float has more than 2p+2 bits), i.e.
 * what the hardware's half instructions return. */
#ifndef __MUSA_FP16_H__
#define __MUSA_FP16_H__

#include "musa_device_prelude.h"
#include "musa_vector_types.h"

#define __MUSA_HD static __inline__ __host__ __device__ __attribute__((always_inline))

struct __half {
  unsigned short __x;
#ifdef __cplusplus
  __half() = default;
  __host__ __device__ __half(float f) : __x(__builtin_bit_cast(unsigned short, (_Float16)f)) {}
  __host__ __device__ __half(double d) : __x(__builtin_bit_cast(unsigned short, (_Float16)d)) {}
  __host__ __device__ __half(int i) : __half((float)i) {}
  __host__ __device__ __half(unsigned int i) : __half((float)i) {}
  __host__ __device__ operator float() const {
    return (float)__builtin_bit_cast(_Float16, __x);
  }
#endif
};
typedef struct __half half;
struct __align__(4) __half2 {
  __half x, y;
};
typedef struct __half2 half2;

/* __hfma and __double2half/__double2bfloat16 round twice (through float): where the exact
 * result lies just off a binary16 tie they can miss by an ulp (__double2half of
 * 1 + 2^-11 + 2^-40 gives 1, not 1 + 2^-10). A correctly rounded form was tried on
 * 2026-12-05, but the timing model counts the header's code, and it turned one HFMA2 into
 * dozens of instructions (half2_fma +1896 %): it needs a builtin the model counts as one. */
/* Saturating conversion to int as the GPU's cvt.s32 does (NaN gives 0). */
__MUSA_HD int __musa_sat_int(double v) {
  return v != v ? 0 : v <= -2147483648.0 ? -2147483647 - 1 : v >= 2147483648.0 ? 2147483647 : (int)v;
}

/* The conversions and operations shared with bfloat16 come from one macro so both types behave
 * alike; TO_FLOAT and FROM_FLOAT are the only per-type parts. */
#define __MUSA_LOW_PRECISION(T, T2, P, TO_FLOAT, FROM_FLOAT)                                    \
  __MUSA_HD float __##P##2float(T h) { return TO_FLOAT(h); }                                    \
  __MUSA_HD T __float2##P(float f) { return FROM_FLOAT(f); }                                    \
  __MUSA_HD T __float2##P##_rn(float f) { return FROM_FLOAT(f); }                               \
  __MUSA_HD T __double2##P(double d) { return FROM_FLOAT((float)d); }                           \
  __MUSA_HD T __int2##P##_rn(int i) { return FROM_FLOAT((float)i); }                            \
  __MUSA_HD int __##P##2int_rz(T h) { return __musa_sat_int(__builtin_truncf(TO_FLOAT(h))); }  \
  __MUSA_HD int __##P##2int_rn(T h) { return __musa_sat_int(__builtin_rintf(TO_FLOAT(h))); }   \
  __MUSA_HD T2 __float2##P##2_rn(float f) { T2 r = {FROM_FLOAT(f), FROM_FLOAT(f)}; return r; } \
  __MUSA_HD T2 __floats2##P##2_rn(float a, float b) { T2 r = {FROM_FLOAT(a), FROM_FLOAT(b)}; return r; } \
  __MUSA_HD float2 __##P##22float2(T2 h) { float2 r = {TO_FLOAT(h.x), TO_FLOAT(h.y)}; return r; } \
  __MUSA_HD T2 __float22##P##2_rn(float2 f) { T2 r = {FROM_FLOAT(f.x), FROM_FLOAT(f.y)}; return r; } \
  __MUSA_HD float __low2float(T2 h) { return TO_FLOAT(h.x); }                                   \
  __MUSA_HD float __high2float(T2 h) { return TO_FLOAT(h.y); }                                  \
  __MUSA_HD T __low2##P(T2 h) { return h.x; }                                                   \
  __MUSA_HD T __high2##P(T2 h) { return h.y; }                                                  \
  __MUSA_HD T2 __halves2##P##2(T a, T b) { T2 r = {a, b}; return r; }                           \
  __MUSA_HD T2 __##P##2##P##2(T a) { T2 r = {a, a}; return r; }                                 \
  __MUSA_HD T2 __lowhigh2highlow(T2 h) { T2 r = {h.y, h.x}; return r; }                         \
  __MUSA_HD T __hadd(T a, T b) { return FROM_FLOAT(TO_FLOAT(a) + TO_FLOAT(b)); }                \
  __MUSA_HD T __hsub(T a, T b) { return FROM_FLOAT(TO_FLOAT(a) - TO_FLOAT(b)); }                \
  __MUSA_HD T __hmul(T a, T b) { return FROM_FLOAT(TO_FLOAT(a) * TO_FLOAT(b)); }                \
  __MUSA_HD T __hdiv(T a, T b) { return FROM_FLOAT(TO_FLOAT(a) / TO_FLOAT(b)); }                \
  __MUSA_HD T __hneg(T a) { return FROM_FLOAT(-TO_FLOAT(a)); }                                  \
  __MUSA_HD T __habs(T a) { return FROM_FLOAT(__builtin_fabsf(TO_FLOAT(a))); }                  \
  __MUSA_HD T __hfma(T a, T b, T c) {                                                           \
    return FROM_FLOAT((float)((double)TO_FLOAT(a) * TO_FLOAT(b) + TO_FLOAT(c)));                \
  }                                                                                             \
  __MUSA_HD T __hmax(T a, T b) { return FROM_FLOAT(__builtin_fmaxf(TO_FLOAT(a), TO_FLOAT(b))); } \
  __MUSA_HD T __hmin(T a, T b) { return FROM_FLOAT(__builtin_fminf(TO_FLOAT(a), TO_FLOAT(b))); } \
  __MUSA_HD bool __heq(T a, T b) { return TO_FLOAT(a) == TO_FLOAT(b); }                         \
  __MUSA_HD bool __hne(T a, T b) { /* ordered: false with a NaN, as CUDA documents */         \
    return TO_FLOAT(a) < TO_FLOAT(b) || TO_FLOAT(a) > TO_FLOAT(b);                              \
  }                                                                                             \
  __MUSA_HD bool __hequ(T a, T b) { return !(TO_FLOAT(a) < TO_FLOAT(b) || TO_FLOAT(a) > TO_FLOAT(b)); } \
  __MUSA_HD bool __hneu(T a, T b) { return TO_FLOAT(a) != TO_FLOAT(b); }                        \
  __MUSA_HD bool __hltu(T a, T b) { return !(TO_FLOAT(a) >= TO_FLOAT(b)); }                     \
  __MUSA_HD bool __hleu(T a, T b) { return !(TO_FLOAT(a) > TO_FLOAT(b)); }                      \
  __MUSA_HD bool __hgtu(T a, T b) { return !(TO_FLOAT(a) <= TO_FLOAT(b)); }                     \
  __MUSA_HD bool __hgeu(T a, T b) { return !(TO_FLOAT(a) < TO_FLOAT(b)); }                      \
  __MUSA_HD bool __hlt(T a, T b) { return TO_FLOAT(a) < TO_FLOAT(b); }                          \
  __MUSA_HD bool __hle(T a, T b) { return TO_FLOAT(a) <= TO_FLOAT(b); }                         \
  __MUSA_HD bool __hgt(T a, T b) { return TO_FLOAT(a) > TO_FLOAT(b); }                          \
  __MUSA_HD bool __hge(T a, T b) { return TO_FLOAT(a) >= TO_FLOAT(b); }                         \
  __MUSA_HD bool __hisnan(T a) { return __builtin_isnan(TO_FLOAT(a)); }                         \
  __MUSA_HD int __hisinf(T a) {                                                                 \
    float f = TO_FLOAT(a);                                                                      \
    return __builtin_isinf(f) ? (f < 0 ? -1 : 1) : 0;                                           \
  }                                                                                             \
  __MUSA_HD T hsqrt(T a) { return FROM_FLOAT(__builtin_sqrtf(TO_FLOAT(a))); }                   \
  __MUSA_HD T hrsqrt(T a) { return FROM_FLOAT(1.0f / __builtin_sqrtf(TO_FLOAT(a))); }           \
  __MUSA_HD T hrcp(T a) { return FROM_FLOAT(1.0f / TO_FLOAT(a)); }                              \
  __MUSA_HD T hexp(T a) { return FROM_FLOAT(__builtin_expf(TO_FLOAT(a))); }                     \
  __MUSA_HD T hexp2(T a) { return FROM_FLOAT(__builtin_exp2f(TO_FLOAT(a))); }                   \
  __MUSA_HD T hlog(T a) { return FROM_FLOAT(__builtin_logf(TO_FLOAT(a))); }                     \
  __MUSA_HD T hlog2(T a) { return FROM_FLOAT(__builtin_log2f(TO_FLOAT(a))); }                   \
  __MUSA_HD T hsin(T a) { return FROM_FLOAT(__builtin_sinf(TO_FLOAT(a))); }                     \
  __MUSA_HD T hcos(T a) { return FROM_FLOAT(__builtin_cosf(TO_FLOAT(a))); }                     \
  __MUSA_HD T hfloor(T a) { return FROM_FLOAT(__builtin_floorf(TO_FLOAT(a))); }                 \
  __MUSA_HD T hceil(T a) { return FROM_FLOAT(__builtin_ceilf(TO_FLOAT(a))); }                   \
  __MUSA_HD T htrunc(T a) { return FROM_FLOAT(__builtin_truncf(TO_FLOAT(a))); }                 \
  __MUSA_HD T hrint(T a) { return FROM_FLOAT(__builtin_rintf(TO_FLOAT(a))); }                   \
  __MUSA_HD T2 __hadd2(T2 a, T2 b) { T2 r = {__hadd(a.x, b.x), __hadd(a.y, b.y)}; return r; }  \
  __MUSA_HD T2 __hsub2(T2 a, T2 b) { T2 r = {__hsub(a.x, b.x), __hsub(a.y, b.y)}; return r; }  \
  __MUSA_HD T2 __hmul2(T2 a, T2 b) { T2 r = {__hmul(a.x, b.x), __hmul(a.y, b.y)}; return r; }  \
  __MUSA_HD T2 __h2div(T2 a, T2 b) { T2 r = {__hdiv(a.x, b.x), __hdiv(a.y, b.y)}; return r; }  \
  __MUSA_HD T2 __hneg2(T2 a) { T2 r = {__hneg(a.x), __hneg(a.y)}; return r; }                  \
  __MUSA_HD T2 __habs2(T2 a) { T2 r = {__habs(a.x), __habs(a.y)}; return r; }                  \
  __MUSA_HD T2 __hfma2(T2 a, T2 b, T2 c) {                                                      \
    T2 r = {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};                                      \
    return r;                                                                                   \
  }                                                                                             \
  __MUSA_HD T2 __hmax2(T2 a, T2 b) { T2 r = {__hmax(a.x, b.x), __hmax(a.y, b.y)}; return r; }  \
  __MUSA_HD T2 __hmin2(T2 a, T2 b) { T2 r = {__hmin(a.x, b.x), __hmin(a.y, b.y)}; return r; }  \
  __MUSA_HD bool __hbeq2(T2 a, T2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }             \
  __MUSA_HD bool __hblt2(T2 a, T2 b) { return __hlt(a.x, b.x) && __hlt(a.y, b.y); }

#ifdef __cplusplus
#define __MUSA_LOW_PRECISION_OPERATORS(T, T2)                                                   \
  __MUSA_HD T operator+(T a, T b) { return __hadd(a, b); }                                      \
  __MUSA_HD T operator-(T a, T b) { return __hsub(a, b); }                                      \
  __MUSA_HD T operator*(T a, T b) { return __hmul(a, b); }                                      \
  __MUSA_HD T operator/(T a, T b) { return __hdiv(a, b); }                                      \
  __MUSA_HD T operator-(T a) { return __hneg(a); }                                              \
  __MUSA_HD T &operator+=(T &a, T b) { return a = __hadd(a, b); }                               \
  __MUSA_HD T &operator-=(T &a, T b) { return a = __hsub(a, b); }                               \
  __MUSA_HD T &operator*=(T &a, T b) { return a = __hmul(a, b); }                               \
  __MUSA_HD T &operator/=(T &a, T b) { return a = __hdiv(a, b); }                               \
  __MUSA_HD bool operator==(T a, T b) { return __heq(a, b); }                                   \
  __MUSA_HD bool operator!=(T a, T b) { return __hneu(a, b); } /* C++'s: true with a NaN */   \
  __MUSA_HD bool operator<(T a, T b) { return __hlt(a, b); }                                    \
  __MUSA_HD bool operator<=(T a, T b) { return __hle(a, b); }                                   \
  __MUSA_HD bool operator>(T a, T b) { return __hgt(a, b); }                                    \
  __MUSA_HD bool operator>=(T a, T b) { return __hge(a, b); }                                   \
  __MUSA_HD T2 operator+(T2 a, T2 b) { return __hadd2(a, b); }                                  \
  __MUSA_HD T2 operator-(T2 a, T2 b) { return __hsub2(a, b); }                                  \
  __MUSA_HD T2 operator*(T2 a, T2 b) { return __hmul2(a, b); }                                  \
  __MUSA_HD T2 operator/(T2 a, T2 b) { return __h2div(a, b); }
#endif

#define __MUSA_HALF_TO_FLOAT(h) ((float)__builtin_bit_cast(_Float16, (h).__x))
#define __MUSA_HALF_FROM_FLOAT(f) (__builtin_bit_cast(__half, (_Float16)(f)))
__MUSA_LOW_PRECISION(__half, __half2, half, __MUSA_HALF_TO_FLOAT, __MUSA_HALF_FROM_FLOAT)
#ifdef __cplusplus
__MUSA_LOW_PRECISION_OPERATORS(__half, __half2)
#endif
__MUSA_HD short __half_as_short(__half h) { return (short)h.__x; }
__MUSA_HD unsigned short __half_as_ushort(__half h) { return h.__x; }
__MUSA_HD __half __short_as_half(short s) { return __builtin_bit_cast(__half, s); }
__MUSA_HD __half __ushort_as_half(unsigned short s) { return __builtin_bit_cast(__half, s); }

#endif /* __MUSA_FP16_H__ */
