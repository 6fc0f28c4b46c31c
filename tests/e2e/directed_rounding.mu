// Directed-rounding fused multiply-adds (__fma_rz/_ru/_rd in double, __fmaf_r* in float) and
// the sign of an exact zero sum rounded down (__fadd_rd, __dsub_rd, __fma_rd: -0, IEEE 754),
// bit for bit against the host's own fma and + under fesetround: random operands over the
// whole exponent range, products that cancel c to the last bit, products whose error lies
// below the subnormals, sums at the overflow threshold, zeros, infinities and NaNs.
#include "check.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

enum { NOut = 7 };

__global__ void directed(const double *a, const double *b, const double *c, double *out,
                         float *fout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  double x = a[i], y = b[i], z = c[i];
  double *o = out + NOut * i;
  o[0] = __fma_rz(x, y, z);
  o[1] = __fma_ru(x, y, z);
  o[2] = __fma_rd(x, y, z);
  o[3] = __fma_rn(x, y, z);
  o[4] = __dadd_rd(x, z);
  o[5] = __dsub_rd(x, z);
  o[6] = __dmul_rd(x, y);
  float fx = float(x), fy = float(y), fz = float(z);
  float *f = fout + NOut * i;
  f[0] = __fmaf_rz(fx, fy, fz);
  f[1] = __fmaf_ru(fx, fy, fz);
  f[2] = __fmaf_rd(fx, fy, fz);
  f[3] = __fmaf_rn(fx, fy, fz);
  f[4] = __fadd_rd(fx, fz);
  f[5] = __fsub_rd(fx, fz);
  f[6] = __fmul_rd(fx, fy);
}

static const int kModes[4] = {FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD, FE_TONEAREST};

template <class T> static T reference(int k, T x, T y, T z) {
  volatile T vx = x, vy = y, vz = z, r;
  fesetround(k < 4 ? kModes[k] : FE_DOWNWARD);
  if (k < 4)
    r = std::fma((T)vx, (T)vy, (T)vz);
  else if (k == 4)
    r = vx + vz;
  else if (k == 5)
    r = vx - vz;
  else
    r = vx * vy;
  T v = r;
  fesetround(FE_TONEAREST);
  return v;
}

template <class T> static bool same(T u, T v) {
  return (std::isnan(u) && std::isnan(v)) || std::memcmp(&u, &v, sizeof(T)) == 0;
}

static uint64_t state = 0x9e3779b97f4a7c15ull;
static uint64_t next() {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return state;
}
static double randomIn(int lo, int hi) { // a random sign and mantissa, exponent in [lo, hi]
  double m = 1.0 + double(next() >> 12) * 0x1p-52;
  int e = lo + int(next() % uint64_t(hi - lo + 1));
  return (next() & 1 ? -1 : 1) * std::ldexp(m, e);
}

int main() {
  std::vector<double> a, b, c;
  auto add = [&](double x, double y, double z) { a.push_back(x), b.push_back(y), c.push_back(z); };
  const double inf = INFINITY, nan = NAN, dmax = 1.7976931348623157e308;
  // Fixed corners: exact zero sums of each sign, overflow, infinities, NaN, subnormals.
  add(1.0, 1.0, -1.0), add(-1.0, 1.0, 1.0), add(0.0, 5.0, -0.0), add(-0.0, 5.0, -0.0);
  add(0.0, 5.0, 0.0), add(2.0, 3.0, -6.0), add(dmax, 2.0, 0.0), add(dmax, 2.0, -dmax);
  add(dmax, 1.5, -dmax), add(-dmax, 1.0 + 0x1p-52, -dmax), add(inf, 1.0, 1.0);
  add(inf, 0.0, 1.0), add(nan, 1.0, 1.0), add(1.0, 1.0, inf), add(0x1p-1074, 0x1p-1074, 0.0);
  add(0x1p-1074, -0x1p-1074, 0.0), add(0x1p-537, 0x1p-537, 0x1p-1074), add(0x1p-600, 0x1p-600, 1.0);
  add(0x1p-600, -0x1p-600, 1.0), add(0x1p-600, -0x1p-600, -0x1p-1074), add(0x1p-1074, 0.5, 0.0);
  add(0x1.8p-1074, 0.5, 0.0), add(1e300, 1e-300, -1.0), add(3.0, 1.0 / 3.0, -1.0);
  add(0x1p500, 0x1p500, -0x1p1000), add(0x1p1000, 0x1p23, -dmax), add(1.0, 0x1p-1074, 0x1p900);
  for (int i = 0; i < 6000; ++i) {
    double x, y, z;
    switch (i % 6) {
    case 0: // anywhere in range
      x = randomIn(-540, 510), y = randomIn(-540, 510), z = randomIn(-1074, 1020);
      break;
    case 1: // c cancels the product to its last bits
      x = randomIn(-30, 30), y = randomIn(-30, 30), z = -(x * y);
      if (i % 12 == 1)
        z = std::nextafter(z, next() & 1 ? inf : -inf);
      break;
    case 2: // products in and below the subnormals
      x = randomIn(-600, -500), y = randomIn(-600, -480), z = randomIn(-1074, -1000);
      break;
    case 3: // tiny product beside a normal c
      x = randomIn(-700, -400), y = randomIn(-700, -400), z = randomIn(-200, 900);
      break;
    case 4: // near the overflow threshold
      x = randomIn(500, 520), y = randomIn(490, 503), z = randomIn(1000, 1023);
      if (next() & 1)
        z = -std::fabs(x * y) * (x * y > 0 ? 1 : -1);
      break;
    default: // float-sized operands, so the float forms see ordinary values too
      x = randomIn(-20, 20), y = randomIn(-20, 20), z = randomIn(-40, 40);
      if (i % 4 == 1)
        z = -double(float(x) * float(y));
      break;
    }
    add(x, y, z);
  }
  int n = int(a.size());
  double *da, *db, *dc, *dout;
  float *fout;
  CHECK_MUSA(musaMalloc(&da, n * sizeof(double)));
  CHECK_MUSA(musaMalloc(&db, n * sizeof(double)));
  CHECK_MUSA(musaMalloc(&dc, n * sizeof(double)));
  CHECK_MUSA(musaMalloc(&dout, n * NOut * sizeof(double)));
  CHECK_MUSA(musaMalloc(&fout, n * NOut * sizeof(float)));
  CHECK_MUSA(musaMemcpy(da, a.data(), n * sizeof(double), musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(db, b.data(), n * sizeof(double), musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dc, c.data(), n * sizeof(double), musaMemcpyHostToDevice));
  directed<<<(n + 127) / 128, 128>>>(da, db, dc, dout, fout, n);
  CHECK_MUSA(musaGetLastError());
  std::vector<double> out(size_t(n) * NOut);
  std::vector<float> fo(size_t(n) * NOut);
  CHECK_MUSA(musaMemcpy(out.data(), dout, out.size() * sizeof(double), musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(fo.data(), fout, fo.size() * sizeof(float), musaMemcpyDeviceToHost));
  static const char *names[NOut] = {"fma_rz", "fma_ru", "fma_rd", "fma_rn",
                                    "add_rd", "sub_rd", "mul_rd"};
  int wrong[2][NOut] = {};
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < NOut; ++k) {
      double want = reference<double>(k, a[i], b[i], c[i]);
      if (!same(out[size_t(i) * NOut + k], want) && wrong[0][k]++ < 3)
        CHECK(false, "%s double (%a, %a, %a) = %a, want %a", names[k], a[i], b[i], c[i],
              out[size_t(i) * NOut + k], want);
      float fx = float(a[i]), fy = float(b[i]), fz = float(c[i]);
      float fwant = reference<float>(k, fx, fy, fz);
      if (!same(fo[size_t(i) * NOut + k], fwant) && wrong[1][k]++ < 3)
        CHECK(false, "%s float (%a, %a, %a) = %a, want %a", names[k], double(fx), double(fy),
              double(fz), double(fo[size_t(i) * NOut + k]), double(fwant));
    }
  printf("%d operand triples, seven directed operations in double and float\n", n);
  musaFree(da), musaFree(db), musaFree(dc), musaFree(dout), musaFree(fout);
  return finish("directed_rounding");
}
