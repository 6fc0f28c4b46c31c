// The timing model samples a load site along a thread's whole loop, not only its first trips:
// both kernels below run 24 dependent loads a thread over the same 1 MB table (L2-resident,
// so their footprints are alike); in `narrowing` the lanes of a warp share one address for
// the first two trips and then scatter over the table (as a binary search does once its
// lanes' keys part), in `together` they share one address every trip. A model that sees
// only the first two trips takes them for the same kernel; the scattered trips ask L2 for
// 32 lines a warp access instead of one. Checks the results, and with the timing model on
// (not with every block forced to loops, which samples none) that `narrowing` costs at
// least three times `together`.
#include <musa_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "check.h"

constexpr int Words = 1 << 18, Trips = 24, Blocks = 2048, Threads = 256;

__host__ __device__ inline unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  return x ^ (x >> 16);
}

// The next address depends on the value loaded, as in a search: the loads cannot overlap.
template <bool Scatter> __global__ void walk(const unsigned *table, unsigned *out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned warp = t / 32;
  unsigned v = 0;
#pragma unroll 1 // one load site run 24 times (unrolled, each trip would be a site of its own)
  for (int trip = 0; trip < Trips; ++trip) {
    unsigned key = Scatter && trip >= 2 ? mix(t * Trips + trip) : mix(warp * Trips + trip);
    v = table[(key ^ (v & 1)) % Words];
  }
  out[t] = v;
}

static unsigned expected(const std::vector<unsigned> &table, unsigned t, bool scatter) {
  unsigned v = 0;
  for (int trip = 0; trip < Trips; ++trip) {
    unsigned key = scatter && trip >= 2 ? mix(t * Trips + trip) : mix(t / 32 * Trips + trip);
    v = table[(key ^ (v & 1)) % Words];
  }
  return v;
}

template <bool Scatter>
static float run(const unsigned *dtable, unsigned *dout, const std::vector<unsigned> &table) {
  musaEvent_t a, b;
  CHECK_MUSA(musaEventCreate(&a));
  CHECK_MUSA(musaEventCreate(&b));
  walk<Scatter><<<Blocks, Threads>>>(dtable, dout); // warm-up: loading, clocks (on a GPU)
  CHECK_MUSA(musaEventRecord(a));
  walk<Scatter><<<Blocks, Threads>>>(dtable, dout);
  CHECK_MUSA(musaEventRecord(b));
  CHECK_MUSA(musaEventSynchronize(b));
  float ms = 0;
  CHECK_MUSA(musaEventElapsedTime(&ms, a, b));
  std::vector<unsigned> got(size_t(Blocks) * Threads);
  CHECK_MUSA(musaMemcpy(got.data(), dout, got.size() * sizeof(unsigned), musaMemcpyDeviceToHost));
  for (unsigned t = 0; t < got.size(); t += 97)
    if (got[t] != expected(table, t, Scatter)) {
      std::printf("FAIL %s thread %u: %u, expected %u\n", Scatter ? "narrowing" : "together", t,
                  got[t], expected(table, t, Scatter));
      std::exit(1);
    }
  CHECK_MUSA(musaEventDestroy(a));
  CHECK_MUSA(musaEventDestroy(b));
  return ms;
}

int main() {
  std::vector<unsigned> table(Words);
  for (unsigned i = 0; i < Words; ++i)
    table[i] = mix(i + 12345u);
  unsigned *dtable, *dout;
  CHECK_MUSA(musaMalloc(&dtable, Words * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&dout, size_t(Blocks) * Threads * sizeof(unsigned)));
  CHECK_MUSA(musaMemcpy(dtable, table.data(), Words * sizeof(unsigned), musaMemcpyHostToDevice));
  float together = run<false>(dtable, dout, table);
  float narrowing = run<true>(dtable, dout, table);
  std::printf("together %.1f us, narrowing %.1f us\n", together * 1000, narrowing * 1000);
  const char *exec = std::getenv("MUSA_SIM_EXEC");
  const char *timing = std::getenv("MUSA_SIM_TIMING");
  bool modelled = !(timing && std::strcmp(timing, "wall") == 0) &&
                  !(exec && std::strcmp(exec, "loops") == 0);
  if (modelled && narrowing < 3 * together) {
    std::printf("FAIL the scattered trips cost %.2fx the shared ones, expected at least 3x\n",
                narrowing / together);
    return 1;
  }
  CHECK_MUSA(musaFree(dtable));
  CHECK_MUSA(musaFree(dout));
  std::printf("PASS\n");
  return 0;
}
