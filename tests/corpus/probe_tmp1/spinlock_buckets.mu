// Per-bucket spin locks (atomicCAS acquire / atomicExch release, __threadfence around the
// critical section), written three ways as ported code has them:
//  - naive: while (atomicCAS(&lock, 0, 1) != 0); -- deadlocks before Volta, legal with
//    independent thread scheduling (sm_70+), so current CUDA code uses it freely;
//  - Volta-safe / pre-Volta-safe: the "done flag" loop with the critical section inside the
//    successful-CAS branch;
//  - "CUDA by Example" Lock struct taken by one thread per block (dot product accumulation).
// The critical sections do non-atomic read-modify-writes of several fields and append to a
// per-bucket list, so a broken lock shows as lost updates or duplicate slots.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

constexpr int NB = 37;          // buckets
constexpr int CAP = 4096;       // list capacity per bucket
constexpr int N = 1 << 14;      // items

struct Bucket {
  int count;
  long long sum;
  int maxv;
  int minv;
};

__device__ unsigned hash32(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16; return x;
}

__device__ void critical(Bucket *b, int *list, int v) {
  int c = b->count;
  list[c] = v;
  b->count = c + 1;
  b->sum += v;
  if (v > b->maxv) b->maxv = v;
  if (v < b->minv) b->minv = v;
}

__global__ void insert_naive(const int *vals, int n, int *locks, Bucket *bk, int *lists) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = vals[i];
    int b = hash32(v) % NB;
    while (atomicCAS(&locks[b], 0, 1) != 0) {
    }
    __threadfence();
    critical(&bk[b], lists + b * CAP, v);
    __threadfence();
    atomicExch(&locks[b], 0);
  }
}

__global__ void insert_safe(const int *vals, int n, int *locks, Bucket *bk, int *lists) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = vals[i];
    int b = hash32(v) % NB;
    bool done = false;
    while (!done) {
      if (atomicCAS(&locks[b], 0, 1) == 0) {
        __threadfence();
        critical(&bk[b], lists + b * CAP, v);
        __threadfence();
        atomicExch(&locks[b], 0);
        done = true;
      }
    }
  }
}

// CUDA by Example, chapter A.1: a Lock taken by thread 0 of each block.
struct Lock {
  int *mutex;
  __device__ void lock() { while (atomicCAS(mutex, 0, 1) != 0); }
  __device__ void unlock() { __threadfence(); atomicExch(mutex, 0); }
};

template <int THREADS>
__global__ void dot_lock(Lock lock, const float *a, const float *b, float *c, int n) {
  __shared__ float cache[THREADS];
  float t = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    t += a[i] * b[i];
  cache[threadIdx.x] = t;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    lock.lock();
    *c += cache[0];
    lock.unlock();
  }
}

static unsigned hhash(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16; return x;
}

static bool check(const char *name, const std::vector<int> &vals, const std::vector<Bucket> &bk,
                  const std::vector<int> &lists) {
  std::vector<std::vector<int>> ref(NB);
  for (int v : vals) ref[hhash(v) % NB].push_back(v);
  bool ok = true;
  for (int b = 0; b < NB; ++b) {
    auto &r = ref[b];
    long long s = 0; int mx = -2147483647 - 1, mn = 2147483647;
    for (int v : r) { s += v; mx = std::max(mx, v); mn = std::min(mn, v); }
    if (bk[b].count != (int)r.size() || bk[b].sum != s || (r.size() && (bk[b].maxv != mx || bk[b].minv != mn))) {
      if (ok) printf("%s: bucket %d count %d/%zu sum %lld/%lld max %d/%d min %d/%d\n", name, b,
                     bk[b].count, r.size(), bk[b].sum, s, bk[b].maxv, mx, bk[b].minv, mn);
      ok = false;
      continue;
    }
    std::vector<int> got(lists.begin() + b * CAP, lists.begin() + b * CAP + r.size());
    std::sort(got.begin(), got.end());
    std::sort(r.begin(), r.end());
    if (got != r) {
      if (ok) printf("%s: bucket %d list contents differ\n", name, b);
      ok = false;
    }
  }
  return ok;
}

int main() {
  std::vector<int> vals(N);
  unsigned s = 12345;
  for (int i = 0; i < N; ++i) { s = s * 1664525u + 1013904223u; vals[i] = int(s >> 8) - (1 << 22); }
  int *dv, *dlocks, *dlists; Bucket *dbk;
  CK(musaMalloc(&dv, N * sizeof(int)));
  CK(musaMalloc(&dlocks, NB * sizeof(int)));
  CK(musaMalloc(&dlists, NB * CAP * sizeof(int)));
  CK(musaMalloc(&dbk, NB * sizeof(Bucket)));
  CK(musaMemcpy(dv, vals.data(), N * sizeof(int), musaMemcpyHostToDevice));
  std::vector<Bucket> init(NB, Bucket{0, 0, -2147483647 - 1, 2147483647});
  bool ok = true;
  for (int variant = 0; variant < 2; ++variant) {
    for (int cfg = 0; cfg < 2; ++cfg) {
      CK(musaMemset(dlocks, 0, NB * sizeof(int)));
      CK(musaMemcpy(dbk, init.data(), NB * sizeof(Bucket), musaMemcpyHostToDevice));
      int grid = cfg ? 8 : 64, block = cfg ? 256 : 128;
      if (variant == 0) insert_naive<<<grid, block>>>(dv, N, dlocks, dbk, dlists);
      else insert_safe<<<grid, block>>>(dv, N, dlocks, dbk, dlists);
      CK(musaGetLastError());
      CK(musaDeviceSynchronize());
      std::vector<Bucket> bk(NB);
      std::vector<int> lists(NB * CAP);
      CK(musaMemcpy(bk.data(), dbk, NB * sizeof(Bucket), musaMemcpyDeviceToHost));
      CK(musaMemcpy(lists.data(), dlists, NB * CAP * sizeof(int), musaMemcpyDeviceToHost));
      std::vector<int> locks(NB);
      CK(musaMemcpy(locks.data(), dlocks, NB * sizeof(int), musaMemcpyDeviceToHost));
      for (int b = 0; b < NB; ++b) if (locks[b] != 0) { printf("lock %d left held\n", b); ok = false; break; }
      ok &= check(variant ? "safe" : "naive", vals, bk, lists);
    }
  }
  // dot product with a block lock
  const int n = 33 * 1024;
  std::vector<float> a(n), b(n);
  double ref = 0;
  for (int i = 0; i < n; ++i) { a[i] = float(i % 7) * 0.5f; b[i] = float(i % 5) - 1.0f; ref += double(a[i]) * b[i]; }
  float *da, *db, *dc; int *mutex;
  CK(musaMalloc(&da, n * 4)); CK(musaMalloc(&db, n * 4)); CK(musaMalloc(&dc, 4)); CK(musaMalloc(&mutex, 4));
  CK(musaMemcpy(da, a.data(), n * 4, musaMemcpyHostToDevice));
  CK(musaMemcpy(db, b.data(), n * 4, musaMemcpyHostToDevice));
  CK(musaMemset(dc, 0, 4)); CK(musaMemset(mutex, 0, 4));
  Lock lk{mutex};
  dot_lock<256><<<48, 256>>>(lk, da, db, dc, n);
  CK(musaGetLastError());
  float c;
  CK(musaMemcpy(&c, dc, 4, musaMemcpyDeviceToHost));
  if (c != (float)ref) { printf("dot: %f expected %f\n", c, ref); ok = false; }
  printf("spinlock_buckets %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
