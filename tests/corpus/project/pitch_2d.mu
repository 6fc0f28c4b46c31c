// Pitched 2D memory: musaMallocPitch, musaMemcpy2D host-to-device and back with different pitches, a kernel walking rows by the pitch, musaMemset2D on a sub-rectangle, and a device-to-device musaMemcpy2D.
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

__global__ void addCoords(float *base, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float *row = (float *)((char *)base + y * pitch);
    row[x] += x + 1000.0f * y;
  }
}

int main() {
  const int w = 300, h = 123;
  float *host = (float *)malloc(w * h * sizeof(float)), *back = (float *)malloc(w * h * sizeof(float));
  for (int i = 0; i < w * h; ++i)
    host[i] = 0.5f;
  float *d, *d2;
  size_t pitch = 0, pitch2 = 0;
  CHECK(musaMallocPitch((void **)&d, &pitch, w * sizeof(float), h));
  CHECK(musaMallocPitch((void **)&d2, &pitch2, w * sizeof(float), h));
  bool ok = pitch >= w * sizeof(float) && pitch % sizeof(float) == 0;
  CHECK(musaMemcpy2D(d, pitch, host, w * sizeof(float), w * sizeof(float), h, musaMemcpyHostToDevice));
  dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  addCoords<<<grid, block>>>(d, pitch, w, h);
  CHECK(musaGetLastError());
  // Zero a 10-row, 64-byte-wide rectangle starting at row 5, column 4.
  CHECK(musaMemset2D((char *)d + 5 * pitch + 4 * sizeof(float), pitch, 0, 16 * sizeof(float), 10));
  CHECK(musaMemcpy2D(d2, pitch2, d, pitch, w * sizeof(float), h, musaMemcpyDeviceToDevice));
  CHECK(musaMemcpy2D(back, w * sizeof(float), d2, pitch2, w * sizeof(float), h, musaMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float ref = 0.5f + x + 1000.0f * y;
      if (y >= 5 && y < 15 && x >= 4 && x < 20)
        ref = 0.0f;
      if (back[y * w + x] != ref && bad++ < 5)
        printf("(%d,%d) = %f, expected %f\n", x, y, back[y * w + x], ref);
    }
  ok = ok && !bad;
  CHECK(musaFree(d));
  CHECK(musaFree(d2));
  printf("pitch_2d: %dx%d floats, pitch %zu bytes, %s\n", w, h, pitch, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
