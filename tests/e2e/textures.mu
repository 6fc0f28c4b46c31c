// Texture and surface objects, as a program sees them: every fetch form (tex1Dfetch, tex1D,
// tex2D, tex3D, the layered forms, tex2Dgather), both filter modes, the four address modes with
// and without normalized coordinates, both read modes on 8/16/32-bit integer, half and float
// channels, border colours, linear / pitched / array resources, surface reads and writes in
// every boundary mode, and the errors of the creation calls.
//
// `textures` prints every fetched value (floats as %.9g) and every error name; the same source
// builds with nvcc (-include tests/hardware/probes/musa_to_cuda.h) and its H200
// listing is tests/e2e/textures.h200.txt, which the simulator's listing must equal line for
// line. `textures trap` and `textures misaligned` end with a surface fault (sticky, so each
// in its own process).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(expr)                                                                          \
  do {                                                                                       \
    musaError_t e_ = (expr);                                                                 \
    if (e_ != musaSuccess) {                                                                 \
      std::printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #expr, musaGetErrorName(e_));   \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)
#define SHOW(name, expr)                                                                     \
  do {                                                                                       \
    musaError_t e_ = (expr);                                                                 \
    std::printf("%s: %s\n", name, musaGetErrorName(e_));                                     \
    musaGetLastError();                                                                      \
  } while (0)

// ---- device side -------------------------------------------------------------------------

template <class T>
__global__ void fetch1D(musaTextureObject_t t, const float *x, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<T>(t, x[i]);
}
template <class T>
__global__ void fetch2D(musaTextureObject_t t, const float4 *p, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<T>(t, p[i].x, p[i].y);
}
template <class T>
__global__ void fetch3D(musaTextureObject_t t, const float4 *p, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<T>(t, p[i].x, p[i].y, p[i].z);
}
template <class T>
__global__ void fetch1DLayered(musaTextureObject_t t, const float4 *p, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1DLayered<T>(t, p[i].x, int(p[i].w));
}
template <class T>
__global__ void fetch2DLayered(musaTextureObject_t t, const float4 *p, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<T>(t, p[i].x, p[i].y, int(p[i].w));
}
template <class T>
__global__ void fetchIndex(musaTextureObject_t t, const int *idx, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<T>(t, idx[i]);
}
__global__ void gather(musaTextureObject_t t, const float4 *p, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(t, p[i].x, p[i].y, int(p[i].w));
}
// The pointer form of a fetch (tex2D(&v, t, x, y)).
__global__ void fetch2DInto(musaTextureObject_t t, float x, float y, float *out) {
  tex2D(out, t, x, y);
}

__global__ void surfaceFill(musaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) surf2Dwrite(float(x + 10 * y), s, x * 4, y);
}
// Writes and reads at out-of-range coordinates under the zero and clamp boundary modes.
__global__ void surfaceEdges(musaSurfaceObject_t s, float *read) {
  surf2Dwrite(-1.0f, s, -4, 0, musaBoundaryModeZero);
  surf2Dwrite(-2.0f, s, 24, 1, musaBoundaryModeZero);
  surf2Dwrite(-3.0f, s, 0, 4, musaBoundaryModeZero);
  surf2Dwrite(-4.0f, s, -8, 2, musaBoundaryModeClamp);
  surf2Dwrite(-5.0f, s, 400, 3, musaBoundaryModeClamp);
  surf2Dwrite(-6.0f, s, 8, 100, musaBoundaryModeClamp);
  read[0] = surf2Dread<float>(s, -4, 0, musaBoundaryModeZero);
  read[1] = surf2Dread<float>(s, 4, 9, musaBoundaryModeZero);
  read[2] = surf2Dread<float>(s, -40, 1, musaBoundaryModeClamp);
  read[3] = surf2Dread<float>(s, 4000, 1, musaBoundaryModeClamp);
  read[4] = surf2Dread<float>(s, 12, 2);
  surf2Dread(&read[5], s, 8, 3);
}
__global__ void surface1D(musaSurfaceObject_t s, int w) {
  int x = threadIdx.x;
  if (x < w) {
    uchar4 v = surf1Dread<uchar4>(s, x * 4);
    surf1Dwrite(make_uchar4(v.w, v.z, v.y, v.x + 1), s, x * 4);
  }
}
__global__ void surface3D(musaSurfaceObject_t s) {
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  surf3Dwrite(int2{x + 10 * y, 100 * z}, s, x * 8, y, z);
}
__global__ void surfaceLayered(musaSurfaceObject_t s) {
  int x = threadIdx.x, y = threadIdx.y, layer = threadIdx.z;
  surf2DLayeredwrite(short(x - y * 7 + layer * 1000), s, x * 2, y, layer);
}
__global__ void surfaceTrap(musaSurfaceObject_t s, int x) { surf2Dwrite(1.0f, s, x, 0); }
__global__ void surfaceRead(musaSurfaceObject_t s, int x, float *out) {
  *out = surf2Dread<float>(s, x, 0);
}

// ---- host side ---------------------------------------------------------------------------

void show(float v) { std::printf(" %.9g", v); }
void show(float2 v) { std::printf(" (%.9g %.9g)", v.x, v.y); }
void show(float4 v) { std::printf(" (%.9g %.9g %.9g %.9g)", v.x, v.y, v.z, v.w); }
void show(int v) { std::printf(" %d", v); }
void show(int4 v) { std::printf(" (%d %d %d %d)", v.x, v.y, v.z, v.w); }
void show(uchar4 v) { std::printf(" (%d %d %d %d)", v.x, v.y, v.z, v.w); }
void show(unsigned short v) { std::printf(" %u", unsigned(v)); }

template <class T> void print(const char *name, const std::vector<T> &values) {
  for (size_t i = 0; i < values.size(); i += 8) {
    std::printf("%s %zu:", name, i);
    for (size_t j = i; j < i + 8 && j < values.size(); ++j)
      show(values[j]);
    std::printf("\n");
  }
}

template <class In> In *toDevice(const std::vector<In> &v) {
  In *d = nullptr;
  CHECK(musaMalloc(&d, v.size() * sizeof(In)));
  CHECK(musaMemcpy(d, v.data(), v.size() * sizeof(In), musaMemcpyHostToDevice));
  return d;
}

/// Runs `kernel` over the points and prints what it fetched.
template <class T, class In>
void run(const char *name, void (*kernel)(musaTextureObject_t, const In *, T *, int),
         musaTextureObject_t tex, const std::vector<In> &points) {
  int n = int(points.size());
  In *dp = toDevice(points);
  T *dout = nullptr;
  CHECK(musaMalloc(&dout, n * sizeof(T)));
  kernel<<<(n + 127) / 128, 128>>>(tex, dp, dout, n);
  CHECK(musaGetLastError());
  std::vector<T> out(n);
  CHECK(musaMemcpy(out.data(), dout, n * sizeof(T), musaMemcpyDeviceToHost));
  print(name, out);
  CHECK(musaFree(dp));
  CHECK(musaFree(dout));
}

musaTextureDesc textureDesc(musaTextureAddressMode mode, bool linear, bool normalized,
                            bool normalizedRead = false) {
  musaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
  td.filterMode = linear ? musaFilterModeLinear : musaFilterModePoint;
  td.readMode = normalizedRead ? musaReadModeNormalizedFloat : musaReadModeElementType;
  td.normalizedCoords = normalized;
  return td;
}

musaTextureObject_t arrayTexture(musaArray_t a, const musaTextureDesc &td) {
  musaResourceDesc rd;
  std::memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypeArray;
  rd.res.array.array = a;
  musaTextureObject_t t = 0;
  CHECK(musaCreateTextureObject(&t, &rd, &td, nullptr));
  return t;
}

template <class T> musaArray_t array2D(const std::vector<T> &v, int w, int h, unsigned flags = 0) {
  musaChannelFormatDesc cd = musaCreateChannelDesc<T>();
  musaArray_t a = nullptr;
  CHECK(musaMallocArray(&a, &cd, w, h, flags));
  CHECK(musaMemcpy2DToArray(a, 0, 0, v.data(), w * sizeof(T), w * sizeof(T), h ? h : 1,
                            musaMemcpyHostToDevice));
  return a;
}

template <class T>
musaArray_t array3D(const std::vector<T> &v, int w, int h, int d, unsigned flags,
                    musaChannelFormatDesc cd = musaCreateChannelDesc<T>()) {
  musaArray_t a = nullptr;
  CHECK(musaMalloc3DArray(&a, &cd, make_musaExtent(w, h, d), flags));
  musaMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcPtr = make_musaPitchedPtr(const_cast<T *>(v.data()), w * sizeof(T), w, h ? h : 1);
  p.dstArray = a;
  p.extent = make_musaExtent(w, h ? h : 1, d);
  p.kind = musaMemcpyHostToDevice;
  CHECK(musaMemcpy3D(&p));
  return a;
}

/// Deterministic pseudo-random coordinates in [lo, hi).
struct Lcg {
  unsigned s = 12345;
  float next(float lo, float hi) {
    s = s * 1664525u + 1013904223u;
    return lo + (hi - lo) * float(s >> 8) * (1.0f / 16777216.0f);
  }
};

const musaTextureAddressMode Modes[] = {musaAddressModeWrap, musaAddressModeClamp,
                                        musaAddressModeMirror, musaAddressModeBorder};
const char *ModeNames[] = {"wrap", "clamp", "mirror", "border"};

void filtering() {
  // Linear weights: a sweep in 1/128 steps over six texels (and past both ends).
  std::vector<float> ramp = {0.0f, 1.0f, 2.0f, 1000.3f, -7.25f, 1e-3f};
  musaArray_t a = array2D(ramp, 6, 0);
  musaTextureObject_t t = arrayTexture(a, textureDesc(musaAddressModeClamp, true, false));
  std::vector<float> xs;
  for (int k = -64; k < 6 * 128 + 64; ++k)
    xs.push_back(k / 128.0f);
  run("weights", fetch1D<float>, t, xs);
  xs.clear();
  for (int k = 1; k <= 24; ++k) {
    xs.push_back(1.5f + std::ldexp(1.0f, -k));
    xs.push_back(2.5f - std::ldexp(1.0f, -k));
  }
  run("fine-weights", fetch1D<float>, t, xs);
  CHECK(musaDestroyTextureObject(t));
  musaTextureObject_t p = arrayTexture(a, textureDesc(musaAddressModeClamp, false, false));
  xs.clear();
  for (int k = 1; k <= 24; ++k) {
    xs.push_back(2.0f - std::ldexp(1.0f, -k));
    xs.push_back(2.0f + std::ldexp(1.0f, -k));
  }
  run("point-edges", fetch1D<float>, p, xs);
  CHECK(musaDestroyTextureObject(p));
  CHECK(musaFreeArray(a));

  // One dimension, five texels, every address mode, point and linear, both coordinate kinds.
  std::vector<float> five = {0.25f, 1.25f, 2.25f, 3.25f, 4.25f};
  musaArray_t b = array2D(five, 5, 0);
  for (int m = 0; m < 4; ++m)
    for (int linear = 0; linear < 2; ++linear)
      for (int normalized = 0; normalized < 2; ++normalized) {
        musaTextureObject_t u = arrayTexture(b, textureDesc(Modes[m], linear, normalized));
        xs.clear();
        for (int k = -30; k <= 50; ++k)
          xs.push_back(normalized ? k / 20.0f : k / 4.0f);
        char name[64];
        std::snprintf(name, sizeof name, "1d-%s-%s-%s", ModeNames[m], linear ? "linear" : "point",
                      normalized ? "norm" : "texel");
        run(name, fetch1D<float>, u, xs);
        CHECK(musaDestroyTextureObject(u));
      }
  // Normalized coordinates on texel boundaries that are not exact in binary.
  musaTextureObject_t e = arrayTexture(b, textureDesc(musaAddressModeClamp, false, true));
  xs.clear();
  for (int k = 0; k <= 5; ++k) {
    float x = k / 5.0f;
    xs.push_back(x);
    xs.push_back(std::nextafter(x, -1.0f));
    xs.push_back(std::nextafter(x, 2.0f));
  }
  run("norm-edges", fetch1D<float>, e, xs);
  CHECK(musaDestroyTextureObject(e));
  CHECK(musaFreeArray(b));

  // Two dimensions, 4 x 3 texels, pseudo-random points.
  std::vector<float> grid;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      grid.push_back(r * 10.0f + c + 0.5f);
  musaArray_t g = array2D(grid, 4, 3);
  for (int m = 0; m < 4; ++m)
    for (int normalized = 0; normalized < 2; ++normalized) {
      musaTextureObject_t u = arrayTexture(g, textureDesc(Modes[m], true, normalized));
      Lcg rng;
      std::vector<float4> pts;
      for (int k = 0; k < 40; ++k) {
        float x = rng.next(-2.0f, 6.0f), y = rng.next(-2.0f, 5.0f);
        pts.push_back(normalized ? float4{x / 4, y / 3, 0, 0} : float4{x, y, 0, 0});
      }
      char name[64];
      std::snprintf(name, sizeof name, "2d-%s-linear-%s", ModeNames[m],
                    normalized ? "norm" : "texel");
      run(name, fetch2D<float>, u, pts);
      CHECK(musaDestroyTextureObject(u));
    }
  musaTextureObject_t pointer = arrayTexture(g, textureDesc(musaAddressModeClamp, true, false));
  float *dv = nullptr;
  CHECK(musaMalloc(&dv, sizeof(float)));
  fetch2DInto<<<1, 1>>>(pointer, 1.75f, 1.25f, dv);
  float v = 0;
  CHECK(musaMemcpy(&v, dv, sizeof v, musaMemcpyDeviceToHost));
  std::printf("2d-pointer-form: %.9g\n", v);
  CHECK(musaFree(dv));
  CHECK(musaDestroyTextureObject(pointer));
  CHECK(musaFreeArray(g));
}

void readModes() {
  std::vector<uchar4> u8 = {{0, 1, 127, 128}, {255, 64, 32, 16}, {200, 100, 50, 25}, {3, 2, 1, 0}};
  musaArray_t a = array2D(u8, 4, 0);
  std::vector<float> xs = {0.5f, 1.5f, 2.5f, 3.5f, 1.0f, 1.25f, 2.75f, -3.0f};
  musaTextureObject_t nf =
      arrayTexture(a, textureDesc(musaAddressModeClamp, true, false, true));
  run("uchar4-normalized-linear", fetch1D<float4>, nf, xs);
  musaTextureObject_t np =
      arrayTexture(a, textureDesc(musaAddressModeClamp, false, false, true));
  run("uchar4-normalized-point", fetch1D<float4>, np, xs);
  musaTextureObject_t el = arrayTexture(a, textureDesc(musaAddressModeClamp, false, false));
  run("uchar4-element", fetch1D<uchar4>, el, xs);
  for (musaTextureObject_t t : {nf, np, el})
    CHECK(musaDestroyTextureObject(t));
  CHECK(musaFreeArray(a));

  std::vector<signed char> s8 = {-128, -127, -1, 127};
  musaArray_t b = array2D(s8, 4, 0);
  musaTextureObject_t sn = arrayTexture(b, textureDesc(musaAddressModeClamp, true, false, true));
  run("char-normalized-linear", fetch1D<float>, sn, std::vector<float>{0.5f, 1.3f, 2.0f, 3.5f, 2.9f});
  CHECK(musaDestroyTextureObject(sn));
  CHECK(musaFreeArray(b));

  std::vector<unsigned short> u16 = {0, 65535, 1, 32768};
  musaArray_t c = array2D(u16, 4, 0);
  musaTextureObject_t un = arrayTexture(c, textureDesc(musaAddressModeClamp, true, false, true));
  xs.clear();
  for (int k = 0; k <= 24; ++k)
    xs.push_back(0.5f + k / 8.0f);
  run("ushort-normalized-linear", fetch1D<float>, un, xs);
  CHECK(musaDestroyTextureObject(un));
  musaTextureObject_t ue = arrayTexture(c, textureDesc(musaAddressModeClamp, false, false));
  run("ushort-element", fetch1D<unsigned short>, ue, std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f});
  CHECK(musaDestroyTextureObject(ue));
  CHECK(musaFreeArray(c));

  std::vector<short> s16 = {-32768, 32767, -1, 0};
  musaArray_t d = array2D(s16, 4, 0);
  musaTextureObject_t sh = arrayTexture(d, textureDesc(musaAddressModeClamp, true, false, true));
  run("short-normalized-linear", fetch1D<float>, sh,
      std::vector<float>{0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f, 3.5f});
  CHECK(musaDestroyTextureObject(sh));
  CHECK(musaFreeArray(d));

  // Half channels: stored as 16-bit floats, fetched (and filtered) as float.
  std::vector<unsigned short> halves = {0x3800, 0x3c01, 0xc000, 0x7bff}; // .5, 1+2^-10, -2, 65504
  musaChannelFormatDesc hd = musaCreateChannelDesc(16, 0, 0, 0, musaChannelFormatKindFloat);
  musaArray_t h = nullptr;
  CHECK(musaMallocArray(&h, &hd, 4, 0, 0));
  CHECK(musaMemcpy2DToArray(h, 0, 0, halves.data(), 8, 8, 1, musaMemcpyHostToDevice));
  musaTextureObject_t ht = arrayTexture(h, textureDesc(musaAddressModeClamp, true, false));
  xs.clear();
  for (int k = 0; k <= 28; ++k)
    xs.push_back(0.5f + k / 8.0f);
  run("half-linear", fetch1D<float>, ht, xs);
  CHECK(musaDestroyTextureObject(ht));
  CHECK(musaFreeArray(h));
}

void borders() {
  std::vector<float4> quad = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
  musaArray_t a = array2D(quad, 2, 2);
  for (int normalized = 0; normalized < 2; ++normalized) {
    musaTextureDesc td = textureDesc(musaAddressModeBorder, true, normalized);
    td.borderColor[0] = 0.5f;
    td.borderColor[1] = -1.0f;
    td.borderColor[2] = 2.0f;
    td.borderColor[3] = 0.125f;
    musaTextureObject_t t = arrayTexture(a, td);
    std::vector<float4> pts;
    for (float x : {-1.0f, -0.25f, 0.0f, 0.5f, 1.0f, 2.0f, 2.25f, 3.0f})
      for (float y : {-0.5f, 0.75f, 2.5f})
        pts.push_back(normalized ? float4{x / 2, y / 2, 0, 0} : float4{x, y, 0, 0});
    run(normalized ? "border-float4-norm" : "border-float4-texel", fetch2D<float4>, t, pts);
    CHECK(musaDestroyTextureObject(t));
  }
  CHECK(musaFreeArray(a));
}

void linearAndPitched() {
  std::vector<float> lin;
  for (int i = 0; i < 10; ++i)
    lin.push_back(i * 1.5f);
  float *d = toDevice(lin);
  musaResourceDesc rd;
  std::memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypeLinear;
  rd.res.linear.devPtr = d;
  rd.res.linear.desc = musaCreateChannelDesc<float>();
  rd.res.linear.sizeInBytes = lin.size() * sizeof(float);
  musaTextureDesc td = textureDesc(musaAddressModeClamp, false, false);
  musaTextureObject_t t = 0;
  CHECK(musaCreateTextureObject(&t, &rd, &td, nullptr));
  std::vector<int> idx = {-5, -1, 0, 1, 9, 10, 11, 1000};
  run("fetch-float", fetchIndex<float>, t, idx);
  CHECK(musaDestroyTextureObject(t));

  std::vector<int4> quads = {{1, -2, 3, -4}, {5, 6, 7, 8}, {-9, 10, -11, 12}};
  int4 *dq = toDevice(quads);
  rd.res.linear.devPtr = dq;
  rd.res.linear.desc = musaCreateChannelDesc<int4>();
  rd.res.linear.sizeInBytes = quads.size() * sizeof(int4);
  CHECK(musaCreateTextureObject(&t, &rd, &td, nullptr));
  run("fetch-int4", fetchIndex<int4>, t, std::vector<int>{0, 1, 2, 3, -1});
  CHECK(musaDestroyTextureObject(t));

  std::vector<unsigned char> bytes = {0, 51, 255, 128};
  unsigned char *db = toDevice(bytes);
  rd.res.linear.devPtr = db;
  rd.res.linear.desc = musaCreateChannelDesc<unsigned char>();
  rd.res.linear.sizeInBytes = bytes.size();
  musaTextureDesc nd = textureDesc(musaAddressModeClamp, false, false, true);
  CHECK(musaCreateTextureObject(&t, &rd, &nd, nullptr));
  run("fetch-uchar-normalized", fetchIndex<float>, t, std::vector<int>{0, 1, 2, 3, 4});
  CHECK(musaDestroyTextureObject(t));

  // Pitched 2D memory, 5 x 3 floats.
  float *pitched = nullptr;
  size_t pitch = 0;
  CHECK(musaMallocPitch(&pitched, &pitch, 5 * sizeof(float), 3));
  std::vector<float> rows;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c)
      rows.push_back(r * 100.0f + c * 3.0f);
  CHECK(musaMemcpy2D(pitched, pitch, rows.data(), 5 * sizeof(float), 5 * sizeof(float), 3,
                     musaMemcpyHostToDevice));
  std::memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = pitched;
  rd.res.pitch2D.desc = musaCreateChannelDesc<float>();
  rd.res.pitch2D.width = 5;
  rd.res.pitch2D.height = 3;
  rd.res.pitch2D.pitchInBytes = pitch;
  musaTextureDesc ld = textureDesc(musaAddressModeClamp, true, false);
  CHECK(musaCreateTextureObject(&t, &rd, &ld, nullptr));
  std::vector<float4> pts = {{0.5f, 0.5f, 0, 0}, {1.0f, 1.0f, 0, 0}, {4.9f, 2.2f, 0, 0},
                             {-1, 7, 0, 0},      {2.3f, 1.7f, 0, 0}, {5.5f, 0.6f, 0, 0}};
  run("pitch2d-linear", fetch2D<float>, t, pts);
  musaResourceDesc back;
  CHECK(musaGetTextureObjectResourceDesc(&back, t));
  musaTextureDesc tdBack;
  CHECK(musaGetTextureObjectTextureDesc(&tdBack, t));
  std::printf("pitch2d-desc: type %d width %zu height %zu pitch-matches %d filter %d\n",
              int(back.resType), back.res.pitch2D.width, back.res.pitch2D.height,
              int(back.res.pitch2D.pitchInBytes == pitch), int(tdBack.filterMode));
  CHECK(musaDestroyTextureObject(t));
  CHECK(musaFree(pitched));
  CHECK(musaFree(d));
  CHECK(musaFree(dq));
  CHECK(musaFree(db));
}

void layeredAnd3D() {
  std::vector<float> layers;
  for (int l = 0; l < 3; ++l)
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 3; ++c)
        layers.push_back(l * 100.0f + r * 10.0f + c);
  musaArray_t a = array3D(layers, 3, 2, 3, musaArrayLayered);
  musaTextureObject_t t = arrayTexture(a, textureDesc(musaAddressModeClamp, true, false));
  std::vector<float4> pts;
  for (int layer : {-1, 0, 1, 2, 3, 100})
    pts.push_back(float4{1.75f, 0.75f, 0, float(layer)});
  pts.push_back(float4{-2, 9, 0, 1});
  run("2d-layered", fetch2DLayered<float>, t, pts);
  CHECK(musaDestroyTextureObject(t));
  CHECK(musaFreeArray(a));

  std::vector<float> rows1;
  for (int l = 0; l < 4; ++l)
    for (int c = 0; c < 4; ++c)
      rows1.push_back(l * 10.0f + c);
  musaArray_t b = array3D(rows1, 4, 0, 4, musaArrayLayered);
  musaTextureObject_t u = arrayTexture(b, textureDesc(musaAddressModeWrap, true, true));
  pts.clear();
  for (int layer : {0, 1, 3, 4, -1})
    for (float x : {0.0f, 0.3f, 1.1f})
      pts.push_back(float4{x, 0, 0, float(layer)});
  run("1d-layered-wrap", fetch1DLayered<float>, u, pts);
  CHECK(musaDestroyTextureObject(u));
  CHECK(musaFreeArray(b));

  std::vector<float> cube;
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 3; ++x)
        cube.push_back(z * 9.0f + y * 3.0f + x + 0.125f * ((x * 7 + y * 5 + z * 3) % 4));
  musaArray_t c = array3D(cube, 3, 3, 3, 0);
  for (int m = 0; m < 4; ++m) {
    musaTextureObject_t v = arrayTexture(c, textureDesc(Modes[m], true, true));
    Lcg rng;
    pts.clear();
    for (int k = 0; k < 16; ++k) {
      float x = rng.next(-0.5f, 1.5f), y = rng.next(-0.5f, 1.5f), z = rng.next(-0.5f, 1.5f);
      pts.push_back(float4{x, y, z, 0});
    }
    char name[64];
    std::snprintf(name, sizeof name, "3d-%s-linear-norm", ModeNames[m]);
    run(name, fetch3D<float>, v, pts);
    CHECK(musaDestroyTextureObject(v));
  }
  CHECK(musaFreeArray(c));
}

void gathers() {
  std::vector<float2> g;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      g.push_back(float2{r * 3.0f + c, -(r * 3.0f + c)});
  musaArray_t a = array2D(g, 3, 3, musaArrayTextureGather);
  for (int normalized = 0; normalized < 2; ++normalized) {
    musaTextureObject_t t = arrayTexture(a, textureDesc(musaAddressModeClamp, false, normalized));
    std::vector<float4> pts;
    for (float x : {0.25f, 1.5f, 1.75f, 2.9f})
      for (int comp : {0, 1})
        pts.push_back(normalized ? float4{x / 3, 1.6f / 3, 0, float(comp)}
                                 : float4{x, 1.6f, 0, float(comp)});
    std::vector<float4> out(pts.size());
    float4 *dp = toDevice(pts), *dout = nullptr;
    CHECK(musaMalloc(&dout, out.size() * sizeof(float4)));
    gather<<<1, 64>>>(t, dp, dout, int(pts.size()));
    CHECK(musaMemcpy(out.data(), dout, out.size() * sizeof(float4), musaMemcpyDeviceToHost));
    print(normalized ? "gather-norm" : "gather-texel", out);
    CHECK(musaFree(dp));
    CHECK(musaFree(dout));
    CHECK(musaDestroyTextureObject(t));
  }
  CHECK(musaFreeArray(a));
}

musaSurfaceObject_t surfaceOf(musaArray_t a) {
  musaResourceDesc rd;
  std::memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypeArray;
  rd.res.array.array = a;
  musaSurfaceObject_t s = 0;
  CHECK(musaCreateSurfaceObject(&s, &rd));
  return s;
}

void surfaces() {
  std::vector<float> zeros(6 * 4, 0.0f);
  musaArray_t a = array2D(zeros, 6, 4, musaArraySurfaceLoadStore);
  musaSurfaceObject_t s = surfaceOf(a);
  surfaceFill<<<4, 6>>>(s, 6, 4);
  float *dr = nullptr;
  CHECK(musaMalloc(&dr, 6 * sizeof(float)));
  surfaceEdges<<<1, 1>>>(s, dr);
  CHECK(musaDeviceSynchronize());
  std::vector<float> read(6), back(24);
  CHECK(musaMemcpy(read.data(), dr, read.size() * sizeof(float), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy2DFromArray(back.data(), 24, a, 0, 0, 24, 4, musaMemcpyDeviceToHost));
  print("surface2d-reads", read);
  print("surface2d", back);
  musaResourceDesc rd;
  CHECK(musaGetSurfaceObjectResourceDesc(&rd, s));
  std::printf("surface-desc: type %d array-matches %d\n", int(rd.resType),
              int(rd.res.array.array == a));
  CHECK(musaDestroySurfaceObject(s));
  CHECK(musaFreeArray(a));
  CHECK(musaFree(dr));

  std::vector<uchar4> px = {{1, 2, 3, 4}, {10, 20, 30, 40}, {0, 255, 7, 254}};
  musaArray_t b = array2D(px, 3, 0, musaArraySurfaceLoadStore);
  musaSurfaceObject_t s1 = surfaceOf(b);
  surface1D<<<1, 3>>>(s1, 3);
  std::vector<uchar4> px2(3);
  CHECK(musaMemcpy2DFromArray(px2.data(), 12, b, 0, 0, 12, 1, musaMemcpyDeviceToHost));
  print("surface1d", px2);
  CHECK(musaDestroySurfaceObject(s1));
  CHECK(musaFreeArray(b));

  std::vector<int2> vol(3 * 2 * 2, int2{0, 0});
  musaArray_t c = array3D(vol, 3, 2, 2, musaArraySurfaceLoadStore);
  musaSurfaceObject_t s3 = surfaceOf(c);
  surface3D<<<1, dim3(3, 2, 2)>>>(s3);
  musaMemcpy3DParms p;
  std::memset(&p, 0, sizeof p);
  p.srcArray = c;
  p.dstPtr = make_musaPitchedPtr(vol.data(), 3 * sizeof(int2), 3, 2);
  p.extent = make_musaExtent(3, 2, 2);
  p.kind = musaMemcpyDeviceToHost;
  CHECK(musaMemcpy3D(&p));
  std::vector<int4> vol4;
  for (size_t i = 0; i + 1 < vol.size(); i += 2)
    vol4.push_back(int4{vol[i].x, vol[i].y, vol[i + 1].x, vol[i + 1].y});
  print("surface3d", vol4);
  CHECK(musaDestroySurfaceObject(s3));
  CHECK(musaFreeArray(c));

  std::vector<short> lay(4 * 2 * 3, 0);
  musaArray_t d = array3D(lay, 4, 2, 3, musaArrayLayered | musaArraySurfaceLoadStore);
  musaSurfaceObject_t sl = surfaceOf(d);
  surfaceLayered<<<1, dim3(4, 2, 3)>>>(sl);
  std::memset(&p, 0, sizeof p);
  p.srcArray = d;
  p.dstPtr = make_musaPitchedPtr(lay.data(), 4 * sizeof(short), 4, 2);
  p.extent = make_musaExtent(4, 2, 3);
  p.kind = musaMemcpyDeviceToHost;
  CHECK(musaMemcpy3D(&p));
  std::vector<int> lay32(lay.begin(), lay.end());
  print("surface-layered", lay32);
  CHECK(musaDestroySurfaceObject(sl));
  CHECK(musaFreeArray(d));
}

void errors() {
  musaChannelFormatDesc fd = musaCreateChannelDesc<float>();
  musaArray_t a = nullptr;
  CHECK(musaMallocArray(&a, &fd, 8, 8, 0));
  musaResourceDesc rd;
  std::memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypeArray;
  rd.res.array.array = a;
  musaTextureDesc td = textureDesc(musaAddressModeClamp, false, false);
  musaTextureObject_t t = 0;
  SHOW("create-null-out", musaCreateTextureObject(nullptr, &rd, &td, nullptr));
  SHOW("create-null-resdesc", musaCreateTextureObject(&t, nullptr, &td, nullptr));
  SHOW("create-null-texdesc", musaCreateTextureObject(&t, &rd, nullptr, nullptr));
  musaTextureDesc wrapTexel = textureDesc(musaAddressModeWrap, true, false);
  SHOW("create-wrap-unnormalized", musaCreateTextureObject(&t, &rd, &wrapTexel, nullptr));
  std::printf("handle-nonzero: %d\n", int(t != 0));
  SHOW("destroy", musaDestroyTextureObject(t));
  SHOW("destroy-zero", musaDestroyTextureObject(0));
  musaResourceDesc back;
  SHOW("resdesc-of-zero", musaGetTextureObjectResourceDesc(&back, 0));
  SHOW("surface-no-loadstore-flag", musaCreateSurfaceObject(nullptr, &rd));
  musaSurfaceObject_t s = 0;
  SHOW("surface-no-loadstore-flag", musaCreateSurfaceObject(&s, &rd));
  SHOW("destroy-surface-zero", musaDestroySurfaceObject(0));

  musaArray_t ia = nullptr;
  musaChannelFormatDesc id = musaCreateChannelDesc<int>();
  CHECK(musaMallocArray(&ia, &id, 8, 0, 0));
  rd.res.array.array = ia;
  musaTextureDesc linearInt = textureDesc(musaAddressModeClamp, true, false);
  SHOW("create-linear-int-element", musaCreateTextureObject(&t, &rd, &linearInt, nullptr));
  if (t) musaDestroyTextureObject(t);
  t = 0;
  musaTextureDesc linearIntNorm = textureDesc(musaAddressModeClamp, true, false, true);
  SHOW("create-linear-int32-normalized", musaCreateTextureObject(&t, &rd, &linearIntNorm, nullptr));
  if (t) musaDestroyTextureObject(t);
  t = 0;
  CHECK(musaFreeArray(ia));
  SHOW("create-freed-array", musaCreateTextureObject(&t, &rd, &td, nullptr));

  char *mem = nullptr;
  CHECK(musaMalloc(&mem, 1 << 16));
  std::memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypeLinear;
  rd.res.linear.devPtr = mem + 4;
  rd.res.linear.desc = fd;
  rd.res.linear.sizeInBytes = 1024;
  SHOW("linear-misaligned", musaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.linear.devPtr = mem;
  rd.res.linear.sizeInBytes = 0;
  SHOW("linear-size-zero", musaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.linear.sizeInBytes = size_t(1) << 40;
  SHOW("linear-size-huge", musaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.linear.devPtr = nullptr;
  rd.res.linear.sizeInBytes = 1024;
  SHOW("linear-null", musaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.linear.devPtr = mem;
  SHOW("surface-from-linear", musaCreateSurfaceObject(&s, &rd));

  std::memset(&rd, 0, sizeof rd);
  rd.resType = musaResourceTypePitch2D;
  rd.res.pitch2D.devPtr = mem;
  rd.res.pitch2D.desc = fd;
  rd.res.pitch2D.width = 5;
  rd.res.pitch2D.height = 3;
  rd.res.pitch2D.pitchInBytes = 20;
  SHOW("pitch2d-pitch-unaligned", musaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.pitch2D.pitchInBytes = 512;
  rd.res.pitch2D.devPtr = mem + 4;
  SHOW("pitch2d-ptr-misaligned", musaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.pitch2D.devPtr = mem;
  rd.res.pitch2D.width = 200;
  SHOW("pitch2d-width-past-pitch", musaCreateTextureObject(&t, &rd, &td, nullptr));
  CHECK(musaFree(mem));

  musaArray_t bad = nullptr;
  musaChannelFormatDesc three = musaCreateChannelDesc(32, 32, 32, 0, musaChannelFormatKindFloat);
  SHOW("array-three-channels", musaMallocArray(&bad, &three, 4, 0, 0));
  if (bad) musaFreeArray(bad);
  bad = nullptr;
  musaChannelFormatDesc mixed = musaCreateChannelDesc(8, 16, 0, 0, musaChannelFormatKindUnsigned);
  SHOW("array-mixed-channels", musaMallocArray(&bad, &mixed, 4, 0, 0));
  if (bad) musaFreeArray(bad);
  CHECK(musaFreeArray(a));

  musaDeviceProp prop;
  CHECK(musaGetDeviceProperties(&prop, 0));
  std::printf("props: textureAlignment %zu texturePitchAlignment %zu surfaceAlignment %zu "
              "maxTexture1D %d maxTexture2D %d %d maxTexture3D %d %d %d\n",
              prop.textureAlignment, prop.texturePitchAlignment, prop.surfaceAlignment,
              prop.maxTexture1D, prop.maxTexture2D[0], prop.maxTexture2D[1], prop.maxTexture3D[0],
              prop.maxTexture3D[1], prop.maxTexture3D[2]);
}

/// `trap`: an out-of-range surface write in the default (trap) mode; `misaligned`: a surface
/// read at a byte offset that is not a multiple of the element size.
int fault(bool misaligned) {
  std::vector<float> zeros(4 * 2, 0.0f);
  musaArray_t a = array2D(zeros, 4, 2, musaArraySurfaceLoadStore);
  musaSurfaceObject_t s = surfaceOf(a);
  float *out = nullptr;
  CHECK(musaMalloc(&out, sizeof(float)));
  if (misaligned)
    surfaceRead<<<1, 1>>>(s, 2, out);
  else
    surfaceTrap<<<1, 1>>>(s, 16);
  musaError_t e = musaDeviceSynchronize();
  std::printf("%s: %s\n", misaligned ? "surface-misaligned" : "surface-trap", musaGetErrorName(e));
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1)
    return fault(std::strcmp(argv[1], "misaligned") == 0);
  filtering();
  readModes();
  borders();
  linearAndPitched();
  layeredAnd3D();
  gathers();
  surfaces();
  errors();
  std::printf("textures: done\n");
  return 0;
}
