// Tensor-core (wmma) probe (CUDA; run on the device machine):
//   nvcc -O2 -arch=sm_90 tests/hardware/probes/tensor_rate.cu -o /tmp/tr && /tmp/tr
// For each wmma shape and type CUDA offers (16x16x16 half with float and half accumulators,
// bf16, int8; 16x16x8 tf32; 8x8x4 double):
// - throughput: every SM full of warps (132 x 8 blocks of 4 warps on an H100), each warp
//   doing ITERS mma_sync on four independent accumulators; the device's mma_sync a cycle and
//   per SM a cycle (clock from cudaDeviceProp), and the MACs per SM a cycle;
// - latency: one warp, one accumulator, each mma_sync depending on the last (clock64 cycles
//   per mma_sync);
// - one warp per SM scheduler (4 warps an SM), four accumulators: what a lightly occupied SM
//   gets.
// The SASS (cuobjdump -sass) shows the HMMA/IMMA/DMMA instructions per mma_sync.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
using namespace nvcuda;

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)

template <class In, class Acc, int M, int N, int K, class InFrag = In>
__global__ void mmaLoop(const In *a, const In *b, Acc *out, int iters, int chains,
                        long long *cycles) {
  wmma::fragment<wmma::matrix_a, M, N, K, InFrag, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, InFrag, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> c0, c1, c2, c3;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  wmma::fill_fragment(c0, Acc(0));
  wmma::fill_fragment(c1, Acc(0));
  wmma::fill_fragment(c2, Acc(0));
  wmma::fill_fragment(c3, Acc(0));
  long long t0 = clock64();
  if (chains == 4) {
    for (int i = 0; i < iters; ++i) {
      wmma::mma_sync(c0, fa, fb, c0);
      wmma::mma_sync(c1, fa, fb, c1);
      wmma::mma_sync(c2, fa, fb, c2);
      wmma::mma_sync(c3, fa, fb, c3);
    }
  } else {
    for (int i = 0; i < iters; ++i) {
      wmma::mma_sync(c0, fa, fb, c0);
      wmma::mma_sync(c0, fa, fb, c0);
      wmma::mma_sync(c0, fa, fb, c0);
      wmma::mma_sync(c0, fa, fb, c0);
    }
  }
  long long t1 = clock64();
  for (int i = 0; i < c0.num_elements; ++i)
    c0.x[i] = c0.x[i] + c1.x[i] + c2.x[i] + c3.x[i];
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  wmma::store_matrix_sync(out + size_t(w) * M * N, c0, N, wmma::mem_row_major);
  if (threadIdx.x == 0) cycles[blockIdx.x] = t1 - t0;
}

template <class In, class Acc, int M, int N, int K, class InFrag = In>
void run(const char *name, int sms, int clockKHz) {
  const int iters = 2048;
  In *a, *b;
  Acc *out;
  long long *cycles;
  int maxBlocks = sms * 8;
  CHECK(cudaMalloc(&a, 64 * 64 * sizeof(In)));
  CHECK(cudaMalloc(&b, 64 * 64 * sizeof(In)));
  CHECK(cudaMemset(a, 0, 64 * 64 * sizeof(In)));
  CHECK(cudaMemset(b, 0, 64 * 64 * sizeof(In)));
  CHECK(cudaMalloc(&out, size_t(maxBlocks) * 4 * M * N * sizeof(Acc)));
  CHECK(cudaMalloc(&cycles, maxBlocks * sizeof(long long)));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  struct Case { const char *what; int blocks, threads, chains; } cases[] = {
      {"full_4chains", maxBlocks, 128, 4}, {"warp_per_scheduler_4chains", sms, 128, 4},
      {"one_warp_dependent", 1, 32, 1}, {"one_warp_4chains", 1, 32, 4}};
  for (const Case &c : cases) {
    auto k = mmaLoop<In, Acc, M, N, K, InFrag>;
    k<<<c.blocks, c.threads>>>(a, b, out, 16, c.chains, cycles); // warm-up
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(e0));
    k<<<c.blocks, c.threads>>>(a, b, out, iters, c.chains, cycles);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    long long cyc = 0;
    CHECK(cudaMemcpy(&cyc, cycles, sizeof cyc, cudaMemcpyDeviceToHost));
    double mmas = double(c.blocks) * (c.threads / 32) * iters * 4;
    double smCycles = ms * 1e-3 * clockKHz * 1e3;
    double perSmCycle = mmas / smCycles / sms;
    std::printf("%-12s %-28s blocks=%5d warps/block=%d  %.3f ms  mma/SM/cycle(event)=%.4f  "
                "MAC/SM/cycle=%.0f  clock64 cycles/mma(warp)=%.2f\n",
                name, c.what, c.blocks, c.threads / 32, ms, perSmCycle,
                perSmCycle * M * N * K, double(cyc) / (iters * 4));
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  CHECK(cudaFree(cycles));
}

int main() {
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  int clockKHz = 0;
  CHECK(cudaDeviceGetAttribute(&clockKHz, cudaDevAttrClockRate, 0));
  std::printf("%s, %d SMs, clock %d kHz\n", p.name, p.multiProcessorCount, clockKHz);
  int sms = p.multiProcessorCount;
  run<__half, float, 16, 16, 16>("f16_f32", sms, clockKHz);
  run<__half, __half, 16, 16, 16>("f16_f16", sms, clockKHz);
  run<__nv_bfloat16, float, 16, 16, 16>("bf16_f32", sms, clockKHz);
  run<float, float, 16, 16, 8, wmma::precision::tf32>("tf32_f32", sms, clockKHz);
  run<signed char, int, 16, 16, 16>("s8_s32", sms, clockKHz);
  run<double, double, 8, 8, 4>("f64_f64", sms, clockKHz);
  run<__half, float, 32, 8, 16>("f16_32x8", sms, clockKHz);
  return 0;
}
