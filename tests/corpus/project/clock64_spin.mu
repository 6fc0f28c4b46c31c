// clock64() timing loops (the clock sample and spin-wait kernels): per-thread busy-wait for a cycle budget, per-block start/stop stamps with __syncthreads, clock() 32-bit wrap-safe differences, __nanosleep back-off, and musaDevAttrClockRate to turn cycles into time compared with musaEventElapsedTime.
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void spin(long long cycles, long long *elapsed, unsigned *iters) {
  long long start = clock64();
  unsigned k = 0;
  long long now;
  do {
    now = clock64();
    ++k;
  } while (now - start < cycles);
  elapsed[blockIdx.x * blockDim.x + threadIdx.x] = now - start;
  iters[blockIdx.x * blockDim.x + threadIdx.x] = k;
}

__global__ void stamps(const float *in, float *out, int n, long long *blockTimes, unsigned *clk32) {
  __shared__ long long t0;
  unsigned c0 = clock();
  if (threadIdx.x == 0)
    t0 = clock64();
  __syncthreads();
  float acc = 0;
  for (int r = 0; r < 64; ++r)
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      acc += sinf(in[i] * (r + 1));
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    long long t1 = clock64();
    blockTimes[2 * blockIdx.x] = t0;
    blockTimes[2 * blockIdx.x + 1] = t1;
    clk32[blockIdx.x] = clock() - c0; // unsigned difference survives wrap
  }
}

__global__ void backoff(int *flag, int *waited, long long *ns) {
  // thread 0 of block 1 sets the flag after a delay; block 0 polls with exponential back-off
  if (blockIdx.x == 1) {
    if (threadIdx.x == 0) {
      long long s = clock64();
      while (clock64() - s < 20000) {
      }
      atomicExch(flag, 1);
    }
    return;
  }
  if (threadIdx.x != 0)
    return;
  unsigned sleep = 32;
  int polls = 0;
  unsigned long long g0 = __globaltimer();
  while (atomicAdd(flag, 0) == 0 && polls < 1000000) {
    __nanosleep(sleep);
    if (sleep < 4096)
      sleep *= 2;
    ++polls;
  }
  *waited = polls;
  *ns = (long long)(__globaltimer() - g0);
}

int main() {
  const int threads = 64, blocks = 4, n = threads * blocks;
  const long long budget = 100000;
  long long *del;
  unsigned *dit;
  CHECK(musaMalloc(&del, n * 8));
  CHECK(musaMalloc(&dit, n * 4));
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  spin<<<blocks, threads>>>(budget, del, dit);
  CHECK(musaGetLastError());
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  float ms = 0;
  CHECK(musaEventElapsedTime(&ms, e0, e1));
  int clockKHz = 0;
  CHECK(musaDeviceGetAttribute(&clockKHz, musaDevAttrClockRate, 0));
  long long el[n];
  unsigned it[n];
  CHECK(musaMemcpy(el, del, sizeof el, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(it, dit, sizeof it, musaMemcpyDeviceToHost));
  bool ok = true;
  long long mn = el[0], mx = el[0];
  for (int i = 0; i < n; ++i) {
    ok = ok && el[i] >= budget && el[i] < budget * 100 && it[i] >= 1;
    mn = el[i] < mn ? el[i] : mn;
    mx = el[i] > mx ? el[i] : mx;
  }
  double expectMs = (double)budget / clockKHz; // cycles / (kcycles per ms)
  printf("spin: %lld..%lld cycles (budget %lld), clock %d kHz => >= %.4f ms, events %.4f ms\n", mn, mx, budget, clockKHz, expectMs, ms);
  ok = ok && ms >= expectMs; // N cycles at no more than clockRate cannot take less time

  const int m = 4096;
  float *din, *dout;
  long long *dbt;
  unsigned *dc32;
  CHECK(musaMalloc(&din, m * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMalloc(&dbt, 2 * blocks * 8));
  CHECK(musaMalloc(&dc32, blocks * 4));
  CHECK(musaMemset(din, 0, m * 4));
  stamps<<<blocks, threads>>>(din, dout, m, dbt, dc32);
  CHECK(musaGetLastError());
  long long bt[2 * blocks];
  unsigned c32[blocks];
  CHECK(musaMemcpy(bt, dbt, sizeof bt, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(c32, dc32, sizeof c32, musaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    ok = ok && bt[2 * b + 1] > bt[2 * b] && c32[b] > 0;
    printf("block %d: %lld cycles (clock(): %u)\n", b, bt[2 * b + 1] - bt[2 * b], c32[b]);
  }

  int *dflag, *dw;
  long long *dns;
  CHECK(musaMalloc(&dflag, 4));
  CHECK(musaMalloc(&dw, 4));
  CHECK(musaMalloc(&dns, 8));
  CHECK(musaMemset(dflag, 0, 4));
  backoff<<<2, 32>>>(dflag, dw, dns);
  CHECK(musaGetLastError());
  int w;
  long long ns;
  CHECK(musaMemcpy(&w, dw, 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&ns, dns, 8, musaMemcpyDeviceToHost));
  printf("backoff: %d polls, %lld ns\n", w, ns);
  ok = ok && w < 1000000 && ns >= 0;
  printf("clock64_spin: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
