// Warp-level synchronisation with partial masks (Volta-style code; masks and lane numbers are
// read per 32-lane slice so the program holds for any warp width):
//  1. __syncwarp(mask) for each half of the warp exchanging data through shared memory;
//  2. __shfl_xor_sync / __shfl_down_sync / __shfl_sync(width 32) with partial masks inside
//     divergent branches (even lanes and odd lanes reduce separately);
//  3. a mask from __ballot_sync of a bound, then a shrinking-mask segmented reduction;
//  4. __match_any_sync grouping by key for a warp-aggregated histogram (leader adds __popc),
//     and __match_all_sync to detect uniform keys;
//  5. __activemask() in a divergent branch feeding __shfl_sync and __reduce_add_sync.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

constexpr int B = 256, NB = 8, NT = B * NB, NKEYS = 24;

__host__ __device__ int val(int i) { return (i * 97 + 13) % 211 - 100; }
__host__ __device__ int key(int i) { return ((i * 31) ^ (i >> 3)) % NKEYS; }

struct Out { int half, evenodd, seg, shfl32, matchAll, active, activeSum; };

__global__ void warp_ops(Out *o, int *hist, int *segLen) {
  __shared__ int sh[B];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x % 32;
  int v = val(gid);
  Out r = {};
  // 1. half-warp exchange
  sh[threadIdx.x] = v;
  if (lane < 16) {
    __syncwarp(0x0000ffffu);
    r.half = sh[threadIdx.x - lane + (15 - lane)];
    __syncwarp(0x0000ffffu);
  } else {
    __syncwarp(0xffff0000u);
    r.half = sh[threadIdx.x - lane + 16 + (31 - lane)];
    __syncwarp(0xffff0000u);
  }
  // 2. even / odd lanes reduce separately
  if (lane % 2 == 0) {
    int s = v;
    for (int m = 16; m >= 2; m /= 2) s += __shfl_xor_sync(0x55555555u, s, m);
    r.evenodd = s;
  } else {
    int s = v;
    for (int d = 2; d < 32; d *= 2) {
      int t = __shfl_down_sync(0xaaaaaaaau, s, d);
      if (lane + d < 32) s += t;
    }
    r.evenodd = __shfl_sync(0xaaaaaaaau, s, 1, 32);
  }
  // 3. segmented reduction with a ballot mask: the first n lanes of the slice take part
  int n = segLen[gid / 32];
  unsigned mask = __ballot_sync(0xffffffffu, (int)lane < n);
  if ((int)lane < n) {
    int s = v;
    for (int d = 16; d > 0; d /= 2) {
      int t = __shfl_down_sync(mask, s, d);
      if ((int)(lane + d) < n) s += t;
    }
    r.seg = __shfl_sync(mask, s, 0, 32);
  } else {
    r.seg = -12345;
  }
  // shfl with width 32 and a rotating source
  r.shfl32 = __shfl_sync(0xffffffffu, v, (lane + 5) % 32, 32);
  // 4. match_any histogram and match_all
  int k = key(gid);
  unsigned peers = __match_any_sync(0xffffffffu, k);
  if ((int)lane == __ffs(peers) - 1) atomicAdd(&hist[k], __popc(peers));
  int pred = 0;
  unsigned allm = __match_all_sync(0xffffffffu, gid / 64, &pred);
  r.matchAll = pred ? (int)allm : 0;
  // 5. active mask in a divergent branch
  r.active = 0; r.activeSum = 0;
  if (v % 3 == 0) {
    unsigned am = __activemask();
    int leader = __ffs(am) - 1;
    int lv = __shfl_sync(am, v, leader, 32);
    r.active = lv;
    r.activeSum = __reduce_add_sync(am, v);
  }
  o[gid] = r;
}

int main() {
  int warp;
  CK(musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0));
  std::vector<int> v(NT), seg(NT / 32);
  for (int i = 0; i < NT; ++i) v[i] = val(i);
  for (int s = 0; s < NT / 32; ++s) seg[s] = 1 + (s * 7) % 32;
  Out *d; int *hist, *dseg;
  CK(musaMalloc(&d, NT * sizeof(Out)));
  CK(musaMalloc(&hist, NKEYS * 4)); CK(musaMalloc(&dseg, NT / 32 * 4));
  CK(musaMemset(hist, 0, NKEYS * 4));
  CK(musaMemcpy(dseg, seg.data(), NT / 32 * 4, musaMemcpyHostToDevice));
  warp_ops<<<NB, B>>>(d, hist, dseg);
  CK(musaGetLastError());
  CK(musaDeviceSynchronize());
  std::vector<Out> h(NT); std::vector<int> hh(NKEYS);
  CK(musaMemcpy(h.data(), d, NT * sizeof(Out), musaMemcpyDeviceToHost));
  CK(musaMemcpy(hh.data(), hist, NKEYS * 4, musaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < NT && ok; ++i) {
    int base = i / 32 * 32, lane = i % 32;
    int half = lane < 16 ? v[base + 15 - lane] : v[base + 16 + 31 - lane];
    int eo = 0;
    if (lane % 2 == 0) for (int j = 0; j < 32; j += 2) eo += v[base + j];
    else for (int j = 1; j < 32; j += 2) eo += v[base + j];
    int n = seg[i / 32], s = 0;
    for (int j = 0; j < n; ++j) s += v[base + j];
    int segExp = lane < n ? s : -12345;
    int sh32 = v[base + (lane + 5) % 32];
    int g64 = i / 64, uniform = 1, wbase = i / warp * warp;   // match_all spans the warp
    for (int j = wbase; j < wbase + warp; ++j) uniform &= j / 64 == g64;
    int ma = uniform ? -1 : 0;
    int act = 0, actSum = 0;
    if (v[i] % 3 == 0) {
      int leader = -1;
      for (int j = base; j < base + 32; ++j) if (v[j] % 3 == 0) { if (leader < 0) leader = j; actSum += v[j]; }
      act = v[leader];
    }
    const Out &r = h[i];
    if (r.half != half) { printf("half-warp __syncwarp exchange: thread %d got %d expected %d\n", i, r.half, half); ok = false; }
    if (r.evenodd != eo) { printf("even/odd partial-mask reduce: thread %d got %d expected %d\n", i, r.evenodd, eo); ok = false; }
    if (r.seg != segExp) { printf("ballot-mask segment reduce: thread %d got %d expected %d (n=%d)\n", i, r.seg, segExp, n); ok = false; }
    if (r.shfl32 != sh32) { printf("__shfl_sync width 32: thread %d got %d expected %d\n", i, r.shfl32, sh32); ok = false; }
    if (r.matchAll != ma) { printf("__match_all_sync: thread %d got 0x%x expected 0x%x\n", i, r.matchAll, ma); ok = false; }
    if (r.active != act || r.activeSum != actSum) { printf("__activemask branch: thread %d leader value %d/%d sum %d/%d\n", i, r.active, act, r.activeSum, actSum); ok = false; }
  }
  std::vector<int> ref(NKEYS, 0);
  for (int i = 0; i < NT; ++i) ref[key(i)]++;
  for (int k = 0; k < NKEYS; ++k) if (hh[k] != ref[k]) { printf("match_any histogram: key %d count %d expected %d\n", k, hh[k], ref[k]); ok = false; break; }
  printf("warp_sync_match %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
