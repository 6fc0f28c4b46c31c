// The timing model samples shared-memory accesses per barrier epoch: an anti-diagonal
// wavefront (lane t at column k - t in step k, a __syncthreads between steps) makes its warp
// accesses from the lanes of one step, not from each lane's own first steps. With rows of 65
// words, a step's lanes all fall in one bank (32-way conflicts); with rows of 64, in 32
// banks. Lanes' first executions show the opposite (each lane first runs at its own column
// 0: banks t with rows of 65, bank 0 with rows of 64), which is what a model sampling them
// would see. Checks the results, and with the timing model on (not with every block forced
// to loops, which samples none) that the conflicted stride costs at least twice the other.
#include <musa_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "check.h"

constexpr int Rows = 32, Cols = 64, Sweeps = 8;

template <int Stride> __global__ void wavefront(const float *in, float *out) {
  __shared__ float s[Rows * Stride];
  const int t = threadIdx.x;
  const float *src = in + size_t(blockIdx.x) * Rows * Cols;
  for (int c = 0; c < Cols; ++c)
    s[t * Stride + c] = src[t * Cols + c];
  __syncthreads();
  for (int sweep = 0; sweep < Sweeps; ++sweep) {
    for (int k = 1; k < Cols + Rows - 1; ++k) {
      int c = k - t;
      if (c >= 1 && c < Cols)
        s[t * Stride + c] = 0.5f * (s[t * Stride + c] + s[t * Stride + c - 1]);
      __syncthreads();
    }
  }
  float *dst = out + size_t(blockIdx.x) * Rows * Cols;
  for (int c = 0; c < Cols; ++c)
    dst[t * Cols + c] = s[t * Stride + c];
}

static void reference(const float *in, float *out) {
  std::memcpy(out, in, sizeof(float) * Rows * Cols);
  for (int sweep = 0; sweep < Sweeps; ++sweep)
    for (int r = 0; r < Rows; ++r)
      for (int c = 1; c < Cols; ++c)
        out[r * Cols + c] = 0.5f * (out[r * Cols + c] + out[r * Cols + c - 1]);
}

template <int Stride>
static float run(const float *din, float *dout, int blocks, const std::vector<float> &want) {
  musaEvent_t a, b;
  CHECK_MUSA(musaEventCreate(&a));
  CHECK_MUSA(musaEventCreate(&b));
  CHECK_MUSA(musaEventRecord(a));
  wavefront<Stride><<<blocks, Rows>>>(din, dout);
  CHECK_MUSA(musaEventRecord(b));
  CHECK_MUSA(musaEventSynchronize(b));
  float ms = 0;
  CHECK_MUSA(musaEventElapsedTime(&ms, a, b));
  std::vector<float> got(want.size());
  CHECK_MUSA(musaMemcpy(got.data(), dout, got.size() * sizeof(float), musaMemcpyDeviceToHost));
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i]) {
      CHECK(got[i] == want[i], "stride %d: element %zu is %g, want %g", Stride, i, got[i],
            want[i]);
      break;
    }
  CHECK_MUSA(musaEventDestroy(a));
  CHECK_MUSA(musaEventDestroy(b));
  return ms;
}

int main() {
  const int blocks = 2048;
  const size_t n = size_t(blocks) * Rows * Cols;
  std::vector<float> in(n), want(n);
  for (size_t i = 0; i < n; ++i)
    in[i] = float((i * 2654435761u) % 1000) / 8.f;
  for (int b = 0; b < blocks; ++b)
    reference(&in[size_t(b) * Rows * Cols], &want[size_t(b) * Rows * Cols]);
  float *din, *dout;
  CHECK_MUSA(musaMalloc(&din, n * sizeof(float)));
  CHECK_MUSA(musaMalloc(&dout, n * sizeof(float)));
  CHECK_MUSA(musaMemcpy(din, in.data(), n * sizeof(float), musaMemcpyHostToDevice));
  float conflicted = run<65>(din, dout, blocks, want);
  float spread = run<64>(din, dout, blocks, want);
  std::printf("wavefront: rows of 65 words %.4f ms, rows of 64 words %.4f ms\n", conflicted,
              spread);
  const char *timing = std::getenv("MUSA_SIM_TIMING");
  const char *exec = std::getenv("MUSA_SIM_EXEC");
  bool modelled = !(timing && std::strcmp(timing, "wall") == 0) &&
                  !(exec && std::strcmp(exec, "loops") == 0) && !reachesHardware();
  if (modelled)
    CHECK(conflicted > 2 * spread,
          "32-way conflicts (%.4f ms) should cost at least twice what none cost (%.4f ms)",
          conflicted, spread);
  CHECK_MUSA(musaFree(din));
  CHECK_MUSA(musaFree(dout));
  return finish("timing_epochs");
}
