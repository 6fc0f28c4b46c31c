// Built-in vector types: float4/int2/uchar4/double2 loads and stores, make_* constructors, and a float4-vectorised copy-scale kernel processing four floats per thread.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void scale4(const float4 *in, float4 *out, int n4, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = in[i];
    out[i] = make_float4(v.x * s, v.y * s, v.z * s, v.w * s);
  }
}

__global__ void mixed(const int2 *pairs, const uchar4 *pixels, double2 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int2 p = pairs[i];
    uchar4 px = pixels[i];
    out[i] = make_double2(p.x * 0.5 + p.y, (double)(px.x + px.y + px.z) / 3.0 + px.w);
  }
}

int main() {
  const int n = 1 << 18, n4 = n / 4;
  float *h = (float *)malloc(n * sizeof(float)), *res = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 1000) * 0.5f;
  float4 *din, *dout;
  CHECK(musaMalloc(&din, n * sizeof(float)));
  CHECK(musaMalloc(&dout, n * sizeof(float)));
  CHECK(musaMemcpy(din, h, n * sizeof(float), musaMemcpyHostToDevice));
  scale4<<<(n4 + 255) / 256, 256>>>(din, dout, n4, 4.0f);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dout, n * sizeof(float), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += res[i] != h[i] * 4.0f;
  const int m = 1000;
  int2 *pairs = (int2 *)malloc(m * sizeof(int2));
  uchar4 *px = (uchar4 *)malloc(m * sizeof(uchar4));
  double2 *out = (double2 *)malloc(m * sizeof(double2));
  for (int i = 0; i < m; ++i) {
    pairs[i] = make_int2(i, -i / 2);
    px[i] = make_uchar4(i % 256, (i * 3) % 256, (i * 7) % 256, i % 2);
  }
  int2 *dp;
  uchar4 *dpx;
  double2 *dout2;
  CHECK(musaMalloc(&dp, m * sizeof(int2)));
  CHECK(musaMalloc(&dpx, m * sizeof(uchar4)));
  CHECK(musaMalloc(&dout2, m * sizeof(double2)));
  CHECK(musaMemcpy(dp, pairs, m * sizeof(int2), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dpx, px, m * sizeof(uchar4), musaMemcpyHostToDevice));
  mixed<<<(m + 127) / 128, 128>>>(dp, dpx, dout2, m);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(out, dout2, m * sizeof(double2), musaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) {
    double x = pairs[i].x * 0.5 + pairs[i].y, y = (double)(px[i].x + px[i].y + px[i].z) / 3.0 + px[i].w;
    bad += out[i].x != x || out[i].y != y;
  }
  bool ok = !bad && sizeof(float4) == 16 && sizeof(double2) == 16 && sizeof(uchar4) == 4;
  printf("vector_types: float4 x %d, int2/uchar4/double2 x %d, %s\n", n4, m, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
