// L2 store request rates (CUDA; run on the device machine):
//   nvcc -O3 -arch=sm_90 -I tests/hardware tests/hardware/probes/store_rates.cu -o /tmp/sr && /tmp/sr
// Where a warp's stores land on many lines, what rate L2 takes them at (the timing model's
// l2_store_requests_per_cycle). Each line: case, parameters, median us of 9 runs after two
// warm-ups, line requests a ns. n = 2^22 threads, one 4-byte store each unless noted.
// - scatter: out[hash(i) & mask] = i over `bytes` (a warp's lanes on ~32 random lines);
// - stride:  out[i * stride] = i, strides 8 (a lane per sector) and 32 floats (a lane per line);
// - stride4: float4 stores, a lane per 128 bytes (a whole 16 bytes of a sector each);
// - load:    the same random lines read instead (as request_rates.cu's gather).
// None of these configurations is one of the validation suites' (tests/validation).
#include <cstdio>
#include <cuda_runtime.h>
#include "../probe.h"

__global__ void scatter(float *out, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[hash_u32(unsigned(i) * 2654435761u) & mask] = float(i);
}
__global__ void stride(float *out, long s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[long(i) * s] = float(i);
}
__global__ void stride4(float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[long(i) * 8] = make_float4(i, i, i, i);
}
__global__ void gather(const float *in, float *out, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[hash_u32(unsigned(i) * 2654435761u) & mask];
}

int main() {
  float *buf, *out;
  if (cudaMalloc(&buf, size_t(1) << 30) != cudaSuccess ||
      cudaMalloc(&out, size_t(1) << 26) != cudaSuccess) {
    std::printf("error cudaMalloc\n");
    return 1;
  }
  cudaMemset(buf, 0, size_t(1) << 30);
  const int n = 1 << 22;
  for (size_t bytes : {size_t(1) << 20, size_t(4) << 20, size_t(16) << 20, size_t(256) << 20}) {
    unsigned mask = unsigned(bytes / 4 - 1);
    float ts = median_us([&] { scatter<<<n / 256, 256>>>(buf, mask, n); });
    float tl = median_us([&] { gather<<<n / 256, 256>>>(buf, out, mask, n); });
    std::printf("scatter bytes=%zu n=%d us=%.2f lines_per_ns=%.2f\n", bytes, n, ts, n / (ts * 1e3f));
    std::printf("load bytes=%zu n=%d us=%.2f lines_per_ns=%.2f\n", bytes, n, tl, n / (tl * 1e3f));
  }
  for (int m : {1 << 18, 1 << 20, 1 << 22}) {
    for (long s : {8L, 32L}) {
      float t = median_us([&] { stride<<<m / 256, 256>>>(buf, s, m); });
      std::printf("stride stride=%ld n=%d us=%.2f lines_per_ns=%.2f\n", s, m, t, m / (t * 1e3f));
    }
    float t4 = median_us([&] { stride4<<<m / 256, 256>>>(reinterpret_cast<float4 *>(buf), m); });
    std::printf("stride4 n=%d us=%.2f lines_per_ns=%.2f\n", m, t4, m / (t4 * 1e3f));
  }
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("done: %s\n", cudaGetErrorName(e));
  return e == cudaSuccess ? 0 : 1;
}
