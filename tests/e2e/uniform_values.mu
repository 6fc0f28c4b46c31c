// Values every thread of a block holds alike across barriers (a tree reduction's stride, a
// loop counter, a value scaled by it), which region loops read once for the whole block, next
// to look-alikes that are not uniform: a value computed alike but chosen by a thread-dependent
// branch, a loop whose trip count depends on the thread, blocks where some threads returned
// early. Every result is checked against the host.
#include "check.h"

#define THREADS 128

// Tree reduction over n values; threads past n return before the first barrier.
__global__ void treeSum(const int *in, int *out, int n) {
  __shared__ int s[THREADS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = 0;
  __syncthreads();
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// A uniform counter and a value derived from it live across barriers; `pick` is computed alike
// but chosen per thread; `mine` runs a thread-dependent number of rounds without a barrier.
__global__ void rounds(int *out, int scale, int count) {
  __shared__ int s[THREADS];
  int pick = threadIdx.x % 3 == 0 ? scale * 2 : scale * 5;
  int total = 0;
  for (int r = 0; r < count; ++r) {
    int weight = r * scale + 1;
    s[threadIdx.x] = weight + (int)threadIdx.x;
    __syncthreads();
    int mine = 0;
    for (int j = 0; j < (int)threadIdx.x % 4; ++j)
      mine += j + weight;
    total += s[(threadIdx.x + 1) % blockDim.x] * weight + pick + mine;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = total;
}

int main() {
  const int n = 1000, blocks = (n + THREADS - 1) / THREADS;
  int in[n], sums[blocks], expected[blocks] = {};
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 7) % 23 - 11;
    expected[i / THREADS] += in[i];
  }
  int *dIn, *dOut;
  CHECK_MUSA(musaMalloc(&dIn, sizeof in));
  CHECK_MUSA(musaMalloc(&dOut, 4 * THREADS * sizeof(int)));
  CHECK_MUSA(musaMemcpy(dIn, in, sizeof in, musaMemcpyHostToDevice));
  treeSum<<<blocks, THREADS>>>(dIn, dOut, n);
  CHECK_MUSA(musaMemcpy(sums, dOut, sizeof sums, musaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    CHECK(sums[b] == expected[b], "block %d: sum %d, expected %d", b, sums[b], expected[b]);

  const int scale = 3, count = 5, roundBlocks = 4;
  int got[roundBlocks * THREADS];
  rounds<<<roundBlocks, THREADS>>>(dOut, scale, count);
  CHECK_MUSA(musaMemcpy(got, dOut, sizeof got, musaMemcpyDeviceToHost));
  int wrong = 0;
  for (int b = 0; b < roundBlocks; ++b)
    for (int t = 0; t < THREADS; ++t) {
      int pick = t % 3 == 0 ? scale * 2 : scale * 5, total = 0;
      for (int r = 0; r < count; ++r) {
        int weight = r * scale + 1, mine = 0;
        for (int j = 0; j < t % 4; ++j)
          mine += j + weight;
        total += (weight + (t + 1) % THREADS) * weight + pick + mine;
      }
      if (got[b * THREADS + t] != total && ++wrong <= 4)
        CHECK(false, "rounds: block %d thread %d: %d, expected %d", b, t,
              got[b * THREADS + t], total);
    }
  CHECK(wrong == 0, "%d wrong results", wrong);
  musaFree(dIn);
  musaFree(dOut);
  return finish("uniform_values");
}
