// Mandelbrot set escape counts on a 512x384 grid (2D launch); device and host iterate the same float recurrence, and almost every pixel must agree (a contracted multiply-add may flip a pixel on the set's edge).
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

#define MAX_ITER 256

__host__ __device__ int escape(float cr, float ci) {
  float zr = 0.0f, zi = 0.0f;
  int it = 0;
  while (it < MAX_ITER && zr * zr + zi * zi <= 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    ++it;
  }
  return it;
}

__global__ void mandelbrot(int *counts, int w, int h, float x0, float y0, float dx, float dy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    counts[y * w + x] = escape(x0 + x * dx, y0 + y * dy);
}

int main() {
  const int w = 512, h = 384;
  const float x0 = -2.2f, y0 = -1.2f, dx = 3.2f / w, dy = 2.4f / h;
  int *res = (int *)malloc(w * h * sizeof(int)), *d;
  CHECK(musaMalloc(&d, w * h * sizeof(int)));
  dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  mandelbrot<<<grid, block>>>(d, w, h, x0, y0, dx, dy);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, d, w * h * sizeof(int), musaMemcpyDeviceToHost));
  int differ = 0;
  long inside = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int ref = escape(x0 + x * dx, y0 + y * dy);
      differ += res[y * w + x] != ref;
      inside += res[y * w + x] == MAX_ITER;
    }
  bool ok = differ <= w * h / 100 && inside > w * h / 10;
  printf("mandelbrot: %dx%d, %ld pixels inside, %d differ from host, %s\n", w, h, inside, differ,
         ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
