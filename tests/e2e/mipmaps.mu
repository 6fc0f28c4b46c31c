// Mipmapped arrays and level-of-detail fetches, in the manner of the bindlessTexture sample:
// a chain of levels made by musaMallocMipmappedArray, each level reached with
// musaGetMipmappedArrayLevel and filled by a kernel that reads the level above through a
// texture and writes through a surface; then tex2DLod / tex2DGrad / tex2D on a texture object
// over the whole chain (point and linear mipmap filtering, bias, level clamps). Also the copies
// between arrays (musaMemcpy2DArrayToArray, musaMemcpyArrayToArray) and musaMemcpy3DPeer.
// Prints a listing of the fetched values (the same source builds as CUDA for the GPU).
#include "check.h"

#include <math.h>
#include <vector>

constexpr int W = 64, H = 32, Levels = 7; // 64x32 down to 1x1

// One level from the level above: the mean of each 2x2 block (a box filter, as the sample).
__global__ void downsample(musaTextureObject_t above, musaSurfaceObject_t level, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  float s = tex2D<float>(above, 2 * x, 2 * y) + tex2D<float>(above, 2 * x + 1, 2 * y) +
            tex2D<float>(above, 2 * x, 2 * y + 1) + tex2D<float>(above, 2 * x + 1, 2 * y + 1);
  surf2Dwrite(s * 0.25f, level, x * int(sizeof(float)), y);
}

// Fetches at the centre of the texture: mode 0 tex2DLod(level), 1 tex2DGrad(dx = (a, 0),
// dy = (0, a)), 2 tex2D.
__global__ void fetch(musaTextureObject_t tex, const float *arg, float *out, int n, int mode) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = arg[i];
  if (mode == 0)
    out[i] = tex2DLod<float>(tex, 0.5f, 0.5f, a);
  else if (mode == 1)
    out[i] = tex2DGrad<float>(tex, 0.5f, 0.5f, make_float2(a, 0.0f), make_float2(0.0f, a));
  else
    out[i] = tex2D<float>(tex, 0.5f, 0.5f);
}

static musaTextureObject_t levelTexture(musaArray_t level) {
  musaResourceDesc rd = {};
  rd.resType = musaResourceTypeArray;
  rd.res.array.array = level;
  musaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = musaAddressModeClamp;
  td.filterMode = musaFilterModePoint;
  td.readMode = musaReadModeElementType;
  musaTextureObject_t t = 0;
  CHECK_MUSA(musaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

static musaTextureObject_t chainTexture(musaMipmappedArray_t chain, musaTextureFilterMode mip,
                                        float bias, float minClamp, float maxClamp) {
  musaResourceDesc rd = {};
  rd.resType = musaResourceTypeMipmappedArray;
  rd.res.mipmap.mipmap = chain;
  musaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = musaAddressModeClamp;
  td.filterMode = musaFilterModePoint;
  td.readMode = musaReadModeElementType;
  td.normalizedCoords = 1;
  td.mipmapFilterMode = mip;
  td.mipmapLevelBias = bias;
  td.minMipmapLevelClamp = minClamp;
  td.maxMipmapLevelClamp = maxClamp;
  musaTextureObject_t t = 0;
  CHECK_MUSA(musaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

// Each fetch of `args` through `tex`, printed; checked against `want` (level values) if given.
static void listing(const char *what, musaTextureObject_t tex, int mode,
                    const std::vector<float> &args, const std::vector<float> &want) {
  int n = int(args.size());
  float *dArg, *dOut;
  CHECK_MUSA(musaMalloc(&dArg, n * sizeof(float)));
  CHECK_MUSA(musaMalloc(&dOut, n * sizeof(float)));
  CHECK_MUSA(musaMemcpy(dArg, args.data(), n * sizeof(float), musaMemcpyHostToDevice));
  fetch<<<1, 64>>>(tex, dArg, dOut, n, mode);
  CHECK_MUSA(musaGetLastError());
  std::vector<float> got(n);
  CHECK_MUSA(musaMemcpy(got.data(), dOut, n * sizeof(float), musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    printf("%s %g -> %.6f\n", what, args[i], got[i]);
    if (!want.empty())
      CHECK(fabsf(got[i] - want[i]) < 1e-4f, "%s %g: %.6f, want %.6f", what, args[i], got[i],
            want[i]);
  }
  musaFree(dArg);
  musaFree(dOut);
}

int main() {
  // ---- the chain: allocation, levels, errors ------------------------------------------------
  musaChannelFormatDesc desc = musaCreateChannelDesc<float>();
  musaMipmappedArray_t chain = nullptr;
  CHECK_MUSA(musaMallocMipmappedArray(&chain, &desc, make_musaExtent(W, H, 0), 12,
                                      musaArraySurfaceLoadStore));
  musaArray_t level[Levels] = {};
  for (int l = 0; l < Levels; ++l) {
    CHECK_MUSA(musaGetMipmappedArrayLevel(&level[l], chain, l));
    musaExtent e = {};
    musaChannelFormatDesc d = {};
    unsigned flags = 0;
    CHECK_MUSA(musaArrayGetInfo(&d, &e, &flags, level[l]));
    int w = W >> l > 0 ? W >> l : 1, h = H >> l > 0 ? H >> l : 1;
    printf("level %d: %zu x %zu\n", l, e.width, e.height);
    CHECK(e.width == size_t(w) && e.height == size_t(h) && e.depth == 0,
          "level %d is %zu x %zu x %zu, want %d x %d", l, e.width, e.height, e.depth, w, h);
    CHECK(d.x == 32 && d.f == musaChannelFormatKindFloat, "level %d's format", l);
  }
  musaArray_t beyond = nullptr;
  musaError_t e = musaGetMipmappedArrayLevel(&beyond, chain, Levels);
  printf("level %d of %d: %s\n", Levels, Levels, musaGetErrorName(e));
  CHECK(e == musaErrorInvalidValue, "a level past the chain: %s", musaGetErrorName(e));
  musaGetLastError();
  musaMipmappedArray_t none = nullptr;
  e = musaMallocMipmappedArray(&none, &desc, make_musaExtent(W, H, 0), 0, 0);
  printf("zero levels: %s\n", musaGetErrorName(e));
  CHECK(e == musaSuccess, "zero levels: %s", musaGetErrorName(e));
  musaGetLastError();
  if (none)
    CHECK_MUSA(musaFreeMipmappedArray(none));

  // ---- level 0 from the host; the others by kernels through textures and surfaces ----------
  std::vector<std::vector<float>> host(Levels);
  host[0].resize(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      host[0][y * W + x] = float((x * 7 + y * 13) % 32);
  CHECK_MUSA(musaMemcpy2DToArray(level[0], 0, 0, host[0].data(), W * sizeof(float),
                                 W * sizeof(float), H, musaMemcpyHostToDevice));
  for (int l = 1; l < Levels; ++l) {
    int w = W >> l, h = H >> l > 0 ? H >> l : 1, pw = W >> (l - 1);
    host[l].resize(w * h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const float *a = host[l - 1].data();
        int y1 = 2 * y + 1 < (H >> (l - 1) > 0 ? H >> (l - 1) : 1) ? 2 * y + 1 : 2 * y;
        host[l][y * w + x] = (a[2 * y * pw + 2 * x] + a[2 * y * pw + 2 * x + 1] +
                              a[y1 * pw + 2 * x] + a[y1 * pw + 2 * x + 1]) * 0.25f;
      }
    musaTextureObject_t above = levelTexture(level[l - 1]);
    musaResourceDesc rd = {};
    rd.resType = musaResourceTypeArray;
    rd.res.array.array = level[l];
    musaSurfaceObject_t surf = 0;
    CHECK_MUSA(musaCreateSurfaceObject(&surf, &rd));
    downsample<<<dim3((w + 7) / 8, (h + 7) / 8), dim3(8, 8)>>>(above, surf, w, h);
    CHECK_MUSA(musaDeviceSynchronize());
    musaDestroySurfaceObject(surf);
    musaDestroyTextureObject(above);
    std::vector<float> got(w * h);
    CHECK_MUSA(musaMemcpy2DFromArray(got.data(), w * sizeof(float), level[l], 0, 0,
                                     w * sizeof(float), h, musaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < w * h; ++i)
      wrong += got[i] != host[l][i];
    printf("level %d made by the kernel: %d of %d texels differ\n", l, wrong, w * h);
    CHECK(wrong == 0, "level %d: %d texels wrong", l, wrong);
  }
  printf("level means:");
  for (int l = 0; l < Levels; ++l)
    printf(" %.4f", host[l][0]);
  printf("\n");

  // ---- fetches over the chain: every level filled with 10 x its index ----------------------
  for (int l = 0; l < Levels; ++l) {
    int w = W >> l, h = H >> l > 0 ? H >> l : 1;
    std::vector<float> flat(w * h, 10.0f * l);
    CHECK_MUSA(musaMemcpy2DToArray(level[l], 0, 0, flat.data(), w * sizeof(float),
                                   w * sizeof(float), h, musaMemcpyHostToDevice));
  }
  // Linear mipmap filtering of levels 10 l: lambda cut to 1/256 (an explicit level) or
  // rounded to it (a gradient's log2).
  auto blend = [](float lambda, bool rounded) {
    lambda = fminf(fmaxf(lambda, 0.0f), float(Levels - 1));
    int q = int(floorf(lambda * 256.0f + (rounded ? 0.5f : 0.0f)));
    return 10.0f * float(q >> 8) + 10.0f * float(q & 255) / 256.0f;
  };
  std::vector<float> lods = {-1.0f, 0.0f, 0.25f, 0.5f, 1.0f, 1.5f, 2.7f, 3.3f, 6.0f, 9.0f};
  std::vector<float> linear;
  for (float l : lods)
    linear.push_back(blend(l, false));
  musaTextureObject_t lin = chainTexture(chain, musaFilterModeLinear, 0.0f, 0.0f, Levels - 1);
  listing("lod linear", lin, 0, lods, linear);
  // Point mipmap filtering: the nearest level, a half rounding up.
  std::vector<float> pointLods = {0.0f, 0.4f, 0.5f, 0.51f, 1.49f, 1.5f, 2.5f, 5.9f, 7.0f};
  std::vector<float> point = {0, 0, 10, 10, 10, 20, 30, 60, 60};
  musaTextureObject_t pt = chainTexture(chain, musaFilterModePoint, 0.0f, 0.0f, Levels - 1);
  listing("lod point", pt, 0, pointLods, point);
  // Bias and clamps: level + 1, then at least 2 and at most 4.
  musaTextureObject_t clamped = chainTexture(chain, musaFilterModeLinear, 1.0f, 2.0f, 4.0f);
  listing("lod biased", clamped, 0, {0.0f, 1.5f, 2.25f, 5.0f}, {20.0f, 25.0f, 32.5f, 40.0f});
  // maxMipmapLevelClamp left at 0: level 0 only.
  musaTextureObject_t flat = chainTexture(chain, musaFilterModeLinear, 0.0f, 0.0f, 0.0f);
  listing("lod unclamped", flat, 0, {0.0f, 3.0f}, {0.0f, 0.0f});
  // Gradients in normalized units of a 64x32 level 0: the longer axis (x) decides.
  std::vector<float> grads = {1.0f / 64, 2.0f / 64, 3.0f / 64, 8.0f / 64, 1.0f / 256};
  std::vector<float> gradWant;
  for (float g : grads)
    gradWant.push_back(blend(log2f(g * 64), true));
  listing("grad linear", lin, 1, grads, gradWant);
  listing("plain tex2D", lin, 2, {0.0f}, {0.0f});
  listing("plain tex2D biased", clamped, 2, {0.0f}, {20.0f});
  musaDestroyTextureObject(lin);
  musaDestroyTextureObject(pt);
  musaDestroyTextureObject(clamped);
  musaDestroyTextureObject(flat);

  // ---- copies between arrays ---------------------------------------------------------------
  musaArray_t copy = nullptr;
  CHECK_MUSA(musaMallocArray(&copy, &desc, 16, 8));
  CHECK_MUSA(musaMemcpy2DToArray(level[1], 0, 0, host[0].data(), W * sizeof(float),
                                 32 * sizeof(float), 16, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy2DArrayToArray(copy, 4, 1, level[1], 8, 2, 8 * sizeof(float), 5,
                                      musaMemcpyDeviceToDevice));
  std::vector<float> got(16 * 8, -1.0f), want(16 * 8, -1.0f);
  CHECK_MUSA(musaMemcpy2DFromArray(got.data(), 16 * sizeof(float), copy, 0, 0, 16 * sizeof(float),
                                   8, musaMemcpyDeviceToHost));
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 8; ++x)
      CHECK(got[(1 + y) * 16 + 1 + x] == host[0][(2 + y) * W + 2 + x],
            "2D array copy at (%d, %d): %g", x, y, got[(1 + y) * 16 + 1 + x]);
  e = musaMemcpy2DArrayToArray(copy, 0, 0, level[1], 0, 0, 17 * sizeof(float), 1);
  printf("2D array copy past a row: %s\n", musaGetErrorName(e));
  CHECK(e == musaErrorInvalidValue, "a row too long: %s", musaGetErrorName(e));
  musaGetLastError();
  e = musaMemcpy2DArrayToArray(copy, 0, 0, level[1], 0, 0, 4, 1, musaMemcpyHostToDevice);
  printf("2D array copy host to device: %s\n", musaGetErrorName(e));
  musaGetLastError();
  // The linear form runs row after row in each array: 20 floats from (3, 1) of level 1 (32
  // wide) to (10, 2) of `copy` (16 wide). (Deprecated: CUDA 13 no longer declares it.)
#ifndef __NVCC__
  CHECK_MUSA(musaMemcpyArrayToArray(copy, 10 * sizeof(float), 2, level[1], 3 * sizeof(float), 1,
                                    20 * sizeof(float)));
  CHECK_MUSA(musaMemcpy2DFromArray(got.data(), 16 * sizeof(float), copy, 0, 0, 16 * sizeof(float),
                                   8, musaMemcpyDeviceToHost));
  for (int k = 0; k < 20; ++k) {
    int from = 32 + 3 + k, to = 2 * 16 + 10 + k;
    CHECK(got[to] == host[0][from / 32 * W + from % 32], "linear array copy element %d: %g", k,
          got[to]);
  }
#endif
  musaFreeArray(copy);

  // ---- a 3D copy between devices (the same device where there is one) -----------------------
  int devices = 0;
  CHECK_MUSA(musaGetDeviceCount(&devices));
  int other = devices > 1 ? 1 : 0;
  musaExtent box = make_musaExtent(24 * sizeof(int), 6, 3);
  musaPitchedPtr src = {}, dst = {};
  CHECK_MUSA(musaMalloc3D(&src, box));
  CHECK_MUSA(musaSetDevice(other));
  CHECK_MUSA(musaMalloc3D(&dst, box));
  CHECK_MUSA(musaMemset3D(dst, 0, box));
  CHECK_MUSA(musaSetDevice(0));
  std::vector<int> cube(24 * 6 * 3), back(24 * 6 * 3, -1);
  for (size_t i = 0; i < cube.size(); ++i)
    cube[i] = int(i * 3 + 1);
  musaMemcpy3DParms up = {};
  up.srcPtr = make_musaPitchedPtr(cube.data(), 24 * sizeof(int), 24, 6);
  up.dstPtr = src;
  up.extent = box;
  up.kind = musaMemcpyHostToDevice;
  CHECK_MUSA(musaMemcpy3D(&up));
  musaMemcpy3DPeerParms peer = {};
  peer.srcPtr = src;
  peer.srcDevice = 0;
  peer.dstPtr = dst;
  peer.dstDevice = other;
  peer.extent = make_musaExtent(8 * sizeof(int), 4, 2);
  peer.srcPos = make_musaPos(4 * sizeof(int), 1, 1);
  peer.dstPos = make_musaPos(0, 2, 0);
  CHECK_MUSA(musaMemcpy3DPeer(&peer));
  musaMemcpy3DParms down = {};
  down.srcPtr = dst;
  down.dstPtr = make_musaPitchedPtr(back.data(), 24 * sizeof(int), 24, 6);
  down.extent = box;
  down.kind = musaMemcpyDeviceToHost;
  CHECK_MUSA(musaMemcpy3D(&down));
  int wrong = 0;
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 24; ++x) {
        bool inside = x < 8 && y >= 2 && y < 6 && z < 2;
        int expect = inside ? cube[((z + 1) * 6 + (y - 2 + 1)) * 24 + x + 4] : 0;
        wrong += back[(z * 6 + y) * 24 + x] != expect;
      }
  printf("3D peer copy (device 0 to %d): %d of %zu ints differ\n", other, wrong, back.size());
  CHECK(wrong == 0, "3D peer copy: %d ints wrong", wrong);
  peer.dstDevice = 7;
  e = musaMemcpy3DPeer(&peer);
  printf("3D peer copy to device 7: %s\n", musaGetErrorName(e));
  CHECK(e == musaErrorInvalidDevice, "device 7: %s", musaGetErrorName(e));
  musaGetLastError();
  musaFree(src.ptr);
  musaFree(dst.ptr);

  // ---- freeing: a level goes with its chain -------------------------------------------------
  e = musaFreeArray(level[2]);
  printf("musaFreeArray of a level: %s\n", musaGetErrorName(e));
  CHECK(e == musaSuccess, "musaFreeArray of a level: %s", musaGetErrorName(e));
  musaGetLastError();
  CHECK_MUSA(musaFreeMipmappedArray(chain));
  return finish("mipmaps");
}
