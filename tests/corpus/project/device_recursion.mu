// Recursion in device code: per-thread recursive quicksort of a small local array, recursive Fibonacci and Ackermann-style functions, a recursive binary-tree build/sum over a global node pool, and musaDeviceSetLimit(musaLimitStackSize) for the deeper cases.
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

__device__ int fib(int k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }

__device__ unsigned gcdRec(unsigned a, unsigned b) { return b == 0 ? a : gcdRec(b, a % b); }

__device__ void quicksort(int *a, int lo, int hi) {
  if (lo >= hi)
    return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) ++i;
    while (a[j] > p) --j;
    if (i <= j) {
      int t = a[i]; a[i] = a[j]; a[j] = t;
      ++i; --j;
    }
  }
  quicksort(a, lo, j);
  quicksort(a, i, hi);
}

struct Node { int value, left, right; };

// Builds a balanced tree over [lo, hi) into the pool, returns the index of its root.
__device__ int build(Node *pool, int *next, int lo, int hi) {
  if (lo >= hi)
    return -1;
  int mid = (lo + hi) / 2;
  int me = (*next)++;
  pool[me].value = mid;
  pool[me].left = build(pool, next, lo, mid);
  pool[me].right = build(pool, next, mid + 1, hi);
  return me;
}
__device__ long long treeSum(const Node *pool, int r, int depth, int *maxDepth) {
  if (r < 0)
    return 0;
  if (depth > *maxDepth)
    *maxDepth = depth;
  return pool[r].value + treeSum(pool, pool[r].left, depth + 1, maxDepth) + treeSum(pool, pool[r].right, depth + 1, maxDepth);
}

__global__ void recurse(int *fibs, unsigned *gcds, int *sorted, Node *pools, long long *sums, int *depths, int poolSize) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  fibs[t] = fib(t % 20);
  gcds[t] = gcdRec(1071u * (t + 1), 462u * (t + 3));
  int a[32];
  unsigned s = 12345u + t * 7u;
  for (int k = 0; k < 32; ++k) {
    s = s * 1103515245u + 12345u;
    a[k] = (s >> 16) % 1000;
  }
  quicksort(a, 0, 31);
  for (int k = 0; k < 32; ++k)
    sorted[t * 32 + k] = a[k];
  Node *pool = pools + (size_t)t * poolSize;
  int next = 0, n = 10 + t % 50;
  int root = build(pool, &next, 0, n);
  int md = 0;
  sums[t] = treeSum(pool, root, 1, &md);
  depths[t] = md * 1000 + next;
}

static int hfib(int k) { return k < 2 ? k : hfib(k - 1) + hfib(k - 2); }
static unsigned hgcd(unsigned a, unsigned b) { return b == 0 ? a : hgcd(b, a % b); }
static int cmp(const void *p, const void *q) { return *(const int *)p - *(const int *)q; }

int main() {
  const int threads = 64, blocks = 4, n = threads * blocks, poolSize = 64;
  size_t stack = 0;
  CHECK(musaDeviceGetLimit(&stack, musaLimitStackSize));
  CHECK(musaDeviceSetLimit(musaLimitStackSize, 16384));
  size_t stack2 = 0;
  CHECK(musaDeviceGetLimit(&stack2, musaLimitStackSize));
  int *dfib, *dsorted, *ddep;
  unsigned *dgcd;
  Node *dpool;
  long long *dsum;
  CHECK(musaMalloc(&dfib, n * 4));
  CHECK(musaMalloc(&dgcd, n * 4));
  CHECK(musaMalloc(&dsorted, n * 32 * 4));
  CHECK(musaMalloc(&dpool, (size_t)n * poolSize * sizeof(Node)));
  CHECK(musaMalloc(&dsum, n * 8));
  CHECK(musaMalloc(&ddep, n * 4));
  recurse<<<blocks, threads>>>(dfib, dgcd, dsorted, dpool, dsum, ddep, poolSize);
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
  int *fibs = (int *)malloc(n * 4), *sorted = (int *)malloc(n * 128), *dep = (int *)malloc(n * 4);
  unsigned *gcds = (unsigned *)malloc(n * 4);
  long long *sums = (long long *)malloc(n * 8);
  CHECK(musaMemcpy(fibs, dfib, n * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(gcds, dgcd, n * 4, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(sorted, dsorted, n * 128, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(sums, dsum, n * 8, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(dep, ddep, n * 4, musaMemcpyDeviceToHost));
  bool ok = stack2 >= 16384;
  int bad = 0;
  for (int t = 0; t < n; ++t) {
    int a[32];
    unsigned s = 12345u + t * 7u;
    for (int k = 0; k < 32; ++k) {
      s = s * 1103515245u + 12345u;
      a[k] = (s >> 16) % 1000;
    }
    qsort(a, 32, sizeof(int), cmp);
    int nn = 10 + t % 50, depth = 0;
    while ((1 << depth) - 1 < nn) ++depth;
    long long rs = (long long)nn * (nn - 1) / 2;
    bool good = fibs[t] == hfib(t % 20) && gcds[t] == hgcd(1071u * (t + 1), 462u * (t + 3)) &&
                memcmp(a, sorted + t * 32, sizeof a) == 0 && sums[t] == rs && dep[t] == depth * 1000 + nn;
    if (!good) {
      if (bad++ < 5)
        printf("thread %d: fib %d/%d gcd %u/%u sum %lld/%lld depth %d/%d\n", t, fibs[t], hfib(t % 20), gcds[t],
               hgcd(1071u * (t + 1), 462u * (t + 3)), sums[t], rs, dep[t], depth * 1000 + nn);
      ok = false;
    }
  }
  printf("device_recursion: stack limit %zu -> %zu, %s\n", stack, stack2, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
