// The conversion families of cuda_fp16.h / cuda_bf16.h beyond float<->half: __float2half_rz/
// _rd/_ru and the bfloat16 forms (overflow, tiny values, signed zeros), integer to half and
// bfloat16 from every width (__short2half_rn, __uint2half_rn, __ll2half_rn, __int2bfloat16_rn,
// __ll2bfloat16_rn ..., rounded once from the exact integer), half/bfloat16 to integers in
// every width and mode (__half2uint_rn, __half2short_rz, __half2ll_rd, ... saturating, NaN 0
// or 0x8000000000000000 for 64-bit), __half_raw / __half2_raw, the integer and float
// constructors of __half and __nv_bfloat16 (`__nv_bfloat16 x = 1.0f; float(x)`), all against
// a host reference written from the documentation.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <musa_bf16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <limits.h>
#include <vector>

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

// ---- host reference: round an exact value (long double holds 64-bit ints exactly) ----
typedef long double LD;
static uint16_t refRound(LD v, bool half, int mode /*0 rn,1 rz,2 rd,3 ru*/) {
  int mant = half ? 10 : 7, emin = half ? -14 : -126, emax = half ? 15 : 127;
  uint16_t inf = half ? 0x7c00 : 0x7f80, maxf = inf - 1;
  if (isnan(v)) return half ? 0x7fff : 0x7fff;
  uint16_t s = signbit(v) ? 0x8000 : 0;
  LD a = fabsl(v);
  if (isinf(a)) return s | inf;
  if (a == 0) return s;
  int e; frexpl(a, &e); e -= 1;
  if (e < emin) e = emin;
  LD q = ldexpl(a, mant - e), fl = floorl(q), r;
  bool neg = s != 0;
  switch (mode) {
    case 0: r = nearbyintl(q); break;
    case 1: r = fl; break;
    case 2: r = neg ? ceill(q) : fl; break;
    default: r = neg ? fl : ceill(q); break;
  }
  if (r >= ldexpl(1, mant + 1)) { r /= 2; e++; }
  if (e > emax) {
    bool toInf = mode == 0 || (mode == 2 && neg) || (mode == 3 && !neg);
    return s | (toInf ? inf : maxf);
  }
  if (r == 0) return s;
  if (r < ldexpl(1, mant)) return s | (uint16_t)r;
  return s | (uint16_t)(((e + emax) << mant) | ((uint64_t)r & ((1u << mant) - 1)));
}
static bool nanBits(uint16_t b, bool half) { return half ? ((b & 0x7c00) == 0x7c00 && (b & 0x3ff)) : ((b & 0x7f80) == 0x7f80 && (b & 0x7f)); }
static LD valOf(uint16_t b, bool half) {
  if (half) { int s = b >> 15, e = (b >> 10) & 31, m = b & 1023; LD v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexpl(m | 1024, e - 25) : ldexpl(m, -24); return s ? -v : v; }
  uint32_t u = (uint32_t)b << 16; float f; memcpy(&f, &u, 4); return f;
}
template <class I> static I refToInt(LD v, int mode) {
  const bool sgn = (I)-1 < (I)0; const int bits = 8 * sizeof(I);
  if (isnan(v)) return bits == 64 ? (I)(1ull << 63) : (I)0;
  LD r = mode == 0 ? nearbyintl(v) : mode == 1 ? truncl(v) : mode == 2 ? floorl(v) : ceill(v);
  LD hi = sgn ? ldexpl(1, bits - 1) : ldexpl(1, bits), lo = sgn ? -hi : 0;
  if (r <= lo) return sgn ? (I)(1ull << (bits - 1)) : (I)0;
  if (r >= hi) return (I)(sgn ? ~(1ull << (bits - 1)) : ~0ull);
  return sgn ? (I)(long long)r : (I)(unsigned long long)r;
}

// ---- device ----
__global__ void floatDirected(const float *in, uint16_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float f = in[i]; uint16_t *o = out + 8 * i;
  o[0] = __half_as_ushort(__float2half_rn(f)); o[1] = __half_as_ushort(__float2half_rz(f));
  o[2] = __half_as_ushort(__float2half_rd(f)); o[3] = __half_as_ushort(__float2half_ru(f));
  o[4] = __bfloat16_as_ushort(__float2bfloat16_rn(f)); o[5] = __bfloat16_as_ushort(__float2bfloat16_rz(f));
  o[6] = __bfloat16_as_ushort(__float2bfloat16_rd(f)); o[7] = __bfloat16_as_ushort(__float2bfloat16_ru(f));
}
__global__ void intToLow(const long long *in, uint16_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long v = in[i]; uint16_t *o = out + 12 * i;
  o[0] = __half_as_ushort(__short2half_rn((short)v)); o[1] = __half_as_ushort(__ushort2half_rn((unsigned short)v));
  o[2] = __half_as_ushort(__int2half_rn((int)v)); o[3] = __half_as_ushort(__uint2half_rn((unsigned)v));
  o[4] = __half_as_ushort(__ll2half_rn(v)); o[5] = __half_as_ushort(__ull2half_rn((unsigned long long)v));
  o[6] = __bfloat16_as_ushort(__short2bfloat16_rn((short)v)); o[7] = __bfloat16_as_ushort(__int2bfloat16_rn((int)v));
  o[8] = __bfloat16_as_ushort(__uint2bfloat16_rn((unsigned)v)); o[9] = __bfloat16_as_ushort(__ll2bfloat16_rn(v));
  o[10] = __bfloat16_as_ushort(__ull2bfloat16_rn((unsigned long long)v));
  __nv_bfloat16 c = (int)v; o[11] = __bfloat16_as_ushort(c); // constructor from int
}
struct ToInts { short s[4]; unsigned short us[4]; int i[4]; unsigned u[4]; long long ll[4]; unsigned long long ull[4]; };
__global__ void lowToInt(const uint16_t *in, ToInts *out, int n, bool bf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ToInts &o = out[i];
  if (!bf) {
    __half h = __ushort_as_half(in[i]);
    o.s[0] = __half2short_rn(h); o.s[1] = __half2short_rz(h); o.s[2] = __half2short_rd(h); o.s[3] = __half2short_ru(h);
    o.us[0] = __half2ushort_rn(h); o.us[1] = __half2ushort_rz(h); o.us[2] = __half2ushort_rd(h); o.us[3] = __half2ushort_ru(h);
    o.i[0] = __half2int_rn(h); o.i[1] = __half2int_rz(h); o.i[2] = __half2int_rd(h); o.i[3] = __half2int_ru(h);
    o.u[0] = __half2uint_rn(h); o.u[1] = __half2uint_rz(h); o.u[2] = __half2uint_rd(h); o.u[3] = __half2uint_ru(h);
    o.ll[0] = __half2ll_rn(h); o.ll[1] = __half2ll_rz(h); o.ll[2] = __half2ll_rd(h); o.ll[3] = __half2ll_ru(h);
    o.ull[0] = __half2ull_rn(h); o.ull[1] = __half2ull_rz(h); o.ull[2] = __half2ull_rd(h); o.ull[3] = __half2ull_ru(h);
  } else {
    __nv_bfloat16 h; h.__x = in[i];
    o.s[0] = __bfloat162short_rn(h); o.s[1] = __bfloat162short_rz(h); o.s[2] = __bfloat162short_rd(h); o.s[3] = __bfloat162short_ru(h);
    o.us[0] = __bfloat162ushort_rn(h); o.us[1] = __bfloat162ushort_rz(h); o.us[2] = __bfloat162ushort_rd(h); o.us[3] = __bfloat162ushort_ru(h);
    o.i[0] = __bfloat162int_rn(h); o.i[1] = __bfloat162int_rz(h); o.i[2] = __bfloat162int_rd(h); o.i[3] = __bfloat162int_ru(h);
    o.u[0] = __bfloat162uint_rn(h); o.u[1] = __bfloat162uint_rz(h); o.u[2] = __bfloat162uint_rd(h); o.u[3] = __bfloat162uint_ru(h);
    o.ll[0] = __bfloat162ll_rn(h); o.ll[1] = __bfloat162ll_rz(h); o.ll[2] = __bfloat162ll_rd(h); o.ll[3] = __bfloat162ll_ru(h);
    o.ull[0] = __bfloat162ull_rn(h); o.ull[1] = __bfloat162ull_rz(h); o.ull[2] = __bfloat162ull_rd(h); o.ull[3] = __bfloat162ull_ru(h);
  }
}
__global__ void rawAndCtors(float *f, uint16_t *b) {
  __half_raw r; r.x = 0x3c00;           // 1.0
  __half one = r;
  __half_raw back = __float2half(-2.0f);
  __half2_raw r2; r2.x = 0x4000; r2.y = 0xc400; // (2, -4)
  __half2 p = r2;
  __nv_bfloat16 x = 1.5f;               // float constructor
  __nv_bfloat16 y = 3;                  // int constructor
  __half z = 7u, w = (short)-3, v = 100000LL;
  f[0] = __half2float(one); f[1] = (float)back.x; f[2] = __low2float(p) + 10.f * __high2float(p);
  f[3] = float(x) * float(y); f[4] = static_cast<float>(x + y); f[5] = float(z) + float(w); f[6] = float(v);
  b[0] = __bfloat16_as_ushort(x * y);
}

int main() {
  int bad = 0;
  // 1. directed float conversions
  std::vector<float> fin = {0.f, -0.f, 1.f, -1.f, 1.0004883f, -1.0004883f, 1.0009766f, 65504.f, 65519.f, 65520.f, 70000.f, -70000.f, -65519.f,
                            1e-10f, -1e-10f, 5.9604645e-8f, 2.9802322e-8f, 3e-8f, -3e-8f, 6.0975552e-5f, INFINITY, -INFINITY, NAN,
                            3.3895314e38f, 3.39e38f, -3.39e38f, 1e-40f, -1e-40f, 1.00390625f, 1.005f, -1.005f, 255.5f, 256.5f};
  uint32_t seed = 2024;
  for (int i = 0; i < 3000; i++) { seed = seed * 1664525u + 1013904223u; uint32_t b = seed; if (i % 2) b = (b & 0x807fffffu) | ((100u + seed % 60) << 23); float f; memcpy(&f, &b, 4); fin.push_back(f); }
  int nf = (int)fin.size();
  float *dF; uint16_t *dO;
  CHECK(musaMalloc(&dF, nf * 4)); CHECK(musaMalloc(&dO, nf * 16));
  CHECK(musaMemcpy(dF, fin.data(), nf * 4, musaMemcpyHostToDevice));
  floatDirected<<<(nf + 127) / 128, 128>>>(dF, dO, nf);
  CHECK(musaGetLastError());
  std::vector<uint16_t> fo(nf * 8);
  CHECK(musaMemcpy(fo.data(), dO, nf * 16, musaMemcpyDeviceToHost));
  for (int i = 0; i < nf; i++)
    for (int j = 0; j < 8; j++) {
      bool half = j < 4; uint16_t want = refRound(fin[i], half, j % 4), got = fo[8 * i + j];
      bool ok = isnan(fin[i]) ? nanBits(got, half) : got == want;
      if (!ok && bad++ < 15) printf("float %a %s mode %d: 0x%04x want 0x%04x\n", fin[i], half ? "half" : "bf16", j % 4, got, want);
    }
  // 2. integers to half / bf16
  std::vector<long long> iin = {0, 1, -1, 3, 2047, 2049, 2051, 4097, 4099, 32767, -32768, 65504, 65519, 65520, -65520, 65535, 100000, 257, 259, 65793,
                                16842753, -16842753, 16908287, 2147483647LL, -2147483647LL - 1, 4294967295LL,
                                (1LL << 60) + (1LL << 52) + 1, -((1LL << 60) + (1LL << 52) + 1), (1LL << 53) + (1LL << 45) + 1,
                                LLONG_MAX, LLONG_MIN, (long long)0x8000008000000001ULL};
  int ni = (int)iin.size();
  long long *dI; uint16_t *dIO;
  CHECK(musaMalloc(&dI, ni * 8)); CHECK(musaMalloc(&dIO, ni * 24));
  CHECK(musaMemcpy(dI, iin.data(), ni * 8, musaMemcpyHostToDevice));
  intToLow<<<1, 64>>>(dI, dIO, ni);
  CHECK(musaGetLastError());
  std::vector<uint16_t> io(ni * 12);
  CHECK(musaMemcpy(io.data(), dIO, ni * 24, musaMemcpyDeviceToHost));
  const char *inames[12] = {"__short2half_rn", "__ushort2half_rn", "__int2half_rn", "__uint2half_rn", "__ll2half_rn", "__ull2half_rn",
                            "__short2bfloat16_rn", "__int2bfloat16_rn", "__uint2bfloat16_rn", "__ll2bfloat16_rn", "__ull2bfloat16_rn", "__nv_bfloat16(int)"};
  for (int i = 0; i < ni; i++) {
    long long v = iin[i];
    LD exact[12] = {(LD)(short)v, (LD)(unsigned short)v, (LD)(int)v, (LD)(unsigned)v, (LD)v, (LD)(unsigned long long)v,
                    (LD)(short)v, (LD)(int)v, (LD)(unsigned)v, (LD)v, (LD)(unsigned long long)v, (LD)(int)v};
    for (int j = 0; j < 12; j++) {
      uint16_t want = refRound(exact[j], j < 6, 0), got = io[12 * i + j];
      if (got != want && bad++ < 30) printf("%s(%.0Lf): 0x%04x want 0x%04x\n", inames[j], exact[j], got, want);
    }
  }
  // 3. half / bf16 to integers, every pattern of each step of 7
  for (int fmt = 0; fmt < 2; fmt++) {
    bool half = fmt == 0;
    std::vector<uint16_t> pats;
    for (int b = 0; b < 65536; b += 7) pats.push_back((uint16_t)b);
    pats.push_back(half ? 0x7c00 : 0x7f80); pats.push_back(half ? 0xfc00 : 0xff80); pats.push_back(0x7fff);
    pats.push_back(half ? 0x3800 : 0x3f00); pats.push_back(half ? 0xb800 : 0xbf00); pats.push_back(half ? 0x3e00 : 0x3fc0); // +-0.5, 1.5
    pats.push_back(half ? 0x7800 : 0x4700); pats.push_back(half ? 0xf800 : 0xc700); // 32768 / -32768
    int np = (int)pats.size();
    uint16_t *dP; ToInts *dT;
    CHECK(musaMalloc(&dP, np * 2)); CHECK(musaMalloc(&dT, np * sizeof(ToInts)));
    CHECK(musaMemcpy(dP, pats.data(), np * 2, musaMemcpyHostToDevice));
    lowToInt<<<(np + 127) / 128, 128>>>(dP, dT, np, !half);
    CHECK(musaGetLastError());
    std::vector<ToInts> t(np);
    CHECK(musaMemcpy(t.data(), dT, np * sizeof(ToInts), musaMemcpyDeviceToHost));
    for (int i = 0; i < np; i++) {
      LD v = valOf(pats[i], half);
      for (int m = 0; m < 4; m++) {
        bool ok = t[i].s[m] == refToInt<short>(v, m) && t[i].us[m] == refToInt<unsigned short>(v, m) && t[i].i[m] == refToInt<int>(v, m) &&
                  t[i].u[m] == refToInt<unsigned>(v, m) && t[i].ll[m] == refToInt<long long>(v, m) && t[i].ull[m] == refToInt<unsigned long long>(v, m);
        if (!ok && bad++ < 45)
          printf("%s 0x%04x (%Lg) mode %d: s %d/%d us %u/%u i %d/%d u %u/%u ll %lld/%lld ull %llu/%llu\n", half ? "half" : "bf16", pats[i], v, m,
                 t[i].s[m], refToInt<short>(v, m), t[i].us[m], refToInt<unsigned short>(v, m), t[i].i[m], refToInt<int>(v, m),
                 t[i].u[m], refToInt<unsigned>(v, m), t[i].ll[m], refToInt<long long>(v, m), t[i].ull[m], refToInt<unsigned long long>(v, m));
      }
    }
    musaFree(dP); musaFree(dT);
  }
  // 4. raw types and constructors
  float *dR; uint16_t *dRB;
  CHECK(musaMalloc(&dR, 7 * 4)); CHECK(musaMalloc(&dRB, 2));
  rawAndCtors<<<1, 1>>>(dR, dRB);
  CHECK(musaGetLastError());
  float r[7]; uint16_t rb;
  CHECK(musaMemcpy(r, dR, sizeof r, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&rb, dRB, 2, musaMemcpyDeviceToHost));
  float wr[7] = {1.f, (float)0xc000, 2.f - 40.f, 4.5f, 4.5f, 4.f, INFINITY};
  for (int i = 0; i < 7; i++) if (r[i] != wr[i] && bad++ < 50) printf("raw/ctor %d: %g want %g\n", i, r[i], wr[i]);
  if (rb != 0x4090 && bad++ < 50) printf("bf16 1.5*3: 0x%04x want 0x4090\n", rb);
  printf("half_conv_modes: %d floats, %d integers, %d mismatches %s\n", nf, ni, bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
