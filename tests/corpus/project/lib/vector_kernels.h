// Launchers of the corpus's kernel library (lib/vector_kernels.mu), callable from plain C++.
#pragma once
#include <musa_runtime.h>

// y[i] = a*x[i]^2 + b*x[i] + c
musaError_t launchPolynomial(const float *x, float *y, int n, float a, float b, float c,
                             musaStream_t stream);
// *out = sum of x[i]*y[i] (out is device memory)
musaError_t launchDot(const float *x, const float *y, int n, float *out, musaStream_t stream);
