// Memory-fence cost probe (CUDA; run on the device machine):
//   nvcc -O2 -arch=sm_90 tests/hardware/probes/fence_cost.cu -o /tmp/fc && /tmp/fc
// What __threadfence() (fence.sc.gpu / MEMBAR.GPU), __threadfence_block() and
// __threadfence_system() cost a warp, timed with clock64() over 4096 iterations of a loop:
// - alone: an FMA chain and the fence;
// - after a store: each iteration stores a word, then fences (the fence waits for the store);
// - after an atomic: atomicExch on a word, then the fence (a look-back publisher);
// - poll: a volatile load of a word another iteration wrote, then the fence, then a second
//   volatile load (a look-back step: read the flag, fence, read the value).
// Each with one warp in the GPU and with every SM full (132 x 8 blocks of 256 threads: the
// cycles per iteration a warp sees and the device-wide fences a cycle).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)

enum Mode { None, Alone, Store, Atomic, Poll, PollNoFence };
enum Scope { Block, Gpu, System };

template <int mode, int scope>
__global__ void fenceLoop(int *data, int iters, long long *cycles, float *sink) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int *mine = data + (size_t(blockIdx.x) * 32 + threadIdx.x % 32) * 32; // a line a lane
  float x = float(g) * 1e-3f;
  int v = 0;
  long long t0 = clock64();
  for (int i = 0; i < iters; ++i) {
    x = x * 1.0001f + 0.5f;
    if (mode == Store) mine[i & 7] = i;
    if (mode == Atomic) v += atomicExch(mine + (i & 7), i);
    if (mode == Poll || mode == PollNoFence) v += *(volatile int *)(mine + ((i + v) & 7));
    if (mode != None && mode != PollNoFence) {
      if (scope == Block) __threadfence_block();
      if (scope == Gpu) __threadfence();
      if (scope == System) __threadfence_system();
    }
    if (mode == Poll || mode == PollNoFence) v += *(volatile int *)(mine + 8 + ((i + v) & 7));
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
  sink[g] = x + float(v);
}

template <int mode, int scope>
void run(const char *name, int *data, long long *cycles, float *sink, int sms) {
  const int iters = 4096;
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int full = 0; full < 2; ++full) {
    int blocks = full ? sms * 8 : 1, threads = full ? 256 : 32;
    fenceLoop<mode, scope><<<blocks, threads>>>(data, 64, cycles, sink); // warm-up
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(a));
    fenceLoop<mode, scope><<<blocks, threads>>>(data, iters, cycles, sink);
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    long long c = 0;
    CHECK(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
    double warps = double(blocks) * threads / 32;
    std::printf("%-22s %-6s warps %6.0f  cycles/iter (block 0) %8.1f  kernel %8.3f ms  "
                "warp-iters/ns %8.3f\n",
                name, full ? "full" : "1warp", warps, double(c) / iters, ms,
                warps * iters / (ms * 1e6));
  }
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  std::printf("device %s, %d SMs\n", prop.name, sms);
  int *data;
  long long *cycles;
  float *sink;
  CHECK(cudaMalloc(&data, size_t(sms) * 8 * 32 * 32 * sizeof(int)));
  CHECK(cudaMemset(data, 0, size_t(sms) * 8 * 32 * 32 * sizeof(int)));
  CHECK(cudaMalloc(&cycles, size_t(sms) * 8 * sizeof(long long)));
  CHECK(cudaMalloc(&sink, size_t(sms) * 8 * 256 * sizeof(float)));
  run<None, Gpu>("fma-only", data, cycles, sink, sms);
  run<Alone, Block>("fence.block", data, cycles, sink, sms);
  run<Alone, Gpu>("fence.gpu", data, cycles, sink, sms);
  run<Alone, System>("fence.sys", data, cycles, sink, sms);
  run<Store, Block>("store+fence.block", data, cycles, sink, sms);
  run<Store, Gpu>("store+fence.gpu", data, cycles, sink, sms);
  run<Store, System>("store+fence.sys", data, cycles, sink, sms);
  run<Atomic, Gpu>("atomicExch+fence.gpu", data, cycles, sink, sms);
  run<Atomic, -1>("atomicExch", data, cycles, sink, sms);
  run<Poll, Gpu>("poll+fence.gpu+poll", data, cycles, sink, sms);
  run<PollNoFence, Gpu>("poll+poll", data, cycles, sink, sms);
  return 0;
}
