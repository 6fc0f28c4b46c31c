// What one call of each math function, integer division and half2 operation costs on the
// H200, by pipe, as Nsight Compute counts the warp instructions executed (run on the device
// machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/math_pipes.cu -o /tmp/mp &&
//   ncu --csv --page raw --metrics smsp__inst_executed.sum,smsp__inst_executed_pipe_{alu,fma,
//       fmaheavy,xu,fp64,fp16,cbu,adu,lsu,uniform}.sum /tmp/mp
// Each kernel is out[i] = f(in[i], in2[i]) over 2^20 threads (32768 warps) with typical inputs
// (0.5 to 10.5; integer divisors 3 to 1002 that differ per lane); `copy` and `dcopy` are the
// baselines to subtract. Output: math_pipes.h200.txt (per warp, baseline subtracted).
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define K(name, expr)                                                                        \
  __global__ void k_##name(const float *in, const float *in2, float *out) {                  \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
    float x = in[i], y = in2[i];                                                             \
    out[i] = (expr);                                                                         \
    (void)y;                                                                                 \
  }
K(copy, x)
K(fdiv, x / y)
K(rcp, 1.0f / x)
K(sqrt, sqrtf(x))
K(rsqrt, rsqrtf(x))
K(exp, expf(x))
K(exp2, exp2f(x))
K(exp10, exp10f(x))
K(expm1, expm1f(x))
K(exp_fast, __expf(x))
K(log, logf(x))
K(log2, log2f(x))
K(log10, log10f(x))
K(log1p, log1pf(x))
K(sin, sinf(x))
K(cos, cosf(x))
K(tan, tanf(x))
K(pow, powf(x, y))
K(tanh, tanhf(x))
K(erf, erff(x))
K(erfc, erfcf(x))
K(atan, atanf(x))
K(atan2, atan2f(x, y))
K(f2i, float(int(x * 3.7f)))
K(i2f, float(__float_as_int(x) >> 9))
// Fast intrinsics, and sine and cosine of one argument (nvcc computes them as one sincos).
K(sin_fast, __sinf(x))
K(cos_fast, __cosf(x))
K(tan_fast, __tanf(x))
K(log_fast, __logf(x))
K(pow_fast, __powf(x, y))
K(exp10_fast, __exp10f(x))
K(fdivide_fast, __fdividef(x, y))
__device__ float sincos_call(float x) {
  float s, c;
  sincosf(x, &s, &c);
  return s * c;
}
K(sincos, sinf(x) * cosf(x))
K(sincosf_call, sincos_call(x))
K(sincos_fast, __sinf(x) * __cosf(x))

#define KI(name, expr)                                                                       \
  __global__ void k_##name(const unsigned *in, const unsigned *in2, unsigned *out,           \
                           unsigned d) {                                                     \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
    unsigned x = in[i], y = in2[i];                                                          \
    out[i] = (expr);                                                                         \
    (void)y; (void)d;                                                                        \
  }
KI(icopy, x)
KI(urem_var, x % y)
KI(udiv_var, x / y)
KI(srem_var, unsigned(int(x) % int(y)))
KI(sdiv_var, unsigned(int(x) / int(y)))
KI(urem_param, x % d)
KI(udiv_param, x / d)
// Bit operations (__popc, __clz, __brev, __ffs) and other integer intrinsics.
KI(popc, unsigned(__popc(x)))
KI(clz, unsigned(__clz(x)))
KI(brev, __brev(x))
KI(ffs, unsigned(__ffs(x)))
KI(umulhi, __umulhi(x, y))
KI(byte_perm, __byte_perm(x, y, 0x5140))
KI(funnel, __funnelshift_l(x, y, x & 31))

__global__ void k_h2copy(const __half2 *in, const __half2 *in2, __half2 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
__global__ void k_hfma2(const __half2 *in, const __half2 *in2, __half2 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __hfma2(in[i], in2[i], in[i]);
}
__global__ void k_hadd2(const __half2 *in, const __half2 *in2, __half2 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __hadd2(in[i], in2[i]);
}
__global__ void k_hmul(const __half *in, const __half *in2, __half *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __hmul(in[i], in2[i]);
}

#define KD(name, expr)                                                                       \
  __global__ void k_##name(const double *in, const double *in2, double *out) {               \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
    double x = in[i], y = in2[i];                                                            \
    out[i] = (expr);                                                                         \
    (void)y;                                                                                 \
  }
KD(dcopy, x)
KD(ddiv, x / y)
KD(dsqrt, sqrt(x))
KD(dexp, exp(x))
KD(dlog, log(x))
KD(dsin, sin(x))
KD(dpow, pow(x, y))

int main() {
  const int n = 1 << 20, threads = 256, blocks = n / threads;
  float *f, *f2, *fo;
  double *d, *d2, *dout;
  unsigned *u, *u2, *uo;
  cudaMalloc(&f, n * 4); cudaMalloc(&f2, n * 4); cudaMalloc(&fo, n * 4);
  cudaMalloc(&d, n * 8); cudaMalloc(&d2, n * 8); cudaMalloc(&dout, n * 8);
  cudaMalloc(&u, n * 4); cudaMalloc(&u2, n * 4); cudaMalloc(&uo, n * 4);
  float *hf = new float[n];
  double *hd = new double[n];
  unsigned *hu = new unsigned[n], *hu2 = new unsigned[n];
  for (int i = 0; i < n; ++i) {
    hf[i] = 0.5f + float(i % 1000) / 100.f;
    hd[i] = hf[i];
    hu[i] = 1000003u * unsigned(i) + 12345u;
    hu2[i] = 3u + unsigned(i * 7) % 1000u;
  }
  cudaMemcpy(f, hf, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(f2, hf, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(d, hd, n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(d2, hd, n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(u, hu, n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(u2, hu2, n * 4, cudaMemcpyHostToDevice);
  void (*fk[])(const float *, const float *, float *) = {
      k_copy, k_fdiv, k_rcp, k_sqrt, k_rsqrt, k_exp, k_exp2, k_exp10, k_expm1,
      k_exp_fast, k_log, k_log2, k_log10, k_log1p, k_sin, k_cos, k_tan, k_pow,
      k_tanh, k_erf, k_erfc, k_atan, k_atan2, k_f2i, k_i2f, k_sin_fast, k_cos_fast,
      k_tan_fast, k_log_fast, k_pow_fast, k_exp10_fast, k_fdivide_fast, k_sincos, k_sincos_fast,
      k_sincosf_call};
  for (auto k : fk) k<<<blocks, threads>>>(f, f2, fo);
  void (*ik[])(const unsigned *, const unsigned *, unsigned *, unsigned) = {
      k_icopy, k_urem_var, k_udiv_var, k_srem_var, k_sdiv_var, k_urem_param, k_udiv_param,
      k_popc, k_clz, k_brev, k_ffs, k_umulhi, k_byte_perm, k_funnel};
  for (auto k : ik) k<<<blocks, threads>>>(u, u2, uo, 977u);
  k_h2copy<<<blocks, threads>>>((const __half2 *)f, (const __half2 *)f2, (__half2 *)fo);
  k_hfma2<<<blocks, threads>>>((const __half2 *)f, (const __half2 *)f2, (__half2 *)fo);
  k_hadd2<<<blocks, threads>>>((const __half2 *)f, (const __half2 *)f2, (__half2 *)fo);
  k_hmul<<<blocks, threads>>>((const __half *)f, (const __half *)f2, (__half *)fo);
  void (*dk[])(const double *, const double *, double *) = {k_dcopy, k_ddiv, k_dsqrt, k_dexp,
                                                            k_dlog, k_dsin, k_dpow};
  for (auto k : dk) k<<<blocks, threads>>>(d, d2, dout);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("done: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
