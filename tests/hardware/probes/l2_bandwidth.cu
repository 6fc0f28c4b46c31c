// L2 read bandwidth probe (CUDA; run on the device machine):
//   nvcc -O2 -arch=sm_90 tests/hardware/probes/l2_bandwidth.cu -o /tmp/l2b && /tmp/l2b
// Every SM full (132 x 8 blocks of 256 threads) reads an array that L2 holds (1-32 MB)
// `passes` times with coalesced float4 loads (a warp reads 512 contiguous bytes), and with
// float loads (128 bytes a warp); each block starts at its own offset so the passes do not
// move in lockstep, and the loads bypass L1 (ld.global.cg: __ldcg). Prints the bytes the SMs
// received per second: the L2-to-SM bandwidth the timing model's l2_bandwidth_gbs stands for.
// A 1 GB array read once gives the DRAM rate for comparison.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)

template <class T>
__global__ void readAll(const T *a, size_t n, int passes, float *out) {
  size_t stride = size_t(gridDim.x) * blockDim.x;
  size_t start = (size_t(blockIdx.x) * 7919 * blockDim.x) & (n - 1);
  float acc = 0;
  for (int p = 0; p < passes; ++p)
    for (size_t i = threadIdx.x; i < n; i += stride) {
      T v = __ldcg(a + ((start + i + size_t(p) * 4096 * 33) & (n - 1))); // n: a power of two
      if constexpr (sizeof(T) == 16) acc += v.x + v.y + v.z + v.w;
      else acc += v;
    }
  if (acc == 12345.f) out[0] = acc; // never true: keeps the loads
}

template <class T> void run(const char *name, const void *a, size_t bytes, int passes, int sms) {
  size_t n = bytes / sizeof(T);
  float *out;
  CHECK(cudaMalloc(&out, 4));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  readAll<T><<<sms * 8, 256>>>((const T *)a, n, 1, out);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventRecord(e0));
  readAll<T><<<sms * 8, 256>>>((const T *)a, n, passes, out);
  CHECK(cudaEventRecord(e1));
  CHECK(cudaEventSynchronize(e1));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  std::printf("%-7s %7.1f MB x %3d passes  %8.3f ms  %7.0f GB/s\n", name, bytes / 1048576.0,
              passes, ms, double(bytes) * passes / (ms * 1e6));
  CHECK(cudaFree(out));
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs, L2 %d bytes\n", prop.name, sms, prop.l2CacheSize);
  void *a;
  const size_t big = size_t(1) << 30;
  CHECK(cudaMalloc(&a, big));
  CHECK(cudaMemset(a, 0, big));
  for (size_t mb : {1, 4, 16, 32}) {
    run<float4>("float4", a, mb << 20, int(512 / mb), sms);
    run<float>("float", a, mb << 20, int(512 / mb), sms);
  }
  run<float4>("float4", a, big, 1, sms);
  return 0;
}
