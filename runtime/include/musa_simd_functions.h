/* musa_simd_functions.h - the SIMD video intrinsics: an unsigned int as two 16-bit halfwords
 * (the ...2 forms) or four 8-bit bytes (the ...4 forms), each part computed on its own.
 *
 * CUDA's semantics, part by part: plain arithmetic (__vadd, __vsub, __vneg, __vabs) wraps
 * around; the ss/us forms saturate to the signed/unsigned range of a part; the rounded
 * averages __vavgs/__vavgu round a half away from zero ((a + b + 1) >> 1, for a negative signed
 * sum (a + b) >> 1), __vhaddu truncates ((a + b) >> 1); __vabsdiff gives |a - b| as an
 * unsigned part; __vcmp sets every bit of a part where the comparison holds, __vset sets the
 * part to 1; __vsad returns the sum over the parts of |a - b|. Suffix s compares or computes
 * signed parts, u unsigned ones. Included by musa_device_functions.h (MUSA sources only). */
#ifndef __MUSA_SIMD_FUNCTIONS_H__
#define __MUSA_SIMD_FUNCTIONS_H__
#if defined(__CUDA__)

#define __MUSA_SIMD_DEV static __device__ __forceinline__

/* Applies op(signed a, signed b, unsigned a, unsigned b) to each of the Parts parts of a and b
 * and packs the results, each cut to its part's width. */
template <int Parts, class Op>
__MUSA_SIMD_DEV unsigned int __musa_simd(unsigned int a, unsigned int b, Op op) {
  constexpr int bits = 32 / Parts;
  constexpr unsigned int mask = (1u << bits) - 1u;
  unsigned int result = 0;
  for (int i = 0; i < Parts; ++i) {
    int shift = i * bits;
    unsigned int ua = (a >> shift) & mask, ub = (b >> shift) & mask;
    int sa = (int)(ua << (32 - bits)) >> (32 - bits), sb = (int)(ub << (32 - bits)) >> (32 - bits);
    result |= ((unsigned int)op(sa, sb, ua, ub) & mask) << shift;
  }
  return result;
}
/* The sum over the parts of op(...) (no cut to a part's width). */
template <int Parts, class Op>
__MUSA_SIMD_DEV unsigned int __musa_simd_sum(unsigned int a, unsigned int b, Op op) {
  constexpr int bits = 32 / Parts;
  constexpr unsigned int mask = (1u << bits) - 1u;
  unsigned int sum = 0;
  for (int i = 0; i < Parts; ++i) {
    int shift = i * bits;
    unsigned int ua = (a >> shift) & mask, ub = (b >> shift) & mask;
    int sa = (int)(ua << (32 - bits)) >> (32 - bits), sb = (int)(ub << (32 - bits)) >> (32 - bits);
    sum += (unsigned int)op(sa, sb, ua, ub);
  }
  return sum;
}
template <int Parts> __MUSA_SIMD_DEV int __musa_simd_clamp_signed(int v) {
  constexpr int hi = (1 << (32 / Parts - 1)) - 1, lo = -hi - 1;
  return v < lo ? lo : v > hi ? hi : v;
}
template <int Parts> __MUSA_SIMD_DEV int __musa_simd_clamp_unsigned(int v) {
  constexpr int hi = (int)((1u << (32 / Parts)) - 1u);
  return v < 0 ? 0 : v > hi ? hi : v;
}

/* Each intrinsic in its halfword (2) and byte (4) form. */
#define __MUSA_SIMD_BINARY(name, expr)                                                       \
  __MUSA_SIMD_DEV unsigned int name##2(unsigned int a, unsigned int b) {                     \
    return __musa_simd<2>(a, b, [](int sa, int sb, unsigned ua, unsigned ub) {               \
      constexpr int Parts = 2;                                                               \
      (void)sa, (void)sb, (void)ua, (void)ub;                                                \
      return expr;                                                                           \
    });                                                                                      \
  }                                                                                          \
  __MUSA_SIMD_DEV unsigned int name##4(unsigned int a, unsigned int b) {                     \
    return __musa_simd<4>(a, b, [](int sa, int sb, unsigned ua, unsigned ub) {               \
      constexpr int Parts = 4;                                                               \
      (void)sa, (void)sb, (void)ua, (void)ub;                                                \
      return expr;                                                                           \
    });                                                                                      \
  }
#define __MUSA_SIMD_UNARY(name, expr)                                                        \
  __MUSA_SIMD_DEV unsigned int name##2(unsigned int a) {                                     \
    return __musa_simd<2>(a, 0u, [](int sa, int, unsigned ua, unsigned) {                    \
      constexpr int Parts = 2;                                                               \
      (void)sa, (void)ua;                                                                    \
      return expr;                                                                           \
    });                                                                                      \
  }                                                                                          \
  __MUSA_SIMD_DEV unsigned int name##4(unsigned int a) {                                     \
    return __musa_simd<4>(a, 0u, [](int sa, int, unsigned ua, unsigned) {                    \
      constexpr int Parts = 4;                                                               \
      (void)sa, (void)ua;                                                                    \
      return expr;                                                                           \
    });                                                                                      \
  }
#define __MUSA_SIMD_COMPARE(suffix, cmp)                                                     \
  __MUSA_SIMD_BINARY(__vcmp##suffix, (cmp) ? -1 : 0)                                         \
  __MUSA_SIMD_BINARY(__vset##suffix, (cmp) ? 1 : 0)

__MUSA_SIMD_UNARY(__vabs, sa < 0 ? -sa : sa)
__MUSA_SIMD_UNARY(__vabsss, __musa_simd_clamp_signed<Parts>(sa < 0 ? -sa : sa))
__MUSA_SIMD_UNARY(__vneg, -sa)
__MUSA_SIMD_UNARY(__vnegss, __musa_simd_clamp_signed<Parts>(-sa))

__MUSA_SIMD_BINARY(__vadd, sa + sb)
__MUSA_SIMD_BINARY(__vaddss, __musa_simd_clamp_signed<Parts>(sa + sb))
__MUSA_SIMD_BINARY(__vaddus, __musa_simd_clamp_unsigned<Parts>((int)(ua + ub)))
__MUSA_SIMD_BINARY(__vsub, sa - sb)
__MUSA_SIMD_BINARY(__vsubss, __musa_simd_clamp_signed<Parts>(sa - sb))
__MUSA_SIMD_BINARY(__vsubus, __musa_simd_clamp_unsigned<Parts>((int)ua - (int)ub))
__MUSA_SIMD_BINARY(__vabsdiffs, sa > sb ? sa - sb : sb - sa)
__MUSA_SIMD_BINARY(__vabsdiffu, ua > ub ? ua - ub : ub - ua)
__MUSA_SIMD_BINARY(__vavgs, (sa + sb) < 0 ? (sa + sb) >> 1 : (sa + sb + 1) >> 1)
__MUSA_SIMD_BINARY(__vavgu, (ua + ub + 1u) >> 1)
__MUSA_SIMD_BINARY(__vhaddu, (ua + ub) >> 1)
__MUSA_SIMD_BINARY(__vmaxs, sa > sb ? sa : sb)
__MUSA_SIMD_BINARY(__vmaxu, ua > ub ? ua : ub)
__MUSA_SIMD_BINARY(__vmins, sa < sb ? sa : sb)
__MUSA_SIMD_BINARY(__vminu, ua < ub ? ua : ub)

__MUSA_SIMD_COMPARE(eq, ua == ub)
__MUSA_SIMD_COMPARE(ne, ua != ub)
__MUSA_SIMD_COMPARE(ges, sa >= sb)
__MUSA_SIMD_COMPARE(geu, ua >= ub)
__MUSA_SIMD_COMPARE(gts, sa > sb)
__MUSA_SIMD_COMPARE(gtu, ua > ub)
__MUSA_SIMD_COMPARE(les, sa <= sb)
__MUSA_SIMD_COMPARE(leu, ua <= ub)
__MUSA_SIMD_COMPARE(lts, sa < sb)
__MUSA_SIMD_COMPARE(ltu, ua < ub)

__MUSA_SIMD_DEV unsigned int __vsads2(unsigned int a, unsigned int b) {
  return __musa_simd_sum<2>(a, b, [](int sa, int sb, unsigned, unsigned) {
    return sa > sb ? sa - sb : sb - sa;
  });
}
__MUSA_SIMD_DEV unsigned int __vsads4(unsigned int a, unsigned int b) {
  return __musa_simd_sum<4>(a, b, [](int sa, int sb, unsigned, unsigned) {
    return sa > sb ? sa - sb : sb - sa;
  });
}
__MUSA_SIMD_DEV unsigned int __vsadu2(unsigned int a, unsigned int b) {
  return __musa_simd_sum<2>(a, b, [](int, int, unsigned ua, unsigned ub) {
    return ua > ub ? ua - ub : ub - ua;
  });
}
__MUSA_SIMD_DEV unsigned int __vsadu4(unsigned int a, unsigned int b) {
  return __musa_simd_sum<4>(a, b, [](int, int, unsigned ua, unsigned ub) {
    return ua > ub ? ua - ub : ub - ua;
  });
}

#undef __MUSA_SIMD_COMPARE
#undef __MUSA_SIMD_UNARY
#undef __MUSA_SIMD_BINARY
#undef __MUSA_SIMD_DEV
#endif /* __CUDA__ */
#endif /* __MUSA_SIMD_FUNCTIONS_H__ */
