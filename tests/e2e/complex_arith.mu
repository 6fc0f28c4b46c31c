// Complex multiplication and division in kernels (std::complex<float>/<double> and C's
// _Complex), as FFT and signal-processing samples write them, checked against the host's
// results: finite values to a few ulps, and the special cases of C99 Annex G exactly in kind
// (an infinite factor or a nonzero / zero quotient is infinite, finite / infinite is zero).
#include "check.h"
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

template <class T> struct Operands {
  std::complex<T> a, b;
};

template <class T>
__global__ void arithmetic(const Operands<T> *in, int n, std::complex<T> *quotient,
                           std::complex<T> *product) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  std::complex<T> q = in[i].a;
  q /= in[i].b;
  quotient[i] = q;
  product[i] = in[i].a * in[i].b;
}

// C's complex types, as code shared with C writes them.
__global__ void cDivide(const float *in, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  _Complex float a, b;
  __real__ a = in[4 * i];
  __imag__ a = in[4 * i + 1];
  __real__ b = in[4 * i + 2];
  __imag__ b = in[4 * i + 3];
  _Complex float q = a / b;
  out[2 * i] = __real__ q;
  out[2 * i + 1] = __imag__ q;
}

// Equal in kind (NaN, the same infinity) and, if finite, within `tolerance` of the size of the
// exact result (|a||b| for a product, |a|/|b| for a quotient: the parts' rounding errors scale
// with it, whatever cancellation leaves in one part).
template <class T> bool sameKind(T got, T want, double scale, double tolerance) {
  if (std::isnan(want))
    return std::isnan(got);
  if (std::isinf(want))
    return got == want;
  return std::fabs((double)got - (double)want) <= tolerance * scale + 1e-300;
}

// |z| by hypot: std::abs of a complex with an infinite part may divide inf by inf.
template <class T> double size(std::complex<T> z) {
  return std::hypot((double)z.real(), (double)z.imag());
}

template <class T> std::vector<Operands<T>> operands() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<Operands<T>> v = {
      {{1, 2}, {3, 4}},                        // (11 + 2i) / 25
      {{-2.5, 0.75}, {0.125, -8}},             // plain values
      {{1e30, 1e30}, {1e30, 1e30}},            // products overflow float, not the quotient
      {{1e-30, 2e-30}, {3e-30, -1e-30}},       // tiny parts
      {{3, -7}, {0, 0}},                       // nonzero / zero: infinite
      {{inf, 1}, {2, 3}},                      // infinite / finite: infinite
      {{1, 2}, {inf, -inf}},                   // finite / infinite: zero
      {{inf, nan}, {1, 1}},                    // infinite with a NaN part, times finite
      {{nan, nan}, {1, 2}},                    // NaN stays NaN
      {{inf, inf}, {1, 0}},                    // product: inf*0 terms recovered to infinity
  };
  for (int i = 0; i < 54; ++i) // a spread of ordinary values
    v.push_back({{T(std::sin(i * 0.7) * (i + 1)), T(std::cos(i * 1.3) * 3)},
                 {T(std::cos(i * 0.4) * 2), T(std::sin(i * 0.9) * (64 - i))}});
  return v;
}

template <class T> void check(const char *type, double tolerance) {
  std::vector<Operands<T>> in = operands<T>();
  int n = (int)in.size();
  Operands<T> *dIn;
  std::complex<T> *dQ, *dP;
  CHECK_MUSA(musaMalloc(&dIn, n * sizeof(Operands<T>)));
  CHECK_MUSA(musaMalloc(&dQ, n * sizeof(std::complex<T>)));
  CHECK_MUSA(musaMalloc(&dP, n * sizeof(std::complex<T>)));
  CHECK_MUSA(musaMemcpy(dIn, in.data(), n * sizeof(Operands<T>), musaMemcpyHostToDevice));
  arithmetic<T><<<(n + 31) / 32, 32>>>(dIn, n, dQ, dP);
  CHECK_MUSA(musaDeviceSynchronize());
  std::vector<std::complex<T>> q(n), p(n);
  CHECK_MUSA(musaMemcpy(q.data(), dQ, n * sizeof(std::complex<T>), musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(p.data(), dP, n * sizeof(std::complex<T>), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    std::complex<T> wantQ = in[i].a / in[i].b, wantP = in[i].a * in[i].b;
    double sizeA = size(in[i].a), sizeB = size(in[i].b);
    // A product whose parts overflow depends on contraction (the device may fuse a*c - b*d
    // into an fma, as GPUs do): checked for an infinite size below, not part by part.
    bool finiteProduct = std::isfinite(size(wantP));
    CHECK(sameKind(q[i].real(), wantQ.real(), sizeA / sizeB, tolerance) &&
              sameKind(q[i].imag(), wantQ.imag(), sizeA / sizeB, tolerance),
          "%s quotient %d: (%g,%g) / (%g,%g) = (%g,%g), host (%g,%g)", type, i,
          (double)in[i].a.real(), (double)in[i].a.imag(), (double)in[i].b.real(),
          (double)in[i].b.imag(), (double)q[i].real(), (double)q[i].imag(),
          (double)wantQ.real(), (double)wantQ.imag());
    CHECK(!finiteProduct || (sameKind(p[i].real(), wantP.real(), sizeA * sizeB, tolerance) &&
                             sameKind(p[i].imag(), wantP.imag(), sizeA * sizeB, tolerance)),
          "%s product %d: (%g,%g), host (%g,%g)", type, i, (double)p[i].real(),
          (double)p[i].imag(), (double)wantP.real(), (double)wantP.imag());
  }
  // Fixed expectations that do not depend on the host's library.
  CHECK(std::fabs(q[0].real() - T(0.44)) < T(1e-6) && std::fabs(q[0].imag() - T(0.08)) < T(1e-6),
        "%s (1+2i)/(3+4i) = (%g,%g)", type, (double)q[0].real(), (double)q[0].imag());
  CHECK(std::fabs(q[2].real() - T(1)) < T(1e-6) && std::fabs(q[2].imag()) < T(1e-6),
        "%s z/z with huge parts = (%g,%g)", type, (double)q[2].real(), (double)q[2].imag());
  CHECK(std::isinf(size(q[4])) && std::isinf(size(q[5])),
        "%s nonzero/zero and infinite/finite are infinite", type);
  CHECK(q[6].real() == 0 && q[6].imag() == 0, "%s finite/infinite is zero", type);
  CHECK(std::isinf(size(p[2])) == (sizeof(T) == sizeof(float)),
        "%s (1e30+1e30i)^2 overflows float only: (%g,%g)", type, (double)p[2].real(),
        (double)p[2].imag());
  CHECK(std::isnan(q[8].real()) && std::isnan(p[8].imag()), "%s NaN operands give NaN", type);
  CHECK(std::isinf(size(p[7])) && std::isinf(size(p[9])),
        "%s infinite products stay infinite: (%g,%g) (%g,%g)", type, (double)p[7].real(),
        (double)p[7].imag(), (double)p[9].real(), (double)p[9].imag());
  musaFree(dIn);
  musaFree(dQ);
  musaFree(dP);
}

int main() {
  check<float>("float", 6e-7);
  check<double>("double", 1e-15);

  const int n = 3;
  float in[4 * n] = {1, 2, 3, 4, -6, 8, 0, 2, 5, 0, 0, 0}, out[2 * n];
  float *dIn, *dOut;
  CHECK_MUSA(musaMalloc(&dIn, sizeof in));
  CHECK_MUSA(musaMalloc(&dOut, sizeof out));
  CHECK_MUSA(musaMemcpy(dIn, in, sizeof in, musaMemcpyHostToDevice));
  cDivide<<<1, n>>>(dIn, n, dOut);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(out, dOut, sizeof out, musaMemcpyDeviceToHost));
  CHECK(std::fabs(out[0] - 0.44f) < 1e-6f && std::fabs(out[1] - 0.08f) < 1e-6f,
        "_Complex (1+2i)/(3+4i) = (%g,%g)", out[0], out[1]);
  CHECK(out[2] == 4.0f && out[3] == 3.0f, "_Complex (-6+8i)/2i = (%g,%g)", out[2], out[3]);
  CHECK(std::isinf(out[4]), "_Complex 5/0 = (%g,%g)", out[4], out[5]);
  musaFree(dIn);
  musaFree(dOut);
  return finish("complex_arith");
}
