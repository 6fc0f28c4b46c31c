// atomic_ops.mu: what one atomic operation costs when all 32 lanes of every warp target one
// address (and when each warp's lanes target 32 distinct words of one line), per operation:
// which ones the GPU (or nvcc) combines within a warp, which it applies lane after lane. 512
// blocks of 256 threads, one atomic each, all warps on one word the compiler sees is one
// (`uniform`: a kernel parameter), on one word chosen at run time (`same`: the compiler cannot
// tell), or each lane on its own word (`spread`, a warp on one line); result unused (a
// reduction, RED) and used (ATOM).
// Output: `op mode result_used us`, medians of 11 event-timed launches.
#include <algorithm>
#include <cstdio>
#include <vector>

enum Op { Add1, AddTid, Exch, Max, Min, Inc, Dec, Cas, And, Or, Xor, FAdd, NOps };
static const char *names[] = {"add_const", "add_tid", "exch", "max",  "min", "inc", "dec",
                              "cas",       "and",     "or",   "xor",  "fadd_float"};

template <int op, bool use, bool uniform> __global__ void k(int *g, int spread, int *sink) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  int *p = uniform ? g : spread ? g + tid : g;
  int r = 0;
  switch (op) {
  case Add1: r = atomicAdd(p, 1); break;
  case AddTid: r = atomicAdd(p, tid); break;
  case Exch: r = atomicExch(p, tid); break;
  case Max: r = atomicMax(p, tid); break;
  case Min: r = atomicMin(p, -tid); break;
  case Inc: r = (int)atomicInc((unsigned *)p, 1000u); break;
  case Dec: r = (int)atomicDec((unsigned *)p, 1000u); break;
  case Cas: r = atomicCAS(p, tid - 1, tid); break;
  case And: r = atomicAnd(p, ~(1 << (tid & 31))); break;
  case Or: r = atomicOr(p, 1 << (tid & 31)); break;
  case Xor: r = atomicXor(p, tid); break;
  case FAdd: r = (int)atomicAdd((float *)p, 1.0f); break;
  }
  if (use && r == 0x7fffffff) sink[tid] = r;
}

template <int op, bool use, bool uniform = false> static float timeIt(int *g, int spread, int *sink) {
  musaEvent_t a, b;
  musaEventCreate(&a);
  musaEventCreate(&b);
  std::vector<float> t;
  for (int r = 0; r < 12; ++r) {
    musaMemset(g, 0, 4 << 20);
    musaDeviceSynchronize();
    musaEventRecord(a);
    k<op, use, uniform><<<512, 256>>>(g, spread, sink);
    musaEventRecord(b);
    musaEventSynchronize(b);
    float ms = 0;
    musaEventElapsedTime(&ms, a, b);
    if (r) t.push_back(ms * 1000);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <int op> static void one(int *g, int *sink) {
  printf("%s uniform unused %.2f\n", names[op], timeIt<op, false, true>(g, 0, sink));
  printf("%s uniform used %.2f\n", names[op], timeIt<op, true, true>(g, 0, sink));
  for (int spread = 0; spread < 2; ++spread) {
    printf("%s %s unused %.2f\n", names[op], spread ? "spread" : "same", timeIt<op, false>(g, spread, sink));
    printf("%s %s used %.2f\n", names[op], spread ? "spread" : "same", timeIt<op, true>(g, spread, sink));
  }
}

int main() {
  int *g, *sink;
  musaMalloc(&g, 4 << 20);
  musaMalloc(&sink, 4 << 20);
  one<Add1>(g, sink); one<AddTid>(g, sink); one<Exch>(g, sink); one<Max>(g, sink);
  one<Min>(g, sink); one<Inc>(g, sink); one<Dec>(g, sink); one<Cas>(g, sink);
  one<And>(g, sink); one<Or>(g, sink); one<Xor>(g, sink); one<FAdd>(g, sink);
  return 0;
}
