// Mechanism probe (CUDA; run on the device machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/mechanisms.cu -o /tmp/mech && /tmp/mech
// Measures, with events, the median of 9 runs after two warm-ups, what the timing model's
// copy, atomic and local-memory mechanisms rest on. None of these configurations is one of
// the validation suites' (tests/validation), so the constants taken from here are not fitted
// to either suite.
// - copy2d: cudaMemcpy2D device to device at several widths and row counts (pitch = width
//   rounded up to 512 bytes), and the same bytes as one 1D copy: what a row costs.
// - cas: an atomicCAS retry loop adding 1.0f, n threads over `slots` addresses, the address
//   either i % slots (a warp's lanes on different addresses) or i / (n / slots) (a warp's
//   lanes on one address).
// - atomic1: every thread atomicAdd(p, 1) on one address (the compiler aggregates a warp),
//   and atomicAdd(p, i & 7) (values differ per lane).
// - local: a per-thread float array of `len` entries indexed by data, `reads` reads.
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include "../probe.h"
#include <vector>

#define CHECK(x)                                                                             \
  do {                                                                                       \
    cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                 \
      std::printf("error %s at %d\n", cudaGetErrorString(e_), __LINE__);                     \
      return 1;                                                                              \
    }                                                                                        \
  } while (0)

__global__ void cas_loop(float *slots, int nslots, int n, int blocked) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int s = blocked ? i / (n / nslots) : i % nslots;
  unsigned *addr = reinterpret_cast<unsigned *>(&slots[s]);
  unsigned old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed, __float_as_uint(__uint_as_float(assumed) + 1.0f));
  } while (old != assumed);
}

__global__ void add_one(unsigned *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(p, 1u);
}
__global__ void add_lane(unsigned *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(p, unsigned(i & 7));
}

template <int LEN>
__global__ void local_walk(const int *idx, float *out, int n, int reads) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a[LEN];
  for (int k = 0; k < LEN; ++k) a[k] = float(k + i % 5);
  float s = 0.f;
  int j = idx[i];
  for (int k = 0; k < reads; ++k) {
    s += a[j];
    j = (j * 5 + 3) & (LEN - 1);
  }
  out[i] = s;
}
// The same walk with every lane of a warp on the same index (interleaved local memory makes
// it one line per access).
template <int LEN>
__global__ void local_walk_uniform(const int *idx, float *out, int n, int reads) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a[LEN];
  for (int k = 0; k < LEN; ++k) a[k] = float(k + i % 5);
  float s = 0.f;
  int j = idx[i / 32];
  for (int k = 0; k < reads; ++k) {
    s += a[j];
    j = (j * 5 + 3) & (LEN - 1);
  }
  out[i] = s;
}

int main() {
  // Pitched device-to-device copies.
  {
    char *a, *b;
    size_t cap = 96u << 20;
    CHECK(cudaMalloc(&a, cap));
    CHECK(cudaMalloc(&b, cap));
    CHECK(cudaMemset(a, 1, cap));
    const int widths[] = {64, 256, 1000, 4000, 4096, 16000};
    const int rowsList[] = {1024, 4096, 16384};
    for (int w : widths)
      for (int rows : rowsList) {
        size_t pitch = (w + 511) / 512 * 512;
        if (pitch * rows > cap) continue;
        float t2 = median_us([&] {
          cudaMemcpy2D(b, pitch, a, pitch, w, rows, cudaMemcpyDeviceToDevice);
        });
        float t1 = median_us([&] {
          cudaMemcpy(b, a, size_t(w) * rows, cudaMemcpyDeviceToDevice);
        });
        std::printf("RESULT copy2d width=%d rows=%d pitch=%zu us=%.2f same_bytes_1d_us=%.2f\n",
                    w, rows, pitch, t2, t1);
      }
    // Host to device, pinned, pitched.
    char *h;
    CHECK(cudaMallocHost(&h, 32u << 20));
    for (int w : {256, 4000})
      for (int rows : {1024, 4096}) {
        size_t pitch = (w + 511) / 512 * 512;
        float t2 = median_us([&] { cudaMemcpy2D(b, pitch, h, w, w, rows, cudaMemcpyHostToDevice); });
        float t1 = median_us([&] { cudaMemcpy(b, h, size_t(w) * rows, cudaMemcpyHostToDevice); });
        std::printf("RESULT copy2d_h2d width=%d rows=%d us=%.2f same_bytes_1d_us=%.2f\n", w, rows,
                    t2, t1);
      }
    CHECK(cudaFreeHost(h));
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
  }
  // Compare-and-swap contention.
  {
    float *slots;
    CHECK(cudaMalloc(&slots, (1 << 20) * sizeof(float)));
    struct Cfg { int n, slots, blocked; };
    const Cfg cfgs[] = {{4096, 1, 0},      {16384, 1, 0},     {16384, 32, 0},   {16384, 32, 1},
                        {65536, 32, 1},    {65536, 256, 0},   {65536, 256, 1},  {65536, 4096, 0},
                        {65536, 4096, 1},  {262144, 1024, 0}, {262144, 65536, 0},
                        {262144, 262144, 0}, {1048576, 4096, 1}};
    for (const Cfg &c : cfgs) {
      CHECK(cudaMemset(slots, 0, (1 << 20) * sizeof(float)));
      float t = median_us([&] { cas_loop<<<c.n / 256, 256>>>(slots, c.slots, c.n, c.blocked); });
      CHECK(cudaGetLastError());
      std::printf("RESULT cas n=%d slots=%d layout=%s us=%.2f\n", c.n, c.slots,
                  c.blocked ? "blocked" : "strided", t);
    }
    CHECK(cudaFree(slots));
  }
  // One-address atomics.
  {
    unsigned *p;
    CHECK(cudaMalloc(&p, 4));
    for (int n : {1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24}) {
      float t1 = median_us([&] { add_one<<<n / 256, 256>>>(p, n); });
      float t2 = median_us([&] { add_lane<<<n / 256, 256>>>(p, n); });
      std::printf("RESULT atomic1 n=%d add_one_us=%.2f add_lane_us=%.2f\n", n, t1, t2);
    }
    CHECK(cudaFree(p));
  }
  // Local memory.
  {
    const int n = 1 << 20;
    std::vector<int> hidx(n);
    for (int i = 0; i < n; ++i) hidx[i] = int((i * 2654435761u) >> 7);
    int *idx;
    float *out;
    CHECK(cudaMalloc(&idx, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    for (int &v : hidx) v &= 7;
    CHECK(cudaMemcpy(idx, hidx.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    for (int reads : {8, 32, 128}) {
      float t8 = median_us([&] { local_walk<8><<<n / 256, 256>>>(idx, out, n, reads); });
      float t32 = median_us([&] { local_walk<32><<<n / 256, 256>>>(idx, out, n, reads); });
      float t128 = median_us([&] { local_walk<128><<<n / 256, 256>>>(idx, out, n, reads); });
      float u32 = median_us([&] { local_walk_uniform<32><<<n / 256, 256>>>(idx, out, n, reads); });
      float u128 = median_us([&] { local_walk_uniform<128><<<n / 256, 256>>>(idx, out, n, reads); });
      std::printf("RESULT local n=%d reads=%d len8_us=%.2f len32_us=%.2f len128_us=%.2f "
                  "uniform_len32_us=%.2f uniform_len128_us=%.2f\n",
                  n, reads, t8, t32, t128, u32, u128);
    }
    for (int m : {1 << 16, 1 << 18}) {
      float t = median_us([&] { local_walk<32><<<m / 256, 256>>>(idx, out, m, 32); });
      std::printf("RESULT local n=%d reads=32 len32_us=%.2f\n", m, t);
    }
    CHECK(cudaFree(idx));
    CHECK(cudaFree(out));
  }
  return 0;
}
