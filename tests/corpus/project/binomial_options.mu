// binomialOptions-style: one block per option, the binomial tree's backward induction in shared
// memory with __syncthreads between steps; call values from __constant__ option data set with
// musaMemcpyToSymbol; double precision, against the same recurrence on the host and
// Black-Scholes as a sanity bound.
#include <musa_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define NUM_STEPS 512
#define MAX_OPTIONS 32
#define THREADBLOCK_SIZE 128
#define ELEMS_PER_THREAD (NUM_STEPS / THREADBLOCK_SIZE)

struct __align__(8) TOptionData { double S, X, vDt, puByDf, pdByDf; };
__constant__ TOptionData d_OptionData[MAX_OPTIONS];
__device__ double d_CallValue[MAX_OPTIONS];

__device__ inline double expiryCallValue(double S, double X, double vDt, int i) {
  double d = S * exp(vDt * (2.0 * i - NUM_STEPS)) - X;
  return (d > 0.0) ? d : 0.0;
}

__global__ void binomialOptionsKernel() {
  __shared__ double call_exchange[THREADBLOCK_SIZE + 1];
  const int tid = threadIdx.x;
  const double S = d_OptionData[blockIdx.x].S, X = d_OptionData[blockIdx.x].X, vDt = d_OptionData[blockIdx.x].vDt;
  const double puByDf = d_OptionData[blockIdx.x].puByDf, pdByDf = d_OptionData[blockIdx.x].pdByDf;
  double call[ELEMS_PER_THREAD + 1];
#pragma unroll
  for (int i = 0; i < ELEMS_PER_THREAD; ++i) call[i] = expiryCallValue(S, X, vDt, tid * ELEMS_PER_THREAD + i);
  if (tid == 0) call_exchange[THREADBLOCK_SIZE] = expiryCallValue(S, X, vDt, NUM_STEPS);
  int final_it = max(0, tid * ELEMS_PER_THREAD - 1);
#pragma unroll 16
  for (int i = NUM_STEPS; i > 0; --i) {
    call_exchange[tid] = call[0];
    __syncthreads();
    call[ELEMS_PER_THREAD] = call_exchange[tid + 1];
    __syncthreads();
    if (i > final_it) {
#pragma unroll
      for (int j = 0; j < ELEMS_PER_THREAD; ++j) call[j] = puByDf * call[j + 1] + pdByDf * call[j];
    }
  }
  if (tid == 0) d_CallValue[blockIdx.x] = call[0];
}

static double hostBinomial(const TOptionData &o) {
  std::vector<double> c(NUM_STEPS + 1);
  for (int i = 0; i <= NUM_STEPS; ++i) { double d = o.S * exp(o.vDt * (2.0 * i - NUM_STEPS)) - o.X; c[i] = d > 0 ? d : 0; }
  for (int i = NUM_STEPS; i > 0; --i)
    for (int j = 0; j < i; ++j) c[j] = o.puByDf * c[j + 1] + o.pdByDf * c[j];
  return c[0];
}
static double CND(double d) {
  return 0.5 * erfc(-d / sqrt(2.0));
}
static double blackScholes(double S, double X, double T, double R, double V) {
  double sqrtT = sqrt(T), d1 = (log(S / X) + (R + 0.5 * V * V) * T) / (V * sqrtT), d2 = d1 - V * sqrtT;
  return S * CND(d1) - X * exp(-R * T) * CND(d2);
}

int main() {
  const int N = MAX_OPTIONS;
  const double R = 0.02, V = 0.30;
  std::vector<TOptionData> opt(N);
  std::vector<double> S(N), X(N), T(N);
  srand(123);
  for (int i = 0; i < N; ++i) {
    S[i] = 5.0 + 25.0 * rand() / RAND_MAX; X[i] = 1.0 + 99.0 * rand() / RAND_MAX; T[i] = 0.25 + 9.75 * rand() / RAND_MAX;
    double dt = T[i] / NUM_STEPS, vDt = V * sqrt(dt), rDt = R * dt, If = exp(rDt), Df = exp(-rDt);
    double u = exp(vDt), d = exp(-vDt), pu = (If - d) / (u - d), pd = 1.0 - pu;
    opt[i] = {S[i], X[i], vDt, pu * Df, pd * Df};
  }
  musaMemcpyToSymbol(d_OptionData, opt.data(), N * sizeof(TOptionData));
  binomialOptionsKernel<<<N, THREADBLOCK_SIZE>>>();
  std::vector<double> res(N);
  musaError_t e = musaMemcpyFromSymbol(res.data(), d_CallValue, N * sizeof(double));
  bool ok = e == musaSuccess && musaDeviceSynchronize() == musaSuccess;
  double maxRel = 0, maxBS = 0;
  for (int i = 0; i < N; ++i) {
    double ref = hostBinomial(opt[i]);
    double rel = fabs(res[i] - ref) / fmax(1e-10, fabs(ref));
    if (rel > maxRel) maxRel = rel;
    double bs = blackScholes(S[i], X[i], T[i], R, V);
    double dbs = fabs(res[i] - bs);
    if (dbs > maxBS) maxBS = dbs;
  }
  printf("max rel diff vs host tree %.3g, max abs diff vs Black-Scholes %.3g\n", maxRel, maxBS);
  if (maxRel > 1e-12 || maxBS > 0.05) ok = false;
  printf("binomialOptions: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
