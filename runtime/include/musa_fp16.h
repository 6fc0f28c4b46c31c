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

/* The raw bit patterns CUDA code builds halves from (`__half_raw r; r.x = 0x3c00; __half h = r;`). */
typedef struct __half_raw {
  unsigned short x;
} __half_raw;
typedef struct __half2_raw {
  unsigned short x, y;
} __half2_raw;

struct __half {
  unsigned short __x;
#ifdef __cplusplus
  __half() = default;
  __host__ __device__ __half(const __half_raw &r) : __x(r.x) {}
  __host__ __device__ __half &operator=(const __half_raw &r) { __x = r.x; return *this; }
  __host__ __device__ operator __half_raw() const { __half_raw r; r.x = __x; return r; }
  __host__ __device__ __half(short i) : __half((float)i) {}
  __host__ __device__ __half(unsigned short i) : __half((float)i) {}
  __host__ __device__ __half(long i) : __half((double)i) {}
  __host__ __device__ __half(unsigned long i) : __half((double)i) {}
  __host__ __device__ __half(long long i) : __half((double)i) {}
  __host__ __device__ __half(unsigned long long i) : __half((double)i) {}
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
#ifdef __cplusplus
  __half2() = default;
  __host__ __device__ __half2(__half a, __half b) : x(a), y(b) {}
  __host__ __device__ __half2(const __half2_raw &r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  __host__ __device__ operator __half2_raw() const {
    __half2_raw r;
    r.x = x.__x, r.y = y.__x;
    return r;
  }
#endif
};
typedef struct __half2 half2;

/* __hfma rounds once, as the GPU's HFMA does: a*b is exact in double (11 x 11 bits; 8 x 8 for
 * bfloat16), a*b + c is then rounded to double, and that can never land on a false binary16
 * tie (the exact sum would need more than 53 significant bits beside a 12-bit tie point,
 * while a*b has 22), so one narrowing from double to half (FROM_DOUBLE: the host's
 * __truncdfhf2; for bfloat16 the simulator's __truncdfbf2) gives the correctly rounded
 * result. The timing model sees widenings, one multiply-add and a narrowing: one half FMA. */

/* The conversions and operations shared with bfloat16 come from one macro so both types behave
 * alike; TO_FLOAT and FROM_FLOAT are the only per-type parts. */
#define __MUSA_LOW_PRECISION(T, T2, P, TO_FLOAT, FROM_FLOAT, FROM_DOUBLE)                       \
  __MUSA_HD float __##P##2float(T h) { return TO_FLOAT(h); }                                    \
  __MUSA_HD T __float2##P(float f) { return FROM_FLOAT(f); }                                    \
  __MUSA_HD T __float2##P##_rn(float f) { return FROM_FLOAT(f); }                               \
  __MUSA_HD T __double2##P(double d) { return FROM_DOUBLE(d); }                                \
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
    return FROM_DOUBLE((double)TO_FLOAT(a) * TO_FLOAT(b) + TO_FLOAT(c));                        \
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
  __MUSA_HD T2 __hmin2(T2 a, T2 b) { T2 r = {__hmin(a.x, b.x), __hmin(a.y, b.y)}; return r; }

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
  __MUSA_HD T2 operator/(T2 a, T2 b) { return __h2div(a, b); }                                 \
  __MUSA_HD T operator+(T a) { return a; }                                                      \
  __MUSA_HD T &operator++(T &a) { return a = __hadd(a, T(1.0f)); }                              \
  __MUSA_HD T &operator--(T &a) { return a = __hsub(a, T(1.0f)); }                              \
  __MUSA_HD T operator++(T &a, int) { T old = a; ++a; return old; }                             \
  __MUSA_HD T operator--(T &a, int) { T old = a; --a; return old; }                             \
  __MUSA_HD T2 operator+(T2 a) { return a; }                                                    \
  __MUSA_HD T2 &operator++(T2 &a) { return a = __hadd2(a, T2(T(1.0f), T(1.0f))); }              \
  __MUSA_HD T2 &operator--(T2 &a) { return a = __hsub2(a, T2(T(1.0f), T(1.0f))); }              \
  __MUSA_HD T2 operator++(T2 &a, int) { T2 old = a; ++a; return old; }                          \
  __MUSA_HD T2 operator--(T2 &a, int) { T2 old = a; --a; return old; }                          \
  __MUSA_HD T2 operator-(T2 a) { return __hneg2(a); }                                           \
  __MUSA_HD T2 &operator+=(T2 &a, T2 b) { return a = __hadd2(a, b); }                           \
  __MUSA_HD T2 &operator-=(T2 &a, T2 b) { return a = __hsub2(a, b); }                           \
  __MUSA_HD T2 &operator*=(T2 &a, T2 b) { return a = __hmul2(a, b); }                           \
  __MUSA_HD T2 &operator/=(T2 &a, T2 b) { return a = __h2div(a, b); }                           \
  __MUSA_HD bool operator==(T2 a, T2 b) { return __hbeq2(a, b); }                               \
  __MUSA_HD bool operator!=(T2 a, T2 b) { return __hbneu2(a, b); }                              \
  __MUSA_HD bool operator<(T2 a, T2 b) { return __hblt2(a, b); }                                \
  __MUSA_HD bool operator<=(T2 a, T2 b) { return __hble2(a, b); }                               \
  __MUSA_HD bool operator>(T2 a, T2 b) { return __hbgt2(a, b); }                                \
  __MUSA_HD bool operator>=(T2 a, T2 b) { return __hbge2(a, b); }
#endif

/* What cuda_fp16.h and cuda_bf16.h offer beyond the basics, for both types: directed
 * rounding from float, integer conversions, the saturating (_sat: clamped to [0, 1], NaN to
 * +0), NaN-propagating (_nan) and ReLU forms, comparisons of pairs returning a pair of 1.0/0.0
 * or one bool, and the pair forms of the math functions. */
/* One step of a 16-bit sign-magnitude pattern towards +infinity (up) or -infinity. */
__MUSA_HD unsigned short __musa_bits16_step(unsigned short b, bool up) {
  if ((b & 0x7fffu) == 0)
    return up ? 0x0001 : 0x8001;
  return (unsigned short)(((b & 0x8000u) != 0) == up ? b - 1 : b + 1);
}
#ifdef __cplusplus
/* Saturating conversion of a rounded value to an integer type, as cvt.sat does; NaN gives 0,
 * or the most negative value for the 64-bit forms (CUDA documents 0x8000000000000000). */
template <class I> __MUSA_HD I __musa_sat_conv(double v) {
  constexpr bool is_signed = (I)-1 < (I)0;
  constexpr int bits = 8 * sizeof(I);
  const double hi = is_signed ? __builtin_ldexp(1.0, bits - 1) : __builtin_ldexp(1.0, bits);
  const double lo = is_signed ? -hi : 0.0;
  if (v != v)
    return bits == 64 ? (I)(1ull << 63) : (I)0;
  if (v <= lo)
    return is_signed ? (I)(1ull << (bits - 1)) : (I)0;
  if (v >= hi)
    return (I)(is_signed ? ~(1ull << (bits - 1)) : ~0ull);
  return (I)v;
}
#endif
#define __MUSA_LOW_PRECISION_DIRECTED(T, P, TO_FLOAT, FROM_FLOAT)                               \
  /* mode 0: toward zero, 1: down, 2: up; from the nearest value, one step where it lies on  \
   * the wrong side of f */                                                                     \
  __MUSA_HD T __musa_##P##_directed(float f, int mode) {                                        \
    T h = FROM_FLOAT(f);                                                                        \
    float g = TO_FLOAT(h);                                                                      \
    if (g > f && (mode == 1 || (mode == 0 && f > 0.0f)))                                        \
      h.__x = __musa_bits16_step(h.__x, false);                                                 \
    else if (g < f && (mode == 2 || (mode == 0 && f < 0.0f)))                                   \
      h.__x = __musa_bits16_step(h.__x, true);                                                  \
    return h;                                                                                   \
  }                                                                                             \
  __MUSA_HD T __float2##P##_rz(float f) { return __musa_##P##_directed(f, 0); }                 \
  __MUSA_HD T __float2##P##_rd(float f) { return __musa_##P##_directed(f, 1); }                 \
  __MUSA_HD T __float2##P##_ru(float f) { return __musa_##P##_directed(f, 2); }
/* An integer as a float rounded to odd at 24 bits (bits shifted out leave a 1 in the last
 * place): rounding that float to nearest or in a direction gives the integer's correctly
 * rounded 16-bit value, as the GPU's I2F does (a float rounded to nearest would round twice:
 * 2^24 + 2^16 + 1 to bfloat16). Integer steps throughout, so the compiler cannot turn it back
 * into one conversion that the host would do through float. */
__MUSA_HD float __musa_int_to_float_odd(unsigned long long m, bool negative) {
  int shift = m >> 24 ? 40 - __builtin_clzll(m) : 0;
  unsigned long long kept = (m >> shift) | ((m & ((1ull << shift) - 1)) != 0);
  float f = __builtin_ldexpf((float)kept, shift);
  return negative ? -f : f;
}
#define __MUSA_INT_ODD(i) __musa_int_to_float_odd((i) < 0 ? 0ull - (unsigned long long)(i) : (unsigned long long)(i), (i) < 0)
#define __MUSA_LOW_PRECISION_INT(T, P, I, NAME, TO_FLOAT, FROM_FLOAT)                          \
  __MUSA_HD T __##NAME##2##P##_rn(I i) { return FROM_FLOAT(__MUSA_INT_ODD(i)); }                \
  __MUSA_HD T __##NAME##2##P##_rz(I i) { return __musa_##P##_directed(__MUSA_INT_ODD(i), 0); }  \
  __MUSA_HD T __##NAME##2##P##_rd(I i) { return __musa_##P##_directed(__MUSA_INT_ODD(i), 1); }  \
  __MUSA_HD T __##NAME##2##P##_ru(I i) { return __musa_##P##_directed(__MUSA_INT_ODD(i), 2); }  \
  __MUSA_HD I __##P##2##NAME##_rn(T h) { return __musa_sat_conv<I>(__builtin_rintf(TO_FLOAT(h))); } \
  __MUSA_HD I __##P##2##NAME##_rz(T h) { return __musa_sat_conv<I>(__builtin_truncf(TO_FLOAT(h))); } \
  __MUSA_HD I __##P##2##NAME##_rd(T h) { return __musa_sat_conv<I>(__builtin_floorf(TO_FLOAT(h))); } \
  __MUSA_HD I __##P##2##NAME##_ru(T h) { return __musa_sat_conv<I>(__builtin_ceilf(TO_FLOAT(h))); }
#define __MUSA_LOW_PRECISION_MORE(T, T2, P, TO_FLOAT, FROM_FLOAT)                               \
  __MUSA_LOW_PRECISION_DIRECTED(T, P, TO_FLOAT, FROM_FLOAT)                                     \
  __MUSA_LOW_PRECISION_INT(T, P, int, int, TO_FLOAT, FROM_FLOAT)                                \
  __MUSA_LOW_PRECISION_INT(T, P, short, short, TO_FLOAT, FROM_FLOAT)                            \
  __MUSA_LOW_PRECISION_INT(T, P, unsigned short, ushort, TO_FLOAT, FROM_FLOAT)                  \
  __MUSA_LOW_PRECISION_INT(T, P, unsigned int, uint, TO_FLOAT, FROM_FLOAT)                      \
  __MUSA_LOW_PRECISION_INT(T, P, long long, ll, TO_FLOAT, FROM_FLOAT)                           \
  __MUSA_LOW_PRECISION_INT(T, P, unsigned long long, ull, TO_FLOAT, FROM_FLOAT)                 \
  __MUSA_HD T __musa_sat01(T h) {                                                               \
    float f = TO_FLOAT(h);                                                                      \
    return FROM_FLOAT(!(f > 0.0f) ? 0.0f : f > 1.0f ? 1.0f : f);                                \
  }                                                                                             \
  __MUSA_HD T __hadd_sat(T a, T b) { return __musa_sat01(__hadd(a, b)); }                       \
  __MUSA_HD T __hsub_sat(T a, T b) { return __musa_sat01(__hsub(a, b)); }                       \
  __MUSA_HD T __hmul_sat(T a, T b) { return __musa_sat01(__hmul(a, b)); }                       \
  __MUSA_HD T __hfma_sat(T a, T b, T c) { return __musa_sat01(__hfma(a, b, c)); }               \
  __MUSA_HD T __hadd_rn(T a, T b) { return __hadd(a, b); }                                      \
  __MUSA_HD T __hsub_rn(T a, T b) { return __hsub(a, b); }                                      \
  __MUSA_HD T __hmul_rn(T a, T b) { return __hmul(a, b); }                                      \
  __MUSA_HD T __musa_##P##_nan(void) { T h; h.__x = 0x7fff; return h; }                         \
  __MUSA_HD T __hmax_nan(T a, T b) {                                                            \
    return __hisnan(a) || __hisnan(b) ? __musa_##P##_nan() : __hmax(a, b);                      \
  }                                                                                             \
  __MUSA_HD T __hmin_nan(T a, T b) {                                                            \
    return __hisnan(a) || __hisnan(b) ? __musa_##P##_nan() : __hmin(a, b);                      \
  }                                                                                             \
  __MUSA_HD T __hfma_relu(T a, T b, T c) {                                                      \
    T r = __hfma(a, b, c);                                                                      \
    return __hisnan(r) ? __musa_##P##_nan() : TO_FLOAT(r) < 0.0f ? FROM_FLOAT(0.0f) : r;        \
  }                                                                                             \
  __MUSA_HD T hexp10(T a) { return FROM_FLOAT(__builtin_exp10f(TO_FLOAT(a))); }                 \
  __MUSA_HD T hlog10(T a) { return FROM_FLOAT(__builtin_log10f(TO_FLOAT(a))); }                 \
  __MUSA_HD T2 __lows2##P##2(T2 a, T2 b) { T2 r = {a.x, b.x}; return r; }                        \
  __MUSA_HD T2 __highs2##P##2(T2 a, T2 b) { T2 r = {a.y, b.y}; return r; }                       \
  __MUSA_HD T2 __low2##P##2(T2 a) { T2 r = {a.x, a.x}; return r; }                               \
  __MUSA_HD T2 __high2##P##2(T2 a) { T2 r = {a.y, a.y}; return r; }                              \
  __MUSA_LOW_PRECISION_PAIR2(T, T2, __hadd2_sat, __hadd_sat)                                    \
  __MUSA_LOW_PRECISION_PAIR2(T, T2, __hsub2_sat, __hsub_sat)                                    \
  __MUSA_LOW_PRECISION_PAIR2(T, T2, __hmul2_sat, __hmul_sat)                                    \
  __MUSA_LOW_PRECISION_PAIR2(T, T2, __hmul2_rn, __hmul_rn)                                      \
  __MUSA_LOW_PRECISION_PAIR2(T, T2, __hadd2_rn, __hadd_rn)                                      \
  __MUSA_LOW_PRECISION_PAIR2(T, T2, __hsub2_rn, __hsub_rn)                                      \
  __MUSA_LOW_PRECISION_PAIR2(T, T2, __hmax2_nan, __hmax_nan)                                    \
  __MUSA_LOW_PRECISION_PAIR2(T, T2, __hmin2_nan, __hmin_nan)                                    \
  __MUSA_HD T2 __hfma2_sat(T2 a, T2 b, T2 c) {                                                  \
    T2 r = {__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y)};                              \
    return r;                                                                                   \
  }                                                                                             \
  __MUSA_HD T2 __hfma2_relu(T2 a, T2 b, T2 c) {                                                 \
    T2 r = {__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y)};                            \
    return r;                                                                                   \
  }                                                                                             \
  /* complex multiply-add, (a.x + i a.y)(b.x + i b.y) + c, in fused steps */                    \
  __MUSA_HD T2 __hcmadd(T2 a, T2 b, T2 c) {                                                     \
    T2 r = {__hfma(a.x, b.x, __hfma(__hneg(a.y), b.y, c.x)),                                     \
            __hfma(a.x, b.y, __hfma(a.y, b.x, c.y))};                                           \
    return r;                                                                                   \
  }                                                                                             \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, eq, __heq)                                               \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, ne, __hne)                                               \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, lt, __hlt)                                               \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, le, __hle)                                               \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, gt, __hgt)                                               \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, ge, __hge)                                               \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, equ, __hequ)                                             \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, neu, __hneu)                                             \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, ltu, __hltu)                                             \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, leu, __hleu)                                             \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, gtu, __hgtu)                                             \
  __MUSA_LOW_PRECISION_COMPARE2(T, T2, geu, __hgeu)                                             \
  __MUSA_HD T2 __hisnan2(T2 a) {                                                                \
    T2 r = {FROM_FLOAT(__hisnan(a.x) ? 1.0f : 0.0f), FROM_FLOAT(__hisnan(a.y) ? 1.0f : 0.0f)};  \
    return r;                                                                                   \
  }                                                                                             \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2sqrt, hsqrt)                                              \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2rsqrt, hrsqrt)                                            \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2rcp, hrcp)                                                \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2exp, hexp)                                                \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2exp2, hexp2)                                              \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2exp10, hexp10)                                            \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2log, hlog)                                                \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2log2, hlog2)                                              \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2log10, hlog10)                                            \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2sin, hsin)                                                \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2cos, hcos)                                                \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2floor, hfloor)                                            \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2ceil, hceil)                                              \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2trunc, htrunc)                                            \
  __MUSA_LOW_PRECISION_MATH2(T, T2, h2rint, hrint)
#define __MUSA_LOW_PRECISION_PAIR2(T, T2, NAME2, NAME)                                          \
  __MUSA_HD T2 NAME2(T2 a, T2 b) { T2 r = {NAME(a.x, b.x), NAME(a.y, b.y)}; return r; }
#define __MUSA_LOW_PRECISION_MATH2(T, T2, NAME2, NAME)                                          \
  __MUSA_HD T2 NAME2(T2 a) { T2 r = {NAME(a.x), NAME(a.y)}; return r; }
#define __MUSA_LOW_PRECISION_COMPARE2(T, T2, OP, SCALAR)                                        \
  __MUSA_HD T2 __h##OP##2(T2 a, T2 b) {                                                         \
    T one = 1.0f, zero = 0.0f;                                                                  \
    T2 r = {SCALAR(a.x, b.x) ? one : zero, SCALAR(a.y, b.y) ? one : zero};                      \
    return r;                                                                                   \
  }                                                                                             \
  __MUSA_HD bool __hb##OP##2(T2 a, T2 b) { return SCALAR(a.x, b.x) && SCALAR(a.y, b.y); }      \
  __MUSA_HD unsigned __h##OP##2_mask(T2 a, T2 b) {                                              \
    return (SCALAR(a.x, b.x) ? 0xffffu : 0u) | (SCALAR(a.y, b.y) ? 0xffff0000u : 0u);           \
  }

#define __MUSA_HALF_TO_FLOAT(h) ((float)__builtin_bit_cast(_Float16, (h).__x))
#define __MUSA_HALF_FROM_FLOAT(f) (__builtin_bit_cast(__half, (_Float16)(f)))
#define __MUSA_HALF_FROM_DOUBLE(d) (__builtin_bit_cast(__half, (_Float16)(d)))
__MUSA_LOW_PRECISION(__half, __half2, half, __MUSA_HALF_TO_FLOAT, __MUSA_HALF_FROM_FLOAT,
                     __MUSA_HALF_FROM_DOUBLE)
#ifdef __cplusplus
__MUSA_LOW_PRECISION_MORE(__half, __half2, half, __MUSA_HALF_TO_FLOAT, __MUSA_HALF_FROM_FLOAT)
__MUSA_LOW_PRECISION_OPERATORS(__half, __half2)
#endif
__MUSA_HD __half2 make_half2(__half x, __half y) { __half2 r = {x, y}; return r; }

#ifdef __cplusplus
/* atomicAdd of halves: one floating-point atomic add per half (a pair is atomic per half, not
 * as one 32-bit word, as CUDA documents for __half2). Returns the old value. */
#define __MUSA_ATOMIC_ADD_16(T, T2, F, SUFFIX)                                                  \
  static __device__ __forceinline__ T atomicAdd##SUFFIX(T *p, T v) {                           \
    typedef F __attribute__((may_alias)) alias_t;                                               \
    return __builtin_bit_cast(                                                                  \
        T, __atomic_fetch_add((alias_t *)p, __builtin_bit_cast(F, v), __ATOMIC_RELAXED));       \
  }                                                                                             \
  static __device__ __forceinline__ T2 atomicAdd##SUFFIX(T2 *p, T2 v) {                        \
    T2 r = {atomicAdd##SUFFIX(&p->x, v.x), atomicAdd##SUFFIX(&p->y, v.y)};                      \
    return r;                                                                                   \
  }
#define __MUSA_ATOMIC_ADD_16_SCOPES(T, T2, F)                                                   \
  __MUSA_ATOMIC_ADD_16(T, T2, F, )                                                              \
  __MUSA_ATOMIC_ADD_16(T, T2, F, _block)                                                        \
  __MUSA_ATOMIC_ADD_16(T, T2, F, _system)
__MUSA_ATOMIC_ADD_16_SCOPES(__half, __half2, _Float16)
#endif
__MUSA_HD short __half_as_short(__half h) { return (short)h.__x; }
__MUSA_HD unsigned short __half_as_ushort(__half h) { return h.__x; }
__MUSA_HD __half __short_as_half(short s) { return __builtin_bit_cast(__half, s); }
__MUSA_HD __half __ushort_as_half(unsigned short s) { return __builtin_bit_cast(__half, s); }

#endif /* __MUSA_FP16_H__ */
