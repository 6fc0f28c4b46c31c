// LSD radix sort of 2^15 keys, 4 bits per pass: per-block digit histograms, a host-side exclusive scan of the digit-major table, and a stable scatter in which each block ranks its keys in order.
#include <musa_runtime.h>
#include <math.h>
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

#define RADIX 16
#define BLOCK 256

__global__ void digitHistogram(const unsigned *keys, int n, int shift, unsigned *counts, int blocks) {
  __shared__ unsigned local[RADIX];
  if (threadIdx.x < RADIX)
    local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n)
    atomicAdd(&local[(keys[i] >> shift) & (RADIX - 1)], 1u);
  __syncthreads();
  if (threadIdx.x < RADIX)
    counts[threadIdx.x * blocks + blockIdx.x] = local[threadIdx.x]; // digit-major
}

__global__ void scatter(const unsigned *in, unsigned *out, int n, int shift, const unsigned *offsets,
                        int blocks) {
  __shared__ unsigned digits[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  unsigned d = i < n ? (in[i] >> shift) & (RADIX - 1) : RADIX;
  digits[threadIdx.x] = d;
  __syncthreads();
  if (i >= n)
    return;
  unsigned rank = 0; // keys of the same digit before this one in the block: stability
  for (int t = 0; t < (int)threadIdx.x; ++t)
    rank += digits[t] == d;
  out[offsets[d * blocks + blockIdx.x] + rank] = in[i];
}

int main() {
  const int n = 1 << 15, blocks = (n + BLOCK - 1) / BLOCK;
  unsigned *h = (unsigned *)malloc(n * sizeof(unsigned)), *res = (unsigned *)malloc(n * sizeof(unsigned));
  unsigned *counts = (unsigned *)malloc(RADIX * blocks * sizeof(unsigned));
  for (int i = 0; i < n; ++i)
    h[i] = (unsigned)(i * 2246822519u) ^ 0x5bd1e995u;
  unsigned *da, *db, *dc;
  CHECK(musaMalloc(&da, n * sizeof(unsigned)));
  CHECK(musaMalloc(&db, n * sizeof(unsigned)));
  CHECK(musaMalloc(&dc, RADIX * blocks * sizeof(unsigned)));
  CHECK(musaMemcpy(da, h, n * sizeof(unsigned), musaMemcpyHostToDevice));
  for (int shift = 0; shift < 32; shift += 4) {
    digitHistogram<<<blocks, BLOCK>>>(da, n, shift, dc, blocks);
    CHECK(musaMemcpy(counts, dc, RADIX * blocks * sizeof(unsigned), musaMemcpyDeviceToHost));
    unsigned acc = 0;
    for (int k = 0; k < RADIX * blocks; ++k) {
      unsigned c = counts[k];
      counts[k] = acc;
      acc += c;
    }
    CHECK(musaMemcpy(dc, counts, RADIX * blocks * sizeof(unsigned), musaMemcpyHostToDevice));
    scatter<<<blocks, BLOCK>>>(da, db, n, shift, dc, blocks);
    unsigned *t = da;
    da = db;
    db = t;
  }
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, da, n * sizeof(unsigned), musaMemcpyDeviceToHost));
  int bad = 0;
  unsigned long long sumIn = 0, sumOut = 0;
  for (int i = 0; i < n; ++i) {
    sumIn += h[i];
    sumOut += res[i];
    if (i > 0 && res[i - 1] > res[i] && bad++ < 5)
      printf("out of order at %d\n", i);
  }
  if (sumIn != sumOut)
    ++bad;
  printf("radix_sort: %d keys, 8 passes, %s\n", n, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
