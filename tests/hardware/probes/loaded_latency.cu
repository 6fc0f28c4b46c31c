// Loaded memory latency probe (CUDA; run on the device machine):
//   nvcc -O2 -arch=sm_90 tests/hardware/probes/loaded_latency.cu -o /tmp/ll && /tmp/ll
// Independent pointer chains over a random cycle of 128-byte lines, one chain per active lane:
// blocks of one warp, `lanes` active lanes per warp (1: one line per warp request; 32: 32
// lines), grids of 1 to 132 x 32 warps. Footprints: 4 MB (L2) and 1 GB (DRAM). Prints the
// time per dependent step and the line requests in flight and served per ns: how the latency a
// chain sees grows with the requests outstanding device-wide (Little's law).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)

__global__ void chase(const unsigned *next, unsigned lines, int lanes, int steps, unsigned *out) {
  unsigned g = blockIdx.x * 32 + threadIdx.x;
  unsigned p = (g * 2654435761u % lines) * 32u;
  if (threadIdx.x < lanes)
    for (int s = 0; s < steps; ++s) p = next[p];
  out[g] = p;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  int clockKHz = 0;
  CHECK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
  std::printf("device %s, %d SMs, %d kHz\n", prop.name, sms, clockKHz);
  unsigned *out;
  CHECK(cudaMalloc(&out, size_t(sms) * 32 * 32 * sizeof(unsigned)));
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
      unsigned j = unsigned(x % i);
      std::swap(order[i], order[j]);
    }
    for (unsigned i = 0; i < lines; ++i) host[size_t(order[i]) * 32] = order[(i + 1) % lines] * 32;
    unsigned *next;
    CHECK(cudaMalloc(&next, host.size() * sizeof(unsigned)));
    CHECK(cudaMemcpy(next, host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
    const int grids[] = {1, 8, 33, 132, 264, 528, 1056, 2112, 4224};
    for (int lanes : {1, 32})
      for (int grid : grids) {
        int steps = 512;
        float best = 1e9;
        for (int r = 0; r < 3; ++r) {
          cudaEventRecord(a);
          chase<<<grid, 32>>>(next, lines, lanes, steps, out);
          cudaEventRecord(b);
          CHECK(cudaEventSynchronize(b));
          float ms;
          cudaEventElapsedTime(&ms, a, b);
          best = ms < best ? ms : best;
        }
        double nsPerStep = (best * 1e6 - 3000) / steps; // less about 3 us of launch
        double inFlight = double(grid) * lanes;
        std::printf("RESULT loaded_latency set_mb=%zu lanes=%d warps=%d in_flight=%.0f "
                    "ns_per_step=%.1f cycles_per_step=%.0f lines_per_ns=%.2f\n",
                    mb, lanes, grid, inFlight, nsPerStep, nsPerStep * clockKHz / 1e6,
                    inFlight / nsPerStep);
      }
    CHECK(cudaFree(next));
  }
  std::printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
