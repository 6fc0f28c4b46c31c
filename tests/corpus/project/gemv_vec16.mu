// Decode-phase GEMV y = W x over 16-bit weights (llama.cpp / FasterTransformer style), one warp
// per output row: eight weights per lane per step through one uint4 load, unpacked by
// reinterpret_cast to four __half2 / __nv_bfloat162, converted with static_cast<float> or
// __half22float2 / __bfloat1622float2 and accumulated in float; a second variant accumulates
// in the packed type with __hfma2 (checked bit for bit against the same operation sequence on
// the host). Templated over the element type, instantiated for __half and __nv_bfloat16.
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

template <typename T> struct Vec2;
template <> struct Vec2<__half> { using type = __half2; };
template <> struct Vec2<__nv_bfloat16> { using type = __nv_bfloat162; };
__host__ __device__ inline float2 toFloat2(__half2 v) { return __half22float2(v); }
__host__ __device__ inline float2 toFloat2(__nv_bfloat162 v) { return __bfloat1622float2(v); }

template <typename T>
__global__ void gemvFloatAcc(float *__restrict__ y, const T *__restrict__ W, const T *__restrict__ x, int rows, int cols) {
  using T2 = typename Vec2<T>::type;
  int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (row >= rows) return;
  const uint4 *w4 = reinterpret_cast<const uint4 *>(W + (size_t)row * cols);
  const uint4 *x4 = reinterpret_cast<const uint4 *>(x);
  float acc = 0.f;
  for (int c = lane; c < cols / 8; c += warpSize) {
    uint4 wv = __ldg(w4 + c), xv = __ldg(x4 + c);
    const T2 *wp = reinterpret_cast<const T2 *>(&wv);
    const T2 *xp = reinterpret_cast<const T2 *>(&xv);
#pragma unroll
    for (int j = 0; j < 4; j++) {
      float2 a = toFloat2(wp[j]), b = toFloat2(xp[j]);
      acc += a.x * b.x;
      acc += static_cast<float>(wp[j].y) * static_cast<float>(xp[j].y) - a.y * b.y + a.y * b.y;
    }
  }
  for (int o = warpSize / 2; o > 0; o /= 2) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0) y[row] = acc;
}
// one thread per row, accumulate in the packed type: sequence fixed, so the host can replay it
template <typename T>
__global__ void gemvPackedAcc(T *y, const T *W, const T *x, int rows, int cols) {
  using T2 = typename Vec2<T>::type;
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const T2 *w2 = reinterpret_cast<const T2 *>(W + (size_t)row * cols), *x2 = reinterpret_cast<const T2 *>(x);
  T2 acc = T2(T(0.0f), T(0.0f));
  for (int c = 0; c < cols / 2; c++) acc = __hfma2(w2[c], x2[c], acc);
  y[row] = __hadd(acc.x, acc.y);
}

template <typename T> int run(const char *name) {
  using T2 = typename Vec2<T>::type;
  const int rows = 77, cols = 512;
  std::vector<T> W(rows * cols), x(cols), yp(rows);
  std::vector<float> y(rows);
  uint32_t s = 17;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 9) / 8388608.0f) - 0.5f; };
  for (auto &v : W) v = T(rnd());
  for (auto &v : x) v = T(rnd() * 2.0f);
  T *dW, *dX, *dYp; float *dY;
  CHECK(musaMalloc(&dW, W.size() * 2)); CHECK(musaMalloc(&dX, cols * 2)); CHECK(musaMalloc(&dY, rows * 4)); CHECK(musaMalloc(&dYp, rows * 2));
  CHECK(musaMemcpy(dW, W.data(), W.size() * 2, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dX, x.data(), cols * 2, musaMemcpyHostToDevice));
  int dev; musaDeviceProp p; CHECK(musaGetDevice(&dev)); CHECK(musaGetDeviceProperties(&p, dev));
  int block = 4 * p.warpSize > 1024 ? 1024 : 4 * p.warpSize, wpb = block / p.warpSize;
  gemvFloatAcc<T><<<(rows + wpb - 1) / wpb, block>>>(dY, dW, dX, rows, cols);
  gemvPackedAcc<T><<<(rows + 63) / 64, 64>>>(dYp, dW, dX, rows, cols);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(y.data(), dY, rows * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(yp.data(), dYp, rows * 2, musaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    double ref = 0, mag = 0;
    for (int c = 0; c < cols; c++) { double t = (double)static_cast<float>(W[r * cols + c]) * static_cast<float>(x[c]); ref += t; mag += fabs(t); }
    if (fabs(y[r] - ref) > 1e-5 * mag + 1e-6 && bad++ < 5) printf("%s float-acc row %d: %g want %g\n", name, r, y[r], ref);
    const T2 *w2 = reinterpret_cast<const T2 *>(&W[r * cols]), *x2 = reinterpret_cast<const T2 *>(x.data());
    T2 acc = T2(T(0.0f), T(0.0f));
    for (int c = 0; c < cols / 2; c++) acc = __hfma2(w2[c], x2[c], acc);
    T want = __hadd(acc.x, acc.y);
    if (memcmp(&want, &yp[r], 2) != 0 && bad++ < 10) printf("%s packed row %d: %g want %g\n", name, r, static_cast<float>(yp[r]), static_cast<float>(want));
  }
  musaFree(dW); musaFree(dX); musaFree(dY); musaFree(dYp);
  return bad;
}

int main() {
  int bad = run<__half>("half") + run<__nv_bfloat16>("bf16");
  printf("gemv_vec16: %d mismatches %s\n", bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
