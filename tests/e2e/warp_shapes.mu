// Shuffles whose offset differs from warp to warp (each warp's lanes agree), with one warp
// gone before them: the region executor's per-warp path, checked against a host model of the
// same shuffles on both warp sizes.
#include "check.h"

#include <vector>

__global__ void perWarpShapes(int *out) {
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  (void)lane;
  if (warp == 1)
    return; // a whole warp leaves before the shuffles
  int v = threadIdx.x * 3 + 1;
  int d = 1 + warp % 3; // each warp shuffles by its own offset
  v += __shfl_down_sync(0xffffffffu, v, d);
  v += __shfl_up_sync(0xffffffffu, v, d, 16);
  v ^= __shfl_xor_sync(0xffffffffu, v, warp % 4 + 1);
  v += __shfl_sync(0xffffffffu, v, warp, 8);
  out[threadIdx.x] = v;
}

// The same four shuffles on the host, one warp of `w` lanes at a time.
static std::vector<int> expected(int threads, int w) {
  std::vector<int> out(threads, -7);
  for (int first = 0; first < threads; first += w) {
    int warp = first / w;
    if (warp == 1)
      continue;
    std::vector<int> v(w), t(w);
    for (int l = 0; l < w; ++l)
      v[l] = (first + l) * 3 + 1;
    int d = 1 + warp % 3;
    for (int l = 0; l < w; ++l)
      t[l] = v[l] + (l + d < w ? v[l + d] : v[l]);
    v = t;
    for (int l = 0; l < w; ++l)
      t[l] = v[l] + (l % 16 >= d ? v[l - d] : v[l]);
    v = t;
    int x = warp % 4 + 1;
    for (int l = 0; l < w; ++l)
      t[l] = v[l] ^ ((l ^ x) < w ? v[l ^ x] : v[l]);
    v = t;
    for (int l = 0; l < w; ++l)
      t[l] = v[l] + v[l / 8 * 8 + warp % 8];
    for (int l = 0; l < w; ++l)
      out[first + l] = t[l];
  }
  return out;
}

int main() {
  const int threads = 256;
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  int *d;
  CHECK_MUSA(musaMalloc(&d, threads * sizeof(int)));
  std::vector<int> init(threads, -7), got(threads);
  CHECK_MUSA(musaMemcpy(d, init.data(), threads * sizeof(int), musaMemcpyHostToDevice));
  perWarpShapes<<<3, threads>>>(d);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(got.data(), d, threads * sizeof(int), musaMemcpyDeviceToHost));
  std::vector<int> want = expected(threads, prop.warpSize);
  int wrong = 0;
  for (int i = 0; i < threads; ++i)
    if (got[i] != want[i] && wrong++ < 4)
      CHECK(false, "thread %d: %d, expected %d (warp size %d)", i, got[i], want[i], prop.warpSize);
  CHECK_MUSA(musaFree(d));
  return finish("warp_shapes");
}
