// Half and bfloat16 arithmetic rounded once: __hadd/__hsub/__hmul/__hdiv/hsqrt and their half2
// and operator forms on random and edge operands against an exact host reference (double,
// then rounded by hand to nearest-even); __hmax/__hmin with NaN and signed zeros as
// cuda_fp16.h documents them (the other operand for one NaN, +0 > -0); the same operators
// evaluated on the host through the header must agree bit for bit.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <musa_bf16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <vector>

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

static double hval(uint16_t h) {
  int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  double v = e == 31 ? (m ? NAN : INFINITY) : e == 0 ? ldexp(m, -24) : ldexp(m | 1024, e - 25);
  return s ? -v : v;
}
static double bval(uint16_t b) { uint32_t u = (uint32_t)b << 16; float f; memcpy(&f, &u, 4); return f; }
// round an exactly representable-in-double value to a format; mant fraction bits, emin, maxv
static uint16_t roundTo(double v, bool isHalf) {
  int mant = isHalf ? 10 : 7, emin = isHalf ? -14 : -126, ebias = isHalf ? 15 : 127;
  uint16_t infb = isHalf ? 0x7c00 : 0x7f80;
  if (isnan(v)) return isHalf ? 0x7e00 : 0x7fc0;
  uint16_t s = signbit(v) ? 0x8000 : 0;
  double a = fabs(v);
  if (isinf(a)) return s | infb;
  if (a == 0) return s;
  int e; frexp(a, &e); e -= 1;
  if (e < emin) e = emin;
  double q = nearbyint(ldexp(a, mant - e));
  if (q >= ldexp(1.0, mant + 1)) { q /= 2; e++; }
  if (e > ebias) return s | infb;
  if (q < ldexp(1.0, mant)) return s | (uint16_t)q; // subnormal
  return s | (uint16_t)(((e + ebias) << mant) | ((uint32_t)q & ((1u << mant) - 1)));
}
static bool isNanBits(uint16_t h, bool isHalf) { return isHalf ? ((h & 0x7c00) == 0x7c00 && (h & 1023)) : ((h & 0x7f80) == 0x7f80 && (h & 127)); }

enum { OPS = 9 };
__global__ void halfK(const uint16_t *a, const uint16_t *b, uint16_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]);
  uint16_t *o = out + (size_t)i * OPS;
  o[0] = __half_as_ushort(__hadd(x, y));
  o[1] = __half_as_ushort(__hsub(x, y));
  o[2] = __half_as_ushort(__hmul(x, y));
  o[3] = __half_as_ushort(__hdiv(x, y));
  o[4] = __half_as_ushort(hsqrt(x));
  __half2 p = __halves2half2(x, y), q = __halves2half2(y, x);
  __half2 s = p + q, m = p * q;
  o[5] = __half_as_ushort(__low2half(s));
  o[6] = __half_as_ushort(__high2half(m));
  __half t = x; t -= y;
  o[7] = __half_as_ushort(t);
  o[8] = __half_as_ushort(x / y);
}
__global__ void bf16K(const uint16_t *a, const uint16_t *b, uint16_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 x, y; x.__x = a[i]; y.__x = b[i];
  uint16_t *o = out + (size_t)i * OPS;
  o[0] = __bfloat16_as_ushort(__hadd(x, y));
  o[1] = __bfloat16_as_ushort(__hsub(x, y));
  o[2] = __bfloat16_as_ushort(__hmul(x, y));
  o[3] = __bfloat16_as_ushort(__hdiv(x, y));
  o[4] = __bfloat16_as_ushort(hsqrt(x));
  __nv_bfloat162 p = __halves2bfloat162(x, y), q = __halves2bfloat162(y, x);
  __nv_bfloat162 s = __hadd2(p, q), m = __hmul2(p, q);
  o[5] = __bfloat16_as_ushort(__low2bfloat16(s));
  o[6] = __bfloat16_as_ushort(__high2bfloat16(m));
  __nv_bfloat16 t = x; t -= y;
  o[7] = __bfloat16_as_ushort(t);
  o[8] = __bfloat16_as_ushort(x / y);
}
__global__ void minmaxK(uint16_t *o) {
  __half nan = __ushort_as_half(0x7e00), one = __float2half(1.0f);
  __half pz = __ushort_as_half(0x0000), nz = __ushort_as_half(0x8000);
  o[0] = __half_as_ushort(__hmax(nan, one));
  o[1] = __half_as_ushort(__hmax(one, nan));
  o[2] = __half_as_ushort(__hmin(nan, one));
  o[3] = __half_as_ushort(__hmax(nz, pz));
  o[4] = __half_as_ushort(__hmax(pz, nz));
  o[5] = __half_as_ushort(__hmin(pz, nz));
  o[6] = __half_as_ushort(__hmin(nz, pz));
  __half2 m = __hmax2(__halves2half2(nan, nz), __halves2half2(one, pz));
  o[7] = __half_as_ushort(__low2half(m));
  o[8] = __half_as_ushort(__high2half(m));
}

static double refOp(int op, double x, double y) {
  switch (op) {
    case 0: case 5: return x + y;
    case 1: case 7: return x - y;
    case 2: case 6: return x * y;
    case 3: case 8: return x / y;
    case 4: return sqrt(x);
  }
  return 0;
}

int main() {
  int bad = 0;
  const int n = 40000;
  std::vector<uint16_t> a(n), b(n);
  uint32_t seed = 7;
  auto rnd = [&]() { seed = seed * 1103515245u + 12345u; return seed >> 8; };
  for (int i = 0; i < n; i++) {
    a[i] = (uint16_t)rnd(); b[i] = (uint16_t)rnd();
    if (i % 4 == 1) b[i] = (uint16_t)((a[i] & 0xfc00) ^ (rnd() & 0x83ff)); // close exponents: cancellation
    if (i % 8 == 3) { a[i] &= 0x83ff; } // subnormals
  }
  uint16_t *dA, *dB, *dO;
  CHECK(musaMalloc(&dA, n * 2)); CHECK(musaMalloc(&dB, n * 2)); CHECK(musaMalloc(&dO, (size_t)n * OPS * 2));
  CHECK(musaMemcpy(dA, a.data(), n * 2, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, b.data(), n * 2, musaMemcpyHostToDevice));
  std::vector<uint16_t> o((size_t)n * OPS);
  for (int fmt = 0; fmt < 2; fmt++) {
    bool isHalf = fmt == 0;
    if (isHalf) halfK<<<(n + 127) / 128, 128>>>(dA, dB, dO, n);
    else bf16K<<<(n + 127) / 128, 128>>>(dA, dB, dO, n);
    CHECK(musaGetLastError());
    CHECK(musaMemcpy(o.data(), dO, o.size() * 2, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
      double x = isHalf ? hval(a[i]) : bval(a[i]), y = isHalf ? hval(b[i]) : bval(b[i]);
      for (int op = 0; op < OPS; op++) {
        double yy = (op == 5 || op == 6) ? x : y, xx = (op == 5 || op == 6) ? y : x; // swapped lanes
        if (op == 6) { xx = y; yy = x; }
        if (op == 5) { xx = x; yy = y; }
        uint16_t want = roundTo(refOp(op, xx, yy), isHalf), got = o[(size_t)i * OPS + op];
        bool ok = isNanBits(want, isHalf) ? isNanBits(got, isHalf) : got == want;
        // host evaluation through the header must agree as well
        uint16_t host;
        if (isHalf) {
          __half hx = __ushort_as_half(a[i]), hy = __ushort_as_half(b[i]);
          __half r = op == 0 ? hx + hy : op == 1 ? hx - hy : op == 2 ? hx * hy : op == 3 ? hx / hy : op == 4 ? hsqrt(hx) : __float2half(0);
          host = __half_as_ushort(r);
        } else {
          __nv_bfloat16 hx, hy; hx.__x = a[i]; hy.__x = b[i];
          __nv_bfloat16 r = op == 0 ? hx + hy : op == 1 ? hx - hy : op == 2 ? hx * hy : op == 3 ? hx / hy : op == 4 ? hsqrt(hx) : __float2bfloat16(0.f);
          host = __bfloat16_as_ushort(r);
        }
        if (op <= 4 && !(isNanBits(want, isHalf) ? isNanBits(host, isHalf) : host == want)) ok = false;
        if (!ok && bad++ < 20)
          printf("%s op %d (0x%04x, 0x%04x): device 0x%04x host 0x%04x want 0x%04x\n", isHalf ? "half" : "bf16", op, a[i], b[i], got, host, want);
      }
    }
  }
  minmaxK<<<1, 1>>>(dO);
  uint16_t mm[9];
  CHECK(musaMemcpy(mm, dO, sizeof mm, musaMemcpyDeviceToHost));
  const uint16_t wantMM[9] = {0x3c00, 0x3c00, 0x3c00, 0x0000, 0x0000, 0x8000, 0x8000, 0x3c00, 0x0000};
  for (int i = 0; i < 9; i++)
    if (mm[i] != wantMM[i] && bad++ < 40) printf("minmax case %d: 0x%04x want 0x%04x\n", i, mm[i], wantMM[i]);
  printf("half_arith_exact: %d operand pairs x %d ops x 2 formats, %d mismatches %s\n", n, OPS, bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
