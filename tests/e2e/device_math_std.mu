// The <cmath>/<cstdlib> spellings ported code uses in kernels: std:: float forms (std::sqrt of
// a float, std::acosf, std::fabsf), std::abs of integers, the float overloads of frexp, modf,
// ldexp, remquo, lrint/llrint/scalbln of doubles and floats, and mixed arguments (pow(x, 2)).
// One __host__ __device__ function computes them all: the device's answers must equal the
// host's, and the overloads chosen must return the types C++ specifies.
#include "check.h"
#include <cmath>
#include <cstdlib>
#include <type_traits>

constexpr int Floats = 24, Doubles = 8, Ints = 12;

__host__ __device__ void evaluate(float x, double y, int n, float *f, double *d, long long *i) {
  int e = 0, q = 0;
  float whole = 0;
  double dwhole = 0;
  // Types first: a float argument picks the float overload.
  static_assert(std::is_same<decltype(std::sqrt(x)), float>::value, "std::sqrt(float)");
  static_assert(std::is_same<decltype(frexp(x, &e)), float>::value, "frexp(float, int*)");
  static_assert(std::is_same<decltype(modf(x, &whole)), float>::value, "modf(float, float*)");
  static_assert(std::is_same<decltype(std::abs(n)), int>::value, "std::abs(int)");
  static_assert(std::is_same<decltype(std::abs(long(n))), long>::value, "std::abs(long)");
  static_assert(std::is_same<decltype(lrint(y)), long>::value, "lrint(double)");
  static_assert(std::is_same<decltype(scalbln(y, 2L)), double>::value, "scalbln(double, long)");
  static_assert(std::is_same<decltype(pow(x, 2)), double>::value, "pow(float, int)");
  f[0] = std::sqrt(x);
  f[1] = std::fabs(-x);
  f[2] = std::acosf(x / 8.0f);
  f[3] = std::fabsf(-x);
  f[4] = std::sinf(x) + 0 * std::cosf(x);
  f[5] = std::expf(x / 4.0f);
  f[6] = std::powf(x, 1.5f);
  f[7] = std::sqrtf(x + 1.0f);
  f[8] = std::log1pf(x);
  f[9] = std::atan2f(x, 3.0f);
  f[10] = frexp(x, &e);
  i[0] = e;
  f[11] = modf(x, &whole);
  f[12] = whole;
  f[13] = std::frexp(x * 3.0f, &e) + (float)e;
  f[14] = ldexp(x, 3);
  f[15] = remquo(x, 1.25f, &q);
  i[1] = q;
  f[16] = scalbln(x, 2L);
  f[17] = std::scalbnf(x, -1);
  f[18] = std::fmaf(x, 2.0f, 1.0f);
  f[19] = std::tgamma(x / 4.0f + 1.0f);
  f[20] = std::hypot(x, 3);     // mixed: double
  f[21] = std::fmax(x, 2);      // mixed: double
  f[22] = std::floorf(x) + std::ceilf(-x);
  f[23] = std::modff(x, &whole) + whole;
  d[0] = std::abs(-y);
  d[1] = frexp(y, &e) + e;
  d[2] = modf(y, &dwhole) + 10 * dwhole;
  d[3] = scalbln(y, 3L);
  d[4] = pow(x, 2);
  d[5] = std::pow(2, y / 4);
  d[6] = fma(x, 2, 0.5);
  d[7] = std::remainder(y, 2);
  i[2] = std::abs(n);
  i[3] = std::abs((long)n * 3000000000L);
  i[4] = std::labs(-(long)n);
  i[5] = std::llabs(-(long long)n * 5000000000LL);
  i[6] = lrint(y);
  i[7] = llrint(y);
  i[8] = lrint(x);
  i[9] = std::llrint(x);
  i[10] = std::lround(x) + std::llround(y);
  i[11] = std::ilogb(x) + ilogb(y);
}

__global__ void kernel(const float *xs, const double *ys, const int *ns, float *f, double *d,
                       long long *i) {
  int t = threadIdx.x;
  evaluate(xs[t], ys[t], ns[t], f + t * Floats, d + t * Doubles, i + t * Ints);
}

int main() {
  const int count = 16;
  float xs[count];
  double ys[count];
  int ns[count];
  for (int t = 0; t < count; ++t) {
    xs[t] = 0.375f + 0.5f * t;           // includes halves: round-to-even matters for lrint
    ys[t] = -4.25 + 0.75 * t;            // -3.5, -0.5, 2.5, 5.5 among them
    ns[t] = (t % 2 ? -1 : 1) * (t * 37 + 1);
  }
  float *dx, *df;
  double *dy, *dd;
  int *dn;
  long long *di;
  CHECK_MUSA(musaMalloc(&dx, sizeof xs));
  CHECK_MUSA(musaMalloc(&dy, sizeof ys));
  CHECK_MUSA(musaMalloc(&dn, sizeof ns));
  CHECK_MUSA(musaMalloc(&df, count * Floats * sizeof(float)));
  CHECK_MUSA(musaMalloc(&dd, count * Doubles * sizeof(double)));
  CHECK_MUSA(musaMalloc(&di, count * Ints * sizeof(long long)));
  CHECK_MUSA(musaMemcpy(dx, xs, sizeof xs, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dy, ys, sizeof ys, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dn, ns, sizeof ns, musaMemcpyHostToDevice));
  kernel<<<1, count>>>(dx, dy, dn, df, dd, di);
  CHECK_MUSA(musaDeviceSynchronize());
  static float f[count * Floats];
  static double d[count * Doubles];
  static long long i[count * Ints];
  CHECK_MUSA(musaMemcpy(f, df, sizeof f, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(d, dd, sizeof d, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(i, di, sizeof i, musaMemcpyDeviceToHost));
  for (int t = 0; t < count; ++t) {
    float hf[Floats];
    double hd[Doubles];
    long long hi[Ints];
    evaluate(xs[t], ys[t], ns[t], hf, hd, hi);
    for (int k = 0; k < Floats; ++k)
      CHECK(std::fabs(f[t * Floats + k] - hf[k]) <= 2e-7f * std::fabs(hf[k]),
            "x=%g float result %d: device %.9g, host %.9g", xs[t], k, f[t * Floats + k], hf[k]);
    for (int k = 0; k < Doubles; ++k)
      CHECK(std::fabs(d[t * Doubles + k] - hd[k]) <= 1e-15 * std::fabs(hd[k]),
            "y=%g double result %d: device %.17g, host %.17g", ys[t], k, d[t * Doubles + k],
            hd[k]);
    for (int k = 0; k < Ints; ++k)
      CHECK(i[t * Ints + k] == hi[k], "t=%d integer result %d: device %lld, host %lld", t, k,
            i[t * Ints + k], hi[k]);
  }
  // Values that do not depend on the host either: round-half-even and exact decompositions.
  CHECK(i[1 * Ints + 6] == -4 && i[9 * Ints + 6] == 2 && i[13 * Ints + 6] == 6,
        "lrint(-3.5)=%lld lrint(2.5)=%lld lrint(5.5)=%lld", i[1 * Ints + 6], i[9 * Ints + 6],
        i[13 * Ints + 6]);
  CHECK(f[2 * Floats + 11] == 0.375f && f[2 * Floats + 12] == 1.0f, "modf(1.375f)");
  CHECK(f[1 * Floats + 10] == 0.875f && i[1 * Ints + 0] == 0, "frexp(0.875f)");
  CHECK(i[1 * Ints + 2] == 38, "std::abs(-38) = %lld", i[1 * Ints + 2]);
  musaFree(dx);
  musaFree(dy);
  musaFree(dn);
  musaFree(df);
  musaFree(dd);
  musaFree(di);
  return finish("device_math_std");
}
