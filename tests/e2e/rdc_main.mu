// Separate compilation (-rdc): kernels here call a __device__ function and read a __device__
// variable defined in rdc_lib.mu; the runtime links the two images when they load.
#include "check.h"

extern __device__ float scaleBy(float x, float factor);
extern __device__ int libraryBias;

__global__ void useLibrary(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = scaleBy(data[i], 3.0f) + libraryBias;
}

void runLibraryKernel(float *data, int n); // also in rdc_lib.mu

int main() {
  const int n = 300;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = float(i);
  float *d;
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  CHECK_MUSA(musaMemcpy(d, h, sizeof h, musaMemcpyHostToDevice));
  useLibrary<<<(n + 127) / 128, 128>>>(d, n);
  CHECK_MUSA(musaGetLastError());
  runLibraryKernel(d, n);
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    CHECK(h[i] == (float(i) * 3.0f + 7.0f) * 3.0f + 7.0f, "element %d: %f", i, h[i]);
  return finish("separate_compilation");
}
