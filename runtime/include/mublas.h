/* mublas.h - a subset of muBLAS (CUDA's cublas_v2.h one-to-one; cublas_v2.h gives the same
 * under the cublas names; link with -lmublas or -lcublas): handles, streams, pointer and math
 * modes, vector and matrix transfers, and the single- and double-precision routines programs
 * use most: axpy, scal, copy, swap, dot, nrm2, asum, iamax, iamin, gemv, geam, gemm and its
 * batched and strided-batched forms, and GemmEx (half, bfloat16, int8 and mixed precisions). Matrices are column-major, as in BLAS. The routines run as
 * kernels of the virtual GPU on the handle's stream (sums in their own order, so results may
 * differ from cuBLAS's in the last bits). Not provided: complex types, BLAS-2 and BLAS-3
 * routines other than gemv, geam and gemm, Ex forms other than GemmEx's, and cuBLASLt. */
#ifndef MUBLAS_H_
#define MUBLAS_H_

#include <stddef.h>

#include "library_types.h"
#include "musa_runtime_api.h"

#define MUBLAS_VER_MAJOR 13
#define MUBLAS_VER_MINOR 1
#define MUBLAS_VER_PATCH 0
#define MUBLAS_VERSION (MUBLAS_VER_MAJOR * 10000 + MUBLAS_VER_MINOR * 100 + MUBLAS_VER_PATCH)

typedef enum {
  MUBLAS_STATUS_SUCCESS = 0,
  MUBLAS_STATUS_NOT_INITIALIZED = 1,
  MUBLAS_STATUS_ALLOC_FAILED = 3,
  MUBLAS_STATUS_INVALID_VALUE = 7,
  MUBLAS_STATUS_ARCH_MISMATCH = 8,
  MUBLAS_STATUS_MAPPING_ERROR = 11,
  MUBLAS_STATUS_EXECUTION_FAILED = 13,
  MUBLAS_STATUS_INTERNAL_ERROR = 14,
  MUBLAS_STATUS_NOT_SUPPORTED = 15,
  MUBLAS_STATUS_LICENSE_ERROR = 16
} mublasStatus_t;

typedef enum { MUBLAS_OP_N = 0, MUBLAS_OP_T = 1, MUBLAS_OP_C = 2 } mublasOperation_t;
typedef enum {
  MUBLAS_POINTER_MODE_HOST = 0,
  MUBLAS_POINTER_MODE_DEVICE = 1
} mublasPointerMode_t;
typedef enum {
  MUBLAS_DEFAULT_MATH = 0,
  MUBLAS_TENSOR_OP_MATH = 1,
  MUBLAS_PEDANTIC_MATH = 2,
  MUBLAS_TF32_TENSOR_OP_MATH = 3
} mublasMath_t;

/* mublasGemmEx's arithmetic: what it accumulates in (64F in double, 32F and its fast and
 * pedantic forms in float, 16F here in float too, 32I in int). */
typedef enum {
  MUBLAS_COMPUTE_16F = 64,
  MUBLAS_COMPUTE_16F_PEDANTIC = 65,
  MUBLAS_COMPUTE_32F = 68,
  MUBLAS_COMPUTE_32F_PEDANTIC = 69,
  MUBLAS_COMPUTE_32F_FAST_16F = 74,
  MUBLAS_COMPUTE_32F_FAST_16BF = 75,
  MUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  MUBLAS_COMPUTE_64F = 70,
  MUBLAS_COMPUTE_64F_PEDANTIC = 71,
  MUBLAS_COMPUTE_32I = 72,
  MUBLAS_COMPUTE_32I_PEDANTIC = 73
} mublasComputeType_t;

/* Algorithm hints: every one computes the same way here. */
typedef enum {
  MUBLAS_GEMM_DFALT = -1,
  MUBLAS_GEMM_DEFAULT = -1,
  MUBLAS_GEMM_ALGO0 = 0,
  MUBLAS_GEMM_ALGO23 = 23,
  MUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
  MUBLAS_GEMM_DFALT_TENSOR_OP = 99,
  MUBLAS_GEMM_ALGO0_TENSOR_OP = 100,
  MUBLAS_GEMM_ALGO15_TENSOR_OP = 115
} mublasGemmAlgo_t;

typedef struct mublasContext *mublasHandle_t;

#ifdef __cplusplus
extern "C" {
#endif

mublasStatus_t mublasCreate(mublasHandle_t *handle);
mublasStatus_t mublasDestroy(mublasHandle_t handle);
mublasStatus_t mublasGetVersion(mublasHandle_t handle, int *version);
const char *mublasGetStatusName(mublasStatus_t status);
const char *mublasGetStatusString(mublasStatus_t status);
mublasStatus_t mublasSetStream(mublasHandle_t handle, musaStream_t stream);
mublasStatus_t mublasGetStream(mublasHandle_t handle, musaStream_t *stream);
mublasStatus_t mublasSetPointerMode(mublasHandle_t handle, mublasPointerMode_t mode);
mublasStatus_t mublasGetPointerMode(mublasHandle_t handle, mublasPointerMode_t *mode);
mublasStatus_t mublasSetMathMode(mublasHandle_t handle, mublasMath_t mode);
mublasStatus_t mublasGetMathMode(mublasHandle_t handle, mublasMath_t *mode);

mublasStatus_t mublasSetVector(int n, int elemSize, const void *x, int incx, void *y, int incy);
mublasStatus_t mublasGetVector(int n, int elemSize, const void *x, int incx, void *y, int incy);
mublasStatus_t mublasSetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb);
mublasStatus_t mublasGetMatrix(int rows, int cols, int elemSize, const void *A, int lda, void *B,
                               int ldb);
mublasStatus_t mublasSetVectorAsync(int n, int elemSize, const void *x, int incx, void *y,
                                    int incy, musaStream_t stream);
mublasStatus_t mublasGetVectorAsync(int n, int elemSize, const void *x, int incx, void *y,
                                    int incy, musaStream_t stream);
mublasStatus_t mublasSetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                    void *B, int ldb, musaStream_t stream);
mublasStatus_t mublasGetMatrixAsync(int rows, int cols, int elemSize, const void *A, int lda,
                                    void *B, int ldb, musaStream_t stream);

#define MUBLAS_DECLARE_REAL(P, p, T)                                                              \
  mublasStatus_t mublas##P##axpy(mublasHandle_t h, int n, const T *alpha, const T *x, int incx, \
                                 T *y, int incy);                                              \
  mublasStatus_t mublas##P##scal(mublasHandle_t h, int n, const T *alpha, T *x, int incx);     \
  mublasStatus_t mublas##P##copy(mublasHandle_t h, int n, const T *x, int incx, T *y, int incy); \
  mublasStatus_t mublas##P##swap(mublasHandle_t h, int n, T *x, int incx, T *y, int incy);     \
  mublasStatus_t mublas##P##dot(mublasHandle_t h, int n, const T *x, int incx, const T *y,     \
                                int incy, T *result);                                          \
  mublasStatus_t mublas##P##nrm2(mublasHandle_t h, int n, const T *x, int incx, T *result);    \
  mublasStatus_t mublas##P##asum(mublasHandle_t h, int n, const T *x, int incx, T *result);    \
  mublasStatus_t mublasI##p##amax(mublasHandle_t h, int n, const T *x, int incx, int *result); \
  mublasStatus_t mublasI##p##amin(mublasHandle_t h, int n, const T *x, int incx, int *result); \
  mublasStatus_t mublas##P##gemv(mublasHandle_t h, mublasOperation_t trans, int m, int n,      \
                                 const T *alpha, const T *A, int lda, const T *x, int incx,    \
                                 const T *beta, T *y, int incy);                               \
  mublasStatus_t mublas##P##gemm(mublasHandle_t h, mublasOperation_t transa,                   \
                                 mublasOperation_t transb, int m, int n, int k,               \
                                 const T *alpha, const T *A, int lda, const T *B, int ldb,     \
                                 const T *beta, T *C, int ldc);                                \
  mublasStatus_t mublas##P##gemmStridedBatched(                                                \
      mublasHandle_t h, mublasOperation_t transa, mublasOperation_t transb, int m, int n, int k, \
      const T *alpha, const T *A, int lda, long long strideA, const T *B, int ldb,             \
      long long strideB, const T *beta, T *C, int ldc, long long strideC, int batchCount);     \
  mublasStatus_t mublas##P##gemmBatched(mublasHandle_t h, mublasOperation_t transa,            \
                                        mublasOperation_t transb, int m, int n, int k,         \
                                        const T *alpha, const T *const Aarray[], int lda,      \
                                        const T *const Barray[], int ldb, const T *beta,       \
                                        T *const Carray[], int ldc, int batchCount);             \
  mublasStatus_t mublas##P##geam(mublasHandle_t h, mublasOperation_t transa,                   \
                                 mublasOperation_t transb, int m, int n, const T *alpha,       \
                                 const T *A, int lda, const T *beta, const T *B, int ldb,      \
                                 T *C, int ldc);
MUBLAS_DECLARE_REAL(S, s, float)
MUBLAS_DECLARE_REAL(D, d, double)
#undef MUBLAS_DECLARE_REAL

/* C = alpha op(A) op(B) + beta C with A, B and C of the given types (16F, 16BF, 32F, 64F, 8I
 * and 32I in cuBLAS's combinations; others: MUBLAS_STATUS_NOT_SUPPORTED); alpha and beta are of
 * the compute type (float for the 16F ones too, as cuBLAS takes them for 32F). */
mublasStatus_t mublasGemmEx(mublasHandle_t h, mublasOperation_t transa, mublasOperation_t transb,
                            int m, int n, int k, const void *alpha, const void *A,
                            musaDataType_t Atype, int lda, const void *B, musaDataType_t Btype,
                            int ldb, const void *beta, void *C, musaDataType_t Ctype, int ldc,
                            mublasComputeType_t computeType, mublasGemmAlgo_t algo);
mublasStatus_t mublasGemmStridedBatchedEx(
    mublasHandle_t h, mublasOperation_t transa, mublasOperation_t transb, int m, int n, int k,
    const void *alpha, const void *A, musaDataType_t Atype, int lda, long long strideA,
    const void *B, musaDataType_t Btype, int ldb, long long strideB, const void *beta, void *C,
    musaDataType_t Ctype, int ldc, long long strideC, int batchCount,
    mublasComputeType_t computeType, mublasGemmAlgo_t algo);
mublasStatus_t mublasGemmBatchedEx(mublasHandle_t h, mublasOperation_t transa,
                                   mublasOperation_t transb, int m, int n, int k,
                                   const void *alpha, const void *const Aarray[],
                                   musaDataType_t Atype, int lda, const void *const Barray[],
                                   musaDataType_t Btype, int ldb, const void *beta,
                                   void *const Carray[], musaDataType_t Ctype, int ldc,
                                   int batchCount, mublasComputeType_t computeType,
                                   mublasGemmAlgo_t algo);
mublasStatus_t mublasGetProperty(libraryPropertyType type, int *value);

#ifdef __cplusplus
}
#endif

#endif /* MUBLAS_H_ */
