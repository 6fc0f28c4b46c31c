// coalesced_threads() and __activemask() where the lanes of a warp took different paths and
// met again without a __syncwarp: the hardware reconverges a warp after a divergent loop or
// branch, so the group there is every lane that gets there, not the first lanes to arrive.
// A reduction over the groups of a labeled partition (the groups take 2 and 5 shuffle rounds),
// a loop whose trip count differs per lane, and, for contrast, a branch whose sides call
// coalesced_threads() at different sites (groups of 4 and 28 there, 32 after it).
#include <musa_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "check.h"

namespace cg = cooperative_groups;

__global__ void afterPartitionReduce(int *size, int *sum) {
  int lane = threadIdx.x % 32;
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group lp = cg::labeled_partition(t32, lane < 4);
  sum[threadIdx.x] = cg::reduce(lp, 1, cg::plus<int>());
  size[threadIdx.x] = cg::coalesced_threads().size();
}

__global__ void afterDivergentLoop(const int *trips, int *size, unsigned *mask) {
  int acc = 0;
  for (int i = 0; i < trips[threadIdx.x]; ++i)
    acc += i * (threadIdx.x + 1);
  cg::coalesced_group g = cg::coalesced_threads();
  size[threadIdx.x] = g.size() + (acc < 0); // acc keeps the loop
  mask[threadIdx.x] = __activemask();
}

__global__ void twoSites(int *inside, int *after) {
  int lane = threadIdx.x % 32;
  if (lane < 4)
    inside[threadIdx.x] = cg::coalesced_threads().size();
  else
    inside[threadIdx.x] = -int(cg::coalesced_threads().size());
  after[threadIdx.x] = cg::coalesced_threads().size();
}

int main() {
  const int n = 64; // two 32-lane warps (one quarter each of two 128-lane warps)
  int *size, *sum, *trips, *after;
  unsigned *mask;
  CHECK_MUSA(musaMallocManaged(&size, n * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&sum, n * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&trips, n * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&after, n * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&mask, n * sizeof(unsigned)));

  afterPartitionReduce<<<1, n>>>(size, sum);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    CHECK(sum[i] == (i % 32 < 4 ? 4 : 28), "thread %d: partition sum %d", i, sum[i]);
    CHECK(size[i] == 32, "thread %d: coalesced_threads() after the reduction has %d lanes", i,
          size[i]);
  }

  for (int i = 0; i < n; ++i)
    trips[i] = (i * 7) % 5;
  afterDivergentLoop<<<1, n>>>(trips, size, mask);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    CHECK(size[i] == 32, "thread %d: coalesced_threads() after the loop has %d lanes", i, size[i]);
    CHECK(mask[i] == 0xffffffffu, "thread %d: __activemask() after the loop is %#x", i, mask[i]);
  }

  twoSites<<<1, n>>>(size, after);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    int want = i % 32 < 4 ? 4 : -28;
    CHECK(size[i] == want, "thread %d: inside the branch %d lanes, want %d", i, size[i], want);
    CHECK(after[i] == 32, "thread %d: after the branch %d lanes", i, after[i]);
  }
  return finish("coalesced_reconverge");
}
