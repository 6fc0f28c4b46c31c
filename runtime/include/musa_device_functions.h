/* musa_device_functions.h - the device math library, atomics, fences and warp collectives for
 * MUSA sources; the integer and bit intrinsics are in musa_integer_functions.h, the type casts
 * in musa_conversion_functions.h.
 *
 * Device functions are static, always-inlined wrappers around clang builtins: the device pass
 * turns them into LLVM intrinsics or libm calls (llvm.sin.f32, erf, ...), which kernel-jit
 * compiles for the host, where libm computes them. So results match the host's correctly
 * rounded libm rather than a GPU's (documented ULP differences of the hardware library are
 * not modelled). Overloads by target (__device__ vs the host declarations of <math.h>) are how
 * clang's CUDA mode lets one name mean a device and a host function. */
#ifndef __MUSA_DEVICE_FUNCTIONS_H__
#define __MUSA_DEVICE_FUNCTIONS_H__
#if defined(__CUDA__)

#include "musa_sim_collective_ops.h"

#include <math.h>
#include <stdint.h>
#include <time.h>

#define __MUSA_DEV static __device__ __forceinline__

/* ---- float and double math: C spellings (sinf, sin) and C++ float overloads ----------- */
#define __MUSA_MATH1(fn)                                                                     \
  __MUSA_DEV float fn##f(float x) { return __builtin_##fn##f(x); }                          \
  __MUSA_DEV double fn(double x) { return __builtin_##fn(x); }                              \
  __MUSA_DEV float fn(float x) { return __builtin_##fn##f(x); }
#define __MUSA_MATH2(fn)                                                                     \
  __MUSA_DEV float fn##f(float x, float y) { return __builtin_##fn##f(x, y); }              \
  __MUSA_DEV double fn(double x, double y) { return __builtin_##fn(x, y); }                 \
  __MUSA_DEV float fn(float x, float y) { return __builtin_##fn##f(x, y); }
__MUSA_MATH1(acos)
__MUSA_MATH1(acosh)
__MUSA_MATH1(asin)
__MUSA_MATH1(asinh)
__MUSA_MATH1(atan)
__MUSA_MATH1(atanh)
__MUSA_MATH1(cbrt)
__MUSA_MATH1(ceil)
__MUSA_MATH1(cos)
__MUSA_MATH1(cosh)
__MUSA_MATH1(erf)
__MUSA_MATH1(erfc)
__MUSA_MATH1(exp)
__MUSA_MATH1(exp2)
__MUSA_MATH1(expm1)
__MUSA_MATH1(fabs)
__MUSA_MATH1(floor)
__MUSA_MATH1(lgamma)
__MUSA_MATH1(log)
__MUSA_MATH1(log10)
__MUSA_MATH1(log1p)
__MUSA_MATH1(log2)
__MUSA_MATH1(logb)
__MUSA_MATH1(nearbyint)
__MUSA_MATH1(rint)
__MUSA_MATH1(round)
__MUSA_MATH1(sin)
__MUSA_MATH1(sinh)
__MUSA_MATH1(sqrt)
__MUSA_MATH1(tan)
__MUSA_MATH1(tanh)
__MUSA_MATH1(tgamma)
__MUSA_MATH1(trunc)
__MUSA_MATH1(exp10)
__MUSA_MATH2(atan2)
__MUSA_MATH2(copysign)
__MUSA_MATH2(fdim)
__MUSA_MATH2(fmax)
__MUSA_MATH2(fmin)
__MUSA_MATH2(fmod)
__MUSA_MATH2(hypot)
__MUSA_MATH2(nextafter)
__MUSA_MATH2(pow)
__MUSA_MATH2(remainder)
#undef __MUSA_MATH1
#undef __MUSA_MATH2

__MUSA_DEV float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
__MUSA_DEV double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
__MUSA_DEV float fma(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
__MUSA_DEV float frexpf(float x, int *e) { return __builtin_frexpf(x, e); }
__MUSA_DEV double frexp(double x, int *e) { return __builtin_frexp(x, e); }
__MUSA_DEV float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
__MUSA_DEV double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
__MUSA_DEV float scalbnf(float x, int e) { return __builtin_scalbnf(x, e); }
__MUSA_DEV double scalbn(double x, int e) { return __builtin_scalbn(x, e); }
__MUSA_DEV float modff(float x, float *i) { return __builtin_modff(x, i); }
__MUSA_DEV double modf(double x, double *i) { return __builtin_modf(x, i); }
__MUSA_DEV float remquof(float x, float y, int *q) { return __builtin_remquof(x, y, q); }
__MUSA_DEV double remquo(double x, double y, int *q) { return __builtin_remquo(x, y, q); }
__MUSA_DEV int ilogbf(float x) { return __builtin_ilogbf(x); }
__MUSA_DEV int ilogb(double x) { return __builtin_ilogb(x); }
__MUSA_DEV long lroundf(float x) { return __builtin_lroundf(x); }
__MUSA_DEV long lround(double x) { return __builtin_lround(x); }
__MUSA_DEV long long llroundf(float x) { return __builtin_llroundf(x); }
__MUSA_DEV long long llround(double x) { return __builtin_llround(x); }
__MUSA_DEV long lrintf(float x) { return __builtin_lrintf(x); }
__MUSA_DEV long long llrintf(float x) { return __builtin_llrintf(x); }
__MUSA_DEV float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
__MUSA_DEV double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
__MUSA_DEV float rcbrtf(float x) { return 1.0f / __builtin_cbrtf(x); }
__MUSA_DEV double rcbrt(double x) { return 1.0 / __builtin_cbrt(x); }
/* sin(pi x) and cos(pi x) from x reduced exactly (remainder by 2), so integers and
 * half-integers give exact zeros and large arguments lose nothing to pi x's rounding; the
 * argument handed to sin or cos is a reduced one made exactly (Sterbenz), within a quarter
 * turn of a zero of the result. Float forms compute in double. */
__MUSA_DEV double sinpi(double x) {
  if (!__builtin_isfinite(x))
    return x - x; /* NaN */
  double r = __builtin_remainder(x, 2.0), a = __builtin_fabs(r); /* exact, in [-1, 1] */
  if (a == 0.0 || a == 1.0)
    return __builtin_copysign(0.0, x);
  double s = __builtin_sin(3.141592653589793 * (a > 0.5 ? 1.0 - a : a));
  return r < 0 ? -s : s;
}
__MUSA_DEV double cospi(double x) {
  if (!__builtin_isfinite(x))
    return x - x;
  double a = __builtin_fabs(__builtin_remainder(x, 2.0)); /* exact, in [0, 1] */
  if (a == 0.5)
    return 0.0;
  if (a < 0.25)
    return __builtin_cos(3.141592653589793 * a);
  if (a > 0.75)
    return -__builtin_cos(3.141592653589793 * (1.0 - a));
  return __builtin_sin(3.141592653589793 * (0.5 - a));
}
__MUSA_DEV float sinpif(float x) { return (float)sinpi((double)x); }
__MUSA_DEV float cospif(float x) { return (float)cospi((double)x); }
/* sincosf's cosine goes through __musa_sim_sincos_cosf, which the lowering turns back into
 * a cosine marked as half of one sincos: the GPU computes the pair for little more than a
 * sine (DeviceLowering.cpp, math_pipes.h200.txt). */
extern "C" __device__ __attribute__((const)) float __musa_sim_sincos_cosf(float);
__MUSA_DEV void sincosf(float x, float *s, float *c) { *s = __builtin_sinf(x); *c = __musa_sim_sincos_cosf(x); }
__MUSA_DEV void sincos(double x, double *s, double *c) { *s = __builtin_sin(x); *c = __builtin_cos(x); }
__MUSA_DEV void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
__MUSA_DEV void sincospi(double x, double *s, double *c) { *s = sinpi(x); *c = cospi(x); }
__MUSA_DEV float norm3df(float a, float b, float c) { return __builtin_sqrtf(a * a + b * b + c * c); }
__MUSA_DEV double norm3d(double a, double b, double c) { return __builtin_sqrt(a * a + b * b + c * c); }
__MUSA_DEV float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
__MUSA_DEV double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
__MUSA_DEV float norm4df(float a, float b, float c, float d) {
  return __builtin_sqrtf(a * a + b * b + c * c + d * d);
}
__MUSA_DEV double norm4d(double a, double b, double c, double d) {
  return __builtin_sqrt(a * a + b * b + c * c + d * d);
}
__MUSA_DEV float rnorm4df(float a, float b, float c, float d) { return 1.0f / norm4df(a, b, c, d); }
__MUSA_DEV double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
/* The Euclidean norm of dim values (and its reciprocal), summed in double as the GPU's
 * scaled algorithm is accurate to a few ulp. */
__MUSA_DEV double norm(int dim, const double *p) {
  double s = 0.0;
  for (int i = 0; i < dim; ++i)
    s += p[i] * p[i];
  return __builtin_sqrt(s);
}
__MUSA_DEV float normf(int dim, const float *p) {
  double s = 0.0;
  for (int i = 0; i < dim; ++i)
    s += (double)p[i] * (double)p[i];
  return (float)__builtin_sqrt(s);
}
__MUSA_DEV double rnorm(int dim, const double *p) { return 1.0 / norm(dim, p); }
__MUSA_DEV float rnormf(int dim, const float *p) { return 1.0f / normf(dim, p); }
/* Modified Bessel functions of the first kind, orders 0 and 1: the power series where it
 * converges quickly, the asymptotic expansion beyond |x| = 30. */
__MUSA_DEV double __musa_bessel_i(int order, double x) {
  double ax = __builtin_fabs(x);
  if (ax > 30.0) {
    double m = 4.0 * order * order, t = 1.0, sum = 1.0;
    for (int k = 1; k < 8; ++k) {
      t *= -(m - (2.0 * k - 1) * (2.0 * k - 1)) / (k * 8.0 * ax);
      sum += t;
    }
    double r = __builtin_exp(ax) / __builtin_sqrt(2.0 * 3.14159265358979323846 * ax) * sum;
    return order == 1 && x < 0 ? -r : r;
  }
  double q = x * x / 4.0, term = order == 0 ? 1.0 : x / 2.0, sum = term;
  for (int k = 1; k < 200 && term != 0.0; ++k) {
    term *= q / (k * (double)(k + order));
    sum += term;
    if (__builtin_fabs(term) < __builtin_fabs(sum) * 1e-17)
      break;
  }
  return sum;
}
__MUSA_DEV double cyl_bessel_i0(double x) { return __musa_bessel_i(0, x); }
__MUSA_DEV double cyl_bessel_i1(double x) { return __musa_bessel_i(1, x); }
__MUSA_DEV float cyl_bessel_i0f(float x) { return (float)__musa_bessel_i(0, x); }
__MUSA_DEV float cyl_bessel_i1f(float x) { return (float)__musa_bessel_i(1, x); }
/* Bessel functions of the first and second kind (j0, j1, jn, y0, y1, yn and their float
 * forms): the host C library's, which device code binds to (kernel-jit's HostCallables.def);
 * declared here under other names because <math.h> declares them host-only. */
#define __MUSA_LIBM_BESSEL(fn)                                                               \
  __device__ double __musa_libm_##fn(double) __asm__(#fn);                                    \
  __device__ float __musa_libm_##fn##f(float) __asm__(#fn "f");                               \
  __MUSA_DEV double fn(double x) { return __musa_libm_##fn(x); }                              \
  __MUSA_DEV float fn##f(float x) { return __musa_libm_##fn##f(x); }
#define __MUSA_LIBM_BESSEL_N(fn)                                                             \
  __device__ double __musa_libm_##fn(int, double) __asm__(#fn);                               \
  __device__ float __musa_libm_##fn##f(int, float) __asm__(#fn "f");                          \
  __MUSA_DEV double fn(int n, double x) { return __musa_libm_##fn(n, x); }                    \
  __MUSA_DEV float fn##f(int n, float x) { return __musa_libm_##fn##f(n, x); }
__MUSA_LIBM_BESSEL(j0)
__MUSA_LIBM_BESSEL(j1)
__MUSA_LIBM_BESSEL(y0)
__MUSA_LIBM_BESSEL(y1)
__MUSA_LIBM_BESSEL_N(jn)
__MUSA_LIBM_BESSEL_N(yn)
#undef __MUSA_LIBM_BESSEL
#undef __MUSA_LIBM_BESSEL_N
__MUSA_DEV float rhypotf(float x, float y) { return 1.0f / __builtin_hypotf(x, y); }
__MUSA_DEV double rhypot(double x, double y) { return 1.0 / __builtin_hypot(x, y); }
__MUSA_DEV float fdividef(float x, float y) { return x / y; }
__MUSA_DEV float nanf(const char *) { return __builtin_nanf(""); }
__MUSA_DEV double nan(const char *) { return __builtin_nan(""); }

/* The rest of C++'s <cmath> overload set: float forms of the functions whose arguments are not
 * all floats (the macros above cover f(float) and f(float, float)), and the double forms of
 * lrint, llrint and scalbln. Without them a float argument found only the double function, and
 * a double argument only libstdc++'s float and long double forms (the host's double function
 * cannot be called here), which tied. */
__MUSA_DEV float frexp(float x, int *e) { return __builtin_frexpf(x, e); }
__MUSA_DEV float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }
__MUSA_DEV float scalbn(float x, int e) { return __builtin_scalbnf(x, e); }
__MUSA_DEV float scalblnf(float x, long e) { return __builtin_scalblnf(x, e); }
__MUSA_DEV double scalbln(double x, long e) { return __builtin_scalbln(x, e); }
__MUSA_DEV float scalbln(float x, long e) { return __builtin_scalblnf(x, e); }
__MUSA_DEV float modf(float x, float *i) { return __builtin_modff(x, i); }
__MUSA_DEV float remquo(float x, float y, int *q) { return __builtin_remquof(x, y, q); }
__MUSA_DEV int ilogb(float x) { return __builtin_ilogbf(x); }
__MUSA_DEV long lrint(double x) { return __builtin_lrint(x); }
__MUSA_DEV long lrint(float x) { return __builtin_lrintf(x); }
__MUSA_DEV long long llrint(double x) { return __builtin_llrint(x); }
__MUSA_DEV long long llrint(float x) { return __builtin_llrintf(x); }
__MUSA_DEV long lround(float x) { return __builtin_lroundf(x); }
__MUSA_DEV long long llround(float x) { return __builtin_llroundf(x); }

/* Mixed arguments (pow(x, 2), fmax(f, 1.0), fma(f, f, 2.0)) promote as <cmath> specifies:
 * to double if any argument is double or an integer, else float. libstdc++'s own promoting
 * templates call the host's double functions, so device code gets these. */
template <class T> struct __musa_floating { using type = double; };
template <> struct __musa_floating<float> { using type = float; };
template <class... T>
using __musa_promoted = decltype((typename __musa_floating<T>::type() + ...));
template <bool B, class T = void> struct __musa_enable_if {};
template <class T> struct __musa_enable_if<true, T> { using type = T; };
#define __MUSA_MIXED2(fn)                                                                    \
  template <class A, class B>                                                                \
  __MUSA_DEV typename __musa_enable_if<__is_arithmetic(A) && __is_arithmetic(B),             \
                                       __musa_promoted<A, B>>::type                          \
  fn(A a, B b) {                                                                             \
    return fn((__musa_promoted<A, B>)a, (__musa_promoted<A, B>)b);                           \
  }
__MUSA_MIXED2(atan2)
__MUSA_MIXED2(copysign)
__MUSA_MIXED2(fdim)
__MUSA_MIXED2(fmax)
__MUSA_MIXED2(fmin)
__MUSA_MIXED2(fmod)
__MUSA_MIXED2(hypot)
__MUSA_MIXED2(nextafter)
__MUSA_MIXED2(pow)
__MUSA_MIXED2(remainder)
#undef __MUSA_MIXED2
template <class A, class B, class C>
__MUSA_DEV typename __musa_enable_if<__is_arithmetic(A) && __is_arithmetic(B) &&
                                         __is_arithmetic(C),
                                     __musa_promoted<A, B, C>>::type
fma(A a, B b, C c) {
  using R = __musa_promoted<A, B, C>;
  return fma((R)a, (R)b, (R)c);
}

/* std:: spellings: re-declaring the names in std after the device overloads exist makes
 * std::sin(x) in device code find them (<cmath> brought in only the host ones). */
namespace std {
using ::acos;
using ::acosh;
using ::asin;
using ::asinh;
using ::atan;
using ::atanh;
using ::cbrt;
using ::ceil;
using ::cos;
using ::cosh;
using ::erf;
using ::erfc;
using ::exp;
using ::exp2;
using ::expm1;
using ::fabs;
using ::floor;
using ::lgamma;
using ::log;
using ::log10;
using ::log1p;
using ::log2;
using ::logb;
using ::nearbyint;
using ::rint;
using ::round;
using ::sin;
using ::sinh;
using ::sqrt;
using ::tan;
using ::tanh;
using ::tgamma;
using ::trunc;
using ::atan2;
using ::copysign;
using ::fdim;
using ::fmax;
using ::fmin;
using ::fmod;
using ::hypot;
using ::nextafter;
using ::pow;
using ::remainder;
using ::fma;
using ::frexp;
using ::ldexp;
using ::scalbn;
using ::modf;
using ::remquo;
using ::ilogb;
using ::lround;
using ::llround;
using ::lrint;
using ::llrint;
using ::scalbln;
using ::nan;
/* The float functions by their C names (std::sqrtf, std::acosf, ...), which <cmath> declares
 * in std since C++11 (libstdc++ before 14 does not, on the host either). */
using ::acosf;
using ::acoshf;
using ::asinf;
using ::asinhf;
using ::atanf;
using ::atanhf;
using ::cbrtf;
using ::ceilf;
using ::cosf;
using ::coshf;
using ::erff;
using ::erfcf;
using ::expf;
using ::exp2f;
using ::expm1f;
using ::fabsf;
using ::floorf;
using ::lgammaf;
using ::logf;
using ::log10f;
using ::log1pf;
using ::log2f;
using ::logbf;
using ::nearbyintf;
using ::rintf;
using ::roundf;
using ::sinf;
using ::sinhf;
using ::sqrtf;
using ::tanf;
using ::tanhf;
using ::tgammaf;
using ::truncf;
using ::atan2f;
using ::copysignf;
using ::fdimf;
using ::fmaxf;
using ::fminf;
using ::fmodf;
using ::hypotf;
using ::nextafterf;
using ::powf;
using ::remainderf;
using ::fmaf;
using ::frexpf;
using ::ldexpf;
using ::scalbnf;
using ::scalblnf;
using ::modff;
using ::remquof;
using ::ilogbf;
using ::lroundf;
using ::llroundf;
using ::lrintf;
using ::llrintf;
using ::nanf;
} // namespace std

/* erfinv/erfcinv: Giles' single-precision approximation refined by two Newton steps on erf,
 * which brings it to the precision of the type (there is no libm counterpart). */
__MUSA_DEV double erfinv(double y) {
  if (y <= -1.0) return y == -1.0 ? -__builtin_inf() : __builtin_nan("");
  if (y >= 1.0) return y == 1.0 ? __builtin_inf() : __builtin_nan("");
  double w = -__builtin_log((1.0 - y) * (1.0 + y)), x;
  if (w < 5.0) {
    w -= 2.5;
    x = 2.81022636e-08;
    x = 3.43273939e-07 + x * w; x = -3.5233877e-06 + x * w; x = -4.39150654e-06 + x * w;
    x = 0.00021858087 + x * w; x = -0.00125372503 + x * w; x = -0.00417768164 + x * w;
    x = 0.246640727 + x * w; x = 1.50140941 + x * w;
  } else {
    w = __builtin_sqrt(w) - 3.0;
    x = -0.000200214257;
    x = 0.000100950558 + x * w; x = 0.00134934322 + x * w; x = -0.00367342844 + x * w;
    x = 0.00573950773 + x * w; x = -0.0076224613 + x * w; x = 0.00943887047 + x * w;
    x = 1.00167406 + x * w; x = 2.83297682 + x * w;
  }
  x *= y;
  for (int i = 0; i < 2; ++i) // Newton: d/dx erf(x) = 2/sqrt(pi) exp(-x^2)
    x -= (__builtin_erf(x) - y) / (1.1283791670955126 * __builtin_exp(-x * x));
  return x;
}
__MUSA_DEV float erfinvf(float y) { return (float)erfinv((double)y); }
/* erfcinv(y) is erfinv(1 - y) only where 1 - y keeps y's digits; in the tails (y near 0 or
 * 2) Newton steps on log(erfc(x)), which erfc's full range keeps accurate down to 1e-300. */
__MUSA_DEV double erfcinv(double y) {
  if (!(y > 0.0 && y < 2.0))
    return y == 0.0 ? __builtin_inf() : y == 2.0 ? -__builtin_inf() : __builtin_nan("");
  if (y > 1.0)
    return -erfcinv(2.0 - y); /* exact for y in [1, 2) */
  if (y > 0.0625)
    return erfinv(1.0 - y);
  double x = __builtin_sqrt(-__builtin_log(y)); /* above the root; Newton comes down */
  for (int i = 0; i < 8; ++i) {
    double e = __builtin_erfc(x);
    if (e <= 0.0) { /* past erfc's range */
      x *= 0.9;
      continue;
    }
    double step = (__builtin_log(e) - __builtin_log(y)) /
                  (-1.1283791670955126 * __builtin_exp(-x * x) / e);
    x -= step;
    if (__builtin_fabs(step) <= 1e-16 * x)
      break;
  }
  return x;
}
__MUSA_DEV float erfcinvf(float y) { return (float)erfcinv((double)y); }
__MUSA_DEV double normcdf(double x) { return 0.5 * __builtin_erfc(-x * 0.7071067811865476); }
__MUSA_DEV float normcdff(float x) { return 0.5f * __builtin_erfcf(-x * 0.70710678f); }
__MUSA_DEV double normcdfinv(double p) { return -1.4142135623730951 * erfcinv(2.0 * p); }
__MUSA_DEV float normcdfinvf(float p) { return (float)normcdfinv((double)p); }

/* classification: the C macros (isnan, ...) already work on both sides via builtins; these are
 * the CUDA function forms. */
__MUSA_DEV int __isnanf(float x) { return __builtin_isnan(x); }
__MUSA_DEV int __isinff(float x) { return __builtin_isinf(x); }
__MUSA_DEV int __finitef(float x) { return __builtin_isfinite(x); }
__MUSA_DEV int __isnan(double x) { return __builtin_isnan(x); }
__MUSA_DEV int __isinf(double x) { return __builtin_isinf(x); }
__MUSA_DEV int __finite(double x) { return __builtin_isfinite(x); }
__MUSA_DEV int __signbitf(float x) { return __builtin_signbit(x); }
__MUSA_DEV int __signbit(double x) { return __builtin_signbit(x); }

/* ---- fast and rounding-mode intrinsics ------------------------------------------------- */
/* The fast forms compute the accurate result (a superset of the hardware's guarantee), but
 * the timing model must count what the GPU runs for them: one MUFU operation and a few
 * multiplies, not the accurate function's polynomial. So they call __musa_sim_fast_<name>,
 * which kernel-jit's lowering turns into the libm function (or division) carrying the
 * approximate-function flag (DeviceLowering.cpp). */
#define __MUSA_FAST1(fn)                                                                     \
  extern "C" __device__ __attribute__((const)) float __musa_sim_fast_##fn##f(float);        \
  __MUSA_DEV float __##fn##f(float x) { return __musa_sim_fast_##fn##f(x); }
__MUSA_FAST1(exp)
__MUSA_FAST1(exp10)
__MUSA_FAST1(log)
__MUSA_FAST1(log2)
__MUSA_FAST1(log10)
__MUSA_FAST1(sin)
__MUSA_FAST1(cos)
__MUSA_FAST1(tan)
#undef __MUSA_FAST1
extern "C" __device__ __attribute__((const)) float __musa_sim_fast_powf(float, float);
extern "C" __device__ __attribute__((const)) float __musa_sim_fast_fdividef(float, float);
__MUSA_DEV void __sincosf(float x, float *s, float *c) { *s = __sinf(x); *c = __cosf(x); }
__MUSA_DEV float __powf(float x, float y) { return __musa_sim_fast_powf(x, y); }
__MUSA_DEV float __fdividef(float x, float y) { return __musa_sim_fast_fdividef(x, y); }
__MUSA_DEV float __frcp_rn(float x) { return 1.0f / x; }
__MUSA_DEV float __fsqrt_rn(float x) { return __builtin_sqrtf(x); }
__MUSA_DEV float __frsqrt_rn(float x) { return 1.0f / __builtin_sqrtf(x); }
__MUSA_DEV float __saturatef(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
/* Directed rounding (_rz, _ru, _rd) of +, -, *, /, sqrt, reciprocal and (float) fma: the
 * nearest result r, then one step towards the mode's side when the exact result lies on the
 * other side of r. Where it lies comes from the exact error: TwoSum's for a sum; for float
 * products, quotients and fmas the exact or sign-exact double result; for double products
 * fma(a, b, -r), for quotients the exact remainder fma(-r, b, a) (over b's sign), with the
 * smaller operand scaled by 2^200 where the result is subnormal (the error would underflow);
 * for square roots x - r*r (in double for floats). A finite operation that overflows rounds to the largest
 * finite value on the modes' side away from infinity, as IEEE 754 says. */
__MUSA_DEV float __musa_next(float r, float to) { return __builtin_nextafterf(r, to); }
__MUSA_DEV double __musa_next(double r, double to) { return __builtin_nextafter(r, to); }
template <class T, class E>
__MUSA_DEV T __musa_directed(T r, E below, int mode, bool overflow = false) {
  /* `below`: the exact value minus r, as a sign (its magnitude does not matter). mode: 0
   * towards zero, 1 up, 2 down. `overflow`: r is an infinity the exact result is not. */
  if (overflow) {
    T largest = __musa_next((T)__builtin_inf(), (T)0);
    bool keep = r > 0 ? mode == 1 : mode == 2; // rounding away from zero keeps the infinity
    return keep ? r : r > 0 ? largest : -largest;
  }
  if (below == (E)0 || !__builtin_isfinite(r))
    return r;
  T up = __musa_next(r, (T)__builtin_inf()), down = __musa_next(r, -(T)__builtin_inf());
  if (mode == 1)
    return below > 0 ? up : r;
  if (mode == 2)
    return below < 0 ? down : r;
  return r > 0 ? (below < 0 ? down : r) : r < 0 ? (below > 0 ? up : r) : r;
}
/* An exact zero sum x + y rounded down is -0 unless both are +0 (IEEE 754: +0 in the other
 * modes, as the nearest result already is). */
template <class T> __MUSA_DEV T __musa_zero_sum(T x, T y) {
  return x == 0 && y == 0 && !__builtin_signbit(x) && !__builtin_signbit(y) ? (T)0 : -(T)0;
}
template <class T> __MUSA_DEV T __musa_add_err(T a, T b, T s) {
  T bb = s - a;
  return (a - (s - bb)) + (b - bb);
}
/* The sign of the exact double product or quotient minus r (see above). */
__MUSA_DEV double __musa_mul_err(double a, double b, double r) {
  if (__builtin_fabs(r) >= 0x1p-960 || a == 0 || b == 0)
    return __builtin_fma(a, b, -r);
  if (r == 0)
    return (a > 0) == (b > 0) ? 1.0 : -1.0; // the whole product lies below the subnormals
  bool scaleA = __builtin_fabs(a) < __builtin_fabs(b);
  double as = scaleA ? a * 0x1p200 : a, bs = scaleA ? b : b * 0x1p200;
  double rs = as * bs, R = r * 0x1p200;
  return rs != R ? rs - R : __builtin_fma(as, bs, -rs);
}
__MUSA_DEV double __musa_div_err(double a, double b, double r) {
  if (__builtin_fabs(r) >= 0x1p-960 || a == 0 || !__builtin_isfinite(b))
    return __builtin_fma(-r, b, a) * (b < 0 ? -1 : 1);
  if (r == 0)
    return (a > 0) == (b > 0) ? 1.0 : -1.0;
  double as = a * 0x1p200, rs = as / b, R = r * 0x1p200;
  return rs != R ? rs - R : __builtin_fma(-rs, b, as) * (b < 0 ? -1 : 1);
}
__MUSA_DEV bool __musa_overflowed(double r, double a, double b) {
  return __builtin_isinf(r) && __builtin_isfinite(a) && __builtin_isfinite(b);
}
/* Z: the result rounded down where r is an exact zero (a sum's sign rule; r otherwise). */
#define __MUSA_ROUNDED(op, R, EF, ED, OVF, Z)                                                \
  __MUSA_DEV float __f##op##_rn(float a, float b) { return R; }                             \
  __MUSA_DEV float __f##op##_rz(float a, float b) { float r = R; return __musa_directed(r, (double)(EF), 0, OVF); } \
  __MUSA_DEV float __f##op##_ru(float a, float b) { float r = R; return __musa_directed(r, (double)(EF), 1, OVF); } \
  __MUSA_DEV float __f##op##_rd(float a, float b) { float r = R; return r == 0 && (EF) == 0 ? (Z) : __musa_directed(r, (double)(EF), 2, OVF); } \
  __MUSA_DEV double __d##op##_rn(double a, double b) { return R; }                          \
  __MUSA_DEV double __d##op##_rz(double a, double b) { double r = R; return __musa_directed(r, (double)(ED), 0, OVF); } \
  __MUSA_DEV double __d##op##_ru(double a, double b) { double r = R; return __musa_directed(r, (double)(ED), 1, OVF); } \
  __MUSA_DEV double __d##op##_rd(double a, double b) { double r = R; return r == 0 && (ED) == 0 ? (Z) : __musa_directed(r, (double)(ED), 2, OVF); }
__MUSA_ROUNDED(add, a + b, __musa_add_err(a, b, r), __musa_add_err(a, b, r),
               __musa_overflowed(r, a, b), __musa_zero_sum(a, b))
__MUSA_ROUNDED(sub, a - b, __musa_add_err(a, -b, r), __musa_add_err(a, -b, r),
               __musa_overflowed(r, a, b), __musa_zero_sum(a, -b))
__MUSA_ROUNDED(mul, a * b, (double)a * b - r, __musa_mul_err(a, b, r), __musa_overflowed(r, a, b),
               r)
__MUSA_ROUNDED(div, a / b, (double)a / b - r, __musa_div_err(a, b, r),
               __musa_overflowed(r, a, b) && b != 0, r)
#undef __MUSA_ROUNDED
#define __MUSA_ROUNDED1(name, T, R, E, OVF)                                                  \
  __MUSA_DEV T name##_rz(T x) { T r = R; return __musa_directed(r, (double)(E), 0, OVF); }      \
  __MUSA_DEV T name##_ru(T x) { T r = R; return __musa_directed(r, (double)(E), 1, OVF); }      \
  __MUSA_DEV T name##_rd(T x) { T r = R; return __musa_directed(r, (double)(E), 2, OVF); }
__MUSA_ROUNDED1(__fsqrt, float, __builtin_sqrtf(x), (double)x - (double)r * r, false)
__MUSA_ROUNDED1(__dsqrt, double, __builtin_sqrt(x), __builtin_fma(-r, r, x), false)
__MUSA_DEV double __dsqrt_rn(double x) { return __builtin_sqrt(x); }
__MUSA_ROUNDED1(__frcp, float, 1.0f / x, 1.0 / x - r, __builtin_isinf(r) && __builtin_isfinite(x) && x != 0)
__MUSA_ROUNDED1(__drcp, double, 1.0 / x, __musa_div_err(1.0, x, r),
                __builtin_isinf(r) && __builtin_isfinite(x) && x != 0)
__MUSA_DEV double __drcp_rn(double x) { return 1.0 / x; }
#undef __MUSA_ROUNDED1
/* float fma: a*b is exact in double, and TwoSum of it and c gives the exact result as s + e. */
__MUSA_DEV float __musa_fmaf_directed(float a, float b, float c, int mode) {
  float r = __builtin_fmaf(a, b, c);
  double p = (double)a * b, s = p + c, e = __musa_add_err(p, (double)c, s);
  if (r == 0 && mode == 2 && s == 0 && e == 0)
    return __musa_zero_sum((float)p, c); /* p is 0 exactly where it is a float 0 */
  return __musa_directed(r, s != r ? s - r : e, mode,
                         __builtin_isinf(r) && __builtin_isfinite(s));
}
__MUSA_DEV float __fmaf_rz(float a, float b, float c) { return __musa_fmaf_directed(a, b, c, 0); }
__MUSA_DEV float __fmaf_ru(float a, float b, float c) { return __musa_fmaf_directed(a, b, c, 1); }
__MUSA_DEV float __fmaf_rd(float a, float b, float c) { return __musa_fmaf_directed(a, b, c, 2); }
__MUSA_DEV float __fmaf_rn(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
__MUSA_DEV double __fma_rn(double a, double b, double c) { return __builtin_fma(a, b, c); }
/* double fma: the sign of a*b + c - r, exactly. a*b is p + fma(a, b, -p); the four terms p,
 * its error, c and -r are summed as an expansion (Shewchuk's Grow-Expansion: exact, its
 * components non-overlapping, so the largest non-zero one carries the sign). Scaled where a
 * term would leave the range: a product below 2^-900 (its error would underflow) by 2^200,
 * unless c is so large that r is c and the error is a*b; one above 2^1000 (sums would
 * overflow) by 2^-8. */
__MUSA_DEV double __musa_fma_err(double a, double b, double c, double r) {
  if (a == 0 || b == 0)
    return c - r; /* r is c */
  double productSign = (a > 0) == (b > 0) ? 1.0 : -1.0;
  double p = a * b;
  if (__builtin_fabs(p) < 0x1p-900) {
    if (__builtin_fabs(c) >= 0x1p800 || __builtin_fabs(r) >= 0x1p800)
      return productSign; /* far below half an ulp of c: r is c */
    (__builtin_fabs(a) < __builtin_fabs(b) ? a : b) *= 0x1p200;
    c *= 0x1p200, r *= 0x1p200, p = a * b;
    if (__builtin_fabs(p) < 0x1p-900)
      return productSign; /* below half the smallest subnormal: r is c */
  } else if (__builtin_fabs(p) > 0x1p1000 || __builtin_fabs(c) > 0x1p1000) {
    (__builtin_fabs(a) > __builtin_fabs(b) ? a : b) *= 0x1p-8;
    double small = c * 0x1p-8; /* a c that vanishes keeps its sign: the other terms are */
    c = small == 0 && c != 0 ? __builtin_copysign(0x1p-1074, c) : small; /* far larger */
    r *= 0x1p-8, p = a * b;
  }
  double terms[4] = {__builtin_fma(a, b, -p), p, c, -r}, e[4];
  int n = 0;
  for (double x : terms) {
    double q = x;
    for (int i = 0; i < n; ++i) {
      double s = q + e[i];
      e[i] = __musa_add_err(q, e[i], s);
      q = s;
    }
    e[n++] = q;
  }
  for (int i = 3; i >= 0; --i)
    if (e[i] != 0)
      return e[i];
  return 0;
}
__MUSA_DEV double __musa_fma_directed(double a, double b, double c, int mode) {
  double r = __builtin_fma(a, b, c), below = __musa_fma_err(a, b, c, r);
  if (r == 0 && mode == 2 && below == 0)
    return __musa_zero_sum(a * b, c); /* an exact zero sum is -0 rounding down */
  return __musa_directed(r, below, mode,
                         __builtin_isinf(r) && __builtin_isfinite(a) && __builtin_isfinite(b) &&
                             __builtin_isfinite(c));
}
__MUSA_DEV double __fma_rz(double a, double b, double c) { return __musa_fma_directed(a, b, c, 0); }
__MUSA_DEV double __fma_ru(double a, double b, double c) { return __musa_fma_directed(a, b, c, 1); }
__MUSA_DEV double __fma_rd(double a, double b, double c) { return __musa_fma_directed(a, b, c, 2); }

#include "musa_integer_functions.h"
#include "musa_conversion_functions.h"

/* ---- memory fences and read-only loads ------------------------------------------------- */
/* The membar builtins: NVPTX selects them (not a plain fence), and the simulator's lowering
   turns them into sequentially consistent fences that keep their scope for the timing model. */
__MUSA_DEV void __threadfence_block(void) { __nvvm_membar_cta(); }
__MUSA_DEV void __threadfence(void) { __nvvm_membar_gl(); }
__MUSA_DEV void __threadfence_system(void) { __nvvm_membar_sys(); }
template <class T> __MUSA_DEV T __ldg(const T *p) { return *p; }
template <class T> __MUSA_DEV T __ldcg(const T *p) { return *p; }
template <class T> __MUSA_DEV T __ldca(const T *p) { return *p; }
template <class T> __MUSA_DEV T __ldcs(const T *p) { return *p; }
template <class T> __MUSA_DEV T __ldlu(const T *p) { return *p; }
template <class T> __MUSA_DEV T __ldcv(const T *p) { return *p; }
template <class T> __MUSA_DEV void __stwt(T *p, T v) { *p = v; }
template <class T> __MUSA_DEV void __stcg(T *p, T v) { *p = v; }
template <class T> __MUSA_DEV void __stcs(T *p, T v) { *p = v; }
template <class T> __MUSA_DEV void __stwb(T *p, T v) { *p = v; }

/* ---- atomics ---------------------------------------------------------------------------
 * Real atomics on the host (GPU threads of different blocks run on different TBB workers).
 * All scopes are implemented at system scope, which is the strongest and therefore correct
 * for _block and device-wide uses. Each returns the old value, as CUDA's do. */
__MUSA_DEV float __musa_atomic_exchange_float(float *p, float v, int order) {
  return __builtin_bit_cast(float, __atomic_exchange_n((unsigned int *)p,
                                                       __builtin_bit_cast(unsigned int, v), order));
}
#define __MUSA_ATOMIC_RMW(name, T, builtin)                                                  \
  __MUSA_DEV T name(T *p, T v) { return builtin(p, v, __ATOMIC_RELAXED); }                 \
  __MUSA_DEV T name##_block(T *p, T v) { return builtin(p, v, __ATOMIC_RELAXED); }         \
  __MUSA_DEV T name##_system(T *p, T v) { return builtin(p, v, __ATOMIC_RELAXED); }
#define __MUSA_ATOMIC_INTS(name, builtin)                                                    \
  __MUSA_ATOMIC_RMW(name, int, builtin)                                                      \
  __MUSA_ATOMIC_RMW(name, unsigned int, builtin)                                             \
  __MUSA_ATOMIC_RMW(name, unsigned long long, builtin)
__MUSA_ATOMIC_INTS(atomicAdd, __atomic_fetch_add)
__MUSA_ATOMIC_RMW(atomicAdd, float, __atomic_fetch_add)
__MUSA_ATOMIC_RMW(atomicAdd, double, __atomic_fetch_add)
__MUSA_ATOMIC_RMW(atomicSub, int, __atomic_fetch_sub)
__MUSA_ATOMIC_RMW(atomicSub, unsigned int, __atomic_fetch_sub)
__MUSA_ATOMIC_INTS(atomicExch, __atomic_exchange_n)
__MUSA_ATOMIC_RMW(atomicExch, float, __musa_atomic_exchange_float)
__MUSA_ATOMIC_INTS(atomicMin, __atomic_fetch_min)
__MUSA_ATOMIC_RMW(atomicMin, long long, __atomic_fetch_min)
__MUSA_ATOMIC_INTS(atomicMax, __atomic_fetch_max)
__MUSA_ATOMIC_RMW(atomicMax, long long, __atomic_fetch_max)
__MUSA_ATOMIC_INTS(atomicAnd, __atomic_fetch_and)
__MUSA_ATOMIC_INTS(atomicOr, __atomic_fetch_or)
__MUSA_ATOMIC_INTS(atomicXor, __atomic_fetch_xor)
#undef __MUSA_ATOMIC_INTS
#undef __MUSA_ATOMIC_RMW

/* atomicInc/atomicDec are one atomic instruction on the GPU (atom.inc/atom.dec, which the
 * simulator runs as LLVM's uinc_wrap/udec_wrap read-modify-writes), not a compare-and-swap
 * retry loop. */
#define __MUSA_ATOMIC_CAS(suffix)                                                            \
  __MUSA_DEV int atomicCAS##suffix(int *p, int expected, int desired) {                     \
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED,              \
                                __ATOMIC_RELAXED);                                           \
    return expected;                                                                         \
  }                                                                                          \
  __MUSA_DEV unsigned int atomicCAS##suffix(unsigned int *p, unsigned int expected,          \
                                            unsigned int desired) {                          \
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED,              \
                                __ATOMIC_RELAXED);                                           \
    return expected;                                                                         \
  }                                                                                          \
  __MUSA_DEV unsigned long long atomicCAS##suffix(unsigned long long *p,                     \
                                                  unsigned long long expected,               \
                                                  unsigned long long desired) {              \
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED,              \
                                __ATOMIC_RELAXED);                                           \
    return expected;                                                                         \
  }                                                                                          \
  __MUSA_DEV unsigned short atomicCAS##suffix(unsigned short *p, unsigned short expected,    \
                                              unsigned short desired) {                      \
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED,              \
                                __ATOMIC_RELAXED);                                           \
    return expected;                                                                         \
  }                                                                                          \
  __MUSA_DEV unsigned int atomicInc##suffix(unsigned int *p, unsigned int limit) {           \
    return __nvvm_atom_inc_gen_ui(p, limit);                                                 \
  }                                                                                          \
  __MUSA_DEV unsigned int atomicDec##suffix(unsigned int *p, unsigned int limit) {           \
    return __nvvm_atom_dec_gen_ui(p, limit);                                                 \
  }
__MUSA_ATOMIC_CAS()
__MUSA_ATOMIC_CAS(_block)
__MUSA_ATOMIC_CAS(_system)
#undef __MUSA_ATOMIC_CAS

/* ---- warp collectives and block reductions --------------------------------------------
 * Lowered to the simulator's warp exchange: lanes named by the mask meet, exchange values and
 * continue together. On 128-lane warps a mask bit names a lane in each 32-lane quarter and
 * mask-valued results report the caller's quarter (musa/sim/WarpCollective.h). */
/* Values exchanged may be undefined in lanes that do not supply one (the warp-aggregated
 * atomic's `int prev;` is set by the leader only): maybe_undef freezes them at the call
 * instead of letting the optimiser treat the call as unreachable for those lanes. */
#define __MUSA_MAYBE_UNDEF __attribute__((maybe_undef))
#if !defined(__MUSA_SIM_HW__)
extern "C" {
__device__ unsigned long long __musa_sim_warp(unsigned op, unsigned mask,
                                              __MUSA_MAYBE_UNDEF unsigned long long value,
                                              int arg, int width);
__device__ int __musa_sim_barrier_reduce(unsigned op, int predicate);
/* Non-exited lanes of the caller's quarter: what __activemask() was before it became
 * WarpConverge; the simulator still serves it for device code compiled by older headers. */
__device__ unsigned __musa_sim_active_mask(void);
}
#else
/* The hardware pass (PTX for an NVIDIA GPU): the same operations as NVPTX builtins, on 32-lane
 * warps. `op` is a constant after inlining, so each call folds to one instruction sequence. */
static __device__ __forceinline__ unsigned __musa_hw_shfl(unsigned op, unsigned mask, unsigned v,
                                                          int arg, int width) {
  int c = (32 - width) << 8;
  switch (op) {
  case 1: return (unsigned)__nvvm_shfl_sync_idx_i32(mask, (int)v, arg, c | 0x1f);
  case 2: return (unsigned)__nvvm_shfl_sync_up_i32(mask, (int)v, arg, c);
  case 3: return (unsigned)__nvvm_shfl_sync_down_i32(mask, (int)v, arg, c | 0x1f);
  default: return (unsigned)__nvvm_shfl_sync_bfly_i32(mask, (int)v, arg, c | 0x1f);
  }
}
static __device__ __forceinline__ unsigned long long
__musa_sim_warp(unsigned op, unsigned mask, __MUSA_MAYBE_UNDEF unsigned long long value, int arg,
                int width) {
  op &= 0xffu; /* the quarter-local flag (0x100) changes nothing on 32-lane warps */
  switch (op) {
  case 0: __nvvm_bar_warp_sync(mask); return 0;
  case 1: case 2: case 3: case 4: {
    unsigned lo = __musa_hw_shfl(op, mask, (unsigned)value, arg, width);
    unsigned hi = __musa_hw_shfl(op, mask, (unsigned)(value >> 32), arg, width);
    return ((unsigned long long)hi << 32) | lo;
  }
  case 5: return __nvvm_vote_ballot_sync(mask, value != 0);
  case 6: return __nvvm_vote_any_sync(mask, value != 0);
  case 7: return __nvvm_vote_all_sync(mask, value != 0);
  case 8: return __nvvm_match_any_sync_i64(mask, (long long)value);
  case 9: { int pred; return __nvvm_match_all_sync_i64p(mask, (long long)value, &pred); }
  case 10: return (unsigned)__nvvm_redux_sync_add((int)value, mask);
  case 11: return (unsigned)__nvvm_redux_sync_umin((unsigned)value, mask);
  case 12: return (unsigned)__nvvm_redux_sync_umax((unsigned)value, mask);
  case 13: return (unsigned)__nvvm_redux_sync_min((int)value, mask);
  case 14: return (unsigned)__nvvm_redux_sync_max((int)value, mask);
  case 18: return __nvvm_activemask();
  case 15: return (unsigned)__nvvm_redux_sync_and((int)value, mask);
  case 16: return (unsigned)__nvvm_redux_sync_or((int)value, mask);
  default: return (unsigned)__nvvm_redux_sync_xor((int)value, mask);
  }
}
static __device__ __forceinline__ int __musa_sim_barrier_reduce(unsigned op, int predicate) {
  return op == 0 ? __nvvm_bar0_popc(predicate) : op == 1 ? __nvvm_bar0_and(predicate)
                                                          : __nvvm_bar0_or(predicate);
}
static __device__ __forceinline__ unsigned __musa_sim_active_mask(void) {
  return __nvvm_activemask();
}
#endif
template <class T> __MUSA_DEV unsigned long long __musa_bits(__MUSA_MAYBE_UNDEF T v) {
  static_assert(sizeof(T) <= 8, "warp values are at most 64 bits");
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T> __MUSA_DEV T __musa_from_bits(unsigned long long bits) {
  T v;
  __builtin_memcpy(&v, &bits, sizeof(T));
  return v;
}
template <class T> __MUSA_DEV T __shfl_sync(unsigned mask, __MUSA_MAYBE_UNDEF T var, int srcLane, int width = warpSize) {
  return __musa_from_bits<T>(__musa_sim_warp(__MUSA_SIM_WARP_SHFL_IDX, mask, __musa_bits(var), srcLane, width));
}
template <class T>
__MUSA_DEV T __shfl_up_sync(unsigned mask, __MUSA_MAYBE_UNDEF T var, unsigned int delta, int width = warpSize) {
  return __musa_from_bits<T>(__musa_sim_warp(__MUSA_SIM_WARP_SHFL_UP, mask, __musa_bits(var), (int)delta, width));
}
template <class T>
__MUSA_DEV T __shfl_down_sync(unsigned mask, __MUSA_MAYBE_UNDEF T var, unsigned int delta, int width = warpSize) {
  return __musa_from_bits<T>(__musa_sim_warp(__MUSA_SIM_WARP_SHFL_DOWN, mask, __musa_bits(var), (int)delta, width));
}
template <class T>
__MUSA_DEV T __shfl_xor_sync(unsigned mask, __MUSA_MAYBE_UNDEF T var, int laneMask, int width = warpSize) {
  return __musa_from_bits<T>(__musa_sim_warp(__MUSA_SIM_WARP_SHFL_XOR, mask, __musa_bits(var), laneMask, width));
}
__MUSA_DEV unsigned __ballot_sync(unsigned mask, int predicate) {
  return (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_BALLOT, mask, predicate != 0, 0, 0);
}
__MUSA_DEV int __any_sync(unsigned mask, int predicate) {
  return (int)__musa_sim_warp(__MUSA_SIM_WARP_ANY, mask, predicate != 0, 0, 0);
}
__MUSA_DEV int __all_sync(unsigned mask, int predicate) {
  return (int)__musa_sim_warp(__MUSA_SIM_WARP_ALL, mask, predicate != 0, 0, 0);
}
__MUSA_DEV int __uni_sync(unsigned mask, int predicate) {
  int any = __any_sync(mask, predicate), all = __all_sync(mask, predicate);
  return any == all;
}
template <class T> __MUSA_DEV unsigned __match_any_sync(unsigned mask, T value) {
  return (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_MATCH_ANY, mask, __musa_bits(value), 0, 0);
}
template <class T> __MUSA_DEV unsigned __match_all_sync(unsigned mask, T value, int *pred) {
  unsigned r = (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_MATCH_ALL, mask, __musa_bits(value), 0, 0);
  *pred = r != 0;
  return r;
}
__MUSA_DEV void __syncwarp(unsigned mask = 0xffffffffu) { __musa_sim_warp(__MUSA_SIM_WARP_SYNC, mask, 0, 0, 0); }
/* The lanes of the caller's 32-lane quarter that reached this call together (a warp
 * collective that waits for no one: WarpConverge in musa/sim/WarpCollective.h). */
__MUSA_DEV unsigned __activemask(void) { return (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_CONVERGE, 0xffffffffu, 0, 0, 0); }
__MUSA_DEV unsigned __reduce_add_sync(unsigned mask, unsigned v) { return (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_REDUCE_ADD, mask, v, 0, 0); }
__MUSA_DEV int __reduce_add_sync(unsigned mask, int v) { return (int)__musa_sim_warp(__MUSA_SIM_WARP_REDUCE_ADD, mask, (unsigned)v, 0, 0); }
__MUSA_DEV unsigned __reduce_min_sync(unsigned mask, unsigned v) { return (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_REDUCE_MIN_U, mask, v, 0, 0); }
__MUSA_DEV unsigned __reduce_max_sync(unsigned mask, unsigned v) { return (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_REDUCE_MAX_U, mask, v, 0, 0); }
__MUSA_DEV int __reduce_min_sync(unsigned mask, int v) { return (int)__musa_sim_warp(__MUSA_SIM_WARP_REDUCE_MIN_S, mask, (unsigned)v, 0, 0); }
__MUSA_DEV int __reduce_max_sync(unsigned mask, int v) { return (int)__musa_sim_warp(__MUSA_SIM_WARP_REDUCE_MAX_S, mask, (unsigned)v, 0, 0); }
__MUSA_DEV unsigned __reduce_and_sync(unsigned mask, unsigned v) { return (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_REDUCE_AND, mask, v, 0, 0); }
__MUSA_DEV unsigned __reduce_or_sync(unsigned mask, unsigned v) { return (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_REDUCE_OR, mask, v, 0, 0); }
__MUSA_DEV unsigned __reduce_xor_sync(unsigned mask, unsigned v) { return (unsigned)__musa_sim_warp(__MUSA_SIM_WARP_REDUCE_XOR, mask, v, 0, 0); }
/* The caller's lane in its 32-lane group, from its place in the block (warps are consecutive
 * threads): not %laneid % 32, whose remainder the device compiler drops, knowing NVIDIA's
 * %laneid to be below 32 (128-lane warps count to 127). */
__MUSA_DEV unsigned __musa_lane(void) {
  return ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x) % 32;
}
__MUSA_DEV unsigned __lanemask_eq(void) { return 1u << __musa_lane(); }
__MUSA_DEV unsigned __lanemask_lt(void) { return (1u << __musa_lane()) - 1u; }
__MUSA_DEV unsigned __lanemask_le(void) { return (2u << __musa_lane()) - 1u; }
__MUSA_DEV unsigned __lanemask_gt(void) { return ~__lanemask_le(); }
__MUSA_DEV unsigned __lanemask_ge(void) { return ~__lanemask_lt(); }
/* Named barriers (PTX bar.sync a, b): barrier `id` (0..15) completes when `count` threads (a
 * multiple of the warp size), or every thread of the block, have arrived. */
__MUSA_DEV void __barrier_sync(unsigned id) { __nvvm_barrier_sync(id); }
__MUSA_DEV void __barrier_sync_count(unsigned id, unsigned count) { __nvvm_barrier_sync_cnt(id, count); }
__MUSA_DEV int __syncthreads_count(int predicate) { return __musa_sim_barrier_reduce(__MUSA_SIM_BLOCK_COUNT, predicate); }
__MUSA_DEV int __syncthreads_and(int predicate) { return __musa_sim_barrier_reduce(__MUSA_SIM_BLOCK_AND, predicate); }
__MUSA_DEV int __syncthreads_or(int predicate) { return __musa_sim_barrier_reduce(__MUSA_SIM_BLOCK_OR, predicate); }

/* ---- memcpy and memset in device code (string.h declares the host functions only) ------- */
static __device__ __forceinline__ void *memcpy(void *dst, const void *src, size_t n) {
  return __builtin_memcpy(dst, src, n);
}
static __device__ __forceinline__ void *memset(void *dst, int value, size_t n) {
  return __builtin_memset(dst, value, n);
}

/* ---- graph conditional nodes: a handle is the address of its condition value ------------- */
__MUSA_DEV void musaGraphSetConditional(unsigned long long handle, unsigned int value) {
  __atomic_store_n((unsigned int *)handle, value, __ATOMIC_RELEASE);
}

/* ---- clocks ------------------------------------------------------------------------------
 * Device cycles at the profile's clock rate and nanoseconds (host time until the timing model
 * provides simulated time). */
#if defined(__MUSA_SIM_HW__)
__MUSA_DEV void __musa_sim_nanosleep(unsigned int ns) { __nvvm_nanosleep(ns); }
#else
extern "C" __device__ void __musa_sim_nanosleep(unsigned int ns);
#endif
__MUSA_DEV long long clock64(void) { return (long long)__nvvm_read_ptx_sreg_clock64(); }
__MUSA_DEV clock_t clock(void) { return (clock_t)__nvvm_read_ptx_sreg_clock(); }
__MUSA_DEV unsigned long long __globaltimer(void) { return __nvvm_read_ptx_sreg_globaltimer(); }
__MUSA_DEV void __nanosleep(unsigned int ns) { __musa_sim_nanosleep(ns); }

/* ---- shared-window addresses (cp.async, ldmatrix, ld/st.shared in inline PTX) ------------ */
#if defined(__MUSA_SIM_HW__)
__MUSA_DEV size_t __cvta_generic_to_shared(const void *p) {
  return (size_t)(const void __attribute__((address_space(3))) *)p;
}
__MUSA_DEV void *__cvta_shared_to_generic(size_t a) {
  return (void *)(void __attribute__((address_space(3))) *)a;
}
#else
extern "C" __device__ size_t __musa_sim_cvta_to_shared(const void *p);
extern "C" __device__ void *__musa_sim_shared_address(size_t a);
__MUSA_DEV size_t __cvta_generic_to_shared(const void *p) { return __musa_sim_cvta_to_shared(p); }
__MUSA_DEV void *__cvta_shared_to_generic(size_t a) { return __musa_sim_shared_address(a); }
#endif

#undef __MUSA_DEV
#endif /* __CUDA__ */

#include "musa_simd_functions.h"

#endif /* __MUSA_DEVICE_FUNCTIONS_H__ */
