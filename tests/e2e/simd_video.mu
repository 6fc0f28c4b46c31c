// SIMD video intrinsics (__vadd2, __vabsdiffu4, __vsads2, __vcmpeq4, ...) on packed halfwords
// and bytes, as image-processing kernels use them (sum of absolute differences, saturating
// pixel arithmetic), checked part by part against a host reference written from CUDA's
// documented semantics, on edge values (0, -1, the most negative part, the largest part).
#include "check.h"
#include <cmath>
#include <cstdint>
#include <cstring>

enum Op {
  Vabs, Vabsss, Vneg, Vnegss, Vadd, Vaddss, Vaddus, Vsub, Vsubss, Vsubus, Vabsdiffs, Vabsdiffu,
  Vavgs, Vavgu, Vhaddu, Vmaxs, Vmaxu, Vmins, Vminu, Vcmpeq, Vcmpne, Vcmpges, Vcmpgeu, Vcmpgts,
  Vcmpgtu, Vcmples, Vcmpleu, Vcmplts, Vcmpltu, Vseteq, Vsetne, Vsetges, Vsetgeu, Vsetgts,
  Vsetgtu, Vsetles, Vsetleu, Vsetlts, Vsetltu, Vsads, Vsadu, OpCount
};
static const char *const names[OpCount] = {
    "vabs", "vabsss", "vneg", "vnegss", "vadd", "vaddss", "vaddus", "vsub", "vsubss", "vsubus",
    "vabsdiffs", "vabsdiffu", "vavgs", "vavgu", "vhaddu", "vmaxs", "vmaxu", "vmins", "vminu",
    "vcmpeq", "vcmpne", "vcmpges", "vcmpgeu", "vcmpgts", "vcmpgtu", "vcmples", "vcmpleu",
    "vcmplts", "vcmpltu", "vseteq", "vsetne", "vsetges", "vsetgeu", "vsetgts", "vsetgtu",
    "vsetles", "vsetleu", "vsetlts", "vsetltu", "vsads", "vsadu"};

__global__ void packed(const unsigned *a, const unsigned *b, int n, unsigned *out2,
                       unsigned *out4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned x = a[i], y = b[i];
#define BOTH(op, call2, call4)                                                               \
  out2[i * OpCount + op] = call2;                                                            \
  out4[i * OpCount + op] = call4;
  BOTH(Vabs, __vabs2(x), __vabs4(x))
  BOTH(Vabsss, __vabsss2(x), __vabsss4(x))
  BOTH(Vneg, __vneg2(x), __vneg4(x))
  BOTH(Vnegss, __vnegss2(x), __vnegss4(x))
  BOTH(Vadd, __vadd2(x, y), __vadd4(x, y))
  BOTH(Vaddss, __vaddss2(x, y), __vaddss4(x, y))
  BOTH(Vaddus, __vaddus2(x, y), __vaddus4(x, y))
  BOTH(Vsub, __vsub2(x, y), __vsub4(x, y))
  BOTH(Vsubss, __vsubss2(x, y), __vsubss4(x, y))
  BOTH(Vsubus, __vsubus2(x, y), __vsubus4(x, y))
  BOTH(Vabsdiffs, __vabsdiffs2(x, y), __vabsdiffs4(x, y))
  BOTH(Vabsdiffu, __vabsdiffu2(x, y), __vabsdiffu4(x, y))
  BOTH(Vavgs, __vavgs2(x, y), __vavgs4(x, y))
  BOTH(Vavgu, __vavgu2(x, y), __vavgu4(x, y))
  BOTH(Vhaddu, __vhaddu2(x, y), __vhaddu4(x, y))
  BOTH(Vmaxs, __vmaxs2(x, y), __vmaxs4(x, y))
  BOTH(Vmaxu, __vmaxu2(x, y), __vmaxu4(x, y))
  BOTH(Vmins, __vmins2(x, y), __vmins4(x, y))
  BOTH(Vminu, __vminu2(x, y), __vminu4(x, y))
  BOTH(Vcmpeq, __vcmpeq2(x, y), __vcmpeq4(x, y))
  BOTH(Vcmpne, __vcmpne2(x, y), __vcmpne4(x, y))
  BOTH(Vcmpges, __vcmpges2(x, y), __vcmpges4(x, y))
  BOTH(Vcmpgeu, __vcmpgeu2(x, y), __vcmpgeu4(x, y))
  BOTH(Vcmpgts, __vcmpgts2(x, y), __vcmpgts4(x, y))
  BOTH(Vcmpgtu, __vcmpgtu2(x, y), __vcmpgtu4(x, y))
  BOTH(Vcmples, __vcmples2(x, y), __vcmples4(x, y))
  BOTH(Vcmpleu, __vcmpleu2(x, y), __vcmpleu4(x, y))
  BOTH(Vcmplts, __vcmplts2(x, y), __vcmplts4(x, y))
  BOTH(Vcmpltu, __vcmpltu2(x, y), __vcmpltu4(x, y))
  BOTH(Vseteq, __vseteq2(x, y), __vseteq4(x, y))
  BOTH(Vsetne, __vsetne2(x, y), __vsetne4(x, y))
  BOTH(Vsetges, __vsetges2(x, y), __vsetges4(x, y))
  BOTH(Vsetgeu, __vsetgeu2(x, y), __vsetgeu4(x, y))
  BOTH(Vsetgts, __vsetgts2(x, y), __vsetgts4(x, y))
  BOTH(Vsetgtu, __vsetgtu2(x, y), __vsetgtu4(x, y))
  BOTH(Vsetles, __vsetles2(x, y), __vsetles4(x, y))
  BOTH(Vsetleu, __vsetleu2(x, y), __vsetleu4(x, y))
  BOTH(Vsetlts, __vsetlts2(x, y), __vsetlts4(x, y))
  BOTH(Vsetltu, __vsetltu2(x, y), __vsetltu4(x, y))
  BOTH(Vsads, __vsads2(x, y), __vsads4(x, y))
  BOTH(Vsadu, __vsadu2(x, y), __vsadu4(x, y))
#undef BOTH
}

// Host reference: the parts as arrays of int16_t/uint16_t (or int8_t/uint8_t), little-endian
// as the GPU packs them (part 0 in the low bits).
template <class S, class U> unsigned reference(Op op, unsigned x, unsigned y) {
  constexpr int parts = 4 / sizeof(S);
  constexpr long smin = -(1L << (8 * sizeof(S) - 1)), smax = (1L << (8 * sizeof(S) - 1)) - 1,
                 umax = (1L << (8 * sizeof(S))) - 1;
  S sx[parts], sy[parts];
  U ux[parts], uy[parts], r[parts];
  std::memcpy(sx, &x, 4);
  std::memcpy(sy, &y, 4);
  std::memcpy(ux, &x, 4);
  std::memcpy(uy, &y, 4);
  auto clampS = [&](long v) { return v < smin ? smin : v > smax ? smax : v; };
  auto clampU = [&](long v) { return v < 0 ? 0 : v > umax ? umax : v; };
  long sad = 0;
  for (int p = 0; p < parts; ++p) {
    long a = sx[p], b = sy[p], ua = ux[p], ub = uy[p], v = 0;
    long all = umax; // a comparison's "true" part
    switch (op) {
    case Vabs: v = a < 0 ? -a : a; break;
    case Vabsss: v = clampS(a < 0 ? -a : a); break;
    case Vneg: v = -a; break;
    case Vnegss: v = clampS(-a); break;
    case Vadd: v = a + b; break;
    case Vaddss: v = clampS(a + b); break;
    case Vaddus: v = clampU(ua + ub); break;
    case Vsub: v = a - b; break;
    case Vsubss: v = clampS(a - b); break;
    case Vsubus: v = clampU(ua - ub); break;
    case Vabsdiffs: v = a > b ? a - b : b - a; break;
    case Vabsdiffu: v = ua > ub ? ua - ub : ub - ua; break;
    case Vavgs: v = std::lround((a + b) / 2.0); break; // a half rounds away from zero
    case Vavgu: v = (ua + ub + 1) / 2; break;
    case Vhaddu: v = (ua + ub) / 2; break;
    case Vmaxs: v = a > b ? a : b; break;
    case Vmaxu: v = ua > ub ? ua : ub; break;
    case Vmins: v = a < b ? a : b; break;
    case Vminu: v = ua < ub ? ua : ub; break;
    case Vcmpeq: v = a == b ? all : 0; break;
    case Vcmpne: v = a != b ? all : 0; break;
    case Vcmpges: v = a >= b ? all : 0; break;
    case Vcmpgeu: v = ua >= ub ? all : 0; break;
    case Vcmpgts: v = a > b ? all : 0; break;
    case Vcmpgtu: v = ua > ub ? all : 0; break;
    case Vcmples: v = a <= b ? all : 0; break;
    case Vcmpleu: v = ua <= ub ? all : 0; break;
    case Vcmplts: v = a < b ? all : 0; break;
    case Vcmpltu: v = ua < ub ? all : 0; break;
    case Vseteq: v = a == b; break;
    case Vsetne: v = a != b; break;
    case Vsetges: v = a >= b; break;
    case Vsetgeu: v = ua >= ub; break;
    case Vsetgts: v = a > b; break;
    case Vsetgtu: v = ua > ub; break;
    case Vsetles: v = a <= b; break;
    case Vsetleu: v = ua <= ub; break;
    case Vsetlts: v = a < b; break;
    case Vsetltu: v = ua < ub; break;
    case Vsads: sad += a > b ? a - b : b - a; break;
    case Vsadu: sad += ua > ub ? ua - ub : ub - ua; break;
    default: break;
    }
    r[p] = (U)v; // wraps to the part's width
  }
  if (op == Vsads || op == Vsadu)
    return (unsigned)sad;
  unsigned packedResult;
  std::memcpy(&packedResult, r, 4);
  return packedResult;
}

int main() {
  // Edge parts in every position, then a pseudo-random spread.
  const unsigned edges[] = {0x00000000u, 0xffffffffu, 0x80008000u, 0x7fff7fffu, 0x80807f7fu,
                            0x7f80ff01u, 0x0001ffffu, 0x12345678u, 0xfedcba98u, 0x00ff00ffu};
  const int ne = sizeof edges / sizeof edges[0];
  const int n = ne * ne + 512;
  unsigned *a = new unsigned[n], *b = new unsigned[n];
  for (int i = 0; i < ne * ne; ++i) {
    a[i] = edges[i / ne];
    b[i] = edges[i % ne];
  }
  unsigned state = 12345u;
  for (int i = ne * ne; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    a[i] = state;
    state = state * 1664525u + 1013904223u;
    b[i] = state;
  }
  unsigned *da, *db, *d2, *d4;
  CHECK_MUSA(musaMalloc(&da, n * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&db, n * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&d2, n * OpCount * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&d4, n * OpCount * sizeof(unsigned)));
  CHECK_MUSA(musaMemcpy(da, a, n * sizeof(unsigned), musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(db, b, n * sizeof(unsigned), musaMemcpyHostToDevice));
  packed<<<(n + 127) / 128, 128>>>(da, db, n, d2, d4);
  CHECK_MUSA(musaDeviceSynchronize());
  unsigned *h2 = new unsigned[n * OpCount], *h4 = new unsigned[n * OpCount];
  CHECK_MUSA(musaMemcpy(h2, d2, n * OpCount * sizeof(unsigned), musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(h4, d4, n * OpCount * sizeof(unsigned), musaMemcpyDeviceToHost));
  int reported = 0;
  for (int i = 0; i < n; ++i)
    for (int op = 0; op < OpCount; ++op) {
      unsigned want2 = reference<int16_t, uint16_t>(Op(op), a[i], b[i]);
      unsigned want4 = reference<int8_t, uint8_t>(Op(op), a[i], b[i]);
      if ((h2[i * OpCount + op] != want2 || h4[i * OpCount + op] != want4) && reported++ < 20)
        CHECK(false, "__%s(%08x, %08x): 2: %08x want %08x, 4: %08x want %08x", names[op], a[i],
              b[i], h2[i * OpCount + op], want2, h4[i * OpCount + op], want4);
    }
  CHECK(reported == 0, "%d wrong results", reported);
  // A few fixed values from the documentation's definitions.
  const int e80 = 2 * ne + 2; // a = b = 0x80008000
  CHECK(h2[e80 * OpCount + Vabs] == 0x80008000u && h2[e80 * OpCount + Vabsss] == 0x7fff7fffu,
        "abs of the most negative halfword wraps, saturated it is 0x7fff");
  // Signed rounded averages round a half away from zero: (-32640 - 1) / 2 is -16321 (0xc03f),
  // (32639 - 1) / 2 is 16319 (0x3fbf); (32767 + 1) / 2 is 0x4000, (32767 - 1) / 2 is 0x3fff.
  CHECK(h2[(4 * ne + 1) * OpCount + Vavgs] == 0xc03f3fbfu, "vavgs2(0x80807f7f, -1) = %08x",
        h2[(4 * ne + 1) * OpCount + Vavgs]);
  CHECK(h2[(3 * ne + 6) * OpCount + Vavgs] == 0x40003fffu, "vavgs2(0x7fff7fff, 0x0001ffff) = %08x",
        h2[(3 * ne + 6) * OpCount + Vavgs]);
  CHECK(h4[(1 * ne + 0) * OpCount + Vsadu] == 4 * 255 && h2[(1 * ne + 0) * OpCount + Vsads] == 2,
        "sad(0xffffffff, 0): unsigned bytes 1020, signed halfwords 2");
  delete[] a;
  delete[] b;
  delete[] h2;
  delete[] h4;
  musaFree(da);
  musaFree(db);
  musaFree(d2);
  musaFree(d4);
  return finish("simd_video");
}
