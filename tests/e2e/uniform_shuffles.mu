// Shuffles whose offsets, masks and widths are the same in every thread (a warp reduction's
// shfl_down loop, a butterfly of shfl_xor, a segment broadcast, a shift within segments): a
// block run as region loops completes them without returning to the executor when every
// thread reaches them. Next to them: a shuffle whose source lane depends on the thread, a
// block whose second half returned before the shuffles (whole warps), a block of 2D threads
// and a shuffle on a value wider than 32 bits. Every result is checked against the host.
#include "check.h"

#define FULL 0xffffffffu
#define OUTS 6

__global__ void shuffles(const int *in, int *out, int n) {
  int t = threadIdx.x + blockDim.x * threadIdx.y;
  int i = blockIdx.x * blockDim.x * blockDim.y + t;
  if (i >= n)
    return;
  int v = in[i];
  int sum = v;
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(FULL, sum, offset);
  int top = v;
  for (int mask = 1; mask < warpSize; mask *= 2)
    top = max(top, __shfl_xor_sync(FULL, top, mask));
  int broadcast = __shfl_sync(FULL, v, 3, 8);
  int shifted = __shfl_up_sync(FULL, v, 1, 16);
  int mine = __shfl_sync(FULL, v, (t * 7) % warpSize);
  long long wide = (long long)(v + 1000) << 33 | (unsigned)t;
  long long wideDown = __shfl_down_sync(FULL, wide, 2);
  int *o = out + (size_t)i * OUTS;
  o[0] = sum, o[1] = top, o[2] = broadcast, o[3] = shifted, o[4] = mine;
  o[5] = (int)((wideDown >> 33) - 1000) ^ (int)(wideDown & 0xffffffff);
}

namespace {

// The host's view of one warp of `w` lanes: v holds the lanes' inputs.
void expectWarp(const int *v, int w, int firstThread, int *expect) {
  int sum[128], top[128];
  for (int l = 0; l < w; ++l)
    sum[l] = top[l] = v[l];
  for (int offset = w / 2; offset > 0; offset /= 2) {
    int next[128];
    for (int l = 0; l < w; ++l)
      next[l] = sum[l] + (l + offset < w ? sum[l + offset] : sum[l]);
    for (int l = 0; l < w; ++l)
      sum[l] = next[l];
  }
  for (int mask = 1; mask < w; mask *= 2) {
    int next[128];
    for (int l = 0; l < w; ++l)
      next[l] = top[l] > top[l ^ mask] ? top[l] : top[l ^ mask];
    for (int l = 0; l < w; ++l)
      top[l] = next[l];
  }
  for (int l = 0; l < w; ++l) {
    int t = firstThread + l;
    int *e = expect + l * OUTS;
    e[0] = sum[l], e[1] = top[l];
    e[2] = v[l / 8 * 8 + 3];
    e[3] = l % 16 >= 1 ? v[l - 1] : v[l];
    e[4] = v[(t * 7) % w];
    int src = l + 2 < w ? l + 2 : l;
    e[5] = v[src] ^ (firstThread + src);
  }
}

int run(int w, int blockX, int blockY, int blocks, int n) {
  int threads = blockX * blockY, total = blocks * threads;
  int *in = new int[total], *got = new int[total * OUTS], *expect = new int[total * OUTS];
  for (int i = 0; i < total; ++i)
    in[i] = (i * 37) % 101 - 50;
  int *dIn, *dOut;
  CHECK_MUSA(musaMalloc(&dIn, total * sizeof(int)));
  CHECK_MUSA(musaMalloc(&dOut, total * OUTS * sizeof(int)));
  CHECK_MUSA(musaMemcpy(dIn, in, total * sizeof(int), musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemset(dOut, 0, total * OUTS * sizeof(int)));
  shuffles<<<blocks, dim3(blockX, blockY)>>>(dIn, dOut, n);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(got, dOut, total * OUTS * sizeof(int), musaMemcpyDeviceToHost));
  for (int i = 0; i < total * OUTS; ++i)
    expect[i] = 0; // threads past n write nothing
  for (int first = 0; first < n; first += w)
    expectWarp(in + first, w, first % threads, expect + first * OUTS);
  int wrong = 0;
  for (int i = 0; i < total * OUTS; ++i)
    if (got[i] != expect[i] && ++wrong <= 4)
      CHECK(false, "warp %d, block %dx%d, n %d: thread %d output %d: %d, expected %d", w,
            blockX, blockY, n, i / OUTS, i % OUTS, got[i], expect[i]);
  CHECK(wrong == 0, "%d wrong results", wrong);
  musaFree(dIn);
  musaFree(dOut);
  delete[] in;
  delete[] got;
  delete[] expect;
  return wrong;
}

} // namespace

int main() {
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  const int w = prop.warpSize;
  run(w, 256, 1, 8, 8 * 256);           // every thread of every block at every shuffle
  run(w, 256, 1, 3, 2 * 256 + 128);     // the last block's second half returned first
  run(w, 16, 16, 4, 4 * 256);           // 2D blocks: lanes by linear thread index
  run(w, 2 * w, 1, 5, 5 * 2 * w);       // two warps per block
  return finish("uniform_shuffles");
}
