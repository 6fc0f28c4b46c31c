// RMSNorm and LayerNorm kernels templated over the element type (float, __half, __nv_bfloat16)
// with float accumulation: one warp per row for RMSNorm (__shfl_xor_sync butterfly, any
// warpSize), one block per row for LayerNorm (warp shuffles, then shared memory across warps);
// conversion helpers chosen with if constexpr, vectorised bf16x2 / half2 loads, __restrict__,
// rsqrtf; compared with a double-precision host reference within the output type's precision.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <musa_bf16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <type_traits>
#include <vector>

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

template <typename T> __host__ __device__ __forceinline__ float toF(T v) {
  if constexpr (std::is_same<T, float>::value) return v;
  else if constexpr (std::is_same<T, __half>::value) return __half2float(v);
  else { static_assert(std::is_same<T, __nv_bfloat16>::value, "type"); return __bfloat162float(v); }
}
template <typename T> __host__ __device__ __forceinline__ T fromF(float v) {
  if constexpr (std::is_same<T, float>::value) return v;
  else if constexpr (std::is_same<T, __half>::value) return __float2half_rn(v);
  else return __float2bfloat16_rn(v);
}
template <typename T> struct Packed2;
template <> struct Packed2<__half> { using type = __half2; };
template <> struct Packed2<__nv_bfloat16> { using type = __nv_bfloat162; };
template <> struct Packed2<float> { using type = float2; };
__device__ __forceinline__ float2 toF2(__half2 v) { return __half22float2(v); }
__device__ __forceinline__ float2 toF2(__nv_bfloat162 v) { return __bfloat1622float2(v); }
__device__ __forceinline__ float2 toF2(float2 v) { return v; }

__device__ __forceinline__ float warpSum(float v) {
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <typename T>
__global__ void rmsnorm(T *__restrict__ out, const T *__restrict__ in, const T *__restrict__ w, int rows, int cols, float eps) {
  int warpsPerBlock = blockDim.x / warpSize;
  int row = blockIdx.x * warpsPerBlock + threadIdx.x / warpSize;
  int lane = threadIdx.x % warpSize;
  if (row >= rows) return; // whole warp leaves together
  using P = typename Packed2<T>::type;
  const P *x2 = reinterpret_cast<const P *>(in + (size_t)row * cols);
  float ss = 0.f;
  for (int c = lane; c < cols / 2; c += warpSize) { float2 f = toF2(x2[c]); ss += f.x * f.x + f.y * f.y; }
  ss = warpSum(ss);
  float inv = rsqrtf(ss / cols + eps);
  for (int c = lane; c < cols; c += warpSize)
    out[(size_t)row * cols + c] = fromF<T>(toF(in[(size_t)row * cols + c]) * inv * toF(w[c]));
}

template <typename T, int BLOCK>
__global__ void layernorm(T *__restrict__ out, const T *__restrict__ in, const T *gamma, const T *beta, int cols, float eps) {
  static_assert(BLOCK % 32 == 0, "block must be whole warps");
  __shared__ float partial[2][BLOCK / 32 > 0 ? BLOCK : 1]; // sized for the smallest warp
  __shared__ float stats[2];
  const T *x = in + (size_t)blockIdx.x * cols;
  float s = 0.f, s2 = 0.f;
  for (int c = threadIdx.x; c < cols; c += BLOCK) { float v = toF(x[c]); s += v; s2 += v * v; }
  s = warpSum(s); s2 = warpSum(s2);
  int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize, nw = (BLOCK + warpSize - 1) / warpSize;
  if (lane == 0) { partial[0][warp] = s; partial[1][warp] = s2; }
  __syncthreads();
  if (threadIdx.x == 0) {
    float a = 0, b = 0;
    for (int i = 0; i < nw; i++) { a += partial[0][i]; b += partial[1][i]; }
    float mean = a / cols;
    stats[0] = mean; stats[1] = rsqrtf(fmaxf(b / cols - mean * mean, 0.f) + eps);
  }
  __syncthreads();
  float mean = stats[0], rstd = stats[1];
  for (int c = threadIdx.x; c < cols; c += BLOCK)
    out[(size_t)blockIdx.x * cols + c] = fromF<T>((toF(x[c]) - mean) * rstd * toF(gamma[c]) + toF(beta[c]));
}

template <typename T> int runType(const char *name, float tol) {
  const int rows = 37, cols = 768; const float eps = 1e-5f;
  std::vector<T> in(rows * cols), w(cols), b(cols), o1(rows * cols), o2(rows * cols);
  uint32_t seed = 99;
  auto rnd = [&]() { seed = seed * 1664525u + 1013904223u; return (seed >> 8) / 16777216.0f; };
  for (auto &v : in) v = fromF<T>(rnd() * 4 - 2 + 0.5f);
  for (auto &v : w) v = fromF<T>(rnd() + 0.5f);
  for (auto &v : b) v = fromF<T>(rnd() - 0.5f);
  T *dIn, *dW, *dB, *dO1, *dO2;
  size_t bytes = in.size() * sizeof(T);
  CHECK(musaMalloc(&dIn, bytes)); CHECK(musaMalloc(&dO1, bytes)); CHECK(musaMalloc(&dO2, bytes));
  CHECK(musaMalloc(&dW, cols * sizeof(T))); CHECK(musaMalloc(&dB, cols * sizeof(T)));
  CHECK(musaMemcpy(dIn, in.data(), bytes, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dW, w.data(), cols * sizeof(T), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, b.data(), cols * sizeof(T), musaMemcpyHostToDevice));
  int dev; musaDeviceProp prop; CHECK(musaGetDevice(&dev)); CHECK(musaGetDeviceProperties(&prop, dev));
  int block = prop.warpSize * 4 > 512 ? 512 : prop.warpSize * 4, wpb = block / prop.warpSize;
  rmsnorm<T><<<(rows + wpb - 1) / wpb, block>>>(dO1, dIn, dW, rows, cols, eps);
  CHECK(musaGetLastError());
  layernorm<T, 256><<<rows, 256>>>(dO2, dIn, dW, dB, cols, eps);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(o1.data(), dO1, bytes, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(o2.data(), dO2, bytes, musaMemcpyDeviceToHost));
  int bad = 0; double e1 = 0, e2 = 0;
  for (int r = 0; r < rows; r++) {
    double ss = 0, s = 0;
    for (int c = 0; c < cols; c++) { double v = toF(in[r * cols + c]); ss += v * v; s += v; }
    double inv = 1.0 / sqrt(ss / cols + eps), mean = s / cols, var = ss / cols - mean * mean, rstd = 1.0 / sqrt(var + eps);
    for (int c = 0; c < cols; c++) {
      double v = toF(in[r * cols + c]);
      double ref1 = v * inv * toF(w[c]), ref2 = (v - mean) * rstd * toF(w[c]) + toF(b[c]);
      double d1 = fabs(toF(o1[r * cols + c]) - ref1) / (fabs(ref1) + 1e-2), d2 = fabs(toF(o2[r * cols + c]) - ref2) / (fabs(ref2) + 1e-1);
      e1 = fmax(e1, d1); e2 = fmax(e2, d2);
      if ((d1 > tol || d2 > tol) && bad++ < 5) printf("%s r%d c%d: rms %g want %g, ln %g want %g\n", name, r, c, toF(o1[r * cols + c]), ref1, toF(o2[r * cols + c]), ref2);
    }
  }
  printf("  %s: max rel err rmsnorm %.3g layernorm %.3g\n", name, e1, e2);
  musaFree(dIn); musaFree(dW); musaFree(dB); musaFree(dO1); musaFree(dO2);
  return bad;
}

int main() {
  int bad = runType<float>("float", 1e-4f) + runType<__half>("half", 2e-3f) + runType<__nv_bfloat16>("bf16", 1.6e-2f);
  printf("rmsnorm_layernorm_t: %d mismatches %s\n", bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
