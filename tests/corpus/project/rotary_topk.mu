// Two inference kernels. Rotary position embedding (GPT-NeoX style, rotate_half pairs i and
// i + d/2) on half queries with __sincosf of pos * theta^(-2i/d) computed with __powf / exp2f,
// and the interleaved (GPT-J) form on __half2 pairs. Top-k per row by repeated warp argmax:
// each lane keeps its best candidate, the warp reduces (value, index) with __shfl_xor_sync,
// a __ballot_sync finds the winning lane (mask read per 32-lane slice so any warpSize works).
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <algorithm>

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

__global__ void ropeNeox(__half *q, int heads, int dim, int seq, float theta) {
  int tok = blockIdx.x, h = blockIdx.y, i = threadIdx.x; // i < dim/2
  if (i >= dim / 2) return;
  float freq = __powf(theta, -2.0f * i / dim);
  float s, c; __sincosf(tok * freq, &s, &c);
  __half *v = q + ((size_t)tok * heads + h) * dim;
  float x0 = __half2float(v[i]), x1 = __half2float(v[i + dim / 2]);
  v[i] = __float2half(x0 * c - x1 * s);
  v[i + dim / 2] = __float2half(x1 * c + x0 * s);
}
__global__ void ropeGptj(__half2 *q, int heads, int dim, float theta) {
  int tok = blockIdx.x, h = blockIdx.y, i = threadIdx.x; // pair index < dim/2
  if (i >= dim / 2) return;
  float freq = exp2f(-2.0f * i / dim * log2f(theta));
  float s, c; __sincosf(tok * freq, &s, &c);
  __half2 &p = q[((size_t)tok * heads + h) * (dim / 2) + i];
  float2 f = __half22float2(p);
  p = __floats2half2_rn(f.x * c - f.y * s, f.y * c + f.x * s);
}

// top-k of each row (values distinct), one warp per row
__global__ void topk(const float *x, int cols, int k, float *vals, int *idx) {
  int row = blockIdx.x, lane = threadIdx.x;
  const float *r = x + (size_t)row * cols;
  float lastV = INFINITY;
  for (int j = 0; j < k; j++) {
    float best = -INFINITY; int bi = -1;
    for (int c = lane; c < cols; c += warpSize) {
      float v = r[c];
      if (v < lastV && v > best) { best = v; bi = c; }
    }
    float wb = best;
    for (int o = warpSize / 2; o > 0; o /= 2) wb = fmaxf(wb, __shfl_xor_sync(0xffffffffu, wb, o));
    unsigned ballot = __ballot_sync(0xffffffffu, best == wb && bi >= 0);
    // lowest winning lane of this 32-lane slice; then the lowest slice that has one
    int slice = lane / 32, first = ballot ? __ffs(ballot) - 1 + slice * 32 : 0x7fffffff;
    for (int o = warpSize / 2; o > 0; o /= 2) first = min(first, __shfl_xor_sync(0xffffffffu, first, o));
    int winIdx = __shfl_sync(0xffffffffu, bi, first);
    if (lane == 0) { vals[row * k + j] = wb; idx[row * k + j] = winIdx; }
    lastV = wb;
  }
}

int main() {
  int bad = 0;
  // RoPE
  const int seq = 48, heads = 4, dim = 128; const float theta = 10000.f;
  const int n = seq * heads * dim;
  std::vector<__half> q(n), q1(n), q2(n);
  srand(21);
  for (auto &v : q) v = __float2half(rand() / (float)RAND_MAX * 2 - 1);
  __half *d1, *d2;
  CHECK(musaMalloc(&d1, n * 2)); CHECK(musaMalloc(&d2, n * 2));
  CHECK(musaMemcpy(d1, q.data(), n * 2, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(d2, q.data(), n * 2, musaMemcpyHostToDevice));
  ropeNeox<<<dim3(seq, heads), dim / 2>>>(d1, heads, dim, seq, theta);
  ropeGptj<<<dim3(seq, heads), dim / 2>>>((__half2 *)d2, heads, dim, theta);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(q1.data(), d1, n * 2, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(q2.data(), d2, n * 2, musaMemcpyDeviceToHost));
  double maxE = 0;
  for (int t = 0; t < seq; t++)
    for (int h = 0; h < heads; h++)
      for (int i = 0; i < dim / 2; i++) {
        double f = pow((double)theta, -2.0 * i / dim), a = t * f, c = cos(a), s = sin(a);
        size_t base = ((size_t)t * heads + h) * dim;
        double x0 = __half2float(q[base + i]), x1 = __half2float(q[base + i + dim / 2]);
        double e1 = fabs(__half2float(q1[base + i]) - (x0 * c - x1 * s)), e2 = fabs(__half2float(q1[base + i + dim / 2]) - (x1 * c + x0 * s));
        double y0 = __half2float(q[base + 2 * i]), y1 = __half2float(q[base + 2 * i + 1]);
        double e3 = fabs(__half2float(q2[base + 2 * i]) - (y0 * c - y1 * s)), e4 = fabs(__half2float(q2[base + 2 * i + 1]) - (y1 * c + y0 * s));
        double e = fmax(fmax(e1, e2), fmax(e3, e4));
        maxE = fmax(maxE, e);
        if (e > 2e-3 && bad++ < 5) printf("rope t%d h%d i%d: err %g\n", t, h, i, e);
      }
  // top-k
  const int rows = 20, cols = 1000, k = 10;
  std::vector<float> x(rows * cols);
  for (int r = 0; r < rows; r++) {
    std::vector<int> perm(cols);
    for (int c = 0; c < cols; c++) perm[c] = c;
    for (int c = cols - 1; c > 0; c--) std::swap(perm[c], perm[rand() % (c + 1)]);
    for (int c = 0; c < cols; c++) x[r * cols + c] = perm[c] * 0.5f - 200.f;
  }
  float *dX, *dV; int *dI;
  CHECK(musaMalloc(&dX, x.size() * 4)); CHECK(musaMalloc(&dV, rows * k * 4)); CHECK(musaMalloc(&dI, rows * k * 4));
  CHECK(musaMemcpy(dX, x.data(), x.size() * 4, musaMemcpyHostToDevice));
  int dev; musaDeviceProp p; CHECK(musaGetDevice(&dev)); CHECK(musaGetDeviceProperties(&p, dev));
  topk<<<rows, p.warpSize>>>(dX, cols, k, dV, dI);
  CHECK(musaGetLastError());
  std::vector<float> v(rows * k); std::vector<int> ix(rows * k);
  CHECK(musaMemcpy(v.data(), dV, v.size() * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(ix.data(), dI, ix.size() * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r++) {
    std::vector<std::pair<float, int>> all;
    for (int c = 0; c < cols; c++) all.push_back({x[r * cols + c], c});
    std::sort(all.begin(), all.end(), [](auto a, auto b) { return a.first > b.first; });
    for (int j = 0; j < k; j++)
      if ((v[r * k + j] != all[j].first || ix[r * k + j] != all[j].second) && bad++ < 10)
        printf("topk row %d #%d: (%g, %d) want (%g, %d)\n", r, j, v[r * k + j], ix[r * k + j], all[j].first, all[j].second);
  }
  printf("rotary_topk: rope max err %.3g, top-%d of %d rows, %d mismatches %s\n", maxE, k, rows, bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
