// Maps musa_bf16.h to CUDA's bfloat16 header for nvcc builds of the validation suites.
#pragma once
#include <cuda_bf16.h>
