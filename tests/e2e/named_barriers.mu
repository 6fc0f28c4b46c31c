// Named barriers (PTX `bar.sync a, b` / `bar.arrive a, b`, `__barrier_sync_count`) as
// warp-specialised kernels use them: a barrier other than 0, or one for a subset of the
// block's threads, completes when its thread count has arrived, counted per warp; bar.arrive
// marks the arrival and goes on. Each block size is a multiple of the warp size, so the same
// program runs on 32-lane and 128-lane warps. A barrier whose count is never reached is a
// deadlock: reported as a launch failure (on a GPU it hangs, so it is skipped there).
#include "check.h"

__device__ __forceinline__ void namedSync(unsigned id, unsigned count) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}
__device__ __forceinline__ void namedArrive(unsigned id, unsigned count) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}

// Producer and consumer warps: the first half of the block stages tile k of `in` in a
// double buffer, signals "full" (barrier 1 or 2, by buffer) with bar.arrive and waits for
// "empty" (3 or 4) before it reuses a buffer; the second half waits for "full", sums the tile
// and signals "empty". Every barrier counts the whole block.
__global__ void producerConsumer(const int *in, int *out, int tiles) {
  extern __shared__ int buffer[]; // 2 tiles of blockDim.x / 2 ints
  unsigned half = blockDim.x / 2, all = blockDim.x;
  bool producer = threadIdx.x < half;
  unsigned lane = producer ? threadIdx.x : threadIdx.x - half;
  int sum = 0;
  for (int k = 0; k < tiles; ++k) {
    int *tile = buffer + (k % 2) * half;
    if (producer) {
      if (k >= 2)
        namedSync(3 + k % 2, all); // the consumers have read this buffer's last tile
      tile[lane] = in[(blockIdx.x * tiles + k) * half + lane];
      namedArrive(1 + k % 2, all);
    } else {
      namedSync(1 + k % 2, all);
      sum += tile[(lane + k) % half]; // another producer lane's value
      namedArrive(3 + k % 2, all);
    }
  }
  if (!producer)
    out[blockIdx.x * half + lane] = sum;
}

// The two halves of the block synchronise on their own barriers (5 and 6, half the block
// each) a different number of times: each rotates a value through its half of shared memory.
// With one block-wide barrier the halves would wait for each other and deadlock.
__global__ void independentHalves(int *out) {
  extern __shared__ int s[];
  unsigned half = blockDim.x / 2;
  bool second = threadIdx.x >= half;
  unsigned lane = threadIdx.x % half, id = second ? 6 : 5;
  int rounds = second ? 7 : 3, v = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    s[threadIdx.x] = v;
    namedSync(id, half);
    v = s[(second ? half : 0) + (lane + 1) % half];
    namedSync(id, half);
  }
  out[threadIdx.x] = v;
}

// A block reduction whose barriers are __barrier_sync_count over the block and
// __barrier_sync (barrier 7, every thread), with `barrier.sync` of an immediate id in between.
__global__ void reduceNamed(const int *in, int *out) {
  extern __shared__ int s[];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __barrier_sync_count(8, blockDim.x);
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride)
      s[threadIdx.x] += s[threadIdx.x + stride];
    if (stride % 2)
      asm volatile("barrier.sync 9;" ::: "memory");
    else
      __barrier_sync(7);
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// Warps past the first return before the barrier: exited warps do not hold up a barrier that
// counts the whole block (no count), as with __syncthreads.
__global__ void exitedWarps(int *out) {
  __shared__ int s[1];
  if (threadIdx.x >= warpSize)
    return;
  if (threadIdx.x == 0)
    s[0] = 42;
  asm volatile("bar.sync 10;" ::: "memory");
  out[threadIdx.x] = s[0] + threadIdx.x;
}

// Barrier 11 waits for the whole block but half of it never arrives: a deadlock.
__global__ void neverComplete(int *out, unsigned count) {
  if (threadIdx.x < blockDim.x / 2)
    namedSync(11, count);
  out[threadIdx.x] = 1;
}

int main() {
  int warp = 0;
  CHECK_MUSA(musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0));
  const unsigned block = 4 * warp, half = block / 2;
  const int blocks = 3, tiles = 9;

  int *in, *out;
  size_t n = size_t(blocks) * tiles * half;
  CHECK_MUSA(musaMalloc(&in, n * sizeof(int)));
  CHECK_MUSA(musaMalloc(&out, 4 * block * sizeof(int)));
  int *h = (int *)malloc(n * sizeof(int));
  for (size_t i = 0; i < n; ++i)
    h[i] = int(i * 7 % 1000);
  CHECK_MUSA(musaMemcpy(in, h, n * sizeof(int), musaMemcpyHostToDevice));

  producerConsumer<<<blocks, block, 2 * half * sizeof(int)>>>(in, out, tiles);
  CHECK_MUSA(musaDeviceSynchronize());
  int *got = (int *)malloc(4 * block * sizeof(int));
  CHECK_MUSA(musaMemcpy(got, out, blocks * half * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; ++b)
    for (unsigned lane = 0; lane < half; ++lane) {
      int expect = 0;
      for (int k = 0; k < tiles; ++k)
        expect += h[(size_t(b) * tiles + k) * half + (lane + k) % half];
      if (got[b * half + lane] != expect && bad++ < 4)
        CHECK(false, "producerConsumer block %d lane %u: %d, expected %d", b, lane,
              got[b * half + lane], expect);
    }
  CHECK(bad == 0, "producerConsumer: %d wrong sums", bad);

  independentHalves<<<1, block, block * sizeof(int)>>>(out);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(got, out, block * sizeof(int), musaMemcpyDeviceToHost));
  for (unsigned t = 0; t < block; ++t) {
    bool second = t >= half;
    unsigned lane = t % half, rounds = second ? 7 : 3;
    int expect = int((second ? half : 0) + (lane + rounds) % half);
    CHECK(got[t] == expect, "independentHalves out[%u] = %d, expected %d", t, got[t], expect);
  }

  reduceNamed<<<blocks, block, block * sizeof(int)>>>(in, out);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(got, out, blocks * sizeof(int), musaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int expect = 0;
    for (unsigned t = 0; t < block; ++t)
      expect += h[b * block + t];
    CHECK(got[b] == expect, "reduceNamed block %d: %d, expected %d", b, got[b], expect);
  }

  exitedWarps<<<2, block>>>(out);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(got, out, warp * sizeof(int), musaMemcpyDeviceToHost));
  for (int t = 0; t < warp; ++t)
    CHECK(got[t] == 42 + t, "exitedWarps out[%d] = %d", t, got[t]);

  if (!reachesHardware()) {
    neverComplete<<<1, block>>>(out, block);
    musaError_t e = musaDeviceSynchronize();
    CHECK(e == musaErrorLaunchFailure, "a named barrier that never completes: %s",
          musaGetErrorName(e));
    CHECK_MUSA(musaDeviceReset());
  }
  free(h);
  free(got);
  return finish("named_barriers");
}
