// Loaded memory latency probe (CUDA; run on the device machine):
//   nvcc -O2 -arch=sm_90 tests/hardware/probes/loaded_latency.cu -o /tmp/ll && /tmp/ll
// Independent chains of dependent loads over a random cycle of 128-byte lines, timed per step.
// - mode=line: each warp follows one chain and all 32 lanes read the line (one coalesced
//   128-byte request per step, the next index stored in every word);
// - mode=lanes1 / lanes32: one chain per active lane, 1 or 32 lanes a warp (a warp request of 1
//   or 32 scattered lines).
// Blocks of `block` threads; grids of 1 to 132 x 64 warps. Footprints 4 MB (L2) and 1 GB
// (DRAM; a 512 MB sweep before every timed launch, so that no chain starts warm in L2).
// Prints the time per dependent step, the line requests in flight (warps or lanes) and the
// lines and bytes served per ns: how the latency a chain sees grows with the requests
// outstanding device-wide (Little's law).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)

__global__ void chaseLanes(const unsigned *next, unsigned lines, int lanes, int steps, unsigned *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned p = (g * 2654435761u % lines) * 32u;
  if (threadIdx.x % 32 < lanes)
    for (int s = 0; s < steps; ++s) p = next[p];
  out[g] = p;
}

__global__ void chaseLine(const unsigned *next, unsigned lines, int steps, unsigned *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32;
  unsigned p = ((g / 32) * 2654435761u % lines) * 32u;
  for (int s = 0; s < steps; ++s) p = next[p + lane];
  out[g] = p;
}

__global__ void sweep(float *p, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) p[i] += 1.0f;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount, clockKHz = 0;
  CHECK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
  std::printf("device %s, %d SMs, %d kHz\n", prop.name, sms, clockKHz);
  const size_t sweepN = size_t(128) << 20; // 512 MB of floats
  float *flush;
  CHECK(cudaMalloc(&flush, sweepN * 4));
  unsigned *out;
  CHECK(cudaMalloc(&out, size_t(sms) * 64 * 32 * sizeof(unsigned)));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (size_t mb : {size_t(4), size_t(1024)}) {
    unsigned lines = unsigned(mb * 1024 * 1024 / 128);
    std::vector<unsigned> order(lines), host(size_t(lines) * 32, 0);
    for (unsigned i = 0; i < lines; ++i) order[i] = i;
    unsigned long long x = 88172645463325252ull;
    for (unsigned i = lines - 1; i > 0; --i) { // Sattolo: one cycle through every line
      x ^= x << 13; x ^= x >> 7; x ^= x << 17;
      std::swap(order[i], order[unsigned(x % i)]);
    }
    for (unsigned i = 0; i < lines; ++i)
      for (unsigned w = 0; w < 32; ++w)
        host[size_t(order[i]) * 32 + w] = order[(i + 1) % lines] * 32;
    unsigned *next;
    CHECK(cudaMalloc(&next, host.size() * sizeof(unsigned)));
    CHECK(cudaMemcpy(next, host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    const int warpCounts[] = {1, 33, 132, 264, 528, 1056, 2112, 4224, 8448};
    for (int mode = 0; mode < 3; ++mode)
      for (int warps : warpCounts) {
        const int block = warps >= 1056 ? 256 : 32, grid = warps * 32 / block;
        const int steps = 256, lanes = mode == 1 ? 1 : 32;
        float best = 1e9;
        for (int r = 0; r < 3; ++r) {
          if (mb > 64) sweep<<<unsigned(sweepN / 256), 256>>>(flush, sweepN);
          cudaEventRecord(a);
          if (mode == 0) chaseLine<<<grid, block>>>(next, lines, steps, out);
          else chaseLanes<<<grid, block>>>(next, lines, lanes, steps, out);
          cudaEventRecord(b);
          CHECK(cudaEventSynchronize(b));
          float ms;
          cudaEventElapsedTime(&ms, a, b);
          best = ms < best ? ms : best;
        }
        double nsPerStep = (best * 1e6 - 3000) / steps; // less about 3 us of launch
        double requests = mode == 0 ? warps : double(warps) * lanes;
        double bytes = mode == 0 ? 128 : 64; // a scattered lane's sector brings a 64-byte granule
        std::printf("RESULT loaded_latency set_mb=%zu mode=%s warps=%d in_flight=%.0f "
                    "ns_per_step=%.1f cycles_per_step=%.0f lines_per_ns=%.2f gb_per_s=%.0f\n",
                    mb, mode == 0 ? "line" : mode == 1 ? "lanes1" : "lanes32", warps, requests,
                    nsPerStep, nsPerStep * clockKHz / 1e6, requests / nsPerStep,
                    requests * bytes / nsPerStep);
      }
    CHECK(cudaFree(next));
  }
  std::printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
