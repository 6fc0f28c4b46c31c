// Matrix transpose, naive and through a 32x33 shared tile (the padding column avoids bank conflicts), 512x384 floats.
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

#define TILE 32
#define ROWS 8

__global__ void transposeNaive(float *out, const float *in, int width, int height) {
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height)
      out[x * height + y + j] = in[(y + j) * width + x];
}

__global__ void transposeTiled(float *out, const float *in, int width, int height) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; // transposed block offset
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < height && y + j < width)
      out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int width = 512, height = 384, n = width * height;
  float *h = (float *)malloc(n * sizeof(float)), *res = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  float *din, *dout;
  CHECK(musaMalloc(&din, n * sizeof(float)));
  CHECK(musaMalloc(&dout, n * sizeof(float)));
  CHECK(musaMemcpy(din, h, n * sizeof(float), musaMemcpyHostToDevice));
  dim3 grid(width / TILE, height / TILE), block(TILE, ROWS);
  int bad = 0;
  for (int variant = 0; variant < 2; ++variant) {
    CHECK(musaMemset(dout, 0, n * sizeof(float)));
    if (variant == 0)
      transposeNaive<<<grid, block>>>(dout, din, width, height);
    else
      transposeTiled<<<grid, block>>>(dout, din, width, height);
    CHECK(musaGetLastError());
    CHECK(musaMemcpy(res, dout, n * sizeof(float), musaMemcpyDeviceToHost));
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        if (res[x * height + y] != h[y * width + x] && bad++ < 5)
          printf("variant %d: out[%d][%d] wrong\n", variant, x, y);
  }
  printf("transpose_padded: %dx%d naive and tiled, %s\n", width, height, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
