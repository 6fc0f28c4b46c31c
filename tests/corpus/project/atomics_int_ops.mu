// The integer atomic family on one set of counters: atomicAdd, atomicSub, atomicExch, atomicMin, atomicMax, atomicInc (wrapping), atomicDec, atomicAnd, atomicOr, atomicXor, and 64-bit atomicAdd; results checked by their order-independent meaning.
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

struct Counters {
  int add, sub, mn, mx;
  unsigned inc, dec, andBits, orBits, xorBits;
  unsigned long long add64;
  int exch;
};

__global__ void hammer(Counters *c, int n, int *exchSeen) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&c->add, 3);
  atomicSub(&c->sub, 2);
  atomicMin(&c->mn, (i * 7919) % 100003 - 50000);
  atomicMax(&c->mx, (i * 7919) % 100003 - 50000);
  atomicInc(&c->inc, 99u);  // wraps to 0 after 99
  atomicDec(&c->dec, 1000000u);
  atomicAnd(&c->andBits, ~(1u << (i % 32)) | (i < 16 ? 0u : 0xffffffffu));
  atomicOr(&c->orBits, 1u << (i % 20));
  atomicXor(&c->xorBits, 1u << (i % 8));
  atomicAdd(&c->add64, 1ull << 33);
  int old = atomicExch(&c->exch, i);
  atomicAdd(&exchSeen[old + 1], 1); // every value but the last written is seen exactly once
}

int main() {
  const int n = 50000;
  Counters init = {0, 0, INT_MAX, INT_MIN, 0, 500000, 0xffffffffu, 0, 0, 0, -1};
  Counters *d, c;
  int *dSeen, *seen = (int *)malloc((n + 1) * sizeof(int));
  CHECK(musaMalloc(&d, sizeof(Counters)));
  CHECK(musaMalloc(&dSeen, (n + 1) * sizeof(int)));
  CHECK(musaMemset(dSeen, 0, (n + 1) * sizeof(int)));
  CHECK(musaMemcpy(d, &init, sizeof init, musaMemcpyHostToDevice));
  hammer<<<(n + 255) / 256, 256>>>(d, n, dSeen);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(&c, d, sizeof c, musaMemcpyDeviceToHost));
  CHECK(musaMemcpy(seen, dSeen, (n + 1) * sizeof(int), musaMemcpyDeviceToHost));
  int rmin = INT_MAX, rmax = INT_MIN;
  for (int i = 0; i < n; ++i) {
    int v = (i * 7919) % 100003 - 50000;
    rmin = v < rmin ? v : rmin;
    rmax = v > rmax ? v : rmax;
  }
  unsigned refXor = 0;
  for (int i = 0; i < n; ++i)
    refXor ^= 1u << (i % 8);
  // Slot k+1 counts how often atomicExch returned k (slot 0: the initial -1).
  int seenOnce = 0, seenOther = 0;
  for (int k = 0; k <= n; ++k) {
    if (k == c.exch + 1)
      seenOther += seen[k] != 0; // the last value written is never returned
    else
      (seen[k] == 1 ? seenOnce : seenOther) += 1;
  }
  bool ok = c.add == 3 * n && c.sub == -2 * n && c.mn == rmin && c.mx == rmax &&
            c.inc == (unsigned)(n % 100) && c.dec == 500000u - n && c.andBits == 0xffff0000u &&
            c.orBits == 0xfffffu && c.xorBits == refXor && c.add64 == (unsigned long long)n << 33 &&
            seenOnce == n && seenOther == 0;
  printf("atomics_int_ops: add %d sub %d min %d max %d inc %u dec %u and %#x or %#x xor %#x, %s\n",
         c.add, c.sub, c.mn, c.mx, c.inc, c.dec, c.andBits, c.orBits, c.xorBits, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
