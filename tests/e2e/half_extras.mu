// What cuda_fp16.h and cuda_bf16.h offer beyond the basics, on the device against known bit
// patterns: __hfma and __double2half rounding once, directed rounding from float, integer
// conversions that saturate, the _sat/_nan/_relu forms, pair comparisons, raw bit patterns,
// bfloat16 built from float and read as float, and atomicAdd on halves and bfloat16.
#include "check.h"
#include <musa_bf16.h>
#include <musa_fp16.h>

#include <limits.h>
#include <math.h>
#include <math_constants.h>

enum { NBits = 40, NInts = 12 };

__device__ unsigned short hb(__half h) { return __half_as_ushort(h); }
__device__ unsigned short bb(__nv_bfloat16 b) { return __bfloat16_as_ushort(b); }

__global__ void conversions(unsigned short *bits, long long *ints, const float *in) {
  if (threadIdx.x != 0)
    return;
  float nan = in[0], inf = in[1], big = in[2];
  // (1 + 2^-10) * (1 - 2^-10) * 2^-11 + (1 + 2^-10) = 1 + 2^-10 + 2^-11 - 2^-31: just below
  // the tie between 0x3c01 and 0x3c02, which rounding through float would land on.
  __half_raw ra, rb;
  ra.x = 0x3c01, rb.x = 0x0ffe;
  __half a = ra, b = rb;
  int k = 0;
  bits[k++] = hb(__hfma(a, b, a));                                    // 0x3c01
  __half2 f2 = __hfma2(__halves2half2(a, a), __halves2half2(b, b), __halves2half2(a, a));
  bits[k++] = hb(f2.y);                                               // 0x3c01
  bits[k++] = hb(__double2half(1.0 + 0x1p-11 + 0x1p-40));             // 0x3c01
  bits[k++] = bb(__double2bfloat16(1.0 + 0x1p-8 + 0x1p-40));          // 0x3f81
  bits[k++] = hb(__float2half_rz(1.0004f));                           // 0x3c00
  bits[k++] = hb(__float2half_ru(1.0004f));                           // 0x3c01
  bits[k++] = hb(__float2half_rd(-1.0004f));                          // 0xbc01
  bits[k++] = hb(__float2half_rz(-1.0004f));                          // 0xbc00
  bits[k++] = hb(__float2half_rz(big));                               // 0x7bff
  bits[k++] = hb(__float2half_ru(big));                               // 0x7c00
  bits[k++] = hb(__float2half_rd(1e-10f));                            // 0x0000
  bits[k++] = hb(__float2half_ru(1e-10f));                            // 0x0001
  bits[k++] = hb(__float2half_rd(-1e-10f));                           // 0x8001
  bits[k++] = bb(__float2bfloat16_rz(1.00390625f * 1.001f));          // 0x3f80
  bits[k++] = bb(__float2bfloat16_ru(1.0001f));                       // 0x3f81
  bits[k++] = hb(__hadd_sat(__float2half(0.75f), __float2half(0.5f))); // 0x3c00 (1.0)
  bits[k++] = hb(__hsub_sat(__float2half(0.25f), __float2half(0.5f))); // 0x0000
  bits[k++] = hb(__hmul_sat(__float2half(nan), __float2half(0.5f)));   // 0x0000
  bits[k++] = hb(__hfma_sat(__float2half(0.5f), __float2half(0.5f), __float2half(0.5f))); // 0x3a00
  bits[k++] = hb(__hmax_nan(__float2half(1.0f), __float2half(nan)));   // 0x7fff
  bits[k++] = hb(__hmax(__float2half(1.0f), __float2half(nan)));       // 0x3c00
  bits[k++] = hb(__hfma_relu(__float2half(-2.0f), __float2half(3.0f), __float2half(1.0f))); // 0
  __half2 lt = __hlt2(__floats2half2_rn(1.0f, 3.0f), __floats2half2_rn(2.0f, 2.0f));
  bits[k++] = hb(lt.x);                                               // 0x3c00
  bits[k++] = hb(lt.y);                                               // 0x0000
  __half2 nanpair = __hisnan2(__floats2half2_rn(nan, 1.0f));
  bits[k++] = hb(nanpair.x);                                          // 0x3c00
  bits[k++] = __hbgt2(__floats2half2_rn(3.0f, 4.0f), __floats2half2_rn(2.0f, 2.0f)); // 1
  bits[k++] = __hbgt2(__floats2half2_rn(3.0f, 1.0f), __floats2half2_rn(2.0f, 2.0f)); // 0
  __half2 sq = h2sqrt(__floats2half2_rn(4.0f, 9.0f));
  bits[k++] = hb(sq.y);                                               // 0x4200 (3.0)
  __nv_bfloat16 c = 1.5f;
  __nv_bfloat162 c2 = {c, __float2bfloat16(-2.0f)};
  c2 += c2;
  bits[k++] = bb(c2.y);                                               // 0xc080 (-4.0)
  bits[k++] = bb(__nv_bfloat16(float(c) * 2.0f));                     // 0x4040 (3.0)
  __half h = 2.0f;
  ++h;
  bits[k++] = hb(h);                                                  // 0x4200 (3.0)
  bits[k++] = hb(__ushort2half_rn((unsigned short)70000u));           // 0x6c5c (4464)
  bits[k++] = hb(__uint2half_rn(70000u));                             // 0x7c00
  bits[k++] = hb(__ll2half_rn(-2048ll));                              // 0xe800
  // Integer conversions (saturating, NaN to 0 or to the most negative 64-bit value).
  int j = 0;
  ints[j++] = __half2ushort_rn(__float2half(-3.0f));                  // 0
  ints[j++] = __half2short_rz(__float2half(inf));                     // 32767
  ints[j++] = __half2ll_rz(__float2half(nan));                        // LLONG_MIN
  ints[j++] = __half2uint_ru(__float2half(2.5f));                     // 3
  ints[j++] = __half2int_rd(__float2half(-2.5f));                     // -3
  ints[j++] = __half2int_ru(__float2half(-2.5f));                     // -2
  ints[j++] = __half2int_rn(__float2half(2.5f));                      // 2
  ints[j++] = __bfloat162short_rz(__float2bfloat16(-1e6f));           // -32768
  ints[j++] = __bfloat162ull_rz(__float2bfloat16(-5.0f));             // 0
  ints[j++] = (long long)__bfloat162uint_rn(__float2bfloat16(nan));    // 0
  ints[j++] = k;
  ints[j++] = j + 1;
}

// Integers round once to 16 bits (2^24 + 2^16 + 1 is just above a bfloat16 tie that a float
// conversion lands on), directed integer conversions, pair masks, the complex multiply-add,
// pair increments, bfloat16 raw patterns, the 16-bit atomicCAS and math_constants.h.
__global__ void more(unsigned short *bits, unsigned short *cas, const int *in) {
  if (threadIdx.x != 0)
    return;
  int big = in[0], n2049 = in[1];
  int k = 0;
  bits[k++] = bb(__nv_bfloat16(big));                                  // 0x4b81
  bits[k++] = bb(__int2bfloat16_rn(big));                              // 0x4b81
  bits[k++] = bb(__ll2bfloat16_rn((1ll << 53) + (1ll << 45) + big / big)); // 0x5a01
  bits[k++] = bb(__uint2bfloat16_rz((unsigned)big));                   // 0x4b80
  bits[k++] = hb(__int2half_rz(70000));                                // 0x7bff
  bits[k++] = hb(__int2half_ru(n2049));                                // 0x6801
  bits[k++] = hb(__int2half_rd(-n2049));                               // 0xe801
  bits[k++] = hb(__int2half_rn(n2049));                                // 0x6800
  unsigned mask = __hlt2_mask(__floats2half2_rn(1.0f, 3.0f), __floats2half2_rn(2.0f, 2.0f));
  bits[k++] = mask & 0xffff;                                           // 0xffff
  bits[k++] = mask >> 16;                                              // 0x0000
  __half2 z = __hcmadd(__floats2half2_rn(1.0f, 2.0f), __floats2half2_rn(3.0f, 4.0f),
                       __floats2half2_rn(0.5f, 0.25f));
  bits[k++] = hb(z.x);                                                 // 0xc480 (-4.5)
  bits[k++] = hb(z.y);                                                 // 0x4920 (10.25)
  __half2 t = __floats2half2_rn(1.0f, 2.0f);
  t++;
  ++t;
  bits[k++] = hb(t.y);                                                 // 0x4400 (4.0)
  __nv_bfloat16_raw raw;
  raw.x = 0x3f80;
  __nv_bfloat16 x = raw;
  nv_bfloat16 y = x;
  __nv_bfloat16_raw back = y;
  bits[k++] = back.x;                                                  // 0x3f80
  bits[k++] = bb(__ushort_as_bfloat16(0x4040));                        // 0x4040
  bits[k++] = __float_as_uint(CUDART_PI_F) >> 16;                      // 0x4049
  bits[k++] = isinf(CUDART_INF_F) && isnan(CUDART_NAN);                // 1
  bits[k++] = atomicCAS(cas, (unsigned short)7, (unsigned short)9);    // 7
  bits[k++] = atomicCAS(cas, (unsigned short)7, (unsigned short)11);   // 9
  bits[k++] = k + 1;
}

// Every thread adds to one half, one pair, one bfloat16 and one bfloat16 pair: the sums are
// exact (at most 256), so any lost update shows.
__global__ void atomics(__half *h, __half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2,
                        __half *olds) {
  __half old = atomicAdd(h, __float2half(1.0f));
  atomicAdd(h2, __floats2half2_rn(1.0f, 0.5f));
  atomicAdd(b, __float2bfloat16(1.0f));
  atomicAdd(b2, __floats2bfloat162_rn(0.5f, 1.0f));
  olds[blockIdx.x * blockDim.x + threadIdx.x] = old;
}

int main() {
  unsigned short *dbits;
  long long *dints;
  float *din;
  float in[3] = {NAN, INFINITY, 1e6f};
  CHECK_MUSA(musaMalloc(&dbits, NBits * sizeof(unsigned short)));
  CHECK_MUSA(musaMalloc(&dints, NInts * sizeof(long long)));
  CHECK_MUSA(musaMalloc(&din, sizeof in));
  CHECK_MUSA(musaMemcpy(din, in, sizeof in, musaMemcpyHostToDevice));
  conversions<<<1, 32>>>(dbits, dints, din);
  CHECK_MUSA(musaGetLastError());
  unsigned short bits[NBits];
  long long ints[NInts];
  CHECK_MUSA(musaMemcpy(bits, dbits, sizeof bits, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(ints, dints, sizeof ints, musaMemcpyDeviceToHost));
  const unsigned short want[] = {
      0x3c01, 0x3c01, 0x3c01, 0x3f81, 0x3c00, 0x3c01, 0xbc01, 0xbc00, 0x7bff, 0x7c00,
      0x0000, 0x0001, 0x8001, 0x3f80, 0x3f81, 0x3c00, 0x0000, 0x0000, 0x3a00, 0x7fff,
      0x3c00, 0x0000, 0x3c00, 0x0000, 0x3c00, 1,      0,      0x4200, 0xc080, 0x4040,
      0x4200, 0x6c5c, 0x7c00, 0xe800};
  const int nwant = sizeof want / sizeof want[0];
  CHECK(ints[10] == nwant, "%lld results written, %d expected", ints[10], nwant);
  for (int i = 0; i < nwant; ++i)
    CHECK(bits[i] == want[i], "result %d: %#x, want %#x", i, bits[i], want[i]);
  const long long wantInts[] = {0, 32767, LLONG_MIN, 3, -3, -2, 2, -32768, 0, 0};
  for (int i = 0; i < 10; ++i)
    CHECK(ints[i] == wantInts[i], "integer %d: %lld, want %lld", i, ints[i], wantInts[i]);
  // The host side of the same header rounds the same way.
  CHECK(__half_as_ushort(__double2half(1.0 + 0x1p-11 + 0x1p-40)) == 0x3c01, "host double2half");
  CHECK(__bfloat16_as_ushort(__double2bfloat16(1.0 + 0x1p-8 + 0x1p-40)) == 0x3f81,
        "host double2bfloat16");
  CHECK(__half_as_ushort(__float2half_rz(1e6f)) == 0x7bff, "host float2half_rz");
  __nv_bfloat16 hostb = 2.5f;
  CHECK(float(hostb) == 2.5f, "host bfloat16 from float");

  {
    unsigned short *dmore, *dcas;
    int *dn;
    int n[2] = {(1 << 24) + (1 << 16) + 1, 2049};
    unsigned short seven = 7;
    CHECK_MUSA(musaMalloc(&dmore, 32 * sizeof(unsigned short)));
    CHECK_MUSA(musaMalloc(&dcas, sizeof(unsigned short)));
    CHECK_MUSA(musaMalloc(&dn, sizeof n));
    CHECK_MUSA(musaMemcpy(dn, n, sizeof n, musaMemcpyHostToDevice));
    CHECK_MUSA(musaMemcpy(dcas, &seven, sizeof seven, musaMemcpyHostToDevice));
    more<<<1, 32>>>(dmore, dcas, dn);
    CHECK_MUSA(musaGetLastError());
    unsigned short got[32], cas;
    CHECK_MUSA(musaMemcpy(got, dmore, sizeof got, musaMemcpyDeviceToHost));
    CHECK_MUSA(musaMemcpy(&cas, dcas, sizeof cas, musaMemcpyDeviceToHost));
    const unsigned short wantMore[] = {0x4b81, 0x4b81, 0x5a01, 0x4b80, 0x7bff, 0x6801, 0xe801,
                                       0x6800, 0xffff, 0x0000, 0xc480, 0x4920, 0x4400, 0x3f80,
                                       0x4040, 0x4049, 1,      7,      9};
    const int nmore = sizeof wantMore / sizeof wantMore[0];
    CHECK(got[nmore] == nmore + 1, "%d results written, %d expected", got[nmore] - 1, nmore);
    for (int i = 0; i < nmore; ++i)
      CHECK(got[i] == wantMore[i], "more %d: %#x, want %#x", i, got[i], wantMore[i]);
    CHECK(cas == 9, "16-bit atomicCAS left %d", cas);
    CHECK(__bfloat16_as_ushort(__nv_bfloat16((1 << 24) + (1 << 16) + 1)) == 0x4b81,
          "host int to bfloat16");
  }

  const int blocks = 4, threads = 64;
  __half *h, *olds;
  __half2 *h2;
  __nv_bfloat16 *b;
  __nv_bfloat162 *b2;
  CHECK_MUSA(musaMalloc(&h, sizeof(__half)));
  CHECK_MUSA(musaMalloc(&h2, sizeof(__half2)));
  CHECK_MUSA(musaMalloc(&b, sizeof(__nv_bfloat16)));
  CHECK_MUSA(musaMalloc(&b2, sizeof(__nv_bfloat162)));
  CHECK_MUSA(musaMalloc(&olds, blocks * threads * sizeof(__half)));
  CHECK_MUSA(musaMemset(h, 0, sizeof(__half)));
  CHECK_MUSA(musaMemset(h2, 0, sizeof(__half2)));
  CHECK_MUSA(musaMemset(b, 0, sizeof(__nv_bfloat16)));
  CHECK_MUSA(musaMemset(b2, 0, sizeof(__nv_bfloat162)));
  atomics<<<blocks, threads>>>(h, h2, b, b2, olds);
  CHECK_MUSA(musaGetLastError());
  __half rh;
  __half2 rh2;
  __nv_bfloat16 rb;
  __nv_bfloat162 rb2;
  __half old[blocks * threads];
  CHECK_MUSA(musaMemcpy(&rh, h, sizeof rh, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&rh2, h2, sizeof rh2, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&rb, b, sizeof rb, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&rb2, b2, sizeof rb2, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(old, olds, sizeof old, musaMemcpyDeviceToHost));
  CHECK(__half2float(rh) == 256.0f, "half sum %f", __half2float(rh));
  CHECK(__low2float(rh2) == 256.0f && __high2float(rh2) == 128.0f, "half2 sums %f %f",
        __low2float(rh2), __high2float(rh2));
  CHECK(float(rb) == 256.0f, "bfloat16 sum %f", float(rb));
  CHECK(__low2float(rb2) == 128.0f && __high2float(rb2) == 256.0f, "bfloat162 sums %f %f",
        __low2float(rb2), __high2float(rb2));
  // The old values are 0..255, each once.
  int seen[blocks * threads] = {0};
  for (int i = 0; i < blocks * threads; ++i) {
    int v = (int)__half2float(old[i]);
    if (v >= 0 && v < blocks * threads)
      ++seen[v];
  }
  int distinct = 0;
  for (int i = 0; i < blocks * threads; ++i)
    distinct += seen[i] == 1;
  CHECK(distinct == blocks * threads, "%d distinct old values", distinct);
  return finish("half_extras");
}
