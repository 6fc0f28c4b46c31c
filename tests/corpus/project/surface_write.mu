// Surfaces and textures on one array (the simpleSurfaceWrite sample's shape): a kernel writes
// a gradient image into a CUDA-style array through a surface object (surf2Dwrite, x in
// bytes), a second kernel reads it back through a texture object with point sampling, and a
// third looks values up in a linear-memory texture with tex1Dfetch. Everything is exact.
#include <musa_runtime.h>
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

__global__ void writeGradient(musaSurfaceObject_t surf, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    uchar4 px = make_uchar4(x & 255, y & 255, (x + y) & 255, 255);
    surf2Dwrite(px, surf, x * (int)sizeof(uchar4), y);
  }
}

__global__ void readBack(musaTextureObject_t tex, int width, int height, unsigned *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    uchar4 px = tex2D<uchar4>(tex, x + 0.5f, y + 0.5f);
    out[y * width + x] = px.x | px.y << 8 | px.z << 16 | (unsigned)px.w << 24;
  }
}

__global__ void lookup(musaTextureObject_t table, const int *keys, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tex1Dfetch<float>(table, keys[i]);
}

int main() {
  const int width = 300, height = 200;
  musaChannelFormatDesc desc = musaCreateChannelDesc<uchar4>();
  musaArray_t array;
  CHECK(musaMallocArray(&array, &desc, width, height, musaArraySurfaceLoadStore));
  musaResourceDesc res = {};
  res.resType = musaResourceTypeArray;
  res.res.array.array = array;
  musaSurfaceObject_t surf = 0;
  CHECK(musaCreateSurfaceObject(&surf, &res));
  musaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = musaAddressModeClamp;
  td.filterMode = musaFilterModePoint;
  td.readMode = musaReadModeElementType;
  musaTextureObject_t tex = 0;
  CHECK(musaCreateTextureObject(&tex, &res, &td, NULL));

  dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
  writeGradient<<<grid, block>>>(surf, width, height);
  unsigned *d_px;
  CHECK(musaMalloc(&d_px, width * height * sizeof(unsigned)));
  readBack<<<grid, block>>>(tex, width, height, d_px);
  CHECK(musaGetLastError());
  unsigned *px = (unsigned *)malloc(width * height * sizeof(unsigned));
  CHECK(musaMemcpy(px, d_px, width * height * sizeof(unsigned), musaMemcpyDeviceToHost));
  int wrong = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      unsigned want = (x & 255) | (y & 255) << 8 | ((x + y) & 255) << 16 | 255u << 24;
      wrong += px[y * width + x] != want;
    }

  const int entries = 1000, n = 4096;
  float *table = (float *)malloc(entries * sizeof(float));
  int *keys = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < entries; ++i)
    table[i] = (float)i * 0.25f - 7.0f;
  for (int i = 0; i < n; ++i)
    keys[i] = (i * 37) % (entries + 10); // some keys past the end read 0
  float *d_table, *d_out;
  int *d_keys;
  CHECK(musaMalloc(&d_table, entries * sizeof(float)));
  CHECK(musaMalloc(&d_keys, n * sizeof(int)));
  CHECK(musaMalloc(&d_out, n * sizeof(float)));
  CHECK(musaMemcpy(d_table, table, entries * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d_keys, keys, n * sizeof(int), musaMemcpyHostToDevice));
  musaResourceDesc lin = {};
  lin.resType = musaResourceTypeLinear;
  lin.res.linear.devPtr = d_table;
  lin.res.linear.desc = musaCreateChannelDesc<float>();
  lin.res.linear.sizeInBytes = entries * sizeof(float);
  musaTextureDesc ld = {};
  musaTextureObject_t tableTex = 0;
  CHECK(musaCreateTextureObject(&tableTex, &lin, &ld, NULL));
  lookup<<<(n + 255) / 256, 256>>>(tableTex, d_keys, n, d_out);
  float *out = (float *)malloc(n * sizeof(float));
  CHECK(musaMemcpy(out, d_out, n * sizeof(float), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    wrong += out[i] != (keys[i] < entries ? table[keys[i]] : 0.0f);

  CHECK(musaDestroyTextureObject(tableTex));
  CHECK(musaDestroyTextureObject(tex));
  CHECK(musaDestroySurfaceObject(surf));
  CHECK(musaFreeArray(array));
  CHECK(musaFree(d_px));
  CHECK(musaFree(d_table));
  CHECK(musaFree(d_keys));
  CHECK(musaFree(d_out));
  printf("surface_write: %dx%d image through a surface and a texture, %d lookups, %d wrong, %s\n",
         width, height, n, wrong, wrong ? "FAILED" : "PASSED");
  return wrong ? 1 : 0;
}
