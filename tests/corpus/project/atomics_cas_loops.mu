// Atomics built from atomicCAS loops as in pre-native-support codes: a double atomicAdd, a float atomicMax via int bit patterns, and atomicMul; checked against native atomicAdd(double) and the host.
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

__device__ double casAddDouble(double *addr, double v) {
  unsigned long long *p = (unsigned long long *)addr, old = *p, assumed;
  do {
    assumed = old;
    old = atomicCAS(p, assumed, __double_as_longlong(v + __longlong_as_double(assumed)));
  } while (assumed != old);
  return __longlong_as_double(old);
}

__device__ float casMaxFloat(float *addr, float v) {
  int *p = (int *)addr, old = *p, assumed;
  while (v > __int_as_float(old)) {
    assumed = old;
    old = atomicCAS(p, assumed, __float_as_int(v));
    if (old == assumed)
      break;
  }
  return __int_as_float(old);
}

__device__ unsigned casMulMod(unsigned *addr, unsigned v) {
  unsigned old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed, (assumed * v) % 1000003u);
  } while (assumed != old);
  return old;
}

__global__ void accumulate(const double *x, int n, double *casSum, double *nativeSum, float *mx,
                           unsigned *prod) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    casAddDouble(casSum, x[i]);
    atomicAdd(nativeSum, x[i]);
    casMaxFloat(mx, (float)x[i]);
    if (i < 1000)
      casMulMod(prod, 3u);
  }
}

int main() {
  const int n = 1 << 15;
  double *h = (double *)malloc(n * sizeof(double)), ref = 0.0;
  float refMax = -1e30f;
  for (int i = 0; i < n; ++i) {
    h[i] = (double)((i * 37) % 1001) / 8.0; // multiples of 1/8: sums exact in any order
    ref += h[i];
    refMax = (float)h[i] > refMax ? (float)h[i] : refMax;
  }
  unsigned refProd = 1;
  for (int i = 0; i < 1000; ++i)
    refProd = (refProd * 3u) % 1000003u;
  double *dx, *dCas, *dNative;
  float *dMax;
  unsigned *dProd;
  CHECK(musaMalloc(&dx, n * sizeof(double)));
  CHECK(musaMalloc(&dCas, sizeof(double)));
  CHECK(musaMalloc(&dNative, sizeof(double)));
  CHECK(musaMalloc(&dMax, sizeof(float)));
  CHECK(musaMalloc(&dProd, sizeof(unsigned)));
  CHECK(musaMemcpy(dx, h, n * sizeof(double), musaMemcpyHostToDevice));
  double zero = 0.0;
  float lowest = -1e30f;
  unsigned one = 1;
  CHECK(musaMemcpy(dCas, &zero, sizeof zero, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dNative, &zero, sizeof zero, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dMax, &lowest, sizeof lowest, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dProd, &one, sizeof one, musaMemcpyHostToDevice));
  accumulate<<<n / 256, 256>>>(dx, n, dCas, dNative, dMax, dProd);
  CHECK(musaGetLastError());
  double casSum, nativeSum;
  float mx;
  unsigned prod;
  CHECK(musaMemcpy(&casSum, dCas, sizeof casSum, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&nativeSum, dNative, sizeof nativeSum, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&mx, dMax, sizeof mx, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&prod, dProd, sizeof prod, musaMemcpyDeviceToHost));
  bool ok = casSum == ref && nativeSum == ref && mx == refMax && prod == refProd;
  printf("atomics_cas_loops: CAS sum %.3f native %.3f (host %.3f), max %.3f, product %u (host %u), %s\n",
         casSum, nativeSum, ref, mx, prod, refProd, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
