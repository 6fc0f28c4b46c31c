// Device functions public programs call that the math library covers separately: norms of
// arrays and of 3/4 values and their reciprocals, modified Bessel functions of orders 0 and 1,
// Bessel functions of the first and second kind (j0, j1, jn, y0, y1, yn, float and double),
// and the cache-hinted loads and stores (__ldlu, __ldcv, __stwt, ...), against host values.
#include "check.h"
#include <cmath>

__global__ void extras(const float *in, float *out, double *dout) {
  int i = threadIdx.x;
  float x = in[i];
  out[8 * i + 0] = normf(4, in + i);
  out[8 * i + 1] = rnormf(3, in + i);
  out[8 * i + 2] = rnorm3df(x, 2.0f, 3.0f);
  out[8 * i + 3] = norm4df(x, 1.0f, 2.0f, 3.0f) * rnorm4df(x, 1.0f, 2.0f, 3.0f);
  out[8 * i + 4] = cyl_bessel_i0f(x);
  out[8 * i + 5] = cyl_bessel_i1f(x);
  out[8 * i + 6] = __ldlu(in + i) + __ldcv(in + i);
  __stwt(out + 8 * i + 7, x);
  dout[2 * i] = cyl_bessel_i0((double)x * 8);
  dout[2 * i + 1] = cyl_bessel_i1(-(double)x * 8);
}

__global__ void bessel(const double *x, double *d, float *f) {
  int i = threadIdx.x;
  double v = x[i];
  float w = float(v);
  double *o = d + 6 * i;
  float *p = f + 6 * i;
  o[0] = j0(v), o[1] = j1(v), o[2] = jn(3, v), o[3] = y0(v), o[4] = y1(v), o[5] = yn(2, v);
  p[0] = j0f(w), p[1] = j1f(w), p[2] = jnf(3, w), p[3] = y0f(w), p[4] = y1f(w), p[5] = ynf(2, w);
}

static double besselI(int order, double x) { // the series, long enough for |x| <= 40
  double q = x * x / 4, term = order ? x / 2 : 1, sum = term;
  for (int k = 1; k < 400; ++k) {
    term *= q / (k * double(k + order));
    sum += term;
  }
  return sum;
}

int main() {
  const int n = 32;
  float h[n + 4], *in, *out;
  double *dout;
  for (int i = 0; i < n + 4; ++i)
    h[i] = 0.15f * float(i) - 1.0f;
  CHECK_MUSA(musaMalloc(&in, sizeof h));
  CHECK_MUSA(musaMalloc(&out, 8 * n * sizeof(float)));
  CHECK_MUSA(musaMalloc(&dout, 2 * n * sizeof(double)));
  CHECK_MUSA(musaMemcpy(in, h, sizeof h, musaMemcpyHostToDevice));
  extras<<<1, n>>>(in, out, dout);
  CHECK_MUSA(musaDeviceSynchronize());
  float r[8 * n];
  double d[2 * n];
  CHECK_MUSA(musaMemcpy(r, out, sizeof r, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(d, dout, sizeof d, musaMemcpyDeviceToHost));
  auto close = [](double got, double want, double rel) {
    return std::fabs(got - want) <= rel * std::fabs(want) + 1e-30;
  };
  for (int i = 0; i < n; ++i) {
    const float *o = r + 8 * i;
    double x = h[i];
    double n4 = std::sqrt(double(h[i]) * h[i] + double(h[i + 1]) * h[i + 1] +
                          double(h[i + 2]) * h[i + 2] + double(h[i + 3]) * h[i + 3]);
    double n3 = std::sqrt(double(h[i]) * h[i] + double(h[i + 1]) * h[i + 1] +
                          double(h[i + 2]) * h[i + 2]);
    CHECK(close(o[0], n4, 1e-6), "normf(4) at %d: %g vs %g", i, o[0], n4);
    CHECK(close(o[1], 1 / n3, 1e-6), "rnormf(3) at %d: %g vs %g", i, o[1], 1 / n3);
    CHECK(close(o[2], 1 / std::sqrt(x * x + 13), 1e-6), "rnorm3df at %d: %g", i, o[2]);
    CHECK(close(o[3], 1.0, 1e-6), "norm4df * rnorm4df at %d: %g", i, o[3]);
    CHECK(close(o[4], besselI(0, x), 1e-6), "cyl_bessel_i0f(%g): %g vs %g", x, o[4], besselI(0, x));
    CHECK(close(o[5], besselI(1, x), 1e-6), "cyl_bessel_i1f(%g): %g vs %g", x, o[5], besselI(1, x));
    CHECK(o[6] == 2 * h[i] && o[7] == h[i], "cache-hinted loads and stores at %d", i);
    CHECK(close(d[2 * i], besselI(0, x * 8), 1e-13), "cyl_bessel_i0(%g): %.17g vs %.17g", x * 8,
          d[2 * i], besselI(0, x * 8));
    CHECK(close(d[2 * i + 1], besselI(1, -x * 8), 1e-13), "cyl_bessel_i1(%g): %.17g", -x * 8,
          d[2 * i + 1]);
  }

  // Bessel functions of the first and second kind at 0.3 ... 19.5, against the host's.
  double bx[n], *dbx, *dbd;
  float *dbf;
  for (int i = 0; i < n; ++i)
    bx[i] = 0.3 + 0.6 * i;
  CHECK_MUSA(musaMalloc(&dbx, sizeof bx));
  CHECK_MUSA(musaMalloc(&dbd, 6 * n * sizeof(double)));
  CHECK_MUSA(musaMalloc(&dbf, 6 * n * sizeof(float)));
  CHECK_MUSA(musaMemcpy(dbx, bx, sizeof bx, musaMemcpyHostToDevice));
  bessel<<<1, n>>>(dbx, dbd, dbf);
  double bd[6 * n];
  float bf[6 * n];
  CHECK_MUSA(musaMemcpy(bd, dbd, sizeof bd, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(bf, dbf, sizeof bf, musaMemcpyDeviceToHost));
  const char *names[6] = {"j0", "j1", "jn(3)", "y0", "y1", "yn(2)"};
  for (int i = 0; i < n; ++i) {
    double v = bx[i];
    double want[6] = {j0(v), j1(v), jn(3, v), y0(v), y1(v), yn(2, v)};
    for (int k = 0; k < 6; ++k) {
      // Near a zero only an absolute error means anything; y0..yn grow large near 0.
      CHECK(std::fabs(bd[6 * i + k] - want[k]) <= 1e-12 * (1 + std::fabs(want[k])),
            "%s(%g): %.17g vs %.17g", names[k], v, bd[6 * i + k], want[k]);
      CHECK(std::fabs(bf[6 * i + k] - want[k]) <= 2e-5 * (1 + std::fabs(want[k])),
            "%sf(%g): %.9g vs %.17g", names[k], v, bf[6 * i + k], want[k]);
    }
  }
  printf("j0(%g) = %.6f, yn(2, %g) = %.6f\n", bx[10], bd[60], bx[n - 1], bd[6 * (n - 1) + 5]);
  CHECK_MUSA(musaFree(dbx));
  CHECK_MUSA(musaFree(dbd));
  CHECK_MUSA(musaFree(dbf));
  return finish("math_extras");
}
