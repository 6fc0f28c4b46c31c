// Cooperative groups over the whole grid:
//  - grid_group queries in a 3D cooperative grid with 2D blocks: thread_rank, num_threads,
//    size, block_rank, num_blocks, dim_blocks, block_index against blockIdx/gridDim arithmetic;
//  - this_grid().is_valid(): true in a cooperative launch, false in an ordinary one (CUDA 11+
//    reports whether the grid was launched cooperatively; code branches on it to fall back);
//  - grid.sync() in loops: an odd-even transposition sort over the whole grid (n phases, one
//    grid.sync each), and power iteration style normalise/iterate with a grid-wide reduction
//    done by atomics between two grid.syncs, through cg::sync(grid) as well.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

struct Info {
  unsigned long long rank, nthreads, size, brank, nblocks;
  unsigned dbx, dby, dbz, bix, biy, biz;
  int valid;
};

__global__ void grid_info(Info *out) {
  cg::grid_group g = cg::this_grid();
  unsigned long long blin = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned tlin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned long long glin = blin * (blockDim.x * blockDim.y * blockDim.z) + tlin;
  Info i;
  i.rank = g.thread_rank();
  i.nthreads = g.num_threads();
  i.size = g.size();
  i.brank = g.block_rank();
  i.nblocks = g.num_blocks();
  dim3 db = g.dim_blocks(), bi = g.block_index();
  i.dbx = db.x, i.dby = db.y, i.dbz = db.z, i.bix = bi.x, i.biy = bi.y, i.biz = bi.z;
  i.valid = g.is_valid();
  out[glin] = i;
}

__global__ void validity(int *out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = cg::this_grid().is_valid();
}

// Odd-even transposition sort: phase p compares pairs (2k + p%2, 2k + p%2 + 1).
__global__ void oddeven_sort(int *a, int n) {
  cg::grid_group g = cg::this_grid();
  for (int phase = 0; phase < n; ++phase) {
    for (unsigned long long k = g.thread_rank(); 2 * k + 1 + (phase & 1) < (unsigned long long)n; k += g.num_threads()) {
      int i = int(2 * k + (phase & 1));
      int x = a[i], y = a[i + 1];
      if (x > y) { a[i] = y; a[i + 1] = x; }
    }
    g.sync();
  }
}

// x <- A x / ||A x||_1 with A tridiagonal (2 on the diagonal, 1 beside), `iters` times.
__global__ void power_iter(float *x, float *y, float *norm, int n, int iters) {
  cg::grid_group g = cg::this_grid();
  for (int it = 0; it < iters; ++it) {
    if (g.thread_rank() == 0) *norm = 0.f;
    cg::sync(g);
    float local = 0.f;
    for (unsigned long long i = g.thread_rank(); i < (unsigned long long)n; i += g.num_threads()) {
      float v = 2.f * x[i] + (i > 0 ? x[i - 1] : 0.f) + (i + 1 < (unsigned long long)n ? x[i + 1] : 0.f);
      y[i] = v;
      local += v;
    }
    atomicAdd(norm, local);
    g.sync();
    float s = *norm;
    for (unsigned long long i = g.thread_rank(); i < (unsigned long long)n; i += g.num_threads())
      x[i] = y[i] / s;
    g.sync();
  }
}

int main() {
  musaDeviceProp prop;
  CK(musaGetDeviceProperties(&prop, 0));
  bool ok = true;
  // 1. grid_group queries, cooperative 3D grid
  {
    dim3 grid(3, 2, 2), block(8, 4, 2);
    int nt = 3 * 2 * 2 * 64;
    Info *d;
    CK(musaMalloc(&d, nt * sizeof(Info)));
    void *args[] = {&d};
    CK(musaLaunchCooperativeKernel((void *)grid_info, grid, block, args, 0, 0));
    CK(musaDeviceSynchronize());
    std::vector<Info> h(nt);
    CK(musaMemcpy(h.data(), d, nt * sizeof(Info), musaMemcpyDeviceToHost));
    for (int i = 0; i < nt && ok; ++i) {
      int b = i / 64;
      unsigned bx = b % 3, by = b / 3 % 2, bz = b / 6;
      const Info &x = h[i];
      if (x.rank != (unsigned long long)i || x.nthreads != (unsigned long long)nt || x.size != (unsigned long long)nt ||
          x.brank != (unsigned long long)b || x.nblocks != 12 || x.dbx != 3 || x.dby != 2 || x.dbz != 2 ||
          x.bix != bx || x.biy != by || x.biz != bz || !x.valid) {
        printf("grid_info thread %d: rank %llu nthreads %llu size %llu brank %llu nblocks %llu dim %u,%u,%u idx %u,%u,%u valid %d\n",
               i, x.rank, x.nthreads, x.size, x.brank, x.nblocks, x.dbx, x.dby, x.dbz, x.bix, x.biy, x.biz, x.valid);
        ok = false;
      }
    }
    musaFree(d);
  }
  // 2. is_valid in a cooperative and an ordinary launch
  {
    int *d, coop = -1, plain = -1;
    CK(musaMalloc(&d, 4));
    void *args[] = {&d};
    CK(musaLaunchCooperativeKernel((void *)validity, dim3(2), dim3(32), args, 0, 0));
    CK(musaMemcpy(&coop, d, 4, musaMemcpyDeviceToHost));
    validity<<<2, 32>>>(d);
    CK(musaGetLastError());
    CK(musaMemcpy(&plain, d, 4, musaMemcpyDeviceToHost));
    if (coop != 1 || plain != 0) { printf("is_valid: cooperative %d (expected 1), ordinary launch %d (expected 0)\n", coop, plain); ok = false; }
    musaFree(d);
  }
  // 3. odd-even transposition sort with a grid.sync per phase
  {
    int perSM = 0;
    CK(musaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, oddeven_sort, 128, 0));
    int blocks = std::min(perSM * prop.multiProcessorCount, 6);
    int n = 1500;
    std::vector<int> h(n);
    unsigned s = 7;
    for (int &v : h) { s = s * 1103515245u + 12345u; v = int(s >> 16) % 10000 - 5000; }
    int *d;
    CK(musaMalloc(&d, n * 4));
    CK(musaMemcpy(d, h.data(), n * 4, musaMemcpyHostToDevice));
    void *args[] = {&d, &n};
    CK(musaLaunchCooperativeKernel((void *)oddeven_sort, dim3(blocks), dim3(128), args, 0, 0));
    CK(musaDeviceSynchronize());
    std::vector<int> got(n);
    CK(musaMemcpy(got.data(), d, n * 4, musaMemcpyDeviceToHost));
    std::sort(h.begin(), h.end());
    if (got != h) { printf("odd-even sort wrong\n"); ok = false; }
    musaFree(d);
  }
  // 4. power iteration with grid-wide sums
  {
    int n = 1000, iters = 20, blocks = 4;
    std::vector<float> x(n, 1.0f);
    float *dx, *dy, *dn;
    CK(musaMalloc(&dx, n * 4)); CK(musaMalloc(&dy, n * 4)); CK(musaMalloc(&dn, 4));
    CK(musaMemcpy(dx, x.data(), n * 4, musaMemcpyHostToDevice));
    void *args[] = {&dx, &dy, &dn, &n, &iters};
    CK(musaLaunchCooperativeKernel((void *)power_iter, dim3(blocks), dim3(256), args, 0, 0));
    CK(musaDeviceSynchronize());
    std::vector<float> got(n);
    CK(musaMemcpy(got.data(), dx, n * 4, musaMemcpyDeviceToHost));
    std::vector<double> rx(n, 1.0), ry(n);
    for (int it = 0; it < iters; ++it) {
      double s = 0;
      for (int i = 0; i < n; ++i) { ry[i] = 2 * rx[i] + (i ? rx[i - 1] : 0) + (i + 1 < n ? rx[i + 1] : 0); s += ry[i]; }
      for (int i = 0; i < n; ++i) rx[i] = ry[i] / s;
    }
    for (int i = 0; i < n; ++i)
      if (std::fabs(got[i] - rx[i]) > 1e-4 * std::fabs(rx[i]) + 1e-9) { printf("power iteration x[%d] = %g, expected %g\n", i, got[i], rx[i]); ok = false; break; }
  }
  printf("coop_grid_sync_loops %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
