// __syncthreads_count/_and/_or: per-block predicate counts for a stream-compaction pass, an "all sorted?" test and an "any negative?" test, with some threads exiting early.
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

__global__ void votes(const int *in, int n, int *counts, int *allPos, int *anyBig, int *compact, int *cursor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int keep = i < n && (v & 1);
  int c = __syncthreads_count(keep);
  int a = __syncthreads_and(i >= n || v >= 0);
  int o = __syncthreads_or(i < n && v > 900);
  __shared__ int base;
  if (threadIdx.x == 0) {
    counts[blockIdx.x] = c;
    allPos[blockIdx.x] = a;
    anyBig[blockIdx.x] = o;
    base = atomicAdd(cursor, c);
  }
  __syncthreads();
  // second-level: ordered compaction inside the block via a shared scan of flags
  __shared__ int flags[256];
  flags[threadIdx.x] = keep;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int t = threadIdx.x >= off ? flags[threadIdx.x - off] : 0;
    __syncthreads();
    flags[threadIdx.x] += t;
    __syncthreads();
  }
  if (keep)
    compact[base + flags[threadIdx.x] - 1] = v;
}

__global__ void earlyExit(const int *in, int n, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 3 == 0)
    return; // exited threads no longer take part in the barrier
  int c = __syncthreads_count(in[i % n] > 500);
  int o = __syncthreads_or(threadIdx.x == 1);
  int a = __syncthreads_and(threadIdx.x % 3 != 0);
  if (threadIdx.x == 1)
    out[blockIdx.x] = c * 4 + o * 2 + a;
}

int main() {
  const int n = 5000, threads = 256, blocks = (n + threads - 1) / threads;
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (i * 7919) % 1000 - ((i % 1237) == 5 ? 2000 : 0);
  int *din, *dc, *da, *dor, *dcomp, *dcur, *dee;
  CHECK(musaMalloc(&din, n * sizeof(int)));
  CHECK(musaMalloc(&dc, blocks * sizeof(int)));
  CHECK(musaMalloc(&da, blocks * sizeof(int)));
  CHECK(musaMalloc(&dor, blocks * sizeof(int)));
  CHECK(musaMalloc(&dcomp, n * sizeof(int)));
  CHECK(musaMalloc(&dcur, sizeof(int)));
  CHECK(musaMalloc(&dee, blocks * sizeof(int)));
  CHECK(musaMemset(dcur, 0, sizeof(int)));
  CHECK(musaMemcpy(din, h, n * sizeof(int), musaMemcpyHostToDevice));
  votes<<<blocks, threads>>>(din, n, dc, da, dor, dcomp, dcur);
  CHECK(musaGetLastError());
  earlyExit<<<blocks, threads>>>(din, n, dee);
  CHECK(musaGetLastError());
  int *c = (int *)malloc(blocks * 4), *a = (int *)malloc(blocks * 4), *o = (int *)malloc(blocks * 4), *ee = (int *)malloc(blocks * 4);
  int *comp = (int *)malloc(n * 4), cur;
  CHECK(musaMemcpy(c, dc, blocks * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(a, da, blocks * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(o, dor, blocks * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(ee, dee, blocks * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&cur, dcur, 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(comp, dcomp, cur * 4, musaMemcpyDeviceToHost));
  bool ok = true;
  int total = 0, bad = 0;
  for (int b = 0; b < blocks; ++b) {
    int rc = 0, ra = 1, ro = 0, rce = 0;
    for (int t = 0; t < threads; ++t) {
      int i = b * threads + t;
      if (i < n) {
        rc += h[i] & 1;
        ra &= h[i] >= 0;
        ro |= h[i] > 900;
      }
      if (t % 3 != 0)
        rce += h[i % n] > 500;
    }
    total += rc;
    if (c[b] != rc || a[b] != ra || o[b] != ro || ee[b] != rce * 4 + 2 + 1) {
      if (bad++ < 5)
        printf("block %d: count %d/%d and %d/%d or %d/%d early %d/%d\n", b, c[b], rc, a[b], ra, o[b], ro, ee[b], rce * 4 + 3);
      ok = false;
    }
  }
  ok = ok && cur == total;
  // the compacted values, as a multiset, must be the odd inputs: compare sums and per-block order
  long long s1 = 0, s2 = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] & 1)
      s1 += h[i];
  for (int i = 0; i < cur; ++i)
    s2 += comp[i];
  ok = ok && s1 == s2;
  printf("syncthreads_votes: %d blocks, %d kept, %s\n", blocks, cur, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
