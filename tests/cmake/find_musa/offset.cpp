// A .cpp file holding a kernel: MUSA_SOURCE_PROPERTY_FORMAT OBJ makes mcc compile it.
#include "scale.h"

__global__ void offsetKernel(float *x, int n, float by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += by;
}

void offsetOnDevice(float *device, int n, float by) {
  offsetKernel<<<(n + 127) / 128, 128>>>(device, n, by);
}
