// Single-precision corner cases against the host and IEEE/CUDA rules: float-to-integer
// intrinsics on NaN, infinities and out-of-range values (saturation), bit casts, rintf and
// nearbyintf ties to even, roundf away from zero, frexpf/ldexpf on subnormals and overflow,
// remquof and fmodf with negative operands, lgammaf/tgammaf, erfinvf/erfcinvf (also at tiny
// arguments), normcdfinvf, and sinpif/cospif/sincospif at exact integers and half-integers.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <stdint.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

const int NX = 16;
__constant__ float cx[NX];

struct ConvOut { int rn, rz, rd, ru; unsigned urn, urz; long long llrn; unsigned long long ullrz; int bits; };
__global__ void convK(ConvOut *o) {
  int i = threadIdx.x;
  if (i >= NX) return;
  float x = cx[i];
  o[i] = {__float2int_rn(x), __float2int_rz(x), __float2int_rd(x), __float2int_ru(x),
          __float2uint_rn(x), __float2uint_rz(x), __float2ll_rn(x), __float2ull_rz(x), __float_as_int(x)};
}

__global__ void roundK(const float *in, float *out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  float x = in[i];
  out[4 * i + 0] = rintf(x);
  out[4 * i + 1] = nearbyintf(x);
  out[4 * i + 2] = roundf(x);
  out[4 * i + 3] = (float)lrintf(x);
}

__global__ void frexpK(const float *in, float *m, int *e, float *ld, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  m[i] = frexpf(in[i], &e[i]);
  ld[2 * i] = ldexpf(in[i], 100);
  ld[2 * i + 1] = ldexpf(in[i], -140);
}

__global__ void remK(const float *x, const float *y, float *r, int *q, float *fm, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  r[i] = remquof(x[i], y[i], &q[i]);
  fm[i] = fmodf(x[i], y[i]);
}

__global__ void specialK(const float *in, float *out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  out[4 * i + 0] = lgammaf(in[i]);
  out[4 * i + 1] = tgammaf(in[i]);
  out[4 * i + 2] = erfinvf(in[i] / 8.0f);
  out[4 * i + 3] = erfcinvf(in[i] / 8.0f + 1.0f);
}

__global__ void tailK(const float *p, float *out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  out[2 * i] = erfcinvf(p[i]);
  out[2 * i + 1] = normcdfinvf(p[i]);
}

__global__ void piK(const float *in, float *out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  float s, c;
  sincospif(in[i], &s, &c);
  out[4 * i + 0] = sinpif(in[i]);
  out[4 * i + 1] = cospif(in[i]);
  out[4 * i + 2] = s;
  out[4 * i + 3] = c;
}

static double ulpf(float x) { float a = fabsf(x); return a < FLT_MIN ? ldexp(1.0, -149) : nextafterf(a, INFINITY) - a; }
static int failures = 0;
static void near(const char *what, float x, float got, double ref, double ulps) {
  if (isnan(ref) ? !isnan(got) : (isinf(ref) ? got != (float)ref : fabs(got - ref) > ulps * ulpf((float)ref)))
    if (failures++ < 40) printf("%s(%.9g): got %.9g, expected %.9g\n", what, x, got, ref);
}
static void exact(const char *what, float x, float got, float ref) {
  if (!(memcmp(&got, &ref, 4) == 0 || (isnan(got) && isnan(ref))))
    if (failures++ < 40) printf("%s(%.9g): got %.9g (%a), expected %.9g (%a)\n", what, x, got, got, ref, ref);
}

int main() {
  // conversions
  {
    float hx[NX] = {NAN, INFINITY, -INFINITY, 3.0e9f, -3.0e9f, 2147483520.0f, -2147483648.0f, 2.5f,
                    -2.5f, -0.5f, 4294967040.0f, 5.0e9f, 1.0e19f, -1.0e19f, -0.0f, 0.49999997f};
    CHECK(musaMemcpyToSymbol(cx, hx, sizeof hx));
    ConvOut *d, h[NX];
    CHECK(musaMalloc(&d, sizeof h));
    convK<<<1, 32>>>(d);
    CHECK(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
    for (int i = 0; i < NX; ++i) {
      float x = hx[i];
      auto sat = [&](double v, double lo, double hi) { return isnan(x) ? 0.0 : v < lo ? lo : v > hi ? hi : v; };
      int rn = (int)sat(rint(x), INT_MIN, INT_MAX), rz = (int)sat(trunc(x), INT_MIN, INT_MAX);
      int rd = (int)sat(floor(x), INT_MIN, INT_MAX), ru = (int)sat(ceil(x), INT_MIN, INT_MAX);
      unsigned urn = (unsigned)sat(rint(x), 0, UINT_MAX), urz = (unsigned)sat(trunc(x), 0, UINT_MAX);
      // NaN to 64 bits: only the top bit set, as the H200 gives it (tests/hardware/session11).
      long long llrn = isnan(x) ? LLONG_MIN : x >= 9.2233720368547758e18f ? LLONG_MAX : x <= -9.2233720368547758e18f ? LLONG_MIN : (long long)rint(x);
      unsigned long long ullrz = isnan(x) ? 1ull << 63 : x <= 0 ? 0 : x >= 1.8446744073709552e19f ? ULLONG_MAX : (unsigned long long)trunc(x);
      int bits; memcpy(&bits, &x, 4);
      if (h[i].rn != rn || h[i].rz != rz || h[i].rd != rd || h[i].ru != ru || h[i].urn != urn ||
          h[i].urz != urz || h[i].llrn != llrn || h[i].ullrz != ullrz || h[i].bits != bits)
        if (failures++ < 40)
          printf("convert %g: %d %d %d %d %u %u %lld %llu %08x, expected %d %d %d %d %u %u %lld %llu %08x\n", x,
                 h[i].rn, h[i].rz, h[i].rd, h[i].ru, h[i].urn, h[i].urz, h[i].llrn, h[i].ullrz, h[i].bits,
                 rn, rz, rd, ru, urn, urz, llrn, ullrz, bits);
    }
  }
  // rounding
  {
    const float v[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.49999997f, 8388607.5f, -8388609.0f, 1e30f, -0.0f, 3.5f};
    const int n = sizeof v / sizeof v[0];
    float *din, *dout, h[4 * n];
    CHECK(musaMalloc(&din, sizeof v)); CHECK(musaMalloc(&dout, sizeof h));
    CHECK(musaMemcpy(din, v, sizeof v, musaMemcpyHostToDevice));
    roundK<<<1, 32>>>(din, dout, n);
    CHECK(musaMemcpy(h, dout, sizeof h, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      exact("rintf", v[i], h[4 * i], rintf(v[i]));
      exact("nearbyintf", v[i], h[4 * i + 1], nearbyintf(v[i]));
      exact("roundf", v[i], h[4 * i + 2], roundf(v[i]));
      if (fabsf(v[i]) < 1e18f) exact("lrintf", v[i], h[4 * i + 3], (float)lrintf(v[i]));
    }
  }
  // frexp / ldexp
  {
    const float v[] = {1.0f, 0.75f, -3.0f, 1e-40f, -1.4e-45f, FLT_MAX, 0.0f, -0.0f, INFINITY, 1.1754942e-38f, 6.0e37f};
    const int n = sizeof v / sizeof v[0];
    float *din, *dm, *dld, hm[n], hld[2 * n]; int *de, he[n];
    CHECK(musaMalloc(&din, sizeof v)); CHECK(musaMalloc(&dm, sizeof hm)); CHECK(musaMalloc(&dld, sizeof hld)); CHECK(musaMalloc(&de, sizeof he));
    CHECK(musaMemcpy(din, v, sizeof v, musaMemcpyHostToDevice));
    frexpK<<<1, 32>>>(din, dm, de, dld, n);
    CHECK(musaMemcpy(hm, dm, sizeof hm, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(he, de, sizeof he, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(hld, dld, sizeof hld, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int e; float m = frexpf(v[i], &e);
      exact("frexpf", v[i], hm[i], m);
      if (isfinite(v[i]) && he[i] != e && failures++ < 40) printf("frexpf exp(%g): %d vs %d\n", v[i], he[i], e);
      exact("ldexpf+100", v[i], hld[2 * i], ldexpf(v[i], 100));
      exact("ldexpf-140", v[i], hld[2 * i + 1], ldexpf(v[i], -140));
    }
  }
  // remquo / fmod with signs
  {
    const float x[] = {7.0f, -7.0f, 7.0f, -7.0f, 5.5f, -5.5f, 1e10f, -1e10f, 3.0f, 0.0f, -0.0f, 9.0f};
    const float y[] = {2.0f, 2.0f, -2.0f, -2.0f, 1.0f, 1.0f, 3.0f, -3.0f, INFINITY, 1.0f, -2.0f, 3.0f};
    const int n = sizeof x / sizeof x[0];
    float *dx, *dy, *dr, *dfm, hr[n], hfm[n]; int *dq, hq[n];
    CHECK(musaMalloc(&dx, sizeof x)); CHECK(musaMalloc(&dy, sizeof y)); CHECK(musaMalloc(&dr, sizeof hr));
    CHECK(musaMalloc(&dfm, sizeof hfm)); CHECK(musaMalloc(&dq, sizeof hq));
    CHECK(musaMemcpy(dx, x, sizeof x, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(dy, y, sizeof y, musaMemcpyHostToDevice));
    remK<<<1, 32>>>(dx, dy, dr, dq, dfm, n);
    CHECK(musaMemcpy(hr, dr, sizeof hr, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(hq, dq, sizeof hq, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(hfm, dfm, sizeof hfm, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int q; float r = remquof(x[i], y[i], &q);
      exact("remquof", x[i], hr[i], r);
      exact("fmodf", x[i], hfm[i], fmodf(x[i], y[i]));
      // the quotient's sign and its low 3 bits are specified
      if (!isinf(y[i]) && (((hq[i] < 0) != (q < 0) && q != 0) || (abs(hq[i]) & 7) != (abs(q) & 7)) && failures++ < 40)
        printf("remquof quo(%g, %g): %d vs %d\n", x[i], y[i], hq[i], q);
    }
  }
  // lgamma, tgamma, erfinv, erfcinv
  {
    const int n = 24;
    float v[n], h[4 * n];
    for (int i = 0; i < n; ++i) v[i] = -5.75f + i * 0.5f + (i % 3) * 0.01f;
    float *din, *dout;
    CHECK(musaMalloc(&din, sizeof v)); CHECK(musaMalloc(&dout, sizeof h));
    CHECK(musaMemcpy(din, v, sizeof v, musaMemcpyHostToDevice));
    specialK<<<1, 32>>>(din, dout, n);
    CHECK(musaMemcpy(h, dout, sizeof h, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      near("lgammaf", v[i], h[4 * i], lgamma((double)v[i]), 8);
      near("tgammaf", v[i], h[4 * i + 1], tgamma((double)v[i]), 8);
      float y = v[i] / 8.0f;
      if (fabsf(y) < 1.0f) near("erf(erfinvf)", y, erff(h[4 * i + 2]), y, 4 + 4 * fabsf(y) / (1 - fabsf(y)));
      float yc = y + 1.0f;
      if (yc > 0.0f && yc < 2.0f) near("erfc(erfcinvf)", yc, erfcf(h[4 * i + 3]), yc, 4 + 4 / (yc < 1 ? yc : 2 - yc));
    }
  }
  // erfcinvf and normcdfinvf in the far tail: the results are finite (about 6.6 and -9.26 at 1e-20)
  {
    const float p[] = {1e-5f, 1e-10f, 1e-15f, 1e-20f, 1e-30f, 1e-38f};
    const int n = sizeof p / sizeof p[0];
    float *dp, *dout, h[2 * n];
    CHECK(musaMalloc(&dp, sizeof p)); CHECK(musaMalloc(&dout, sizeof h));
    CHECK(musaMemcpy(dp, p, sizeof p, musaMemcpyHostToDevice));
    tailK<<<1, 32>>>(dp, dout, n);
    CHECK(musaMemcpy(h, dout, sizeof h, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      // host reference by bisection on erfc (accurate in the tail in double)
      double lo = 0, hi = 30;
      for (int it = 0; it < 200; ++it) { double mid = 0.5 * (lo + hi); (erfc(mid) > p[i] ? lo : hi) = mid; }
      near("erfcinvf", p[i], h[2 * i], lo, 8);
      lo = -40; hi = 0;
      for (int it = 0; it < 200; ++it) { double mid = 0.5 * (lo + hi); (0.5 * erfc(-mid / sqrt(2.0)) > p[i] ? hi : lo) = mid; }
      near("normcdfinvf", p[i], h[2 * i + 1], lo, 8);
    }
  }
  // sinpi / cospi: exact at integers and half-integers, sin(pi*x) to a few ulp elsewhere
  {
    const float v[] = {0.0f, 1.0f, 2.0f, -3.0f, 0.5f, 1.5f, -0.5f, 2.5f, 1000000.5f, 12345678.0f, 0.25f, -0.75f, 0.1f, 100.3f, 4194304.25f};
    const int n = sizeof v / sizeof v[0];
    float *din, *dout, h[4 * n];
    CHECK(musaMalloc(&din, sizeof v)); CHECK(musaMalloc(&dout, sizeof h));
    CHECK(musaMemcpy(din, v, sizeof v, musaMemcpyHostToDevice));
    piK<<<1, 32>>>(din, dout, n);
    CHECK(musaMemcpy(h, dout, sizeof h, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      double r = fmod((double)v[i], 2.0); // exact
      double s = sin(M_PI * r), c = cos(M_PI * r);
      if (r == floor(r)) s = 0.0;                    // exact zeros, as C23 sinpi/cospi specify
      if (r - floor(r) == 0.5) c = 0.0;
      if (s == 0.0) s = 0.0 * (v[i] < 0 ? -1 : 1);
      near("sinpif", v[i], h[4 * i], s, 2);
      near("cospif", v[i], h[4 * i + 1], c, 2);
      near("sincospif.s", v[i], h[4 * i + 2], s, 2);
      near("sincospif.c", v[i], h[4 * i + 3], c, 2);
    }
  }
  printf("float_corners: %s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
