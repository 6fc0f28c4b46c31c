/* mma.h - warp matrix multiply-accumulate (nvcuda::wmma), as CUDA programs include it.
 *
 * Fragments, load_matrix_sync, store_matrix_sync, fill_fragment and mma_sync for the shapes
 * and types of CUDA's wmma API: 16x16x16, 32x8x16 and 8x32x16 with half, bfloat16, signed or
 * unsigned 8-bit inputs; 16x16x8 with tf32 (precision::tf32, inputs rounded to tf32 as the
 * tensor cores read them); 8x8x4 with double. As on the GPU a fragment is spread over the 32
 * lanes of the warp: element e of the tile is slot e / 32 of lane e % 32, e counting along the
 * tile's rows (along its columns for a col_major matrix_a or matrix_b, the direction its
 * memory is contiguous in, so that a warp's loads coalesce), and num_elements is the tile's
 * size over 32 (8 for a 16x16 accumulator, as CUDA's). Which lane holds which element is
 * unspecified in CUDA, so programs only touch x[] element-wise, which this layout honours.
 * mma_sync is a warp collective (__MUSA_SIM_WARP_MMA): once every lane has arrived, the
 * simulator multiplies the tile the lanes hold, products summed in fp32 (int32, fp64) in k
 * order; on 128-lane warps each 32-lane quarter multiplies its own. Loads and stores are
 * warp-wide steps: every lane has loaded before any lane goes on (an accumulator loaded from
 * and stored back to the same memory, a tile stored and loaded back in another layout). The
 * GPU's tensor cores sum in an order and with intermediate rounding of their own, so results
 * can differ from it in the last bits of fp32. Sub-byte types (precision::u4, s4, b1) are not
 * provided. */
#ifndef __MUSA_MMA_H__
#define __MUSA_MMA_H__

#if defined(__CUDA__) && defined(__cplusplus)
#include "musa_bf16.h"
#include "musa_fp16.h"

namespace nvcuda {
namespace wmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};
} // namespace precision

#define __MUSA_WMMA __device__ __forceinline__

/* The tf32 value of a float (round to nearest, 10 mantissa bits kept), as __float_to_tf32. */
__MUSA_WMMA float __float_to_tf32(float x) {
  unsigned int u = __builtin_bit_cast(unsigned int, x);
  if ((u & 0x7f800000u) != 0x7f800000u)
    u = (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu;
  return __builtin_bit_cast(float, u);
}

template <class T> struct __storage { typedef T type; };
template <> struct __storage<precision::tf32> { typedef float type; };

/* Values as the multiply-add reads them. */
__MUSA_WMMA float __value(__half v) { return (float)v; }
__MUSA_WMMA float __value(__mt_bfloat16 v) { return __musa_bf16_to_float(v); }
__MUSA_WMMA float __value(float v) { return v; }
__MUSA_WMMA double __value(double v) { return v; }
__MUSA_WMMA int __value(signed char v) { return v; }
__MUSA_WMMA int __value(unsigned char v) { return v; }
__MUSA_WMMA int __value(int v) { return v; }
template <class S> __MUSA_WMMA S __from(float v);
template <> __MUSA_WMMA float __from<float>(float v) { return v; }
template <> __MUSA_WMMA __half __from<__half>(float v) { return __half(v); }
template <> __MUSA_WMMA __mt_bfloat16 __from<__mt_bfloat16>(float v) {
  return __musa_bf16_from_float(v);
}

template <bool B, class T, class F> struct __conditional { typedef T type; };
template <class T, class F> struct __conditional<false, T, F> { typedef F type; };

template <class Use, int M, int N, int K> struct __shape;
template <int M, int N, int K> struct __shape<matrix_a, M, N, K> {
  enum { rows = M, cols = K };
};
template <int M, int N, int K> struct __shape<matrix_b, M, N, K> {
  enum { rows = K, cols = N };
};
template <int M, int N, int K> struct __shape<accumulator, M, N, K> {
  enum { rows = M, cols = N };
};

template <class Use, int M, int N, int K, class T, class Layout = void> class fragment {
public:
  typedef typename __storage<T>::type storage_element_type;
  typedef storage_element_type element_type;
  enum { rows = __shape<Use, M, N, K>::rows, cols = __shape<Use, M, N, K>::cols };
  enum { num_elements = rows * cols / 32 };
  /* Tile element e is x[e / 32] of lane e % 32 (see the top of this file). */
  storage_element_type x[num_elements];
};

/* Row and column of slot s of the calling lane's fragment: e = 32 s + lane counts along
   rows (along columns where colMajor). */
template <int Rows, int Cols>
__device__ __forceinline__ void __element(int s, bool colMajor, int &r, int &c) {
  int e = s * 32 + (int)__musa_lane();
  r = colMajor ? e % Rows : e / Cols;
  c = colMajor ? e / Rows : e % Cols;
}

template <class Use, int M, int N, int K, class T, class L, class V>
__MUSA_WMMA void fill_fragment(fragment<Use, M, N, K, T, L> &f, const V &value) {
  for (int i = 0; i < f.num_elements; ++i)
    f.x[i] = value;
}

/* Element (r, c) of a matrix at p with leading dimension ldm, stored row- or column-major. */
template <class P> __MUSA_WMMA P &__at(P *p, unsigned ldm, int r, int c, bool rowMajor) {
  return rowMajor ? p[(unsigned long long)r * ldm + c] : p[(unsigned long long)c * ldm + r];
}

template <class Use, int M, int N, int K, class T, class L, class P>
__MUSA_WMMA void load_matrix_sync(fragment<Use, M, N, K, T, L> &f, const P *p, unsigned ldm) {
  const bool rowMajor = __is_same(L, row_major);
  for (int s = 0; s < f.num_elements; ++s) {
    int r, c;
    __element<fragment<Use, M, N, K, T, L>::rows, fragment<Use, M, N, K, T, L>::cols>(
        s, !rowMajor, r, c);
    f.x[s] = __at(p, ldm, r, c, rowMajor);
  }
  __musa_sim_warp(__MUSA_SIM_WARP_SYNC, 0xffffffffu, 0, __MUSA_SIM_WARP_SYNC_MMA_STEP, 0);
}
template <int M, int N, int K, class T, class P>
__MUSA_WMMA void load_matrix_sync(fragment<accumulator, M, N, K, T> &f, const P *p, unsigned ldm,
                                  layout_t layout) {
  for (int s = 0; s < f.num_elements; ++s) {
    int r, c;
    __element<M, N>(s, false, r, c);
    f.x[s] = __at(p, ldm, r, c, layout == mem_row_major);
  }
  __musa_sim_warp(__MUSA_SIM_WARP_SYNC, 0xffffffffu, 0, __MUSA_SIM_WARP_SYNC_MMA_STEP, 0);
}
template <int M, int N, int K, class T, class P>
__MUSA_WMMA void store_matrix_sync(P *p, const fragment<accumulator, M, N, K, T> &f, unsigned ldm,
                                   layout_t layout) {
  for (int s = 0; s < f.num_elements; ++s) {
    int r, c;
    __element<M, N>(s, false, r, c);
    __at(p, ldm, r, c, layout == mem_row_major) = f.x[s];
  }
  __musa_sim_warp(__MUSA_SIM_WARP_SYNC, 0xffffffffu, 0, __MUSA_SIM_WARP_SYNC_MMA_STEP, 0);
}

/* The __musa_sim_mma_type of an input or accumulator element type. */
template <class T> struct __mma_type;
template <> struct __mma_type<__half> { enum { value = __MUSA_SIM_MMA_F16 }; };
template <> struct __mma_type<__mt_bfloat16> { enum { value = __MUSA_SIM_MMA_BF16 }; };
template <> struct __mma_type<precision::tf32> { enum { value = __MUSA_SIM_MMA_TF32 }; };
template <> struct __mma_type<signed char> { enum { value = __MUSA_SIM_MMA_S8 }; };
template <> struct __mma_type<unsigned char> { enum { value = __MUSA_SIM_MMA_U8 }; };
template <> struct __mma_type<float> { enum { value = __MUSA_SIM_MMA_F32 }; };
template <> struct __mma_type<int> { enum { value = __MUSA_SIM_MMA_S32 }; };
template <> struct __mma_type<double> { enum { value = __MUSA_SIM_MMA_F64 }; };
template <int M, int N, int K> struct __mma_shape;
template <> struct __mma_shape<16, 16, 16> { enum { value = __MUSA_SIM_MMA_16x16x16 }; };
template <> struct __mma_shape<32, 8, 16> { enum { value = __MUSA_SIM_MMA_32x8x16 }; };
template <> struct __mma_shape<8, 32, 16> { enum { value = __MUSA_SIM_MMA_8x32x16 }; };
template <> struct __mma_shape<16, 16, 8> { enum { value = __MUSA_SIM_MMA_16x16x8 }; };
template <> struct __mma_shape<8, 8, 4> { enum { value = __MUSA_SIM_MMA_8x8x4 }; };

/* d = a * b + c over the warp's tile (the code: musa_sim_collective_ops.h). */
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
__MUSA_WMMA void mma_sync(fragment<accumulator, M, N, K, TD> &d,
                          const fragment<matrix_a, M, N, K, TA, LA> &a,
                          const fragment<matrix_b, M, N, K, TB, LB> &b,
                          const fragment<accumulator, M, N, K, TC> &c, bool satf = false) {
  constexpr int shape = __mma_shape<M, N, K>::value, ab = __mma_type<TA>::value;
  constexpr int ct = __mma_type<TC>::value, dt = __mma_type<TD>::value;
  const int code = shape | ab << 4 | ct << 8 | dt << 12 | (satf ? 1 << 16 : 0) |
                   (__is_same(LA, col_major) ? 1 << 17 : 0) |
                   (__is_same(LB, col_major) ? 1 << 18 : 0);
#if !defined(__MUSA_SIM_HW__)
  __musa_sim_mma_operands ops = {a.x, b.x, c.x, d.x};
  __musa_sim_warp(__MUSA_SIM_WARP_MMA | __MUSA_SIM_WARP_QUARTER_LOCAL, 0xffffffffu,
                  (unsigned long long)&ops, code, 0);
#else
  /* The hardware pass: every lane gathers both input tiles through shuffles, then computes
     its own elements (slow, for validation runs). */
  (void)code;
  typedef decltype(__value(c.x[0])) Value;
  typedef typename __conditional<__is_same(Value, int), long long, Value>::type Sum;
  typedef typename fragment<accumulator, M, N, K, TD>::storage_element_type Out;
  constexpr bool tf32 = __is_same(TA, precision::tf32);
  decltype(__value(a.x[0])) A[M * K], B[K * N];
  for (int s = 0; s < a.num_elements; ++s)
    for (int q = 0; q < 32; ++q) {
      int e = s * 32 + q;
      bool cm = __is_same(LA, col_major);
      A[cm ? (e % M) * K + e / M : e] = __shfl_sync(0xffffffffu, __value(a.x[s]), q);
    }
  for (int s = 0; s < b.num_elements; ++s)
    for (int q = 0; q < 32; ++q) {
      int e = s * 32 + q;
      bool cm = __is_same(LB, col_major);
      B[cm ? (e % K) * N + e / K : e] = __shfl_sync(0xffffffffu, __value(b.x[s]), q);
    }
  for (int s = 0; s < d.num_elements; ++s) {
    int i, j;
    __element<M, N>(s, false, i, j);
    Sum sum = __value(c.x[s]);
    for (int k = 0; k < K; ++k) {
      auto av = A[i * K + k], bv = B[k * N + j];
      if constexpr (tf32) {
        av = __float_to_tf32(av);
        bv = __float_to_tf32(bv);
      }
      sum += (Sum)av * (Sum)bv;
    }
    if constexpr (__is_same(Sum, long long)) {
      if (satf)
        sum = sum < -2147483648LL ? -2147483648LL : sum > 2147483647LL ? 2147483647LL : sum;
      d.x[s] = (int)(unsigned int)(unsigned long long)sum;
    } else if constexpr (__is_same(Sum, double)) {
      d.x[s] = sum;
    } else {
      if (satf) {
        const float big = __is_same(Out, __half) ? 65504.0f : 3.40282347e38f;
        sum = sum != sum ? 0.0f : sum > big ? big : sum < -big ? -big : sum;
      }
      d.x[s] = __from<Out>(sum);
    }
  }
#endif
}

#undef __MUSA_WMMA
} // namespace wmma
} // namespace nvcuda
#endif /* __CUDA__ && __cplusplus */

#endif /* __MUSA_MMA_H__ */
