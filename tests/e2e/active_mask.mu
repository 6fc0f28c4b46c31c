// __activemask() with blocks whose size is not a multiple of 32 (48 threads: one full 32-lane
// group and one of 16), in plain and cooperative launches: lanes are grouped by the thread's
// linear index within its own block, never across blocks (a cooperative launch runs the
// whole grid together).
#include "check.h"

__global__ void activeMask(unsigned *out) {
  unsigned perBlock = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned mask = __activemask();
  // No thread exits (and so drops out of a later caller's mask) before all have asked: the
  // simulator runs a warp's lanes one after another, not in lock-step.
  __syncthreads();
  out[blockIdx.x * perBlock + t] = mask;
}

static void check(const char *what, void (*launch)(unsigned *, dim3), dim3 block) {
  const int blocks = 4;
  const unsigned perBlock = block.x * block.y * block.z;
  unsigned *d, h[blocks * 64];
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  CHECK_MUSA(musaMemset(d, 0, sizeof h));
  launch(d, block);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(h, d, blocks * perBlock * sizeof(unsigned), musaMemcpyDeviceToHost));
  int bad = 0;
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < perBlock; ++t) {
      // Lanes t - t % 32 .. of this block that exist: 32 of them, or the 16 of the last group.
      unsigned lanes = perBlock - (t - t % 32) < 32 ? perBlock - (t - t % 32) : 32;
      unsigned expect = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
      unsigned got = h[b * perBlock + t];
      if (got != expect && bad++ < 4)
        CHECK(got == expect, "%s block (%u,%u,%u): block %u thread %u: mask %#x, expected %#x",
              what, block.x, block.y, block.z, b, t, got, expect);
    }
  CHECK(bad == 0, "%s: %d wrong masks", what, bad);
  CHECK_MUSA(musaFree(d));
}

static void plainLaunch(unsigned *d, dim3 block) { activeMask<<<4, block>>>(d); }

static void cooperativeLaunch(unsigned *d, dim3 block) {
  void *args[] = {&d};
  CHECK_MUSA(musaLaunchCooperativeKernel(activeMask, dim3(4), block, args, 0, 0));
}

int main() {
  check("plain", plainLaunch, dim3(48, 1, 1));
  check("cooperative", cooperativeLaunch, dim3(48, 1, 1));
  check("plain", plainLaunch, dim3(16, 3, 1));
  check("cooperative", cooperativeLaunch, dim3(16, 3, 1));
  return finish("active_mask");
}
