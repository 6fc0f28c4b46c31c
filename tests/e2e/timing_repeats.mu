// Repeated launches and the timing model's samples: a launch of the same kernel with the
// same configuration and arguments as earlier ones may take their sampled measurements
// instead of sampling (simdevice/src/SampleMemo.cpp), but only while they counted the same
// instructions. Two kernels, each launched Launches times, every launch timed by events:
//   - `transposeTile`: a shared-memory tile with a bank-conflicted column read (rows of 32
//     words), the same work every time: later launches reuse the samples;
//   - `walk`: each thread takes `rounds[0]` strided steps, a number the host changes between
//     launches (same arguments, other data): its counts change, so it samples every time.
// Prints each launch's simulated time; the CTest compares the output with the same program
// under MUSA_SIM_SAMPLE_REUSE=0 (every launch sampled): they must be the same, digit for
// digit. Also checks the results.
#include <musa_runtime.h>

#include <cstdio>
#include <vector>

#include "check.h"

constexpr int Tile = 32, N = 1024, Launches = 12;

__global__ void transposeTile(const float *in, float *out) {
  __shared__ float tile[Tile][Tile]; // no padding: the column read conflicts
  int x = blockIdx.x * Tile + threadIdx.x, y = blockIdx.y * Tile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * N + x];
  __syncthreads();
  int tx = blockIdx.y * Tile + threadIdx.x, ty = blockIdx.x * Tile + threadIdx.y;
  out[ty * N + tx] = tile[threadIdx.x][threadIdx.y];
}

__global__ void walk(const float *in, float *out, const int *rounds, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float sum = 0;
  for (int r = 0; r < rounds[0]; ++r)
    sum += in[(size_t(i) * 33 + size_t(r) * 97) % n];
  out[i] = sum;
}

int main() {
  std::vector<float> host(N * N);
  for (int i = 0; i < N * N; ++i)
    host[i] = float(i % 1000) * 0.5f;
  float *in, *out;
  int *rounds;
  CHECK_MUSA(musaMalloc(&in, N * N * sizeof(float)));
  CHECK_MUSA(musaMalloc(&out, N * N * sizeof(float)));
  CHECK_MUSA(musaMalloc(&rounds, sizeof(int)));
  musaMemcpy(in, host.data(), N * N * sizeof(float), musaMemcpyHostToDevice);
  musaEvent_t start, stop;
  musaEventCreate(&start);
  musaEventCreate(&stop);
  auto timed = [&](const char *name, int launch, auto &&run) {
    musaEventRecord(start);
    run();
    musaEventRecord(stop);
    musaEventSynchronize(stop);
    float ms = 0;
    musaEventElapsedTime(&ms, start, stop);
    std::printf("%s launch %d: %.4f us\n", name, launch, ms * 1000);
  };
  for (int l = 0; l < Launches; ++l)
    timed("transposeTile", l, [&] {
      transposeTile<<<dim3(N / Tile, N / Tile), dim3(Tile, Tile)>>>(in, out);
    });
  std::vector<float> result(N * N);
  musaMemcpy(result.data(), out, N * N * sizeof(float), musaMemcpyDeviceToHost);
  int wrong = 0;
  for (int y = 0; y < N; ++y)
    for (int x = 0; x < N; ++x)
      wrong += result[x * N + y] != host[y * N + x];
  CHECK(wrong == 0, "%d transposed elements wrong", wrong);

  const int n = N * N;
  for (int l = 0; l < Launches; ++l) {
    int r = 1 + l % 3;
    musaMemcpy(rounds, &r, sizeof r, musaMemcpyHostToDevice);
    timed("walk", l, [&] { walk<<<(n + 255) / 256, 256>>>(in, out, rounds, n); });
    if (l == Launches - 1) {
      musaMemcpy(result.data(), out, n * sizeof(float), musaMemcpyDeviceToHost);
      wrong = 0;
      for (int i = 0; i < n; i += 4099) {
        float sum = 0;
        for (int k = 0; k < r; ++k)
          sum += host[(size_t(i) * 33 + size_t(k) * 97) % n];
        wrong += result[i] != sum;
      }
      CHECK(wrong == 0, "%d walk sums wrong", wrong);
    }
  }
  CHECK_MUSA(musaGetLastError());
  musaFree(in);
  musaFree(out);
  musaFree(rounds);
  return finish("timing_repeats");
}
