/* musa_bf16.h - bfloat16 (__mt_bfloat16, __mt_bfloat162; the CUDA spellings __nv_bfloat16 and
 * __nv_bfloat162 are aliases) with the same operations as __half. Conversion from float rounds
 * to nearest-even on the bit pattern; NaNs stay NaNs. */
#ifndef __MUSA_BF16_H__
#define __MUSA_BF16_H__

#include "musa_fp16.h"

struct __mt_bfloat16 {
  unsigned short __x;
};
struct __align__(4) __mt_bfloat162 {
  struct __mt_bfloat16 x, y;
};
typedef struct __mt_bfloat16 __nv_bfloat16;
typedef struct __mt_bfloat162 __nv_bfloat162;
typedef struct __mt_bfloat16 mt_bfloat16;

__MUSA_HD float __musa_bf16_to_float(struct __mt_bfloat16 b) {
  return __builtin_bit_cast(float, (unsigned int)b.__x << 16);
}
__MUSA_HD struct __mt_bfloat16 __musa_bf16_from_float(float f) {
  unsigned int bits = __builtin_bit_cast(unsigned int, f);
  struct __mt_bfloat16 r;
  if ((bits & 0x7fffffffu) > 0x7f800000u)
    r.__x = (unsigned short)((bits >> 16) | 0x40); /* quiet NaN */
  else
    r.__x = (unsigned short)((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
  return r;
}
#define __MUSA_BF16_TO_FLOAT(b) __musa_bf16_to_float(b)
#define __MUSA_BF16_FROM_FLOAT(f) __musa_bf16_from_float(f)
/* The shared operations (second instance: the half-specific pairs such as __low2float are
 * overloads on the bfloat16 types). */
__MUSA_LOW_PRECISION(__mt_bfloat16, __mt_bfloat162, bfloat16, __MUSA_BF16_TO_FLOAT,
                     __MUSA_BF16_FROM_FLOAT)
#ifdef __cplusplus
__MUSA_LOW_PRECISION_OPERATORS(__mt_bfloat16, __mt_bfloat162)
#endif
__MUSA_HD short __bfloat16_as_short(struct __mt_bfloat16 h) { return (short)h.__x; }
__MUSA_HD unsigned short __bfloat16_as_ushort(struct __mt_bfloat16 h) { return h.__x; }

#endif /* __MUSA_BF16_H__ */
