// C++17 in kernels and host/device data layout: if constexpr, structured bindings, fold
// expressions in a variadic kernel, non-type template parameters, constexpr functions and
// std:: type traits; a union, an alignas(16) struct and a bit-field struct copied both ways
// between host and device and modified in a kernel; a __constant__ struct and __restrict__.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <type_traits>
#include <utility>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

constexpr __host__ __device__ int cfact(int n) { return n <= 1 ? 1 : n * cfact(n - 1); }
static_assert(cfact(5) == 120, "constexpr");

template <class T> __device__ T transform(T v) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) return v * 3 - 1;
  else if constexpr (std::is_unsigned_v<T>) return v ^ 0x55u;
  else if constexpr (std::is_same_v<T, double>) return v * 0.5;
  else return v + 0.25f;
}
template <class T> __global__ void transformK(T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = transform(p[i]);
}

// Variadic kernel: sums every argument with a fold expression; size from sizeof...
template <class... Ts> __global__ void foldK(long long *out, Ts... args) {
  out[0] = (0LL + ... + (long long)args);
  out[1] = sizeof...(Ts);
  out[2] = (1LL * ... * (long long)args);
  out[3] = ((args > 0) && ...);
}

template <int N, int M> struct Tile {
  static constexpr int size = N * M;
};
template <int N, int M, bool Transpose>
__global__ void tileK(const int *in, int *out) {
  __shared__ int buf[Tile<N, M>::size];
  int t = threadIdx.x;
  if (t < N * M) buf[t] = in[t];
  __syncthreads();
  if (t < N * M) {
    int r = t / M, c = t % M;
    if constexpr (Transpose) out[c * N + r] = buf[t];
    else out[t] = buf[t] * cfact(3);
  }
}

struct Pair { int key; float val; };
__device__ Pair makePair(int i) { return {i * 2, i * 0.5f}; }
__global__ void bindK(const Pair *in, int *keys, float *vals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  auto [k, v] = in[i];
  auto [k2, v2] = makePair(i);
  int arr[2] = {k, k2};
  auto &[a0, a1] = arr;
  keys[i] = a0 + a1;
  vals[i] = v + v2;
}

union Bits { float f; uint32_t u; uint8_t b[4]; };
struct alignas(16) Vec3A { float x, y, z; int tag; };
struct Packed {
  unsigned a : 3;
  unsigned b : 5;
  signed c : 6;
  unsigned d : 18;
};
static_assert(sizeof(Vec3A) == 16 && alignof(Vec3A) == 16, "alignas");
struct Params { float scale; int offset; int pad[2]; Vec3A origin; };
__constant__ Params cParams;

__global__ void layoutK(Bits *u, Vec3A *v, Packed *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Bits b = u[i];
  b.u ^= 0x80000000u;            // flip the sign through the integer view
  b.b[0] = (uint8_t)i;           // and rewrite the lowest byte through the byte view
  u[i] = b;
  Vec3A w = v[i];
  w.x = w.x * cParams.scale + cParams.origin.x;
  w.y += cParams.origin.y;
  w.z -= cParams.origin.z;
  w.tag += cParams.offset + (int)(((uintptr_t)&v[i]) % 16); // must stay aligned
  v[i] = w;
  Packed q = p[i];
  q.a = q.a + 1;
  q.b = q.b * 3;
  q.c = -q.c;
  q.d = q.d + 1000;
  p[i] = q;
}

__global__ void restrictK(const float *__restrict__ a, const float *__restrict__ b,
                          float *__restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = __ldg(&a[i]) * 2.0f + __ldg(&b[i]);
}

int main() {
  int failures = 0;
  const int n = 200;
  // if constexpr
  {
    int hi[n]; unsigned hu[n]; double hd[n]; float hf[n];
    for (int i = 0; i < n; ++i) { hi[i] = i - 100; hu[i] = i * 3u; hd[i] = i * 1.5; hf[i] = i * 0.125f; }
    int *di; unsigned *du; double *dd; float *df;
    CHECK(musaMalloc(&di, sizeof hi)); CHECK(musaMalloc(&du, sizeof hu));
    CHECK(musaMalloc(&dd, sizeof hd)); CHECK(musaMalloc(&df, sizeof hf));
    CHECK(musaMemcpy(di, hi, sizeof hi, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(du, hu, sizeof hu, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(dd, hd, sizeof hd, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(df, hf, sizeof hf, musaMemcpyHostToDevice));
    transformK<<<4, 64>>>(di, n); transformK<<<4, 64>>>(du, n);
    transformK<<<4, 64>>>(dd, n); transformK<<<4, 64>>>(df, n);
    int ri[n]; unsigned ru[n]; double rd[n]; float rf[n];
    CHECK(musaMemcpy(ri, di, sizeof hi, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(ru, du, sizeof hu, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(rd, dd, sizeof hd, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(rf, df, sizeof hf, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (ri[i] != hi[i] * 3 - 1 || ru[i] != (hu[i] ^ 0x55u) || rd[i] != hd[i] * 0.5 || rf[i] != hf[i] + 0.25f)
        if (failures++ < 5) printf("if constexpr %d: %d %u %g %g\n", i, ri[i], ru[i], rd[i], rf[i]);
  }
  // variadic fold
  {
    long long *dout, h[4];
    CHECK(musaMalloc(&dout, sizeof h));
    foldK<<<1, 1>>>(dout, 3, (short)-2, 7LL, 'a', 2u);
    CHECK(musaMemcpy(h, dout, sizeof h, musaMemcpyDeviceToHost));
    if (h[0] != 3 - 2 + 7 + 97 + 2 || h[1] != 5 || h[2] != 3LL * -2 * 7 * 97 * 2 || h[3] != 0) {
      printf("fold: %lld %lld %lld %lld\n", h[0], h[1], h[2], h[3]); ++failures;
    }
    foldK<<<1, 1>>>(dout, 1.5f, 2.0, 4);
    CHECK(musaMemcpy(h, dout, sizeof h, musaMemcpyDeviceToHost));
    if (h[0] != 7 || h[1] != 3 || h[2] != 8 || h[3] != 1) { printf("fold2: %lld %lld %lld %lld\n", h[0], h[1], h[2], h[3]); ++failures; }
  }
  // non-type template parameters
  {
    const int N = 5, M = 7;
    int hin[N * M], hout[N * M];
    for (int i = 0; i < N * M; ++i) hin[i] = i * i - 50;
    int *din, *dout;
    CHECK(musaMalloc(&din, sizeof hin)); CHECK(musaMalloc(&dout, sizeof hout));
    CHECK(musaMemcpy(din, hin, sizeof hin, musaMemcpyHostToDevice));
    tileK<N, M, true><<<1, 64>>>(din, dout);
    CHECK(musaMemcpy(hout, dout, sizeof hout, musaMemcpyDeviceToHost));
    for (int t = 0; t < N * M; ++t)
      if (hout[(t % M) * N + t / M] != hin[t] && failures++ < 5) printf("transpose %d\n", t);
    tileK<N, M, false><<<1, 64>>>(din, dout);
    CHECK(musaMemcpy(hout, dout, sizeof hout, musaMemcpyDeviceToHost));
    for (int t = 0; t < N * M; ++t)
      if (hout[t] != hin[t] * 6 && failures++ < 5) printf("tile scale %d\n", t);
  }
  // structured bindings
  {
    Pair hp[n]; int hk[n]; float hv[n];
    for (int i = 0; i < n; ++i) hp[i] = {i + 1, i * 0.25f};
    Pair *dp; int *dk; float *dv;
    CHECK(musaMalloc(&dp, sizeof hp)); CHECK(musaMalloc(&dk, sizeof hk)); CHECK(musaMalloc(&dv, sizeof hv));
    CHECK(musaMemcpy(dp, hp, sizeof hp, musaMemcpyHostToDevice));
    bindK<<<4, 64>>>(dp, dk, dv, n);
    CHECK(musaMemcpy(hk, dk, sizeof hk, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(hv, dv, sizeof hv, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if ((hk[i] != i + 1 + 2 * i || hv[i] != i * 0.25f + i * 0.5f) && failures++ < 5) printf("bind %d: %d %g\n", i, hk[i], hv[i]);
  }
  // unions, alignas, bit-fields, constant struct
  {
    Bits hb[n]; Vec3A hv[n]; Packed hp[n];
    for (int i = 0; i < n; ++i) {
      hb[i].f = i * 1.75f + 1.0f;
      hv[i] = {(float)i, i * 2.0f, i * 3.0f, i};
      hp[i].a = i & 7; hp[i].b = i & 31; hp[i].c = (i % 64) - 32; hp[i].d = i * 1000;
    }
    Params hpar = {2.0f, 5, {0, 0}, {1.0f, -1.0f, 0.5f, 0}};
    CHECK(musaMemcpyToSymbol(cParams, &hpar, sizeof hpar));
    Bits *db; Vec3A *dv; Packed *dp;
    CHECK(musaMalloc(&db, sizeof hb)); CHECK(musaMalloc(&dv, sizeof hv)); CHECK(musaMalloc(&dp, sizeof hp));
    CHECK(musaMemcpy(db, hb, sizeof hb, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(dv, hv, sizeof hv, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(dp, hp, sizeof hp, musaMemcpyHostToDevice));
    layoutK<<<4, 64>>>(db, dv, dp, n);
    Bits rb[n]; Vec3A rv[n]; Packed rp[n];
    CHECK(musaMemcpy(rb, db, sizeof hb, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(rv, dv, sizeof hv, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(rp, dp, sizeof hp, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      Bits e = hb[i]; e.u ^= 0x80000000u; e.b[0] = (uint8_t)i;
      if (rb[i].u != e.u && failures++ < 5) printf("union %d: %08x vs %08x\n", i, rb[i].u, e.u);
      if ((rv[i].x != hv[i].x * 2.0f + 1.0f || rv[i].y != hv[i].y - 1.0f || rv[i].z != hv[i].z - 0.5f ||
           rv[i].tag != hv[i].tag + 5) && failures++ < 5)
        printf("alignas %d: %g %g %g %d\n", i, rv[i].x, rv[i].y, rv[i].z, rv[i].tag);
      Packed q = hp[i]; q.a = q.a + 1; q.b = q.b * 3; q.c = -q.c; q.d = q.d + 1000;
      if ((rp[i].a != q.a || rp[i].b != q.b || rp[i].c != q.c || rp[i].d != q.d) && failures++ < 5)
        printf("bitfield %d: %u %u %d %u vs %u %u %d %u\n", i, rp[i].a, rp[i].b, rp[i].c, rp[i].d, q.a, q.b, q.c, q.d);
    }
  }
  // __restrict__
  {
    float ha[n], hbv[n], hc[n];
    for (int i = 0; i < n; ++i) { ha[i] = i; hbv[i] = 1.0f / (i + 1); }
    float *da, *dbv, *dc;
    CHECK(musaMalloc(&da, sizeof ha)); CHECK(musaMalloc(&dbv, sizeof ha)); CHECK(musaMalloc(&dc, sizeof ha));
    CHECK(musaMemcpy(da, ha, sizeof ha, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(dbv, hbv, sizeof ha, musaMemcpyHostToDevice));
    restrictK<<<4, 64>>>(da, dbv, dc, n);
    CHECK(musaMemcpy(hc, dc, sizeof hc, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i)
      if (hc[i] != ha[i] * 2.0f + hbv[i] && failures++ < 5) printf("restrict %d: %g\n", i, hc[i]);
  }
  CHECK(musaDeviceSynchronize());
  printf("cxx17_layout: %s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
