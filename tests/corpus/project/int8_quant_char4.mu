// Per-row symmetric int8 quantisation as inference code does it: a block finds the row's
// absolute maximum (warp shuffles, then shared memory), scale = amax / 127, each thread
// quantises four values with __float2int_rn, clamps to [-127, 127] and stores them as one
// char4; dequantisation reads char4 back and multiplies by the scale into __half. Also an int8
// GEMV with __dp4a over the packed rows against the host's exact integer dot products, and
// byte stores by neighbouring threads (int8_t per thread) that must not clobber each other.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <vector>

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

__device__ __forceinline__ float warpMax(float v) {
  for (int o = warpSize / 2; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}
__device__ __forceinline__ int8_t q8(float x, float inv) {
  int q = __float2int_rn(x * inv);
  return (int8_t)max(-127, min(127, q));
}

__global__ void quantizeRows(char4 *__restrict__ q, float *__restrict__ scales, const float4 *__restrict__ x, int cols4) {
  __shared__ float red[1024];
  const float4 *row = x + (size_t)blockIdx.x * cols4;
  float m = 0.f;
  for (int c = threadIdx.x; c < cols4; c += blockDim.x) {
    float4 v = row[c];
    m = fmaxf(m, fmaxf(fmaxf(fabsf(v.x), fabsf(v.y)), fmaxf(fabsf(v.z), fabsf(v.w))));
  }
  m = warpMax(m);
  int warp = threadIdx.x / warpSize, nw = (blockDim.x + warpSize - 1) / warpSize;
  if (threadIdx.x % warpSize == 0) red[warp] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    float a = 0.f;
    for (int i = 0; i < nw; i++) a = fmaxf(a, red[i]);
    red[1023] = a;
    scales[blockIdx.x] = a / 127.f;
  }
  __syncthreads();
  float amax = red[1023];
  float inv = amax > 0.f ? 127.f / amax : 0.f;
  for (int c = threadIdx.x; c < cols4; c += blockDim.x) {
    float4 v = row[c];
    q[(size_t)blockIdx.x * cols4 + c] = make_char4(q8(v.x, inv), q8(v.y, inv), q8(v.z, inv), q8(v.w, inv));
  }
}
__global__ void dequant(__half *out, const char4 *q, const float *scales, int cols4, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n4) return;
  char4 v = q[i];
  float s = scales[i / cols4];
  __half2 *o = reinterpret_cast<__half2 *>(out + 4 * (size_t)i);
  o[0] = __floats2half2_rn(v.x * s, v.y * s);
  o[1] = __floats2half2_rn(v.z * s, v.w * s);
}
// y[r] = sum_c q[r][c] * xq[c] with __dp4a over packed ints
__global__ void gemvDp4a(int *y, const int *qrows, const int *xq, int cols4, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int acc = 0;
  for (int c = 0; c < cols4; c++) acc = __dp4a(qrows[(size_t)r * cols4 + c], xq[c], acc);
  y[r] = acc;
}
__global__ void byteStores(int8_t *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (int8_t)((i * 37) ^ (i >> 3));
}

static int8_t hq8(float x, float inv) { int q = (int)nearbyintf(x * inv); return (int8_t)(q < -127 ? -127 : q > 127 ? 127 : q); }

int main() {
  const int rows = 64, cols = 1024, cols4 = cols / 4, n = rows * cols;
  std::vector<float> x(n);
  srand(5);
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) x[r * cols + c] = (rand() / (float)RAND_MAX - 0.5f) * (1 + r);
  for (int c = 0; c < cols; c++) x[7 * cols + c] = 0.f; // an all-zero row: scale 0
  float *dX, *dS; char4 *dQ; __half *dD;
  CHECK(musaMalloc(&dX, n * 4)); CHECK(musaMalloc(&dS, rows * 4)); CHECK(musaMalloc(&dQ, n)); CHECK(musaMalloc(&dD, n * 2));
  CHECK(musaMemcpy(dX, x.data(), n * 4, musaMemcpyHostToDevice));
  quantizeRows<<<rows, 256>>>(dQ, dS, (const float4 *)dX, cols4);
  CHECK(musaGetLastError());
  dequant<<<(n / 4 + 127) / 128, 128>>>(dD, dQ, dS, cols4, n / 4);
  CHECK(musaGetLastError());
  std::vector<int8_t> q(n); std::vector<float> s(rows); std::vector<__half> d(n);
  CHECK(musaMemcpy(q.data(), dQ, n, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(s.data(), dS, rows * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(d.data(), dD, n * 2, musaMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < rows; r++) {
    float amax = 0; for (int c = 0; c < cols; c++) amax = fmaxf(amax, fabsf(x[r * cols + c]));
    float scale = amax / 127.f, inv = amax > 0 ? 127.f / amax : 0.f;
    if (s[r] != scale && bad++ < 5) printf("row %d scale %g want %g\n", r, s[r], scale);
    for (int c = 0; c < cols; c++) {
      int8_t want = hq8(x[r * cols + c], inv);
      if (q[r * cols + c] != want && bad++ < 10) printf("q[%d][%d] = %d want %d\n", r, c, q[r * cols + c], want);
      float dw = __half2float(__float2half(want * scale));
      if (__half2float(d[r * cols + c]) != dw && bad++ < 15) printf("dq[%d][%d] = %g want %g\n", r, c, __half2float(d[r * cols + c]), dw);
    }
  }
  // dp4a GEMV: x quantised with row 3's scale
  std::vector<int8_t> xq(cols);
  for (int c = 0; c < cols; c++) xq[c] = (int8_t)((c * 7) % 255 - 127);
  int *dXq, *dY;
  CHECK(musaMalloc(&dXq, cols)); CHECK(musaMalloc(&dY, rows * 4));
  CHECK(musaMemcpy(dXq, xq.data(), cols, musaMemcpyHostToDevice));
  gemvDp4a<<<1, rows>>>(dY, (const int *)dQ, dXq, cols4, rows);
  std::vector<int> y(rows);
  CHECK(musaMemcpy(y.data(), dY, rows * 4, musaMemcpyDeviceToHost));
  for (int r = 0; r < rows; r++) {
    int acc = 0; for (int c = 0; c < cols; c++) acc += q[r * cols + c] * xq[c];
    if (y[r] != acc && bad++ < 20) printf("dp4a row %d: %d want %d\n", r, y[r], acc);
  }
  // neighbouring byte stores
  const int nb = 100003;
  int8_t *dB; CHECK(musaMalloc(&dB, nb));
  byteStores<<<(nb + 255) / 256, 256>>>(dB, nb);
  std::vector<int8_t> bb(nb);
  CHECK(musaMemcpy(bb.data(), dB, nb, musaMemcpyDeviceToHost));
  for (int i = 0; i < nb; i++) if (bb[i] != (int8_t)((i * 37) ^ (i >> 3)) && bad++ < 25) printf("byte %d: %d\n", i, bb[i]);
  printf("int8_quant_char4: %d values, %d mismatches %s\n", n, bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
