// Texture rules the first listing (tests/e2e/textures.h200.txt) left open, asked of the H200
// (listing: texture_rules.h200.txt, which the simulator's must equal but for the handle's value):
//   nvcc -O2 -arch=sm_90 -x cu -include tests/hardware/probes/musa_to_cuda.h \
//        tests/e2e/texture_rules.mu -o rules && ./rules
// 1. How many fractional bits a normalized coordinate keeps, by texture size: point samples
//    at float(i / W) and its neighbours 1..3 ulps either side, for several sizes W.
// 2. Filter weights: 2D and 3D textures whose texels are 0 except one corner at 1 give that
//    corner's weight directly, at pseudo-random coordinates.
// 3. Cubemap faces and coordinates; handle errors after destruction.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>


#define CHECK(x)                                                                             \
  do {                                                                                       \
    musaError_t e_ = (x);                                                                    \
    if (e_ != musaSuccess) {                                                                 \
      std::printf("FAIL %d %s\n", __LINE__, musaGetErrorName(e_));                           \
      return;                                                                                \
    }                                                                                        \
  } while (0)

__global__ void sample1D(musaTextureObject_t t, const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, x[i]);
}
__global__ void sample2D(musaTextureObject_t t, const float4 *p, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, p[i].x, p[i].y);
}
__global__ void sample3D(musaTextureObject_t t, const float4 *p, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float4>(t, p[i].x, p[i].y, p[i].z);
}
__global__ void sampleCube(musaTextureObject_t t, const float4 *p, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, p[i].x, p[i].y, p[i].z);
}

template <class In, class Out, class K>
std::vector<Out> run(K kernel, musaTextureObject_t t, const std::vector<In> &in) {
  In *d = nullptr;
  Out *o = nullptr;
  musaMalloc(&d, in.size() * sizeof(In));
  musaMalloc(&o, in.size() * sizeof(Out));
  musaMemcpy(d, in.data(), in.size() * sizeof(In), musaMemcpyHostToDevice);
  kernel<<<(int(in.size()) + 127) / 128, 128>>>(t, d, o, int(in.size()));
  std::vector<Out> out(in.size());
  musaMemcpy(out.data(), o, out.size() * sizeof(Out), musaMemcpyDeviceToHost);
  musaFree(d);
  musaFree(o);
  return out;
}

musaTextureObject_t texture(musaArray_t a, bool linear, bool normalized,
                            musaTextureAddressMode mode = musaAddressModeClamp) {
  musaResourceDesc rd;
  std::memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypeArray;
  rd.res.array.array = a;
  musaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = linear ? musaFilterModeLinear : musaFilterModePoint;
  td.readMode = musaReadModeElementType;
  td.normalizedCoords = normalized;
  musaTextureObject_t t = 0;
  musaCreateTextureObject(&t, &rd, &td, nullptr);
  return t;
}

struct Lcg {
  unsigned s = 777;
  float next(float lo, float hi) {
    s = s * 1664525u + 1013904223u;
    return lo + (hi - lo) * float(s >> 8) * (1.0f / 16777216.0f);
  }
};

void coordinateBits() {
  for (int w : {1, 3, 4, 5, 7, 64, 100, 1000, 4096, 65536}) {
    std::vector<float> texels(w);
    for (int i = 0; i < w; ++i)
      texels[i] = float(i);
    musaChannelFormatDesc cd = musaCreateChannelDesc<float>();
    musaArray_t a;
    CHECK(musaMallocArray(&a, &cd, w, 0));
    CHECK(musaMemcpy2DToArray(a, 0, 0, texels.data(), w * 4, w * 4, 1, musaMemcpyHostToDevice));
    musaTextureObject_t t = texture(a, false, true);
    std::vector<float> xs;
    for (int i : {1, 2, 3, w / 3, w / 2, w - 1}) {
      if (i <= 0 || i >= w)
        continue;
      float x = float(double(i) / w);
      float below = x, above = x;
      for (int k = 0; k < 3; ++k) {
        below = std::nextafter(below, -1.0f);
        above = std::nextafter(above, 2.0f);
      }
      for (float v = below; v <= above; v = std::nextafter(v, 2.0f))
        xs.push_back(v);
    }
    std::vector<float> got = run<float, float>(sample1D, t, xs);
    for (size_t k = 0; k < xs.size(); ++k)
      std::printf("coord W=%d x=%.9g (0x%08x) texel %g\n", w, xs[k],
                  *reinterpret_cast<unsigned *>(&xs[k]), got[k]);
    // Linear weights at normalized coordinates: the texture is the ramp 0..w-1.
    musaTextureObject_t l = texture(a, true, true);
    Lcg rng;
    std::vector<float> ls;
    for (int k = 0; k < 16; ++k)
      ls.push_back(rng.next(0.0f, 1.0f));
    got = run<float, float>(sample1D, l, ls);
    for (size_t k = 0; k < ls.size(); ++k)
      std::printf("linear W=%d x=%.9g (0x%08x) value %.9g\n", w, ls[k],
                  *reinterpret_cast<unsigned *>(&ls[k]), got[k]);
    musaDestroyTextureObject(t);
    musaDestroyTextureObject(l);
    musaFreeArray(a);
  }
}

void weights() {
  // 2D: a 2 x 2 float4 texture, channel c is 1 at corner c (x + 2y) and 0 elsewhere.
  std::vector<float4> quad(4, float4{0, 0, 0, 0});
  for (int c = 0; c < 4; ++c)
    (&quad[c].x)[c] = 1.0f;
  musaChannelFormatDesc cd = musaCreateChannelDesc<float4>();
  musaArray_t a;
  CHECK(musaMallocArray(&a, &cd, 2, 2));
  CHECK(musaMemcpy2DToArray(a, 0, 0, quad.data(), 32, 32, 2, musaMemcpyHostToDevice));
  musaTextureObject_t t = texture(a, true, false);
  Lcg rng;
  std::vector<float4> pts;
  for (int k = 0; k < 64; ++k)
    pts.push_back(float4{rng.next(0.5f, 1.5f), rng.next(0.5f, 1.5f), 0, 0});
  std::vector<float4> got = run<float4, float4>(sample2D, t, pts);
  for (size_t k = 0; k < pts.size(); ++k)
    std::printf("w2 x=%.9g y=%.9g: %.9g %.9g %.9g %.9g\n", pts[k].x, pts[k].y, got[k].x,
                got[k].y, got[k].z, got[k].w);
  musaDestroyTextureObject(t);
  musaFreeArray(a);
  // 3D: 2 x 2 x 2, two textures (corners 0-3 and 4-7, corner = x + 2y + 4z).
  for (int half = 0; half < 2; ++half) {
    std::vector<float4> cube(8, float4{0, 0, 0, 0});
    for (int c = 0; c < 4; ++c)
      (&cube[half * 4 + c].x)[c] = 1.0f;
    musaArray_t b;
    CHECK(musaMalloc3DArray(&b, &cd, make_musaExtent(2, 2, 2)));
    musaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcPtr = make_musaPitchedPtr(cube.data(), 32, 2, 2);
    p.dstArray = b;
    p.extent = make_musaExtent(2, 2, 2);
    p.kind = musaMemcpyHostToDevice;
    CHECK(musaMemcpy3D(&p));
    musaTextureObject_t u = texture(b, true, false);
    Lcg r3;
    pts.clear();
    for (int k = 0; k < 64; ++k)
      pts.push_back(float4{r3.next(0.5f, 1.5f), r3.next(0.5f, 1.5f), r3.next(0.5f, 1.5f), 0});
    got = run<float4, float4>(sample3D, u, pts);
    for (size_t k = 0; k < pts.size(); ++k)
      std::printf("w3 half=%d x=%.9g y=%.9g z=%.9g: %.9g %.9g %.9g %.9g\n", half, pts[k].x,
                  pts[k].y, pts[k].z, got[k].x, got[k].y, got[k].z, got[k].w);
    musaDestroyTextureObject(u);
    musaFreeArray(b);
  }
}

void cubemap() {
  const int w = 4;
  std::vector<float> faces(w * w * 6);
  for (int f = 0; f < 6; ++f)
    for (int y = 0; y < w; ++y)
      for (int x = 0; x < w; ++x)
        faces[(f * w + y) * w + x] = f * 100.0f + y * 10.0f + x;
  musaChannelFormatDesc cd = musaCreateChannelDesc<float>();
  musaArray_t a;
  CHECK(musaMalloc3DArray(&a, &cd, make_musaExtent(w, w, 6), musaArrayCubemap));
  musaMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcPtr = make_musaPitchedPtr(faces.data(), w * 4, w, w);
  p.dstArray = a;
  p.extent = make_musaExtent(w, w, 6);
  p.kind = musaMemcpyHostToDevice;
  CHECK(musaMemcpy3D(&p));
  musaTextureObject_t t = texture(a, false, true);
  std::vector<float4> dirs;
  const float v[] = {-1.0f, -0.6f, -0.1f, 0.3f, 0.8f, 1.0f};
  for (float a1 : v)
    for (float a2 : v)
      for (int face = 0; face < 6; ++face) {
        float major = face % 2 ? -1.0f : 1.0f;
        float4 d = {a1, a2, 0, 0};
        if (face / 2 == 0) d = {major, a1, a2, 0};
        if (face / 2 == 1) d = {a1, major, a2, 0};
        if (face / 2 == 2) d = {a1, a2, major, 0};
        dirs.push_back(d);
      }
  std::vector<float> got = run<float4, float>(sampleCube, t, dirs);
  for (size_t k = 0; k < dirs.size(); ++k)
    std::printf("cube dir=(%g %g %g): %g\n", dirs[k].x, dirs[k].y, dirs[k].z, got[k]);
  musaDestroyTextureObject(t);
  musaFreeArray(a);
}

void handles() {
  musaChannelFormatDesc cd = musaCreateChannelDesc<float>();
  musaArray_t a;
  CHECK(musaMallocArray(&a, &cd, 4, 4));
  musaTextureObject_t t = texture(a, false, false);
  std::printf("handle value %llu\n", (unsigned long long)t);
  std::printf("destroy: %s\n", musaGetErrorName(musaDestroyTextureObject(t)));
  musaResourceDesc rd;
  std::printf("resdesc after destroy: %s\n",
              musaGetErrorName(musaGetTextureObjectResourceDesc(&rd, t)));
  musaGetLastError();
  std::printf("destroy again: %s\n", musaGetErrorName(musaDestroyTextureObject(t)));
  musaGetLastError();
  std::printf("destroy never made: %s\n", musaGetErrorName(musaDestroyTextureObject(123456789)));
  musaGetLastError();
  musaSurfaceObject_t s = 0;
  std::memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypeArray;
  rd.res.array.array = a;
  std::printf("surface: %s\n", musaGetErrorName(musaCreateSurfaceObject(&s, &rd)));
  std::printf("destroy surface as texture: %s\n", musaGetErrorName(musaDestroyTextureObject(s)));
  musaGetLastError();
  std::printf("destroy surface: %s\n", musaGetErrorName(musaDestroySurfaceObject(s)));
  musaGetLastError();
  musaFreeArray(a);
}

int main() {
  coordinateBits();
  weights();
  cubemap();
  handles();
  std::printf("rules: done\n");
  return 0;
}
