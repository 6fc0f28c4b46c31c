/* mma.h - warp matrix multiply-accumulate (nvcuda::wmma), as CUDA programs include it.
 *
 * Fragments, load_matrix_sync, store_matrix_sync, fill_fragment and mma_sync for the shapes
 * and types of CUDA's wmma API: 16x16x16, 32x8x16 and 8x32x16 with half, bfloat16, signed or
 * unsigned 8-bit inputs; 16x16x8 with tf32 (precision::tf32, inputs rounded to tf32 as the
 * tensor cores read them); 8x8x4 with double. Each lane of the warp holds the whole tile (the
 * GPU spreads it over the lanes; which lane holds which element is unspecified, so programs
 * only touch x[] element-wise, which this layout honours): every lane computes the same
 * result, products summed in fp32 (int32, fp64) in k order. Loads and stores are warp-wide
 * steps, as on the GPU: no lane stores a tile before every lane has loaded (the simulator
 * runs a warp's lanes one after another between synchronisation points, so an accumulator
 * loaded from and stored back to the same memory would otherwise be added once per lane). The GPU's tensor cores sum in an
 * order and with intermediate rounding of their own, so results can differ from it in the
 * last bits of fp32. Sub-byte types (precision::u4, s4, b1) are not provided. */
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
  enum { num_elements = rows * cols };
  storage_element_type x[num_elements]; /* row-major over the fragment's rows and cols */
};

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
  for (int r = 0; r < f.rows; ++r)
    for (int c = 0; c < f.cols; ++c)
      f.x[r * f.cols + c] = __at(p, ldm, r, c, rowMajor);
  __syncwarp();
}
template <int M, int N, int K, class T, class P>
__MUSA_WMMA void load_matrix_sync(fragment<accumulator, M, N, K, T> &f, const P *p, unsigned ldm,
                                  layout_t layout) {
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      f.x[r * N + c] = __at(p, ldm, r, c, layout == mem_row_major);
  __syncwarp();
}
template <int M, int N, int K, class T, class P>
__MUSA_WMMA void store_matrix_sync(P *p, const fragment<accumulator, M, N, K, T> &f, unsigned ldm,
                                   layout_t layout) {
  __syncwarp();
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c)
      __at(p, ldm, r, c, layout == mem_row_major) = f.x[r * N + c];
}

/* d = a * b + c over the whole tile. */
template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
__MUSA_WMMA void mma_sync(fragment<accumulator, M, N, K, TD> &d,
                          const fragment<matrix_a, M, N, K, TA, LA> &a,
                          const fragment<matrix_b, M, N, K, TB, LB> &b,
                          const fragment<accumulator, M, N, K, TC> &c, bool satf = false) {
  typedef typename fragment<accumulator, M, N, K, TD>::storage_element_type Out;
  typedef decltype(__value(c.x[0])) Value;
  /* int32 accumulators sum in 64 bits so that satf can clamp; the others in their type. */
  typedef typename __conditional<__is_same(Value, int), long long, Value>::type Sum;
  constexpr bool tf32 = __is_same(TA, precision::tf32);
  Out out[M * N];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      Sum sum = __value(c.x[i * N + j]);
      for (int k = 0; k < K; ++k) {
        auto av = __value(a.x[i * K + k]);
        auto bv = __value(b.x[k * N + j]);
        if constexpr (tf32) {
          av = __float_to_tf32(av);
          bv = __float_to_tf32(bv);
        }
        sum += (Sum)av * (Sum)bv;
      }
      if constexpr (__is_same(Sum, long long)) {
        if (satf)
          sum = sum < -2147483648LL ? -2147483648LL : sum > 2147483647LL ? 2147483647LL : sum;
        out[i * N + j] = (int)(unsigned int)(unsigned long long)sum;
      } else if constexpr (__is_same(Sum, double)) {
        out[i * N + j] = sum;
      } else {
        if (satf) { /* saturate to finite: NaN gives +0, infinities the largest finite */
          const float big = __is_same(Out, __half) ? 65504.0f : 3.40282347e38f;
          sum = sum != sum ? 0.0f : sum > big ? big : sum < -big ? -big : sum;
        }
        out[i * N + j] = __from<Out>(sum);
      }
    }
  for (int i = 0; i < M * N; ++i)
    d.x[i] = out[i];
}

#undef __MUSA_WMMA
} // namespace wmma
} // namespace nvcuda
#endif /* __CUDA__ && __cplusplus */

#endif /* __MUSA_MMA_H__ */
