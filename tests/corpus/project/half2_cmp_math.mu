// The half2 comparison and math families of cuda_fp16.h as inference code uses them:
// __heq2/__hne2/__hlt2/__hle2/__hgt2/__hge2 (1.0 or 0.0 per lane, NaN false) and the unordered
// __hequ2/__hneu2/__hltu2/__hgeu2 (NaN true), the bool forms __hbeq2/__hbne2/__hblt2/__hble2/
// __hbgt2/__hbge2 (true only if both lanes hold), __hisnan2; __hmax_nan/__hmin_nan (NaN wins),
// __hmax2_nan, __hfma_relu/__hfma2_relu; the _sat forms (clamped to [0, 1], NaN -> +0);
// h2sqrt/h2rsqrt/h2rcp/h2exp/h2exp2/h2exp10/h2log/h2log2/h2log10/h2sin/h2cos/h2floor/h2ceil/
// h2trunc/h2rint, hexp10/hlog10; and the lane movers __lows2half2/__highs2half2/__low2half2/
// __high2half2/make_half2/__half2(a, b). Each lane is checked against a host reference.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

#define NCMP 10
#define NB 6
#define NMATH 15
#define NSAT 10
struct Out {
  __half2 cmp[NCMP];
  int b[NB];
  __half2 isn;
  __half mx[4];
  __half2 mx2;
  __half relu; __half2 relu2;
  __half2 sat[NSAT / 2];
  __half2 math[NMATH];
  __half e10, l10;
  __half2 mv[6];
};

__global__ void k(Out *out, const __half2 *a, const __half2 *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 x = a[i], y = b[i];
  Out &o = out[i];
  o.cmp[0] = __heq2(x, y); o.cmp[1] = __hne2(x, y); o.cmp[2] = __hlt2(x, y); o.cmp[3] = __hle2(x, y);
  o.cmp[4] = __hgt2(x, y); o.cmp[5] = __hge2(x, y); o.cmp[6] = __hequ2(x, y); o.cmp[7] = __hneu2(x, y);
  o.cmp[8] = __hltu2(x, y); o.cmp[9] = __hgeu2(x, y);
  o.b[0] = __hbeq2(x, y); o.b[1] = __hbne2(x, y); o.b[2] = __hblt2(x, y); o.b[3] = __hble2(x, y);
  o.b[4] = __hbgt2(x, y); o.b[5] = __hbge2(x, y);
  o.isn = __hisnan2(x);
  o.mx[0] = __hmax_nan(x.x, y.x); o.mx[1] = __hmin_nan(x.x, y.x); o.mx[2] = __hmax_nan(x.y, y.y); o.mx[3] = __hmin_nan(x.y, y.y);
  o.mx2 = __hmax2_nan(x, y);
  o.relu = __hfma_relu(x.x, y.x, x.y); o.relu2 = __hfma2_relu(x, y, y);
  o.sat[0] = __halves2half2(__hadd_sat(x.x, y.x), __hsub_sat(x.x, y.x));
  o.sat[1] = __halves2half2(__hmul_sat(x.x, y.x), __hfma_sat(x.x, y.x, x.y));
  o.sat[2] = __hadd2_sat(x, y); o.sat[3] = __hmul2_sat(x, y); o.sat[4] = __hfma2_sat(x, y, y);
  o.math[0] = h2sqrt(x); o.math[1] = h2rsqrt(x); o.math[2] = h2rcp(x); o.math[3] = h2exp(x); o.math[4] = h2exp2(x);
  o.math[5] = h2exp10(x); o.math[6] = h2log(x); o.math[7] = h2log2(x); o.math[8] = h2log10(x); o.math[9] = h2sin(x);
  o.math[10] = h2cos(x); o.math[11] = h2floor(x); o.math[12] = h2ceil(x); o.math[13] = h2trunc(x); o.math[14] = h2rint(x);
  o.e10 = hexp10(x.x); o.l10 = hlog10(x.x);
  o.mv[0] = __lows2half2(x, y); o.mv[1] = __highs2half2(x, y); o.mv[2] = __low2half2(x); o.mv[3] = __high2half2(x);
  o.mv[4] = make_half2(y.y, x.x); o.mv[5] = __half2(x.y, y.x);
}

static float F(__half h) { return __half2float(h); }
static bool same(float got, double want, int ulps) { // NaN-aware; within ulps half ulps of want
  if (isnan(want)) return isnan(got);
  if (isinf(want) || want == 0) return got == want || (ulps > 0 && fabs(got - want) <= ldexp(1.0, -24) * ulps);
  unsigned short g = __half_as_ushort(__float2half(got)), w = __half_as_ushort(__double2half(want));
  return (g >> 15) == (w >> 15) && abs((int)(g & 0x7fff) - (int)(w & 0x7fff)) <= ulps;
}
static double sat(double v) { return isnan(v) ? 0.0 : v < 0 ? 0.0 : v > 1 ? 1.0 : v; }
static double rh(double v) { return F(__double2half(v)); } // round to half

int main() {
  const float vals[] = {0.f, -0.f, 0.5f, -0.5f, 1.f, 2.f, -3.f, 0.75f, 0.25f, 7.5f, 100.f, NAN, INFINITY, -INFINITY, 1e-5f, 0.999f};
  const int nv = sizeof vals / sizeof vals[0], n = nv * nv;
  __half2 *ha = (__half2 *)malloc(n * 4), *hb = (__half2 *)malloc(n * 4);
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < nv; j++) {
      ha[i * nv + j] = __floats2half2_rn(vals[i], vals[(i + j) % nv]);
      hb[i * nv + j] = __floats2half2_rn(vals[j], vals[(3 * j + 1) % nv]);
    }
  __half2 *dA, *dB; Out *dO;
  CHECK(musaMalloc(&dA, n * 4)); CHECK(musaMalloc(&dB, n * 4)); CHECK(musaMalloc(&dO, n * sizeof(Out)));
  CHECK(musaMemcpy(dA, ha, n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, hb, n * 4, musaMemcpyHostToDevice));
  k<<<(n + 63) / 64, 64>>>(dO, dA, dB, n);
  CHECK(musaGetLastError());
  Out *o = (Out *)malloc(n * sizeof(Out));
  CHECK(musaMemcpy(o, dO, n * sizeof(Out), musaMemcpyDeviceToHost));
  int bad = 0;
#define EXPECT(cond, ...) do { if (!(cond) && bad++ < 30) { printf("case %d (%g,%g) (%g,%g): ", i, x[0], x[1], y[0], y[1]); printf(__VA_ARGS__); printf("\n"); } } while (0)
  for (int i = 0; i < n; i++) {
    double x[2] = {F(ha[i].x), F(ha[i].y)}, y[2] = {F(hb[i].x), F(hb[i].y)};
    for (int l = 0; l < 2; l++) {
      double p = x[l], q = y[l];
      bool un = isnan(p) || isnan(q);
      bool c[NCMP] = {p == q, !un && p != q, p < q, p <= q, p > q, p >= q, un || p == q, un || p != q, un || p < q, un || p >= q};
      for (int j = 0; j < NCMP; j++) {
        float got = F(l ? o[i].cmp[j].y : o[i].cmp[j].x);
        EXPECT(got == (c[j] ? 1.f : 0.f), "cmp %d lane %d = %g", j, l, got);
      }
      float isn = F(l ? o[i].isn.y : o[i].isn.x);
      EXPECT(isn == (isnan(p) ? 1.f : 0.f), "__hisnan2 lane %d = %g", l, isn);
      // math, 1-ulp tolerance except the exact ones
      double ref[NMATH] = {sqrt(p), 1 / sqrt(p), 1 / p, exp(p), exp2(p), pow(10.0, p), log(p), log2(p), log10(p), sin(p), cos(p), floor(p), ceil(p), trunc(p), nearbyint(p)};
      for (int j = 0; j < NMATH; j++) {
        float got = F(l ? o[i].math[j].y : o[i].math[j].x);
        EXPECT(same(got, ref[j], j >= 11 ? 0 : 2), "math %d lane %d of %g = %g want %g", j, l, p, got, ref[j]);
      }
      // __hmax2_nan
      double mx = un ? NAN : fmax(p, q);
      float g2 = F(l ? o[i].mx2.y : o[i].mx2.x);
      EXPECT(same(g2, mx, 0), "__hmax2_nan lane %d = %g", l, g2);
      // __hfma2_relu(x, y, y)
      double r = rh(p * q + q); r = isnan(r) ? NAN : r < 0 ? 0 : r;
      float gr = F(l ? o[i].relu2.y : o[i].relu2.x);
      EXPECT(same(gr, r, 0), "__hfma2_relu lane %d = %g want %g", l, gr, r);
      // _sat half2 forms
      float s0 = F(l ? o[i].sat[2].y : o[i].sat[2].x), s1 = F(l ? o[i].sat[3].y : o[i].sat[3].x), s2 = F(l ? o[i].sat[4].y : o[i].sat[4].x);
      EXPECT(s0 == sat(rh(p + q)) && s1 == sat(rh(p * q)) && s2 == sat(rh(p * q + q)), "sat2 lane %d = %g %g %g", l, s0, s1, s2);
      EXPECT(!signbit(s0) && !signbit(s1) && !signbit(s2), "sat2 lane %d gives -0", l);
    }
    bool un0 = isnan(x[0]) || isnan(y[0]), un1 = isnan(x[1]) || isnan(y[1]), anyun = un0 || un1;
    int wb[NB] = {!anyun && x[0] == y[0] && x[1] == y[1], !anyun && x[0] != y[0] && x[1] != y[1], x[0] < y[0] && x[1] < y[1],
                  x[0] <= y[0] && x[1] <= y[1], x[0] > y[0] && x[1] > y[1], x[0] >= y[0] && x[1] >= y[1]};
    for (int j = 0; j < NB; j++) EXPECT(!!o[i].b[j] == !!wb[j], "bool cmp %d = %d", j, o[i].b[j]);
    double m0 = un0 ? NAN : fmax(x[0], y[0]), n0 = un0 ? NAN : fmin(x[0], y[0]), m1 = un1 ? NAN : fmax(x[1], y[1]), n1 = un1 ? NAN : fmin(x[1], y[1]);
    EXPECT(same(F(o[i].mx[0]), m0, 0) && same(F(o[i].mx[1]), n0, 0) && same(F(o[i].mx[2]), m1, 0) && same(F(o[i].mx[3]), n1, 0),
           "max/min_nan %g %g %g %g", F(o[i].mx[0]), F(o[i].mx[1]), F(o[i].mx[2]), F(o[i].mx[3]));
    double rl = rh(x[0] * y[0] + x[1]); rl = isnan(rl) ? NAN : rl < 0 ? 0 : rl;
    EXPECT(same(F(o[i].relu), rl, 0), "__hfma_relu = %g want %g", F(o[i].relu), rl);
    double ws[4] = {sat(rh(x[0] + y[0])), sat(rh(x[0] - y[0])), sat(rh(x[0] * y[0])), sat(rh(x[0] * y[0] + x[1]))};
    float gs[4] = {F(o[i].sat[0].x), F(o[i].sat[0].y), F(o[i].sat[1].x), F(o[i].sat[1].y)};
    for (int j = 0; j < 4; j++) EXPECT(gs[j] == ws[j] && !signbit(gs[j]), "sat %d = %g want %g", j, gs[j], ws[j]);
    EXPECT(same(F(o[i].e10), pow(10.0, x[0]), 2) && same(F(o[i].l10), log10(x[0]), 2), "hexp10/hlog10 %g %g", F(o[i].e10), F(o[i].l10));
    float mv[6][2] = {{(float)x[0], (float)y[0]}, {(float)x[1], (float)y[1]}, {(float)x[0], (float)x[0]}, {(float)x[1], (float)x[1]}, {(float)y[1], (float)x[0]}, {(float)x[1], (float)y[0]}};
    for (int j = 0; j < 6; j++) {
      float g0 = F(o[i].mv[j].x), g1 = F(o[i].mv[j].y);
      EXPECT((g0 == mv[j][0] || (isnan(g0) && isnan(mv[j][0]))) && (g1 == mv[j][1] || (isnan(g1) && isnan(mv[j][1]))), "mover %d = (%g,%g)", j, g0, g1);
    }
  }
  printf("half2_cmp_math: %d lane pairs, %d mismatches %s\n", n, bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
