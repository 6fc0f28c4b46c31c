// Shared arrays reached through pointers that change at run time: the naive double-buffered
// scan of GPU Gems 3 (chapter 39), which swaps two __shared__ arrays through pointers each
// step of a loop with a run-time trip count, and a pointer chosen between two arrays by a
// select. The swap once made the lowered module invalid (a base pointer that did not dominate
// the expanded address of the second array) and every launch fail with "invalid kernel".
#include "check.h"

#include <vector>

__global__ void naiveScan(const float *in, float *out, int n) {
  __shared__ float a[256], b[256];
  int t = threadIdx.x;
  float *src = a, *dst = b;
  src[t] = t < n ? in[t] : 0.f;
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    dst[t] = t >= offset ? src[t] + src[t - offset] : src[t];
    __syncthreads();
    float *tmp = src;
    src = dst;
    dst = tmp;
  }
  if (t < n)
    out[t] = src[t];
}

// A tree sum ping-ponging between two arrays, halving a run-time width each step.
__global__ void halvingSum(float *out, unsigned first) {
  __shared__ float a[64], b[64];
  unsigned t = threadIdx.x;
  float *src = a, *dst = b;
  src[t] = 1.f;
  src[t + 32] = 1.f;
  __syncthreads();
  for (unsigned o = first; o > 0; o >>= 1) {
    if (t < o)
      dst[t] = src[t] + src[t + o];
    __syncthreads();
    float *tmp = src;
    src = dst;
    dst = tmp;
  }
  if (t == 0)
    *out = src[0];
}

__global__ void pickArray(float *out, int which) {
  __shared__ float a[64], b[64];
  int t = threadIdx.x;
  a[t] = 1.f;
  b[t] = 2.f;
  __syncthreads();
  float *p = (which + t) & 1 ? b : a;
  out[t] = p[63 - t];
}

int main() {
  for (int n : {1, 5, 100, 256}) {
    std::vector<float> h(n);
    for (int i = 0; i < n; i++)
      h[i] = float(i % 5 + 1);
    float *d, *o;
    CHECK_MUSA(musaMalloc(&d, n * sizeof(float)));
    CHECK_MUSA(musaMalloc(&o, n * sizeof(float)));
    CHECK_MUSA(musaMemcpy(d, h.data(), n * sizeof(float), musaMemcpyHostToDevice));
    naiveScan<<<1, 256>>>(d, o, n);
    CHECK_MUSA(musaGetLastError());
    std::vector<float> r(n);
    CHECK_MUSA(musaMemcpy(r.data(), o, n * sizeof(float), musaMemcpyDeviceToHost));
    float run = 0;
    int wrong = 0;
    for (int i = 0; i < n; i++) {
      run += h[i];
      wrong += r[i] != run;
    }
    CHECK(wrong == 0, "naiveScan n=%d: %d prefix sums wrong", n, wrong);
    musaFree(d);
    musaFree(o);
  }
  float *o;
  CHECK_MUSA(musaMalloc(&o, 64 * sizeof(float)));
  halvingSum<<<1, 32>>>(o, 32);
  CHECK_MUSA(musaGetLastError());
  float sum = 0;
  CHECK_MUSA(musaMemcpy(&sum, o, sizeof(float), musaMemcpyDeviceToHost));
  CHECK(sum == 64.f, "halvingSum: %g, expected 64", sum);
  pickArray<<<1, 64>>>(o, 1);
  CHECK_MUSA(musaGetLastError());
  std::vector<float> r(64);
  CHECK_MUSA(musaMemcpy(r.data(), o, 64 * sizeof(float), musaMemcpyDeviceToHost));
  int wrong = 0;
  for (int t = 0; t < 64; t++)
    wrong += r[t] != ((1 + t) & 1 ? 2.f : 1.f);
  CHECK(wrong == 0, "pickArray: %d wrong", wrong);
  return finish("shared_pingpong");
}
