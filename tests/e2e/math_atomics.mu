// Device math, integer intrinsics and atomics: results agree with the host's computation.
#include "check.h"
#include <cmath>

__global__ void math(const float *x, float *out, const double *xd, double *outd) {
  int i = threadIdx.x;
  float v = x[i];
  out[i * 8 + 0] = sinf(v) + cosf(v) + tanf(v * 0.1f);
  out[i * 8 + 1] = expf(v * 0.1f) + exp2f(v * 0.1f) + expm1f(v * 0.01f) + exp10f(v * 0.01f);
  out[i * 8 + 2] = logf(v + 1.0f) + log2f(v + 1.0f) + log10f(v + 1.0f) + log1pf(v);
  out[i * 8 + 3] = powf(v, 1.5f) + sqrtf(v) + rsqrtf(v + 1.0f) + cbrtf(v);
  out[i * 8 + 4] = erff(v * 0.1f) + erfcf(v * 0.1f) + lgammaf(v + 1.0f) + tgammaf(v * 0.1f + 1.0f);
  out[i * 8 + 5] = fmaf(v, 2.0f, 1.0f) + fminf(v, 3.0f) + fmaxf(v, 3.0f) + floorf(v * 0.3f) +
                   ceilf(v * 0.3f) + truncf(-v * 0.3f) + roundf(v * 0.3f) + rintf(v * 0.3f);
  out[i * 8 + 6] = fmodf(v, 3.0f) + remainderf(v, 3.0f) + copysignf(v, -1.0f) + ldexpf(v, 3) +
                   hypotf(v, 2.0f) + atan2f(v, 2.0f) + sinhf(v * 0.1f) + atanhf(0.5f);
  float s, c;
  sincosf(v, &s, &c);
  out[i * 8 + 7] = s * c + __expf(v * 0.1f) + __fdividef(v, 3.0f) + __saturatef(v - 1.0f) +
                   sinpif(v) + (isnan(v) ? 1.0f : 0.0f) + sin(v) /* C++ float overload */;
  double d = xd[i];
  outd[i * 3 + 0] = sin(d) + exp(d * 0.1) + log(d + 1.0) + pow(d, 0.5) + erf(d * 0.1);
  outd[i * 3 + 1] = erfinv(0.5 * d / 32.0) ;
  outd[i * 3 + 2] = std::sqrt(d) + std::fabs(-d);
}

__global__ void bits(const unsigned *x, unsigned *out) {
  unsigned v = x[threadIdx.x];
  out[threadIdx.x * 6 + 0] = __popc(v) + __clz(v) * 100 + __ffs(v) * 10000;
  out[threadIdx.x * 6 + 1] = __brev(v);
  out[threadIdx.x * 6 + 2] = __byte_perm(v, 0x11223344u, 0x3210 + threadIdx.x);
  out[threadIdx.x * 6 + 3] = __umulhi(v, 0x9e3779b9u) + __mul24(int(v), 7);
  out[threadIdx.x * 6 + 4] = __funnelshift_l(v, 0xdeadbeefu, threadIdx.x);
  out[threadIdx.x * 6 + 5] = __sad(int(v), 1000, 5u) + __popcll(0xffffull << threadIdx.x);
}

__global__ void histogram(const int *data, int n, unsigned *bins, int nbins, float *fsum,
                          unsigned long long *total, int *mn, int *mx, unsigned *wrap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&bins[data[i] % nbins], 1u);
  atomicAdd(fsum, 0.5f);
  atomicAdd(total, (unsigned long long)data[i]);
  atomicMin(mn, data[i]);
  atomicMax_block(mx, data[i]);
  atomicInc(wrap, 9u);
  __threadfence();
}

__global__ void casCounter(int *counter, int *lock) {
  // A spin lock built from atomicCAS/atomicExch across all blocks.
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *counter += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

static float hostOut(int i, int k, float v) {
  float s = std::sin(v), c = std::cos(v);
  switch (k) {
  case 0: return sinf(v) + cosf(v) + tanf(v * 0.1f);
  case 1: return expf(v * 0.1f) + exp2f(v * 0.1f) + expm1f(v * 0.01f) + exp10f(v * 0.01f);
  case 2: return logf(v + 1.0f) + log2f(v + 1.0f) + log10f(v + 1.0f) + log1pf(v);
  case 3: return powf(v, 1.5f) + sqrtf(v) + 1.0f / sqrtf(v + 1.0f) + cbrtf(v);
  case 4: return erff(v * 0.1f) + erfcf(v * 0.1f) + lgammaf(v + 1.0f) + tgammaf(v * 0.1f + 1.0f);
  case 5: return fmaf(v, 2.0f, 1.0f) + fminf(v, 3.0f) + fmaxf(v, 3.0f) + floorf(v * 0.3f) +
                 ceilf(v * 0.3f) + truncf(-v * 0.3f) + roundf(v * 0.3f) + rintf(v * 0.3f);
  case 6: return fmodf(v, 3.0f) + remainderf(v, 3.0f) + copysignf(v, -1.0f) + ldexpf(v, 3) +
                 hypotf(v, 2.0f) + atan2f(v, 2.0f) + sinhf(v * 0.1f) + atanhf(0.5f);
  default: return s * c + expf(v * 0.1f) + v / 3.0f + fminf(fmaxf(v - 1.0f, 0.0f), 1.0f) +
                  sinf(3.14159265358979323846f * v) + std::sin(v);
  }
}

int main() {
  const int n = 32;
  float hx[n], hout[n * 8];
  double hxd[n], houtd[n * 3];
  for (int i = 0; i < n; ++i)
    hx[i] = 0.25f + i * 0.5f, hxd[i] = 0.5 + i;
  float *dx, *dout;
  double *dxd, *doutd;
  CHECK_MUSA(musaMalloc(&dx, sizeof hx));
  CHECK_MUSA(musaMalloc(&dout, sizeof hout));
  CHECK_MUSA(musaMalloc(&dxd, sizeof hxd));
  CHECK_MUSA(musaMalloc(&doutd, sizeof houtd));
  CHECK_MUSA(musaMemcpy(dx, hx, sizeof hx, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dxd, hxd, sizeof hxd, musaMemcpyHostToDevice));
  math<<<1, n>>>(dx, dout, dxd, doutd);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(hout, dout, sizeof hout, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(houtd, doutd, sizeof houtd, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 8; ++k) {
      float want = hostOut(i, k, hx[i]), got = hout[i * 8 + k];
      CHECK(std::fabs(got - want) <= 1e-5f * std::fabs(want) + 1e-5f, "math[%d][%d] = %.9g, host %.9g",
            i, k, got, want);
    }
  for (int i = 0; i < n; ++i) {
    double d = hxd[i];
    double want0 = std::sin(d) + std::exp(d * 0.1) + std::log(d + 1.0) + std::pow(d, 0.5) +
                   std::erf(d * 0.1);
    CHECK(std::fabs(houtd[i * 3] - want0) < 1e-12 * std::fabs(want0), "double math %d", i);
    double y = 0.5 * d / 32.0;
    CHECK(std::fabs(std::erf(houtd[i * 3 + 1]) - y) < 1e-14, "erfinv(%g): erf(%g) = %.17g", y,
          houtd[i * 3 + 1], std::erf(houtd[i * 3 + 1]));
    CHECK(houtd[i * 3 + 2] == std::sqrt(d) + d, "std:: spellings");
  }

  unsigned hb[n], hbo[n * 6];
  for (int i = 0; i < n; ++i)
    hb[i] = 0x12345u * (i + 1) ^ (1u << i);
  unsigned *db, *dbo;
  CHECK_MUSA(musaMalloc(&db, sizeof hb));
  CHECK_MUSA(musaMalloc(&dbo, sizeof hbo));
  CHECK_MUSA(musaMemcpy(db, hb, sizeof hb, musaMemcpyHostToDevice));
  bits<<<1, n>>>(db, dbo);
  CHECK_MUSA(musaMemcpy(hbo, dbo, sizeof hbo, musaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    unsigned v = hb[t];
    unsigned rev = 0;
    for (int b = 0; b < 32; ++b)
      rev |= ((v >> b) & 1u) << (31 - b);
    CHECK(hbo[t * 6 + 0] == unsigned(__builtin_popcount(v) + (v ? __builtin_clz(v) : 32) * 100 +
                                     __builtin_ffs(int(v)) * 10000), "popc/clz/ffs %u", v);
    CHECK(hbo[t * 6 + 1] == rev, "brev");
    unsigned long long bytes = (0x11223344ull << 32) | v;
    unsigned sel = 0x3210 + t, perm = 0;
    for (int k = 0; k < 4; ++k)
      perm |= unsigned((bytes >> (8 * ((sel >> (4 * k)) & 7))) & 0xff) << (8 * k);
    CHECK(hbo[t * 6 + 2] == perm, "byte_perm");
    unsigned long long sh = (((unsigned long long)0xdeadbeefu << 32) | v) << (t & 31);
    CHECK(hbo[t * 6 + 4] == unsigned(sh >> 32), "funnelshift_l");
  }

  const int items = 20000, nbins = 7;
  int *hdata = (int *)malloc(items * sizeof(int));
  unsigned expectBins[nbins] = {};
  long long expectTotal = 0;
  for (int i = 0; i < items; ++i) {
    hdata[i] = (i * 7919) % 1000 + 3;
    expectBins[hdata[i] % nbins]++;
    expectTotal += hdata[i];
  }
  int *ddata, *dmn, *dmx, *dcounter, *dlock;
  unsigned *dbins, *dwrap;
  float *dfsum;
  unsigned long long *dtotal;
  CHECK_MUSA(musaMalloc(&ddata, items * sizeof(int)));
  CHECK_MUSA(musaMalloc(&dbins, nbins * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&dfsum, sizeof(float)));
  CHECK_MUSA(musaMalloc(&dtotal, sizeof(unsigned long long)));
  CHECK_MUSA(musaMalloc(&dmn, sizeof(int)));
  CHECK_MUSA(musaMalloc(&dmx, sizeof(int)));
  CHECK_MUSA(musaMalloc(&dwrap, sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&dcounter, sizeof(int)));
  CHECK_MUSA(musaMalloc(&dlock, sizeof(int)));
  CHECK_MUSA(musaMemcpy(ddata, hdata, items * sizeof(int), musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemset(dbins, 0, nbins * sizeof(unsigned)));
  CHECK_MUSA(musaMemset(dfsum, 0, sizeof(float)));
  CHECK_MUSA(musaMemset(dtotal, 0, sizeof(unsigned long long)));
  CHECK_MUSA(musaMemset(dmn, 0x7f, sizeof(int)));
  CHECK_MUSA(musaMemset(dmx, 0, sizeof(int)));
  CHECK_MUSA(musaMemset(dwrap, 0, sizeof(unsigned)));
  CHECK_MUSA(musaMemset(dcounter, 0, sizeof(int)));
  CHECK_MUSA(musaMemset(dlock, 0, sizeof(int)));
  histogram<<<(items + 255) / 256, 256>>>(ddata, items, dbins, nbins, dfsum, dtotal, dmn, dmx, dwrap);
  casCounter<<<500, 32>>>(dcounter, dlock);
  CHECK_MUSA(musaDeviceSynchronize());
  unsigned bins[nbins], wrap;
  float fsum;
  unsigned long long total;
  int mn, mx, counter;
  CHECK_MUSA(musaMemcpy(bins, dbins, sizeof bins, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&fsum, dfsum, sizeof fsum, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&total, dtotal, sizeof total, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&mn, dmn, sizeof mn, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&mx, dmx, sizeof mx, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&wrap, dwrap, sizeof wrap, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&counter, dcounter, sizeof counter, musaMemcpyDeviceToHost));
  for (int b = 0; b < nbins; ++b)
    CHECK(bins[b] == expectBins[b], "bin %d: %u, expected %u", b, bins[b], expectBins[b]);
  CHECK(fsum == items * 0.5f, "float atomicAdd: %f", fsum);
  CHECK(total == (unsigned long long)expectTotal, "64-bit atomicAdd");
  CHECK(mn == 3 && mx == 1002, "atomicMin/Max: %d %d", mn, mx);
  CHECK(wrap == unsigned(items % 10), "atomicInc wraps at its limit: %u", wrap);
  CHECK(counter == 500, "atomicCAS lock counted %d of 500 blocks", counter);
  free(hdata);
  return finish("math_atomics");
}
