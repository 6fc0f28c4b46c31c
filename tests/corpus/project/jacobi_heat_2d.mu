// Jacobi iterations of the 2D heat equation on a 128x128 plate with fixed hot and cold edges; the device and the host run the same 50 sweeps.
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

__global__ void jacobiStep(const float *u, float *v, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1)
    return;
  int i = y * nx + x;
  v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx]);
}

int main() {
  const int nx = 128, ny = 128, iters = 50, n = nx * ny;
  float *u = (float *)calloc(n, sizeof(float)), *v = (float *)calloc(n, sizeof(float));
  for (int x = 0; x < nx; ++x)
    u[x] = v[x] = 100.0f; // hot top edge
  for (int y = 0; y < ny; ++y)
    u[y * nx] = v[y * nx] = 50.0f; // warm left edge
  float *du, *dv;
  CHECK(musaMalloc(&du, n * sizeof(float)));
  CHECK(musaMalloc(&dv, n * sizeof(float)));
  CHECK(musaMemcpy(du, u, n * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dv, v, n * sizeof(float), musaMemcpyHostToDevice));
  dim3 block(16, 16), grid(nx / 16, ny / 16);
  for (int it = 0; it < iters; ++it) {
    jacobiStep<<<grid, block>>>(du, dv, nx, ny);
    float *t = du;
    du = dv;
    dv = t;
    for (int y = 1; y < ny - 1; ++y)
      for (int x = 1; x < nx - 1; ++x) {
        int i = y * nx + x;
        v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - nx] + u[i + nx]);
      }
    float *s = u;
    u = v;
    v = s;
  }
  CHECK(musaGetLastError());
  float *res = (float *)malloc(n * sizeof(float));
  CHECK(musaMemcpy(res, du, n * sizeof(float), musaMemcpyDeviceToHost));
  float maxErr = 0.0f;
  for (int i = 0; i < n; ++i)
    maxErr = fmaxf(maxErr, fabsf(res[i] - u[i]));
  bool ok = maxErr < 1e-3f;
  printf("jacobi_heat_2d: %dx%d, %d sweeps, u(8,8) = %.4f, max error %g, %s\n", nx, ny, iters,
         res[8 * nx + 8], maxErr, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
