/* musa_integer_functions.h - integer and bit intrinsics for MUSA sources (__popc, __clz,
 * __ffs, __brev, __byte_perm, __mulhi, __sad, ...), and min, max and abs over the integer and
 * floating types. Included by musa_device_functions.h, which defines __MUSA_DEV (MUSA sources
 * only). */
#ifndef __MUSA_INTEGER_FUNCTIONS_H__
#define __MUSA_INTEGER_FUNCTIONS_H__

/* ---- integer and bit intrinsics -------------------------------------------------------- */
__MUSA_DEV int __popc(unsigned int x) { return __builtin_popcount(x); }
__MUSA_DEV int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__MUSA_DEV int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
__MUSA_DEV int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
/* The lowest set bit's position from 1, 0 for none (the H200 gives __ffs(0) == 0). */
__MUSA_DEV int __ffs(int x) { return 32 - __clz((int)((unsigned)x & (0u - (unsigned)x))); }
__MUSA_DEV int __ffsll(long long x) {
  unsigned long long u = (unsigned long long)x;
  return 64 - __clzll((long long)(u & (0ull - u)));
}
__MUSA_DEV unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
__MUSA_DEV unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }
__MUSA_DEV unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long bytes = ((unsigned long long)y << 32) | x, r = 0;
  for (int i = 0; i < 4; ++i)
    r |= ((bytes >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return (unsigned int)r;
}
__MUSA_DEV int __mul24(int x, int y) { return ((x << 8) >> 8) * ((y << 8) >> 8); }
__MUSA_DEV unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffff) * (y & 0xffffff); }
__MUSA_DEV int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
__MUSA_DEV unsigned int __umulhi(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x * y) >> 32); }
__MUSA_DEV long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
__MUSA_DEV unsigned long long __umul64hi(unsigned long long x, unsigned long long y) { return (unsigned long long)(((unsigned __int128)x * y) >> 64); }
__MUSA_DEV unsigned int __sad(int x, int y, unsigned int z) { return z + (x > y ? (unsigned)(x - y) : (unsigned)(y - x)); }
__MUSA_DEV unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }
__MUSA_DEV int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
__MUSA_DEV int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
__MUSA_DEV unsigned int __uhadd(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x + y) >> 1); }
__MUSA_DEV unsigned int __urhadd(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x + y + 1) >> 1); }
__MUSA_DEV unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int s) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)((v << (s & 31)) >> 32);
}
__MUSA_DEV unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int s) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)((v << (s > 32 ? 32 : s)) >> 32);
}
__MUSA_DEV unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int s) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)(v >> (s & 31));
}
__MUSA_DEV unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int s) {
  unsigned long long v = ((unsigned long long)hi << 32) | lo;
  return (unsigned int)(v >> (s > 32 ? 32 : s));
}
/* __fns: the position of the |offset|-th set bit of `mask` counting from bit `base` upward
   (offset > 0) or downward (offset < 0); offset 0 asks whether bit `base` itself is set.
   0xffffffff when there is none (PTX fns.b32). */
__MUSA_DEV unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  if (base > 31)
    return 0xffffffffu;
  if (offset == 0)
    return (mask >> base) & 1u ? base : 0xffffffffu;
  int step = offset > 0 ? 1 : -1, left = offset > 0 ? offset : -offset;
  for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
    if (((mask >> pos) & 1u) && --left == 0)
      return (unsigned int)pos;
  return 0xffffffffu;
}
/* Four-way byte and two-way half-word dot products with a 32-bit accumulate (dp4a, dp2a). */
/* dp4a: written as the sum of a product of two widened byte vectors, which the timing model
 * counts as the one IDP4A a GPU runs (InstrumentTiming.cpp, isDotProductSum). */
typedef signed char __musa_s8x4 __attribute__((ext_vector_type(4)));
typedef unsigned char __musa_u8x4 __attribute__((ext_vector_type(4)));
typedef int __musa_s32x4 __attribute__((ext_vector_type(4)));
typedef unsigned int __musa_u32x4 __attribute__((ext_vector_type(4)));
__MUSA_DEV int __dp4a(int a, int b, int c) {
  return c + __builtin_reduce_add(
                 __builtin_convertvector(__builtin_bit_cast(__musa_s8x4, a), __musa_s32x4) *
                 __builtin_convertvector(__builtin_bit_cast(__musa_s8x4, b), __musa_s32x4));
}
__MUSA_DEV unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  return c + __builtin_reduce_add(
                 __builtin_convertvector(__builtin_bit_cast(__musa_u8x4, a), __musa_u32x4) *
                 __builtin_convertvector(__builtin_bit_cast(__musa_u8x4, b), __musa_u32x4));
}
__MUSA_DEV int __dp4a(char4 a, char4 b, int c) {
  return __dp4a(__builtin_bit_cast(int, a), __builtin_bit_cast(int, b), c);
}
__MUSA_DEV unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return __dp4a(__builtin_bit_cast(unsigned int, a), __builtin_bit_cast(unsigned int, b), c);
}
/* dp2a: a's two 16-bit halves times two bytes of b, the low (bytes 0-1) or high (2-3) pair. */
#define __MUSA_DP2A(name, T, H, B, shift)                                                         \
  __MUSA_DEV T name(T a, T b, T c) {                                                              \
    return c + (T)((int)(H)(a) * (int)(B)(b >> (shift))) +                                       \
           (T)((int)(H)(a >> 16) * (int)(B)(b >> ((shift) + 8)));                                 \
  }
__MUSA_DP2A(__dp2a_lo, int, short, signed char, 0)
__MUSA_DP2A(__dp2a_hi, int, short, signed char, 16)
__MUSA_DP2A(__dp2a_lo, unsigned int, unsigned short, unsigned char, 0)
__MUSA_DP2A(__dp2a_hi, unsigned int, unsigned short, unsigned char, 16)
#undef __MUSA_DP2A
__MUSA_DEV int __dp2a_lo(short2 a, char4 b, int c) { return c + a.x * b.x + a.y * b.y; }
__MUSA_DEV int __dp2a_hi(short2 a, char4 b, int c) { return c + a.x * b.z + a.y * b.w; }
__MUSA_DEV unsigned int __dp2a_lo(ushort2 a, uchar4 b, unsigned int c) { return c + a.x * b.x + a.y * b.y; }
__MUSA_DEV unsigned int __dp2a_hi(ushort2 a, uchar4 b, unsigned int c) { return c + a.x * b.z + a.y * b.w; }
/* Which memory a generic pointer points into, and conversions to and from the shared window. */
__MUSA_DEV unsigned int __isGlobal(const void *p) { return __nvvm_isspacep_global(p); }
__MUSA_DEV unsigned int __isShared(const void *p) { return __nvvm_isspacep_shared(p); }
__MUSA_DEV unsigned int __isConstant(const void *p) { return __nvvm_isspacep_const(p); }
__MUSA_DEV unsigned int __isLocal(const void *p) { return __nvvm_isspacep_local(p); }
/* A profiler trigger: counted by a hardware profiler, nothing to do here. */
__MUSA_DEV void __prof_trigger(int) {}
__MUSA_DEV unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
__MUSA_DEV long long llmin(long long a, long long b) { return a < b ? a : b; }
__MUSA_DEV unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
__MUSA_DEV unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
__MUSA_DEV long long llmax(long long a, long long b) { return a > b ? a : b; }
__MUSA_DEV unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

/* min/max on both sides, with CUDA's overload set: each integer width signed, unsigned and
 * mixed (a mixed pair compares as the unsigned type, as C's usual conversions do), float and
 * double with fmin/fmax semantics (a NaN operand yields the other one), float mixed with double
 * as double. Non-template functions, so they win over std::min/std::max on an exact match after
 * `using namespace std;`, and std::min itself is untouched. */
#define __MUSA_HD static __host__ __device__ __forceinline__
#define __MUSA_MINMAX_INT(R, A, B)                                                           \
  __MUSA_HD R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                           \
  __MUSA_HD R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
#define __MUSA_MINMAX_WIDTH(S, U)                                                            \
  __MUSA_MINMAX_INT(S, S, S)                                                                 \
  __MUSA_MINMAX_INT(U, U, U)                                                                 \
  __MUSA_MINMAX_INT(U, S, U)                                                                 \
  __MUSA_MINMAX_INT(U, U, S)
__MUSA_MINMAX_WIDTH(int, unsigned int)
__MUSA_MINMAX_WIDTH(long, unsigned long)
__MUSA_MINMAX_WIDTH(long long, unsigned long long)
#undef __MUSA_MINMAX_WIDTH
#undef __MUSA_MINMAX_INT
__MUSA_HD float min(float a, float b) { return __builtin_fminf(a, b); }
__MUSA_HD float max(float a, float b) { return __builtin_fmaxf(a, b); }
__MUSA_HD double min(double a, double b) { return __builtin_fmin(a, b); }
__MUSA_HD double max(double a, double b) { return __builtin_fmax(a, b); }
__MUSA_HD double min(float a, double b) { return __builtin_fmin(a, b); }
__MUSA_HD double max(float a, double b) { return __builtin_fmax(a, b); }
__MUSA_HD double min(double a, float b) { return __builtin_fmin(a, b); }
__MUSA_HD double max(double a, float b) { return __builtin_fmax(a, b); }
#undef __MUSA_HD
/* Wrapping, as the GPU's: abs(INT_MIN) is INT_MIN (the H200 gives it; -x would be undefined
 * and the optimiser may widen it to 2147483648). */
__MUSA_DEV int abs(int x) { return x < 0 ? (int)(0u - (unsigned)x) : x; }
__MUSA_DEV long abs(long x) { return x < 0 ? (long)(0ul - (unsigned long)x) : x; }
__MUSA_DEV long long abs(long long x) {
  return x < 0 ? (long long)(0ull - (unsigned long long)x) : x;
}
__MUSA_DEV long labs(long x) { return abs(x); }
__MUSA_DEV long long llabs(long long x) { return abs(x); }
/* std::abs(int) and friends: <cstdlib> brought only the host's C functions into std (the
 * int form then tied between libstdc++'s long, long long, float and double overloads, and
 * libstdc++'s integer forms are host functions). */
namespace std {
using ::abs;
using ::labs;
using ::llabs;
} // namespace std

#endif /* __MUSA_INTEGER_FUNCTIONS_H__ */
