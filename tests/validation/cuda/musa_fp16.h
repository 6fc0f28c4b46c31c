// Maps musa_fp16.h to CUDA's half-precision header for nvcc builds of the validation suites.
#pragma once
#include <cuda_fp16.h>
