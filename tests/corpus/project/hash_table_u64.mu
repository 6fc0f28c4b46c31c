// Lock-free open-addressing hash table (HeCBench/"simple GPU hash table" style): 64-bit keys claimed with atomicCAS on unsigned long long, per-key counts with atomicAdd, native atomicAdd(double) sums, a packed (value<<32 | index) argmin with 64-bit atomicMin, atomicMax and atomicExch on unsigned long long, and lookups after insertion.
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

#define EMPTY 0xffffffffffffffffull

__device__ unsigned long long hash64(unsigned long long k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ull;
  k ^= k >> 33;
  return k;
}

__global__ void insert(const unsigned long long *keys, const double *vals, int n, unsigned long long *slots,
                       unsigned *counts, double *sums, int cap, unsigned long long *argmin, unsigned long long *maxKey,
                       unsigned long long *lastKey, int *probesMax) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned long long k = keys[i];
  unsigned h = (unsigned)(hash64(k) & (cap - 1));
  int probes = 0;
  while (true) {
    unsigned long long prev = atomicCAS(&slots[h], EMPTY, k);
    if (prev == EMPTY || prev == k) {
      atomicAdd(&counts[h], 1u);
      atomicAdd(&sums[h], vals[i]);
      break;
    }
    h = (h + 1) & (cap - 1);
    ++probes;
  }
  atomicMax(probesMax, probes);
  // argmin of the value (as a nonnegative int scaled) with the smallest index breaking ties
  unsigned q = (unsigned)(vals[i] * 1000.0);
  atomicMin(argmin, ((unsigned long long)q << 32) | (unsigned)i);
  atomicMax(maxKey, k);
  atomicExch(lastKey, k); // any one key
}

__global__ void lookup(const unsigned long long *queries, int m, const unsigned long long *slots, const unsigned *counts,
                       int cap, int *found) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m)
    return;
  unsigned long long k = queries[i];
  unsigned h = (unsigned)(hash64(k) & (cap - 1));
  for (int p = 0; p < cap; ++p) {
    unsigned long long s = slots[h];
    if (s == k) {
      found[i] = (int)counts[h];
      return;
    }
    if (s == EMPTY)
      break;
    h = (h + 1) & (cap - 1);
  }
  found[i] = 0;
}

int main() {
  const int n = 20000, distinct = 3000, cap = 8192, m = 4000;
  unsigned long long *hk = (unsigned long long *)malloc(n * 8), *hq = (unsigned long long *)malloc(m * 8);
  double *hv = (double *)malloc(n * 8);
  unsigned long long base[distinct];
  for (int d = 0; d < distinct; ++d)
    base[d] = 0x9E3779B97F4A7C15ull * (d + 1) ^ ((unsigned long long)d << 40);
  unsigned s = 7;
  for (int i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    hk[i] = base[(s >> 8) % distinct];
    hv[i] = ((s >> 4) % 10000) / 8.0 + 0.5; // exact in binary
  }
  for (int i = 0; i < m; ++i)
    hq[i] = i % 2 ? base[i % distinct] : 0x1234567ull * i + 3; // half present (most), half absent
  unsigned long long *dk, *dslots, *dq, *dargmin, *dmax, *dlast;
  double *dv, *dsums;
  unsigned *dcounts;
  int *dfound, *dprobe;
  CHECK(musaMalloc(&dk, n * 8));
  CHECK(musaMalloc(&dv, n * 8));
  CHECK(musaMalloc(&dq, m * 8));
  CHECK(musaMalloc(&dslots, cap * 8));
  CHECK(musaMalloc(&dcounts, cap * 4));
  CHECK(musaMalloc(&dsums, cap * 8));
  CHECK(musaMalloc(&dfound, m * 4));
  CHECK(musaMalloc(&dargmin, 8));
  CHECK(musaMalloc(&dmax, 8));
  CHECK(musaMalloc(&dlast, 8));
  CHECK(musaMalloc(&dprobe, 4));
  CHECK(musaMemset(dslots, 0xff, cap * 8));
  CHECK(musaMemset(dcounts, 0, cap * 4));
  CHECK(musaMemset(dsums, 0, cap * 8));
  CHECK(musaMemset(dargmin, 0xff, 8));
  CHECK(musaMemset(dmax, 0, 8));
  CHECK(musaMemset(dlast, 0, 8));
  CHECK(musaMemset(dprobe, 0, 4));
  CHECK(musaMemcpy(dk, hk, n * 8, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dv, hv, n * 8, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dq, hq, m * 8, musaMemcpyHostToDevice));
  insert<<<(n + 255) / 256, 256>>>(dk, dv, n, dslots, dcounts, dsums, cap, dargmin, dmax, dlast, dprobe);
  CHECK(musaGetLastError());
  lookup<<<(m + 127) / 128, 128>>>(dq, m, dslots, dcounts, cap, dfound);
  CHECK(musaGetLastError());
  unsigned long long *slots = (unsigned long long *)malloc(cap * 8), argmin, mx, last;
  unsigned *counts = (unsigned *)malloc(cap * 4);
  double *sums = (double *)malloc(cap * 8);
  int *found = (int *)malloc(m * 4), probe;
  CHECK(musaMemcpy(slots, dslots, cap * 8, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(counts, dcounts, cap * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(sums, dsums, cap * 8, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(found, dfound, m * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&argmin, dargmin, 8, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&mx, dmax, 8, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&last, dlast, 8, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&probe, dprobe, 4, musaMemcpyDeviceToHost));
  bool ok = true;
  // host reference per distinct key
  int used = 0;
  for (int c = 0; c < cap; ++c)
    if (slots[c] != EMPTY) {
      ++used;
      unsigned rc = 0;
      double rs = 0;
      for (int i = 0; i < n; ++i)
        if (hk[i] == slots[c]) {
          ++rc;
          rs += hv[i];
        }
      if (rc != counts[c] || rs != sums[c]) { // values are multiples of 1/8: sums exact in any order
        if (ok)
          printf("slot %d key %llx: count %u/%u sum %f/%f\n", c, slots[c], counts[c], rc, sums[c], rs);
        ok = false;
      }
    }
  int present = 0;
  for (int d = 0; d < distinct; ++d)
    for (int i = 0; i < n; ++i)
      if (hk[i] == base[d]) {
        ++present;
        break;
      }
  ok = ok && used == present;
  for (int i = 0; i < m; ++i) {
    int rc = 0;
    for (int j = 0; j < n; ++j)
      rc += hk[j] == hq[i];
    if (found[i] != rc) {
      if (ok)
        printf("query %d: %d want %d\n", i, found[i], rc);
      ok = false;
    }
  }
  unsigned long long ra = ~0ull, rmx = 0;
  for (int i = 0; i < n; ++i) {
    unsigned long long p = ((unsigned long long)(unsigned)(hv[i] * 1000.0) << 32) | (unsigned)i;
    ra = p < ra ? p : ra;
    rmx = hk[i] > rmx ? hk[i] : rmx;
  }
  bool lastOk = false;
  for (int i = 0; i < n && !lastOk; ++i)
    lastOk = hk[i] == last;
  ok = ok && argmin == ra && mx == rmx && lastOk;
  printf("hash_table_u64: %d keys in %d slots, max probe %d, argmin index %u, %s\n", n, used, probe, (unsigned)argmin, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
