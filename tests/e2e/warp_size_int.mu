// warpSize is an int in device code, as CUDA declares it: it passes through printf's varargs,
// deduces as int with auto and in std::min/std::max, and mixes with ints in min/max. Its value
// is the profile's (128 on MTT S4000 and S5000, 32 on the H200 profile), the same as
// musaDeviceProp::warpSize on the host (a struct member of the same name, untouched).
#include <musa_runtime.h>

#include <algorithm>
#include <type_traits>

#include "check.h"

__global__ void sizes(int *out) {
  auto w = warpSize;
  static_assert(std::is_same_v<decltype(w), int>, "warpSize is an int");
  int lanes = min(warpSize, int(blockDim.x));
  int quarter = std::max(warpSize / 4, 1);
  if (threadIdx.x == 0)
    printf("warpSize %d\n", warpSize);
  out[threadIdx.x] = w + lanes * 1000 + quarter * 1000000;
}

int main() {
  int *out = nullptr;
  CHECK_MUSA(musaMallocManaged(&out, 64 * sizeof(int)));
  sizes<<<1, 64>>>(out);
  CHECK_MUSA(musaDeviceSynchronize());
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  int want = prop.warpSize + std::min(prop.warpSize, 64) * 1000 +
             std::max(prop.warpSize / 4, 1) * 1000000;
  for (int t = 0; t < 64; ++t)
    CHECK(out[t] == want, "thread %d: %d, want %d", t, out[t], want);
  CHECK_MUSA(musaFree(out));
  return finish("warp_size_int");
}
