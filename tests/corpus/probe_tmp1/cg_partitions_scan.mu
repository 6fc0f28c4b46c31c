// Cooperative groups beyond the basics, checked per thread against the host:
//  1. tiles of 8/16/32 with cg::reduce (plus, less, greater, bit_xor) and cg::inclusive_scan /
//     cg::exclusive_scan (plus and a user max operation); nested tiles (tile<4> of tile<32>)
//     with meta_group_rank/meta_group_size relative to their parent tile;
//  2. coalesced_threads() in a divergent branch: thread_rank, size, shfl from rank 0,
//     cg::reduce, cg::exclusive_scan for stream compaction; grouping checked by invariants
//     that hold for any warp width, and against the active lanes of the warp on 32-lane warps;
//  3. labeled_partition and binary_partition of a tile<32> and of a coalesced group;
//  4. cg::invoke_one and cg::invoke_one_broadcast (slot reservation per tile);
//  5. large tiles (tiled_partition<64>, <128>; CUDA 12 allows up to 1024) with cg::reduce;
//  6. tile collectives inside branches some tiles skip, the block meeting again afterwards: the
//     two-level block reduction (tile<32> partials, tile 0 reduces them, block.sync()), and
//     tile<8> shuffles for every third tile.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <map>
#include <set>
#include <algorithm>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

constexpr int B = 256, NB = 4, NT = B * NB;

struct MaxOp { __device__ int operator()(int a, int b) const { return a > b ? a : b; } };

struct TileOut {
  int sum8, min16, max32, xor32, inc16, exc16, incmax8, excmax8;
  int t4rank, t4meta, t4metasize, t32meta, t32metasize;
};

__device__ int val(int gid) { return (gid * 37 + 11) % 101 - 50; }

__global__ void tiles(TileOut *o) {
  cg::thread_block block = cg::this_thread_block();
  int gid = blockIdx.x * blockDim.x + block.thread_rank();
  int v = val(gid);
  auto t8 = cg::tiled_partition<8>(block);
  auto t16 = cg::tiled_partition<16>(block);
  auto t32 = cg::tiled_partition<32>(block);
  auto t4 = cg::tiled_partition<4>(t32);
  TileOut r;
  r.sum8 = cg::reduce(t8, v, cg::plus<int>());
  r.min16 = cg::reduce(t16, v, cg::less<int>());
  r.max32 = cg::reduce(t32, v, cg::greater<int>());
  r.xor32 = cg::reduce(t32, v, cg::bit_xor<int>());
  r.inc16 = cg::inclusive_scan(t16, v);
  r.exc16 = cg::exclusive_scan(t16, v);
  r.incmax8 = cg::inclusive_scan(t8, v, MaxOp());
  r.excmax8 = cg::exclusive_scan(t8, v, MaxOp());
  r.t4rank = t4.thread_rank();
  r.t4meta = t4.meta_group_rank();
  r.t4metasize = t4.meta_group_size();
  r.t32meta = t32.meta_group_rank();
  r.t32metasize = t32.meta_group_size();
  o[gid] = r;
}

struct CoalOut { int taken, rank, size, leader, sum, slot, warp; };

__global__ void coalesced(CoalOut *o, int *compact, int *counter) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = val(gid);
  CoalOut r = {0, -1, -1, -1, 0, -1, int(threadIdx.x / warpSize)};
  if ((v & 3) == 1 || v > 30) {     // divergent
    cg::coalesced_group g = cg::coalesced_threads();
    r.taken = 1;
    r.rank = g.thread_rank();
    r.size = g.size();
    r.leader = g.shfl(gid, 0);
    r.sum = cg::reduce(g, v, cg::plus<int>());
    int off = cg::exclusive_scan(g, 1);
    int base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(counter, (int)g.size());
    base = g.shfl(base, 0);
    r.slot = base + off;
    compact[r.slot] = gid;
  }
  o[gid] = r;
}

struct LabOut { int lsize, lrank, lsum, lleader, bsize, bsum, csize, csum, cleader; };

__global__ void labeled(LabOut *o) {
  cg::thread_block block = cg::this_thread_block();
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = val(gid);
  auto t32 = cg::tiled_partition<32>(block);
  LabOut r = {};
  cg::coalesced_group lp = cg::labeled_partition(t32, v % 5 < 0 ? -(v % 5) : v % 5);
  r.lsize = lp.size(); r.lrank = lp.thread_rank();
  r.lsum = cg::reduce(lp, v, cg::plus<int>());
  r.lleader = lp.shfl(gid, 0);
  cg::coalesced_group bp = cg::binary_partition(t32, v >= 0);
  r.bsize = bp.size();
  r.bsum = cg::reduce(bp, v, cg::plus<int>());
  r.csize = -1;
  if (v % 2 == 0) {
    cg::coalesced_group even = cg::coalesced_threads();
    cg::coalesced_group sub = cg::labeled_partition(even, v > 0);
    r.csize = sub.size();
    r.csum = cg::reduce(sub, v, cg::plus<int>());
    r.cleader = sub.shfl(gid, 0);
  }
  o[gid] = r;
}

__global__ void invoke(int *perTile, int *slots, int *counter) {
  cg::thread_block block = cg::this_thread_block();
  auto t16 = cg::tiled_partition<16>(block);
  int tileId = (blockIdx.x * blockDim.x + threadIdx.x) / 16;
  cg::invoke_one(t16, [&] { atomicAdd(&perTile[tileId], 1); });
  int base = cg::invoke_one_broadcast(t16, [&] { return atomicAdd(counter, 16); });
  slots[base + t16.thread_rank()] = blockIdx.x * blockDim.x + threadIdx.x;
}

template <int S>
__global__ void big_tile(int *out) {
  cg::thread_block block = cg::this_thread_block();
  auto t = cg::tiled_partition<S>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  out[gid] = cg::reduce(t, val(gid), cg::plus<int>()) * 1000 + (int)t.meta_group_rank();
}

__global__ void tiles_in_branches(const int *in, int *sums, int *bcast) {
  __shared__ int part[32];
  cg::thread_block block = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(block);
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int v = cg::reduce(t32, in[gid], cg::plus<int>());
  if (t32.thread_rank() == 0) part[t32.meta_group_rank()] = v;
  block.sync();
  if (t32.meta_group_rank() == 0) {
    int w = t32.thread_rank() < t32.meta_group_size() ? part[t32.thread_rank()] : 0;
    w = cg::reduce(t32, w, cg::plus<int>());
    if (t32.thread_rank() == 0) part[0] = w;
  }
  block.sync();
  if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
  auto t8 = cg::tiled_partition<8>(block);
  int x = in[gid];
  if (t8.meta_group_rank() % 3 == 0) {
    x = t8.shfl(x, 7) + t8.shfl_down(x, 1);
    t8.sync();
  }
  block.sync();
  bcast[gid] = x;
}

int main() {
  int warp;
  CK(musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0));
  bool ok = true;
  std::vector<int> v(NT);
  for (int i = 0; i < NT; ++i) v[i] = (i * 37 + 11) % 101 - 50;
  // 1. tiles
  {
    TileOut *d; CK(musaMalloc(&d, NT * sizeof(TileOut)));
    tiles<<<NB, B>>>(d);
    CK(musaGetLastError());
    std::vector<TileOut> h(NT);
    CK(musaMemcpy(h.data(), d, NT * sizeof(TileOut), musaMemcpyDeviceToHost));
    for (int i = 0; i < NT && ok; ++i) {
      int t8 = i / 8 * 8, t16 = i / 16 * 16, t32 = i / 32 * 32;
      int sum8 = 0, min16 = 1 << 30, max32 = -(1 << 30), x32 = 0, inc16 = 0, exc16 = 0, im8 = -(1 << 30), em8 = -(1 << 30);
      for (int j = t8; j < t8 + 8; ++j) { sum8 += v[j]; if (j <= i) im8 = std::max(im8, v[j]); if (j < i) em8 = std::max(em8, v[j]); }
      for (int j = t16; j < t16 + 16; ++j) { min16 = std::min(min16, v[j]); if (j <= i) inc16 += v[j]; if (j < i) exc16 += v[j]; }
      for (int j = t32; j < t32 + 32; ++j) { max32 = std::max(max32, v[j]); x32 ^= v[j]; }
      const TileOut &r = h[i];
      int inb = i % B;
      bool bad = r.sum8 != sum8 || r.min16 != min16 || r.max32 != max32 || r.xor32 != x32 ||
                 r.inc16 != inc16 || r.exc16 != exc16 || r.incmax8 != im8 || (i % 8 && r.excmax8 != em8);
      if (bad) { printf("tiles: thread %d sum8 %d/%d min16 %d/%d max32 %d/%d xor %d/%d inc16 %d/%d exc16 %d/%d im8 %d/%d em8 %d/%d\n", i, r.sum8, sum8, r.min16, min16, r.max32, max32, r.xor32, x32, r.inc16, inc16, r.exc16, exc16, r.incmax8, im8, r.excmax8, em8); ok = false; }
      if (r.t32meta != inb / 32 || r.t32metasize != B / 32) { printf("tile<32>: thread %d meta_group_rank %d size %d, expected %d %d\n", i, r.t32meta, r.t32metasize, inb / 32, B / 32); ok = false; }
      if (r.t4rank != inb % 4 || r.t4meta != (inb % 32) / 4 || r.t4metasize != 8) {
        printf("tile<4> of tile<32>: thread %d rank %d meta_group_rank %d meta_group_size %d, expected %d %d 8\n", i, r.t4rank, r.t4meta, r.t4metasize, inb % 4, (inb % 32) / 4);
        ok = false;
      }
    }
    musaFree(d);
  }
  // 2. coalesced groups
  {
    CoalOut *d; int *compact, *counter;
    CK(musaMalloc(&d, NT * sizeof(CoalOut))); CK(musaMalloc(&compact, NT * 4)); CK(musaMalloc(&counter, 4));
    CK(musaMemset(counter, 0, 4)); CK(musaMemset(compact, 0xff, NT * 4));
    coalesced<<<NB, B>>>(d, compact, counter);
    CK(musaGetLastError());
    std::vector<CoalOut> h(NT); std::vector<int> hc(NT); int cnt;
    CK(musaMemcpy(h.data(), d, NT * sizeof(CoalOut), musaMemcpyDeviceToHost));
    CK(musaMemcpy(hc.data(), compact, NT * 4, musaMemcpyDeviceToHost));
    CK(musaMemcpy(&cnt, counter, 4, musaMemcpyDeviceToHost));
    std::map<int, std::vector<int>> groups;
    int taken = 0;
    for (int i = 0; i < NT; ++i) {
      bool t = (v[i] & 3) == 1 || v[i] > 30;
      if (t != (bool)h[i].taken) { printf("coalesced: thread %d branch flag wrong\n", i); ok = false; break; }
      if (t) { groups[h[i].leader].push_back(i); ++taken; }
    }
    for (auto &kv : groups) {
      auto &m = kv.second;
      int s = 0;
      for (int x : m) s += v[x];
      for (size_t k = 0; k < m.size(); ++k) {
        const CoalOut &r = h[m[k]];
        if (r.rank != (int)k || r.size != (int)m.size() || kv.first != m[0] || r.sum != s ||
            m[k] / warp != m[0] / warp || h[m[k]].slot != h[m[0]].slot + (int)k) {
          printf("coalesced: thread %d rank %d size %d leader %d sum %d (group of %zu led by %d, sum %d)\n",
                 m[k], r.rank, r.size, kv.first, r.sum, m.size(), m[0], s);
          ok = false; break;
        }
      }
      if (!ok) break;
      if (warp == 32) {   // the whole warp's active lanes form one group
        int w = m[0] / 32, expect = 0;
        for (int j = w * 32; j < w * 32 + 32; ++j) expect += (v[j] & 3) == 1 || v[j] > 30;
        if ((int)m.size() != expect) { printf("coalesced: warp %d group of %zu, %d lanes active\n", w, m.size(), expect); ok = false; break; }
      }
    }
    std::set<int> seen;
    for (int k = 0; k < cnt; ++k) seen.insert(hc[k]);
    if (cnt != taken || (int)seen.size() != taken) { printf("compaction: %d slots, %d distinct, %d taken\n", cnt, (int)seen.size(), taken); ok = false; }
    musaFree(d); musaFree(compact); musaFree(counter);
  }
  // 3. labeled / binary partitions
  {
    LabOut *d; CK(musaMalloc(&d, NT * sizeof(LabOut)));
    labeled<<<NB, B>>>(d);
    CK(musaGetLastError());
    std::vector<LabOut> h(NT);
    CK(musaMemcpy(h.data(), d, NT * sizeof(LabOut), musaMemcpyDeviceToHost));
    for (int i = 0; i < NT && ok; ++i) {
      int t32 = i / 32 * 32, lab = std::abs(v[i] % 5);
      int ls = 0, lsum = 0, lrank = 0, lleader = -1, bs = 0, bsum = 0, cs = 0, csum = 0, cleader = -1;
      for (int j = t32; j < t32 + 32; ++j) {
        if (std::abs(v[j] % 5) == lab) { if (lleader < 0) lleader = j; ++ls; lsum += v[j]; if (j < i) ++lrank; }
        if ((v[j] >= 0) == (v[i] >= 0)) { ++bs; bsum += v[j]; }
      }
      // the coalesced group of even values is at most the thread's warp (32-lane slice on wide warps)
      int w0 = i / 32 * 32;
      for (int j = w0; j < w0 + 32; ++j)
        if (v[j] % 2 == 0 && (v[j] > 0) == (v[i] > 0)) { if (cleader < 0) cleader = j; ++cs; csum += v[j]; }
      const LabOut &r = h[i];
      if (r.lsize != ls || r.lrank != lrank || r.lsum != lsum || r.lleader != lleader || r.bsize != bs || r.bsum != bsum) {
        printf("labeled_partition: thread %d size %d/%d rank %d/%d sum %d/%d leader %d/%d binary size %d/%d sum %d/%d\n",
               i, r.lsize, ls, r.lrank, lrank, r.lsum, lsum, r.lleader, lleader, r.bsize, bs, r.bsum, bsum);
        ok = false;
      }
      if (v[i] % 2 == 0 && (r.csize != cs || r.csum != csum || r.cleader != cleader)) {
        printf("labeled_partition(coalesced): thread %d size %d/%d sum %d/%d leader %d/%d\n", i, r.csize, cs, r.csum, csum, r.cleader, cleader);
        ok = false;
      }
    }
    musaFree(d);
  }
  // 4. invoke_one / invoke_one_broadcast
  {
    int *perTile, *slots, *counter;
    CK(musaMalloc(&perTile, NT / 16 * 4)); CK(musaMalloc(&slots, NT * 4)); CK(musaMalloc(&counter, 4));
    CK(musaMemset(perTile, 0, NT / 16 * 4)); CK(musaMemset(slots, 0xff, NT * 4)); CK(musaMemset(counter, 0, 4));
    invoke<<<NB, B>>>(perTile, slots, counter);
    CK(musaGetLastError());
    std::vector<int> pt(NT / 16), sl(NT);
    CK(musaMemcpy(pt.data(), perTile, NT / 16 * 4, musaMemcpyDeviceToHost));
    CK(musaMemcpy(sl.data(), slots, NT * 4, musaMemcpyDeviceToHost));
    for (int t = 0; t < NT / 16; ++t) if (pt[t] != 1) { printf("invoke_one: tile %d ran %d times\n", t, pt[t]); ok = false; break; }
    std::vector<int> s(sl); std::sort(s.begin(), s.end());
    for (int i = 0; i < NT; ++i) if (s[i] != i) { printf("invoke_one_broadcast: slots are not a permutation\n"); ok = false; break; }
    for (int k = 0; k < NT && ok; k += 16)
      for (int j = 1; j < 16; ++j) if (sl[k + j] != sl[k] + j || sl[k] % 16) { printf("invoke_one_broadcast: tile at slot %d not contiguous\n", k); ok = false; break; }
  }
  // 5. large tiles
  {
    int *d; CK(musaMalloc(&d, NT * 4));
    std::vector<int> h(NT);
    int sizes[2] = {64, 128};   // tile<256> and up: see repro_cg_tile256.mu
    for (int si = 0; si < 2; ++si) {
      int S = sizes[si];
      if (S == 64) big_tile<64><<<NB, B>>>(d);
      if (S == 128) big_tile<128><<<NB, B>>>(d);
      musaError_t e = musaDeviceSynchronize();
      if (e != musaSuccess) { printf("tile<%d>: %s\n", S, musaGetErrorString(e)); ok = false; continue; }
      CK(musaMemcpy(h.data(), d, NT * 4, musaMemcpyDeviceToHost));
      for (int i = 0; i < NT; ++i) {
        int t = i / S * S, s = 0;
        for (int j = t; j < t + S; ++j) s += v[j];
        int exp = s * 1000 + (i % B) / S;
        if (h[i] != exp) { printf("tile<%d> (warp %d): thread %d reduce %d meta %d, expected %d %d\n", S, warp, i, (int)((h[i] - (((h[i] % 1000) + 1000) % 1000)) / 1000), ((h[i] % 1000) + 1000) % 1000, s, (i % B) / S); ok = false; break; }
      }
    }
  }
  // 6. tile collectives in branches
  {
    int *in, *sums, *bc;
    CK(musaMalloc(&in, NT * 4)); CK(musaMalloc(&sums, NB * 4)); CK(musaMalloc(&bc, NT * 4));
    CK(musaMemcpy(in, v.data(), NT * 4, musaMemcpyHostToDevice));
    tiles_in_branches<<<NB, B>>>(in, sums, bc);
    musaError_t e = musaDeviceSynchronize();
    if (e != musaSuccess) { printf("tiles in branches: %s\n", musaGetErrorString(e)); ok = false; }
    else {
      std::vector<int> hs(NB), hb(NT);
      CK(musaMemcpy(hs.data(), sums, NB * 4, musaMemcpyDeviceToHost));
      CK(musaMemcpy(hb.data(), bc, NT * 4, musaMemcpyDeviceToHost));
      for (int b = 0; b < NB; ++b) { int s = 0; for (int i = b * B; i < (b + 1) * B; ++i) s += v[i]; if (hs[b] != s) { printf("two-level tile reduction: block %d %d expected %d\n", b, hs[b], s); ok = false; break; } }
      for (int i = 0; i < NT; ++i) {
        int t = (i % B) / 8, base = i / 8 * 8;
        int exp = t % 3 == 0 ? v[base + 7] + (i % 8 < 7 ? v[i + 1] : v[i]) : v[i];
        if (hb[i] != exp) { printf("tile<8> in a branch: thread %d got %d expected %d\n", i, hb[i], exp); ok = false; break; }
      }
    }
  }
  printf("cg_partitions_scan %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
