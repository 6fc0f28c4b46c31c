/* cublas_api.h - mublas.h under CUDA's names (cublasCreate, cublasSgemm, CUBLAS_OP_N, ...),
 * for host code written against cuBLAS's v2 API: the same subset (see mublas.h). Link with
 * -lcublas (or -lmublas). The _v2 spellings are there too. */
#ifndef MUSA_SIM_CUBLAS_API_H_
#define MUSA_SIM_CUBLAS_API_H_

#include "mublas.h"

typedef mublasStatus_t cublasStatus_t;
typedef mublasOperation_t cublasOperation_t;
typedef mublasPointerMode_t cublasPointerMode_t;
typedef mublasMath_t cublasMath_t;
typedef mublasHandle_t cublasHandle_t;
typedef struct mublasContext cublasContext;

#define CUBLAS_VER_MAJOR MUBLAS_VER_MAJOR
#define CUBLAS_VER_MINOR MUBLAS_VER_MINOR
#define CUBLAS_VER_PATCH MUBLAS_VER_PATCH
#define CUBLAS_VERSION MUBLAS_VERSION
#define CUBLAS_STATUS_SUCCESS MUBLAS_STATUS_SUCCESS
#define CUBLAS_STATUS_NOT_INITIALIZED MUBLAS_STATUS_NOT_INITIALIZED
#define CUBLAS_STATUS_ALLOC_FAILED MUBLAS_STATUS_ALLOC_FAILED
#define CUBLAS_STATUS_INVALID_VALUE MUBLAS_STATUS_INVALID_VALUE
#define CUBLAS_STATUS_ARCH_MISMATCH MUBLAS_STATUS_ARCH_MISMATCH
#define CUBLAS_STATUS_MAPPING_ERROR MUBLAS_STATUS_MAPPING_ERROR
#define CUBLAS_STATUS_EXECUTION_FAILED MUBLAS_STATUS_EXECUTION_FAILED
#define CUBLAS_STATUS_INTERNAL_ERROR MUBLAS_STATUS_INTERNAL_ERROR
#define CUBLAS_STATUS_NOT_SUPPORTED MUBLAS_STATUS_NOT_SUPPORTED
#define CUBLAS_STATUS_LICENSE_ERROR MUBLAS_STATUS_LICENSE_ERROR
#define CUBLAS_OP_N MUBLAS_OP_N
#define CUBLAS_OP_T MUBLAS_OP_T
#define CUBLAS_OP_C MUBLAS_OP_C
#define CUBLAS_POINTER_MODE_HOST MUBLAS_POINTER_MODE_HOST
#define CUBLAS_POINTER_MODE_DEVICE MUBLAS_POINTER_MODE_DEVICE
#define CUBLAS_DEFAULT_MATH MUBLAS_DEFAULT_MATH
#define CUBLAS_TENSOR_OP_MATH MUBLAS_TENSOR_OP_MATH
#define CUBLAS_PEDANTIC_MATH MUBLAS_PEDANTIC_MATH
#define CUBLAS_TF32_TENSOR_OP_MATH MUBLAS_TF32_TENSOR_OP_MATH

#define cublasCreate mublasCreate
#define cublasCreate_v2 mublasCreate
#define cublasDestroy mublasDestroy
#define cublasDestroy_v2 mublasDestroy
#define cublasGetVersion mublasGetVersion
#define cublasGetVersion_v2 mublasGetVersion
#define cublasGetStatusName mublasGetStatusName
#define cublasGetStatusString mublasGetStatusString
#define cublasSetStream mublasSetStream
#define cublasSetStream_v2 mublasSetStream
#define cublasGetStream mublasGetStream
#define cublasGetStream_v2 mublasGetStream
#define cublasSetPointerMode mublasSetPointerMode
#define cublasSetPointerMode_v2 mublasSetPointerMode
#define cublasGetPointerMode mublasGetPointerMode
#define cublasGetPointerMode_v2 mublasGetPointerMode
#define cublasSetMathMode mublasSetMathMode
#define cublasGetMathMode mublasGetMathMode
#define cublasSetVector mublasSetVector
#define cublasGetVector mublasGetVector
#define cublasSetMatrix mublasSetMatrix
#define cublasGetMatrix mublasGetMatrix
#define cublasSetVectorAsync mublasSetVectorAsync
#define cublasGetVectorAsync mublasGetVectorAsync
#define cublasSetMatrixAsync mublasSetMatrixAsync
#define cublasGetMatrixAsync mublasGetMatrixAsync
#define cublasSaxpy mublasSaxpy
#define cublasSaxpy_v2 mublasSaxpy
#define cublasSscal mublasSscal
#define cublasSscal_v2 mublasSscal
#define cublasScopy mublasScopy
#define cublasScopy_v2 mublasScopy
#define cublasSswap mublasSswap
#define cublasSswap_v2 mublasSswap
#define cublasSdot mublasSdot
#define cublasSdot_v2 mublasSdot
#define cublasSnrm2 mublasSnrm2
#define cublasSnrm2_v2 mublasSnrm2
#define cublasSasum mublasSasum
#define cublasSasum_v2 mublasSasum
#define cublasSgemv mublasSgemv
#define cublasSgemv_v2 mublasSgemv
#define cublasSgemm mublasSgemm
#define cublasSgemm_v2 mublasSgemm
#define cublasSgemmStridedBatched mublasSgemmStridedBatched
#define cublasSgemmStridedBatched_v2 mublasSgemmStridedBatched
#define cublasSgemmBatched mublasSgemmBatched
#define cublasSgemmBatched_v2 mublasSgemmBatched
#define cublasIsamax mublasIsamax
#define cublasIsamax_v2 mublasIsamax
#define cublasIsamin mublasIsamin
#define cublasIsamin_v2 mublasIsamin
#define cublasDaxpy mublasDaxpy
#define cublasDaxpy_v2 mublasDaxpy
#define cublasDscal mublasDscal
#define cublasDscal_v2 mublasDscal
#define cublasDcopy mublasDcopy
#define cublasDcopy_v2 mublasDcopy
#define cublasDswap mublasDswap
#define cublasDswap_v2 mublasDswap
#define cublasDdot mublasDdot
#define cublasDdot_v2 mublasDdot
#define cublasDnrm2 mublasDnrm2
#define cublasDnrm2_v2 mublasDnrm2
#define cublasDasum mublasDasum
#define cublasDasum_v2 mublasDasum
#define cublasDgemv mublasDgemv
#define cublasDgemv_v2 mublasDgemv
#define cublasDgemm mublasDgemm
#define cublasDgemm_v2 mublasDgemm
#define cublasDgemmStridedBatched mublasDgemmStridedBatched
#define cublasDgemmStridedBatched_v2 mublasDgemmStridedBatched
#define cublasDgemmBatched mublasDgemmBatched
#define cublasDgemmBatched_v2 mublasDgemmBatched
#define cublasIdamax mublasIdamax
#define cublasIdamax_v2 mublasIdamax
#define cublasIdamin mublasIdamin
#define cublasIdamin_v2 mublasIdamin

#endif /* MUSA_SIM_CUBLAS_API_H_ */
