// Barriers as hardware runs them. Threads that have exited no longer hold up __syncthreads
// (the common `if (i >= n) return;` before a barrier); a real deadlock (lanes waiting at a warp
// collective for lanes that wait at a block barrier) is reported as a launch failure naming the
// kernel and threads, never a hang.
#include "check.h"

__global__ void halfBarrier(int *out) {
  if (threadIdx.x < 16) {
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = 1;
  }
}

// Sums `in` per block; the tail block has threads that return before the barriers.
__global__ void tailSum(const int *in, int *out, int n) {
  __shared__ int s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    int live = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
    for (int k = 0; k < live; ++k)
      sum += s[k];
    out[blockIdx.x] = sum;
  }
  // A second barrier, reached only by live threads, with a count over them.
  int count = __syncthreads_count(1);
  if (threadIdx.x == 0)
    out[gridDim.x + blockIdx.x] = count;
}

// The first warp exchanges values while the other warps already wait at the barrier: the
// barrier must hold them until the first warp's values are in shared memory.
__global__ void warpThenBarrier(int *out) {
  __shared__ int s[512];
  int v = threadIdx.x;
  if (threadIdx.x < warpSize) {
    v = __shfl_xor_sync(0xffffffffu, v, 1);
    v = __shfl_xor_sync(0xffffffffu, v, 2) + 1000;
  }
  s[threadIdx.x] = v;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 37) % blockDim.x];
}

__global__ void deadlock(int *out) {
  int v = threadIdx.x;
  if (threadIdx.x % 32 < 16)
    __syncthreads();
  else
    v = __shfl_xor_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = v;
}

int main() {
  int *d;
  CHECK_MUSA(musaMalloc(&d, 1024 * sizeof(int)));
  CHECK_MUSA(musaMemset(d, 0, 1024 * sizeof(int)));
  halfBarrier<<<2, 64>>>(d);
  CHECK_MUSA(musaDeviceSynchronize());
  int h[1024];
  CHECK_MUSA(musaMemcpy(h, d, 128 * sizeof(int), musaMemcpyDeviceToHost));
  for (int i = 0; i < 128; ++i)
    CHECK(h[i] == (i % 64 < 16), "halfBarrier out[%d] = %d", i, h[i]);

  const int n = 300, blocks = 3;
  int in[n];
  for (int i = 0; i < n; ++i)
    in[i] = i % 7;
  int *dIn;
  CHECK_MUSA(musaMalloc(&dIn, n * sizeof(int)));
  CHECK_MUSA(musaMemcpy(dIn, in, sizeof in, musaMemcpyHostToDevice));
  tailSum<<<blocks, 128>>>(dIn, d, n);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(h, d, 2 * blocks * sizeof(int), musaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    int expect = 0, live = n - b * 128 < 128 ? n - b * 128 : 128;
    for (int k = 0; k < live; ++k)
      expect += in[b * 128 + k];
    CHECK(h[b] == expect, "tailSum block %d: %d, expected %d", b, h[b], expect);
    CHECK(h[blocks + b] == live, "__syncthreads_count in block %d: %d, expected %d", b,
          h[blocks + b], live);
  }

  int warp = 0;
  musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0);
  warpThenBarrier<<<1, 512>>>(d);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(h, d, 512 * sizeof(int), musaMemcpyDeviceToHost));
  for (int t = 0; t < 512; ++t) {
    int k = (t + 37) % 512;
    int expect = k < warp ? (k ^ 3) + 1000 : k;
    CHECK(h[t] == expect, "warpThenBarrier out[%d] = %d, expected %d", t, h[t], expect);
  }

  deadlock<<<1, 64>>>(d);
  musaError_t launched = musaGetLastError();
  CHECK(launched == musaSuccess || launched == musaErrorLaunchFailure, "launch returned %s",
        musaGetErrorName(launched));
  musaError_t e = musaDeviceSynchronize();
  CHECK(e == musaErrorLaunchFailure, "synchronize returned %s", musaGetErrorName(e));
  // The error is sticky until musaDeviceReset.
  CHECK(musaGetLastError() == musaErrorLaunchFailure, "not sticky");
  CHECK(musaMalloc(&d, 4) == musaErrorLaunchFailure, "musaMalloc after a fault succeeded");
  CHECK_MUSA(musaDeviceReset());
  CHECK_MUSA(musaMalloc(&d, 4));
  return finish("divergent_barrier");
}
