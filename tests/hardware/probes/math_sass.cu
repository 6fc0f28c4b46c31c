// What one call of each float math function costs in SASS on sm_90 (CUDA 13, -O3, no
// fast-math): the timing model's expansion of special functions and division. Run on the
// device machine (compiles only):
//   nvcc -O3 -arch=sm_90 -cubin tests/hardware/probes/math_sass.cu -o /tmp/m.cubin &&
//   cuobjdump -sass /tmp/m.cubin | sh tests/hardware/probes/math_sass_count.sh
// Each kernel is out[i] = f(in[i]) (or f(a, b)); `copy` is the baseline to subtract.
#define K(name, expr)                                                                        \
  extern "C" __global__ void k_##name(const float *in, const float *in2, float *out) {           \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                           \
    float x = in[i]; float y = in2[i];                                                          \
    out[i] = (expr);                                                                         \
    (void)y;                                                                                 \
  }
K(copy, x)
K(fdiv, x / y)
K(sqrt_, sqrtf(x))
K(rsqrt_, rsqrtf(x))
K(exp_, expf(x))
K(exp_fast, __expf(x))
K(log_, logf(x))
K(sin_, sinf(x))
K(cos_, cosf(x))
K(pow_, powf(x, y))
K(tanh_, tanhf(x))
K(erf_, erff(x))
K(atan2_, atan2f(x, y))
K(exp2_, exp2f(x))
K(log2_, log2f(x))
K(rcp, 1.0f / x)
extern "C" __global__ void ddiv(const double *in, const double *in2, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] / in2[i];
}
extern "C" __global__ void dsqrt(const double *in, const double *in2, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = sqrt(in[i]);
}
extern "C" __global__ void dcopy(const double *in, const double *in2, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
