// Generic kernels written once over typename T, as in PyTorch extensions and Apex: an
// accumulate type trait (float for __half), static_cast<float>(x) and static_cast<T>(acc),
// T(0), operators (+, *, +=, <, unary -) used on T directly, an axpby, a dot product
// with a block reduction, a row-wise max; instantiated for float, double and __half; plus
// cooperative_groups::reduce over a 32-thread tile with cg::plus<__half> and cg::greater<__half>.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <type_traits>
#include <vector>
namespace cg = cooperative_groups;

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

template <typename T> struct AccType { using type = T; };
template <> struct AccType<__half> { using type = float; };

template <typename T>
__global__ void axpby(T *__restrict__ y, const T *__restrict__ x, T a, T b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b * y[i];
}
template <typename T, int BLOCK>
__global__ void dot(typename AccType<T>::type *out, const T *x, const T *y, int n) {
  using Acc = typename AccType<T>::type;
  __shared__ Acc sh[BLOCK];
  Acc acc = Acc(0);
  for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
    acc += static_cast<Acc>(x[i]) * static_cast<Acc>(y[i]);
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] += sh[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, sh[0]);
}
template <typename T>
__global__ void rowMaxNeg(T *out, const T *x, int cols) {
  // one thread per row: out = -max(row)
  const T *r = x + (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * cols;
  T m = r[0];
  for (int c = 1; c < cols; c++) if (m < r[c]) m = r[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = -m;
}
__global__ void cgHalf(__half *out, const __half *x) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  __half v = x[blockIdx.x * blockDim.x + threadIdx.x];
  __half s = cg::reduce(tile, v, cg::plus<__half>());
  __half m = cg::reduce(tile, v, cg::greater<__half>());
  if (tile.thread_rank() == 0) {
    int t = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    out[2 * t] = s; out[2 * t + 1] = m;
  }
}

template <typename T> int run(const char *name) {
  using Acc = typename AccType<T>::type;
  const int n = 5000, rows = 64, cols = 33;
  std::vector<T> x(n), y(n), y2(n);
  for (int i = 0; i < n; i++) { x[i] = static_cast<T>((i % 17) * 0.25f); y[i] = static_cast<T>((i % 5) - 2.0f); }
  T *dX, *dY; Acc *dDot;
  CHECK(musaMalloc(&dX, n * sizeof(T))); CHECK(musaMalloc(&dY, n * sizeof(T))); CHECK(musaMalloc(&dDot, sizeof(Acc)));
  CHECK(musaMemcpy(dX, x.data(), n * sizeof(T), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dY, y.data(), n * sizeof(T), musaMemcpyHostToDevice));
  CHECK(musaMemset(dDot, 0, sizeof(Acc)));
  dot<T, 128><<<8, 128>>>(dDot, dX, dY, n);
  axpby<T><<<(n + 127) / 128, 128>>>(dY, dX, T(2), static_cast<T>(-0.5f), n);
  CHECK(musaGetLastError());
  Acc gotDot; CHECK(musaMemcpy(&gotDot, dDot, sizeof(Acc), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(y2.data(), dY, n * sizeof(T), musaMemcpyDeviceToHost));
  int bad = 0;
  double wantDot = 0;
  for (int i = 0; i < n; i++) {
    wantDot += (double)static_cast<Acc>(x[i]) * static_cast<Acc>(y[i]);
    T want = T(2) * x[i] + static_cast<T>(-0.5f) * y[i];
    if (!(y2[i] == want) && bad++ < 5) printf("%s axpby %d: %g want %g\n", name, i, (double)static_cast<Acc>(y2[i]), (double)static_cast<Acc>(want));
  }
  if ((double)gotDot != wantDot && bad++ < 6) printf("%s dot %g want %g\n", name, (double)gotDot, wantDot);
  // row max
  std::vector<T> m(rows * cols), o(rows);
  for (int i = 0; i < rows * cols; i++) m[i] = static_cast<T>((float)((i * 37) % 101) - 50.0f);
  T *dM, *dO;
  CHECK(musaMalloc(&dM, m.size() * sizeof(T))); CHECK(musaMalloc(&dO, rows * sizeof(T)));
  CHECK(musaMemcpy(dM, m.data(), m.size() * sizeof(T), musaMemcpyHostToDevice));
  rowMaxNeg<T><<<2, rows / 2>>>(dO, dM, cols);
  CHECK(musaMemcpy(o.data(), dO, rows * sizeof(T), musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r++) {
    float mx = -1e9f; for (int c = 0; c < cols; c++) mx = fmaxf(mx, (float)static_cast<Acc>(m[r * cols + c]));
    if ((float)static_cast<Acc>(o[r]) != -mx && bad++ < 8) printf("%s rowmax %d: %g want %g\n", name, r, (double)static_cast<Acc>(o[r]), -mx);
  }
  musaFree(dX); musaFree(dY); musaFree(dDot); musaFree(dM); musaFree(dO);
  return bad;
}

int main() {
  int bad = run<float>("float") + run<double>("double") + run<__half>("half");
  // cg::reduce over half
  const int nt = 256;
  std::vector<__half> h(nt), o(2 * nt / 32);
  for (int i = 0; i < nt; i++) h[i] = __float2half((float)((i * 13) % 32) * 0.5f - 4.0f);
  __half *dH, *dO;
  CHECK(musaMalloc(&dH, nt * 2)); CHECK(musaMalloc(&dO, o.size() * 2));
  CHECK(musaMemcpy(dH, h.data(), nt * 2, musaMemcpyHostToDevice));
  cgHalf<<<2, nt / 2>>>(dO, dH);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(o.data(), dO, o.size() * 2, musaMemcpyDeviceToHost));
  for (int t = 0; t < nt / 32; t++) {
    float s = 0, m = -1e9f;
    for (int i = 0; i < 32; i++) { float v = __half2float(h[t * 32 + i]); s += v; m = fmaxf(m, v); }
    if ((__half2float(o[2 * t]) != s || __half2float(o[2 * t + 1]) != m) && bad++ < 12)
      printf("cg tile %d: sum %g max %g want %g %g\n", t, __half2float(o[2 * t]), __half2float(o[2 * t + 1]), s, m);
  }
  printf("generic_templates_half: %d mismatches %s\n", bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
