// Random numbers in device code with CUDA's device API (curand_kernel.h; murand_kernel.h is the
// same under muRAND's names): XORWOW, Philox4_32_10 and MRG32k3a give CUDA's exact sequences (values
// below from CUDA 13's curand_kernel.h, its host path), including subsequences (2^67 draws
// apart for XORWOW) and offsets; skipahead; then the distributions' moments over 2^16
// threads, a Monte-Carlo estimate of pi, and murand's own names.
#include "check.h"
#include <curand_kernel.h>
#include <cmath>

struct Case {
  unsigned long long seed, subsequence, offset;
  unsigned first, second;
};
// XORWOW: the first two draws after curand_init(seed, subsequence, offset).
static const Case xorwow[] = {
    {0, 0, 0, 3179217846u, 1883133293u},
    {0, 0, 1000003, 2086573228u, 2586442925u},
    {0, 77, 0, 1020313117u, 4102051655u},
    {0, 123456789, 1000003, 99327463u, 772686927u},
    {1234, 0, 0, 624778773u, 1867875844u},
    {1234, 77, 1000003, 3342338481u, 2692558140u},
    {1234, 123456789, 0, 1212088581u, 2953277998u},
};
// Philox4_32_10: the first draw, then curand4.
struct Case4 {
  unsigned long long seed, subsequence, offset;
  unsigned first, four[4];
};
static const Case4 philox[] = {
    {0, 0, 0, 1713891541u, {3781805453u, 3159862348u, 2600524760u, 4175744164u}},
    {0, 0, 5, 1555169499u, {2980410603u, 159317863u, 83534633u, 1372009126u}},
    {1234, 0, 1000003, 1050891457u, {2151722766u, 2495936485u, 3485837076u, 200344772u}},
    {1234, 1, 0, 3507855656u, {1392278645u, 3354607383u, 253049307u, 118660703u}},
};
// MRG32k3a: the first two draws (subsequences 2^76 apart).
static const Case mrg[] = {
    {0, 0, 0, 545508615u, 1368065476u},
    {1234, 1, 1000003, 813907796u, 117993375u},
    {0, 123456789, 0, 3207637436u, 1224402679u},
};
constexpr int NX = sizeof(xorwow) / sizeof(xorwow[0]), NP = sizeof(philox) / sizeof(philox[0]);
constexpr int NM = sizeof(mrg) / sizeof(mrg[0]);

// MRG32k3a cases, then one draw after skipahead_sequence(3) and skipahead_subsequence(9).
__global__ void mrgSequences(const Case *m, unsigned *out) {
  int i = threadIdx.x;
  curandStateMRG32k3a s;
  if (i < NM) {
    curand_init(m[i].seed, m[i].subsequence, m[i].offset, &s);
    out[2 * i] = curand(&s);
    out[2 * i + 1] = curand(&s);
  } else if (i == NM) {
    curand_init(5, 0, 0, &s);
    skipahead_sequence(3ull, &s);
    skipahead_subsequence(9ull, &s);
    out[2 * NM] = curand(&s);
  }
}

__global__ void sequences(const Case *x, const Case4 *p, unsigned *out, float *uniform) {
  int i = threadIdx.x;
  if (i < NX) {
    curandState s;
    curand_init(x[i].seed, x[i].subsequence, x[i].offset, &s);
    out[2 * i] = curand(&s);
    out[2 * i + 1] = curand(&s);
  } else if (i < NX + NP) {
    int j = i - NX;
    curandStatePhilox4_32_10_t s;
    curand_init(p[j].seed, p[j].subsequence, p[j].offset, &s);
    unsigned *o = out + 2 * NX + 5 * j;
    o[0] = curand(&s);
    uint4 four = curand4(&s);
    o[1] = four.x, o[2] = four.y, o[3] = four.z, o[4] = four.w;
  } else if (i == NX + NP) {
    curandState s; // skipahead(n) is n draws; skipahead_sequence(n) n subsequences
    curand_init(7, 0, 0, &s);
    skipahead(1000ull, &s);
    out[2 * NX + 5 * NP] = curand(&s);
    skipahead_sequence(2ull, &s);
    out[2 * NX + 5 * NP + 1] = curand(&s);
    curand_init(0, 0, 0, &s);
    uniform[0] = curand_uniform(&s); // from 3179217846
  }
}

// A thread per subsequence, as Monte-Carlo codes do: moments and pi.
__global__ void moments(double *sums, unsigned long long seed, int draws) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  curandState s;
  curand_init(seed, t, 0, &s);
  curandStatePhilox4_32_10_t p;
  curand_init(seed, t, 0, &p);
  double u = 0, uu = 0, n = 0, nn = 0, in = 0, d = 0;
  for (int k = 0; k < draws; ++k) {
    float a = curand_uniform(&s);
    u += a, uu += double(a) * a;
    float g = curand_normal(&p);
    n += g, nn += double(g) * g;
    float2 xy = make_float2(curand_uniform(&p), curand_uniform(&p));
    in += xy.x * xy.x + xy.y * xy.y <= 1.0f;
    d += curand_normal_double(&s);
  }
  atomicAdd(sums + 0, u);
  atomicAdd(sums + 1, uu);
  atomicAdd(sums + 2, n);
  atomicAdd(sums + 3, nn);
  atomicAdd(sums + 4, in);
  atomicAdd(sums + 5, d);
}

#ifdef __MUSA_SIM_ARCH__
// muRAND's names (the simulator's header; CUDA has only the curand ones).
__global__ void murandNames(unsigned *out) {
  murandState s;
  murand_init(0, 0, 0, &s);
  out[0] = murand(&s);
}
#endif

int main() {
  Case *dx;
  Case4 *dp;
  unsigned *dout;
  float *du;
  const int words = 2 * NX + 5 * NP + 2;
  CHECK_MUSA(musaMalloc(&dx, sizeof xorwow));
  CHECK_MUSA(musaMalloc(&dp, sizeof philox));
  CHECK_MUSA(musaMalloc(&dout, words * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&du, sizeof(float)));
  CHECK_MUSA(musaMemcpy(dx, xorwow, sizeof xorwow, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dp, philox, sizeof philox, musaMemcpyHostToDevice));
  sequences<<<1, 32>>>(dx, dp, dout, du);
  CHECK_MUSA(musaDeviceSynchronize());
  unsigned out[words];
  float u0 = 0;
  CHECK_MUSA(musaMemcpy(out, dout, sizeof out, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(&u0, du, sizeof u0, musaMemcpyDeviceToHost));
  for (int i = 0; i < NX; ++i)
    CHECK(out[2 * i] == xorwow[i].first && out[2 * i + 1] == xorwow[i].second,
          "XORWOW seed %llu subsequence %llu offset %llu: %u %u, expected %u %u",
          xorwow[i].seed, xorwow[i].subsequence, xorwow[i].offset, out[2 * i], out[2 * i + 1],
          xorwow[i].first, xorwow[i].second);
  for (int j = 0; j < NP; ++j) {
    const unsigned *o = out + 2 * NX + 5 * j;
    bool same = o[0] == philox[j].first;
    for (int k = 0; k < 4; ++k)
      same &= o[1 + k] == philox[j].four[k];
    CHECK(same, "Philox seed %llu subsequence %llu offset %llu: %u %u %u %u %u", philox[j].seed,
          philox[j].subsequence, philox[j].offset, o[0], o[1], o[2], o[3], o[4]);
  }
  CHECK(out[2 * NX + 5 * NP] == 3641088259u && out[2 * NX + 5 * NP + 1] == 3955682412u,
        "skipahead: %u %u", out[2 * NX + 5 * NP], out[2 * NX + 5 * NP + 1]);
  CHECK(std::fabs(u0 - 0.740219355f) < 1e-7f, "curand_uniform %.9g", u0); // 3179217846 / 2^32
  Case *dm;
  CHECK_MUSA(musaMalloc(&dm, sizeof mrg));
  CHECK_MUSA(musaMemcpy(dm, mrg, sizeof mrg, musaMemcpyHostToDevice));
  mrgSequences<<<1, 32>>>(dm, dout);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(out, dout, (2 * NM + 1) * sizeof(unsigned), musaMemcpyDeviceToHost));
  for (int i = 0; i < NM; ++i)
    CHECK(out[2 * i] == mrg[i].first && out[2 * i + 1] == mrg[i].second,
          "MRG32k3a seed %llu subsequence %llu offset %llu: %u %u, expected %u %u", mrg[i].seed,
          mrg[i].subsequence, mrg[i].offset, out[2 * i], out[2 * i + 1], mrg[i].first,
          mrg[i].second);
  CHECK(out[2 * NM] == 2760578422u, "MRG32k3a after sequence and subsequence jumps: %u",
        out[2 * NM]);
  CHECK_MUSA(musaFree(dm));
  printf("XORWOW, Philox and MRG32k3a sequences: %d + %d + %d cases as CUDA's\n", NX, NP, NM);

  const int blocks = 256, threads = 256, draws = 16;
  double *dsums, sums[6];
  CHECK_MUSA(musaMalloc(&dsums, sizeof sums));
  CHECK_MUSA(musaMemset(dsums, 0, sizeof sums));
  moments<<<blocks, threads>>>(dsums, 2024, draws);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(sums, dsums, sizeof sums, musaMemcpyDeviceToHost));
  double n = double(blocks) * threads * draws;
  double mean = sums[0] / n, var = sums[1] / n - mean * mean;
  double nmean = sums[2] / n, nvar = sums[3] / n - nmean * nmean;
  double pi = 4 * sums[4] / n, dmean = sums[5] / n;
  // 2^20 draws each: the standard errors are 3e-4 (uniform), 1e-3 (normal), 1.6e-3 (pi).
  CHECK(std::fabs(mean - 0.5) < 2e-3 && std::fabs(var - 1.0 / 12) < 2e-3,
        "uniform mean %.5f variance %.5f", mean, var);
  CHECK(std::fabs(nmean) < 6e-3 && std::fabs(nvar - 1) < 1e-2, "normal mean %.5f variance %.5f",
        nmean, nvar);
  CHECK(std::fabs(pi - M_PI) < 1e-2, "pi estimated as %.5f", pi);
  CHECK(std::fabs(dmean) < 6e-3, "double normal mean %.5f", dmean);
  printf("2^20 draws: uniform mean %.3f, normal variance %.2f, pi %.2f\n", mean, nvar, pi);

#ifdef __MUSA_SIM_ARCH__
  murandNames<<<1, 1>>>(dout);
  CHECK_MUSA(musaMemcpy(out, dout, sizeof(unsigned), musaMemcpyDeviceToHost));
  CHECK(out[0] == 3179217846u, "murand %u", out[0]);
#endif
  CHECK_MUSA(musaFree(dx));
  CHECK_MUSA(musaFree(dp));
  CHECK_MUSA(musaFree(dout));
  CHECK_MUSA(musaFree(du));
  CHECK_MUSA(musaFree(dsums));
  return finish("device_random");
}
