// Kernel start-up probe (CUDA; run on the device machine):
//   nvcc -O3 -arch=sm_90 tests/hardware/probes/kernel_startup.cu -o /tmp/ks && /tmp/ks
// The validation suites' small memory kernels (256 blocks of 256 threads over 64K elements)
// take 1-1.5 us more than an empty launch, where the model's throughput and latency terms
// give 0.1-0.2 us. This separates what a short kernel pays once: empty grids of several sizes,
// a lone thread's first and further dependent loads (L2-resident and cold), stores only,
// loads only, copies, warm (the buffer in L2 from the last run) and cold (a 256 MB sweep
// between runs). Events, median of 15 after two warm-ups.
#include <cstdio>
#include <cuda_runtime.h>
#include "../probe.h"

__global__ void empty() {}
__global__ void fill(float *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f; }
__global__ void sum(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (v == -1.0f) out[0] = v; // never true: keeps the load
}
__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
// One thread follows `steps` links of a chain of indices (a random cycle through `words`).
__global__ void chase(const unsigned *next, unsigned steps, unsigned *out) {
  unsigned j = 0;
  for (unsigned s = 0; s < steps; ++s)
    j = next[j];
  out[0] = j;
}
__global__ void sweep(float *p, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    p[i] = 2.0f;
}

static float *g_flush;
static const size_t kFlush = size_t(64) << 20; // floats: 256 MB

// Median of 15 event-timed runs of `op`, each after `before` (outside the events).
template <typename B, typename F> static float timed(B before, F op) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  before(), op(), before(), op();
  cudaDeviceSynchronize();
  std::vector<float> t;
  for (int r = 0; r < 15; ++r) {
    before();
    cudaEventRecord(a);
    op();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms * 1000);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[7];
}

int main() {
  std::printf("# nvcc -O3 -arch=sm_90 tests/hardware/probes/kernel_startup.cu -o /tmp/ks && /tmp/ks\n");
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("# %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const size_t n = size_t(16) << 20;
  float *a, *b;
  unsigned *next, *out;
  cudaMalloc(&a, n * 4);
  cudaMalloc(&b, n * 4);
  cudaMalloc(&g_flush, kFlush * 4);
  cudaMalloc(&out, 64);
  cudaMemset(a, 0, n * 4);
  // A random cycle through 256K words (1 MB): each link on its own line, mostly.
  const unsigned words = 1u << 18;
  std::vector<unsigned> perm(words), link(words);
  for (unsigned i = 0; i < words; ++i)
    perm[i] = i;
  unsigned x = 12345;
  for (unsigned i = words - 1; i > 0; --i) {
    x = x * 1664525u + 1013904223u;
    std::swap(perm[i], perm[x % (i + 1)]);
  }
  for (unsigned i = 0; i < words; ++i)
    link[perm[i]] = perm[(i + 1) % words];
  cudaMalloc(&next, words * 4);
  cudaMemcpy(next, link.data(), words * 4, cudaMemcpyHostToDevice);

  auto warm = [] {};
  auto cold = [] {
    sweep<<<1056, 256>>>(g_flush, kFlush);
  };
  struct Grid {
    unsigned blocks, threads;
  } grids[] = {{1, 32}, {132, 32}, {256, 256}, {1056, 256}, {4096, 256}};
  for (Grid g : grids)
    std::printf("empty blocks=%-5u threads=%-4u us=%.2f\n", g.blocks, g.threads,
                timed(warm, [&] { empty<<<g.blocks, g.threads>>>(); }));
  for (Grid g : grids) {
    const char *state[] = {"warm", "cold"};
    for (int c = 0; c < 2; ++c) {
      auto before = [&] { c ? cold() : warm(); };
      float tf = timed(before, [&] { fill<<<g.blocks, g.threads>>>(b); });
      float ts = timed(before, [&] { sum<<<g.blocks, g.threads>>>(a, b); });
      float tc = timed(before, [&] { copy<<<g.blocks, g.threads>>>(a, b); });
      std::printf("blocks=%-5u threads=%-4u %s fill_us=%.2f sum_us=%.2f copy_us=%.2f\n",
                  g.blocks, g.threads, state[c], tf, ts, tc);
    }
  }
  for (int c = 0; c < 2; ++c)
    for (unsigned steps : {0u, 1u, 2u, 4u, 16u, 64u, 256u})
      std::printf("chase %s steps=%-4u us=%.2f\n", c ? "cold" : "warm", steps,
                  timed([&] { c ? cold() : warm(); },
                        [&] { chase<<<1, 1>>>(next, steps, out); }));
  // Back to back: four copies of 64K between one pair of events.
  std::printf("copy4 blocks=256 threads=256 warm us=%.2f\n", timed(warm, [&] {
                for (int k = 0; k < 4; ++k)
                  copy<<<256, 256>>>(a, b);
              }));
  std::printf("empty4 blocks=256 threads=256 us=%.2f\n", timed(warm, [&] {
                for (int k = 0; k < 4; ++k)
                  empty<<<256, 256>>>();
              }));
  return 0;
}
