// min/max from host code as CUDA samples write it (clamping a grid size, a tile count, a
// float range), the same overloads in a __host__ __device__ helper and a kernel, and std::min
// still working beside them.
#include "check.h"
#include <algorithm>
#include <cmath>
#include <vector>

__host__ __device__ int clampIndex(int i, int n) { return max(0, min(i, n - 1)); }

__global__ void clampKernel(const int *in, int n, int *out, float *fout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = clampIndex(in[i], n);
  fout[i] = max(min((float)in[i], 4.5f), -1.5f);
}

int main() {
  // Typical host uses: a grid size, a float clamp, mixed signed/unsigned, 64-bit sizes.
  int a = 7, b = -3;
  int n = min(a, b);
  CHECK(n == -3, "min(int,int) = %d", n);
  CHECK(max(a, b) == 7, "max(int,int)");
  float x = 0.25f;
  float f = max(x, 1.0f);
  CHECK(f == 1.0f, "max(float,float) = %f", f);
  CHECK(min(2.5, 1.5) == 1.5, "min(double,double)");
  CHECK(max(2.5f, 3.5) == 3.5, "max(float,double)");
  CHECK(min(2.5, 3.5f) == 2.5, "min(double,float)");
  unsigned u = 5;
  // Mixed int/unsigned compares as unsigned, as CUDA's overload does: -1 is UINT_MAX.
  CHECK(min(-1, u) == 5u, "min(int,unsigned) = %u", min(-1, u));
  CHECK(max(u, -1) == 0xffffffffu, "max(unsigned,int)");
  long long big = 1ll << 40;
  CHECK(min(big, 3ll) == 3ll && max(big, 3ll) == big, "long long");
  unsigned long long ubig = 1ull << 63;
  CHECK(max(ubig, 1ull) == ubig, "unsigned long long");
  size_t bytes = 1000, limit = 4096;
  CHECK(min(bytes, limit) == 1000, "size_t");
  long l = -4;
  CHECK(max(l, 2l) == 2, "long");
  CHECK(std::isnan(min(NAN, NAN)) && min(NAN, 2.0f) == 2.0f, "min ignores one NaN as fminf");
  const int threads = 256, elements = 1000;
  int blocks = min((elements + threads - 1) / threads, 1024);
  CHECK(blocks == 4, "grid size %d", blocks);

  // std::min and std::max keep working, qualified and after a using-directive.
  CHECK(std::min(a, b) == -3 && std::max(1.0f, 2.0f) == 2.0f, "std::min/std::max");
  CHECK(std::min({4, 2, 8}) == 2, "std::min(initializer_list)");
  {
    using namespace std;
    CHECK(min(a, b) == -3 && max(x, 2.0f) == 2.0f, "after using namespace std");
    CHECK(min<long>(3, 9) == 3, "explicit std::min<long>");
  }
  CHECK(clampIndex(12, 10) == 9 && clampIndex(-5, 10) == 0, "host side of __host__ __device__");

  // The same overloads in device code.
  const int count = 12;
  std::vector<int> in(count);
  for (int i = 0; i < count; ++i)
    in[i] = i * 3 - 8;
  int *dIn, *dOut;
  float *dF;
  CHECK_MUSA(musaMalloc(&dIn, count * sizeof(int)));
  CHECK_MUSA(musaMalloc(&dOut, count * sizeof(int)));
  CHECK_MUSA(musaMalloc(&dF, count * sizeof(float)));
  CHECK_MUSA(musaMemcpy(dIn, in.data(), count * sizeof(int), musaMemcpyHostToDevice));
  clampKernel<<<2, 8>>>(dIn, count, dOut, dF);
  CHECK_MUSA(musaDeviceSynchronize());
  std::vector<int> out(count);
  std::vector<float> fout(count);
  CHECK_MUSA(musaMemcpy(out.data(), dOut, count * sizeof(int), musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(fout.data(), dF, count * sizeof(float), musaMemcpyDeviceToHost));
  for (int i = 0; i < count; ++i) {
    CHECK(out[i] == clampIndex(in[i], count), "device clamp[%d] = %d", i, out[i]);
    float want = std::max(std::min((float)in[i], 4.5f), -1.5f);
    CHECK(fout[i] == want, "device float clamp[%d] = %f, want %f", i, fout[i], want);
  }
  musaFree(dIn);
  musaFree(dOut);
  musaFree(dF);
  return finish("host_min_max");
}
