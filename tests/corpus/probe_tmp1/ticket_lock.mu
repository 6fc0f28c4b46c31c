// Ticket locks (fair FIFO mutexes), as in GPU lock studies and ported CPU code:
//   A: per-thread ticket lock over the whole grid: t = atomicAdd(&next, 1); spin until
//      now_serving == t (volatile load); the critical section appends t to a log; release
//      with __threadfence + atomicAdd(&now_serving, 1). The log must be 0, 1, 2, ... in order.
//   B: the same, but every lane takes its ticket, then the warp meets at __syncwarp() before
//      spinning (tickets of one warp are then held while other lanes wait).
//   C: a block-level ticket lock: thread 0 takes the ticket and spins, __syncthreads, the whole
//      block updates a shared histogram non-atomically, __syncthreads, thread 0 releases.
//   D: per-bucket ticket locks (an array of (next, serving) pairs), many buckets, backoff
//      with __nanosleep while waiting.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

struct TicketLock {
  unsigned next, serving;
};

__device__ unsigned lock_take(TicketLock *l) { return atomicAdd(&l->next, 1u); }
__device__ void lock_wait(TicketLock *l, unsigned t) {
  while (((volatile unsigned *)&l->serving)[0] != t) {
  }
  __threadfence();
}
__device__ void lock_release(TicketLock *l) {
  __threadfence();
  atomicAdd(&l->serving, 1u);
}

__global__ void per_thread(TicketLock *l, unsigned *log, unsigned *pos) {
  unsigned t = lock_take(l);
  lock_wait(l, t);
  unsigned p = *(volatile unsigned *)pos;
  log[p] = t;
  *(volatile unsigned *)pos = p + 1;
  lock_release(l);
}

__global__ void per_thread_syncwarp(TicketLock *l, unsigned *log, unsigned *pos) {
  unsigned t = lock_take(l);
  __syncwarp();
  lock_wait(l, t);
  unsigned p = *(volatile unsigned *)pos;
  log[p] = t;
  *(volatile unsigned *)pos = p + 1;
  lock_release(l);
}

__global__ void per_block(TicketLock *l, const int *data, int n, int *hist, unsigned *order, unsigned *pos) {
  __shared__ unsigned ticket;
  if (threadIdx.x == 0) {
    ticket = lock_take(l);
    lock_wait(l, ticket);
    order[(*(volatile unsigned *)pos)++] = blockIdx.x;
  }
  __syncthreads();
  // the whole block owns the histogram now: plain read-modify-write, one bin per thread
  for (int bin = threadIdx.x; bin < 64; bin += blockDim.x) {
    int c = 0;
    for (int i = blockIdx.x * 256; i < (blockIdx.x + 1) * 256 && i < n; ++i) c += (data[i] & 63) == bin;
    hist[bin] += c;
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) lock_release(l);
}

__global__ void per_bucket(TicketLock *locks, int nb, long long *sums, int *counts, const int *vals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = vals[i];
  int b = (v * 7 + 3) % nb;
  unsigned t = lock_take(&locks[b]);
  unsigned ns = 32;
  while (((volatile unsigned *)&locks[b].serving)[0] != t) {
    __nanosleep(ns);
    if (ns < 1024) ns *= 2;
  }
  __threadfence();
  sums[b] += v;
  counts[b] += 1;
  lock_release(&locks[b]);
}

int main(int argc, char **argv) {
  int only = argc > 1 ? atoi(argv[1]) : -1;
  bool ok = true;
  TicketLock *l;
  unsigned *log, *pos;
  const int blocks = 12, threads = 256, T = blocks * threads;
  CK(musaMalloc(&l, sizeof(TicketLock)));
  CK(musaMalloc(&log, T * 4));
  CK(musaMalloc(&pos, 4));
  for (int v = 0; v < 2; ++v) {
    if (only >= 0 && only != v) continue;
    CK(musaMemset(l, 0, sizeof(TicketLock)));
    CK(musaMemset(pos, 0, 4));
    CK(musaMemset(log, 0xff, T * 4));
    if (v == 0) per_thread<<<blocks, threads>>>(l, log, pos);
    else per_thread_syncwarp<<<blocks, threads>>>(l, log, pos);
    CK(musaGetLastError());
    CK(musaDeviceSynchronize());
    std::vector<unsigned> h(T);
    CK(musaMemcpy(h.data(), log, T * 4, musaMemcpyDeviceToHost));
    for (int i = 0; i < T; ++i)
      if (h[i] != (unsigned)i) { printf("%s: log[%d] = %u\n", v ? "syncwarp" : "per_thread", i, h[i]); ok = false; break; }
  }
  if (only < 0 || only == 2) {
    const int n = 40 * 256;
    std::vector<int> data(n);
    for (int i = 0; i < n; ++i) data[i] = (i * 2654435761u) >> 7;
    int *dd, *hist; unsigned *order;
    CK(musaMalloc(&dd, n * 4)); CK(musaMalloc(&hist, 64 * 4)); CK(musaMalloc(&order, 40 * 4));
    CK(musaMemcpy(dd, data.data(), n * 4, musaMemcpyHostToDevice));
    CK(musaMemset(hist, 0, 256)); CK(musaMemset(l, 0, sizeof(TicketLock))); CK(musaMemset(pos, 0, 4));
    per_block<<<40, 64>>>(l, dd, n, hist, order, pos);
    CK(musaGetLastError());
    std::vector<int> hh(64), ref(64, 0);
    std::vector<unsigned> ord(40);
    CK(musaMemcpy(hh.data(), hist, 256, musaMemcpyDeviceToHost));
    CK(musaMemcpy(ord.data(), order, 160, musaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) ref[data[i] & 63]++;
    for (int b = 0; b < 64; ++b) if (hh[b] != ref[b]) { printf("per_block: bin %d = %d expected %d\n", b, hh[b], ref[b]); ok = false; break; }
    std::vector<int> seen(40, 0);
    for (unsigned b : ord) if (b < 40) seen[b]++;
    for (int b = 0; b < 40; ++b) if (seen[b] != 1) { printf("per_block: block %d entered %d times\n", b, seen[b]); ok = false; break; }
  }
  if (only < 0 || only == 3) {
    const int nb = 13, n = 8192;
    std::vector<int> vals(n);
    for (int i = 0; i < n; ++i) vals[i] = (i * 40503) % 1000;
    TicketLock *locks; long long *sums; int *counts, *dv;
    CK(musaMalloc(&locks, nb * sizeof(TicketLock))); CK(musaMalloc(&sums, nb * 8)); CK(musaMalloc(&counts, nb * 4)); CK(musaMalloc(&dv, n * 4));
    CK(musaMemset(locks, 0, nb * sizeof(TicketLock))); CK(musaMemset(sums, 0, nb * 8)); CK(musaMemset(counts, 0, nb * 4));
    CK(musaMemcpy(dv, vals.data(), n * 4, musaMemcpyHostToDevice));
    per_bucket<<<(n + 255) / 256, 256>>>(locks, nb, sums, counts, dv, n);
    CK(musaGetLastError());
    std::vector<long long> hs(nb); std::vector<int> hc(nb);
    CK(musaMemcpy(hs.data(), sums, nb * 8, musaMemcpyDeviceToHost));
    CK(musaMemcpy(hc.data(), counts, nb * 4, musaMemcpyDeviceToHost));
    std::vector<long long> rs(nb, 0); std::vector<int> rc(nb, 0);
    for (int v : vals) { rs[(v * 7 + 3) % nb] += v; rc[(v * 7 + 3) % nb]++; }
    for (int b = 0; b < nb; ++b) if (hs[b] != rs[b] || hc[b] != rc[b]) { printf("per_bucket: bucket %d sum %lld/%lld count %d/%d\n", b, hs[b], rs[b], hc[b], rc[b]); ok = false; break; }
  }
  printf("ticket_lock %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
