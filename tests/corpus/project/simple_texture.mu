// Image rotation through a texture (the simpleTexture sample's shape): a 2D float array bound
// to a texture object with normalized coordinates, wrap addressing and bilinear filtering;
// each thread fetches the source pixel at its rotated coordinate. The host rotates the same
// image with its own bilinear filter; the GPU's filter weights are 8-bit fixed point, so the
// two may differ by a fraction of one grey level.
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

__global__ void transformKernel(float *out, int width, int height, float theta,
                                musaTextureObject_t tex) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float u = (float)x / (float)width - 0.5f, v = (float)y / (float)height - 0.5f;
  float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
  float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
  out[y * width + x] = tex2D<float>(tex, tu, tv);
}

static float wrapped(const float *img, int w, int h, int x, int y) {
  x = ((x % w) + w) % w;
  y = ((y % h) + h) % h;
  return img[y * w + x];
}

int main() {
  const int width = 256, height = 192;
  const float theta = 0.5f;
  float *image = (float *)malloc(width * height * sizeof(float));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      image[y * width + x] = (float)((x * 7 + y * 13) % 256) + 0.5f * (float)((x / 16 + y / 16) % 2);
  musaChannelFormatDesc desc = musaCreateChannelDesc(32, 0, 0, 0, musaChannelFormatKindFloat);
  musaArray_t array;
  CHECK(musaMallocArray(&array, &desc, width, height));
  CHECK(musaMemcpy2DToArray(array, 0, 0, image, width * sizeof(float), width * sizeof(float),
                            height, musaMemcpyHostToDevice));
  musaResourceDesc res = {};
  res.resType = musaResourceTypeArray;
  res.res.array.array = array;
  musaTextureDesc td = {};
  td.addressMode[0] = musaAddressModeWrap;
  td.addressMode[1] = musaAddressModeWrap;
  td.filterMode = musaFilterModeLinear;
  td.readMode = musaReadModeElementType;
  td.normalizedCoords = 1;
  musaTextureObject_t tex = 0;
  CHECK(musaCreateTextureObject(&tex, &res, &td, NULL));

  float *d_out;
  CHECK(musaMalloc(&d_out, width * height * sizeof(float)));
  dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  transformKernel<<<grid, block>>>(d_out, width, height, theta, tex);
  CHECK(musaGetLastError());
  float *out = (float *)malloc(width * height * sizeof(float));
  CHECK(musaMemcpy(out, d_out, width * height * sizeof(float), musaMemcpyDeviceToHost));

  float maxErr = 0.0f;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      float u = (float)x / (float)width - 0.5f, v = (float)y / (float)height - 0.5f;
      float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
      float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
      float fx = tu * width - 0.5f, fy = tv * height - 0.5f;
      int ix = (int)floorf(fx), iy = (int)floorf(fy);
      float a = fx - ix, b = fy - iy;
      float ref = (1 - a) * (1 - b) * wrapped(image, width, height, ix, iy) +
                  a * (1 - b) * wrapped(image, width, height, ix + 1, iy) +
                  (1 - a) * b * wrapped(image, width, height, ix, iy + 1) +
                  a * b * wrapped(image, width, height, ix + 1, iy + 1);
      maxErr = fmaxf(maxErr, fabsf(out[y * width + x] - ref));
    }
  CHECK(musaDestroyTextureObject(tex));
  CHECK(musaFreeArray(array));
  CHECK(musaFree(d_out));
  // Neighbouring pixels differ by up to 255 grey levels; 8-bit weights are off by at most
  // 1/512 of a neighbour difference per axis.
  bool ok = maxErr <= 1.5f;
  printf("simple_texture: %dx%d rotated by %.2f, max difference %.3f, %s\n", width, height,
         theta, maxErr, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
