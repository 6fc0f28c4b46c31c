// Inter-block communication inside a cooperative launch (musaLaunchCooperativeKernel makes
// every block co-resident, so blocks may wait on each other):
//   test 0: chained scan, one tile per block: block b waits on block b-1's flag (volatile),
//           adds its inclusive prefix, publishes its own (StreamScan / "chained scan").
//   test 1: persistent chained scan: G blocks take tiles b, b+G, b+2G, ... so tile t waits on
//           a tile of another block that may be running its own earlier tile.
//   test 2: suffix sums with the chain running from the last block down: block b waits on
//           block b+1 (the tile order of a suffix scan).
// grid.sync() separates the kernel's reset phase from the scan. Argument: run one test.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

constexpr int THREADS = 256;

__device__ int block_inclusive_scan(int v, int *sh) {
  int t = threadIdx.x;
  sh[t] = v;
  __syncthreads();
  for (int off = 1; off < blockDim.x; off *= 2) {
    int add = t >= off ? sh[t - off] : 0;
    __syncthreads();
    sh[t] += add;
    __syncthreads();
  }
  return sh[t];
}

// mode 0: forward chain; mode 1: backward (suffix sums: tiles processed in reverse order)
__global__ void chained_scan(const int *in, int *out, int ntiles, volatile int *flags,
                             volatile long long *prefix, int reverse) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int sh[THREADS];
  __shared__ long long base;
  for (int t = blockIdx.x; t < ntiles; t += gridDim.x) flags[t] = 0;
  grid.sync();
  for (int s = blockIdx.x; s < ntiles; s += gridDim.x) {
    // reverse: block 0 takes the last link of the chain, so it waits on block 1, ...
    int t = reverse ? ntiles - 1 - s : s;           // position in the chain
    int tile = reverse ? ntiles - 1 - t : t;        // position in the array
    int idx = tile * THREADS + (reverse ? THREADS - 1 - threadIdx.x : threadIdx.x);
    int v = in[idx];
    int inc = block_inclusive_scan(v, sh);
    if (threadIdx.x == THREADS - 1) {
      long long before = 0;
      if (t > 0) {
        while (flags[t - 1] == 0) {
        }
        __threadfence();
        before = prefix[t - 1];
      }
      prefix[t] = before + inc;
      __threadfence();
      flags[t] = 1;
      base = before;
    }
    __syncthreads();
    out[idx] = int(base + inc);
    __syncthreads();
  }
}

int main(int argc, char **argv) {
  int only = argc > 1 ? atoi(argv[1]) : -1;
  musaDeviceProp prop;
  CK(musaGetDeviceProperties(&prop, 0));
  if (!prop.cooperativeLaunch) { printf("no cooperative launch\n"); return 1; }
  int perSM = 0;
  CK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, chained_scan, THREADS, 0));
  int maxBlocks = perSM * prop.multiProcessorCount;
  bool ok = true;
  for (int test = 0; test < 3; ++test) {
    if (only >= 0 && test != only) continue;
    int grid = test == 1 ? std::min(maxBlocks, 8) : std::min(maxBlocks, 64);
    int ntiles = test == 1 ? 5 * grid + 3 : grid;
    int reverse = test == 2;
    int n = ntiles * THREADS;
    std::vector<int> h(n), r(n), got(n);
    for (int i = 0; i < n; ++i) h[i] = (i * 7919) % 13 - 6;
    long long acc = 0;
    if (!reverse) for (int i = 0; i < n; ++i) { acc += h[i]; r[i] = int(acc); }
    else for (int i = n - 1; i >= 0; --i) { acc += h[i]; r[i] = int(acc); }
    int *din, *dout, *flags; long long *pre;
    CK(musaMalloc(&din, n * 4)); CK(musaMalloc(&dout, n * 4));
    CK(musaMalloc(&flags, ntiles * 4)); CK(musaMalloc(&pre, ntiles * 8));
    CK(musaMemcpy(din, h.data(), n * 4, musaMemcpyHostToDevice));
    void *args[] = {&din, &dout, &ntiles, &flags, &pre, &reverse};
    CK(musaLaunchCooperativeKernel((void *)chained_scan, dim3(grid), dim3(THREADS), args, 0, 0));
    CK(musaDeviceSynchronize());
    CK(musaMemcpy(got.data(), dout, n * 4, musaMemcpyDeviceToHost));
    bool good = true;
    for (int i = 0; i < n; ++i)
      if (got[i] != r[i]) { printf("test %d: out[%d] = %d, expected %d\n", test, i, got[i], r[i]); good = false; break; }
    printf("test %d (grid %d, %d tiles) %s\n", test, grid, ntiles, good ? "ok" : "wrong");
    ok &= good;
    musaFree(din); musaFree(dout); musaFree(flags); musaFree(pre);
  }
  printf("coop_chained_scan %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
