// Inline PTX as multi-precision and bit-twiddling code writes it: 256-bit addition and
// subtraction with add.cc/addc/sub.cc/subc chains in one asm block, a 128x128->256-bit schoolbook
// multiply with mad.lo.cc/madc.hi across separate asm statements, bfe.u32/bfe.s32/bfi.b32,
// prmt.b32 byte gathers, %laneid and %warpid reads, vote.sync.ballot and shfl.sync.bfly
// in asm (the 32-lane forms), membar.gl and membar.cta.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

struct U256 { unsigned w[8]; };

__device__ U256 add256(const U256 &a, const U256 &b, unsigned &carry) {
  U256 r;
  asm("add.cc.u32 %0, %9, %17;\n\t"
      "addc.cc.u32 %1, %10, %18;\n\t"
      "addc.cc.u32 %2, %11, %19;\n\t"
      "addc.cc.u32 %3, %12, %20;\n\t"
      "addc.cc.u32 %4, %13, %21;\n\t"
      "addc.cc.u32 %5, %14, %22;\n\t"
      "addc.cc.u32 %6, %15, %23;\n\t"
      "addc.cc.u32 %7, %16, %24;\n\t"
      "addc.u32 %8, 0, 0;"
      : "=r"(r.w[0]), "=r"(r.w[1]), "=r"(r.w[2]), "=r"(r.w[3]), "=r"(r.w[4]), "=r"(r.w[5]), "=r"(r.w[6]), "=r"(r.w[7]), "=r"(carry)
      : "r"(a.w[0]), "r"(a.w[1]), "r"(a.w[2]), "r"(a.w[3]), "r"(a.w[4]), "r"(a.w[5]), "r"(a.w[6]), "r"(a.w[7]),
        "r"(b.w[0]), "r"(b.w[1]), "r"(b.w[2]), "r"(b.w[3]), "r"(b.w[4]), "r"(b.w[5]), "r"(b.w[6]), "r"(b.w[7]));
  return r;
}
__device__ U256 sub256(const U256 &a, const U256 &b, unsigned &borrow) {
  U256 r;
  asm("sub.cc.u32 %0, %9, %17;\n\t"
      "subc.cc.u32 %1, %10, %18;\n\t"
      "subc.cc.u32 %2, %11, %19;\n\t"
      "subc.cc.u32 %3, %12, %20;\n\t"
      "subc.cc.u32 %4, %13, %21;\n\t"
      "subc.cc.u32 %5, %14, %22;\n\t"
      "subc.cc.u32 %6, %15, %23;\n\t"
      "subc.cc.u32 %7, %16, %24;\n\t"
      "subc.u32 %8, 0, 0;"
      : "=r"(r.w[0]), "=r"(r.w[1]), "=r"(r.w[2]), "=r"(r.w[3]), "=r"(r.w[4]), "=r"(r.w[5]), "=r"(r.w[6]), "=r"(r.w[7]), "=r"(borrow)
      : "r"(a.w[0]), "r"(a.w[1]), "r"(a.w[2]), "r"(a.w[3]), "r"(a.w[4]), "r"(a.w[5]), "r"(a.w[6]), "r"(a.w[7]),
        "r"(b.w[0]), "r"(b.w[1]), "r"(b.w[2]), "r"(b.w[3]), "r"(b.w[4]), "r"(b.w[5]), "r"(b.w[6]), "r"(b.w[7]));
  return r;
}
// Row-by-row product: for each a word, add a[i]*b into r[i..i+4] with carry chains.
__device__ void mul128(const unsigned *a, const unsigned *b, unsigned *r) {
  for (int k = 0; k < 8; ++k) r[k] = 0;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    unsigned c = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      // r[i+j] += lo(a*b) + c, then c = hi(a*b) + carries
      unsigned lo, hi;
      asm("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(lo) : "r"(a[i]), "r"(b[j]), "r"(r[i + j]));
      asm("madc.hi.u32 %0, %1, %2, 0;" : "=r"(hi) : "r"(a[i]), "r"(b[j]));
      asm("add.cc.u32 %0, %0, %2;\n\taddc.u32 %1, %1, 0;" : "+r"(lo), "+r"(hi) : "r"(c));
      r[i + j] = lo;
      c = hi;
    }
    r[i + 4] = c;
  }
}

__global__ void bigK(const U256 *a, const U256 *b, U256 *sum, U256 *diff, unsigned *flags, U256 *prod, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned c, bw;
  sum[i] = add256(a[i], b[i], c);
  diff[i] = sub256(a[i], b[i], bw);
  flags[i] = c | ((bw & 1) << 1);
  mul128(a[i].w, b[i].w, prod[i].w);
}

__global__ void bitsK(const unsigned *x, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = x[i], pos = i % 32, len = (i * 7) % 33;
  unsigned u, p1, p2, ins;
  int s;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(v), "r"(pos), "r"(len));
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(s) : "r"(v), "r"(pos), "r"(len));
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(ins) : "r"(0xA5A5A5A5u), "r"(v), "r"(pos), "r"(len));
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(p1) : "r"(v), "r"(~v), "r"(0x4062u + i));
  asm("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(p2) : "r"(v), "r"(0u));
  out[5 * i + 0] = u; out[5 * i + 1] = (unsigned)s; out[5 * i + 2] = ins;
  out[5 * i + 3] = p1; out[5 * i + 4] = p2;
}

__global__ void laneK(unsigned *out) {
  unsigned lane, warp, ballot, x;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
               : "=r"(ballot) : "r"(threadIdx.x % 3 == 0));
  asm volatile("shfl.sync.bfly.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(x) : "r"(threadIdx.x));
  asm volatile("membar.gl;");
  asm volatile("membar.cta;" ::: "memory");
  out[4 * threadIdx.x + 0] = lane;
  out[4 * threadIdx.x + 1] = warp;
  out[4 * threadIdx.x + 2] = ballot;
  out[4 * threadIdx.x + 3] = x;
}

static unsigned hbfe(unsigned v, unsigned pos, unsigned len, bool sgn) {
  if (len == 0) return 0;
  unsigned r = 0; int msb = -1;
  for (unsigned k = 0; k < len; ++k) {
    unsigned b = pos + k < 32 ? (v >> (pos + k)) & 1 : (sgn ? (v >> 31) & 1 : 0);
    r |= b << k; msb = b;
  }
  if (sgn && msb == 1) for (unsigned k = len; k < 32; ++k) r |= 1u << k;
  return r;
}

int main() {
  int failures = 0;
  const int n = 256;
  U256 ha[n], hb[n];
  uint64_t st = 0x2545F4914F6CDD1DULL;
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 8; ++k) {
      st ^= st << 13; st ^= st >> 7; st ^= st << 17;
      ha[i].w[k] = i % 5 == 0 ? 0xffffffffu : (unsigned)st;
      hb[i].w[k] = i % 7 == 0 ? (k == 0 ? 1u : 0u) : (unsigned)(st >> 32);
    }
  U256 *da, *db, *ds, *dd, *dp; unsigned *df;
  CHECK(musaMalloc(&da, sizeof ha)); CHECK(musaMalloc(&db, sizeof hb)); CHECK(musaMalloc(&ds, sizeof ha));
  CHECK(musaMalloc(&dd, sizeof ha)); CHECK(musaMalloc(&dp, sizeof ha)); CHECK(musaMalloc(&df, n * 4));
  CHECK(musaMemcpy(da, ha, sizeof ha, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(db, hb, sizeof hb, musaMemcpyHostToDevice));
  bigK<<<n / 64, 64>>>(da, db, ds, dd, df, dp, n);
  CHECK(musaGetLastError());
  U256 hs[n], hd[n], hp[n]; unsigned hf[n];
  CHECK(musaMemcpy(hs, ds, sizeof hs, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(hd, dd, sizeof hd, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(hp, dp, sizeof hp, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(hf, df, sizeof hf, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    uint64_t c = 0, b = 0; bool bad = false;
    for (int k = 0; k < 8; ++k) {
      uint64_t s = (uint64_t)ha[i].w[k] + hb[i].w[k] + c; c = s >> 32;
      int64_t d = (int64_t)ha[i].w[k] - hb[i].w[k] - (int64_t)b; b = d < 0;
      if (hs[i].w[k] != (unsigned)s) { bad = true; if (i < 3) printf("  sum word %d: %08x vs %08x\n", k, hs[i].w[k], (unsigned)s); }
      if (hd[i].w[k] != (unsigned)d) { bad = true; if (i < 3) printf("  diff word %d: %08x vs %08x\n", k, hd[i].w[k], (unsigned)d); }
    }
    unsigned e[8] = {0};
    for (int x = 0; x < 4; ++x) {
      uint64_t carry = 0;
      for (int y = 0; y < 4; ++y) {
        uint64_t t = (uint64_t)ha[i].w[x] * hb[i].w[y] + e[x + y] + carry;
        e[x + y] = (unsigned)t; carry = t >> 32;
      }
      e[x + 4] = (unsigned)carry;
    }
    for (int k = 0; k < 8; ++k) if (hp[i].w[k] != e[k]) { bad = true; if (i < 3) printf("  prod word %d: %08x vs %08x\n", k, hp[i].w[k], e[k]); }
    if (hf[i] != (unsigned)(c | (b << 1))) bad = true;
    if (bad && failures++ < 5) printf("bignum %d wrong (flags %u, expected %u)\n", i, hf[i], (unsigned)(c | (b << 1)));
  }
  unsigned hx[n], hout[5 * n];
  for (int i = 0; i < n; ++i) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; hx[i] = (unsigned)st; }
  unsigned *dx, *dout;
  CHECK(musaMalloc(&dx, sizeof hx)); CHECK(musaMalloc(&dout, sizeof hout));
  CHECK(musaMemcpy(dx, hx, sizeof hx, musaMemcpyHostToDevice));
  bitsK<<<n / 64, 64>>>(dx, dout, n);
  CHECK(musaMemcpy(hout, dout, sizeof hout, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    unsigned v = hx[i], pos = i % 32, len = (i * 7) % 33;
    unsigned eu = hbfe(v, pos, len, false), es = hbfe(v, pos, len, true);
    unsigned mask = len >= 32 ? 0xffffffffu : ((1u << len) - 1);
    unsigned ins = pos + len > 32 ? 0 : 0;
    // bfi: insert the low len bits of a into b at pos (bits past 31 dropped)
    unsigned m2 = (pos >= 32) ? 0 : (mask << pos);
    ins = (v & ~m2) | ((0xA5A5A5A5u << pos) & m2);
    unsigned sel = 0x4062u + i, bytes[8], p1 = 0;
    for (int k = 0; k < 4; ++k) { bytes[k] = (v >> (8 * k)) & 0xff; bytes[4 + k] = (~v >> (8 * k)) & 0xff; }
    for (int k = 0; k < 4; ++k) {
      unsigned s = (sel >> (4 * k)) & 0xf, by = bytes[s & 7];
      if (s & 8) by = (by & 0x80) ? 0xff : 0; // sign replicate
      p1 |= by << (8 * k);
    }
    if ((hout[5 * i] != eu || hout[5 * i + 1] != es || hout[5 * i + 2] != ins || hout[5 * i + 3] != p1 || hout[5 * i + 4] != v) && failures++ < 10)
      printf("bits %d v=%08x pos=%u len=%u: bfe.u %08x/%08x bfe.s %08x/%08x bfi %08x/%08x prmt %08x/%08x id %08x\n", i, v, pos, len,
             hout[5 * i], eu, hout[5 * i + 1], es, hout[5 * i + 2], ins, hout[5 * i + 3], p1, hout[5 * i + 4]);
  }
  int ws = 0;
  CHECK(musaDeviceGetAttribute(&ws, musaDevAttrWarpSize, 0));
  unsigned hl[4 * 256], *dl;
  CHECK(musaMalloc(&dl, sizeof hl));
  laneK<<<1, 256>>>(dl);
  CHECK(musaDeviceSynchronize());
  CHECK(musaMemcpy(hl, dl, sizeof hl, musaMemcpyDeviceToHost));
  unsigned expBallot = 0;
  for (int l = 0; l < 32; ++l) if (l % 3 == 0) expBallot |= 1u << l;
  for (int t = 0; t < 256; ++t) {
    unsigned lane = hl[4 * t], ballot = hl[4 * t + 2], x = hl[4 * t + 3];
    // ballot over the 32-lane slice: thread t's slice starts at t & ~31; (t&~31) % 3 shifts the pattern
    unsigned base = t & ~31u, eb = 0;
    for (int l = 0; l < 32; ++l) if ((base + l) % 3 == 0) eb |= 1u << l;
    if ((lane != (unsigned)(t % ws) || ballot != eb || x != (unsigned)(t ^ 1)) && failures++ < 10)
      printf("lane %d: laneid %u ballot %08x (exp %08x) bfly %u\n", t, lane, ballot, eb, x);
  }
  printf("ptx_bignum: %s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
