// Plain C++ host code calling kernels compiled into a shared library by musa_add_library
// (lib/vector_kernels.mu), the way an application links a MUSA component: allocations, copies
// and streams here, launches behind the library's C++ functions.
#include "vector_kernels.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      std::printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

int main() {
  const int n = 1 << 17;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = (float)(i % 64) * 0.125f - 4.0f;
  float *dx, *dy, *dDot;
  CHECK(musaMalloc(&dx, n * sizeof(float)));
  CHECK(musaMalloc(&dy, n * sizeof(float)));
  CHECK(musaMalloc(&dDot, sizeof(float)));
  musaStream_t s;
  CHECK(musaStreamCreateWithFlags(&s, musaStreamNonBlocking));
  CHECK(musaMemcpyAsync(dx, x.data(), n * sizeof(float), musaMemcpyHostToDevice, s));
  CHECK(launchPolynomial(dx, dy, n, 0.5f, -1.0f, 2.0f, s));
  CHECK(launchDot(dx, dy, n, dDot, s));
  float dot = 0.0f;
  CHECK(musaMemcpyAsync(y.data(), dy, n * sizeof(float), musaMemcpyDeviceToHost, s));
  CHECK(musaMemcpyAsync(&dot, dDot, sizeof(float), musaMemcpyDeviceToHost, s));
  CHECK(musaStreamSynchronize(s));
  bool ok = true;
  double ref = 0.0;
  for (int i = 0; i < n; ++i) {
    float p = (0.5f * x[i] - 1.0f) * x[i] + 2.0f; // exact: multiples of 1/128, small
    ok = ok && y[i] == p;
    ref += (double)x[i] * p;
  }
  ok = ok && std::fabs(dot - ref) <= 1e-5 * std::fabs(ref) + 1e-3;
  CHECK(musaStreamDestroy(s));
  CHECK(musaFree(dx));
  CHECK(musaFree(dy));
  CHECK(musaFree(dDot));
  std::printf("host_kernel_library: polynomial of %d values, dot %.2f (host %.2f), %s\n", n, dot, ref,
              ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
