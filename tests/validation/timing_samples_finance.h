// timing_samples.mu, part 2: BlackScholes (float2 and double), binomialOptions, MonteCarlo,
// a Sobol-style quasi-random generator, sortingNetworks (bitonic) and mergeSort-style ranks.
// Included by timing_samples.mu after the harness.
#pragma once

// =================================== BlackScholes ============================================
// Two options a thread through float2 (the sample's layout), fast intrinsics; and a double
// version with exp/log/sqrt. The CND is the 5-term polynomial approximation.
__device__ inline float cnd_f(float d) {
  const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
              A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
  float K = __fdividef(1.0f, 1.0f + 0.2316419f * fabsf(d));
  float c = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0f - c : c;
}

__device__ inline void bs_one_f(float &call, float &put, float S, float X, float T, float R, float V) {
  float sqrtT = sqrtf(T);
  float d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
  float d2 = d1 - V * sqrtT;
  float c1 = cnd_f(d1), c2 = cnd_f(d2);
  float expRT = __expf(-R * T);
  call = S * c1 - X * expRT * c2;
  put = X * expRT * (1.0f - c2) - S * (1.0f - c1);
}

__global__ void black_scholes_f2(float2 *call, float2 *put, const float2 *S, const float2 *X,
                                 const float2 *T, float R, float V, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2) return;
  float2 s = S[i], x = X[i], t = T[i], c, p;
  bs_one_f(c.x, p.x, s.x, x.x, t.x, R, V);
  bs_one_f(c.y, p.y, s.y, x.y, t.y, R, V);
  call[i] = c;
  put[i] = p;
}

__device__ inline double cnd_d(double d) {
  const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978,
               A5 = 1.330274429, RSQRT2PI = 0.39894228040143267793994605993438;
  double K = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double c = RSQRT2PI * exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0 - c : c;
}

__global__ void black_scholes_d(double *call, double *put, const double *S, const double *X,
                                const double *T, double R, double V, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double s = S[i], x = X[i], t = T[i], sqrtT = sqrt(t);
  double d1 = (log(s / x) + (R + 0.5 * V * V) * t) / (V * sqrtT), d2 = d1 - V * sqrtT;
  double c1 = cnd_d(d1), c2 = cnd_d(d2), e = exp(-R * t);
  call[i] = s * c1 - x * e * c2;
  put[i] = x * e * (1.0 - c2) - s * (1.0 - c1);
}

static double cnd_host(double d) {
  const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978,
               A5 = 1.330274429, RSQRT2PI = 0.39894228040143267793994605993438;
  double K = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  double c = RSQRT2PI * std::exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
  return d > 0 ? 1.0 - c : c;
}

template <class Real> static void bench_bs_one(int n) {
  const bool dbl = sizeof(Real) == 8;
  const char *kname = dbl ? "BlackScholes_fp64" : "BlackScholes_f2";
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "options=%d,threads=128", n);
  const double R = 0.02, V = 0.30;
  std::vector<Real> S(n), X(n), T(n);
  for (int i = 0; i < n; ++i) {
    S[i] = Real(5.0 + 25.0 * (hash_u32(unsigned(i) * 3u) % 10000) / 10000.0);
    X[i] = Real(1.0 + 99.0 * (hash_u32(unsigned(i) * 3u + 1u) % 10000) / 10000.0);
    T[i] = Real(0.25 + 9.75 * (hash_u32(unsigned(i) * 3u + 2u) % 10000) / 10000.0);
  }
  Real *d[5];
  for (int a = 0; a < 5; ++a) CHECK(musaMalloc(&d[a], size_t(n) * sizeof(Real)));
  CHECK(musaMemcpy(d[2], S.data(), size_t(n) * sizeof(Real), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d[3], X.data(), size_t(n) * sizeof(Real), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d[4], T.data(), size_t(n) * sizeof(Real), musaMemcpyHostToDevice));
  auto op = [&] {
    if (dbl)
      black_scholes_d<<<(n + 127) / 128, 128>>>((double *)d[0], (double *)d[1], (const double *)d[2],
                                                 (const double *)d[3], (const double *)d[4], R, V, n);
    else
      black_scholes_f2<<<(n / 2 + 127) / 128, 128>>>((float2 *)d[0], (float2 *)d[1], (const float2 *)d[2],
                                                      (const float2 *)d[3], (const float2 *)d[4], float(R),
                                                      float(V), n / 2);
  };
  warm(op);
  std::vector<Real> call(n), put(n);
  CHECK(musaMemcpy(call.data(), d[0], size_t(n) * sizeof(Real), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(put.data(), d[1], size_t(n) * sizeof(Real), musaMemcpyDeviceToHost));
  const double tol = dbl ? 1e-9 : 2e-4;
  for (int i = 0; i < n; i += 313) {
    double s = S[i], x = X[i], t = T[i], sq = std::sqrt(t);
    double d1 = (std::log(s / x) + (R + 0.5 * V * V) * t) / (V * sq), d2 = d1 - V * sq;
    double e = std::exp(-R * t), c = s * cnd_host(d1) - x * e * cnd_host(d2);
    double p = x * e * (1.0 - cnd_host(d2)) - s * (1.0 - cnd_host(d1));
    if (!near(call[i], c, tol)) { fail(kname, cfg, i, call[i], c); break; }
    if (!near(put[i], p, tol)) { fail(kname, cfg, i, put[i], p); break; }
  }
  report(kname, cfg, time_median(op));
  for (int a = 0; a < 5; ++a) CHECK(musaFree(d[a]));
}

static void bench_blackscholes() {
  bench_bs_one<float>(1 << 21);
  bench_bs_one<double>(1 << 20);
}

// ================================= binomialOptions ===========================================
// One block an option: NSTEPS+1 leaf values, ELEMS a thread in registers, the backward
// iteration swapping one neighbour value a step through shared memory (two barriers a step).
#define BIN_THREADS 128
struct BinOpt {
  float S, X, vDt, puByDf, pdByDf;
};

template <int STEPS> __global__ void binomial_options(float *out, const BinOpt *opts) {
  const int ELEMS = STEPS / BIN_THREADS;
  __shared__ float exch[BIN_THREADS + 1];
  const BinOpt o = opts[blockIdx.x];
  int t = threadIdx.x;
  float call[ELEMS + 1];
#pragma unroll
  for (int i = 0; i < ELEMS; ++i) {
    int j = t * ELEMS + i;
    float price = o.S * expf(o.vDt * float(2 * j - STEPS));
    call[i] = fmaxf(price - o.X, 0.f);
  }
  if (t == BIN_THREADS - 1) exch[BIN_THREADS] = fmaxf(o.S * expf(o.vDt * float(STEPS)) - o.X, 0.f);
  for (int i = STEPS; i > 0; --i) {
    exch[t] = call[0];
    __syncthreads();
    call[ELEMS] = exch[t + 1];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < ELEMS; ++j) call[j] = o.puByDf * call[j + 1] + o.pdByDf * call[j];
  }
  if (t == 0) out[blockIdx.x] = call[0];
}

template <int STEPS> static void bench_binomial_one(int nopt, int checkEvery) {
  char cfg[64];
  std::snprintf(cfg, sizeof cfg, "options=%d,steps=%d,threads=128", nopt, STEPS);
  const double R = 0.02, V = 0.30;
  std::vector<BinOpt> o(nopt);
  for (int k = 0; k < nopt; ++k) {
    double S = 5.0 + 25.0 * (hash_u32(unsigned(k) * 3u + 7u) % 1000) / 1000.0;
    double X = 1.0 + 99.0 * (hash_u32(unsigned(k) * 3u + 8u) % 1000) / 1000.0;
    double T = 0.25 + 9.75 * (hash_u32(unsigned(k) * 3u + 9u) % 1000) / 1000.0;
    double dt = T / STEPS, vDt = V * std::sqrt(dt), rDt = R * dt;
    double If = std::exp(rDt), Df = std::exp(-rDt), u = std::exp(vDt), d = std::exp(-vDt);
    double pu = (If - d) / (u - d), pd = 1.0 - pu;
    o[k] = {float(S), float(X), float(vDt), float(pu * Df), float(pd * Df)};
  }
  BinOpt *dopt;
  float *dout;
  CHECK(musaMalloc(&dopt, nopt * sizeof(BinOpt)));
  CHECK(musaMalloc(&dout, nopt * 4));
  CHECK(musaMemcpy(dopt, o.data(), nopt * sizeof(BinOpt), musaMemcpyHostToDevice));
  auto op = [&] { binomial_options<STEPS><<<nopt, BIN_THREADS>>>(dout, dopt); };
  warm(op);
  std::vector<float> got(nopt);
  CHECK(musaMemcpy(got.data(), dout, nopt * 4, musaMemcpyDeviceToHost));
  for (int k = 0; k < nopt; k += checkEvery) { // the same tree in double
    std::vector<double> c(STEPS + 1);
    for (int j = 0; j <= STEPS; ++j)
      c[j] = std::max(double(o[k].S) * std::exp(double(o[k].vDt) * (2 * j - STEPS)) - o[k].X, 0.0);
    for (int i = STEPS; i > 0; --i)
      for (int j = 0; j < i; ++j) c[j] = double(o[k].puByDf) * c[j + 1] + double(o[k].pdByDf) * c[j];
    if (std::fabs(got[k] - c[0]) > 2e-3 * std::max(1.0, c[0])) { fail("binomialOptions", cfg, k, got[k], c[0]); break; }
  }
  report("binomialOptions", cfg, time_median(op));
  CHECK(musaFree(dopt));
  CHECK(musaFree(dout));
}

static void bench_binomial() {
  bench_binomial_one<1024>(128, 1);  // fewer blocks than SMs, 8 values a thread
  bench_binomial_one<2048>(1024, 16); // the sample's default: 16 values a thread
}

// ==================================== MonteCarlo =============================================
// One block an option (fewer options than SMs): each thread simulates paths with a xorshift
// generator and Box-Muller normals, sums the call payoffs; a shared tree gives the mean.
__host__ __device__ inline unsigned xorshift32(unsigned &s) {
  s ^= s << 13;
  s ^= s >> 17;
  s ^= s << 5;
  return s;
}

__global__ void monte_carlo_option(float *price, const float4 *opt, int paths) {
  __shared__ float sd[256];
  float4 o = opt[blockIdx.x]; // S, X, T, unused
  const float R = 0.02f, V = 0.30f;
  float MuByT = (R - 0.5f * V * V) * o.z, VBySqrtT = V * sqrtf(o.z);
  unsigned st = (blockIdx.x * 256u + threadIdx.x) * 2654435761u + 12345u;
  float sum = 0.f;
  for (int p = threadIdx.x * 2; p < paths; p += 2 * blockDim.x) {
    float u1 = float((xorshift32(st) >> 8) + 1u) * (1.0f / 16777216.0f);
    float u2 = float(xorshift32(st) >> 8) * (1.0f / 16777216.0f);
    float r = sqrtf(-2.0f * logf(u1)), sn, cs;
    sincosf(6.283185307f * u2, &sn, &cs);
    sum += fmaxf(o.x * expf(MuByT + VBySqrtT * r * cs) - o.y, 0.f);
    sum += fmaxf(o.x * expf(MuByT + VBySqrtT * r * sn) - o.y, 0.f);
  }
  sd[threadIdx.x] = sum;
  for (int s = 128; s > 0; s >>= 1) {
    __syncthreads();
    if (threadIdx.x < s) sd[threadIdx.x] += sd[threadIdx.x + s];
  }
  if (threadIdx.x == 0) price[blockIdx.x] = expf(-R * o.z) * sd[0] / float(paths);
}

static void bench_montecarlo() {
  const int nopt = 96, paths = 1 << 17;
  const char *cfg = "options=96,paths=131072,threads=256";
  std::vector<float4> o(nopt);
  for (int k = 0; k < nopt; ++k)
    o[k] = make_float4(5.f + 25.f * (hash_u32(unsigned(k) + 300u) % 1000) / 1000.f,
                       5.f + 25.f * (hash_u32(unsigned(k) + 400u) % 1000) / 1000.f,
                       0.5f + 2.f * (hash_u32(unsigned(k) + 500u) % 1000) / 1000.f, 0.f);
  float4 *dopt;
  float *dp;
  CHECK(musaMalloc(&dopt, nopt * sizeof(float4)));
  CHECK(musaMalloc(&dp, nopt * 4));
  CHECK(musaMemcpy(dopt, o.data(), nopt * sizeof(float4), musaMemcpyHostToDevice));
  auto op = [&] { monte_carlo_option<<<nopt, 256>>>(dp, dopt, paths); };
  warm(op);
  std::vector<float> got(nopt);
  CHECK(musaMemcpy(got.data(), dp, nopt * 4, musaMemcpyDeviceToHost));
  for (int k = 0; k < nopt; k += 11) { // the same paths on the host, in double
    const double R = 0.02, V = 0.30;
    double MuByT = (R - 0.5 * V * V) * o[k].z, VBySqrtT = V * std::sqrt(double(o[k].z)), sum = 0;
    for (unsigned t = 0; t < 256; ++t) {
      unsigned st = (unsigned(k) * 256u + t) * 2654435761u + 12345u;
      for (int p = int(t) * 2; p < paths; p += 512) {
        double u1 = double((xorshift32(st) >> 8) + 1u) / 16777216.0, u2 = double(xorshift32(st) >> 8) / 16777216.0;
        double r = std::sqrt(-2.0 * std::log(u1)), a = 6.283185307 * u2;
        sum += std::max(o[k].x * std::exp(MuByT + VBySqrtT * r * std::cos(a)) - o[k].y, 0.0);
        sum += std::max(o[k].x * std::exp(MuByT + VBySqrtT * r * std::sin(a)) - o[k].y, 0.0);
      }
    }
    double want = std::exp(-R * o[k].z) * sum / paths;
    if (!near(got[k], want, 1e-4)) { fail("MonteCarlo", cfg, k, got[k], want); break; }
  }
  report("MonteCarlo", cfg, time_median(op));
  CHECK(musaFree(dopt));
  CHECK(musaFree(dp));
}

// ===================================== SobolQRNG =============================================
// Gray-code Sobol-style points: a block column per dimension (blockIdx.y), its 32 direction
// numbers staged in shared memory, each point the XOR of the directions of its Gray code's set
// bits; written dimension-major as floats in [0, 1).
__global__ void sobol_points(float *out, const unsigned *dirs, int nvec) {
  __shared__ unsigned v[32];
  if (threadIdx.x < 32) v[threadIdx.x] = dirs[blockIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float *o = out + size_t(blockIdx.y) * nvec;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nvec; i += blockDim.x * gridDim.x) {
    unsigned g = unsigned(i) ^ (unsigned(i) >> 1), x = 0;
    for (int k = 0; g; ++k, g >>= 1)
      if (g & 1u) x ^= v[k];
    o[i] = float(x >> 8) * (1.0f / 16777216.0f);
  }
}

static void bench_sobol() {
  const int nvec = 1 << 18, ndim = 16;
  const char *cfg = "vectors=262144,dims=16,grid=32x16,threads=128";
  std::vector<unsigned> dirs(32 * ndim);
  for (int d = 0; d < ndim; ++d)
    for (int k = 0; k < 32; ++k) // bit (31 - k) set, random bits below it
      dirs[d * 32 + k] = (0x80000000u >> k) | (hash_u32(unsigned(d * 32 + k) + 99u) & ((0x80000000u >> k) - 1u));
  unsigned *ddir;
  float *dout;
  CHECK(musaMalloc(&ddir, dirs.size() * 4));
  CHECK(musaMalloc(&dout, size_t(nvec) * ndim * 4));
  CHECK(musaMemcpy(ddir, dirs.data(), dirs.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { sobol_points<<<dim3(32, ndim), 128>>>(dout, ddir, nvec); };
  warm(op);
  std::vector<float> got(size_t(nvec) * ndim);
  CHECK(musaMemcpy(got.data(), dout, got.size() * 4, musaMemcpyDeviceToHost));
  for (size_t s = 0; s < got.size(); s += 211) {
    int d = int(s / nvec), i = int(s % nvec);
    unsigned g = unsigned(i) ^ (unsigned(i) >> 1), x = 0;
    for (int k = 0; g; ++k, g >>= 1)
      if (g & 1u) x ^= dirs[d * 32 + k];
    float want = float(x >> 8) * (1.0f / 16777216.0f);
    if (got[s] != want) { fail("SobolQRNG", cfg, long(s), got[s], want); break; }
  }
  report("SobolQRNG", cfg, time_median(op));
  CHECK(musaFree(ddir));
  CHECK(musaFree(dout));
}

// ================================== sortingNetworks ==========================================
// Bitonic sort of 2^20 key/value pairs: a shared-memory sort of each 1024-key chunk (512
// threads, alternating directions), then for each larger size global merge steps for the
// strides >= 1024 and one shared-memory merge for the rest (66 launches).
__device__ inline void cmp_swap(unsigned &ka, unsigned &va, unsigned &kb, unsigned &vb, bool asc) {
  if ((ka > kb) == asc) {
    unsigned t = ka; ka = kb; kb = t;
    t = va; va = vb; vb = t;
  }
}

__global__ void bitonic_sort_shared(unsigned *dk, unsigned *dv, const unsigned *sk, const unsigned *sv) {
  __shared__ unsigned k[1024], v[1024];
  unsigned t = threadIdx.x, base = blockIdx.x * 1024;
  k[t] = sk[base + t]; v[t] = sv[base + t];
  k[t + 512] = sk[base + t + 512]; v[t + 512] = sv[base + t + 512];
  for (unsigned size = 2; size <= 1024; size <<= 1) {
    bool asc = size == 1024 ? (blockIdx.x & 1) == 0 : (t & (size / 2)) == 0;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * t - (t & (stride - 1));
      cmp_swap(k[pos], v[pos], k[pos + stride], v[pos + stride], asc);
    }
  }
  __syncthreads();
  dk[base + t] = k[t]; dv[base + t] = v[t];
  dk[base + t + 512] = k[t + 512]; dv[base + t + 512] = v[t + 512];
}

__global__ void bitonic_merge_global(unsigned *dk, unsigned *dv, unsigned size, unsigned stride) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned pos = 2 * i - (i & (stride - 1));
  bool asc = (pos & size) == 0;
  unsigned ka = dk[pos], kb = dk[pos + stride], va = dv[pos], vb = dv[pos + stride];
  cmp_swap(ka, va, kb, vb, asc);
  dk[pos] = ka; dk[pos + stride] = kb;
  dv[pos] = va; dv[pos + stride] = vb;
}

__global__ void bitonic_merge_shared(unsigned *dk, unsigned *dv, unsigned size) {
  __shared__ unsigned k[1024], v[1024];
  unsigned t = threadIdx.x, base = blockIdx.x * 1024;
  k[t] = dk[base + t]; v[t] = dv[base + t];
  k[t + 512] = dk[base + t + 512]; v[t + 512] = dv[base + t + 512];
  bool asc = (base & size) == 0;
  for (unsigned stride = 512; stride > 0; stride >>= 1) {
    __syncthreads();
    unsigned pos = 2 * t - (t & (stride - 1));
    cmp_swap(k[pos], v[pos], k[pos + stride], v[pos + stride], asc);
  }
  __syncthreads();
  dk[base + t] = k[t]; dv[base + t] = v[t];
  dk[base + t + 512] = k[t + 512]; dv[base + t + 512] = v[t + 512];
}

static void bench_bitonic() {
  const unsigned n = 1u << 20;
  const char *cfg = "n=1048576,key_value,launches=66";
  std::vector<unsigned> key(n), val(n);
  for (unsigned i = 0; i < n; ++i) key[i] = hash_u32(i + 4242u), val[i] = i;
  unsigned *sk, *sv, *dk, *dv;
  for (unsigned **p : {&sk, &sv, &dk, &dv}) CHECK(musaMalloc(p, size_t(n) * 4));
  CHECK(musaMemcpy(sk, key.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(sv, val.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    bitonic_sort_shared<<<n / 1024, 512>>>(dk, dv, sk, sv);
    for (unsigned size = 2048; size <= n; size <<= 1)
      for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
        if (stride >= 1024) bitonic_merge_global<<<n / 2 / 256, 256>>>(dk, dv, size, stride);
        else { bitonic_merge_shared<<<n / 1024, 512>>>(dk, dv, size); break; }
      }
  };
  warm(op);
  std::vector<unsigned> gk(n), gv(n);
  CHECK(musaMemcpy(gk.data(), dk, size_t(n) * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(gv.data(), dv, size_t(n) * 4, musaMemcpyDeviceToHost));
  std::vector<unsigned> sorted(key);
  std::sort(sorted.begin(), sorted.end());
  for (unsigned i = 0; i < n; ++i)
    if (gk[i] != sorted[i] || gv[i] >= n || key[gv[i]] != gk[i]) { fail("bitonicSort", cfg, i, gk[i], sorted[i]); break; }
  report("bitonicSort", cfg, time_median(op));
  for (unsigned *p : {sk, sv, dk, dv}) CHECK(musaFree(p));
}

// ===================================== mergeSort =============================================
// (1) each 1024-key chunk sorted in shared memory by merging runs of 1, 2, 4, ... keys, every
// key finding its place by a binary search in the partner run; (2) the global passes merging
// runs of 1024 .. n/2 keys the same way, each thread binary-searching global memory.
__device__ inline unsigned bsearch_incl(unsigned val, const unsigned *d, unsigned L) {
  unsigned pos = 0;
  for (unsigned s = L; s > 0; s >>= 1) {
    unsigned np = min(pos + s, L);
    if (d[np - 1] <= val) pos = np;
  }
  return pos;
}
__device__ inline unsigned bsearch_excl(unsigned val, const unsigned *d, unsigned L) {
  unsigned pos = 0;
  for (unsigned s = L; s > 0; s >>= 1) {
    unsigned np = min(pos + s, L);
    if (d[np - 1] < val) pos = np;
  }
  return pos;
}

__global__ void merge_sort_shared(unsigned *dk, unsigned *dv, const unsigned *sk, const unsigned *sv) {
  __shared__ unsigned k[1024], v[1024];
  unsigned t = threadIdx.x, base = blockIdx.x * 1024;
  k[t] = sk[base + t]; v[t] = sv[base + t];
  k[t + 512] = sk[base + t + 512]; v[t + 512] = sv[base + t + 512];
  for (unsigned stride = 1; stride < 1024; stride <<= 1) {
    unsigned lPos = t & (stride - 1);
    unsigned *bk = k + 2 * (t - lPos), *bv = v + 2 * (t - lPos);
    __syncthreads();
    unsigned kA = bk[lPos], vA = bv[lPos], kB = bk[lPos + stride], vB = bv[lPos + stride];
    unsigned pA = bsearch_excl(kA, bk + stride, stride) + lPos;
    unsigned pB = bsearch_incl(kB, bk, stride) + lPos;
    __syncthreads();
    bk[pA] = kA; bv[pA] = vA;
    bk[pB] = kB; bv[pB] = vB;
  }
  __syncthreads();
  dk[base + t] = k[t]; dv[base + t] = v[t];
  dk[base + t + 512] = k[t + 512]; dv[base + t + 512] = v[t + 512];
}

__global__ void merge_pass_global(unsigned *dk, unsigned *dv, const unsigned *sk, const unsigned *sv, unsigned L) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned seg = i / (2 * L), inSeg = i % (2 * L), base = seg * 2 * L;
  unsigned key = sk[i], val = sv[i], dst;
  if (inSeg < L) dst = base + inSeg + bsearch_excl(key, sk + base + L, L);
  else dst = base + (inSeg - L) + bsearch_incl(key, sk + base, L);
  dk[dst] = key;
  dv[dst] = val;
}

static void bench_mergesort() {
  const unsigned n = 1u << 20;
  std::vector<unsigned> key(n), val(n);
  for (unsigned i = 0; i < n; ++i) key[i] = hash_u32(i * 3u + 5u) % (n * 4u), val[i] = i;
  unsigned *sk, *sv, *ck, *cv, *ak, *av, *bk, *bv;
  for (unsigned **p : {&sk, &sv, &ck, &cv, &ak, &av, &bk, &bv}) CHECK(musaMalloc(p, size_t(n) * 4));
  CHECK(musaMemcpy(sk, key.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(sv, val.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  std::vector<unsigned> gk(n), gv(n);
  {
    const char *cfg = "n=1048576,chunk=1024,threads=512";
    auto op = [&] { merge_sort_shared<<<n / 1024, 512>>>(ck, cv, sk, sv); };
    warm(op);
    CHECK(musaMemcpy(gk.data(), ck, size_t(n) * 4, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(gv.data(), cv, size_t(n) * 4, musaMemcpyDeviceToHost));
    for (unsigned c = 0; c < n; c += 1024 * 37) {
      std::vector<unsigned> w(key.begin() + c, key.begin() + c + 1024);
      std::sort(w.begin(), w.end());
      for (unsigned j = 0; j < 1024; ++j)
        if (gk[c + j] != w[j] || key[gv[c + j]] != gk[c + j]) { fail("mergeSort_shared", cfg, c + j, gk[c + j], w[j]); c = n; break; }
    }
    report("mergeSort_shared", cfg, time_median(op));
  }
  {
    const char *cfg = "n=1048576,runs=1024..524288,passes=10";
    unsigned *outk = nullptr, *outv = nullptr;
    auto op = [&] {
      const unsigned *ik = ck, *iv = cv;
      unsigned *ok = ak, *ov = av;
      for (unsigned L = 1024; L < n; L <<= 1) {
        merge_pass_global<<<n / 256, 256>>>(ok, ov, ik, iv, L);
        outk = ok, outv = ov;
        ik = ok, iv = ov;
        ok = (ok == ak) ? bk : ak;
        ov = (ov == av) ? bv : av;
      }
    };
    warm(op);
    CHECK(musaMemcpy(gk.data(), outk, size_t(n) * 4, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(gv.data(), outv, size_t(n) * 4, musaMemcpyDeviceToHost));
    std::vector<unsigned> sorted(key);
    std::sort(sorted.begin(), sorted.end());
    for (unsigned i = 0; i < n; ++i)
      if (gk[i] != sorted[i] || gv[i] >= n || key[gv[i]] != gk[i]) { fail("mergeSort_global", cfg, i, gk[i], sorted[i]); break; }
    report("mergeSort_global", cfg, time_median(op));
  }
  for (unsigned *p : {sk, sv, ck, cv, ak, av, bk, bv}) CHECK(musaFree(p));
}
