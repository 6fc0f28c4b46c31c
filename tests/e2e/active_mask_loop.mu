// __activemask() in a loop whose trip count differs per lane, while the lanes that already
// left it wait at a full-mask __syncwarp(): each iteration names only the lanes still looping
// (the waiting lanes are not at that collective; this once failed the launch).
#include "check.h"

__global__ void loop(unsigned *masks, int *sums) {
  int lane = threadIdx.x % 32;
  int sum = 0;
  for (int i = 0; i < lane % 4 + 1; ++i) {
    unsigned act = __activemask();
    if (threadIdx.x == 3)
      masks[i] = act;
    sum += __popc(act);
  }
  __syncwarp();
  sums[threadIdx.x] = sum;
}

int main() {
  unsigned *m;
  int *s;
  CHECK_MUSA(musaMallocManaged(&m, 4 * sizeof(unsigned)));
  CHECK_MUSA(musaMallocManaged(&s, 32 * sizeof(int)));
  loop<<<1, 32>>>(m, s);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int i = 0; i < 4; ++i) {
    unsigned want = 0;
    for (int l = 0; l < 32; ++l)
      if (i < l % 4 + 1)
        want |= 1u << l;
    CHECK(m[i] == want, "iteration %d: __activemask %#x, want %#x", i, m[i], want);
  }
  CHECK(s[3] == 32 + 24 + 16 + 8, "lane 3 counted %d active lanes", s[3]);
  return finish("active_mask_loop");
}
