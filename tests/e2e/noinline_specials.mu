// Device functions that are not inlined and read threadIdx, blockIdx or clock64(): each GPU
// thread must see its own values in every execution mode, whatever the optimisation level
// (clang marks such a function `memory(none)` on the device; lowered, it reads the thread's
// context, and a host optimiser that kept the old attribute would hoist it out of the thread
// loop).
#include "check.h"

__device__ __noinline__ int myTid() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __noinline__ int myY() { return threadIdx.y * 100 + blockIdx.y; }
__device__ __noinline__ long long myClock() { return clock64(); }

__global__ void tids(int *out) {
  int i = myTid();
  out[i] = myTid();
}

__global__ void tids2d(int *out) {
  int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y +
          threadIdx.y * blockDim.x + threadIdx.x;
  out[i] = myY();
}

// With a barrier: the call happens in a region after it.
__global__ void tidsAfterBarrier(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = myTid();
  __syncthreads();
  out[myTid()] = s[(threadIdx.x + 1) % blockDim.x] - myTid();
}

// clock64() from a non-inlined function, before and after a loop whose length depends on the
// thread: a thread that does more work sees more cycles pass.
__global__ void clocks(long long *out) {
  long long start = myClock();
  volatile int x = 0;
  for (int k = 0; k < (int)threadIdx.x * 50; ++k)
    x = x + k;
  out[threadIdx.x] = myClock() - start;
}

// The same across a barrier: in region mode the count must survive the park point.
__global__ void clocksAcrossBarrier(long long *out) {
  long long start = myClock();
  volatile int x = 0;
  for (int k = 0; k < (int)threadIdx.x * 50; ++k)
    x = x + k;
  __syncthreads();
  out[threadIdx.x] = myClock() - start;
}

int main() {
  const int blocks = 256, threads = 64, n = blocks * threads;
  int *d, *h = (int *)malloc(n * sizeof(int));
  CHECK_MUSA(musaMalloc(&d, n * sizeof(int)));
  tids<<<blocks, threads>>>(d);
  CHECK_MUSA(musaMemcpy(h, d, n * sizeof(int), musaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += h[i] != i;
  CHECK(wrong == 0, "tids: %d of %d wrong", wrong, n);

  tids2d<<<dim3(4, 8), dim3(8, 8)>>>(d);
  CHECK_MUSA(musaMemcpy(h, d, 4 * 8 * 64 * sizeof(int), musaMemcpyDeviceToHost));
  wrong = 0;
  for (int by = 0; by < 8; ++by)
    for (int bx = 0; bx < 4; ++bx)
      for (int ty = 0; ty < 8; ++ty)
        for (int tx = 0; tx < 8; ++tx)
          wrong += h[((by * 4 + bx) * 64) + ty * 8 + tx] != ty * 100 + by;
  CHECK(wrong == 0, "tids2d: %d wrong", wrong);

  tidsAfterBarrier<<<blocks, threads>>>(d);
  CHECK_MUSA(musaMemcpy(h, d, n * sizeof(int), musaMemcpyDeviceToHost));
  wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += h[i] != ((i % threads == threads - 1) ? 1 - threads : 1);
  CHECK(wrong == 0, "tidsAfterBarrier: %d of %d wrong", wrong, n);

  long long *dc, hc[64];
  CHECK_MUSA(musaMalloc(&dc, sizeof hc));
  // Under MUSA_SIM_TIMING=wall clock64() is the host's clock: too noisy for proportions.
  const char *timing = getenv("MUSA_SIM_TIMING");
  for (int k = 0; k < 2 && !(timing && timing[0] == 'w'); ++k) {
    if (k == 0)
      clocks<<<1, 64>>>(dc);
    else
      clocksAcrossBarrier<<<1, 64>>>(dc);
    CHECK_MUSA(musaMemcpy(hc, dc, sizeof hc, musaMemcpyDeviceToHost));
    // Thread t loops 50 t times: its elapsed cycles grow with t, in proportion.
    double ratio = double(hc[40] - hc[0]) / double(hc[20] - hc[0]);
    // The simulator's clock advances per executed instruction; the hardware's warps run in
    // lockstep and share a clock reading, so the proportion is the simulator's only.
    CHECK(onHardware() || (hc[63] > hc[1] && hc[1] > hc[0] && ratio > 1.6 && ratio < 2.4),
          "clock64 (kernel %d): threads 0, 1, 20, 40, 63 saw %lld %lld %lld %lld %lld cycles", k,
          hc[0], hc[1], hc[20], hc[40], hc[63]);
  }
  CHECK_MUSA(musaFree(d));
  CHECK_MUSA(musaFree(dc));
  free(h);
  return finish("noinline_specials");
}
