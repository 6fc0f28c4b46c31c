// Extended __device__ and __host__ __device__ lambdas (nvcc --extended-lambda) passed to templated kernels: a generic transform, a grid-stride for_each capturing pointers by value, a lambda-parameterised reduction and a lambda used on host and device.
#include <musa_runtime.h>
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

template <typename F>
__global__ void forEach(int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    f(i);
}

template <typename T, typename Op>
__global__ void transformKernel(const T *__restrict__ in, T *__restrict__ out, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = op(in[i]);
}

template <typename T, typename Map, typename Combine>
__global__ void mapReduce(const T *in, int n, T init, Map map, Combine comb, T *out) {
  extern __shared__ unsigned char smem_raw[];
  T *sm = reinterpret_cast<T *>(smem_raw);
  T acc = init;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    acc = comb(acc, map(in[i]));
  sm[threadIdx.x] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      sm[threadIdx.x] = comb(sm[threadIdx.x], sm[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = sm[0];
}

template <typename F>
__global__ void callTwice(int *out, F f) { out[threadIdx.x] = f(f(threadIdx.x)); }

int main() {
  const int n = 10000, threads = 128, blocks = 16;
  float *x, *y, *z;
  CHECK(musaMalloc(&x, n * sizeof(float)));
  CHECK(musaMalloc(&y, n * sizeof(float)));
  CHECK(musaMalloc(&z, n * sizeof(float)));
  float a = 2.5f;
  forEach<<<blocks, threads>>>(n, [=] __device__(int i) { x[i] = 0.5f * i; y[i] = (float)(i % 17); });
  CHECK(musaGetLastError());
  forEach<<<blocks, threads>>>(n, [=] __device__(int i) { z[i] = a * x[i] + y[i]; }); // saxpy
  CHECK(musaGetLastError());
  int shift = 3;
  transformKernel<<<(n + threads - 1) / threads, threads>>>(z, x, n, [shift] __device__(float v) { return v - shift; });
  CHECK(musaGetLastError());
  double *dd, *dpart;
  CHECK(musaMalloc(&dd, n * sizeof(double)));
  CHECK(musaMalloc(&dpart, blocks * sizeof(double)));
  forEach<<<blocks, threads>>>(n, [=] __device__(int i) { dd[i] = (double)(i % 100) - 49.5; });
  mapReduce<<<blocks, threads, threads * sizeof(double)>>>(
      dd, n, 0.0, [] __device__(double v) { return v * v; },
      [] __device__(double p, double q) { return p + q; }, dpart);
  CHECK(musaGetLastError());
  double *dmax;
  CHECK(musaMalloc(&dmax, blocks * sizeof(double)));
  mapReduce<<<blocks, threads, threads * sizeof(double)>>>(
      dd, n, -1e300, [] __device__(double v) { return fabs(v); },
      [] __device__(double p, double q) { return p > q ? p : q; }, dmax);
  CHECK(musaGetLastError());
  auto poly = [] __host__ __device__(int v) { return (v * v + 3 * v + 1) % 1009; };
  int *dp;
  CHECK(musaMalloc(&dp, threads * sizeof(int)));
  callTwice<<<1, threads>>>(dp, poly);
  CHECK(musaGetLastError());

  float *hx = (float *)malloc(n * sizeof(float));
  double hpart[blocks], hmax[blocks];
  int hp[threads];
  CHECK(musaMemcpy(hx, x, n * sizeof(float), musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(hpart, dpart, sizeof hpart, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(hmax, dmax, sizeof hmax, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(hp, dp, sizeof hp, musaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    float ref = a * (0.5f * i) + (float)(i % 17) - shift;
    if (fabsf(hx[i] - ref) > 1e-3f * (fabsf(ref) + 1)) {
      printf("x[%d] = %f, want %f\n", i, hx[i], ref);
      ok = false;
      break;
    }
  }
  double sq = 0, refSq = 0, mx = 0;
  for (int b = 0; b < blocks; ++b) {
    sq += hpart[b];
    mx = hmax[b] > mx ? hmax[b] : mx;
  }
  for (int i = 0; i < n; ++i) {
    double v = (double)(i % 100) - 49.5;
    refSq += v * v;
  }
  ok = ok && fabs(sq - refSq) < 1e-6 * refSq && mx == 49.5;
  for (int t = 0; t < threads; ++t)
    ok = ok && hp[t] == poly(poly(t));
  printf("device_lambdas: sum of squares %.1f (host %.1f), max %.1f, %s\n", sq, refSq, mx, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
