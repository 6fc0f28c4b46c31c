// Warp collectives in divergent code (Volta-style independent thread scheduling): shuffles and
// votes with partial masks in both arms of a branch, __syncwarp(mask) producer/consumer through
// shared memory inside one warp, __match_all_sync, and a loop whose trip count differs per lane
// with __activemask. Partial masks in divergent arms need 32-lane warps: run with
// MUSA_SIM_PROFILE=h200 (on other profiles the program says so and exits 0).
#include <musa_runtime.h>
#include <cstdio>
#include <vector>

__global__ void divergent(int *out) {
  int tid = threadIdx.x;
  int lane = tid % 32;  // lane within the 32-lane slice
  int v = tid * 3 + 1;
  int r0 = -1, r1 = -1, r2 = -1;
  if (lane < 16) {
    // rotate within the low half
    r0 = __shfl_sync(0x0000ffffu, v, (lane + 1) % 16);
    r1 = __ballot_sync(0x0000ffffu, v & 1);
    r2 = __reduce_add_sync(0x0000ffffu, (unsigned)v);
  } else {
    r0 = __shfl_down_sync(0xffff0000u, v, 2, 32);  // lanes 30,31 keep their own value
    r1 = __ballot_sync(0xffff0000u, (v & 2) != 0);
    r2 = __any_sync(0xffff0000u, lane == 20) + 10 * __all_sync(0xffff0000u, lane >= 16);
  }
  out[tid * 4 + 0] = r0;
  out[tid * 4 + 1] = r1;
  out[tid * 4 + 2] = r2;
  // even lanes only
  int r3 = -1;
  if ((lane & 1) == 0) {
    unsigned m = 0x55555555u;
    r3 = __shfl_xor_sync(m, v, 2);
  }
  out[tid * 4 + 3] = r3;
}

__global__ void syncwarpPipe(int *out, int rounds) {
  __shared__ int buf[1024];
  int tid = threadIdx.x, lane = tid % 32, base = tid - lane;
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    if (lane < 8) buf[base + lane] = r * 100 + lane;  // producers
    __syncwarp();
    if (lane >= 8) acc += buf[base + (lane % 8)];      // consumers
    __syncwarp();
  }
  out[tid] = acc;
}

__global__ void perLaneLoop(int *out) {
  int tid = threadIdx.x, lane = tid % 32;
  int sum = 0, steps = 0;
  for (int i = 0; i < lane % 5 + 1; ++i) {
    unsigned act = __activemask();
    // every active lane adds its neighbours' values in its slice via a reduction over act
    sum += __reduce_add_sync(act, (unsigned)i + 1);
    ++steps;
  }
  out[tid] = sum;
  int key = (lane / 4);
  int pred;
  unsigned mm = __match_all_sync(0xffffffffu, key / 100, &pred);
  out[blockDim.x + tid] = (pred ? 1 : 0) + (mm == 0xffffffffu ? 2 : 0);
}

int main() {
  bool ok = true;
  musaDeviceProp prop;
  musaGetDeviceProperties(&prop, 0);
  if (prop.warpSize != 32) { printf("divergent collectives: needs 32-lane warps (warpSize %d), skipped: PASSED\n", prop.warpSize); return 0; }
  const int T = 256;
  int *d; musaMalloc(&d, T * 4 * sizeof(int));
  std::vector<int> h(T * 4);
  divergent<<<1, T>>>(d);
  musaError_t e = musaMemcpy(h.data(), d, T * 4 * sizeof(int), musaMemcpyDeviceToHost);
  if (e != musaSuccess || musaDeviceSynchronize() != musaSuccess) { printf("divergent: %s\n", musaGetErrorString(musaGetLastError())); ok = false; }
  for (int tid = 0; tid < T && ok; ++tid) {
    int lane = tid % 32, base = tid - lane;
    auto val = [&](int l) { return (base + l) * 3 + 1; };
    int w0, w1 = 0, w2 = 0, w3 = -1;
    if (lane < 16) {
      w0 = val((lane + 1) % 16);
      for (int l = 0; l < 16; ++l) if (val(l) & 1) w1 |= 1 << l;
      for (int l = 0; l < 16; ++l) w2 += val(l);
    } else {
      w0 = lane + 2 < 32 ? val(lane + 2) : val(lane);
      for (int l = 16; l < 32; ++l) if (val(l) & 2) w1 |= 1u << l;
      w2 = 1 + 10;
    }
    if ((lane & 1) == 0) w3 = val(lane ^ 2);
    int got[4] = {h[tid * 4], h[tid * 4 + 1], h[tid * 4 + 2], h[tid * 4 + 3]};
    int want[4] = {w0, w1, w2, w3};
    for (int k = 0; k < 4; ++k)
      if (got[k] != want[k]) { printf("divergent tid %d result %d: %d want %d\n", tid, k, got[k], want[k]); ok = false; }
  }
  syncwarpPipe<<<1, T>>>(d, 5);
  musaMemcpy(h.data(), d, T * sizeof(int), musaMemcpyDeviceToHost);
  for (int tid = 0; tid < T; ++tid) {
    int lane = tid % 32, want = 0;
    if (lane >= 8) for (int r = 0; r < 5; ++r) want += r * 100 + lane % 8;
    if (h[tid] != want) { printf("syncwarp pipe tid %d: %d want %d\n", tid, h[tid], want); ok = false; break; }
  }
  perLaneLoop<<<1, T>>>(d);
  e = musaMemcpy(h.data(), d, 2 * T * sizeof(int), musaMemcpyDeviceToHost);
  if (e != musaSuccess) { printf("perLaneLoop: %s\n", musaGetErrorString(e)); ok = false; }
  for (int tid = 0; tid < T; ++tid) {
    int lane = tid % 32, want = 0;
    for (int i = 0; i < lane % 5 + 1; ++i) {
      int active = 0;
      for (int l = 0; l < 32; ++l) if (i < l % 5 + 1) ++active;
      want += active * (i + 1);
    }
    if (h[tid] != want) { printf("per-lane loop tid %d: %d want %d\n", tid, h[tid], want); ok = false; break; }
    if (h[T + tid] != 3) { printf("match_all tid %d: %d want 3\n", tid, h[T + tid]); ok = false; break; }
  }
  printf("divergent collectives: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
