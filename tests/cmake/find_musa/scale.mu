#include "scale.h"

__global__ void scaleKernel(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= SCALE_BY;
}

void scaleOnDevice(float *device, int n) { scaleKernel<<<(n + 255) / 256, 256>>>(device, n); }
