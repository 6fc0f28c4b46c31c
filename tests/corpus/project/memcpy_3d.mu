// 3D memory: musaMalloc3D gives a pitched volume, musaMemcpy3D copies a host volume in and out, a kernel indexes it through the pitch with a 3D launch, and musaMemset3D clears one slab.
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

__global__ void addIndex(musaPitchedPtr p, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < w && y < h && z < d) {
    char *slice = (char *)p.ptr + z * p.pitch * h;
    float *row = (float *)(slice + y * p.pitch);
    row[x] += x + 100 * y + 10000 * z;
  }
}

int main() {
  const int w = 40, h = 30, d = 20, n = w * h * d;
  float *host = (float *)malloc(n * sizeof(float)), *back = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    host[i] = 0.25f;
  musaExtent extent = make_musaExtent(w * sizeof(float), h, d);
  musaPitchedPtr dev;
  CHECK(musaMalloc3D(&dev, extent));
  musaMemcpy3DParms in = {};
  in.srcPtr = make_musaPitchedPtr(host, w * sizeof(float), w, h);
  in.dstPtr = dev;
  in.extent = extent;
  in.kind = musaMemcpyHostToDevice;
  CHECK(musaMemcpy3D(&in));
  dim3 block(8, 8, 4), grid((w + 7) / 8, (h + 7) / 8, (d + 3) / 4);
  addIndex<<<grid, block>>>(dev, w, h, d);
  CHECK(musaGetLastError());
  // Clear slab z = 5 (one slice of the volume).
  musaPitchedPtr slab = dev;
  slab.ptr = (char *)dev.ptr + 5 * dev.pitch * h;
  CHECK(musaMemset3D(slab, 0, make_musaExtent(w * sizeof(float), h, 1)));
  musaMemcpy3DParms out = {};
  out.srcPtr = dev;
  out.dstPtr = make_musaPitchedPtr(back, w * sizeof(float), w, h);
  out.extent = extent;
  out.kind = musaMemcpyDeviceToHost;
  CHECK(musaMemcpy3D(&out));
  int bad = 0;
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        float ref = z == 5 ? 0.0f : 0.25f + x + 100 * y + 10000 * z;
        bad += back[(z * h + y) * w + x] != ref;
      }
  bool ok = !bad && dev.pitch >= w * sizeof(float);
  CHECK(musaFree(dev.ptr));
  printf("memcpy_3d: %dx%dx%d volume, pitch %zu, %s\n", w, h, d, dev.pitch, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
