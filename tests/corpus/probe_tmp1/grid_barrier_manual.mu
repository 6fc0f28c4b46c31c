// A hand-made grid barrier among the blocks of a small grid, as pre-cooperative-groups code
// did it (Xiao & Feng's "inter-block GPU communication via fast barrier synchronization",
// many ported solvers): a sense-reversing barrier with atomicAdd on an arrival counter and a
// volatile generation word, thread 0 of each block spinning, __syncthreads around it. The
// grid is kept to at most one block per multiprocessor so every block is resident.
//   A: ordinary launch, grid = min(#SMs, 8) blocks: 1D Jacobi smoothing, 50 sweeps;
//   B: the same kernel through musaLaunchCooperativeKernel (co-residency guaranteed);
//   C: a lock-free "tree" barrier variant: per-block arrival flags, block 0 gathers and
//      releases (Xiao & Feng's GPU lock-free synchronization), 50 sweeps.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

struct Barrier { unsigned count; volatile unsigned generation; };

__device__ void grid_barrier(Barrier *b) {
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned gen = b->generation;
    __threadfence();
    if (atomicAdd(&b->count, 1u) == gridDim.x - 1) {
      b->count = 0;
      __threadfence();
      b->generation = gen + 1;
    } else {
      while (b->generation == gen) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

// lock-free barrier: arrivals in flagsIn[block], block 0 waits for all, then sets flagsOut
__device__ void lockfree_barrier(volatile int *flagsIn, volatile int *flagsOut, int goal) {
  int nb = gridDim.x;
  if (threadIdx.x == 0) { __threadfence(); flagsIn[blockIdx.x] = goal; }
  if (blockIdx.x == 0) {
    if (threadIdx.x < nb) while (flagsIn[threadIdx.x] != goal) {}
    __syncthreads();
    if (threadIdx.x < nb) flagsOut[threadIdx.x] = goal;
  }
  if (threadIdx.x == 0) while (flagsOut[blockIdx.x] != goal) {}
  __syncthreads();
}

__global__ void jacobi(float *a, float *b, int n, int sweeps, Barrier *bar) {
  for (int s = 0; s < sweeps; ++s) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
      b[i] = (i == 0 || i == n - 1) ? a[i] : 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
    grid_barrier(bar);
    float *t = a; a = b; b = t;
  }
}

__global__ void jacobi_lockfree(float *a, float *b, int n, int sweeps, int *flagsIn, int *flagsOut) {
  for (int s = 0; s < sweeps; ++s) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
      b[i] = (i == 0 || i == n - 1) ? a[i] : 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
    lockfree_barrier(flagsIn, flagsOut, s + 1);
    float *t = a; a = b; b = t;
  }
}

int main(int argc, char **argv) {
  int only = argc > 1 ? atoi(argv[1]) : -1;
  musaDeviceProp prop;
  CK(musaGetDeviceProperties(&prop, 0));
  int blocks = prop.multiProcessorCount < 8 ? prop.multiProcessorCount : 8;
  const int n = 4096, sweeps = 50;
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i % 97 == 0) ? 100.f : float(i % 13);
  std::vector<float> ra(x), rb(n);
  for (int s = 0; s < sweeps; ++s) {
    for (int i = 0; i < n; ++i) rb[i] = (i == 0 || i == n - 1) ? ra[i] : 0.25f * ra[i - 1] + 0.5f * ra[i] + 0.25f * ra[i + 1];
    std::swap(ra, rb);
  }
  float *a, *b; Barrier *bar; int *fin, *fout;
  CK(musaMalloc(&a, n * 4)); CK(musaMalloc(&b, n * 4)); CK(musaMalloc(&bar, sizeof(Barrier)));
  CK(musaMalloc(&fin, 64 * 4)); CK(musaMalloc(&fout, 64 * 4));
  bool ok = true;
  for (int v = 0; v < 3; ++v) {
    if (only >= 0 && v != only) continue;
    CK(musaMemcpy(a, x.data(), n * 4, musaMemcpyHostToDevice));
    CK(musaMemset(bar, 0, sizeof(Barrier)));
    CK(musaMemset(fin, 0, 256)); CK(musaMemset(fout, 0, 256));
    int nn = n, sw = sweeps;
    if (v == 0) jacobi<<<blocks, 256>>>(a, b, n, sweeps, bar);
    if (v == 1) {
      void *args[] = {&a, &b, &nn, &sw, &bar};
      CK(musaLaunchCooperativeKernel((void *)jacobi, dim3(blocks), dim3(256), args, 0, 0));
    }
    if (v == 2) jacobi_lockfree<<<blocks, 256>>>(a, b, n, sweeps, fin, fout);
    CK(musaGetLastError());
    CK(musaDeviceSynchronize());
    std::vector<float> got(n);
    CK(musaMemcpy(got.data(), sweeps % 2 ? b : a, n * 4, musaMemcpyDeviceToHost));
    bool good = true;
    for (int i = 0; i < n; ++i) if (std::fabs(got[i] - ra[i]) > 1e-4f * (1 + std::fabs(ra[i]))) { printf("variant %d: x[%d] = %g expected %g\n", v, i, got[i], ra[i]); good = false; break; }
    printf("variant %d (%d blocks) %s\n", v, blocks, good ? "ok" : "wrong");
    ok &= good;
  }
  printf("grid_barrier_manual %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
