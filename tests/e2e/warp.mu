// Warp collectives and block reductions, run with 128-lane (MTT S4000) and 32-lane (S5000)
// warps: every expectation is written in terms of warpSize.
#include "check.h"

__global__ void warpOps(int *out) {
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  const unsigned full = 0xffffffffu;
  // Tree reduction with __shfl_down_sync.
  int v = threadIdx.x + 1;
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(full, v, offset);
  if (lane == 0)
    out[warp * 16 + 0] = v;
  // Broadcast within 16-lane segments.
  out[512 + threadIdx.x] = __shfl_sync(full, (int)threadIdx.x * 10, 3, 16);
  // Butterfly all-reduce: every lane ends with the warp's maximum.
  float m = float(lane % 7);
  for (int x = warpSize / 2; x > 0; x /= 2)
    m = fmaxf(m, __shfl_xor_sync(full, m, x));
  out[1024 + threadIdx.x] = int(m);
  // Up-shift (prefix sum, Hillis-Steele).
  int s = 1;
  for (int d = 1; d < warpSize; d *= 2) {
    int y = __shfl_up_sync(full, s, d);
    if (lane >= d)
      s += y;
  }
  out[1536 + threadIdx.x] = s;
  unsigned ballot = __ballot_sync(full, lane % 2 == 0);
  if (lane == 0) {
    out[warp * 16 + 1] = __popc(ballot);
    out[warp * 16 + 2] = __any_sync(full, lane == 5);
    out[warp * 16 + 3] = __all_sync(full, lane < warpSize);
  } else {
    __any_sync(full, lane == 5);
    __all_sync(full, lane < warpSize);
  }
  int total = __reduce_add_sync(full, 1);
  unsigned mx = __reduce_max_sync(full, (unsigned)lane);
  unsigned groupOfThree = __match_any_sync(full, lane % 3);
  if (lane == 0) {
    out[warp * 16 + 4] = total;
    out[warp * 16 + 5] = (int)mx;
    out[warp * 16 + 6] = __popc(groupOfThree);
  }
  // A collective in a divergent branch: only even lanes of each 32-lane quarter take part.
  if (lane % 2 == 0) {
    int e = __reduce_add_sync(0x55555555u, 1);
    if (lane == 0)
      out[warp * 16 + 7] = e;
  }
  __syncwarp();
  int counted = __syncthreads_count(threadIdx.x % 3 == 0);
  int anded = __syncthreads_and(threadIdx.x < 100000);
  int ored = __syncthreads_or(threadIdx.x == 7);
  if (threadIdx.x == 0) {
    out[2047] = counted;
    out[2046] = anded;
    out[2045] = ored;
  }
}

int main() {
  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  const int ws = prop.warpSize, threads = 256, warps = threads / ws;
  int *d, h[2048];
  CHECK_MUSA(musaMalloc(&d, sizeof h));
  CHECK_MUSA(musaMemset(d, 0, sizeof h));
  warpOps<<<1, threads>>>(d);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(h, d, sizeof h, musaMemcpyDeviceToHost));
  for (int w = 0; w < warps; ++w) {
    int first = w * ws + 1, last = (w + 1) * ws;
    CHECK(h[w * 16 + 0] == (first + last) * ws / 2, "warp %d shfl_down sum %d", w, h[w * 16]);
    CHECK(h[w * 16 + 1] == 16, "ballot popc %d (even lanes of a 32-lane quarter)", h[w * 16 + 1]);
    CHECK(h[w * 16 + 2] == 1 && h[w * 16 + 3] == 1, "any/all");
    CHECK(h[w * 16 + 4] == ws, "reduce_add %d", h[w * 16 + 4]);
    CHECK(h[w * 16 + 5] == ws - 1, "reduce_max %d", h[w * 16 + 5]);
    CHECK(h[w * 16 + 6] == (32 + 2) / 3, "match_any group size %d", h[w * 16 + 6]);
    CHECK(h[w * 16 + 7] == ws / 2, "divergent reduce %d", h[w * 16 + 7]);
  }
  for (int t = 0; t < threads; ++t) {
    CHECK(h[512 + t] == ((t / 16) * 16 + 3) * 10, "shfl width 16, thread %d: %d", t, h[512 + t]);
    int lane = t % ws;
    CHECK(h[1024 + t] == (ws >= 7 ? 6 : lane % 7), "xor max %d", h[1024 + t]);
    CHECK(h[1536 + t] == lane + 1, "prefix sum at lane %d: %d", lane, h[1536 + t]);
  }
  CHECK(h[2047] == (threads + 2) / 3, "__syncthreads_count %d", h[2047]);
  CHECK(h[2046] == 1 && h[2045] == 1, "__syncthreads_and/or");
  printf("warpSize %d\n", ws);
  return finish("warp");
}
