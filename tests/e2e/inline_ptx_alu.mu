// One-instruction arithmetic in inline PTX, as hashing, bit-twiddling and fast-math code writes
// it (lop3, shf, bfe, bfi, bfind, mul.hi/.wide, mad, shifts past the width, popc/clz/brev,
// ex2/lg2/rcp.approx): every result is compared with host arithmetic written from the PTX
// ISA's definitions, over inputs that reach the edge cases (zero, all ones, shift amounts past
// 32, fields past the top). The same program passes on the H200
// (tests/hardware/same_source_checks.h200.txt).
#include "check.h"
#include <math.h>
#include <stdint.h>

#define N 2048
#define OPS 22

__host__ __device__ unsigned mix(unsigned x) {
  x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
  return x;
}

// Inputs with edge cases: every 8th value 0, all ones, or a small count.
__host__ __device__ void inputs(int i, unsigned &a, unsigned &b, unsigned &c) {
  a = mix(i), b = mix(i + N), c = mix(i + 2 * N);
  if (i % 8 == 1) a = 0;
  if (i % 8 == 2) a = 0xffffffffu;
  if (i % 8 == 3) c &= 63; // shift amounts and positions near the width
  if (i % 8 == 4) b &= 63, c &= 63;
  if (i % 8 == 5) a |= 0x80000000u;
}

__global__ void alu(unsigned *out, unsigned long long *wideOut, float *fout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a, b, c;
  inputs(i, a, b, c);
  unsigned *o = out + i * OPS;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(o[0]) : "r"(a), "r"(b), "r"(c));
  asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(o[1]) : "r"(a), "r"(b), "r"(c));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(o[2]) : "r"(a), "r"(b), "r"(c));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(o[3]) : "r"(a), "r"(b), "r"(c));
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(o[4]) : "r"(a), "r"(b & 63), "r"(c & 63));
  int se;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(se) : "r"(int(a)), "r"(b & 63), "r"(c & 63));
  o[5] = unsigned(se);
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(o[6]) : "r"(a), "r"(b), "r"(c & 63), "r"((c >> 8) & 63));
  asm("bfind.u32 %0, %1;" : "=r"(o[7]) : "r"(a));
  asm("bfind.s32 %0, %1;" : "=r"(o[8]) : "r"(int(a)));
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(o[9]) : "r"(a), "r"(b));
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(se) : "r"(int(a)), "r"(int(b)));
  o[10] = unsigned(se);
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(o[11]) : "r"(a), "r"(b), "r"(c));
  asm("shl.b32 %0, %1, %2;" : "=r"(o[12]) : "r"(a), "r"(c & 63));
  asm("shr.u32 %0, %1, %2;" : "=r"(o[13]) : "r"(a), "r"(c & 63));
  asm("shr.s32 %0, %1, %2;" : "=r"(se) : "r"(int(a)), "r"(c & 63));
  o[14] = unsigned(se);
  asm("popc.b32 %0, %1;" : "=r"(o[15]) : "r"(a));
  asm("clz.b32 %0, %1;" : "=r"(o[16]) : "r"(a));
  asm("brev.b32 %0, %1;" : "=r"(o[17]) : "r"(a));
  asm("min.s32 %0, %1, %2;" : "=r"(se) : "r"(int(a)), "r"(int(b)));
  o[18] = unsigned(se);
  asm("max.u32 %0, %1, %2;" : "=r"(o[19]) : "r"(a), "r"(b));
  asm("xor.b32 %0, %1, 0x5bd1e995;" : "=r"(o[20]) : "r"(a));
  asm("add.u32 %0, %1, %2;" : "=r"(o[21]) : "r"(a), "r"(b));
  unsigned long long w;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(a), "r"(b));
  wideOut[2 * i] = w;
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(w) : "r"(a), "r"(b), "l"(w));
  wideOut[2 * i + 1] = w;
  float x = float(a % 1000) / 100.0f + 0.5f, y;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  fout[3 * i] = y;
  asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
  fout[3 * i + 1] = y;
  asm("fma.rn.f32 %0, %1, %2, 0f3F800000;" : "=f"(y) : "f"(x), "f"(x));
  fout[3 * i + 2] = y;
}

// The PTX ISA's definitions, on the host.
unsigned lop3(unsigned a, unsigned b, unsigned c, unsigned lut) {
  unsigned r = 0;
  for (int bit = 0; bit < 32; ++bit) {
    unsigned idx = ((a >> bit & 1) << 2) | ((b >> bit & 1) << 1) | (c >> bit & 1);
    r |= (lut >> idx & 1) << bit;
  }
  return r;
}
unsigned bfeU(unsigned a, unsigned pos, unsigned len) {
  unsigned r = 0;
  for (unsigned k = 0; k < len && k < 32; ++k)
    r |= (pos + k < 32 ? (a >> (pos + k)) & 1 : 0) << k;
  return r;
}
unsigned bfeS(unsigned a, unsigned pos, unsigned len) {
  if (len == 0)
    return 0;
  unsigned sbit = (pos + len - 1 > 31 ? a >> 31 : a >> (pos + len - 1)) & 1, r = 0;
  for (unsigned k = 0; k < 32; ++k) {
    unsigned bit = k < len ? (pos + k < 32 ? (a >> (pos + k)) & 1 : a >> 31) : sbit;
    r |= bit << k;
  }
  return r;
}
unsigned bfi(unsigned a, unsigned b, unsigned pos, unsigned len) {
  unsigned r = b;
  for (unsigned k = 0; k < len && pos + k < 32; ++k)
    r = (r & ~(1u << (pos + k))) | (((a >> k) & 1) << (pos + k));
  return r;
}
unsigned bfindU(unsigned a) {
  for (int k = 31; k >= 0; --k)
    if (a >> k & 1)
      return unsigned(k);
  return 0xffffffffu;
}

int main() {
  unsigned *out;
  unsigned long long *wide;
  float *fout;
  CHECK_MUSA(musaMallocManaged(&out, N * OPS * sizeof(unsigned)));
  CHECK_MUSA(musaMallocManaged(&wide, 2 * N * sizeof(unsigned long long)));
  CHECK_MUSA(musaMallocManaged(&fout, 3 * N * sizeof(float)));
  alu<<<N / 64, 64>>>(out, wide, fout);
  CHECK_MUSA(musaDeviceSynchronize());
  const char *names[OPS] = {"lop3 0x96", "lop3 0xe8", "shf.l.wrap", "shf.r.clamp", "bfe.u32",
                            "bfe.s32", "bfi", "bfind.u32", "bfind.s32", "mul.hi.u32",
                            "mul.hi.s32", "mad.lo", "shl", "shr.u32", "shr.s32", "popc", "clz",
                            "brev", "min.s32", "max.u32", "xor imm", "add"};
  int wrong[OPS + 2] = {0};
  for (int i = 0; i < N; ++i) {
    unsigned a, b, c;
    inputs(i, a, b, c);
    uint64_t pair = (uint64_t(b) << 32) | a;
    unsigned s = c & 63, brev = 0;
    for (int k = 0; k < 32; ++k)
      brev |= (a >> k & 1) << (31 - k);
    unsigned want[OPS] = {
        lop3(a, b, c, 0x96), lop3(a, b, c, 0xe8), unsigned((pair << (c & 31)) >> 32),
        unsigned(pair >> (c < 32 ? c : 32)), bfeU(a, b & 63, c & 63), bfeS(a, b & 63, c & 63),
        bfi(a, b, c & 63, (c >> 8) & 63), bfindU(a), bfindU(int(a) < 0 ? ~a : a),
        unsigned((uint64_t(a) * b) >> 32), unsigned((int64_t(int(a)) * int(b)) >> 32), a * b + c,
        s >= 32 ? 0 : a << s, s >= 32 ? 0 : a >> s, unsigned(int(a) >> (s >= 32 ? 31 : s)),
        unsigned(__builtin_popcount(a)), a ? unsigned(__builtin_clz(a)) : 32u, brev,
        unsigned(int(a) < int(b) ? int(a) : int(b)), a > b ? a : b, a ^ 0x5bd1e995u, a + b};
    for (int k = 0; k < OPS; ++k)
      if (out[i * OPS + k] != want[k] && wrong[k]++ < 3)
        printf("%s(%#x, %#x, %#x) = %#x, want %#x\n", names[k], a, b, c, out[i * OPS + k], want[k]);
    uint64_t product = uint64_t(a) * b;
    if ((wide[2 * i] != product || wide[2 * i + 1] != product + product) && wrong[OPS]++ < 3)
      printf("mul.wide/mad.wide(%#x, %#x) = %#llx %#llx\n", a, b, wide[2 * i], wide[2 * i + 1]);
    float x = float(a % 1000) / 100.0f + 0.5f;
    // The approximations are 2 ulp (ex2) and 2^-22 absolute (lg2) on the GPU.
    if ((fabsf(fout[3 * i] - exp2f(x)) > 4e-7f * exp2f(x) || fabsf(fout[3 * i + 1] - log2f(x)) > 1e-6f ||
         fout[3 * i + 2] != fmaf(x, x, 1.0f)) &&
        wrong[OPS + 1]++ < 3)
      printf("ex2/lg2/fma(%g) = %.9g %.9g %.9g\n", x, fout[3 * i], fout[3 * i + 1], fout[3 * i + 2]);
  }
  for (int k = 0; k < OPS; ++k)
    CHECK(wrong[k] == 0, "%d wrong %s results", wrong[k], names[k]);
  CHECK(wrong[OPS] == 0, "%d wrong mul.wide/mad.wide results", wrong[OPS]);
  CHECK(wrong[OPS + 1] == 0, "%d wrong ex2/lg2/fma results", wrong[OPS + 1]);
  return finish("inline_ptx_alu");
}
