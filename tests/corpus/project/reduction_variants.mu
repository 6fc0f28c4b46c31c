// reduction sample style: reduce0..reduce6 (int sums) with templates on blockSize and nIsPow2,
// warp-level parts through cooperative groups tiles and __shfl_down_sync, plus the legacy
// warp-synchronous volatile tail (works on any GPU whose warps stay converged).
#include <musa_runtime.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace cg = cooperative_groups;

template <class T> struct SharedMemory {
  __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
  __device__ inline operator const T *() const { extern __shared__ int __smem[]; return (T *)__smem; }
};
template <> struct SharedMemory<double> {
  __device__ inline operator double *() { extern __shared__ double __smem_d[]; return (double *)__smem_d; }
};

template <class T> __global__ void reduce0(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  cg::sync(cta);
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    if ((tid % (2 * s)) == 0) sdata[tid] += sdata[tid + s];
    cg::sync(cta);
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <class T> __global__ void reduce1(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  cg::sync(cta);
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    cg::sync(cta);
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <class T> __global__ void reduce2(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  cg::sync(cta);
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    cg::sync(cta);
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <class T> __global__ void reduce3(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  cg::sync(cta);
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    cg::sync(cta);
  }
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

// reduce4: tile-based final warp (warpSize-generic through a 32-thread tile)
template <class T, unsigned int blockSize> __global__ void reduce4(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n) mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  cg::sync(cta);
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    cg::sync(cta);
  }
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (blockSize >= 64) mySum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) mySum += tile32.shfl_down(mySum, offset);
  }
  if (cta.thread_rank() == 0) g_odata[blockIdx.x] = mySum;
}

template <class T, unsigned int blockSize> __global__ void reduce5(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x, i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n) mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  cg::sync(cta);
  if ((blockSize >= 512) && (tid < 256)) sdata[tid] = mySum = mySum + sdata[tid + 256];
  cg::sync(cta);
  if ((blockSize >= 256) && (tid < 128)) sdata[tid] = mySum = mySum + sdata[tid + 128];
  cg::sync(cta);
  if ((blockSize >= 128) && (tid < 64)) sdata[tid] = mySum = mySum + sdata[tid + 64];
  cg::sync(cta);
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (blockSize >= 64) mySum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) mySum += tile32.shfl_down(mySum, offset);
  }
  if (cta.thread_rank() == 0) g_odata[blockIdx.x] = mySum;
}

// reduce6: grid-stride, nIsPow2, shuffle via __shfl_down_sync with a ballot mask of the active lanes
template <class T, unsigned int blockSize, bool nIsPow2> __global__ void reduce6(T *g_idata, T *g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x, gridSize = blockSize * gridDim.x;
  unsigned int maskLength = (blockSize & 31);
  maskLength = (maskLength > 0) ? (32 - maskLength) : maskLength;
  const unsigned int mask = (0xffffffff) >> maskLength;
  T mySum = 0;
  if (nIsPow2) {
    unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
    gridSize = gridSize << 1;
    while (i < n) {
      mySum += g_idata[i];
      if ((i + blockSize) < n) mySum += g_idata[i + blockSize];
      i += gridSize;
    }
  } else {
    unsigned int i = blockIdx.x * blockSize + threadIdx.x;
    while (i < n) { mySum += g_idata[i]; i += gridSize; }
  }
  // per-32-lane reduction
  for (int offset = 32 / 2; offset > 0; offset /= 2) mySum += __shfl_down_sync(mask, mySum, offset, 32);
  if ((tid % 32) == 0) sdata[tid / 32] = mySum;
  __syncthreads();
  const unsigned int shmem_extent = (blockSize / 32) > 0 ? (blockSize / 32) : 1;
  const unsigned int ballot_result = __ballot_sync(mask, tid < shmem_extent);
  if (tid < shmem_extent) {
    mySum = sdata[tid];
    for (int offset = 32 / 2; offset > 0; offset /= 2)
      if (tid + offset < 32) { T o = __shfl_down_sync(ballot_result, mySum, offset, 32); if (tid + offset < shmem_extent) mySum += o; }
  }
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

// the Volta-safe form of the old warp-synchronous tail: volatile shared memory with __syncwarp
// between the read and the write of each step (mask: the 32 lanes of the first 32-lane slice)
template <class T, unsigned int blockSize> __device__ void warpReduceLegacy(volatile T *sdata, unsigned int tid) {
  T v = sdata[tid];
  if (blockSize >= 64) { v += sdata[tid + 32]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
  for (int off = 16; off > 0; off >>= 1) { v += sdata[tid + off]; __syncwarp(); sdata[tid] = v; __syncwarp(); }
}
template <class T, unsigned int blockSize> __global__ void reduceLegacy(T *g_idata, T *g_odata, unsigned int n) {
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x, i = blockIdx.x * (blockSize * 2) + tid;
  T s = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n) s += g_idata[i + blockSize];
  sdata[tid] = s;
  __syncthreads();
  for (unsigned int st = blockSize / 2; st > 32; st >>= 1) {
    if (tid < st) sdata[tid] += sdata[tid + st];
    __syncthreads();
  }
  if (tid < 32) warpReduceLegacy<T, blockSize>(sdata, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

static bool ok = true;

template <class T> T runKernel(int which, int threads, int n, T *d_in, T *d_out, int *outBlocks) {
  int blocks = (which < 3) ? (n + threads - 1) / threads : (n + threads * 2 - 1) / (threads * 2);
  if (which == 6 && blocks > 64) blocks = 64;
  int smem = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);
  bool p2 = (n & (n - 1)) == 0;
#define CASES(K, ...) switch (threads) { \
    case 512: K<T, 512 __VA_ARGS__><<<blocks, threads, smem>>>(d_in, d_out, n); break; \
    case 256: K<T, 256 __VA_ARGS__><<<blocks, threads, smem>>>(d_in, d_out, n); break; \
    case 128: K<T, 128 __VA_ARGS__><<<blocks, threads, smem>>>(d_in, d_out, n); break; \
    case 64: K<T, 64 __VA_ARGS__><<<blocks, threads, smem>>>(d_in, d_out, n); break; }
  switch (which) {
    case 0: reduce0<T><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 1: reduce1<T><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 2: reduce2<T><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 3: reduce3<T><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 4: CASES(reduce4) break;
    case 5: CASES(reduce5) break;
    case 6: if (p2) { CASES(reduce6, , true) } else { CASES(reduce6, , false) } break;
    case 7: CASES(reduceLegacy) break;
  }
  *outBlocks = blocks;
  std::vector<T> part(blocks);
  musaError_t e = musaMemcpy(part.data(), d_out, blocks * sizeof(T), musaMemcpyDeviceToHost);
  if (e != musaSuccess) { printf("kernel %d: %s\n", which, musaGetErrorString(e)); ok = false; }
  T s = 0;
  for (int b = 0; b < blocks; ++b) s += part[b];
  return s;
}

int main() {
  const int sizes[] = {1 << 16, 12345};
  for (int n : sizes) {
    std::vector<int> h(n);
    srand(n);
    long long ref = 0;
    for (int i = 0; i < n; ++i) { h[i] = rand() & 0xff; ref += h[i]; }
    int *d_in, *d_out;
    musaMalloc(&d_in, n * sizeof(int));
    musaMalloc(&d_out, n * sizeof(int));
    musaMemcpy(d_in, h.data(), n * sizeof(int), musaMemcpyHostToDevice);
    for (int which = 0; which <= 7; ++which)
      for (int threads : {64, 128, 256, 512}) {
        int blocks;
        int got = runKernel<int>(which, threads, n, d_in, d_out, &blocks);
        if (got != ref) { printf("reduce%d n=%d threads=%d blocks=%d: %d want %lld\n", which, n, threads, blocks, got, ref); ok = false; }
      }
    musaFree(d_in); musaFree(d_out);
  }
  // double through the SharedMemory<double> specialisation
  {
    const int n = 10000;
    std::vector<double> h(n);
    double ref = 0;
    for (int i = 0; i < n; ++i) { h[i] = (i % 17) * 0.25; ref += h[i]; }
    double *d_in, *d_out;
    musaMalloc(&d_in, n * sizeof(double)); musaMalloc(&d_out, n * sizeof(double));
    musaMemcpy(d_in, h.data(), n * sizeof(double), musaMemcpyHostToDevice);
    for (int which : {2, 5, 6}) {
      int blocks;
      double got = runKernel<double>(which, 256, n, d_in, d_out, &blocks);
      if (got != ref) { printf("double reduce%d: %f want %f\n", which, got, ref); ok = false; }
    }
    musaFree(d_in); musaFree(d_out);
  }
  printf("reduction variants: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
