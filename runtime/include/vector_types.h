/* vector_types.h - float4, int2, dim3 and the other vector types under the header name CUDA
 * code includes; the definitions are musa_vector_types.h's. */
#pragma once
#include "musa_vector_types.h"
