// All-pairs n-body step (the nbody sample's tiled body-body interaction): float4 positions staged through shared memory, softened gravity, rsqrtf.
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

#define TILE 128
#define SOFT2 0.01f

__device__ float3 interact(float4 bi, float4 bj, float3 a) {
  float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
  float d2 = r.x * r.x + r.y * r.y + r.z * r.z + SOFT2;
  float inv = rsqrtf(d2);
  float s = bj.w * inv * inv * inv;
  a.x += r.x * s;
  a.y += r.y * s;
  a.z += r.z * s;
  return a;
}

__global__ void accelerations(const float4 *pos, float3 *acc, int n) {
  __shared__ float4 tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? pos[i] : make_float4(0, 0, 0, 0);
  float3 a = make_float3(0, 0, 0);
  for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
    int j = t * TILE + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0); // w = 0: no mass
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      a = interact(me, tile[k], a);
    __syncthreads();
  }
  if (i < n)
    acc[i] = a;
}

int main() {
  const int n = 2048;
  float4 *p = (float4 *)malloc(n * sizeof(float4));
  float3 *a = (float3 *)malloc(n * sizeof(float3));
  unsigned seed = 7;
  auto rnd = [&]() {
    seed = seed * 1664525u + 1013904223u;
    return (seed >> 8) / 16777216.0f * 2.0f - 1.0f;
  };
  for (int i = 0; i < n; ++i)
    p[i] = make_float4(rnd(), rnd(), rnd(), 0.5f + 0.5f * fabsf(rnd()));
  float4 *dp;
  float3 *da;
  CHECK(musaMalloc(&dp, n * sizeof(float4)));
  CHECK(musaMalloc(&da, n * sizeof(float3)));
  CHECK(musaMemcpy(dp, p, n * sizeof(float4), musaMemcpyHostToDevice));
  accelerations<<<n / TILE, TILE>>>(dp, da, n);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(a, da, n * sizeof(float3), musaMemcpyDeviceToHost));
  double maxRel = 0.0;
  for (int i = 0; i < n; i += 7) { // a sample of bodies, in double on the host
    double ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
      double rx = p[j].x - p[i].x, ry = p[j].y - p[i].y, rz = p[j].z - p[i].z;
      double d2 = rx * rx + ry * ry + rz * rz + SOFT2;
      double s = p[j].w / (d2 * sqrt(d2));
      ax += rx * s;
      ay += ry * s;
      az += rz * s;
    }
    double norm = sqrt(ax * ax + ay * ay + az * az) + 1e-6;
    double err = sqrt((a[i].x - ax) * (a[i].x - ax) + (a[i].y - ay) * (a[i].y - ay) +
                      (a[i].z - az) * (a[i].z - az));
    if (err / norm > maxRel)
      maxRel = err / norm;
  }
  bool ok = maxRel < 1e-3;
  printf("nbody: %d bodies, max relative error %.3g, %s\n", n, maxRel, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
