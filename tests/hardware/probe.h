// Shared by the hardware probes (compiled with nvcc on the device machine): SHOW prints one
// "case: error name" line and clears the error so the next case starts clean.
#pragma once

#include <cstdio>
#include <cuda_runtime.h>

#define SHOW(name, expr)                                                                     \
  do {                                                                                       \
    cudaError_t e_ = (expr);                                                                 \
    std::printf("%s: %s\n", name, cudaGetErrorName(e_));                                     \
    cudaGetLastError();                                                                      \
  } while (0)
