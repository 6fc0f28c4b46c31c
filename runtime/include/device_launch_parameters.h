/* device_launch_parameters.h - threadIdx, blockIdx, blockDim, gridDim and warpSize, which the
 * runtime header already declares; CUDA code includes this header by name. */
#pragma once
#include "musa_builtin_vars.h"
