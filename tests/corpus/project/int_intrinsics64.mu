// Integer intrinsics against independent host references over edge-heavy inputs: __brevll,
// __clzll, __ffsll, __popcll, __byte_perm (all selector nibbles), __funnelshift_l/r/lc/rc with
// shifts past 32, __sad/__usad, __hadd/__rhadd/__uhadd/__urhadd at the int limits, __mulhi,
// __umulhi, __mul64hi, __umul64hi, __mul24/__umul24.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <limits.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

const int NOUT = 22;
__global__ void intr(const unsigned long long *a, const unsigned long long *b, const unsigned *s,
                     unsigned long long *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = a[i], y = b[i];
  unsigned lo = (unsigned)x, hi = (unsigned)y, sh = s[i];
  unsigned long long *o = out + (size_t)i * NOUT;
  o[0] = __brevll(x);
  o[1] = (unsigned)__clzll((long long)x);
  o[2] = (unsigned)__ffsll((long long)x);
  o[3] = (unsigned)__popcll(x);
  o[4] = __byte_perm(lo, hi, sh);
  o[5] = __funnelshift_l(lo, hi, sh);
  o[6] = __funnelshift_r(lo, hi, sh);
  o[7] = __funnelshift_lc(lo, hi, sh);
  o[8] = __funnelshift_rc(lo, hi, sh);
  o[9] = __sad((int)lo, (int)hi, sh);
  o[10] = __usad(lo, hi, sh);
  o[11] = (unsigned)__hadd((int)lo, (int)hi);
  o[12] = (unsigned)__rhadd((int)lo, (int)hi);
  o[13] = __uhadd(lo, hi);
  o[14] = __urhadd(lo, hi);
  o[15] = (unsigned)__mulhi((int)lo, (int)hi);
  o[16] = __umulhi(lo, hi);
  o[17] = (unsigned long long)__mul64hi((long long)x, (long long)y);
  o[18] = __umul64hi(x, y);
  o[19] = (unsigned)__mul24((int)lo, (int)hi);
  o[20] = __umul24(lo, hi);
  o[21] = (unsigned)__clz((int)lo) | ((unsigned long long)__ffs((int)hi) << 32) | ((unsigned long long)__popc(lo) << 48);
}

static unsigned long long ref(int k, unsigned long long x, unsigned long long y, unsigned sh) {
  unsigned lo = (unsigned)x, hi = (unsigned)y;
  int64_t sx = (int64_t)x, sy = (int64_t)y;
  int32_t slo = (int32_t)lo, shi = (int32_t)hi;
  switch (k) {
  case 0: { unsigned long long r = 0; for (int b = 0; b < 64; ++b) if (x >> b & 1) r |= 1ULL << (63 - b); return r; }
  case 1: { int c = 0; for (int b = 63; b >= 0 && !(x >> b & 1); --b) ++c; return c; }
  case 2: { for (int b = 0; b < 64; ++b) if (x >> b & 1) return b + 1; return 0; }
  case 3: { int c = 0; for (int b = 0; b < 64; ++b) c += x >> b & 1; return c; }
  case 4: { // bytes 0-3 from lo, 4-7 from hi; selector nibble i picks byte (sel & 7)
    unsigned char by[8]; for (int j = 0; j < 4; ++j) { by[j] = lo >> (8 * j); by[4 + j] = hi >> (8 * j); }
    unsigned r = 0; for (int j = 0; j < 4; ++j) r |= (unsigned)by[(sh >> (4 * j)) & 7] << (8 * j); return r; }
  case 5: { unsigned n = sh & 31; return n ? (hi << n) | (lo >> (32 - n)) : hi; }
  case 6: { unsigned n = sh & 31; return n ? (lo >> n) | (hi << (32 - n)) : lo; }
  case 7: { unsigned n = sh > 32 ? 32 : sh; return n == 0 ? hi : n == 32 ? lo : (hi << n) | (lo >> (32 - n)); }
  case 8: { unsigned n = sh > 32 ? 32 : sh; return n == 0 ? lo : n == 32 ? hi : (lo >> n) | (hi << (32 - n)); }
  case 9: { int64_t d = (int64_t)slo - shi; return (unsigned)((d < 0 ? -d : d) + sh); }
  case 10: { int64_t d = (int64_t)lo - hi; return (unsigned)((d < 0 ? -d : d) + sh); }
  case 11: { int64_t s = (int64_t)slo + shi; return (unsigned)(int32_t)(s >= 0 ? s / 2 : -((-s + 1) / 2)); } // floor
  case 12: { int64_t s = (int64_t)slo + shi + 1; return (unsigned)(int32_t)(s >= 0 ? s / 2 : -((-s + 1) / 2)); }
  case 13: return (unsigned)(((uint64_t)lo + hi) / 2);
  case 14: return (unsigned)(((uint64_t)lo + hi + 1) / 2);
  case 15: return (unsigned)(int32_t)(((int64_t)slo * shi) >> 32);
  case 16: return (unsigned)(((uint64_t)lo * hi) >> 32);
  case 17: return (unsigned long long)(int64_t)(((__int128)sx * sy) >> 64);
  case 18: return (unsigned long long)(((unsigned __int128)x * y) >> 64);
  case 19: { int32_t a24 = (int32_t)(lo << 8) >> 8, b24 = (int32_t)(hi << 8) >> 8; return (unsigned)(int32_t)((int64_t)a24 * b24); }
  case 20: return (unsigned)((uint64_t)(lo & 0xffffff) * (hi & 0xffffff));
  case 21: {
    int clz = 0; for (int b = 31; b >= 0 && !(lo >> b & 1); --b) ++clz;
    int ffs = 0; for (int b = 0; b < 32; ++b) if (hi >> b & 1) { ffs = b + 1; break; }
    int pc = 0; for (int b = 0; b < 32; ++b) pc += lo >> b & 1;
    return (unsigned)clz | ((unsigned long long)ffs << 32) | ((unsigned long long)pc << 48); }
  }
  return 0;
}

int main() {
  const int n = 256;
  unsigned long long ha[n], hb[n];
  unsigned hs[n];
  const unsigned long long edge[] = {0, 1, 0xffffffffffffffffULL, 0x8000000000000000ULL, 0x7fffffffffffffffULL,
                                     0x80000000ULL, 0x7fffffffULL, 0xffffffff80000000ULL, 0x00000000ffffffffULL,
                                     0x0123456789abcdefULL, 0xfedcba9876543210ULL, 0x100000000ULL};
  const int ne = sizeof edge / sizeof edge[0];
  uint64_t st = 88172645463325252ULL;
  for (int i = 0; i < n; ++i) {
    st ^= st << 13; st ^= st >> 7; st ^= st << 17;
    ha[i] = i < ne * ne ? edge[i % ne] : st;
    hb[i] = i < ne * ne ? edge[i / ne] : st * 0x9E3779B97F4A7C15ULL;
    if (i >= ne * ne && (i & 3) == 0) ha[i] >>= (i % 60);
    hs[i] = i % 3 == 0 ? (unsigned)(st >> 40) : (unsigned)(i % 70); // large selectors and shifts too
  }
  unsigned long long *da, *db, *dout;
  unsigned *ds;
  CHECK(musaMalloc(&da, sizeof ha)); CHECK(musaMalloc(&db, sizeof hb)); CHECK(musaMalloc(&ds, sizeof hs));
  CHECK(musaMalloc(&dout, sizeof(unsigned long long) * n * NOUT));
  CHECK(musaMemcpy(da, ha, sizeof ha, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, hb, sizeof hb, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(ds, hs, sizeof hs, musaMemcpyHostToDevice));
  intr<<<(n + 63) / 64, 64>>>(da, db, ds, dout, n);
  CHECK(musaGetLastError());
  unsigned long long *h = (unsigned long long *)malloc(sizeof(unsigned long long) * n * NOUT);
  CHECK(musaMemcpy(h, dout, sizeof(unsigned long long) * n * NOUT, musaMemcpyDeviceToHost));
  int failures = 0;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < NOUT; ++k) {
      unsigned long long e = ref(k, ha[i], hb[i], hs[i]);
      if (h[i * NOUT + k] != e && failures++ < 10)
        printf("op %d x=%016llx y=%016llx s=%u: got %llx expected %llx\n", k, ha[i], hb[i], hs[i], h[i * NOUT + k], e);
    }
  printf("int_intrinsics64: %s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
