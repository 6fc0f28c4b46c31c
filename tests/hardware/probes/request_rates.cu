// Memory request and integer pipe rates (CUDA; run on the device machine):
//   nvcc -O3 -arch=sm_90 -I tests/hardware tests/hardware/probes/request_rates.cu -o /tmp/rr && /tmp/rr
// What the timing model's L2 request rate, L1 line rate and integer pipes rest on. Each line:
// case, parameters, median us of 9 runs after two warm-ups, and the rate it implies.
// - gather: out[i] = in[hash(i) & mask], a warp's 32 lanes on 32 random lines of a `bytes`
//   array (L2-resident up to 32 MB, DRAM beyond): line requests a ns.
// - strided: out[i] = in[i * stride] for strides of 8, 16, 32 floats (a lane per sector,
//   two lanes per line, a lane per line), streaming from DRAM: sectors a ns and GB/s.
// - rows: each thread sums its own run of `len` consecutive floats (lanes 4*len bytes apart,
//   the CSR SpMV pattern): warp line accesses a ns, most of them L1 hits.
// - int: 2^20 threads x 4 independent chains x 256 rounds of one operation kind (shift,
//   xor-and LOP3, IMAD, 64-bit multiply, xorshift32): warp instructions a cycle per SM is
//   derived offline from the SASS (cuobjdump -sass) counts.
// None of these configurations is one of the validation suites' (tests/validation).
#include <cstdio>
#include <cuda_runtime.h>
#include "../probe.h"

__global__ void gather(const float *in, float *out, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[hash_u32(unsigned(i) * 2654435761u) & mask];
}
__global__ void strided(const float *in, float *out, long stride, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[long(i) * stride];
}
__global__ void rows(const float *in, float *out, int len, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float *r = in + long(i) * len;
  float s = 0.f;
  for (int k = 0; k < len; ++k) s += r[k];
  out[i] = s;
}

template <int KIND> __global__ void intops(unsigned *out, int rounds) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = i, b = i ^ 0x9e3779b9u, c = i * 3u + 1u, d = ~i;
  unsigned long long e = i, f = i + 7ull, g = i * 5ull, h = ~0ull - i;
  for (int r = 0; r < rounds; ++r) {
    if (KIND == 0) { // shifts (by a run-time amount: not folded into IMAD)
      int s = (r & 7) + 1;
      a = a << s, b = b >> s, c = c << s, d = d >> s;
    } else if (KIND == 1) { // three-input logic
      a = (a ^ b) & c, b = (b ^ c) | d, c = (c ^ d) & a, d = (d ^ a) | b;
    } else if (KIND == 2) { // 32-bit multiply-add
      a = a * 747796405u + b, b = b * 2891336453u + c, c = c * 277803737u + d,
      d = d * 1664525u + a;
    } else if (KIND == 3) { // 64-bit multiply
      e = e * 6364136223846793005ull + f, f = f * 1442695040888963407ull + g,
      g = g * 6364136223846793005ull + h, h = h * 1442695040888963407ull + e;
    } else { // xorshift32
      a ^= a << 13, a ^= a >> 17, a ^= a << 5;
      b ^= b << 13, b ^= b >> 17, b ^= b << 5;
      c ^= c << 13, c ^= c >> 17, c ^= c << 5;
      d ^= d << 13, d ^= d >> 17, d ^= d << 5;
    }
  }
  out[i] = a + b + c + d + unsigned(e + f + g + h);
}

int main() {
  const size_t maxBytes = size_t(1) << 30;
  float *in, *out;
  if (cudaMalloc(&in, maxBytes) != cudaSuccess || cudaMalloc(&out, size_t(1) << 26) != cudaSuccess) {
    std::printf("error cudaMalloc\n");
    return 1;
  }
  cudaMemset(in, 0, maxBytes);
  const int n = 1 << 22;
  for (size_t bytes : {size_t(1) << 20, size_t(4) << 20, size_t(16) << 20, size_t(32) << 20,
                       size_t(256) << 20, size_t(1) << 30}) {
    unsigned mask = unsigned(bytes / 4 - 1);
    float us = median_us([&] { gather<<<n / 256, 256>>>(in, out, mask, n); });
    std::printf("gather bytes=%zu n=%d us=%.2f lines_per_ns=%.2f\n", bytes, n, us,
                n / (us * 1e3f));
  }
  for (long stride : {8L, 16L, 32L}) {
    int m = int(std::min<size_t>(n, maxBytes / 4 / stride));
    float us = median_us([&] { strided<<<m / 256, 256>>>(in, out, stride, m); });
    std::printf("strided stride=%ld n=%d us=%.2f sectors_per_ns=%.2f\n", stride, m, us,
                m / (us * 1e3f));
  }
  for (int len : {8, 32, 128}) {
    int m = int(std::min<size_t>(1 << 20, maxBytes / 4 / len));
    float us = median_us([&] { rows<<<m / 256, 256>>>(in, out, len, m); });
    std::printf("rows len=%d n=%d us=%.2f warp_line_accesses_per_ns=%.2f GBs=%.1f\n", len, m,
                us, double(m) * len / (us * 1e3f), double(m) * len * 4 / (us * 1e3f));
  }
  unsigned *uo = reinterpret_cast<unsigned *>(out);
  const int threads = 1 << 20, rounds = 256;
  const char *names[] = {"shift", "lop3", "imad", "mul64", "xorshift"};
  float t[5];
  t[0] = median_us([&] { intops<0><<<threads / 256, 256>>>(uo, rounds); });
  t[1] = median_us([&] { intops<1><<<threads / 256, 256>>>(uo, rounds); });
  t[2] = median_us([&] { intops<2><<<threads / 256, 256>>>(uo, rounds); });
  t[3] = median_us([&] { intops<3><<<threads / 256, 256>>>(uo, rounds); });
  t[4] = median_us([&] { intops<4><<<threads / 256, 256>>>(uo, rounds); });
  for (int k = 0; k < 5; ++k)
    std::printf("int kind=%s threads=%d rounds=%d us=%.2f\n", names[k], threads, rounds, t[k]);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("done: %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
