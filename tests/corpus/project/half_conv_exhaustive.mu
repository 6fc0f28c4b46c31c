// Conversions of __half and __nv_bfloat16 checked exhaustively or on edge values against a
// bit-level host reference: every binary16 pattern to float and back, float-to-half and
// float-to-bfloat16 rounding (ties, subnormals, overflow to infinity, NaN), bfloat16 to float,
// half <-> bfloat16 through float, __half2int_rn/_rz, __int2half_rn, __float2half2_rn and
// __half22float2, __half_as_ushort/__ushort_as_half round trips.
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

static float bitsToFloat(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t floatToBits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
// binary16 -> float, by hand
static float refHalfToFloat(uint16_t h) {
  uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
  float v;
  if (e == 31) return m ? bitsToFloat((s << 31) | 0x7fc00000u | (m << 13)) : (s ? -INFINITY : INFINITY);
  if (e == 0) v = ldexpf((float)m, -24);
  else v = ldexpf((float)(m | 1024), (int)e - 25);
  return s ? -v : v;
}
// float -> binary16, round to nearest even, by hand
static uint16_t refFloatToHalf(float f) {
  uint32_t u = floatToBits(f);
  uint16_t s = (u >> 16) & 0x8000;
  if (isnan(f)) return 0x7fff; // any NaN; compared as "is NaN"
  double a = fabs((double)f);
  if (a >= 65520.0) return s | 0x7c00;
  if (a < ldexp(1.0, -14)) { // subnormal grid 2^-24
    double q = nearbyint(ldexp(a, 24));
    return s | (uint16_t)q; // q may be 1024 -> smallest normal, encoding works
  }
  int e; frexp(a, &e); e -= 1;
  double q = nearbyint(ldexp(a, 10 - e)); // 1024..2048
  if (q == 2048) { q = 1024; e += 1; }
  if (e > 15) return s | 0x7c00;
  return s | (uint16_t)(((e + 15) << 10) | ((uint32_t)q & 1023));
}
static uint16_t refFloatToBf16(float f) {
  uint32_t u = floatToBits(f);
  if (isnan(f)) return 0x7fff;
  double a = fabs((double)f);
  uint16_t s = (u >> 16) & 0x8000;
  if (a == 0) return s;
  int e; frexp(a, &e); e -= 1;
  if (e < -126) e = -126;
  double q = nearbyint(ldexp(a, 7 - e));
  double r = ldexp(q, e - 7);
  if (r > 3.3895313892515355e38) return s | 0x7f80;
  float rf = (float)r;
  return (uint16_t)(floatToBits(rf) >> 16) | s;
}
static bool halfIsNan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 1023); }
static bool bf16IsNan(uint16_t h) { return (h & 0x7f80) == 0x7f80 && (h & 127); }

__global__ void halfToFloatK(float *out, uint16_t *back, int *toInt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  __half h = __ushort_as_half((unsigned short)i);
  float f = __half2float(h);
  out[i] = f;
  back[i] = __half_as_ushort(__float2half(f));
  toInt[2 * i] = __half2int_rn(h);
  toInt[2 * i + 1] = __half2int_rz(h);
}
__global__ void floatToK(const float *in, uint16_t *h, uint16_t *b, uint16_t *hb, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  h[i] = __half_as_ushort(__float2half_rn(in[i]));
  b[i] = __bfloat16_as_ushort(__float2bfloat16(in[i]));
  // bfloat16 -> float -> half (the usual way to convert between the two)
  __nv_bfloat16 bv = __float2bfloat16_rn(in[i]);
  hb[i] = __half_as_ushort(__float2half(__bfloat162float(bv)));
}
__global__ void bf16ToFloatK(float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  __nv_bfloat16 b; b.__x = (unsigned short)i;
  out[i] = __bfloat162float(b);
}
__global__ void intToHalfK(const int *in, uint16_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = __half_as_ushort(__int2half_rn(in[i]));
  __half2 p = __float2half2_rn((float)in[i] * 0.5f);
  float2 f = __half22float2(p);
  if (f.x != f.y) out[i] = 0xdead;
}

int main() {
  int bad = 0;
  // 1: every half pattern
  float *dF; uint16_t *dBack; int *dInt;
  CHECK(musaMalloc(&dF, 65536 * 4)); CHECK(musaMalloc(&dBack, 65536 * 2)); CHECK(musaMalloc(&dInt, 65536 * 8));
  halfToFloatK<<<256, 256>>>(dF, dBack, dInt);
  CHECK(musaGetLastError());
  std::vector<float> f(65536); std::vector<uint16_t> back(65536); std::vector<int> ti(131072);
  CHECK(musaMemcpy(f.data(), dF, 65536 * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(back.data(), dBack, 65536 * 2, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(ti.data(), dInt, 65536 * 8, musaMemcpyDeviceToHost));
  for (int i = 0; i < 65536; i++) {
    float r = refHalfToFloat((uint16_t)i);
    bool ok = halfIsNan(i) ? (isnan(f[i]) && halfIsNan(back[i])) : (floatToBits(r) == floatToBits(f[i]) && back[i] == i);
    double rr = r;
    int rn = isnan(rr) ? 0 : rr >= 2147483648.0 ? INT32_MAX : rr < -2147483648.0 ? INT32_MIN : (int)nearbyint(rr);
    int rz = isnan(rr) ? 0 : rr >= 2147483648.0 ? INT32_MAX : rr < -2147483648.0 ? INT32_MIN : (int)trunc(rr);
    if (ti[2 * i] != rn || ti[2 * i + 1] != rz) ok = false;
    if (!ok && bad++ < 10) printf("half 0x%04x: got %a back 0x%04x rn %d rz %d, want %a %d %d\n", i, f[i], back[i], ti[2*i], ti[2*i+1], r, rn, rz);
  }
  // 2: floats to half and bf16: edges, ties, subnormals, random
  std::vector<float> in;
  const float edges[] = {0.f, -0.f, 1.f, -1.f, 65504.f, 65519.99f, 65520.f, -65520.f, 1e30f, -1e30f, INFINITY, -INFINITY, NAN,
                         5.96e-8f, 2.98e-8f, 2.99e-8f, 1e-10f, 6.1035e-5f, 6.09e-5f, 3.3895313e38f, 3.4e38f, 1e-39f, 1e-45f,
                         1.00048828125f, 1.00146484375f, 2049.f, 2051.f, 4095.f, 1.00390625f, 1.01171875f, 257.f, 259.f};
  for (float e : edges) in.push_back(e);
  // every tie and neighbour for half: values k*2^-11 style around binary16 grid
  for (int h = 0; h < 0x7c00; h += 7) {
    float a = refHalfToFloat((uint16_t)h), b = refHalfToFloat((uint16_t)(h + 1));
    float mid = (a + b) / 2; // exact in float
    in.push_back(mid); in.push_back(nextafterf(mid, 0)); in.push_back(nextafterf(mid, INFINITY)); in.push_back(-mid);
  }
  for (uint32_t b = 0; b < 0x7f80; b += 13) { // bf16 ties
    float a = bitsToFloat(b << 16), c = bitsToFloat((b + 1) << 16);
    float mid = bitsToFloat(((b << 16) + ((b + 1) << 16)) / 2);
    in.push_back(mid); in.push_back(nextafterf(mid, 0)); in.push_back(nextafterf(mid, INFINITY)); in.push_back(-mid);
    (void)a; (void)c;
  }
  uint32_t seed = 12345;
  for (int i = 0; i < 20000; i++) { seed = seed * 1664525u + 1013904223u; in.push_back(bitsToFloat(seed)); }
  int n = (int)in.size();
  float *dIn; uint16_t *dH, *dB, *dHB;
  CHECK(musaMalloc(&dIn, n * 4)); CHECK(musaMalloc(&dH, n * 2)); CHECK(musaMalloc(&dB, n * 2)); CHECK(musaMalloc(&dHB, n * 2));
  CHECK(musaMemcpy(dIn, in.data(), n * 4, musaMemcpyHostToDevice));
  floatToK<<<(n + 255) / 256, 256>>>(dIn, dH, dB, dHB, n);
  CHECK(musaGetLastError());
  std::vector<uint16_t> h(n), b(n), hb(n);
  CHECK(musaMemcpy(h.data(), dH, n * 2, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(b.data(), dB, n * 2, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(hb.data(), dHB, n * 2, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    uint16_t rh = refFloatToHalf(in[i]), rb = refFloatToBf16(in[i]);
    uint16_t rhb = refFloatToHalf(bitsToFloat((uint32_t)rb << 16));
    bool ok = isnan(in[i]) ? (halfIsNan(h[i]) && bf16IsNan(b[i]) && halfIsNan(hb[i])) : (h[i] == rh && b[i] == rb && hb[i] == rhb);
    if (!ok && bad++ < 20) printf("float %a (0x%08x): half 0x%04x want 0x%04x, bf16 0x%04x want 0x%04x, bf16->half 0x%04x want 0x%04x\n",
                                  in[i], floatToBits(in[i]), h[i], rh, b[i], rb, hb[i], rhb);
  }
  // 3: every bf16 pattern to float
  bf16ToFloatK<<<256, 256>>>(dF);
  CHECK(musaMemcpy(f.data(), dF, 65536 * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < 65536; i++) {
    float r = bitsToFloat((uint32_t)i << 16);
    bool ok = bf16IsNan(i) ? isnan(f[i]) : floatToBits(f[i]) == floatToBits(r);
    if (!ok && bad++ < 30) printf("bf16 0x%04x: got %a want %a\n", i, f[i], r);
  }
  // 4: ints to half
  std::vector<int> ints = {0, 1, -1, 2047, 2048, 2049, 2050, 2051, 4097, 4099, 65504, 65519, 65520, 100000, -100000, INT32_MAX, INT32_MIN, 12345, -777};
  int ni = (int)ints.size();
  int *dI; uint16_t *dO;
  CHECK(musaMalloc(&dI, ni * 4)); CHECK(musaMalloc(&dO, ni * 2));
  CHECK(musaMemcpy(dI, ints.data(), ni * 4, musaMemcpyHostToDevice));
  intToHalfK<<<1, 64>>>(dI, dO, ni);
  std::vector<uint16_t> o(ni);
  CHECK(musaMemcpy(o.data(), dO, ni * 2, musaMemcpyDeviceToHost));
  for (int i = 0; i < ni; i++) {
    // int -> half rounds once from the exact integer
    double v = ints[i]; uint16_t want;
    if (fabs(v) >= 65520) want = v < 0 ? 0xfc00 : 0x7c00;
    else want = refFloatToHalf((float)v); // |v| < 65520 is exact in float
    if (o[i] != want && bad++ < 40) printf("int %d: half 0x%04x want 0x%04x\n", ints[i], o[i], want);
  }
  printf("half_conv_exhaustive: %d inputs, %d mismatches %s\n", 65536 * 2 + n + ni, bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
