// CUDA samples "reduction" (cooperative-groups era): reduce4/reduce5/reduce6 templated on the block size (and
// nIsPow2 for reduce6), the SharedMemory<T> extern-shared trick with a double specialisation, unrolled shared tree
// down to 64 then a thread_block_tile<32> shfl_down; host switch over thread counts, getNumBlocksAndThreads and the
// multi-pass loop that reduces the partial sums on the device; int, float and double; odd sizes.
#include <musa_runtime.h>
#include <cooperative_groups.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

template <class T>
struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};
template <>
struct SharedMemory<double> {
  __device__ inline operator double *() {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }
  __device__ inline operator const double *() const {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }
};

template <class T, unsigned int blockSize>
__global__ void reduce4(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n)
    mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  cg::sync(cta);
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) {
      sdata[tid] = mySum = mySum + sdata[tid + s];
    }
    cg::sync(cta);
  }
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (blockSize >= 64)
      mySum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) {
      mySum += tile32.shfl_down(mySum, offset);
    }
  }
  if (cta.thread_rank() == 0)
    g_odata[blockIdx.x] = mySum;
}

template <class T, unsigned int blockSize>
__global__ void reduce5(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  T mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockSize < n)
    mySum += g_idata[i + blockSize];
  sdata[tid] = mySum;
  cg::sync(cta);
  if ((blockSize >= 512) && (tid < 256)) {
    sdata[tid] = mySum = mySum + sdata[tid + 256];
  }
  cg::sync(cta);
  if ((blockSize >= 256) && (tid < 128)) {
    sdata[tid] = mySum = mySum + sdata[tid + 128];
  }
  cg::sync(cta);
  if ((blockSize >= 128) && (tid < 64)) {
    sdata[tid] = mySum = mySum + sdata[tid + 64];
  }
  cg::sync(cta);
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (blockSize >= 64)
      mySum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) {
      mySum += tile32.shfl_down(mySum, offset);
    }
  }
  if (cta.thread_rank() == 0)
    g_odata[blockIdx.x] = mySum;
}

template <class T, unsigned int blockSize, bool nIsPow2>
__global__ void reduce6(T *g_idata, T *g_odata, unsigned int n) {
  cg::thread_block cta = cg::this_thread_block();
  T *sdata = SharedMemory<T>();
  unsigned int tid = threadIdx.x;
  unsigned int gridSize = blockSize * gridDim.x;
  T mySum = 0;
  if (nIsPow2) {
    unsigned int i = blockIdx.x * blockSize * 2 + threadIdx.x;
    gridSize = gridSize << 1;
    while (i < n) {
      mySum += g_idata[i];
      if ((i + blockSize) < n) {
        mySum += g_idata[i + blockSize];
      }
      i += gridSize;
    }
  } else {
    unsigned int i = blockIdx.x * blockSize + threadIdx.x;
    while (i < n) {
      mySum += g_idata[i];
      i += gridSize;
    }
  }
  sdata[tid] = mySum;
  cg::sync(cta);
  if ((blockSize >= 512) && (tid < 256)) {
    sdata[tid] = mySum = mySum + sdata[tid + 256];
  }
  cg::sync(cta);
  if ((blockSize >= 256) && (tid < 128)) {
    sdata[tid] = mySum = mySum + sdata[tid + 128];
  }
  cg::sync(cta);
  if ((blockSize >= 128) && (tid < 64)) {
    sdata[tid] = mySum = mySum + sdata[tid + 64];
  }
  cg::sync(cta);
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (blockSize >= 64)
      mySum += sdata[tid + 32];
    for (int offset = tile32.size() / 2; offset > 0; offset /= 2) {
      mySum += tile32.shfl_down(mySum, offset);
    }
  }
  if (cta.thread_rank() == 0)
    g_odata[blockIdx.x] = mySum;
}

bool isPow2(unsigned int x) { return ((x & (x - 1)) == 0); }
unsigned int nextPow2(unsigned int x) {
  --x;
  x |= x >> 1;
  x |= x >> 2;
  x |= x >> 4;
  x |= x >> 8;
  x |= x >> 16;
  return ++x;
}

#define MIN(x, y) ((x < y) ? x : y)

void getNumBlocksAndThreads(int whichKernel, int n, int maxBlocks, int maxThreads, int &blocks, int &threads) {
  threads = (n < maxThreads * 2) ? nextPow2((n + 1) / 2) : maxThreads;
  if (threads < 64)
    threads = 64;  // the tile32 tail needs a full 64-thread block
  blocks = (n + (threads * 2 - 1)) / (threads * 2);
  if (whichKernel == 6)
    blocks = MIN(maxBlocks, blocks);
}

template <class T>
void reduce(int size, int threads, int blocks, int whichKernel, T *d_idata, T *d_odata) {
  dim3 dimBlock(threads, 1, 1);
  dim3 dimGrid(blocks, 1, 1);
  int smemSize = (threads <= 32) ? 2 * threads * sizeof(T) : threads * sizeof(T);
#define CASES(KERNEL)                                                                      \
  switch (threads) {                                                                       \
    case 512: KERNEL<T, 512><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break; \
    case 256: KERNEL<T, 256><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break; \
    case 128: KERNEL<T, 128><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break; \
    case 64: KERNEL<T, 64><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;   \
  }
  switch (whichKernel) {
    case 4:
      CASES(reduce4);
      break;
    case 5:
      CASES(reduce5);
      break;
    case 6:
    default:
      if (isPow2(size)) {
        switch (threads) {
          case 512: reduce6<T, 512, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
          case 256: reduce6<T, 256, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
          case 128: reduce6<T, 128, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
          case 64: reduce6<T, 64, true><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
        }
      } else {
        switch (threads) {
          case 512: reduce6<T, 512, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
          case 256: reduce6<T, 256, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
          case 128: reduce6<T, 128, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
          case 64: reduce6<T, 64, false><<<dimGrid, dimBlock, smemSize>>>(d_idata, d_odata, size); break;
        }
      }
      break;
  }
#undef CASES
}

template <class T>
T benchmarkReduce(int n, int numThreads, int numBlocks, int maxThreads, int maxBlocks, int whichKernel,
                  T *d_idata, T *d_odata, T *d_intermediate, float *ms) {
  musaEvent_t e0, e1;
  CHECK(musaEventCreate(&e0));
  CHECK(musaEventCreate(&e1));
  CHECK(musaEventRecord(e0));
  reduce<T>(n, numThreads, numBlocks, whichKernel, d_idata, d_odata);
  CHECK(musaGetLastError());
  int s = numBlocks;
  while (s > 1) {
    int threads = 0, blocks = 0;
    getNumBlocksAndThreads(whichKernel, s, maxBlocks, maxThreads, blocks, threads);
    CHECK(musaMemcpy(d_intermediate, d_odata, s * sizeof(T), musaMemcpyDeviceToDevice));
    reduce<T>(s, threads, blocks, whichKernel, d_intermediate, d_odata);
    s = (s + (threads * 2 - 1)) / (threads * 2);
  }
  CHECK(musaEventRecord(e1));
  CHECK(musaEventSynchronize(e1));
  CHECK(musaGetLastError());
  CHECK(musaEventElapsedTime(ms, e0, e1));
  T gpu_result;
  CHECK(musaMemcpy(&gpu_result, d_odata, sizeof(T), musaMemcpyDeviceToHost));
  musaEventDestroy(e0);
  musaEventDestroy(e1);
  return gpu_result;
}

template <class T>
int runTest(const char *tname, int size, int maxThreads, int whichKernel) {
  int maxBlocks = 64;
  T *h_idata = (T *)malloc(size * sizeof(T));
  for (int i = 0; i < size; i++) {
    if (sizeof(T) == 4 && (T)0.5 == 0)
      h_idata[i] = (T)(rand() & 0xFF);
    else
      h_idata[i] = (rand() & 0xFF) / (T)RAND_MAX;
  }
  int numBlocks = 0, numThreads = 0;
  getNumBlocksAndThreads(whichKernel, size, maxBlocks, maxThreads, numBlocks, numThreads);
  T *d_idata, *d_odata, *d_intermediate;
  CHECK(musaMalloc((void **)&d_idata, size * sizeof(T)));
  CHECK(musaMalloc((void **)&d_odata, numBlocks * sizeof(T)));
  CHECK(musaMalloc((void **)&d_intermediate, numBlocks * sizeof(T)));
  CHECK(musaMemcpy(d_idata, h_idata, size * sizeof(T), musaMemcpyHostToDevice));
  float ms = 0;
  T gpu = benchmarkReduce<T>(size, numThreads, numBlocks, maxThreads, maxBlocks, whichKernel, d_idata, d_odata,
                             d_intermediate, &ms);
  // Kahan-summed host reference
  double sum = 0, c = 0, mag = 0;
  for (int i = 0; i < size; i++) {
    double y = (double)h_idata[i] - c, t = sum + y;
    c = (t - sum) - y;
    sum = t;
    mag += fabs((double)h_idata[i]);
  }
  bool ok;
  if (sizeof(T) == 4 && (T)0.5 == 0)
    ok = (double)gpu == sum;
  else
    ok = fabs((double)gpu - sum) <= (sizeof(T) == 4 ? 1e-5 : 1e-12) * (mag + 1e-300);
  printf("reduce%d<%s> n=%d threads=%d blocks=%d: %.3f ms, gpu %.10g cpu %.10g%s\n", whichKernel, tname, size,
         numThreads, numBlocks, ms, (double)gpu, sum, ok ? "" : " MISMATCH");
  musaFree(d_idata); musaFree(d_odata); musaFree(d_intermediate);
  free(h_idata);
  return ok ? 0 : 1;
}

int main() {
  srand(2024);
  int bad = 0;
  int sizes[4] = {1 << 16, 100003, 777, 4096};
  int maxThreadsList[4] = {256, 512, 128, 64};
  for (int k = 4; k <= 6; k++)
    for (int s = 0; s < 4; s++) {
      bad += runTest<int>("int", sizes[s], maxThreadsList[s], k);
      bad += runTest<float>("float", sizes[s], maxThreadsList[(s + 1) % 4], k);
      bad += runTest<double>("double", sizes[s], maxThreadsList[(s + 2) % 4], k);
    }
  printf("reduction_templated: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
