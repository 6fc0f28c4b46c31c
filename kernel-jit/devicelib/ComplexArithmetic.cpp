// The compiler helpers for complex multiplication and division in device code: __mulsc3,
// __muldc3, __divsc3, __divdc3, with the semantics of C99 Annex G (G.5.1).
//
// Why device versions: clang emits calls to these for `_Complex` and std::complex operators,
// returning `{float, float}` / `{double, double}` as NVPTX does. Once the device IR is
// retargeted to the host, such a call returns the two parts in two registers, while the host's
// libgcc __divsc3 packs a `float _Complex` into one: binding device code to the host's helper
// loses the imaginary part. This file is compiled for the NVPTX carrier target at build time
// (so its functions have exactly the signature device code calls), and KernelJit links it into
// every device module (DeviceLibrary.cpp); the host's helpers are never reachable from device
// code.
//
// Following the reference algorithms of Annex G.5.1: the product is computed directly and, if
// both parts come out NaN, infinities are recovered (an infinite factor is "boxed" to +-1 or
// 0, NaNs in the other factor become 0, and the product is recomputed times infinity; the same
// if an intermediate product overflowed). The quotient scales the divisor by a power of two
// (logb/scalbn, written out below) so the denominator neither overflows nor underflows, then recovers the three
// cases that come out NaN+NaN: nonzero / zero is infinite, infinite / finite is infinite,
// finite / infinite is zero. Float quotients are computed in double (the range of double holds
// every product of two floats, so no scaling is needed and the result is rounded once).
// Compiled with -ffp-contract=off: Annex G asks for FP_CONTRACT OFF.

namespace {

inline bool isNan(double x) { return __builtin_isnan(x); }
inline bool isInf(double x) { return __builtin_isinf(x); }
inline bool isFinite(double x) { return __builtin_isfinite(x); }
inline float copySign(float x, float s) { return __builtin_copysignf(x, s); }
inline double copySign(double x, double s) { return __builtin_copysign(x, s); }
/// 1 with the sign of x if x is infinite, else 0 with the sign of x (Annex G's "box").
template <class T> inline T box(T x) { return copySign(isInf(x) ? T(1) : T(0), x); }
/// x, or 0 with the sign of x if x is a NaN.
template <class T> inline T nanToZero(T x) { return isNan(x) ? copySign(T(0), x) : x; }

// logb and scalbn written out: these helpers also go into the driver's PTX pass, where no
// libm is reachable (its calls would stay unresolved externs).
/// The unbiased binary exponent of x (subnormals included); -inf for 0, inf for +-inf.
double logB(double x) {
  if (isNan(x))
    return x;
  if (isInf(x))
    return __builtin_inf();
  if (x == 0.0)
    return -__builtin_inf();
  int e = int((__builtin_bit_cast(unsigned long long, x) >> 52) & 0x7ff);
  if (e == 0) // subnormal: normalise first
    e = int((__builtin_bit_cast(unsigned long long, x * 0x1p64) >> 52) & 0x7ff) - 64;
  return double(e - 1023);
}
/// x * 2^n, in steps whose factor is a normal power of two.
double scaleB(double x, int n) {
  for (; n > 1000; n -= 1000)
    x *= 0x1p1000;
  for (; n < -1000; n += 1000)
    x *= 0x1p-1000;
  return x * __builtin_bit_cast(double, (unsigned long long)(n + 1023) << 52);
}

template <class T> void multiply(T a, T b, T c, T d, T &x, T &y) {
  T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  x = ac - bd;
  y = ad + bc;
  if (!(isNan(x) && isNan(y)))
    return;
  bool recompute = false;
  if (isInf(a) || isInf(b)) { // the first factor is infinite
    a = box(a);
    b = box(b);
    c = nanToZero(c);
    d = nanToZero(d);
    recompute = true;
  }
  if (isInf(c) || isInf(d)) { // the second factor is infinite
    c = box(c);
    d = box(d);
    a = nanToZero(a);
    b = nanToZero(b);
    recompute = true;
  }
  if (!recompute && (isInf(ac) || isInf(bd) || isInf(ad) || isInf(bc))) {
    // an intermediate product overflowed
    a = nanToZero(a);
    b = nanToZero(b);
    c = nanToZero(c);
    d = nanToZero(d);
    recompute = true;
  }
  if (recompute) {
    const T inf = T(__builtin_inf());
    x = inf * (a * c - b * d);
    y = inf * (a * d + b * c);
  }
}

void divide(double a, double b, double c, double d, double &x, double &y) {
  double logbw = logB(__builtin_fmax(__builtin_fabs(c), __builtin_fabs(d)));
  int scale = 0;
  if (isFinite(logbw)) {
    scale = int(logbw);
    c = scaleB(c, -scale);
    d = scaleB(d, -scale);
  }
  double denominator = c * c + d * d;
  x = scaleB((a * c + b * d) / denominator, -scale);
  y = scaleB((b * c - a * d) / denominator, -scale);
  if (!(isNan(x) && isNan(y)))
    return;
  const double inf = __builtin_inf();
  if (denominator == 0.0 && (!isNan(a) || !isNan(b))) { // nonzero / zero
    x = copySign(inf, c) * a;
    y = copySign(inf, c) * b;
  } else if ((isInf(a) || isInf(b)) && isFinite(c) && isFinite(d)) { // infinite / finite
    a = box(a);
    b = box(b);
    x = inf * (a * c + b * d);
    y = inf * (b * c - a * d);
  } else if (isInf(logbw) && logbw > 0.0 && isFinite(a) && isFinite(b)) { // finite / infinite
    c = box(c);
    d = box(d);
    x = 0.0 * (a * c + b * d);
    y = 0.0 * (b * c - a * d);
  }
}

// _Complex does not apply to a template parameter: one builder per type.
#define MUSA_COMPLEX_OF(T)                                                                   \
  T _Complex complexOf(T re, T im) {                                                          \
    T _Complex z;                                                                            \
    __real__ z = re;                                                                         \
    __imag__ z = im;                                                                         \
    return z;                                                                                \
  }
MUSA_COMPLEX_OF(float)
MUSA_COMPLEX_OF(double)
#undef MUSA_COMPLEX_OF

} // namespace

extern "C" {

float _Complex __mulsc3(float a, float b, float c, float d) {
  float x, y;
  multiply(a, b, c, d, x, y);
  return complexOf(x, y);
}

double _Complex __muldc3(double a, double b, double c, double d) {
  double x, y;
  multiply(a, b, c, d, x, y);
  return complexOf(x, y);
}

float _Complex __divsc3(float a, float b, float c, float d) {
  double x, y;
  divide(a, b, c, d, x, y);
  return complexOf(float(x), float(y));
}

double _Complex __divdc3(double a, double b, double c, double d) {
  double x, y;
  divide(a, b, c, d, x, y);
  return complexOf(x, y);
}

} // extern "C"
