// A cooperative launch of every block the device holds at once (blocks per multiprocessor
// from the occupancy API times the multiprocessors: the persistent-kernel idiom of the
// conjugate-gradient samples), with grid.sync() between two phases. On the H200 profile that
// is 270,336 threads, one fiber each: more stacks than guard pages can protect (each guard
// splits a mapping, and a process may hold 65,530), so the stacks past the first 8,192 come
// from canary-checked chunks. One block more is refused.
#include <cooperative_groups.h>

#include "check.h"

namespace cg = cooperative_groups;

__global__ void twoPhases(int *count, int *seen) {
  cg::grid_group grid = cg::this_grid();
  atomicAdd(count, 1);
  grid.sync();
  seen[grid.thread_rank()] = *count; // every thread sees every other's add
}

int main() {
  const int threads = 256;
  int perSm = 0, sms = 0;
  CHECK_MUSA(musaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, twoPhases, threads, 0));
  CHECK_MUSA(musaDeviceGetAttribute(&sms, musaDevAttrMultiProcessorCount, 0));
  const int blocks = perSm * sms, total = blocks * threads;
  int *count, *seen;
  CHECK_MUSA(musaMalloc(&count, sizeof(int)));
  CHECK_MUSA(musaMalloc(&seen, size_t(total) * sizeof(int)));
  CHECK_MUSA(musaMemset(count, 0, sizeof(int)));
  void *args[] = {&count, &seen};
  CHECK_MUSA(musaLaunchCooperativeKernel((void *)twoPhases, dim3(blocks), dim3(threads), args,
                                         0, 0));
  CHECK_MUSA(musaDeviceSynchronize());
  int *host = (int *)malloc(size_t(total) * sizeof(int));
  CHECK_MUSA(musaMemcpy(host, seen, size_t(total) * sizeof(int), musaMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < total; ++i)
    wrong += host[i] != total;
  CHECK(wrong == 0, "%d of %d threads saw a count other than %d", wrong, total, total);
  free(host);
  CHECK(musaLaunchCooperativeKernel((void *)twoPhases, dim3(blocks + 1), dim3(threads), args, 0,
                                    0) == musaErrorCooperativeLaunchTooLarge,
        "one block more than the device holds was not refused");
  CHECK_MUSA(musaFree(count));
  CHECK_MUSA(musaFree(seen));
  printf("%d blocks of %d threads\n", blocks, threads);
  return finish("cooperative_full_grid");
}
