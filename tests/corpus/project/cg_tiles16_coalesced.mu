// Cooperative groups: tiled_partition<16> with cg::reduce (plus, greater, bit_or), cg::inclusive/exclusive_scan, tile shfl/shfl_xor/any/all/ballot; coalesced_threads() inside a divergent branch for warp-aggregated atomics; labeled_partition and binary_partition.
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
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void tiles(const int *in, int *sum, int *mx, int *orr, int *incl, int *excl, int *misc) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
  int gi = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[gi];
  int s = cg::reduce(t16, v, cg::plus<int>());
  int m = cg::reduce(t16, v, cg::greater<int>());
  int o = cg::reduce(t16, v, cg::bit_or<int>());
  incl[gi] = cg::inclusive_scan(t16, v);
  excl[gi] = cg::exclusive_scan(t16, v, cg::plus<int>());
  int tileId = gi / 16;
  if (t16.thread_rank() == 0) {
    sum[tileId] = s;
    mx[tileId] = m;
    orr[tileId] = o;
  }
  // butterfly: after xor-reduction every lane holds the sum
  int b = v;
  for (int k = 8; k > 0; k >>= 1)
    b += t16.shfl_xor(b, k);
  int fromLast = t16.shfl(v, 15);
  unsigned bal = t16.ballot(v % 2 == 0);
  int anyOdd = t16.any(v % 2);
  int allSmall = t16.all(v < 100);
  int err = 0;
  err |= (b != s) << 0;
  err |= (fromLast != in[tileId * 16 + 15]) << 1;
  unsigned rb = 0;
  for (int k = 0; k < 16; ++k)
    rb |= (unsigned)(in[tileId * 16 + k] % 2 == 0) << k;
  err |= (bal != rb) << 2;
  err |= (anyOdd != (rb != 0xffffu)) << 3;
  err |= (!allSmall) << 4;
  err |= (t16.meta_group_rank() != threadIdx.x / 16) << 5;
  err |= (t16.meta_group_size() != blockDim.x / 16) << 6;
  misc[gi] = err;
}

// Warp-aggregated atomic increment (the CUDA blog's atomicAggInc) inside a divergent branch.
__device__ int atomicAggInc(int *ctr) {
  cg::coalesced_group g = cg::coalesced_threads();
  int prev;
  if (g.thread_rank() == 0)
    prev = atomicAdd(ctr, g.size());
  prev = g.thread_rank() + g.shfl(prev, 0);
  return prev;
}

__global__ void filter(const int *in, int n, int *out, int *ctr, int *groupSizes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] % 3 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    int expect = __popc(__activemask());
    if (g.size() != (unsigned)expect)
      atomicAdd(&groupSizes[1], 1);
    out[atomicAggInc(ctr)] = in[i];
  }
  // labeled partition by key, binary partition by parity, inside a full tile of 32
  if (i < n) {
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
    int key = in[i] % 4;
    cg::coalesced_group lg = cg::labeled_partition(w, key);
    int cnt = cg::reduce(lg, 1, cg::plus<int>());
    unsigned ref = w.match_any(key);
    if ((unsigned)cnt != (unsigned)__popc(ref) || lg.size() != (unsigned)cnt)
      atomicAdd(&groupSizes[2], 1);
    cg::coalesced_group bg = cg::binary_partition(w, in[i] & 1);
    int bs = cg::reduce(bg, in[i], cg::plus<int>());
    int rs = 0;
    for (int k = 0; k < 32; ++k) {
      int j = (i / 32) * 32 + k;
      if ((in[j] & 1) == (in[i] & 1))
        rs += in[j];
    }
    if (bs != rs)
      atomicAdd(&groupSizes[3], 1);
  }
}

int main() {
  const int threads = 128, blocks = 8, n = threads * blocks, ntiles = n / 16;
  int *h = (int *)malloc(n * 4);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 37 + 11) % 97;
  int *din, *ds, *dm, *dor, *dinc, *dexc, *dmisc, *dout, *dctr, *dgs;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&ds, ntiles * 4));
  CHECK(musaMalloc(&dm, ntiles * 4));
  CHECK(musaMalloc(&dor, ntiles * 4));
  CHECK(musaMalloc(&dinc, n * 4));
  CHECK(musaMalloc(&dexc, n * 4));
  CHECK(musaMalloc(&dmisc, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMalloc(&dctr, 4));
  CHECK(musaMalloc(&dgs, 16));
  CHECK(musaMemset(dctr, 0, 4));
  CHECK(musaMemset(dgs, 0, 16));
  CHECK(musaMemcpy(din, h, n * 4, musaMemcpyHostToDevice));
  tiles<<<blocks, threads>>>(din, ds, dm, dor, dinc, dexc, dmisc);
  CHECK(musaGetLastError());
  filter<<<blocks, threads>>>(din, n, dout, dctr, dgs);
  CHECK(musaGetLastError());
  int *s = (int *)malloc(ntiles * 4), *m = (int *)malloc(ntiles * 4), *o = (int *)malloc(ntiles * 4);
  int *inc = (int *)malloc(n * 4), *exc = (int *)malloc(n * 4), *misc = (int *)malloc(n * 4), *out = (int *)malloc(n * 4);
  int ctr, gs[4];
  CHECK(musaMemcpy(s, ds, ntiles * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(m, dm, ntiles * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(o, dor, ntiles * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(inc, dinc, n * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(exc, dexc, n * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(misc, dmisc, n * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(&ctr, dctr, 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(out, dout, n * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(gs, dgs, 16, musaMemcpyDeviceToHost));
  bool ok = true;
  int bad = 0;
  for (int t = 0; t < ntiles; ++t) {
    int rs = 0, rm = 0, ro = 0, run = 0;
    for (int k = 0; k < 16; ++k) {
      int v = h[t * 16 + k];
      if (inc[t * 16 + k] != run + v || exc[t * 16 + k] != run) {
        if (bad++ < 5) printf("scan mismatch at %d: inc %d exc %d run %d v %d\n", t * 16 + k, inc[t * 16 + k], exc[t * 16 + k], run, v);
        ok = false;
      }
      run += v;
      rs += v;
      rm = v > rm ? v : rm;
      ro |= v;
    }
    if (s[t] != rs || m[t] != rm || o[t] != ro) {
      if (bad++ < 5) printf("tile %d: sum %d/%d max %d/%d or %d/%d\n", t, s[t], rs, m[t], rm, o[t], ro);
      ok = false;
    }
  }
  for (int i = 0; i < n; ++i)
    if (misc[i]) {
      if (bad++ < 5) printf("thread %d misc error bits 0x%x\n", i, misc[i]);
      ok = false;
    }
  int refCnt = 0;
  long long rsum = 0, osum = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] % 3 == 0) {
      refCnt++;
      rsum += h[i];
    }
  for (int i = 0; i < ctr && i < n; ++i)
    osum += out[i];
  if (ctr != refCnt || rsum != osum || gs[1] || gs[2] || gs[3]) {
    printf("filter: count %d/%d sum %lld/%lld coalesced-size errs %d labeled errs %d binary errs %d\n", ctr, refCnt, osum, rsum, gs[1], gs[2], gs[3]);
    ok = false;
  }
  printf("cg_tiles16_coalesced: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
