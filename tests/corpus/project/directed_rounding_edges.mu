// Directed-rounding intrinsics at overflow and underflow. IEEE 754: rounding down a positive
// overflow gives the largest finite value, towards zero too; rounding up a positive product
// that underflows to zero gives the smallest subnormal.
#include <musa_runtime.h>
#include <cstdio>
#include <cfloat>
#include <cmath>
#include <cfenv>
#include <cstring>
__global__ void k(const float *in, float *o, const double *din, double *od) {
  float M = in[0], t = in[1], e = in[2];
  o[0] = __fadd_rd(M, M);   // FLT_MAX
  o[1] = __fadd_rz(M, M);   // FLT_MAX
  o[2] = __fmul_rd(M, t);   // FLT_MAX (M*2)
  o[3] = __fadd_ru(-M, -M); // -FLT_MAX
  o[4] = __fmul_ru(e, e);   // 2^-149 (1e-30^2 underflows)
  o[5] = __fmul_rd(-e, e);  // -2^-149
  o[6] = __fdiv_ru(e, M);   // 2^-149
  o[7] = __fdiv_rz(M, e);   // FLT_MAX
  o[8] = __fmul_ru(in[3], in[3]);  // (1.5*2^-75)^2 = 1.125*2^-149 -> 2^-148
  double DM = din[0], de = din[1];
  od[0] = __dadd_rd(DM, DM);  // DBL_MAX
  od[1] = __dmul_ru(de, de);  // 2^-1074
  od[2] = __ddiv_rd(DM, de);  // DBL_MAX
  od[3] = __dmul_rz(-DM, 2.0);  // -DBL_MAX
}
static float hf(int mode, int op, float a, float b) {
  volatile float x = a, y = b, r;
  fesetround(mode);
  r = op == 0 ? x + y : op == 1 ? x * y : x / y;
  float v = r;
  fesetround(FE_TONEAREST);
  return v;
}
static double hd(int mode, int op, double a, double b) {
  volatile double x = a, y = b, r;
  fesetround(mode);
  r = op == 0 ? x + y : op == 1 ? x * y : x / y;
  double v = r;
  fesetround(FE_TONEAREST);
  return v;
}
int main() {
  float *in, *o; double *din, *od;
  musaMallocManaged(&in, 4 * sizeof(float)); musaMallocManaged(&o, 9 * sizeof(float));
  musaMallocManaged(&din, 2 * sizeof(double)); musaMallocManaged(&od, 4 * sizeof(double));
  in[0] = FLT_MAX; in[1] = 2.0f; in[2] = 1e-30f; in[3] = 0x1.8p-75f; din[0] = DBL_MAX; din[1] = 1e-300;
  k<<<1, 1>>>(in, o, din, od);
  musaDeviceSynchronize();
  float M = FLT_MAX, e = 1e-30f;
  float wf[9] = {hf(FE_DOWNWARD, 0, M, M), hf(FE_TOWARDZERO, 0, M, M), hf(FE_DOWNWARD, 1, M, 2), hf(FE_UPWARD, 0, -M, -M),
                 hf(FE_UPWARD, 1, e, e), hf(FE_DOWNWARD, 1, -e, e), hf(FE_UPWARD, 2, e, M), hf(FE_TOWARDZERO, 2, M, e), hf(FE_UPWARD, 1, 0x1.8p-75f, 0x1.8p-75f)};
  double wd[4] = {hd(FE_DOWNWARD, 0, DBL_MAX, DBL_MAX), hd(FE_UPWARD, 1, 1e-300, 1e-300), hd(FE_DOWNWARD, 2, DBL_MAX, 1e-300), hd(FE_TOWARDZERO, 1, -DBL_MAX, 2.0)};
  const char *nf[9] = {"__fadd_rd(MAX,MAX)", "__fadd_rz(MAX,MAX)", "__fmul_rd(MAX,2)", "__fadd_ru(-MAX,-MAX)", "__fmul_ru(1e-30,1e-30)", "__fmul_rd(-1e-30,1e-30)", "__fdiv_ru(1e-30,MAX)", "__fdiv_rz(MAX,1e-30)", "__fmul_ru(0x1.8p-75,0x1.8p-75)"};
  const char *nd[4] = {"__dadd_rd(MAX,MAX)", "__dmul_ru(1e-300,1e-300)", "__ddiv_rd(MAX,1e-300)", "__dmul_rz(-MAX,2)"};
  bool ok = true;
  for (int i = 0; i < 9; ++i) if (memcmp(&o[i], &wf[i], 4)) { printf("%-26s = %a, want %a\n", nf[i], o[i], wf[i]); ok = false; }
  for (int i = 0; i < 4; ++i) if (memcmp(&od[i], &wd[i], 8)) { printf("%-26s = %a, want %a\n", nd[i], od[i], wd[i]); ok = false; }
  printf("directed rounding at overflow/underflow: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
