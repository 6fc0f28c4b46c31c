// 2D convolution (5x5 filter in __constant__ memory) over a 256x200 image, clamped borders, 2D grid of 16x16 blocks.
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

#define FW 5
#define FR (FW / 2)

__constant__ float c_filter[FW * FW];

__global__ void convolve2d(const float *img, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float acc = 0.0f;
  for (int fy = -FR; fy <= FR; ++fy)
    for (int fx = -FR; fx <= FR; ++fx) {
      int sx = min(max(x + fx, 0), w - 1), sy = min(max(y + fy, 0), h - 1);
      acc += c_filter[(fy + FR) * FW + fx + FR] * img[sy * w + sx];
    }
  out[y * w + x] = acc;
}

int main() {
  const int w = 256, h = 200;
  float filter[FW * FW];
  for (int i = 0; i < FW * FW; ++i)
    filter[i] = 1.0f / (FW * FW);
  filter[FR * FW + FR] += 0.5f;
  float *img = (float *)malloc(w * h * sizeof(float)), *res = (float *)malloc(w * h * sizeof(float));
  for (int i = 0; i < w * h; ++i)
    img[i] = (float)((i * 37) % 255) / 255.0f;
  CHECK(musaMemcpyToSymbol(c_filter, filter, sizeof filter));
  float *din, *dout;
  CHECK(musaMalloc(&din, w * h * sizeof(float)));
  CHECK(musaMalloc(&dout, w * h * sizeof(float)));
  CHECK(musaMemcpy(din, img, w * h * sizeof(float), musaMemcpyHostToDevice));
  dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  convolve2d<<<grid, block>>>(din, dout, w, h);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dout, w * h * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float ref = 0.0f;
      for (int fy = -FR; fy <= FR; ++fy)
        for (int fx = -FR; fx <= FR; ++fx) {
          int sx = x + fx < 0 ? 0 : (x + fx >= w ? w - 1 : x + fx);
          int sy = y + fy < 0 ? 0 : (y + fy >= h ? h - 1 : y + fy);
          ref += filter[(fy + FR) * FW + fx + FR] * img[sy * w + sx];
        }
      if (fabsf(ref - res[y * w + x]) > 1e-5f && bad++ < 5)
        printf("out(%d,%d) = %f, expected %f\n", x, y, res[y * w + x], ref);
    }
  printf("conv2d_constant: %dx%d image, %dx%d filter, %s\n", w, h, FW, FW, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
