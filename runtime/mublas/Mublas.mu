// Mublas.mu - libmublas, a subset of muBLAS (mublas.h; cublas_v2.h with CUDA's names): the
// routines are kernels of the virtual GPU launched on the handle's stream, so stream order,
// capture into graphs and the timing model apply to them as to a program's own kernels.
// Column-major matrices; errors as cuBLAS reports them (a null handle: NOT_INITIALIZED;
// negative sizes, leading dimensions below the rows, zero increments where BLAS forbids them,
// an unknown operation: INVALID_VALUE, checked before anything runs).
#include <mublas.h>
#include <musa_bf16.h>
#include <musa_fp16.h>

#include <cmath>
#include <new>

struct mublasContext {
  musaStream_t stream = nullptr;
  mublasPointerMode_t pointerMode = MUBLAS_POINTER_MODE_HOST;
  mublasMath_t mathMode = MUBLAS_DEFAULT_MATH;
  void *scratch = nullptr; // device memory for a reduction's result in host pointer mode
};

namespace {

constexpr int Threads = 256;

unsigned blocksFor(long long n) {
  long long b = (n + Threads - 1) / Threads;
  return (unsigned)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

// A scalar argument: a value (host pointer mode) or where the device holds it.
template <class T> struct Scalar {
  T value;
  const T *device;
  const __half *deviceHalf = nullptr; // GemmEx's 16F compute: a half in device memory
  __device__ T get() const {
    return device ? *device : deviceHalf ? T(float(*deviceHalf)) : value;
  }
};

template <class T> Scalar<T> scalar(mublasHandle_t h, const T *p) {
  if (h->pointerMode == MUBLAS_POINTER_MODE_DEVICE)
    return {T(0), p};
  return {*p, nullptr};
}

// Element i of a strided vector (BLAS: a negative increment walks it from the far end).
__host__ __device__ long long at(long long i, int inc, int n) {
  return inc >= 0 ? i * inc : (long long)(n - 1 - i) * -inc;
}

mublasStatus_t launched() {
  return musaGetLastError() == musaSuccess ? MUBLAS_STATUS_SUCCESS
                                           : MUBLAS_STATUS_EXECUTION_FAILED;
}

// ---- Level 1 --------------------------------------------------------------------------------

template <class T>
__global__ void axpyKernel(int n, Scalar<T> alpha, const T *x, int incx, T *y, int incy) {
  T a = alpha.get();
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    y[at(i, incy, n)] += a * x[at(i, incx, n)];
}

template <class T> __global__ void scalKernel(int n, Scalar<T> alpha, T *x, int incx) {
  T a = alpha.get();
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x)
    x[at(i, incx, n)] *= a;
}

template <class T>
__global__ void copySwapKernel(int n, T *x, int incx, T *y, int incy, bool swap) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    T v = x[at(i, incx, n)];
    if (swap)
      x[at(i, incx, n)] = y[at(i, incy, n)];
    y[at(i, incy, n)] = v;
  }
}

enum class Reduce { Dot, Nrm2, Asum, Amax, Amin };

// One block reduces the whole vector: a sum (dot, asum), a scaled sum of squares (nrm2, without
// overflow for large elements) or the first index of the largest or smallest |x_i| (1-based).
template <class T>
__global__ void reduceKernel(Reduce op, int n, const T *x, int incx, const T *y, int incy,
                             T *value, int *index) {
  __shared__ T sum[Threads];
  __shared__ T scale[Threads];
  __shared__ int best[Threads];
  T s = 0, sc = 0;
  int b = -1;
  for (int i = threadIdx.x; i < n; i += Threads) {
    T v = x[at(i, incx, n)];
    if (op == Reduce::Dot) {
      s += v * y[at(i, incy, n)];
    } else if (op == Reduce::Asum) {
      s += fabs(v);
    } else if (op == Reduce::Nrm2) {
      T a = fabs(v);
      if (a > sc) {
        s = (sc > 0 ? s * (sc / a) * (sc / a) : T(0)) + 1, sc = a;
      } else if (a > 0) {
        s += (a / sc) * (a / sc);
      }
    } else if (b < 0 || (op == Reduce::Amax ? fabs(v) > s : fabs(v) < s)) {
      s = fabs(v), b = i;
    }
  }
  sum[threadIdx.x] = s, scale[threadIdx.x] = sc, best[threadIdx.x] = b;
  __syncthreads();
  if (threadIdx.x != 0)
    return;
  for (int t = 1; t < Threads; ++t) { // in index order: the first index wins ties
    if (op == Reduce::Dot || op == Reduce::Asum) {
      s += sum[t];
    } else if (op == Reduce::Nrm2) {
      T ts = sum[t], tsc = scale[t];
      if (tsc > sc)
        s = (sc > 0 ? s * (sc / tsc) * (sc / tsc) : T(0)) + ts, sc = tsc;
      else if (tsc > 0)
        s += ts * (tsc / sc) * (tsc / sc);
    } else if (best[t] >= 0 &&
               (b < 0 || (op == Reduce::Amax ? sum[t] > s : sum[t] < s) ||
                (sum[t] == s && best[t] < b))) {
      s = sum[t], b = best[t];
    }
  }
  if (op == Reduce::Amax || op == Reduce::Amin)
    *index = b + 1;
  else
    *value = op == Reduce::Nrm2 ? sc * sqrt(s) : s;
}

// Runs a reduction; a result in host memory (host pointer mode) waits for it, as cuBLAS does.
template <class T, class R>
mublasStatus_t reduce(mublasHandle_t h, Reduce op, int n, const T *x, int incx, const T *y,
                      int incy, R *result) {
  if (!h)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if (!result)
    return MUBLAS_STATUS_INVALID_VALUE;
  // 0 for an empty vector, and for nrm2, asum, iamax and iamin a negative increment (BLAS);
  // an increment of 0 reads the first element n times, as cuBLAS does (an H200: nrm2 of 4
  // elements with incx 0 gave twice the first one's magnitude, libs_probe.h200.txt); dot
  // walks a vector with a negative increment from its far end.
  if (n <= 0 || (op != Reduce::Dot && incx < 0)) {
    if (h->pointerMode == MUBLAS_POINTER_MODE_HOST) {
      *result = R(0);
      return MUBLAS_STATUS_SUCCESS;
    }
    return musaMemsetAsync(result, 0, sizeof(R), h->stream) == musaSuccess
               ? MUBLAS_STATUS_SUCCESS
               : MUBLAS_STATUS_EXECUTION_FAILED;
  }
  bool host = h->pointerMode == MUBLAS_POINTER_MODE_HOST;
  if (host && !h->scratch && musaMalloc(&h->scratch, sizeof(double)) != musaSuccess) {
    musaGetLastError();
    return MUBLAS_STATUS_ALLOC_FAILED;
  }
  R *out = host ? static_cast<R *>(h->scratch) : result;
  bool index = op == Reduce::Amax || op == Reduce::Amin;
  reduceKernel<T><<<1, Threads, 0, h->stream>>>(op, n, x, incx, y, incy,
                                                index ? nullptr : (T *)out,
                                                index ? (int *)out : nullptr);
  mublasStatus_t status = launched();
  if (host) {
    if (status == MUBLAS_STATUS_SUCCESS &&
        (musaMemcpyAsync(result, out, sizeof(R), musaMemcpyDeviceToHost, h->stream) !=
             musaSuccess ||
         musaStreamSynchronize(h->stream) != musaSuccess))
      status = MUBLAS_STATUS_EXECUTION_FAILED;
  }
  return status;
}

template <class T>
mublasStatus_t axpy(mublasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y,
                    int incy) {
  if (!h)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0)
    return MUBLAS_STATUS_SUCCESS;
  if (!alpha)
    return MUBLAS_STATUS_INVALID_VALUE;
  axpyKernel<T><<<blocksFor(n), Threads, 0, h->stream>>>(n, scalar(h, alpha), x, incx, y, incy);
  return launched();
}

template <class T> mublasStatus_t scal(mublasHandle_t h, int n, const T *alpha, T *x, int incx) {
  if (!h)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0 || incx <= 0)
    return MUBLAS_STATUS_SUCCESS;
  if (!alpha)
    return MUBLAS_STATUS_INVALID_VALUE;
  scalKernel<T><<<blocksFor(n), Threads, 0, h->stream>>>(n, scalar(h, alpha), x, incx);
  return launched();
}

template <class T>
mublasStatus_t copySwap(mublasHandle_t h, int n, T *x, int incx, T *y, int incy, bool swap) {
  if (!h)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0)
    return MUBLAS_STATUS_SUCCESS;
  copySwapKernel<T><<<blocksFor(n), Threads, 0, h->stream>>>(n, x, incx, y, incy, swap);
  return launched();
}

// ---- Level 2 and 3 --------------------------------------------------------------------------

bool validOp(mublasOperation_t op) {
  return op == MUBLAS_OP_N || op == MUBLAS_OP_T || op == MUBLAS_OP_C;
}

// y = alpha op(A) x + beta y, a thread per element of y.
template <class T>
__global__ void gemvKernel(bool trans, int m, int n, Scalar<T> alpha, const T *A, int lda,
                           const T *x, int incx, Scalar<T> beta, T *y, int incy) {
  int rows = trans ? n : m, cols = trans ? m : n;
  T a = alpha.get(), b = beta.get();
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < rows;
       i += (long long)gridDim.x * blockDim.x) {
    T s = 0;
    for (int j = 0; j < cols; ++j)
      s += (trans ? A[i * lda + j] : A[j * (long long)lda + i]) * x[at(j, incx, cols)];
    T &out = y[at(i, incy, rows)];
    out = b == T(0) ? a * s : a * s + b * out; // beta 0: y is not read (it may hold NaN)
  }
}

// C = alpha op(A) op(B) + beta C for each matrix of a batch (blockIdx.z), in 16 x 16 tiles.
constexpr int Tile = 16;
template <class T> struct Batch {
  const T *A, *B;
  T *C;
  long long strideA, strideB, strideC;
  const T *const *As;
  const T *const *Bs;
  T *const *Cs;
};

template <class T>
__global__ void gemmKernel(bool ta, bool tb, int m, int n, int k, Scalar<T> alpha, int lda,
                           int ldb, Scalar<T> beta, int ldc, Batch<T> batch) {
  __shared__ T sa[Tile][Tile + 1];
  __shared__ T sb[Tile][Tile + 1];
  int z = blockIdx.z;
  const T *A = batch.As ? batch.As[z] : batch.A + z * batch.strideA;
  const T *B = batch.Bs ? batch.Bs[z] : batch.B + z * batch.strideB;
  T *C = batch.Cs ? batch.Cs[z] : batch.C + z * batch.strideC;
  int row = blockIdx.x * Tile + threadIdx.x, col = blockIdx.y * Tile + threadIdx.y;
  T s = 0;
  for (int k0 = 0; k0 < k; k0 += Tile) {
    int ka = k0 + threadIdx.y, kb = k0 + threadIdx.x;
    // op(A)[row][ka] and op(B)[kb][col]
    sa[threadIdx.x][threadIdx.y] =
        row < m && ka < k ? (ta ? A[row * (long long)lda + ka] : A[ka * (long long)lda + row])
                          : T(0);
    sb[threadIdx.x][threadIdx.y] =
        kb < k && col < n ? (tb ? B[kb * (long long)ldb + col] : B[col * (long long)ldb + kb])
                          : T(0);
    __syncthreads();
    for (int kk = 0; kk < Tile; ++kk)
      s += sa[threadIdx.x][kk] * sb[kk][threadIdx.y];
    __syncthreads();
  }
  if (row < m && col < n) {
    T a = alpha.get(), b = beta.get();
    T &out = C[col * (long long)ldc + row];
    out = b == T(0) ? a * s : a * s + b * out; // beta 0: C is not read
  }
}

template <class T>
mublasStatus_t gemv(mublasHandle_t h, mublasOperation_t trans, int m, int n, const T *alpha,
                    const T *A, int lda, const T *x, int incx, const T *beta, T *y, int incy) {
  if (!h)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  // cuBLAS takes increments of 0 (an H200 answered SUCCESS): x's first element for all of x.
  if (!validOp(trans) || m < 0 || n < 0 || lda < (m > 1 ? m : 1))
    return MUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return MUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return MUBLAS_STATUS_INVALID_VALUE;
  bool t = trans != MUBLAS_OP_N;
  gemvKernel<T><<<blocksFor(t ? n : m), Threads, 0, h->stream>>>(
      t, m, n, scalar(h, alpha), A, lda, x, incx, scalar(h, beta), y, incy);
  return launched();
}

template <class T>
mublasStatus_t gemm(mublasHandle_t h, mublasOperation_t transa, mublasOperation_t transb, int m,
                    int n, int k, const T *alpha, int lda, int ldb, const T *beta, int ldc,
                    int batchCount, Batch<T> batch) {
  if (!h)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  bool ta = transa != MUBLAS_OP_N, tb = transb != MUBLAS_OP_N;
  int rowsA = ta ? k : m, rowsB = tb ? n : k;
  if (!validOp(transa) || !validOp(transb) || m < 0 || n < 0 || k < 0 || batchCount < 0 ||
      lda < (rowsA > 1 ? rowsA : 1) || ldb < (rowsB > 1 ? rowsB : 1) || ldc < (m > 1 ? m : 1))
    return MUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || batchCount == 0)
    return MUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return MUBLAS_STATUS_INVALID_VALUE;
  for (int z0 = 0; z0 < batchCount; z0 += 65535) { // gridDim.z is at most 65535
    Batch<T> part = batch;
    if (part.As) {
      part.As += z0, part.Bs += z0, part.Cs += z0;
    } else {
      part.A += z0 * part.strideA, part.B += z0 * part.strideB, part.C += z0 * part.strideC;
    }
    unsigned count = (unsigned)(batchCount - z0 < 65535 ? batchCount - z0 : 65535);
    dim3 grid((m + Tile - 1) / Tile, (n + Tile - 1) / Tile, count);
    gemmKernel<T><<<grid, dim3(Tile, Tile), 0, h->stream>>>(
        ta, tb, m, n, k, scalar(h, alpha), lda, ldb, scalar(h, beta), ldc, part);
    if (mublasStatus_t s = launched(); s != MUBLAS_STATUS_SUCCESS)
      return s;
  }
  return MUBLAS_STATUS_SUCCESS;
}

// C = alpha op(A) + beta op(B), a thread per element (beta 0: B is not read; in place when C
// is A or B untransposed, each element being read before it is written).
template <class T>
__global__ void geamKernel(bool ta, bool tb, int m, int n, Scalar<T> alpha, const T *A, int lda,
                           Scalar<T> beta, const T *B, int ldb, T *C, int ldc) {
  int row = blockIdx.x * Tile + threadIdx.x, col = blockIdx.y * Tile + threadIdx.y;
  if (row >= m || col >= n)
    return;
  T a = alpha.get(), b = beta.get();
  long long ia = ta ? col + row * (long long)lda : row + col * (long long)lda;
  long long ib = tb ? col + row * (long long)ldb : row + col * (long long)ldb;
  T va = a == T(0) ? T(0) : a * A[ia];
  T vb = b == T(0) ? T(0) : b * B[ib];
  C[row + col * (long long)ldc] = va + vb;
}

template <class T>
mublasStatus_t geam(mublasHandle_t h, mublasOperation_t transa, mublasOperation_t transb, int m,
                    int n, const T *alpha, const T *A, int lda, const T *beta, const T *B,
                    int ldb, T *C, int ldc) {
  if (!h)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  bool ta = transa != MUBLAS_OP_N, tb = transb != MUBLAS_OP_N;
  int rowsA = ta ? n : m, rowsB = tb ? n : m;
  if (!validOp(transa) || !validOp(transb) || m < 0 || n < 0 ||
      lda < (rowsA > 1 ? rowsA : 1) || ldb < (rowsB > 1 ? rowsB : 1) || ldc < (m > 1 ? m : 1))
    return MUBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0)
    return MUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return MUBLAS_STATUS_INVALID_VALUE;
  dim3 grid((m + Tile - 1) / Tile, (n + Tile - 1) / Tile);
  geamKernel<T><<<grid, dim3(Tile, Tile), 0, h->stream>>>(ta, tb, m, n, scalar(h, alpha), A, lda,
                                                          scalar(h, beta), B, ldb, C, ldc);
  return launched();
}

// ---- GemmEx: mixed precision ----------------------------------------------------------------

__host__ __device__ unsigned elementBytes(musaDataType_t t) {
  switch (t) {
  case MUSA_R_8I: return 1;
  case MUSA_R_16F: case MUSA_R_16BF: return 2;
  case MUSA_R_32F: case MUSA_R_32I: return 4;
  default: return 8;
  }
}

// Every supported element type is exact in double.
__device__ double loadAny(const void *p, long long i, musaDataType_t t) {
  switch (t) {
  case MUSA_R_16F: return float(static_cast<const __half *>(p)[i]);
  case MUSA_R_16BF: return float(static_cast<const __mt_bfloat16 *>(p)[i]);
  case MUSA_R_32F: return static_cast<const float *>(p)[i];
  case MUSA_R_8I: return static_cast<const signed char *>(p)[i];
  case MUSA_R_32I: return static_cast<const int *>(p)[i];
  default: return static_cast<const double *>(p)[i];
  }
}

template <class Acc> __device__ void storeAny(void *p, long long i, musaDataType_t t, Acc v) {
  switch (t) {
  case MUSA_R_16F: static_cast<__half *>(p)[i] = __half(float(v)); break;
  case MUSA_R_16BF: static_cast<__mt_bfloat16 *>(p)[i] = __mt_bfloat16(float(v)); break;
  case MUSA_R_32F: static_cast<float *>(p)[i] = float(v); break;
  case MUSA_R_32I: static_cast<int *>(p)[i] = int(v); break;
  default: static_cast<double *>(p)[i] = double(v); break;
  }
}

struct ExOperands {
  const void *A, *B;
  void *C;
  musaDataType_t at, bt, ct;
  int lda, ldb, ldc;
  long long strideA, strideB, strideC; // elements
  const void *const *As;
  const void *const *Bs;
  void *const *Cs;
};

template <class Acc>
__global__ void gemmExKernel(bool ta, bool tb, int m, int n, int k, Scalar<Acc> alpha,
                             Scalar<Acc> beta, ExOperands x) {
  int z = blockIdx.z;
  const char *A = x.As ? (const char *)x.As[z]
                       : (const char *)x.A + z * x.strideA * elementBytes(x.at);
  const char *B = x.Bs ? (const char *)x.Bs[z]
                       : (const char *)x.B + z * x.strideB * elementBytes(x.bt);
  char *C = x.Cs ? (char *)x.Cs[z] : (char *)x.C + z * x.strideC * elementBytes(x.ct);
  int row = blockIdx.x * Tile + threadIdx.x, col = blockIdx.y * Tile + threadIdx.y;
  if (row >= m || col >= n)
    return;
  Acc s = 0;
  for (int i = 0; i < k; ++i)
    s += Acc(loadAny(A, ta ? row * (long long)x.lda + i : i * (long long)x.lda + row, x.at)) *
         Acc(loadAny(B, tb ? i * (long long)x.ldb + col : col * (long long)x.ldb + i, x.bt));
  Acc a = alpha.get(), b = beta.get();
  long long at = col * (long long)x.ldc + row;
  storeAny(C, at, x.ct, b == Acc(0) ? a * s : a * s + b * Acc(loadAny(C, at, x.ct)));
}

// The type combinations cuBLAS's GemmEx takes, real ones.
bool exSupported(mublasComputeType_t c, musaDataType_t a, musaDataType_t b, musaDataType_t t) {
  if (a != b)
    return false;
  switch (c) {
  case MUBLAS_COMPUTE_16F:
  case MUBLAS_COMPUTE_16F_PEDANTIC:
    return a == MUSA_R_16F && t == MUSA_R_16F;
  case MUBLAS_COMPUTE_32F:
  case MUBLAS_COMPUTE_32F_PEDANTIC:
    return (a == MUSA_R_16F && (t == MUSA_R_16F || t == MUSA_R_32F)) ||
           (a == MUSA_R_16BF && (t == MUSA_R_16BF || t == MUSA_R_32F)) ||
           (a == MUSA_R_32F && t == MUSA_R_32F) || (a == MUSA_R_8I && t == MUSA_R_32F);
  case MUBLAS_COMPUTE_32F_FAST_16F:
  case MUBLAS_COMPUTE_32F_FAST_16BF:
  case MUBLAS_COMPUTE_32F_FAST_TF32:
    return a == MUSA_R_32F && t == MUSA_R_32F;
  case MUBLAS_COMPUTE_64F:
  case MUBLAS_COMPUTE_64F_PEDANTIC:
    return a == MUSA_R_64F && t == MUSA_R_64F;
  case MUBLAS_COMPUTE_32I:
  case MUBLAS_COMPUTE_32I_PEDANTIC:
    return a == MUSA_R_8I && t == MUSA_R_32I;
  }
  return false;
}

// alpha and beta as the compute type gives them (a half for 16F), as Acc.
template <class Acc>
Scalar<Acc> exScalar(mublasHandle_t h, mublasComputeType_t c, const void *p) {
  bool half = c == MUBLAS_COMPUTE_16F || c == MUBLAS_COMPUTE_16F_PEDANTIC;
  if (h->pointerMode == MUBLAS_POINTER_MODE_DEVICE)
    return half ? Scalar<Acc>{Acc(0), nullptr, static_cast<const __half *>(p)}
                : Scalar<Acc>{Acc(0), static_cast<const Acc *>(p)};
  return {half ? Acc(float(*static_cast<const __half *>(p))) : *static_cast<const Acc *>(p),
          nullptr};
}

template <class Acc>
mublasStatus_t launchEx(mublasHandle_t h, bool ta, bool tb, int m, int n, int k,
                        const void *alpha, const void *beta, mublasComputeType_t c,
                        int batchCount, ExOperands x) {
  for (int z0 = 0; z0 < batchCount; z0 += 65535) {
    ExOperands part = x;
    if (part.As)
      part.As += z0, part.Bs += z0, part.Cs += z0;
    else
      part.A = (const char *)part.A + z0 * part.strideA * elementBytes(part.at),
      part.B = (const char *)part.B + z0 * part.strideB * elementBytes(part.bt),
      part.C = (char *)part.C + z0 * part.strideC * elementBytes(part.ct);
    unsigned count = (unsigned)(batchCount - z0 < 65535 ? batchCount - z0 : 65535);
    dim3 grid((m + Tile - 1) / Tile, (n + Tile - 1) / Tile, count);
    gemmExKernel<Acc><<<grid, dim3(Tile, Tile), 0, h->stream>>>(
        ta, tb, m, n, k, exScalar<Acc>(h, c, alpha), exScalar<Acc>(h, c, beta), part);
    if (mublasStatus_t s = launched(); s != MUBLAS_STATUS_SUCCESS)
      return s;
  }
  return MUBLAS_STATUS_SUCCESS;
}

mublasStatus_t gemmEx(mublasHandle_t h, mublasOperation_t transa, mublasOperation_t transb,
                      int m, int n, int k, const void *alpha, const void *beta,
                      mublasComputeType_t c, int batchCount, ExOperands x) {
  if (!h)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  bool ta = transa != MUBLAS_OP_N, tb = transb != MUBLAS_OP_N;
  int rowsA = ta ? k : m, rowsB = tb ? n : k;
  if (!validOp(transa) || !validOp(transb) || m < 0 || n < 0 || k < 0 || batchCount < 0 ||
      x.lda < (rowsA > 1 ? rowsA : 1) || x.ldb < (rowsB > 1 ? rowsB : 1) ||
      x.ldc < (m > 1 ? m : 1))
    return MUBLAS_STATUS_INVALID_VALUE;
  if (!exSupported(c, x.at, x.bt, x.ct))
    return MUBLAS_STATUS_NOT_SUPPORTED;
  // Integer products want leading dimensions in multiples of 4 (an H200: ldb 33,
  // NOT_SUPPORTED; 32, computed).
  if ((c == MUBLAS_COMPUTE_32I || c == MUBLAS_COMPUTE_32I_PEDANTIC) &&
      (x.lda % 4 || x.ldb % 4 || x.ldc % 4))
    return MUBLAS_STATUS_NOT_SUPPORTED;
  if (m == 0 || n == 0 || batchCount == 0)
    return MUBLAS_STATUS_SUCCESS;
  if (!alpha || !beta)
    return MUBLAS_STATUS_INVALID_VALUE;
  if (c == MUBLAS_COMPUTE_64F || c == MUBLAS_COMPUTE_64F_PEDANTIC)
    return launchEx<double>(h, ta, tb, m, n, k, alpha, beta, c, batchCount, x);
  if (c == MUBLAS_COMPUTE_32I || c == MUBLAS_COMPUTE_32I_PEDANTIC)
    return launchEx<int>(h, ta, tb, m, n, k, alpha, beta, c, batchCount, x);
  return launchEx<float>(h, ta, tb, m, n, k, alpha, beta, c, batchCount, x);
}

// ---- Transfers ------------------------------------------------------------------------------

mublasStatus_t transfer(int rows, int cols, int elemSize, const void *src, long long srcStride,
                        void *dst, long long dstStride, bool vector, musaStream_t stream,
                        bool async) {
  if (rows < 0 || cols < 0 || elemSize <= 0 || (vector && (srcStride <= 0 || dstStride <= 0)))
    return MUBLAS_STATUS_INVALID_VALUE;
  // A leading dimension below the rows: cuBLAS answers MAPPING_ERROR (an H200, both sides).
  if (!vector && (srcStride < (rows > 1 ? rows : 1) || dstStride < (rows > 1 ? rows : 1)))
    return MUBLAS_STATUS_MAPPING_ERROR;
  if (rows == 0 || cols == 0)
    return MUBLAS_STATUS_SUCCESS;
  // A vector of n with increments: n rows of one element, pitches increment * elemSize; a
  // matrix: cols columns of rows elements, pitches lda * elemSize.
  size_t width = vector ? elemSize : size_t(rows) * elemSize;
  size_t height = vector ? rows : cols;
  musaError_t e = async ? musaMemcpy2DAsync(dst, dstStride * elemSize, src, srcStride * elemSize,
                                            width, height, musaMemcpyDefault, stream)
                        : musaMemcpy2D(dst, dstStride * elemSize, src, srcStride * elemSize,
                                       width, height, musaMemcpyDefault);
  if (e != musaSuccess) {
    musaGetLastError();
    return MUBLAS_STATUS_MAPPING_ERROR;
  }
  return MUBLAS_STATUS_SUCCESS;
}

} // namespace

extern "C" {

mublasStatus_t mublasCreate(mublasHandle_t *handle) {
  if (!handle)
    return MUBLAS_STATUS_INVALID_VALUE;
  if (musaFree(nullptr) != musaSuccess) { // the device must be usable
    musaGetLastError();
    return MUBLAS_STATUS_NOT_INITIALIZED;
  }
  *handle = new (std::nothrow) mublasContext{};
  return *handle ? MUBLAS_STATUS_SUCCESS : MUBLAS_STATUS_ALLOC_FAILED;
}

mublasStatus_t mublasDestroy(mublasHandle_t handle) {
  if (!handle)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  musaStreamSynchronize(handle->stream); // its work finishes first, as with cuBLAS
  musaFree(handle->scratch);
  musaGetLastError();
  delete handle;
  return MUBLAS_STATUS_SUCCESS;
}

mublasStatus_t mublasGetVersion(mublasHandle_t handle, int *version) {
  if (!handle)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if (!version)
    return MUBLAS_STATUS_INVALID_VALUE;
  *version = MUBLAS_VERSION;
  return MUBLAS_STATUS_SUCCESS;
}

const char *mublasGetStatusName(mublasStatus_t status) {
  switch (status) {
  case MUBLAS_STATUS_SUCCESS: return "MUBLAS_STATUS_SUCCESS";
  case MUBLAS_STATUS_NOT_INITIALIZED: return "MUBLAS_STATUS_NOT_INITIALIZED";
  case MUBLAS_STATUS_ALLOC_FAILED: return "MUBLAS_STATUS_ALLOC_FAILED";
  case MUBLAS_STATUS_INVALID_VALUE: return "MUBLAS_STATUS_INVALID_VALUE";
  case MUBLAS_STATUS_ARCH_MISMATCH: return "MUBLAS_STATUS_ARCH_MISMATCH";
  case MUBLAS_STATUS_MAPPING_ERROR: return "MUBLAS_STATUS_MAPPING_ERROR";
  case MUBLAS_STATUS_EXECUTION_FAILED: return "MUBLAS_STATUS_EXECUTION_FAILED";
  case MUBLAS_STATUS_INTERNAL_ERROR: return "MUBLAS_STATUS_INTERNAL_ERROR";
  case MUBLAS_STATUS_NOT_SUPPORTED: return "MUBLAS_STATUS_NOT_SUPPORTED";
  case MUBLAS_STATUS_LICENSE_ERROR: return "MUBLAS_STATUS_LICENSE_ERROR";
  }
  return "MUBLAS_STATUS_UNKNOWN";
}

const char *mublasGetStatusString(mublasStatus_t status) {
  switch (status) {
  case MUBLAS_STATUS_SUCCESS: return "success";
  case MUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
  case MUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
  case MUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
  case MUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
  case MUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
  case MUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
  case MUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
  case MUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
  case MUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
  }
  return "unknown error";
}

mublasStatus_t mublasSetStream(mublasHandle_t handle, musaStream_t stream) {
  if (!handle)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  return MUBLAS_STATUS_SUCCESS;
}

mublasStatus_t mublasGetStream(mublasHandle_t handle, musaStream_t *stream) {
  if (!handle)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if (!stream)
    return MUBLAS_STATUS_INVALID_VALUE;
  *stream = handle->stream;
  return MUBLAS_STATUS_SUCCESS;
}

mublasStatus_t mublasSetPointerMode(mublasHandle_t handle, mublasPointerMode_t mode) {
  if (!handle)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != MUBLAS_POINTER_MODE_HOST && mode != MUBLAS_POINTER_MODE_DEVICE)
    return MUBLAS_STATUS_INVALID_VALUE;
  handle->pointerMode = mode;
  return MUBLAS_STATUS_SUCCESS;
}

mublasStatus_t mublasGetPointerMode(mublasHandle_t handle, mublasPointerMode_t *mode) {
  if (!handle)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode)
    return MUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->pointerMode;
  return MUBLAS_STATUS_SUCCESS;
}

mublasStatus_t mublasSetMathMode(mublasHandle_t handle, mublasMath_t mode) {
  if (!handle)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if ((unsigned)mode > MUBLAS_TF32_TENSOR_OP_MATH)
    return MUBLAS_STATUS_INVALID_VALUE;
  handle->mathMode = mode; // recorded; every mode computes in the routine's own precision
  return MUBLAS_STATUS_SUCCESS;
}

mublasStatus_t mublasGetMathMode(mublasHandle_t handle, mublasMath_t *mode) {
  if (!handle)
    return MUBLAS_STATUS_NOT_INITIALIZED;
  if (!mode)
    return MUBLAS_STATUS_INVALID_VALUE;
  *mode = handle->mathMode;
  return MUBLAS_STATUS_SUCCESS;
}

mublasStatus_t mublasSetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
  return transfer(n, 1, elemSize, x, incx, y, incy, true, nullptr, false);
}
mublasStatus_t mublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy) {
  return transfer(n, 1, elemSize, x, incx, y, incy, true, nullptr, false);
}
mublasStatus_t mublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb) {
  return transfer(rows, cols, elemSize, A, lda, B, ldb, false, nullptr, false);
}
mublasStatus_t mublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb) {
  return transfer(rows, cols, elemSize, A, lda, B, ldb, false, nullptr, false);
}
mublasStatus_t mublasSetVectorAsync(int n, int elemSize, const void *x, int incx, void *y,
                                    int incy, musaStream_t stream) {
  return transfer(n, 1, elemSize, x, incx, y, incy, true, stream, true);
}
mublasStatus_t mublasGetVectorAsync(int n, int elemSize, const void *x, int incx, void *y,
                                    int incy, musaStream_t stream) {
  return transfer(n, 1, elemSize, x, incx, y, incy, true, stream, true);
}
mublasStatus_t mublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                    void *B, int ldb, musaStream_t stream) {
  return transfer(rows, cols, elemSize, A, lda, B, ldb, false, stream, true);
}
mublasStatus_t mublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                    void *B, int ldb, musaStream_t stream) {
  return transfer(rows, cols, elemSize, A, lda, B, ldb, false, stream, true);
}

mublasStatus_t mublasGemmEx(mublasHandle_t h, mublasOperation_t transa, mublasOperation_t transb,
                            int m, int n, int k, const void *alpha, const void *A,
                            musaDataType_t Atype, int lda, const void *B, musaDataType_t Btype,
                            int ldb, const void *beta, void *C, musaDataType_t Ctype, int ldc,
                            mublasComputeType_t computeType, mublasGemmAlgo_t) {
  return gemmEx(h, transa, transb, m, n, k, alpha, beta, computeType, 1,
                {A, B, C, Atype, Btype, Ctype, lda, ldb, ldc, 0, 0, 0, nullptr, nullptr, nullptr});
}

mublasStatus_t mublasGemmStridedBatchedEx(
    mublasHandle_t h, mublasOperation_t transa, mublasOperation_t transb, int m, int n, int k,
    const void *alpha, const void *A, musaDataType_t Atype, int lda, long long strideA,
    const void *B, musaDataType_t Btype, int ldb, long long strideB, const void *beta, void *C,
    musaDataType_t Ctype, int ldc, long long strideC, int batchCount,
    mublasComputeType_t computeType, mublasGemmAlgo_t) {
  return gemmEx(h, transa, transb, m, n, k, alpha, beta, computeType, batchCount,
                {A, B, C, Atype, Btype, Ctype, lda, ldb, ldc, strideA, strideB, strideC, nullptr,
                 nullptr, nullptr});
}

mublasStatus_t mublasGemmBatchedEx(mublasHandle_t h, mublasOperation_t transa,
                                   mublasOperation_t transb, int m, int n, int k,
                                   const void *alpha, const void *const Aarray[],
                                   musaDataType_t Atype, int lda, const void *const Barray[],
                                   musaDataType_t Btype, int ldb, const void *beta,
                                   void *const Carray[], musaDataType_t Ctype, int ldc,
                                   int batchCount, mublasComputeType_t computeType,
                                   mublasGemmAlgo_t) {
  if (batchCount > 0 && (!Aarray || !Barray || !Carray))
    return h ? MUBLAS_STATUS_INVALID_VALUE : MUBLAS_STATUS_NOT_INITIALIZED;
  return gemmEx(h, transa, transb, m, n, k, alpha, beta, computeType, batchCount,
                {nullptr, nullptr, nullptr, Atype, Btype, Ctype, lda, ldb, ldc, 0, 0, 0, Aarray,
                 Barray, Carray});
}

mublasStatus_t mublasGetProperty(libraryPropertyType type, int *value) {
  if (!value)
    return MUBLAS_STATUS_INVALID_VALUE;
  switch (type) {
  case MAJOR_VERSION: *value = MUBLAS_VER_MAJOR; return MUBLAS_STATUS_SUCCESS;
  case MINOR_VERSION: *value = MUBLAS_VER_MINOR; return MUBLAS_STATUS_SUCCESS;
  case PATCH_LEVEL: *value = MUBLAS_VER_PATCH; return MUBLAS_STATUS_SUCCESS;
  }
  return MUBLAS_STATUS_INVALID_VALUE;
}

#define MUBLAS_DEFINE_REAL(P, p, T)                                                               \
  mublasStatus_t mublas##P##axpy(mublasHandle_t h, int n, const T *alpha, const T *x, int incx, \
                                 T *y, int incy) {                                             \
    return axpy(h, n, alpha, x, incx, y, incy);                                                \
  }                                                                                            \
  mublasStatus_t mublas##P##scal(mublasHandle_t h, int n, const T *alpha, T *x, int incx) {    \
    return scal(h, n, alpha, x, incx);                                                         \
  }                                                                                            \
  mublasStatus_t mublas##P##copy(mublasHandle_t h, int n, const T *x, int incx, T *y,         \
                                 int incy) {                                                   \
    return copySwap(h, n, const_cast<T *>(x), incx, y, incy, false);                           \
  }                                                                                            \
  mublasStatus_t mublas##P##swap(mublasHandle_t h, int n, T *x, int incx, T *y, int incy) {    \
    return copySwap(h, n, x, incx, y, incy, true);                                             \
  }                                                                                            \
  mublasStatus_t mublas##P##dot(mublasHandle_t h, int n, const T *x, int incx, const T *y,     \
                                int incy, T *result) {                                         \
    return reduce(h, Reduce::Dot, n, x, incx, y, incy, result);                                \
  }                                                                                            \
  mublasStatus_t mublas##P##nrm2(mublasHandle_t h, int n, const T *x, int incx, T *result) {   \
    return reduce(h, Reduce::Nrm2, n, x, incx, x, incx, result);                               \
  }                                                                                            \
  mublasStatus_t mublas##P##asum(mublasHandle_t h, int n, const T *x, int incx, T *result) {   \
    return reduce(h, Reduce::Asum, n, x, incx, x, incx, result);                               \
  }                                                                                            \
  mublasStatus_t mublasI##p##amax(mublasHandle_t h, int n, const T *x, int incx, int *result) { \
    return reduce(h, Reduce::Amax, n, x, incx, x, incx, result);                               \
  }                                                                                            \
  mublasStatus_t mublasI##p##amin(mublasHandle_t h, int n, const T *x, int incx, int *result) { \
    return reduce(h, Reduce::Amin, n, x, incx, x, incx, result);                               \
  }                                                                                            \
  mublasStatus_t mublas##P##gemv(mublasHandle_t h, mublasOperation_t trans, int m, int n,      \
                                 const T *alpha, const T *A, int lda, const T *x, int incx,    \
                                 const T *beta, T *y, int incy) {                              \
    return gemv(h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);                        \
  }                                                                                            \
  mublasStatus_t mublas##P##gemm(mublasHandle_t h, mublasOperation_t transa,                   \
                                 mublasOperation_t transb, int m, int n, int k,               \
                                 const T *alpha, const T *A, int lda, const T *B, int ldb,     \
                                 const T *beta, T *C, int ldc) {                               \
    return gemm<T>(h, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, 1,                  \
                   {A, B, C, 0, 0, 0, nullptr, nullptr, nullptr});                             \
  }                                                                                            \
  mublasStatus_t mublas##P##gemmStridedBatched(                                                \
      mublasHandle_t h, mublasOperation_t transa, mublasOperation_t transb, int m, int n, int k, \
      const T *alpha, const T *A, int lda, long long strideA, const T *B, int ldb,             \
      long long strideB, const T *beta, T *C, int ldc, long long strideC, int batchCount) {    \
    return gemm<T>(h, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, batchCount,         \
                   {A, B, C, strideA, strideB, strideC, nullptr, nullptr, nullptr});           \
  }                                                                                            \
  mublasStatus_t mublas##P##gemmBatched(mublasHandle_t h, mublasOperation_t transa,            \
                                        mublasOperation_t transb, int m, int n, int k,         \
                                        const T *alpha, const T *const Aarray[], int lda,      \
                                        const T *const Barray[], int ldb, const T *beta,       \
                                        T *const Carray[], int ldc, int batchCount) {          \
    if (batchCount > 0 && (!Aarray || !Barray || !Carray))                                     \
      return h ? MUBLAS_STATUS_INVALID_VALUE : MUBLAS_STATUS_NOT_INITIALIZED;                  \
    return gemm<T>(h, transa, transb, m, n, k, alpha, lda, ldb, beta, ldc, batchCount,         \
                   {nullptr, nullptr, nullptr, 0, 0, 0, Aarray, Barray, Carray});              \
  }                                                                                            \
  mublasStatus_t mublas##P##geam(mublasHandle_t h, mublasOperation_t transa,                   \
                                 mublasOperation_t transb, int m, int n, const T *alpha,       \
                                 const T *A, int lda, const T *beta, const T *B, int ldb,      \
                                 T *C, int ldc) {                                              \
    return geam(h, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);                 \
  }
MUBLAS_DEFINE_REAL(S, s, float)
MUBLAS_DEFINE_REAL(D, d, double)
#undef MUBLAS_DEFINE_REAL

} // extern "C"
