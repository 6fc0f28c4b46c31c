// Persistent-threads kernels that take work from a global atomic counter (Aila & Laine's
// "persistent while-while" ray tracer structure, also common in graph and sparse codes):
//   A: every thread grabs one item at a time with atomicAdd;
//   B: each warp grabs a batch of warpSize items (lane 0 atomicAdd, __shfl_sync broadcast),
//      Volta style with __syncwarp;
//   C: each block grabs a batch into shared memory (thread 0 atomicAdd, __syncthreads);
//   D: Aila & Laine's warp-local pool in volatile shared memory per warp (refilled by lane 0
//      when empty), __syncwarp between refill and use.
// The last block to finish (threadfence + atomicInc ticket) resets the counter, so the same
// counter is reused across launches. Items have very uneven cost (Collatz lengths).
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

__device__ unsigned int g_next;      // queue head
__device__ unsigned int g_retired;   // blocks finished

__host__ __device__ int collatz(unsigned long long v) {
  int steps = 0;
  while (v != 1) { v = (v & 1) ? 3 * v + 1 : v / 2; ++steps; }
  return steps;
}

__device__ void process(int item, int *out, int *seen) {
  out[item] = collatz((unsigned long long)item + 1);
  atomicAdd(&seen[item], 1);
}

__device__ void retire() {
  __shared__ bool last;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicInc(&g_retired, gridDim.x - 1) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x == 0) g_next = 0;
}

__global__ void per_thread(int n, int *out, int *seen) {
  while (true) {
    unsigned i = atomicAdd(&g_next, 1u);
    if (i >= (unsigned)n) break;
    process(int(i), out, seen);
  }
  retire();
}

__global__ void per_warp(int n, int *out, int *seen) {
  int lane = threadIdx.x % warpSize;
  while (true) {
    unsigned base = 0;
    if (lane == 0) base = atomicAdd(&g_next, (unsigned)warpSize);
    base = __shfl_sync(0xffffffffu, base, 0);
    if (base >= (unsigned)n) break;
    unsigned i = base + lane;
    if (i < (unsigned)n) process(int(i), out, seen);
    __syncwarp();
  }
  retire();
}

__global__ void per_block(int n, int *out, int *seen, int batch) {
  __shared__ unsigned base;
  while (true) {
    if (threadIdx.x == 0) base = atomicAdd(&g_next, (unsigned)batch);
    __syncthreads();
    unsigned b = base;
    if (b >= (unsigned)n) break;
    for (unsigned i = b + threadIdx.x; i < b + batch && i < (unsigned)n; i += blockDim.x)
      process(int(i), out, seen);
    __syncthreads();
  }
  retire();
}

// Aila & Laine: each warp keeps a local pool (next item, items left) in shared memory.
constexpr int MAXWARPS = 32;
__global__ void aila_laine(int n, int *out, int *seen, int batchPerLane) {
  volatile __shared__ int nextItem[MAXWARPS];
  volatile __shared__ int itemCount[MAXWARPS];
  int lane = threadIdx.x % warpSize, w = threadIdx.x / warpSize;
  if (lane == 0) itemCount[w] = 0;
  __syncwarp();
  while (true) {
    if (itemCount[w] <= 0) {          // the whole warp sees the same pool state
      __syncwarp();
      if (lane == 0) {
        nextItem[w] = atomicAdd(&g_next, (unsigned)(batchPerLane * warpSize));
        itemCount[w] = batchPerLane * warpSize;
      }
      __syncwarp();
    }
    int my = nextItem[w] + lane;
    __syncwarp();
    if (nextItem[w] >= n) break;
    if (my < n) process(my, out, seen);
    __syncwarp();
    if (lane == 0) { nextItem[w] += warpSize; itemCount[w] -= warpSize; }
    __syncwarp();
  }
  retire();
}

int main() {
  const int n = 20000;
  std::vector<int> ref(n);
  for (int i = 0; i < n; ++i) ref[i] = collatz((unsigned long long)i + 1);
  int *out, *seen;
  CK(musaMalloc(&out, n * 4));
  CK(musaMalloc(&seen, n * 4));
  unsigned zero = 0;
  CK(musaMemcpyToSymbol(g_next, &zero, 4));
  CK(musaMemcpyToSymbol(g_retired, &zero, 4));
  int warp;
  CK(musaDeviceGetAttribute(&warp, musaDevAttrWarpSize, 0));
  bool ok = true;
  const char *names[] = {"per_thread", "per_warp", "per_block", "aila_laine"};
  for (int rep = 0; rep < 2; ++rep)
    for (int v = 0; v < 4; ++v) {
      CK(musaMemset(out, 0xff, n * 4));
      CK(musaMemset(seen, 0, n * 4));
      int blocks = 7 + rep * 5, threads = 256;
      if (v == 0) per_thread<<<blocks, threads>>>(n, out, seen);
      if (v == 1) per_warp<<<blocks, threads>>>(n, out, seen);
      if (v == 2) per_block<<<blocks, threads>>>(n, out, seen, 300);
      if (v == 3) aila_laine<<<blocks, threads>>>(n, out, seen, 2);
      CK(musaGetLastError());
      CK(musaDeviceSynchronize());
      std::vector<int> ho(n), hs(n);
      CK(musaMemcpy(ho.data(), out, n * 4, musaMemcpyDeviceToHost));
      CK(musaMemcpy(hs.data(), seen, n * 4, musaMemcpyDeviceToHost));
      unsigned next, retired;
      CK(musaMemcpyFromSymbol(&next, g_next, 4));
      CK(musaMemcpyFromSymbol(&retired, g_retired, 4));
      bool good = next == 0 && retired == 0;
      if (!good) printf("%s: counter %u retired %u after the launch (expected 0 0)\n", names[v], next, retired);
      for (int i = 0; i < n && good; ++i)
        if (hs[i] != 1 || ho[i] != ref[i]) { printf("%s: item %d seen %d times, out %d expected %d\n", names[v], i, hs[i], ho[i], ref[i]); good = false; }
      ok &= good;
    }
  printf("persistent_work_queue %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
