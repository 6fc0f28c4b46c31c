// 7-point 3D stencil on a 64x64x64 grid with a 3D grid of 8x8x8 blocks (threadIdx.z, blockIdx.z).
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void laplace3d(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= n || y >= n || z >= n)
    return;
  int i = (z * n + y) * n + x;
  if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = (in[i - 1] + in[i + 1] + in[i - n] + in[i + n] + in[i - n * n] + in[i + n * n]) / 6.0f;
}

int main() {
  const int n = 64, total = n * n * n;
  float *h = (float *)malloc(total * sizeof(float)), *res = (float *)malloc(total * sizeof(float));
  for (int i = 0; i < total; ++i)
    h[i] = (float)((i * 17) % 64);
  float *din, *dout;
  CHECK(musaMalloc(&din, total * sizeof(float)));
  CHECK(musaMalloc(&dout, total * sizeof(float)));
  CHECK(musaMemcpy(din, h, total * sizeof(float), musaMemcpyHostToDevice));
  dim3 block(8, 8, 8), grid(n / 8, n / 8, n / 8);
  laplace3d<<<grid, block>>>(din, dout, n);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dout, total * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        int i = (z * n + y) * n + x;
        float ref = h[i];
        if (!(x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1))
          ref = (h[i - 1] + h[i + 1] + h[i - n] + h[i + n] + h[i - n * n] + h[i + n * n]) / 6.0f;
        if (fabsf(ref - res[i]) > 1e-5f && bad++ < 5)
          printf("out(%d,%d,%d) = %f, expected %f\n", x, y, z, res[i], ref);
      }
  printf("stencil_3d: %d^3 grid, %s\n", n, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
