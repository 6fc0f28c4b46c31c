// Block reduction in shared memory: __syncthreads inside a loop, several block sizes.
#include "check.h"

template <int BLOCK> __global__ void blockSum(const int *in, int *out, int n) {
  __shared__ int partial[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

template <int BLOCK> void run(int n) {
  int blocks = (n + BLOCK - 1) / BLOCK;
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (i * 7) % 13 - 6;
  int *d_in, *d_out;
  CHECK_MUSA(musaMalloc(&d_in, n * sizeof(int)));
  CHECK_MUSA(musaMalloc(&d_out, blocks * sizeof(int)));
  CHECK_MUSA(musaMemcpy(d_in, h, n * sizeof(int), musaMemcpyHostToDevice));
  blockSum<BLOCK><<<blocks, BLOCK>>>(d_in, d_out, n);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaDeviceSynchronize());
  int *sums = (int *)malloc(blocks * sizeof(int));
  CHECK_MUSA(musaMemcpy(sums, d_out, blocks * sizeof(int), musaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int expect = 0;
    for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < n; ++i)
      expect += h[i];
    CHECK(sums[b] == expect, "block %d of %d threads: got %d, expected %d", b, BLOCK, sums[b],
          expect);
  }
  musaFree(d_in);
  musaFree(d_out);
  free(h);
  free(sums);
}

int main() {
  run<32>(1000);
  run<128>(5000);
  run<256>(4096);
  run<1024>(3000);
  return finish("block_reduce");
}
