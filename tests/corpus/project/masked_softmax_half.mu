// Causal masked softmax over attention scores (half in, half out), one warp per row as in
// inference kernels: scores scaled, positions past the row masked to -INFINITY, row max with
// __shfl_xor_sync (fmaxf of -inf), __expf(x - max) (exp of -inf is 0), sum and normalise;
// plus an all-masked row that must give zeros (guarded 1/sum), and NaN-free outputs.
// Host reference in double; any warpSize.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ float warpMax(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ float warpSum(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// rows = heads * seq; row r's query position is r % seq; key k is visible if k <= q + offset
template <int MAX_PER_LANE>
__global__ void causalSoftmax(__half *out, const __half *scores, int rows, int seq, float scale, int offset) {
  int row = blockIdx.x * (blockDim.x / warpSize) + threadIdx.x / warpSize;
  int lane = threadIdx.x % warpSize;
  if (row >= rows) return;
  int q = row % seq;
  float v[MAX_PER_LANE];
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < MAX_PER_LANE; i++) {
    int k = lane + i * warpSize;
    v[i] = -INFINITY;
    if (k < seq) {
      float s = __half2float(scores[(size_t)row * seq + k]) * scale;
      v[i] = (k <= q + offset) ? s : -INFINITY;
    }
    m = fmaxf(m, v[i]);
  }
  m = warpMax(m);
  float sum = 0.f;
#pragma unroll
  for (int i = 0; i < MAX_PER_LANE; i++) {
    v[i] = (m == -INFINITY) ? 0.f : __expf(v[i] - m);
    sum += v[i];
  }
  sum = warpSum(sum);
  float inv = sum > 0.f ? __fdividef(1.0f, sum) : 0.f;
#pragma unroll
  for (int i = 0; i < MAX_PER_LANE; i++) {
    int k = lane + i * warpSize;
    if (k < seq) out[(size_t)row * seq + k] = __float2half(v[i] * inv);
  }
}

int main() {
  const int heads = 4, seq = 200, rows = heads * seq; const float scale = 0.125f;
  std::vector<__half> s(rows * seq), o(rows * seq);
  srand(11);
  for (auto &x : s) x = __float2half((rand() / (float)RAND_MAX) * 40.f - 20.f);
  __half *dS, *dO;
  CHECK(musaMalloc(&dS, s.size() * 2)); CHECK(musaMalloc(&dO, o.size() * 2));
  CHECK(musaMemcpy(dS, s.data(), s.size() * 2, musaMemcpyHostToDevice));
  int dev; musaDeviceProp p; CHECK(musaGetDevice(&dev)); CHECK(musaGetDeviceProperties(&p, dev));
  int ws = p.warpSize, block = 4 * ws > 1024 ? 1024 : 4 * ws, wpb = block / ws;
  int bad = 0;
  // offset -1 masks the whole first row of each head (query 0 sees nothing)
  for (int offset = 0; offset >= -1; offset--) {
    if (ws == 32) causalSoftmax<7><<<(rows + wpb - 1) / wpb, block>>>(dO, dS, rows, seq, scale, offset);
    else causalSoftmax<2><<<(rows + wpb - 1) / wpb, block>>>(dO, dS, rows, seq, scale, offset);
    CHECK(musaGetLastError());
    CHECK(musaMemcpy(o.data(), dO, o.size() * 2, musaMemcpyDeviceToHost));
    double maxErr = 0;
    for (int r = 0; r < rows; r++) {
      int q = r % seq;
      double m = -INFINITY, sum = 0;
      for (int k = 0; k <= q + offset && k < seq; k++) m = fmax(m, __half2float(s[r * seq + k]) * (double)scale);
      for (int k = 0; k <= q + offset && k < seq; k++) sum += exp(__half2float(s[r * seq + k]) * (double)scale - m);
      for (int k = 0; k < seq; k++) {
        double ref = (k <= q + offset && sum > 0) ? exp(__half2float(s[r * seq + k]) * (double)scale - m) / sum : 0.0;
        float got = __half2float(o[r * seq + k]);
        double err = fabs(got - ref);
        if (err > maxErr) maxErr = err;
        if ((isnan(got) || err > 1e-3 + 2e-3 * ref) && bad++ < 10) printf("offset %d row %d k %d: got %g want %g\n", offset, r, k, got, ref);
      }
    }
    printf("  offset %d: max abs err %.3g\n", offset, maxErr);
  }
  printf("masked_softmax_half: %d rows of %d, %d mismatches %s\n", rows, seq, bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
