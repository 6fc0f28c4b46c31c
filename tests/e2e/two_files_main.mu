// A program of two .mu files: main launches a kernel defined in two_files_kernels.mu, and
// one of its own; each file carries its own fat binary.
#include "check.h"

void launchScale(float *data, float factor, int n); // in two_files_kernels.mu

__global__ void addOne(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] += 1.0f;
}

int main() {
  const int n = 1000;
  float h[n];
  for (int i = 0; i < n; ++i)
    h[i] = float(i);
  float *d;
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  CHECK_MUSA(musaMemcpy(d, h, sizeof h, musaMemcpyHostToDevice));
  launchScale(d, 3.0f, n);
  addOne<<<(n + 127) / 128, 128>>>(d, n);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    CHECK(h[i] == float(i) * 3.0f + 1.0f, "h[%d] = %f", i, h[i]);
  return finish("two_files");
}
