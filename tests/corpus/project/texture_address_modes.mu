// Pitched memory to and from a CUDA array (musaMallocPitch, musaMemcpy2DToArray/FromArray), a 2D float
// texture with linear filtering and normalized coordinates under wrap, clamp and border addressing
// (checked against a host bilinear reference with the hardware's 1/256 filter weights), wrap with
// unnormalized coordinates (documented to act as clamp), a border colour, and a 3D array
// (musaMalloc3DArray, musaMemcpy3D, musaArrayGetInfo) read with point-sampled tex3D.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      printf("mismatch %s:%d: %s\n", __FILE__, __LINE__, #cond);       \
      ok = false;                                                      \
    }                                                                  \
  } while (0)

const int W = 16, H = 12;
__global__ void sample2D(musaTextureObject_t t, const float2 *coords, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, coords[i].x, coords[i].y);
}
__global__ void sample3D(musaTextureObject_t t, float *out, int w, int h, int d) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  if (x < w && y < h && z < d) out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

static float img[H][W];
enum Mode { WRAP, CLAMP, BORDER };
static float texel(int x, int y, Mode m, float border) {
  if (m == WRAP) {
    x = ((x % W) + W) % W;
    y = ((y % H) + H) % H;
  } else if (m == CLAMP) {
    x = x < 0 ? 0 : (x >= W ? W - 1 : x);
    y = y < 0 ? 0 : (y >= H ? H - 1 : y);
  } else if (x < 0 || x >= W || y < 0 || y >= H) {
    return border;
  }
  return img[y][x];
}
// Bilinear reference; coordinates in texels (unnormalized), weights cut to 1/256.
static float bilinear(float xt, float yt, Mode m, float border, float *spread) {
  float xb = xt - 0.5f, yb = yt - 0.5f;
  float fx = floorf(xb), fy = floorf(yb);
  int i = (int)fx, j = (int)fy;
  float a = roundf((xb - fx) * 256.0f) / 256.0f, b = roundf((yb - fy) * 256.0f) / 256.0f;
  float t00 = texel(i, j, m, border), t10 = texel(i + 1, j, m, border);
  float t01 = texel(i, j + 1, m, border), t11 = texel(i + 1, j + 1, m, border);
  float mx = fmaxf(fmaxf(t00, t10), fmaxf(t01, t11)), mn = fminf(fminf(t00, t10), fminf(t01, t11));
  *spread = mx - mn;
  return (1 - a) * (1 - b) * t00 + a * (1 - b) * t10 + (1 - a) * b * t01 + a * b * t11;
}

int main() {
  bool ok = true;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) img[y][x] = (float)((x * 7 + y * 13) % 17) + 0.25f * x;

  // Pitched buffer -> array -> pitched buffer.
  float *pitched, *pitched2;
  size_t pitch, pitch2;
  CHECK(musaMallocPitch((void **)&pitched, &pitch, W * sizeof(float), H));
  CHECK(musaMallocPitch((void **)&pitched2, &pitch2, W * sizeof(float), H));
  EXPECT(pitch >= W * sizeof(float) && pitch % 128 == 0);
  CHECK(musaMemcpy2D(pitched, pitch, img, W * sizeof(float), W * sizeof(float), H, musaMemcpyHostToDevice));
  musaChannelFormatDesc cd = musaCreateChannelDesc<float>();
  musaArray_t arr;
  CHECK(musaMallocArray(&arr, &cd, W, H));
  CHECK(musaMemcpy2DToArray(arr, 0, 0, pitched, pitch, W * sizeof(float), H, musaMemcpyDeviceToDevice));
  // Width in bytes beyond the array's row: invalid.
  EXPECT(musaMemcpy2DToArray(arr, 4, 0, pitched, pitch, W * sizeof(float), H, musaMemcpyDeviceToDevice) ==
         musaErrorInvalidValue);
  musaGetLastError();
  CHECK(musaMemset2D(pitched2, pitch2, 0, W * sizeof(float), H));
  CHECK(musaMemcpy2DFromArray(pitched2, pitch2, arr, 0, 0, W * sizeof(float), H, musaMemcpyDeviceToDevice));
  static float back[H][W];
  CHECK(musaMemcpy2D(back, W * sizeof(float), pitched2, pitch2, W * sizeof(float), H, musaMemcpyDeviceToHost));
  EXPECT(memcmp(back, img, sizeof img) == 0);
  // A sub-rectangle from the array into host memory.
  float sub[3][4];
  CHECK(musaMemcpy2DFromArray(sub, 4 * sizeof(float), arr, 5 * sizeof(float), 2, 4 * sizeof(float), 3,
                              musaMemcpyDeviceToHost));
  EXPECT(sub[0][0] == img[2][5] && sub[2][3] == img[4][8]);

  // Sample points: inside, on edges and outside [0,1).
  const int n = 64;
  float2 hc[n];
  for (int i = 0; i < n; ++i) {
    hc[i].x = -0.6f + 2.2f * (float)i / (n - 1) + 0.013f * (i % 5);
    hc[i].y = 1.4f - 1.9f * (float)((i * 37) % n) / (n - 1);
  }
  float2 *dc;
  float *dout, hout[n];
  CHECK(musaMalloc(&dc, sizeof hc));
  CHECK(musaMalloc(&dout, n * sizeof(float)));
  CHECK(musaMemcpy(dc, hc, sizeof hc, musaMemcpyHostToDevice));
  musaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypeArray;
  rd.res.array.array = arr;
  const Mode modes[3] = {WRAP, CLAMP, BORDER};
  const musaTextureAddressMode am[3] = {musaAddressModeWrap, musaAddressModeClamp, musaAddressModeBorder};
  const char *names[3] = {"wrap", "clamp", "border"};
  for (int m = 0; m < 3; ++m) {
    musaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = am[m];
    td.filterMode = musaFilterModeLinear;
    td.readMode = musaReadModeElementType;
    td.normalizedCoords = 1;
    float border = m == BORDER ? 2.5f : 0.0f;
    td.borderColor[0] = border;
    musaTextureObject_t t;
    CHECK(musaCreateTextureObject(&t, &rd, &td, nullptr));
    sample2D<<<1, n>>>(t, dc, dout, n);
    CHECK(musaGetLastError());
    CHECK(musaMemcpy(hout, dout, sizeof hout, musaMemcpyDeviceToHost));
    int bad = 0;
    float worst = 0;
    for (int i = 0; i < n; ++i) {
      float spread;
      float ref = bilinear(hc[i].x * W, hc[i].y * H, modes[m], border, &spread);
      float err = fabsf(hout[i] - ref);
      if (err > spread / 256.0f + 1e-4f) {
        if (bad < 3)
          printf("%s: (%f,%f) got %f want %f (spread %f)\n", names[m], hc[i].x, hc[i].y, hout[i], ref, spread);
        ++bad;
      }
      worst = fmaxf(worst, err);
    }
    printf("%-6s: %d of %d outside 1/256, worst %g\n", names[m], bad, n, worst);
    EXPECT(bad == 0);
    CHECK(musaDestroyTextureObject(t));
  }

  // Unnormalized coordinates with wrap: wrap is only supported with normalized coordinates, and
  // the documented fallback is clamp.
  {
    musaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = musaAddressModeWrap;
    td.filterMode = musaFilterModePoint;
    td.readMode = musaReadModeElementType;
    td.normalizedCoords = 0;
    musaTextureObject_t t;
    CHECK(musaCreateTextureObject(&t, &rd, &td, nullptr));
    float2 pc[4] = {{W + 3.5f, 2.5f}, {-4.5f, 1.5f}, {3.5f, H + 10.5f}, {5.5f, 6.5f}};
    CHECK(musaMemcpy(dc, pc, sizeof pc, musaMemcpyHostToDevice));
    sample2D<<<1, 4>>>(t, dc, dout, 4);
    CHECK(musaMemcpy(hout, dout, 4 * sizeof(float), musaMemcpyDeviceToHost));
    printf("unnormalized wrap: %g %g %g %g (clamp gives %g %g %g %g)\n", hout[0], hout[1], hout[2], hout[3],
           img[2][W - 1], img[1][0], img[H - 1][3], img[6][5]);
    EXPECT(hout[0] == img[2][W - 1] && hout[1] == img[1][0] && hout[2] == img[H - 1][3] && hout[3] == img[6][5]);
    CHECK(musaDestroyTextureObject(t));
  }

  // 3D array.
  const int X = 8, Y = 6, Z = 5;
  static float vol[Z][Y][X], vback[Z][Y][X];
  for (int z = 0; z < Z; ++z)
    for (int y = 0; y < Y; ++y)
      for (int x = 0; x < X; ++x) vol[z][y][x] = (float)(z * 100 + y * 10 + x);
  musaArray_t a3;
  CHECK(musaMalloc3DArray(&a3, &cd, make_musaExtent(X, Y, Z), 0));
  musaChannelFormatDesc gotDesc;
  musaExtent ext;
  unsigned int flags = 99;
  CHECK(musaArrayGetInfo(&gotDesc, &ext, &flags, a3));
  EXPECT(ext.width == X && ext.height == Y && ext.depth == Z && gotDesc.x == 32 &&
         gotDesc.f == musaChannelFormatKindFloat && flags == 0);
  CHECK(musaArrayGetInfo(&gotDesc, &ext, &flags, arr));
  EXPECT(ext.width == W && ext.height == H && ext.depth == 0);
  musaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_musaPitchedPtr(vol, X * sizeof(float), X, Y);
  p.dstArray = a3;
  p.extent = make_musaExtent(X, Y, Z);
  p.kind = musaMemcpyHostToDevice;
  CHECK(musaMemcpy3D(&p));
  memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypeArray;
  rd.res.array.array = a3;
  musaTextureDesc td3;
  memset(&td3, 0, sizeof td3);
  td3.addressMode[0] = td3.addressMode[1] = td3.addressMode[2] = musaAddressModeClamp;
  td3.filterMode = musaFilterModePoint;
  td3.readMode = musaReadModeElementType;
  musaTextureObject_t t3;
  CHECK(musaCreateTextureObject(&t3, &rd, &td3, nullptr));
  float *dvol;
  CHECK(musaMalloc(&dvol, sizeof vol));
  sample3D<<<Z, dim3(X, Y)>>>(t3, dvol, X, Y, Z);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(vback, dvol, sizeof vol, musaMemcpyDeviceToHost));
  EXPECT(memcmp(vback, vol, sizeof vol) == 0);
  // And the array copied back out with musaMemcpy3D.
  memset(vback, 0, sizeof vback);
  memset(&p, 0, sizeof p);
  p.srcArray = a3;
  p.dstPtr = make_musaPitchedPtr(vback, X * sizeof(float), X, Y);
  p.extent = make_musaExtent(X, Y, Z);
  p.kind = musaMemcpyDeviceToHost;
  CHECK(musaMemcpy3D(&p));
  EXPECT(memcmp(vback, vol, sizeof vol) == 0);

  CHECK(musaDestroyTextureObject(t3));
  CHECK(musaFreeArray(a3));
  CHECK(musaFreeArray(arr));
  CHECK(musaFree(pitched));
  CHECK(musaFree(pitched2));
  CHECK(musaFree(dc));
  CHECK(musaFree(dout));
  CHECK(musaFree(dvol));
  printf("texture_address_modes: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
