// Kernels in a shared library built by musa_add_library, called from plain C++
// (host/host_kernel_library.cpp) through the launchers declared in vector_kernels.h.
#include "vector_kernels.h"

__global__ void polyKernel(const float *x, float *y, int n, float a, float b, float c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = (a * x[i] + b) * x[i] + c;
}

__global__ void dotKernel(const float *x, const float *y, int n, float *out) {
  __shared__ float s[256];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v += x[i] * y[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k)
      s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(out, s[0]);
}

musaError_t launchPolynomial(const float *x, float *y, int n, float a, float b, float c,
                             musaStream_t stream) {
  polyKernel<<<(n + 255) / 256, 256, 0, stream>>>(x, y, n, a, b, c);
  return musaGetLastError();
}

musaError_t launchDot(const float *x, const float *y, int n, float *out, musaStream_t stream) {
  musaError_t e = musaMemsetAsync(out, 0, sizeof(float), stream);
  if (e != musaSuccess)
    return e;
  dotKernel<<<32, 256, 0, stream>>>(x, y, n, out);
  return musaGetLastError();
}
