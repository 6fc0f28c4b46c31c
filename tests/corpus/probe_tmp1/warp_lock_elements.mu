// Critical sections contended by the lanes of one warp (what broke before Volta and is legal
// with independent thread scheduling), plus warp-level and shared-memory locks:
//   A: naive per-element lock: every lane of a warp takes the SAME lock with
//      while (atomicCAS(&lock, 0, 1) != 0); and appends to a list / updates a double sum.
//   B: the Volta-safe loop (critical section inside the successful-CAS branch), then
//      __syncwarp() after the loop, result read back by lane 0 of each warp.
//   C: a warp-leader lock held across __syncwarp(): lane 0 locks, the whole warp works in the
//      critical section (adds a vector to a shared global vector), lane 0 unlocks.
//   D: a coalesced group in a divergent branch takes one lock for its members (leader locks,
//      g.sync(), members update, g.sync(), leader unlocks).
//   E: a mutex in shared memory contended by all threads of a block (try-lock with
//      __nanosleep back-off), protecting a non-atomic shared structure.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

constexpr int NL = 4;       // locks
constexpr int CAP = 8192;
constexpr int VEC = 64;

struct Rec { int count; double sum; };

__global__ void naive(int *locks, Rec *recs, int *lists) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int l = (gid / warpSize) % NL;
  while (atomicCAS(&locks[l], 0, 1) != 0) {
  }
  __threadfence();
  Rec *r = &recs[l];
  int c = r->count;
  lists[l * CAP + c] = gid;
  r->count = c + 1;
  r->sum += 0.5 * gid;
  __threadfence();
  atomicExch(&locks[l], 0);
}

__global__ void volta_safe(int *locks, Rec *recs, int *lists, int *after) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int l = (gid / warpSize) % NL;
  bool done = false;
  while (!done) {
    if (atomicCAS(&locks[l], 0, 1) == 0) {
      __threadfence();
      Rec *r = &recs[l];
      int c = r->count;
      lists[l * CAP + c] = gid;
      r->count = c + 1;
      r->sum += 0.5 * gid;
      __threadfence();
      atomicExch(&locks[l], 0);
      done = true;
    }
  }
  __syncwarp();
  if (threadIdx.x % warpSize == 0) after[gid / warpSize] = 1;
}

__global__ void warp_leader(int *lock, int *vec, int *entered) {
  int lane = threadIdx.x % warpSize;
  if (lane == 0) {
    while (atomicExch(lock, 1) != 0) {
    }
    __threadfence();
  }
  __syncwarp();
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  for (int i = lane; i < VEC; i += warpSize) vec[i] = vec[i] + (w % 7) + i;   // plain RMW
  if (lane == 0) entered[w] = ((volatile int *)entered)[w] + 1;
  __threadfence();
  __syncwarp();
  if (lane == 0) atomicExch(lock, 0);
}

__global__ void coalesced_lock(int *lock, int *counts, int *sum) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid % 3 != 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    if (g.thread_rank() == 0) {
      while (atomicCAS(lock, 0, 1) != 0) {
      }
      __threadfence();
    }
    g.sync();
    // members update disjoint slots non-atomically, the leader the shared total
    counts[gid % 64] += 0;     // touch
    int part = cg::reduce(g, gid, cg::plus<int>());
    if (g.thread_rank() == 0) *sum = *(volatile int *)sum + part;
    __threadfence();
    g.sync();
    if (g.thread_rank() == 0) atomicExch(lock, 0);
  }
}

__global__ void shared_mutex(int *out) {
  __shared__ int mtx;
  __shared__ int total, last, count;
  if (threadIdx.x == 0) { mtx = 0; total = 0; last = -1; count = 0; }
  __syncthreads();
  int ns = 8;
  bool done = false;
  while (!done) {
    if (atomicCAS(&mtx, 0, 1) == 0) {
      __threadfence_block();
      total = *(volatile int *)&total + threadIdx.x;
      *(volatile int *)&last = threadIdx.x;
      count = *(volatile int *)&count + 1;
      __threadfence_block();
      atomicExch(&mtx, 0);
      done = true;
    } else {
      __nanosleep(ns);
      ns = ns < 256 ? ns * 2 : ns;
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) { out[blockIdx.x * 2] = total; out[blockIdx.x * 2 + 1] = count; }
}

int main(int argc, char **argv) {
  int only = argc > 1 ? atoi(argv[1]) : -1;
  int warp;
  CK(musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0));
  const int blocks = 8, threads = 256, T = blocks * threads, nwarps = T / warp;
  bool ok = true;
  int *locks, *lists, *after; Rec *recs;
  CK(musaMalloc(&locks, NL * 4)); CK(musaMalloc(&lists, NL * CAP * 4)); CK(musaMalloc(&recs, NL * sizeof(Rec)));
  CK(musaMalloc(&after, nwarps * 4));
  for (int v = 0; v < 2; ++v) {
    if (only >= 0 && v != only) continue;
    CK(musaMemset(locks, 0, NL * 4)); CK(musaMemset(recs, 0, NL * sizeof(Rec))); CK(musaMemset(after, 0, nwarps * 4));
    if (v == 0) naive<<<blocks, threads>>>(locks, recs, lists);
    else volta_safe<<<blocks, threads>>>(locks, recs, lists, after);
    CK(musaGetLastError());
    CK(musaDeviceSynchronize());
    std::vector<Rec> r(NL); std::vector<int> li(NL * CAP), af(nwarps);
    CK(musaMemcpy(r.data(), recs, NL * sizeof(Rec), musaMemcpyDeviceToHost));
    CK(musaMemcpy(li.data(), lists, NL * CAP * 4, musaMemcpyDeviceToHost));
    CK(musaMemcpy(af.data(), after, nwarps * 4, musaMemcpyDeviceToHost));
    for (int l = 0; l < NL; ++l) {
      std::vector<int> exp;
      double s = 0;
      for (int g = 0; g < T; ++g) if ((g / warp) % NL == l) { exp.push_back(g); s += 0.5 * g; }
      std::vector<int> got(li.begin() + l * CAP, li.begin() + l * CAP + std::min<int>(std::max(r[l].count, 0), CAP));
      std::sort(got.begin(), got.end());
      if (r[l].count != (int)exp.size() || r[l].sum != s || got != exp) {
        printf("%s: lock %d count %d/%zu sum %g/%g\n", v ? "volta_safe" : "naive", l, r[l].count, exp.size(), r[l].sum, s);
        ok = false; break;
      }
    }
    if (v == 1) for (int w = 0; w < nwarps; ++w) if (af[w] != 1) { printf("volta_safe: warp %d did not pass __syncwarp\n", w); ok = false; break; }
  }
  if (only < 0 || only == 2) {
    int *lock, *vec, *entered;
    CK(musaMalloc(&lock, 4)); CK(musaMalloc(&vec, VEC * 4)); CK(musaMalloc(&entered, nwarps * 4));
    CK(musaMemset(lock, 0, 4)); CK(musaMemset(vec, 0, VEC * 4)); CK(musaMemset(entered, 0, nwarps * 4));
    warp_leader<<<blocks, threads>>>(lock, vec, entered);
    CK(musaGetLastError());
    std::vector<int> hv(VEC), he(nwarps);
    CK(musaMemcpy(hv.data(), vec, VEC * 4, musaMemcpyDeviceToHost));
    CK(musaMemcpy(he.data(), entered, nwarps * 4, musaMemcpyDeviceToHost));
    int base = 0;
    for (int w = 0; w < nwarps; ++w) { base += w % 7; if (he[w] != 1) { printf("warp_leader: warp %d entered %d times\n", w, he[w]); ok = false; break; } }
    for (int i = 0; i < VEC; ++i) if (hv[i] != base + nwarps * i) { printf("warp_leader: vec[%d] = %d expected %d\n", i, hv[i], base + nwarps * i); ok = false; break; }
  }
  if (only < 0 || only == 3) {
    int *lock, *counts, *sum;
    CK(musaMalloc(&lock, 4)); CK(musaMalloc(&counts, 64 * 4)); CK(musaMalloc(&sum, 4));
    CK(musaMemset(lock, 0, 4)); CK(musaMemset(counts, 0, 256)); CK(musaMemset(sum, 0, 4));
    coalesced_lock<<<blocks, threads>>>(lock, counts, sum);
    CK(musaGetLastError());
    int hs; CK(musaMemcpy(&hs, sum, 4, musaMemcpyDeviceToHost));
    int exp = 0; for (int g = 0; g < T; ++g) if (g % 3 != 1) exp += g;
    if (hs != exp) { printf("coalesced_lock: sum %d expected %d\n", hs, exp); ok = false; }
  }
  if (only < 0 || only == 4) {
    int *out; CK(musaMalloc(&out, blocks * 2 * 4));
    shared_mutex<<<blocks, 512>>>(out);
    CK(musaGetLastError());
    std::vector<int> h(blocks * 2);
    CK(musaMemcpy(h.data(), out, blocks * 8, musaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) if (h[2 * b] != 511 * 512 / 2 || h[2 * b + 1] != 512) { printf("shared_mutex: block %d total %d count %d\n", b, h[2 * b], h[2 * b + 1]); ok = false; break; }
  }
  printf("warp_lock_elements %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
