/* musa_conversion_functions.h - CUDA's type casting intrinsics for MUSA sources: float and
 * double to integers and back with a rounding mode, and the bit casts between them. Included
 * by musa_device_functions.h, which defines __MUSA_DEV (MUSA sources only). */
#ifndef __MUSA_CONVERSION_FUNCTIONS_H__
#define __MUSA_CONVERSION_FUNCTIONS_H__

/* ---- type conversions with a rounding mode (CUDA's type casting intrinsics) -------------
 * To integers: round as asked, then saturate to the type's range as the GPU's cvt does (NaN:
 * see __musa_nan_to). To float and double: the nearest value, then one step towards the
 * mode's side when the nearest lies on the wrong side of the exact value (compared exactly). */
/* `lo` is the type's least value and `above` the least double past its greatest (2^31,
 * 2^32, 2^63, 2^64: exact in a double), so every double in [lo, above) converts exactly;
 * `tmin`/`tmax` are the saturated results. (A greatest value written as a double, such as
 * 9223372036854775807.0, rounds to 2^63, whose conversion to long long is undefined.) */
#define __MUSA_TO_INT(T, lo, above, tmin, tmax, name, from, r)                                \
  __MUSA_DEV T name(from x) {                                                                \
    double v = r((double)x);                                                                 \
    return v != v ? __musa_nan_to<T, from>()                                                 \
                  : v <= (double)(lo) ? (T)(tmin) : v >= (above) ? (T)(tmax) : (T)v;         \
  }
/* NaN as the H200 converts it (semantics_probe*.mu; kernel-jit's GpuArithmetic does the same
 * for casts): 0 from float to 32-bit integers, only the top bit set from double and to 64-bit
 * integers. */
template <class T, class F> __MUSA_DEV T __musa_nan_to() {
  return sizeof(F) == 4 && sizeof(T) == 4 ? (T)0 : (T)(1ull << (sizeof(T) * 8 - 1));
}
#define __MUSA_TO_INT_ALL(T, lo, above, tmin, tmax, stem, from)                               \
  __MUSA_TO_INT(T, lo, above, tmin, tmax, stem##_rn, from, __builtin_rint)                  \
  __MUSA_TO_INT(T, lo, above, tmin, tmax, stem##_rz, from, __builtin_trunc)                 \
  __MUSA_TO_INT(T, lo, above, tmin, tmax, stem##_rd, from, __builtin_floor)                 \
  __MUSA_TO_INT(T, lo, above, tmin, tmax, stem##_ru, from, __builtin_ceil)
__MUSA_TO_INT_ALL(int, -2147483648.0, 2147483648.0, -2147483647 - 1, 2147483647, __float2int,
                  float)
__MUSA_TO_INT_ALL(unsigned int, 0.0, 4294967296.0, 0u, 4294967295u, __float2uint, float)
__MUSA_TO_INT_ALL(int, -2147483648.0, 2147483648.0, -2147483647 - 1, 2147483647, __double2int,
                  double)
__MUSA_TO_INT_ALL(unsigned int, 0.0, 4294967296.0, 0u, 4294967295u, __double2uint, double)
__MUSA_TO_INT_ALL(long long, -9223372036854775808.0, 9223372036854775808.0,
                  -9223372036854775807LL - 1, 9223372036854775807LL, __float2ll, float)
__MUSA_TO_INT_ALL(unsigned long long, 0.0, 18446744073709551616.0, 0ull, 18446744073709551615ull,
                  __float2ull, float)
__MUSA_TO_INT_ALL(long long, -9223372036854775808.0, 9223372036854775808.0,
                  -9223372036854775807LL - 1, 9223372036854775807LL, __double2ll, double)
__MUSA_TO_INT_ALL(unsigned long long, 0.0, 18446744073709551616.0, 0ull, 18446744073709551615ull,
                  __double2ull, double)
#undef __MUSA_TO_INT_ALL
#undef __MUSA_TO_INT
/* Whether float/double `r` lies below (-1), at (0) or above (1) the exact integer x. */
template <class R, class I> __MUSA_DEV int __musa_side(R r, I x) {
  if (r >= (R)18446744073709551616.0 || r < (R)-9223372036854775808.0)
    return r > 0 ? 1 : -1; /* past any 64-bit integer */
  if (x < 0 || r < 0) {
    long long ri = (long long)r; /* exact: r is an integer value in range */
    return ri < (long long)x ? -1 : ri > (long long)x ? 1 : 0;
  }
  unsigned long long ri = (unsigned long long)r;
  return ri < (unsigned long long)x ? -1 : ri > (unsigned long long)x ? 1 : 0;
}
#define __MUSA_INT_TO(R, name, from, next, inf)                                              \
  __MUSA_DEV R name##_rn(from x) { return (R)x; }                                          \
  __MUSA_DEV R name##_rd(from x) {                                                           \
    R r = (R)x;                                                                              \
    return __musa_side(r, x) > 0 ? next(r, -inf) : r;                                        \
  }                                                                                          \
  __MUSA_DEV R name##_ru(from x) {                                                           \
    R r = (R)x;                                                                              \
    return __musa_side(r, x) < 0 ? next(r, inf) : r;                                         \
  }                                                                                          \
  __MUSA_DEV R name##_rz(from x) {                                                           \
    R r = (R)x;                                                                              \
    int side = __musa_side(r, x);                                                            \
    return (x >= 0 && side > 0) || (x < 0 && side < 0) ? next(r, (R)0) : r;                 \
  }
__MUSA_INT_TO(float, __int2float, int, __builtin_nextafterf, __builtin_inff())
__MUSA_INT_TO(float, __uint2float, unsigned int, __builtin_nextafterf, __builtin_inff())
__MUSA_INT_TO(float, __ll2float, long long, __builtin_nextafterf, __builtin_inff())
__MUSA_INT_TO(float, __ull2float, unsigned long long, __builtin_nextafterf, __builtin_inff())
__MUSA_INT_TO(double, __ll2double, long long, __builtin_nextafter, __builtin_inf())
__MUSA_INT_TO(double, __ull2double, unsigned long long, __builtin_nextafter, __builtin_inf())
#undef __MUSA_INT_TO
__MUSA_DEV double __int2double_rn(int x) { return (double)x; }
__MUSA_DEV double __uint2double_rn(unsigned int x) { return (double)x; }
__MUSA_DEV float __double2float_rn(double x) { return (float)x; }
__MUSA_DEV float __double2float_rd(double x) {
  float r = (float)x;
  return (double)r > x ? __builtin_nextafterf(r, -__builtin_inff()) : r;
}
__MUSA_DEV float __double2float_ru(double x) {
  float r = (float)x;
  return (double)r < x ? __builtin_nextafterf(r, __builtin_inff()) : r;
}
__MUSA_DEV float __double2float_rz(double x) {
  float r = (float)x;
  return __builtin_fabs((double)r) > __builtin_fabs(x) ? __builtin_nextafterf(r, 0.0f) : r;
}
__MUSA_DEV int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__MUSA_DEV unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
__MUSA_DEV float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__MUSA_DEV float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
__MUSA_DEV long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__MUSA_DEV double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__MUSA_DEV int __double2hiint(double x) { return (int)(__builtin_bit_cast(unsigned long long, x) >> 32); }
__MUSA_DEV int __double2loint(double x) { return (int)__builtin_bit_cast(unsigned long long, x); }
__MUSA_DEV double __hiloint2double(int hi, int lo) {
  return __builtin_bit_cast(double, ((unsigned long long)(unsigned)hi << 32) | (unsigned)lo);
}

#endif /* __MUSA_CONVERSION_FUNCTIONS_H__ */
