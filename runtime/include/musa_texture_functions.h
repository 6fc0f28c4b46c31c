/* musa_texture_functions.h - texture and surface objects on the device.
 *
 * A musaTextureObject_t / musaSurfaceObject_t is the address of a __musa_sim_texture record
 * that the runtime fills when the object is created (runtime/src/TextureApi.cpp) and clears
 * when it is destroyed; device code reads the record and the texels with ordinary loads, so
 * the timing model sees a fetch as the memory accesses it makes.
 *
 * What a fetch computes follows the H200 (tests/e2e/textures.h200.txt, measured with the same
 * program): coordinates are unnormalized texels or, with normalizedCoords, fractions of the
 * size; linear filtering takes its weights in 1.8 fixed point (the coordinate less half a
 * texel, rounded to 1/256); wrap and mirror apply only to normalized coordinates (clamp
 * otherwise); a 1D array filters as a one-row 2D array at y = 0 (so border colour weighs half
 * under linear filtering, as on hardware); a filtered normalized-integer result is rounded to
 * 16 bits and a filtered half result to half precision; an out-of-range layer takes the last
 * one; tex1Dfetch past the end reads zeros. Surface coordinates are in bytes along x; an
 * out-of-range access faults (musaBoundaryModeTrap, the default), is dropped and reads zero
 * (Zero) or moves to the nearest element (Clamp). */
#ifndef __MUSA_TEXTURE_FUNCTIONS_H__
#define __MUSA_TEXTURE_FUNCTIONS_H__

#define __MUSA_SIM_TEXTURE_MAGIC 0x54455831u /* a live texture object */
#define __MUSA_SIM_SURFACE_MAGIC 0x53555246u /* a live surface object */
/* __musa_sim_texture::flags */
#define __MUSA_SIM_TEX_LAYERED 0x1u       /* depth counts layers */
#define __MUSA_SIM_TEX_LINEAR_FILTER 0x2u /* musaFilterModeLinear */
#define __MUSA_SIM_TEX_NORMALIZED_READ 0x4u
#define __MUSA_SIM_TEX_NORMALIZED_COORDS 0x8u
#define __MUSA_SIM_TEX_CUBEMAP 0x10u
#define __MUSA_SIM_TEX_MIPMAP_LINEAR 0x20u /* mipmapFilterMode musaFilterModeLinear */
#define __MUSA_SIM_TEX_MAX_LEVELS 18       /* 131072 texels down to 1 */

/* The storage and size of one mipmap level of a texture object (level 0 is also the object's
 * own data, pitch and size). */
struct __musa_sim_texture_level {
  char *data;
  unsigned long long pitch, slicePitch;
  int width, height, depth, unused;
};

/* One texture or surface object, shared by the runtime (writer) and device code (reader). */
struct __musa_sim_texture {
  unsigned int magic; /* __MUSA_SIM_TEXTURE_MAGIC / __MUSA_SIM_SURFACE_MAGIC while live */
  unsigned int flags;
  char *data;
  unsigned long long pitch;      /* bytes from one row to the next */
  unsigned long long slicePitch; /* bytes from one slice (or layer) to the next */
  int width, height, depth;      /* in elements; depth is the layer count when layered */
  int channels;                  /* 1 to 4 */
  int channelBytes;              /* 1, 2 or 4 */
  int kind;                      /* enum musaChannelFormatKind */
  int elementBytes;
  int addressMode[3];
  float borderColor[4];
  int levels;                    /* mipmap levels: 0 or 1 but for mipmapped arrays */
  float lodBias, minLod, maxLod; /* musaTextureDesc's mipmapLevelBias and level clamps */
  struct __musa_sim_texture_level level[__MUSA_SIM_TEX_MAX_LEVELS];
};

#if defined(__CUDA__) && !defined(__MUSA_SIM_HW__)
namespace __musa_tex {
typedef const __musa_sim_texture *Ref;

/* A fault as hardware gives it for a bad object or a trapped surface access: an illegal
 * address (the simulator reports kernel, block and thread). */
__device__ inline void fault() { *(volatile int *)(unsigned long long)16 = 0; }

__device__ inline Ref object(unsigned long long handle, unsigned int magic) {
  Ref r = (Ref)handle;
  if (r->magic != magic)
    fault();
  return r;
}

/* A normalized integer channel in the units hardware filters it in: 16-bit unsigned
 * (0..65535) or signed (-32767..32767) steps, rounded (the most negative value counts as -1). */
__device__ inline float unitsOfUnsigned(int v, int bytes) {
  return bytes == 1 ? (float)(v * 257) : (float)v;
}
__device__ inline float unitsOfSigned(int v, int bytes) {
  if (bytes == 2)
    return v < -32767 ? -32767.0f : (float)v;
  v = v < -127 ? -127 : v;
  return floorf((float)v * (32767.0f / 127.0f) + 0.5f);
}

/* Channel values of one texel: as raw integers and as the floats filtering works on. */
struct Texel {
  float f[4];
  int i[4];
};

__device__ inline void load(Ref r, int x, int y, int z, Texel &t) {
  const char *p = r->data + (unsigned long long)z * r->slicePitch +
                  (unsigned long long)y * r->pitch + (unsigned long long)x * r->elementBytes;
  bool normalized = r->flags & __MUSA_SIM_TEX_NORMALIZED_READ;
  for (int c = 0; c < 4; ++c) {
    int v = 0;
    float f = 0.0f;
    if (c < r->channels) {
      if (r->kind == 2) {
        f = r->channelBytes == 2 ? (float)((const _Float16 *)p)[c] : ((const float *)p)[c];
        v = __builtin_bit_cast(int, f);
      } else {
        if (r->channelBytes == 1)
          v = r->kind == 0 ? (int)((const signed char *)p)[c] : (int)((const unsigned char *)p)[c];
        else if (r->channelBytes == 2)
          v = r->kind == 0 ? (int)((const short *)p)[c] : (int)((const unsigned short *)p)[c];
        else
          v = ((const int *)p)[c];
        f = (float)v;
        if (normalized) /* as 16-bit units, which the filter works in (normalize() ends it) */
          f = r->kind == 0 ? unitsOfSigned(v, r->channelBytes) : unitsOfUnsigned(v, r->channelBytes);
      }
    }
    t.i[c] = v;
    t.f[c] = f;
  }
}

__device__ inline void border(Ref r, Texel &t) {
  bool units = r->kind != 2 && (r->flags & __MUSA_SIM_TEX_NORMALIZED_READ);
  for (int c = 0; c < 4; ++c) {
    t.f[c] = units ? r->borderColor[c] * (r->kind == 0 ? 32767.0f : 65535.0f) : r->borderColor[c];
    t.i[c] = (int)r->borderColor[c];
  }
}

/* A texel coordinate's texel as an int without overflow (NaN as 0). */
__device__ inline int toIndex(double u) {
  if (!(u == u))
    return 0;
  return (int)fmin(fmax(floor(u), -1073741824.0), 1073741824.0);
}

/* The texel an index on one axis of `n` texels stands for under `mode`, or -1 for border. */
__device__ inline int address(int i, int n, int mode, bool normalizedCoords) {
  if (!normalizedCoords && (mode == 0 || mode == 2))
    mode = 1; /* wrap and mirror need normalized coordinates: clamp */
  if (mode == 0) {
    i %= n;
    return i < 0 ? i + n : i;
  }
  if (mode == 2) {
    int period = 2 * n, m = i % period;
    if (m < 0)
      m += period;
    return m < n ? m : period - 1 - m;
  }
  if (mode == 3)
    return i < 0 || i >= n ? -1 : i;
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* A coordinate in texels. A normalized coordinate is first cut to a fixed point (rounded
 * down) and then scaled by the size n: 21 fractional bits, or log2(n) + 6 for sizes past
 * 2^15. That is the rule under which every normalized sample of the H200 listings lands
 * where the hardware put it (0.2f of five texels, just above 1/5 in binary, in texel 0 and
 * 0.2f + 1 ulp in texel 1; sizes 3 to 4096 need 21 bits, 65536 needs 22). */
__device__ inline double texelCoordinate(Ref r, float x, int n) {
  if (!(r->flags & __MUSA_SIM_TEX_NORMALIZED_COORDS))
    return x;
  int bits = 21;
  while (bits < 31 && (1 << (bits - 6)) < n)
    ++bits;
  double scale = (double)(1u << bits);
  return floor((double)x * scale) / scale * (double)n;
}

/* Linear filtering on one axis: the lower texel and its neighbour's weight in 1/256. */
__device__ inline void linearAxis(Ref r, float x, int n, int &i, int &w) {
  double fixedPoint = floor((texelCoordinate(r, x, n) - 0.5) * 256.0 + 0.5);
  if (!(fixedPoint == fixedPoint))
    fixedPoint = 0.0;
  fixedPoint = fmin(fmax(fixedPoint, -274877906944.0), 274877906944.0);
  long long q = (long long)fixedPoint;
  i = (int)(q >> 8);
  w = (int)(q & 255);
}

/* Half precision, ties away from zero, as the H200 rounds a filtered half texture. */
__device__ inline float roundToHalf(float f) {
  unsigned int u = __builtin_bit_cast(unsigned int, f);
  return __builtin_bit_cast(float, (u + 0x1000u) & ~0x1fffu);
}

/* A fetch's float channels as the program sees them: normalized integers from 16-bit units
 * (rounded half up when filtering left a fraction) to [0, 1] or [-1, 1]; filtered half
 * textures to half precision. */
__device__ inline void finish(Ref r, bool filtered, Texel &t) {
  for (int c = 0; c < 4; ++c) {
    if (r->kind == 2 && r->channelBytes == 2 && filtered)
      t.f[c] = roundToHalf(t.f[c]);
    else if (r->kind != 2 && (r->flags & __MUSA_SIM_TEX_NORMALIZED_READ))
      t.f[c] = floorf(t.f[c] + 0.5f) / (r->kind == 0 ? 32767.0f : 65535.0f);
  }
}

/* (a * b) / 256 rounded to an integer, ties to even (or to odd): a filter weight product in
 * 1/256. */
__device__ inline int roundedProduct(int a, int b, bool tiesToOdd = false) {
  int p = a * b, q = p >> 8, rest = p & 255;
  return q + (rest > 128 || (rest == 128 && (q & 1) != tiesToOdd));
}

/* The texel at integer coordinates after the address modes (border colour outside). */
__device__ inline void texelAt(Ref r, int x, int y, int z, int layer, int dims, Texel &t) {
  bool normalized = r->flags & __MUSA_SIM_TEX_NORMALIZED_COORDS;
  x = address(x, r->width, r->addressMode[0], normalized);
  y = dims >= 2 ? address(y, r->height, r->addressMode[1], normalized) : 0;
  z = dims >= 3 ? address(z, r->depth, r->addressMode[2], normalized) : layer;
  if (x < 0 || y < 0 || z < 0)
    border(r, t);
  else
    load(r, x, y, z, t);
}

/* A fetch at float coordinates in `dims` dimensions (layer: the layer of a layered object). */
__device__ inline void fetch(Ref r, float x, float y, float z, int layer, int dims, Texel &t) {
  bool oneDimensional = dims == 1;
  if (oneDimensional) { /* as on hardware: 1D is a one-row 2D fetch at y = 0 */
    dims = 2;
    y = 0.0f;
  }
  if (r->flags & __MUSA_SIM_TEX_LAYERED) {
    unsigned int l = (unsigned int)layer;
    layer = l >= (unsigned int)r->depth ? r->depth - 1 : (int)l;
  } else {
    layer = 0;
  }
  if (!(r->flags & __MUSA_SIM_TEX_LINEAR_FILTER)) {
    int ix = toIndex(texelCoordinate(r, x, r->width));
    int iy = dims >= 2 ? toIndex(texelCoordinate(r, y, r->height)) : 0;
    int iz = dims >= 3 ? toIndex(texelCoordinate(r, z, r->depth)) : 0;
    texelAt(r, ix, iy, iz, layer, dims, t);
    finish(r, false, t);
    return;
  }
  int i[3] = {0, 0, 0}, w[3] = {0, 0, 0};
  linearAxis(r, x, r->width, i[0], w[0]);
  if (dims >= 2)
    linearAxis(r, y, r->height, i[1], w[1]);
  if (dims >= 3)
    linearAxis(r, z, r->depth, i[2], w[2]);
  /* Weighted sum of the 2^dims corners: the sum is exact in double and rounded once to float.
   * The weights are the H200's (tests/hardware/probes/texture_rules.h200.txt, where one-hot
   * textures give each corner's weight): in 2D each corner's product of axis weights rounded
   * to 1/256, ties to even (64 of 64 exact); in a 1D fetch (2D at y = 0) y weighs exactly a
   * half (rounding would spoil its results); in 3D the x-z product is rounded (ties to odd),
   * then its y+1 share (ties to odd) and the y share is the rest, so weights sum to one as
   * they do on the H200 (62 of 64 exact; the two others differ by 1/256 on two corners). */
  double sum[4] = {0.0, 0.0, 0.0, 0.0};
  for (int corner = 0; corner < (1 << dims); ++corner) {
    int wx = (corner & 1) ? w[0] : 256 - w[0], wy = (corner & 2) ? w[1] : 256 - w[1];
    long long weight; /* in 1/2^16 */
    if (oneDimensional)
      weight = (long long)wx * wy;
    else if (dims == 2)
      weight = (long long)roundedProduct(wx, wy) << 8;
    else {
      int xz = roundedProduct(wx, (corner & 4) ? w[2] : 256 - w[2], true);
      int upper = roundedProduct(xz, w[1], true);
      weight = (long long)((corner & 2) ? upper : xz - upper) << 8;
    }
    if (weight == 0)
      continue;
    Texel c;
    texelAt(r, i[0] + (corner & 1), i[1] + (corner >> 1 & 1), i[2] + (corner >> 2 & 1), layer,
            dims, c);
    for (int k = 0; k < 4; ++k)
      sum[k] += (double)weight * (double)c.f[k];
  }
  for (int k = 0; k < 4; ++k) {
    t.f[k] = (float)(sum[k] * 0x1p-16);
    t.i[k] = (int)t.f[k];
  }
  finish(r, true, t);
}

/* Mipmapped objects. The level of detail lambda (an explicit level for the Lod forms, 0 for
 * the plain ones, log2 of the texels of level 0 one step of the gradient covers for the Grad
 * forms) plus mipmapLevelBias, clamped to [minMipmapLevelClamp, maxMipmapLevelClamp] and to
 * the levels there are, is cut to 1/256 and picks the level: the nearest one (a half rounds
 * up) under point mipmap filtering; under linear, the two around it weighed by its fraction.
 * As the H100 answers (tests/hardware/session18/mipmaps.txt): an explicit 3.3 weighs level 4
 * by 76/256 (cut, not rounded), 0.5 and 1.5 pick levels 1 and 2; a gradient of 3 texels
 * weighs level 2 by 150/256 (its log2 rounded to 1/256). Within a level the object's own
 * filter mode applies; unnormalized coordinates are level-0 texels, scaled to the level. */
__device__ inline void fetchLevel(Ref r, int l, float x, float y, float z, int layer, int dims,
                                  Texel &t) {
  if (l == 0) {
    fetch(r, x, y, z, layer, dims, t);
    return;
  }
  const __musa_sim_texture_level &v = r->level[l];
  __musa_sim_texture c; /* the object's fields with this level's storage and size */
  c.flags = r->flags;
  c.data = v.data;
  c.pitch = v.pitch;
  c.slicePitch = v.slicePitch;
  c.width = v.width;
  c.height = v.height;
  c.depth = v.depth;
  c.channels = r->channels;
  c.channelBytes = r->channelBytes;
  c.kind = r->kind;
  c.elementBytes = r->elementBytes;
  for (int k = 0; k < 3; ++k)
    c.addressMode[k] = r->addressMode[k];
  for (int k = 0; k < 4; ++k)
    c.borderColor[k] = r->borderColor[k];
  if (!(r->flags & __MUSA_SIM_TEX_NORMALIZED_COORDS)) {
    x *= (float)v.width / (float)r->width;
    y *= (float)v.height / (float)r->height;
    if (!(r->flags & __MUSA_SIM_TEX_LAYERED))
      z *= (float)v.depth / (float)r->depth;
  }
  fetch(&c, x, y, z, layer, dims, t);
}

__device__ inline void fetchLod(Ref r, float lambda, float x, float y, float z, int layer,
                                int dims, Texel &t) {
  if (r->levels <= 1) {
    fetch(r, x, y, z, layer, dims, t);
    return;
  }
  lambda += r->lodBias;
  if (!(lambda == lambda))
    lambda = 0.0f;
  lambda = fminf(fmaxf(lambda, r->minLod), r->maxLod);
  lambda = fminf(fmaxf(lambda, 0.0f), (float)(r->levels - 1));
  int fixedPoint = (int)floorf(lambda * 256.0f); /* lambda in 1/256 */
  if (!(r->flags & __MUSA_SIM_TEX_MIPMAP_LINEAR)) {
    fetchLevel(r, (fixedPoint + 128) >> 8, x, y, z, layer, dims, t);
    return;
  }
  int low = fixedPoint >> 8, w = fixedPoint & 255;
  fetchLevel(r, low, x, y, z, layer, dims, t);
  if (w == 0 || low + 1 >= r->levels)
    return;
  Texel upper;
  fetchLevel(r, low + 1, x, y, z, layer, dims, upper);
  for (int k = 0; k < 4; ++k) {
    t.f[k] = (float)(((double)t.f[k] * (256 - w) + (double)upper.f[k] * w) * (1.0 / 256.0));
    t.i[k] = (int)t.f[k];
  }
}

/* log2 of the longer of two gradients measured in level-0 texels (lambda for the Grad forms). */
__device__ inline float gradientLod(Ref r, float dxx, float dxy, float dxz, float dyx, float dyy,
                                    float dyz) {
  float sx = (float)r->width, sy = (float)r->height, sz = (float)r->depth;
  if (!(r->flags & __MUSA_SIM_TEX_NORMALIZED_COORDS))
    sx = sy = sz = 1.0f;
  if (r->flags & __MUSA_SIM_TEX_LAYERED)
    sz = 0.0f;
  float a = sqrtf(dxx * sx * dxx * sx + dxy * sy * dxy * sy + dxz * sz * dxz * sz);
  float b = sqrtf(dyx * sx * dyx * sx + dyy * sy * dyy * sy + dyz * sz * dyz * sz);
  return floorf(log2f(fmaxf(a, b)) * 256.0f + 0.5f) * (1.0f / 256.0f);
}

/* A cubemap direction as a face (layer) and normalized coordinates on it. */
__device__ inline void cubeFace(float x, float y, float z, int &face, float &s, float &t) {
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, sc, tc;
  if (az >= ax && az >= ay) { /* on a tie z wins, then y (as on the H200) */
    face = z >= 0 ? 4 : 5, m = az, sc = z >= 0 ? x : -x, tc = -y;
  } else if (ay >= ax) {
    face = y >= 0 ? 2 : 3, m = ay, sc = x, tc = y >= 0 ? z : -z;
  } else {
    face = x >= 0 ? 0 : 1, m = ax, sc = x >= 0 ? -z : z, tc = -y;
  }
  s = (sc / m + 1.0f) * 0.5f;
  t = (tc / m + 1.0f) * 0.5f;
}

/* A fetch's channels as the type the program asks for. */
template <class T> struct Result;
#define __MUSA_TEX_RESULT1(T, field, C)                                                      \
  template <> struct Result<T> {                                                             \
    __device__ static T make(const Texel &t) { return (T)t.field[0]; }                       \
  };
#define __MUSA_TEX_RESULTV(V, field, C)                                                      \
  template <> struct Result<V##1> {                                                          \
    __device__ static V##1 make(const Texel &t) { return V##1{(C)t.field[0]}; }             \
  };                                                                                         \
  template <> struct Result<V##2> {                                                          \
    __device__ static V##2 make(const Texel &t) { return V##2{(C)t.field[0], (C)t.field[1]}; } \
  };                                                                                         \
  template <> struct Result<V##4> {                                                          \
    __device__ static V##4 make(const Texel &t) {                                            \
      return V##4{(C)t.field[0], (C)t.field[1], (C)t.field[2], (C)t.field[3]};               \
    }                                                                                        \
  };
__MUSA_TEX_RESULT1(float, f, float)
__MUSA_TEX_RESULT1(char, i, char)
__MUSA_TEX_RESULT1(signed char, i, signed char)
__MUSA_TEX_RESULT1(unsigned char, i, unsigned char)
__MUSA_TEX_RESULT1(short, i, short)
__MUSA_TEX_RESULT1(unsigned short, i, unsigned short)
__MUSA_TEX_RESULT1(int, i, int)
__MUSA_TEX_RESULT1(unsigned int, i, unsigned int)
__MUSA_TEX_RESULTV(float, f, float)
__MUSA_TEX_RESULTV(char, i, signed char)
__MUSA_TEX_RESULTV(uchar, i, unsigned char)
__MUSA_TEX_RESULTV(short, i, short)
__MUSA_TEX_RESULTV(ushort, i, unsigned short)
__MUSA_TEX_RESULTV(int, i, int)
__MUSA_TEX_RESULTV(uint, i, unsigned int)
#undef __MUSA_TEX_RESULT1
#undef __MUSA_TEX_RESULTV

template <class T>
__device__ inline T sample(unsigned long long obj, float x, float y, float z, int layer,
                           int dims, float lambda = 0.0f) {
  Ref r = object(obj, __MUSA_SIM_TEXTURE_MAGIC);
  Texel t;
  fetchLod(r, lambda, x, y, z, layer, dims, t);
  return Result<T>::make(t);
}
template <class T>
__device__ inline T sampleGrad(unsigned long long obj, float x, float y, float z, int layer,
                               int dims, float dxx, float dxy, float dxz, float dyx, float dyy,
                               float dyz) {
  Ref r = object(obj, __MUSA_SIM_TEXTURE_MAGIC);
  Texel t;
  fetchLod(r, gradientLod(r, dxx, dxy, dxz, dyx, dyy, dyz), x, y, z, layer, dims, t);
  return Result<T>::make(t);
}

/* The address of a surface access of `bytes` at byte column x, row y, slice z (null: drop). */
__device__ inline char *surfaceAt(unsigned long long obj, int x, int y, int z, int bytes,
                                  int mode) {
  Ref r = object(obj, __MUSA_SIM_SURFACE_MAGIC);
  int rowBytes = r->width * r->elementBytes;
  if (x < 0 || x > rowBytes - bytes || y < 0 || y >= r->height || z < 0 || z >= r->depth) {
    if (mode == 2)
      fault();
    if (mode == 0)
      return (char *)0;
    x = x < 0 ? 0 : x > rowBytes - r->elementBytes ? rowBytes - r->elementBytes : x;
    y = y < 0 ? 0 : y >= r->height ? r->height - 1 : y;
    z = z < 0 ? 0 : z >= r->depth ? r->depth - 1 : z;
  }
  return r->data + (unsigned long long)z * r->slicePitch + (unsigned long long)y * r->pitch + x;
}
template <class T> __device__ inline T surfaceRead(unsigned long long obj, int x, int y, int z,
                                                   int mode) {
  const char *p = surfaceAt(obj, x, y, z, (int)sizeof(T), mode);
  if (!p)
    return T{};
  return *(const T *)p;
}
template <class T> __device__ inline void surfaceWrite(T v, unsigned long long obj, int x, int y,
                                                       int z, int mode) {
  if (char *p = surfaceAt(obj, x, y, z, (int)sizeof(T), mode))
    *(T *)p = v;
}
} // namespace __musa_tex

/* ---- texture fetches ------------------------------------------------------------------ */
template <class T> __device__ inline T tex1Dfetch(musaTextureObject_t obj, int x) {
  __musa_tex::Ref r = __musa_tex::object(obj, __MUSA_SIM_TEXTURE_MAGIC);
  __musa_tex::Texel t;
  if (x < 0 || x >= r->width)
    t = __musa_tex::Texel{{0, 0, 0, 0}, {0, 0, 0, 0}};
  else
    __musa_tex::load(r, x, 0, 0, t);
  __musa_tex::finish(r, false, t);
  return __musa_tex::Result<T>::make(t);
}
template <class T> __device__ inline T tex1D(musaTextureObject_t obj, float x) {
  return __musa_tex::sample<T>(obj, x, 0.0f, 0.0f, 0, 1);
}
template <class T> __device__ inline T tex2D(musaTextureObject_t obj, float x, float y) {
  return __musa_tex::sample<T>(obj, x, y, 0.0f, 0, 2);
}
template <class T> __device__ inline T tex3D(musaTextureObject_t obj, float x, float y, float z) {
  return __musa_tex::sample<T>(obj, x, y, z, 0, 3);
}
template <class T> __device__ inline T tex1DLayered(musaTextureObject_t obj, float x, int layer) {
  return __musa_tex::sample<T>(obj, x, 0.0f, 0.0f, layer, 1);
}
template <class T>
__device__ inline T tex2DLayered(musaTextureObject_t obj, float x, float y, int layer) {
  return __musa_tex::sample<T>(obj, x, y, 0.0f, layer, 2);
}
template <class T> __device__ inline T texCubemap(musaTextureObject_t obj, float x, float y, float z) {
  int face;
  float s, t;
  __musa_tex::cubeFace(x, y, z, face, s, t);
  return __musa_tex::sample<T>(obj, s, t, 0.0f, face, 2);
}
template <class T>
__device__ inline T texCubemapLayered(musaTextureObject_t obj, float x, float y, float z,
                                      int layer) {
  int face;
  float s, t;
  __musa_tex::cubeFace(x, y, z, face, s, t);
  return __musa_tex::sample<T>(obj, s, t, 0.0f, layer * 6 + face, 2);
}
/* Level-of-detail and gradient forms (mipmapped objects; others have level 0 only). */
template <class T> __device__ inline T tex1DLod(musaTextureObject_t obj, float x, float level) {
  return __musa_tex::sample<T>(obj, x, 0.0f, 0.0f, 0, 1, level);
}
template <class T>
__device__ inline T tex2DLod(musaTextureObject_t obj, float x, float y, float level) {
  return __musa_tex::sample<T>(obj, x, y, 0.0f, 0, 2, level);
}
template <class T>
__device__ inline T tex3DLod(musaTextureObject_t obj, float x, float y, float z, float level) {
  return __musa_tex::sample<T>(obj, x, y, z, 0, 3, level);
}
template <class T>
__device__ inline T tex1DLayeredLod(musaTextureObject_t obj, float x, int layer, float level) {
  return __musa_tex::sample<T>(obj, x, 0.0f, 0.0f, layer, 1, level);
}
template <class T>
__device__ inline T tex2DLayeredLod(musaTextureObject_t obj, float x, float y, int layer,
                                    float level) {
  return __musa_tex::sample<T>(obj, x, y, 0.0f, layer, 2, level);
}
template <class T>
__device__ inline T texCubemapLod(musaTextureObject_t obj, float x, float y, float z, float level) {
  int face;
  float s, t;
  __musa_tex::cubeFace(x, y, z, face, s, t);
  return __musa_tex::sample<T>(obj, s, t, 0.0f, face, 2, level);
}
template <class T>
__device__ inline T tex1DGrad(musaTextureObject_t obj, float x, float dx, float dy) {
  return __musa_tex::sampleGrad<T>(obj, x, 0.0f, 0.0f, 0, 1, dx, 0.0f, 0.0f, dy, 0.0f, 0.0f);
}
template <class T>
__device__ inline T tex2DGrad(musaTextureObject_t obj, float x, float y, float2 dx, float2 dy) {
  return __musa_tex::sampleGrad<T>(obj, x, y, 0.0f, 0, 2, dx.x, dx.y, 0.0f, dy.x, dy.y, 0.0f);
}
template <class T>
__device__ inline T tex3DGrad(musaTextureObject_t obj, float x, float y, float z, float4 dx,
                              float4 dy) {
  return __musa_tex::sampleGrad<T>(obj, x, y, z, 0, 3, dx.x, dx.y, dx.z, dy.x, dy.y, dy.z);
}
template <class T>
__device__ inline T tex1DLayeredGrad(musaTextureObject_t obj, float x, int layer, float dx,
                                     float dy) {
  return __musa_tex::sampleGrad<T>(obj, x, 0.0f, 0.0f, layer, 1, dx, 0.0f, 0.0f, dy, 0.0f, 0.0f);
}
template <class T>
__device__ inline T tex2DLayeredGrad(musaTextureObject_t obj, float x, float y, int layer,
                                     float2 dx, float2 dy) {
  return __musa_tex::sampleGrad<T>(obj, x, y, 0.0f, layer, 2, dx.x, dx.y, 0.0f, dy.x, dy.y, 0.0f);
}
/* The four texels bilinear filtering would weigh, one channel of each, in the order
 * (i, j+1), (i+1, j+1), (i+1, j), (i, j). */
template <class T>
__device__ inline T tex2Dgather(musaTextureObject_t obj, float x, float y, int comp = 0) {
  __musa_tex::Ref r = __musa_tex::object(obj, __MUSA_SIM_TEXTURE_MAGIC);
  int i, j, w;
  __musa_tex::linearAxis(r, x, r->width, i, w);
  __musa_tex::linearAxis(r, y, r->height, j, w);
  const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
  __musa_tex::Texel out;
  for (int k = 0; k < 4; ++k) {
    __musa_tex::Texel c;
    __musa_tex::texelAt(r, i + dx[k], j + dy[k], 0, 0, 2, c);
    __musa_tex::finish(r, false, c);
    int channel = comp < 0 || comp > 3 ? 0 : comp;
    out.f[k] = c.f[channel];
    out.i[k] = c.i[channel];
  }
  return __musa_tex::Result<T>::make(out);
}
/* Pointer forms: tex2D(&value, obj, x, y). */
template <class T> __device__ inline void tex1Dfetch(T *out, musaTextureObject_t obj, int x) {
  *out = tex1Dfetch<T>(obj, x);
}
template <class T> __device__ inline void tex1D(T *out, musaTextureObject_t obj, float x) {
  *out = tex1D<T>(obj, x);
}
template <class T> __device__ inline void tex2D(T *out, musaTextureObject_t obj, float x, float y) {
  *out = tex2D<T>(obj, x, y);
}
template <class T>
__device__ inline void tex3D(T *out, musaTextureObject_t obj, float x, float y, float z) {
  *out = tex3D<T>(obj, x, y, z);
}
template <class T>
__device__ inline void tex1DLayered(T *out, musaTextureObject_t obj, float x, int layer) {
  *out = tex1DLayered<T>(obj, x, layer);
}
template <class T>
__device__ inline void tex2DLayered(T *out, musaTextureObject_t obj, float x, float y, int layer) {
  *out = tex2DLayered<T>(obj, x, y, layer);
}

/* ---- surface reads and writes (x in bytes) ----------------------------------------------- */
#define __MUSA_SURF_MODE enum musaSurfaceBoundaryMode mode = musaBoundaryModeTrap
template <class T> __device__ inline T surf1Dread(musaSurfaceObject_t s, int x, __MUSA_SURF_MODE) {
  return __musa_tex::surfaceRead<T>(s, x, 0, 0, mode);
}
template <class T>
__device__ inline T surf2Dread(musaSurfaceObject_t s, int x, int y, __MUSA_SURF_MODE) {
  return __musa_tex::surfaceRead<T>(s, x, y, 0, mode);
}
template <class T>
__device__ inline T surf3Dread(musaSurfaceObject_t s, int x, int y, int z, __MUSA_SURF_MODE) {
  return __musa_tex::surfaceRead<T>(s, x, y, z, mode);
}
template <class T>
__device__ inline T surf1DLayeredread(musaSurfaceObject_t s, int x, int layer, __MUSA_SURF_MODE) {
  return __musa_tex::surfaceRead<T>(s, x, 0, layer, mode);
}
template <class T>
__device__ inline T surf2DLayeredread(musaSurfaceObject_t s, int x, int y, int layer,
                                      __MUSA_SURF_MODE) {
  return __musa_tex::surfaceRead<T>(s, x, y, layer, mode);
}
template <class T>
__device__ inline void surf1Dread(T *out, musaSurfaceObject_t s, int x, __MUSA_SURF_MODE) {
  *out = surf1Dread<T>(s, x, mode);
}
template <class T>
__device__ inline void surf2Dread(T *out, musaSurfaceObject_t s, int x, int y, __MUSA_SURF_MODE) {
  *out = surf2Dread<T>(s, x, y, mode);
}
template <class T>
__device__ inline void surf3Dread(T *out, musaSurfaceObject_t s, int x, int y, int z,
                                  __MUSA_SURF_MODE) {
  *out = surf3Dread<T>(s, x, y, z, mode);
}
template <class T>
__device__ inline void surf1DLayeredread(T *out, musaSurfaceObject_t s, int x, int layer,
                                         __MUSA_SURF_MODE) {
  *out = surf1DLayeredread<T>(s, x, layer, mode);
}
template <class T>
__device__ inline void surf2DLayeredread(T *out, musaSurfaceObject_t s, int x, int y, int layer,
                                         __MUSA_SURF_MODE) {
  *out = surf2DLayeredread<T>(s, x, y, layer, mode);
}
template <class T>
__device__ inline void surf1Dwrite(T v, musaSurfaceObject_t s, int x, __MUSA_SURF_MODE) {
  __musa_tex::surfaceWrite<T>(v, s, x, 0, 0, mode);
}
template <class T>
__device__ inline void surf2Dwrite(T v, musaSurfaceObject_t s, int x, int y, __MUSA_SURF_MODE) {
  __musa_tex::surfaceWrite<T>(v, s, x, y, 0, mode);
}
template <class T>
__device__ inline void surf3Dwrite(T v, musaSurfaceObject_t s, int x, int y, int z,
                                   __MUSA_SURF_MODE) {
  __musa_tex::surfaceWrite<T>(v, s, x, y, z, mode);
}
template <class T>
__device__ inline void surf1DLayeredwrite(T v, musaSurfaceObject_t s, int x, int layer,
                                          __MUSA_SURF_MODE) {
  __musa_tex::surfaceWrite<T>(v, s, x, 0, layer, mode);
}
template <class T>
__device__ inline void surf2DLayeredwrite(T v, musaSurfaceObject_t s, int x, int y, int layer,
                                          __MUSA_SURF_MODE) {
  __musa_tex::surfaceWrite<T>(v, s, x, y, layer, mode);
}
#undef __MUSA_SURF_MODE
#endif /* __CUDA__ && !__MUSA_SIM_HW__ */

#endif /* __MUSA_TEXTURE_FUNCTIONS_H__ */
