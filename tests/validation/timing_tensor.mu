// Timing-validation suite "tensor": kernels that use the warp matrix API (<mma.h>,
// nvcuda::wmma), written on 2026-12-07 by a helper that did not read the timing model (its
// source, notes, accuracy records or predictions), so that the first measurement of them is out
// of sample. Written the way the CUDA samples (cudaTensorCoreGemm's simple_wmma_gemm and
// compute_gemm, bf16TensorCoreGemm, tf32TensorCoreGemm, immaTensorCoreGemm, dmmaTensorCoreGemm)
// and tensor-core tutorials write them:
//   - naive GEMMs, one warp a 16x16 tile of the output straight from global memory: half
//     inputs with fp32 accumulators and D = alpha A B + beta C (B column- or row-major, three
//     sizes), half accumulators, bfloat16, tf32 (16x16x8, inputs converted with
//     __float_to_tf32), int8 (int32 accumulators), double (8x8x4), and the 32x8x16 shape;
//   - shared-memory tiled GEMMs: a block stages K-slices of A and B in padded shared memory
//     (int4 copies) and each warp keeps 2x4 (128x128 block tile, 8 warps) or 2x2 (64x64, 4
//     warps) accumulator fragments;
//   - tensor-core throughput (2x2 independent accumulators a warp, 16 blocks of 8 warps) and
//     latency (one dependent accumulator chain a warp, one warp on each of 132 SMs);
//   - a batched 64x64x64 GEMM (a block a matrix), a linear layer with the bias and ReLU applied
//     element-wise over the accumulator fragments, a 3x3 convolution as an implicit GEMM over
//     padded NHWC tensors, and a transpose that only loads and stores accumulator fragments.
// The simulator runs every lane's fragment arithmetic on the CPU, so the sizes are kept small
// (about 1.3 million 16x16x16-equivalent mma_sync calls for a run with R = 1, warm-ups
// included); most configs should take a few to a few tens of microseconds on an H100. Built and
// run like timing_novel.mu (see README.md); the CUDA build also needs cuda/musa_bf16.h.
//
// Usage: timing_tensor [R]   R timed repeats per config (default 1), after one warm-up.
// Output: RESULT <kernel> <config> <median_ms>; FAIL lines when a warm-up result is wrong.
#include <musa_runtime.h>
#include <musa_bf16.h>
#include <musa_fp16.h>
#include <mma.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "suite_harness.h"

using namespace nvcuda;

// ---- test data -------------------------------------------------------------------------------
// Multiples of 1/8 in [-0.5, 0.5]: exact in half and bfloat16, and every product and partial sum
// the GEMMs below form is exact in fp32, so the fp32-accumulated results are exact on both sides.
static __host__ __device__ float tt_val(unsigned i, unsigned seed) {
  return float(int(hash_u32(i * 0x9e3779b9u + seed) % 9u) - 4) * 0.125f;
}
// Values with all their mantissa bits used, in [-1, 1] (for tf32 and double).
static __host__ __device__ float tt_valf(unsigned i, unsigned seed) {
  return float(int(hash_u32(i * 0x9e3779b9u + seed) % 20001u) - 10000) * 1e-4f;
}
static __host__ __device__ double tt_vald(unsigned i, unsigned seed) {
  return double(int(hash_u32(i * 0x9e3779b9u + seed) % 20001u) - 10000) * 1e-4 +
         double(hash_u32(i ^ seed) % 1000u) * 1e-9;
}
static __host__ __device__ signed char tt_vals8(unsigned i, unsigned seed) {
  return (signed char)(int(hash_u32(i * 0x9e3779b9u + seed) % 255u) - 127);
}

template <class T> __device__ T tt_conv(float v);
template <> __device__ __half tt_conv<__half>(float v) { return __float2half(v); }
template <> __device__ __nv_bfloat16 tt_conv<__nv_bfloat16>(float v) { return __float2bfloat16(v); }
template <> __device__ float tt_conv<float>(float v) { return v; }

template <class T> __global__ void tt_fill_grid(T *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = tt_conv<T>(tt_val(unsigned(i), seed));
}
__global__ void tt_fill_f32(float *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = tt_valf(unsigned(i), seed);
}
__global__ void tt_fill_f64(double *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = tt_vald(unsigned(i), seed);
}
__global__ void tt_fill_s8(signed char *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = tt_vals8(unsigned(i), seed);
}

template <class T> static void fill_grid(T *p, size_t n, unsigned seed) {
  tt_fill_grid<T><<<264, 256>>>(p, n, seed);
  CHECK(musaGetLastError());
}
static std::vector<float> host_grid(size_t n, unsigned seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = tt_val(unsigned(i), seed);
  return v;
}

// Rows of a check: every step-th row, so that a host reference costs at most ~2^25 multiply-adds.
static int row_step(long m, long n, long k) { return int(std::max(1L, m * n * k >> 25)); }

// Compares got (m x n, row-major) with alpha * A B + beta * C, A m x k row-major, B given as Bt
// (n x k: column j of B contiguous), C m x n row-major or absent; the error allowed is tol times
// the sum of the magnitudes of the terms (at least 1).
static void check_gemm(const char *kernel, const char *cfg, const std::vector<float> &got,
                       const std::vector<float> &A, const std::vector<float> &Bt, int m, int n,
                       int k, double tol, float alpha = 1.f, float beta = 0.f,
                       const std::vector<float> *C = nullptr) {
  for (int i = 0; i < m; i += row_step(m, n, k))
    for (int j = 0; j < n; ++j) {
      double s = 0, mag = 0;
      for (int kk = 0; kk < k; ++kk) {
        double p = double(A[size_t(i) * k + kk]) * Bt[size_t(j) * k + kk];
        s += p;
        mag += std::fabs(p);
      }
      double want = alpha * s, scale = std::fabs(alpha) * mag;
      if (C) {
        want += beta * (*C)[size_t(i) * n + j];
        scale += std::fabs(beta * (*C)[size_t(i) * n + j]);
      }
      double g = got[size_t(i) * n + j];
      if (!(std::fabs(g - want) <= tol * std::max(1.0, scale))) {
        fail(kernel, cfg, long(i) * n + j, g, want);
        return;
      }
    }
}

// ---- naive wmma GEMM, as the CUDA sample's simple_wmma_gemm ----------------------------------
// D = alpha * A * B + beta * C; one warp a 16x16 tile of D, fragments loaded straight from global
// memory; blockDim (128, 4): 16 warps, a 64x64 tile of D a block. A row-major (M x K), B
// column-major (ldb = K) or row-major (ldb = N), C and D row-major.
template <class L> struct BTile;
template <> struct BTile<wmma::col_major> {
  template <class T> static __device__ const T *at(const T *b, int kk, int col, int k, int) {
    return b + size_t(col) * k + kk;
  }
  static __device__ unsigned ld(int k, int) { return unsigned(k); }
};
template <> struct BTile<wmma::row_major> {
  template <class T> static __device__ const T *at(const T *b, int kk, int col, int, int n) {
    return b + size_t(kk) * n + col;
  }
  static __device__ unsigned ld(int, int n) { return unsigned(n); }
};

template <class T, class BLayout>
__global__ void wmma_gemm_naive(const T *a, const T *b, const float *c, float *d, int m, int n,
                                int k, float alpha, float beta) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  int aRow = warpM * 16, bCol = warpN * 16;
  if (aRow >= m || bCol >= n) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, T, BLayout> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
  wmma::fill_fragment(acc_frag, 0.0f);
  for (int i = 0; i < k; i += 16) {
    wmma::load_matrix_sync(a_frag, a + size_t(aRow) * k + i, k);
    wmma::load_matrix_sync(b_frag, BTile<BLayout>::at(b, i, bCol, k, n), BTile<BLayout>::ld(k, n));
    wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);
  }
  wmma::load_matrix_sync(c_frag, c + size_t(aRow) * n + bCol, n, wmma::mem_row_major);
  for (int t = 0; t < c_frag.num_elements; t++)
    c_frag.x[t] = alpha * acc_frag.x[t] + beta * c_frag.x[t];
  wmma::store_matrix_sync(d + size_t(aRow) * n + bCol, c_frag, n, wmma::mem_row_major);
}

template <class T, class BLayout>
static void bench_gemm_naive(const char *kernel, int m, int n, int k) {
  const bool bcol = std::is_same<BLayout, wmma::col_major>::value;
  const float alpha = 2.0f, beta = 0.5f;
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "m=%d,n=%d,k=%d", m, n, k);
  T *da, *db;
  float *dc, *dd;
  CHECK(musaMalloc(&da, size_t(m) * k * sizeof(T)));
  CHECK(musaMalloc(&db, size_t(k) * n * sizeof(T)));
  CHECK(musaMalloc(&dc, size_t(m) * n * 4));
  CHECK(musaMalloc(&dd, size_t(m) * n * 4));
  fill_grid(da, size_t(m) * k, 11);
  fill_grid(db, size_t(k) * n, 12);
  fill_grid(dc, size_t(m) * n, 13);
  dim3 block(128, 4), grid(m / 64, n / 64);
  auto op = [&] {
    wmma_gemm_naive<T, BLayout><<<grid, block>>>(da, db, dc, dd, m, n, k, alpha, beta);
  };
  warm(op);
  std::vector<float> got(size_t(m) * n);
  CHECK(musaMemcpy(got.data(), dd, got.size() * 4, musaMemcpyDeviceToHost));
  std::vector<float> A = host_grid(size_t(m) * k, 11), C = host_grid(size_t(m) * n, 13), Bt(size_t(n) * k);
  for (int j = 0; j < n; ++j)
    for (int kk = 0; kk < k; ++kk)
      Bt[size_t(j) * k + kk] = tt_val(bcol ? unsigned(j * k + kk) : unsigned(kk * n + j), 12);
  check_gemm(kernel, cfg, got, A, Bt, m, n, k, 1e-5, alpha, beta, &C);
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dc));
  CHECK(musaFree(dd));
}

// ---- naive GEMM with half accumulators: D (half) = A * B, 4 warps a block ---------------------
__global__ void wmma_gemm_f16acc(const __half *a, const __half *b, __half *d, int m, int n, int k) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tilesN = n / 16, tm = warp / tilesN, tn = warp % tilesN;
  if (tm * 16 >= m) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
  wmma::fill_fragment(acc, __float2half(0.0f));
  for (int i = 0; i < k; i += 16) {
    wmma::load_matrix_sync(a_frag, a + size_t(tm) * 16 * k + i, k);
    wmma::load_matrix_sync(b_frag, b + size_t(tn) * 16 * k + i, k);
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  wmma::store_matrix_sync(d + size_t(tm) * 16 * n + tn * 16, acc, n, wmma::mem_row_major);
}

__global__ void tt_half_to_float(const __half *in, float *out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = __half2float(in[i]);
}

static void bench_gemm_f16acc(int m, int n, int k) {
  const char *kernel = "wmma_gemm_f16acc";
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "m=%d,n=%d,k=%d", m, n, k);
  __half *da, *db, *dd;
  float *df;
  CHECK(musaMalloc(&da, size_t(m) * k * 2));
  CHECK(musaMalloc(&db, size_t(k) * n * 2));
  CHECK(musaMalloc(&dd, size_t(m) * n * 2));
  CHECK(musaMalloc(&df, size_t(m) * n * 4));
  fill_grid(da, size_t(m) * k, 21);
  fill_grid(db, size_t(k) * n, 22);
  int warps = (m / 16) * (n / 16);
  auto op = [&] { wmma_gemm_f16acc<<<warps / 4, 128>>>(da, db, dd, m, n, k); };
  warm(op);
  tt_half_to_float<<<264, 256>>>(dd, df, size_t(m) * n);
  CHECK(musaGetLastError());
  std::vector<float> got(size_t(m) * n);
  CHECK(musaMemcpy(got.data(), df, got.size() * 4, musaMemcpyDeviceToHost));
  // Partial sums rounded to half after each step: up to ~2^-11 of the running sum a step.
  check_gemm(kernel, cfg, got, host_grid(size_t(m) * k, 21), host_grid(size_t(n) * k, 22), m, n, k, 2e-2);
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dd));
  CHECK(musaFree(df));
}

// ---- naive GEMM with the 32x8x16 shape: a warp a 32x8 tile of D = A * B -----------------------
__global__ void wmma_gemm_m32n8k16(const __half *a, const __half *b, float *d, int m, int n, int k) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tilesN = n / 8, tm = warp / tilesN, tn = warp % tilesN;
  if (tm * 32 >= m) return;
  wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 32, 8, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int i = 0; i < k; i += 16) {
    wmma::load_matrix_sync(a_frag, a + size_t(tm) * 32 * k + i, k);
    wmma::load_matrix_sync(b_frag, b + size_t(tn) * 8 * k + i, k);
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  wmma::store_matrix_sync(d + size_t(tm) * 32 * n + tn * 8, acc, n, wmma::mem_row_major);
}

static void bench_gemm_m32n8k16(int m, int n, int k) {
  const char *kernel = "wmma_gemm_m32n8k16";
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "m=%d,n=%d,k=%d", m, n, k);
  __half *da, *db;
  float *dd;
  CHECK(musaMalloc(&da, size_t(m) * k * 2));
  CHECK(musaMalloc(&db, size_t(k) * n * 2));
  CHECK(musaMalloc(&dd, size_t(m) * n * 4));
  fill_grid(da, size_t(m) * k, 31);
  fill_grid(db, size_t(k) * n, 32);
  int warps = (m / 32) * (n / 8);
  auto op = [&] { wmma_gemm_m32n8k16<<<warps / 8, 256>>>(da, db, dd, m, n, k); };
  warm(op);
  std::vector<float> got(size_t(m) * n);
  CHECK(musaMemcpy(got.data(), dd, got.size() * 4, musaMemcpyDeviceToHost));
  check_gemm(kernel, cfg, got, host_grid(size_t(m) * k, 31), host_grid(size_t(n) * k, 32), m, n, k, 1e-5);
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dd));
}

// ---- tf32 GEMM (16x16x8), as tf32TensorCoreGemm: fp32 data, each loaded fragment converted ----
__global__ void wmma_gemm_tf32(const float *a, const float *b, float *d, int m, int n, int k) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tilesN = n / 16, tm = warp / tilesN, tn = warp % tilesN;
  if (tm * 16 >= m) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int i = 0; i < k; i += 8) {
    wmma::load_matrix_sync(a_frag, a + size_t(tm) * 16 * k + i, k);
    wmma::load_matrix_sync(b_frag, b + size_t(tn) * 16 * k + i, k);
#pragma unroll
    for (int t = 0; t < a_frag.num_elements; t++) a_frag.x[t] = wmma::__float_to_tf32(a_frag.x[t]);
#pragma unroll
    for (int t = 0; t < b_frag.num_elements; t++) b_frag.x[t] = wmma::__float_to_tf32(b_frag.x[t]);
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  wmma::store_matrix_sync(d + size_t(tm) * 16 * n + tn * 16, acc, n, wmma::mem_row_major);
}

static void bench_gemm_tf32(int m, int n, int k) {
  const char *kernel = "wmma_gemm_tf32";
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "m=%d,n=%d,k=%d", m, n, k);
  float *da, *db, *dd;
  CHECK(musaMalloc(&da, size_t(m) * k * 4));
  CHECK(musaMalloc(&db, size_t(k) * n * 4));
  CHECK(musaMalloc(&dd, size_t(m) * n * 4));
  tt_fill_f32<<<264, 256>>>(da, size_t(m) * k, 41);
  tt_fill_f32<<<264, 256>>>(db, size_t(k) * n, 42);
  CHECK(musaGetLastError());
  int warps = (m / 16) * (n / 16);
  auto op = [&] { wmma_gemm_tf32<<<warps / 4, 128>>>(da, db, dd, m, n, k); };
  warm(op);
  std::vector<float> got(size_t(m) * n), A(size_t(m) * k), Bt(size_t(n) * k);
  CHECK(musaMemcpy(got.data(), dd, got.size() * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < A.size(); ++i) A[i] = tt_valf(unsigned(i), 41);
  for (size_t i = 0; i < Bt.size(); ++i) Bt[i] = tt_valf(unsigned(i), 42);
  // Each input rounded to 10 mantissa bits (2^-11 relative), products summed in fp32.
  check_gemm(kernel, cfg, got, A, Bt, m, n, k, 4e-3);
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dd));
}

// ---- int8 GEMM (16x16x16, int32 accumulators), as immaTensorCoreGemm's simple kernel -----------
__global__ void wmma_gemm_s8(const signed char *a, const signed char *b, int *d, int m, int n, int k) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tilesN = n / 16, tm = warp / tilesN, tn = warp % tilesN;
  if (tm * 16 >= m) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  wmma::fill_fragment(acc, 0);
  for (int i = 0; i < k; i += 16) {
    wmma::load_matrix_sync(a_frag, a + size_t(tm) * 16 * k + i, k);
    wmma::load_matrix_sync(b_frag, b + size_t(tn) * 16 * k + i, k);
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  wmma::store_matrix_sync(d + size_t(tm) * 16 * n + tn * 16, acc, n, wmma::mem_row_major);
}

static void bench_gemm_s8(int m, int n, int k) {
  const char *kernel = "wmma_gemm_s8";
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "m=%d,n=%d,k=%d", m, n, k);
  signed char *da, *db;
  int *dd;
  CHECK(musaMalloc(&da, size_t(m) * k));
  CHECK(musaMalloc(&db, size_t(k) * n));
  CHECK(musaMalloc(&dd, size_t(m) * n * 4));
  tt_fill_s8<<<264, 256>>>(da, size_t(m) * k, 51);
  tt_fill_s8<<<264, 256>>>(db, size_t(k) * n, 52);
  CHECK(musaGetLastError());
  int warps = (m / 16) * (n / 16);
  auto op = [&] { wmma_gemm_s8<<<warps / 4, 128>>>(da, db, dd, m, n, k); };
  warm(op);
  std::vector<int> got(size_t(m) * n);
  CHECK(musaMemcpy(got.data(), dd, got.size() * 4, musaMemcpyDeviceToHost));
  std::vector<signed char> A(size_t(m) * k), Bt(size_t(n) * k);
  for (size_t i = 0; i < A.size(); ++i) A[i] = tt_vals8(unsigned(i), 51);
  for (size_t i = 0; i < Bt.size(); ++i) Bt[i] = tt_vals8(unsigned(i), 52);
  for (int i = 0; i < m; i += row_step(m, n, k))
    for (int j = 0; j < n; ++j) {
      int s = 0;
      for (int kk = 0; kk < k; ++kk) s += int(A[size_t(i) * k + kk]) * int(Bt[size_t(j) * k + kk]);
      if (got[size_t(i) * n + j] != s) {
        fail(kernel, cfg, long(i) * n + j, got[size_t(i) * n + j], s);
        i = m;
        break;
      }
    }
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dd));
}

// ---- double GEMM (8x8x4), as dmmaTensorCoreGemm's simple kernel: a warp an 8x8 tile ----------
__global__ void wmma_gemm_f64(const double *a, const double *b, double *d, int m, int n, int k) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tilesN = n / 8, tm = warp / tilesN, tn = warp % tilesN;
  if (tm * 8 >= m) return;
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::fill_fragment(acc, 0.0);
  for (int i = 0; i < k; i += 4) {
    wmma::load_matrix_sync(a_frag, a + size_t(tm) * 8 * k + i, k);
    wmma::load_matrix_sync(b_frag, b + size_t(tn) * 8 * k + i, k);
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  wmma::store_matrix_sync(d + size_t(tm) * 8 * n + tn * 8, acc, n, wmma::mem_row_major);
}

static void bench_gemm_f64(int m, int n, int k) {
  const char *kernel = "wmma_gemm_f64";
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "m=%d,n=%d,k=%d", m, n, k);
  double *da, *db, *dd;
  CHECK(musaMalloc(&da, size_t(m) * k * 8));
  CHECK(musaMalloc(&db, size_t(k) * n * 8));
  CHECK(musaMalloc(&dd, size_t(m) * n * 8));
  tt_fill_f64<<<264, 256>>>(da, size_t(m) * k, 61);
  tt_fill_f64<<<264, 256>>>(db, size_t(k) * n, 62);
  CHECK(musaGetLastError());
  int warps = (m / 8) * (n / 8);
  auto op = [&] { wmma_gemm_f64<<<warps / 4, 128>>>(da, db, dd, m, n, k); };
  warm(op);
  std::vector<double> got(size_t(m) * n), A(size_t(m) * k), Bt(size_t(n) * k);
  CHECK(musaMemcpy(got.data(), dd, got.size() * 8, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < A.size(); ++i) A[i] = tt_vald(unsigned(i), 61);
  for (size_t i = 0; i < Bt.size(); ++i) Bt[i] = tt_vald(unsigned(i), 62);
  for (int i = 0; i < m; i += row_step(m, n, k))
    for (int j = 0; j < n; ++j) {
      double s = 0, mag = 0;
      for (int kk = 0; kk < k; ++kk) {
        double p = A[size_t(i) * k + kk] * Bt[size_t(j) * k + kk];
        s += p;
        mag += std::fabs(p);
      }
      if (!(std::fabs(got[size_t(i) * n + j] - s) <= 1e-12 * std::max(1.0, mag))) {
        fail(kernel, cfg, long(i) * n + j, got[size_t(i) * n + j], s);
        i = m;
        break;
      }
    }
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dd));
}

// ---- shared-memory tiled GEMM, in the style of cudaTensorCoreGemm's compute_gemm -------------
// D = alpha * A * B + beta * C (A row-major, B column-major, half; C, D float). A block computes
// a BM x BN tile of D: for each BK-wide slice of K, its threads copy the A and B slices into
// shared memory with int4 loads (rows padded by 8 halves, 16 bytes, against bank conflicts as
// the sample's SKEW_HALF), then each warp multiplies its TM x TN fragments of 16x16 from there.
template <int BM, int BN, int BK, int WARPS_M, int WARPS_N>
__global__ void __launch_bounds__(WARPS_M *WARPS_N * 32)
    wmma_gemm_smem(const __half *A, const __half *B, const float *C, float *D, int M, int N,
                   int K, float alpha, float beta) {
  constexpr int THREADS = WARPS_M * WARPS_N * 32;
  constexpr int LDS = BK + 8;
  constexpr int TM = BM / WARPS_M / 16, TN = BN / WARPS_N / 16;
  __shared__ __align__(32) __half sA[BM * LDS];
  __shared__ __align__(32) __half sB[BN * LDS];
  const int warp = threadIdx.x / 32, wm = warp / WARPS_N, wn = warp % WARPS_N;
  const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;
  if (bm >= M || bn >= N) return;  // the whole block: the grid covers D exactly

  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag[TM];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag[TN];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[TM][TN];
  for (int i = 0; i < TM; i++)
    for (int j = 0; j < TN; j++) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int idx = threadIdx.x; idx < BM * BK / 8; idx += THREADS) {
      int r = idx / (BK / 8), c = idx % (BK / 8) * 8;
      *reinterpret_cast<int4 *>(&sA[r * LDS + c]) =
          *reinterpret_cast<const int4 *>(&A[size_t(bm + r) * K + k0 + c]);
    }
    for (int idx = threadIdx.x; idx < BN * BK / 8; idx += THREADS) {
      int r = idx / (BK / 8), c = idx % (BK / 8) * 8;
      *reinterpret_cast<int4 *>(&sB[r * LDS + c]) =
          *reinterpret_cast<const int4 *>(&B[size_t(bn + r) * K + k0 + c]);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 16) {
      for (int i = 0; i < TM; i++)
        wmma::load_matrix_sync(a_frag[i], &sA[((wm * TM + i) * 16) * LDS + kk], LDS);
      for (int j = 0; j < TN; j++)
        wmma::load_matrix_sync(b_frag[j], &sB[((wn * TN + j) * 16) * LDS + kk], LDS);
      for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
    }
    __syncthreads();
  }

  for (int i = 0; i < TM; i++)
    for (int j = 0; j < TN; j++) {
      size_t off = size_t(bm + (wm * TM + i) * 16) * N + bn + (wn * TN + j) * 16;
      wmma::fragment<wmma::accumulator, 16, 16, 16, float> c_frag;
      wmma::load_matrix_sync(c_frag, C + off, N, wmma::mem_row_major);
      for (int t = 0; t < c_frag.num_elements; t++)
        c_frag.x[t] = alpha * acc[i][j].x[t] + beta * c_frag.x[t];
      wmma::store_matrix_sync(D + off, c_frag, N, wmma::mem_row_major);
    }
}

template <int BM, int BN, int BK, int WARPS_M, int WARPS_N>
static void bench_gemm_smem(const char *kernel, int m, int n, int k) {
  const float alpha = 1.5f, beta = -1.0f;
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "m=%d,n=%d,k=%d", m, n, k);
  __half *da, *db;
  float *dc, *dd;
  CHECK(musaMalloc(&da, size_t(m) * k * 2));
  CHECK(musaMalloc(&db, size_t(k) * n * 2));
  CHECK(musaMalloc(&dc, size_t(m) * n * 4));
  CHECK(musaMalloc(&dd, size_t(m) * n * 4));
  fill_grid(da, size_t(m) * k, 71);
  fill_grid(db, size_t(k) * n, 72);
  fill_grid(dc, size_t(m) * n, 73);
  dim3 grid(n / BN, m / BM);
  auto op = [&] {
    wmma_gemm_smem<BM, BN, BK, WARPS_M, WARPS_N>
        <<<grid, WARPS_M * WARPS_N * 32>>>(da, db, dc, dd, m, n, k, alpha, beta);
  };
  warm(op);
  std::vector<float> got(size_t(m) * n);
  CHECK(musaMemcpy(got.data(), dd, got.size() * 4, musaMemcpyDeviceToHost));
  std::vector<float> C = host_grid(size_t(m) * n, 73);
  check_gemm(kernel, cfg, got, host_grid(size_t(m) * k, 71), host_grid(size_t(n) * k, 72), m, n, k,
             1e-5, alpha, beta, &C);
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dc));
  CHECK(musaFree(dd));
}

// ---- tensor-core throughput: 2x2 register blocking, four independent accumulators a warp ------
__global__ void wmma_mma_throughput(const __half *a, const __half *b, float *out, int iters) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; i++) {
    wmma::load_matrix_sync(a_frag[i], a + i * 256, 16);
    wmma::load_matrix_sync(b_frag[i], b + i * 256, 16);
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], float(i * 2 + j));
  for (int it = 0; it < iters; ++it)
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
  for (int t = 0; t < acc[0][0].num_elements; t++)
    acc[0][0].x[t] += acc[0][1].x[t] + acc[1][0].x[t] + acc[1][1].x[t];
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  wmma::store_matrix_sync(out + size_t(warp) * 256, acc[0][0], 16, wmma::mem_row_major);
}

// ---- tensor-core latency: one dependent accumulator chain a warp ------------------------------
__global__ void wmma_mma_chain(const __half *a, const __half *b, float *out, int iters) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(a_frag, a, 16);
  wmma::load_matrix_sync(b_frag, b, 16);
  wmma::fill_fragment(acc, 0.0f);
  for (int it = 0; it < iters; ++it) wmma::mma_sync(acc, a_frag, b_frag, acc);
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  wmma::store_matrix_sync(out + size_t(warp) * 256, acc, 16, wmma::mem_row_major);
}

// Host product of 16x16 tiles: a row-major, b column-major (as the kernels load them).
static double tile_dot(const std::vector<float> &a, int ao, const std::vector<float> &b, int bo,
                       int i, int j) {
  double s = 0;
  for (int k = 0; k < 16; ++k) s += double(a[ao + i * 16 + k]) * b[bo + j * 16 + k];
  return s;
}

static void bench_mma_loops(int blocks_tp, int warps_tp, int iters_tp, int blocks_ch, int iters_ch) {
  __half *da, *db;
  float *dout;
  int maxw = std::max(blocks_tp * warps_tp, blocks_ch);
  CHECK(musaMalloc(&da, 512 * 2));
  CHECK(musaMalloc(&db, 512 * 2));
  CHECK(musaMalloc(&dout, size_t(maxw) * 256 * 4));
  fill_grid(da, 512, 81);
  fill_grid(db, 512, 82);
  std::vector<float> A = host_grid(512, 81), B = host_grid(512, 82), got(size_t(maxw) * 256);
  {
    const char *kernel = "wmma_mma_throughput";
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "blocks=%d,warps=%d,iters=%d,acc=4", blocks_tp, warps_tp, iters_tp);
    auto op = [&] { wmma_mma_throughput<<<blocks_tp, warps_tp * 32>>>(da, db, dout, iters_tp); };
    warm(op);
    int nw = blocks_tp * warps_tp;
    CHECK(musaMemcpy(got.data(), dout, size_t(nw) * 256 * 4, musaMemcpyDeviceToHost));
    for (int w = 0, bad = 0; w < nw && !bad; ++w)
      for (int e = 0; e < 256; ++e) {
        int i = e / 16, j = e % 16;
        double want = 6.0 + double(iters_tp) * (tile_dot(A, 0, B, 0, i, j) + tile_dot(A, 0, B, 256, i, j) +
                                                tile_dot(A, 256, B, 0, i, j) + tile_dot(A, 256, B, 256, i, j));
        if (!near(got[size_t(w) * 256 + e], want, 1e-6)) {
          fail(kernel, cfg, long(w) * 256 + e, got[size_t(w) * 256 + e], want);
          bad = 1;
          break;
        }
      }
    report(kernel, cfg, time_median(op));
  }
  {
    const char *kernel = "wmma_mma_chain";
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "blocks=%d,warps=1,iters=%d", blocks_ch, iters_ch);
    auto op = [&] { wmma_mma_chain<<<blocks_ch, 32>>>(da, db, dout, iters_ch); };
    warm(op);
    CHECK(musaMemcpy(got.data(), dout, size_t(blocks_ch) * 256 * 4, musaMemcpyDeviceToHost));
    for (int w = 0, bad = 0; w < blocks_ch && !bad; ++w)
      for (int e = 0; e < 256; ++e) {
        double want = double(iters_ch) * tile_dot(A, 0, B, 0, e / 16, e % 16);
        if (!near(got[size_t(w) * 256 + e], want, 1e-6)) {
          fail(kernel, cfg, long(w) * 256 + e, got[size_t(w) * 256 + e], want);
          bad = 1;
          break;
        }
      }
    report(kernel, cfg, time_median(op));
  }
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dout));
}

// ---- batched 64x64x64 GEMM: C_b = A_b B_b (half in, float out, all row-major) ----------------
// A block of four warps a matrix; each warp a 32x32 quadrant as 2x2 fragments, from global memory.
__global__ void wmma_batched_gemm64(const __half *A, const __half *B, float *C) {
  const __half *a = A + size_t(blockIdx.x) * 4096, *b = B + size_t(blockIdx.x) * 4096;
  float *c = C + size_t(blockIdx.x) * 4096;
  int warp = threadIdx.x / 32, wr = (warp / 2) * 32, wc = (warp % 2) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag[2];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b_frag[2];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) wmma::fill_fragment(acc[i][j], 0.0f);
  for (int k0 = 0; k0 < 64; k0 += 16) {
    for (int i = 0; i < 2; i++) wmma::load_matrix_sync(a_frag[i], a + (wr + i * 16) * 64 + k0, 64);
    for (int j = 0; j < 2; j++) wmma::load_matrix_sync(b_frag[j], b + k0 * 64 + wc + j * 16, 64);
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) wmma::mma_sync(acc[i][j], a_frag[i], b_frag[j], acc[i][j]);
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      wmma::store_matrix_sync(c + (wr + i * 16) * 64 + wc + j * 16, acc[i][j], 64, wmma::mem_row_major);
}

static void bench_batched_gemm64(int batch) {
  const char *kernel = "wmma_batched_gemm64";
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "batch=%d,64x64x64", batch);
  size_t n = size_t(batch) * 4096;
  __half *da, *db;
  float *dc;
  CHECK(musaMalloc(&da, n * 2));
  CHECK(musaMalloc(&db, n * 2));
  CHECK(musaMalloc(&dc, n * 4));
  fill_grid(da, n, 91);
  fill_grid(db, n, 92);
  auto op = [&] { wmma_batched_gemm64<<<batch, 128>>>(da, db, dc); };
  warm(op);
  std::vector<float> got(n), A = host_grid(n, 91), B = host_grid(n, 92);
  CHECK(musaMemcpy(got.data(), dc, n * 4, musaMemcpyDeviceToHost));
  for (int bt = 0; bt < batch; bt += 7) {
    const size_t o = size_t(bt) * 4096;
    for (int i = 0; i < 64; ++i)
      for (int j = 0; j < 64; ++j) {
        double s = 0;
        for (int k = 0; k < 64; ++k) s += double(A[o + i * 64 + k]) * B[o + k * 64 + j];
        if (!near(got[o + i * 64 + j], s, 1e-6)) {
          fail(kernel, cfg, long(o) + i * 64 + j, got[o + i * 64 + j], s);
          bt = batch;
          i = 64;
          break;
        }
      }
  }
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(da));
  CHECK(musaFree(db));
  CHECK(musaFree(dc));
}

// ---- linear layer Y = relu(X W^T + bias): bias and ReLU over the accumulator fragments -------
// X (M x K) and W (N x K, a Linear layer's weight) half row-major, bias and Y float. A block of
// four warps computes 64 rows x 64 columns, a warp 16 rows x 64 (four accumulators). The bias
// enters as an accumulator fragment loaded from a 16-row shared tile (each row the block's 64
// biases); the sum and the ReLU go element-wise over x[], the only access CUDA allows.
__global__ void wmma_linear_bias_relu(const __half *X, const __half *W, const float *bias, float *Y,
                                      int M, int N, int K) {
  __shared__ __align__(32) float sBias[16 * 64];
  const int warp = threadIdx.x / 32;
  const int row0 = blockIdx.y * 64 + warp * 16, col0 = blockIdx.x * 64;
  if (int(blockIdx.y) * 64 >= M || col0 >= N) return;  // the whole block
  for (int i = threadIdx.x; i < 16 * 64; i += blockDim.x) sBias[i] = bias[col0 + i % 64];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4];
  for (int j = 0; j < 4; j++) wmma::fill_fragment(acc[j], 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    wmma::load_matrix_sync(a_frag, X + size_t(row0) * K + k0, K);
    for (int j = 0; j < 4; j++) {
      wmma::load_matrix_sync(b_frag, W + size_t(col0 + j * 16) * K + k0, K);
      wmma::mma_sync(acc[j], a_frag, b_frag, acc[j]);
    }
  }
  for (int j = 0; j < 4; j++) {
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> bias_frag;
    wmma::load_matrix_sync(bias_frag, sBias + j * 16, 64, wmma::mem_row_major);
    for (int t = 0; t < acc[j].num_elements; t++)
      acc[j].x[t] = fmaxf(acc[j].x[t] + bias_frag.x[t], 0.0f);
    wmma::store_matrix_sync(Y + size_t(row0) * N + col0 + j * 16, acc[j], N, wmma::mem_row_major);
  }
}

static void bench_linear_bias_relu(int m, int n, int k) {
  const char *kernel = "wmma_linear_bias_relu";
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "m=%d,n=%d,k=%d", m, n, k);
  __half *dx, *dw;
  float *dbias, *dy;
  CHECK(musaMalloc(&dx, size_t(m) * k * 2));
  CHECK(musaMalloc(&dw, size_t(n) * k * 2));
  CHECK(musaMalloc(&dbias, size_t(n) * 4));
  CHECK(musaMalloc(&dy, size_t(m) * n * 4));
  fill_grid(dx, size_t(m) * k, 101);
  fill_grid(dw, size_t(n) * k, 102);
  fill_grid(dbias, size_t(n), 103);
  dim3 grid(n / 64, m / 64);
  auto op = [&] { wmma_linear_bias_relu<<<grid, 128>>>(dx, dw, dbias, dy, m, n, k); };
  warm(op);
  std::vector<float> got(size_t(m) * n), X = host_grid(size_t(m) * k, 101),
                                         Wt = host_grid(size_t(n) * k, 102), bias = host_grid(n, 103);
  CHECK(musaMemcpy(got.data(), dy, got.size() * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < m; i += row_step(m, n, k))
    for (int j = 0; j < n; ++j) {
      double s = bias[j];
      for (int kk = 0; kk < k; ++kk) s += double(X[size_t(i) * k + kk]) * Wt[size_t(j) * k + kk];
      s = std::max(s, 0.0);
      if (!near(got[size_t(i) * n + j], s, 1e-6)) {
        fail(kernel, cfg, long(i) * n + j, got[size_t(i) * n + j], s);
        i = m;
        break;
      }
    }
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(dx));
  CHECK(musaFree(dw));
  CHECK(musaFree(dbias));
  CHECK(musaFree(dy));
}

// ---- 3x3 convolution (stride 1, same padding) as an implicit GEMM over NHWC half tensors ------
// The input is stored zero-padded ((H+2) x (W+2)), so a warp's 16 output pixels (16 consecutive
// pixels of one image row) read each (kh, kw) tap as one 16 x 16 row-major A fragment with
// leading dimension CIN; the weights are [COUT][3][3][CIN], a column-major B with leading
// dimension 9 CIN. A block of four warps: 64 consecutive output pixels x all COUT channels; a
// warp 16 pixels x COUT (COUT/16 accumulators). Output NHWC float.
template <int CIN, int COUT>
__global__ void wmma_conv3x3_nhwc(const __half *in, const __half *wt, float *out, int H, int W) {
  const int warp = threadIdx.x / 32;
  const int pix0 = (blockIdx.x * 4 + warp) * 16;
  const int w0 = pix0 % W, h = (pix0 / W) % H, img = pix0 / (W * H);
  const int Wp = W + 2, Hp = H + 2;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a_frag;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[COUT / 16];
  for (int j = 0; j < COUT / 16; j++) wmma::fill_fragment(acc[j], 0.0f);
  for (int kh = 0; kh < 3; kh++)
    for (int kw = 0; kw < 3; kw++) {
      const __half *src = in + ((size_t(img) * Hp + h + kh) * Wp + w0 + kw) * CIN;
      const __half *wk = wt + (kh * 3 + kw) * CIN;
      for (int c0 = 0; c0 < CIN; c0 += 16) {
        wmma::load_matrix_sync(a_frag, src + c0, CIN);
        for (int j = 0; j < COUT / 16; j++) {
          wmma::load_matrix_sync(b_frag, wk + size_t(j * 16) * 9 * CIN + c0, 9 * CIN);
          wmma::mma_sync(acc[j], a_frag, b_frag, acc[j]);
        }
      }
    }
  for (int j = 0; j < COUT / 16; j++)
    wmma::store_matrix_sync(out + size_t(pix0) * COUT + j * 16, acc[j], COUT, wmma::mem_row_major);
}

// The padded input: the grid values inside, zeros on the one-pixel border.
__global__ void tt_fill_padded(__half *p, int nimg, int hp, int wp, int c, unsigned seed) {
  size_t n = size_t(nimg) * hp * wp * c;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    int x = int(i / c % wp), y = int(i / c / wp % hp);
    bool border = x == 0 || y == 0 || x == wp - 1 || y == hp - 1;
    p[i] = __float2half(border ? 0.0f : tt_val(unsigned(i), seed));
  }
}

static void bench_conv3x3() {
  const char *kernel = "wmma_conv3x3_nhwc";
  const int N = 8, H = 32, W = 32, CIN = 32, COUT = 64, Hp = H + 2, Wp = W + 2;
  const char *cfg = "n=8,h=32,w=32,cin=32,cout=64";
  size_t nin = size_t(N) * Hp * Wp * CIN, nw = size_t(COUT) * 9 * CIN, nout = size_t(N) * H * W * COUT;
  __half *din, *dw;
  float *dout;
  CHECK(musaMalloc(&din, nin * 2));
  CHECK(musaMalloc(&dw, nw * 2));
  CHECK(musaMalloc(&dout, nout * 4));
  tt_fill_padded<<<264, 256>>>(din, N, Hp, Wp, CIN, 111);
  CHECK(musaGetLastError());
  fill_grid(dw, nw, 112);
  const int blocks = N * H * W / 64;
  auto op = [&] { wmma_conv3x3_nhwc<CIN, COUT><<<blocks, 128>>>(din, dw, dout, H, W); };
  warm(op);
  std::vector<float> got(nout), in(nin), wt = host_grid(nw, 112);
  CHECK(musaMemcpy(got.data(), dout, nout * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < nin; ++i) {
    int x = int(i / CIN % Wp), y = int(i / CIN / Wp % Hp);
    in[i] = (x == 0 || y == 0 || x == Wp - 1 || y == Hp - 1) ? 0.f : tt_val(unsigned(i), 111);
  }
  for (int p = 0; p < N * H * W; p += 3) {
    int w = p % W, h = p / W % H, img = p / (W * H);
    for (int co = 0; co < COUT; ++co) {
      double s = 0;
      for (int kh = 0; kh < 3; ++kh)
        for (int kw = 0; kw < 3; ++kw)
          for (int c = 0; c < CIN; ++c)
            s += double(in[((size_t(img) * Hp + h + kh) * Wp + w + kw) * CIN + c]) *
                 wt[(size_t(co) * 9 + kh * 3 + kw) * CIN + c];
      if (!near(got[size_t(p) * COUT + co], s, 1e-6)) {
        fail(kernel, cfg, long(p) * COUT + co, got[size_t(p) * COUT + co], s);
        p = N * H * W;
        break;
      }
    }
  }
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dw));
  CHECK(musaFree(dout));
}

// ---- transpose through accumulator fragments: load a tile row-major, store it column-major ----
__global__ void wmma_transpose_f32(const float *in, float *out, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tiles = n / 16, tr = warp / tiles, tc = warp % tiles;
  if (tr >= tiles) return;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
  wmma::load_matrix_sync(f, in + size_t(tr) * 16 * n + tc * 16, n, wmma::mem_row_major);
  wmma::store_matrix_sync(out + size_t(tc) * 16 * n + tr * 16, f, n, wmma::mem_col_major);
}

static void bench_transpose(int n) {
  const char *kernel = "wmma_transpose_f32";
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "n=%d", n);
  size_t nn = size_t(n) * n;
  float *din, *dout;
  CHECK(musaMalloc(&din, nn * 4));
  CHECK(musaMalloc(&dout, nn * 4));
  tt_fill_f32<<<264, 256>>>(din, nn, 121);
  CHECK(musaGetLastError());
  int warps = (n / 16) * (n / 16);
  auto op = [&] { wmma_transpose_f32<<<warps / 8, 256>>>(din, dout, n); };
  warm(op);
  std::vector<float> got(nn);
  CHECK(musaMemcpy(got.data(), dout, nn * 4, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (got[size_t(j) * n + i] != tt_valf(unsigned(size_t(i) * n + j), 121)) {
        fail(kernel, cfg, long(j) * n + i, got[size_t(j) * n + i], tt_valf(unsigned(size_t(i) * n + j), 121));
        i = n;
        break;
      }
  report(kernel, cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}

int main(int argc, char **argv) {
  if (argc > 1) g_repeats = std::max(1, std::atoi(argv[1]));
  CHECK(musaEventCreate(&g_start));
  CHECK(musaEventCreate(&g_stop));
  bench_gemm_naive<__half, wmma::col_major>("wmma_gemm_naive", 256, 256, 256);
  bench_gemm_naive<__half, wmma::col_major>("wmma_gemm_naive", 512, 512, 512);
  bench_gemm_naive<__half, wmma::col_major>("wmma_gemm_naive", 1024, 1024, 256);
  bench_gemm_naive<__half, wmma::row_major>("wmma_gemm_naive_brow", 512, 512, 512);
  bench_gemm_naive<__nv_bfloat16, wmma::col_major>("wmma_gemm_bf16", 512, 512, 512);
  bench_gemm_f16acc(512, 512, 512);
  bench_gemm_m32n8k16(512, 512, 512);
  bench_gemm_tf32(512, 512, 512);
  bench_gemm_s8(512, 512, 512);
  bench_gemm_f64(512, 512, 512);
  bench_gemm_smem<128, 128, 64, 4, 2>("wmma_gemm_smem128", 1024, 1024, 256);
  bench_gemm_smem<64, 64, 32, 2, 2>("wmma_gemm_smem64", 1024, 512, 128);
  bench_mma_loops(16, 8, 128, 132, 512);
  bench_batched_gemm64(512);
  bench_linear_bias_relu(8192, 128, 128);
  bench_conv3x3();
  bench_transpose(4096);
  CHECK(musaEventDestroy(g_start));
  CHECK(musaEventDestroy(g_stop));
  CHECK(musaDeviceSynchronize());
  if (g_failures) {
    std::printf("FAILED %d config(s)\n", g_failures);
    return 1;
  }
  return 0;
}
