/* cublas_v2.h - cuBLAS's v2 API under CUDA's names: cublas_api.h (a subset, see mublas.h). */
#ifndef MUSA_SIM_CUBLAS_V2_H_
#define MUSA_SIM_CUBLAS_V2_H_

#include "cublas_api.h"

#endif /* MUSA_SIM_CUBLAS_V2_H_ */
