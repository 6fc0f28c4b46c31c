// threadFenceReduction-style: single-pass sum with last-block-done pattern.
#include <musa_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

__device__ unsigned int retirementCount = 0;

template <unsigned int blockSize>
__device__ void reduceBlock(volatile float *sdata, float mySum, const unsigned int tid) {
  sdata[tid] = mySum;
  __syncthreads();
  if (blockSize >= 512) { if (tid < 256) sdata[tid] = mySum = mySum + sdata[tid + 256]; __syncthreads(); }
  if (blockSize >= 256) { if (tid < 128) sdata[tid] = mySum = mySum + sdata[tid + 128]; __syncthreads(); }
  if (blockSize >= 128) { if (tid < 64) sdata[tid] = mySum = mySum + sdata[tid + 64]; __syncthreads(); }
  for (unsigned s = 32; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
}

template <unsigned int blockSize, bool nIsPow2>
__device__ void reduceBlocks(const float *g_idata, float *g_odata, unsigned int n) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  float mySum = 0;
  while (i < n) {
    mySum += g_idata[i];
    if (nIsPow2 || i + blockSize < n) mySum += g_idata[i + blockSize];
    i += gridSize;
  }
  reduceBlock<blockSize>(sdata, mySum, tid);
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

template <unsigned int blockSize, bool nIsPow2>
__global__ void reduceSinglePass(const float *g_idata, float *g_odata, unsigned int n) {
  reduceBlocks<blockSize, nIsPow2>(g_idata, g_odata, n);
  if (gridDim.x > 1) {
    const unsigned int tid = threadIdx.x;
    __shared__ bool amLast;
    extern float __shared__ smem[];
    if (tid == 0) {
      __threadfence();
      unsigned int ticket = atomicInc(&retirementCount, gridDim.x);
      amLast = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (amLast) {
      int i = tid;
      float mySum = 0;
      while (i < gridDim.x) {
        mySum += ((volatile float *)g_odata)[i];
        i += blockSize;
      }
      reduceBlock<blockSize>(smem, mySum, tid);
      if (tid == 0) {
        g_odata[0] = smem[0];
        retirementCount = 0;
      }
    }
  }
}

template <bool p2>
void launch(int threads, int blocks, const float *d_in, float *d_out, unsigned n) {
  size_t smem = threads * sizeof(float);
  switch (threads) {
    case 512: reduceSinglePass<512, p2><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 256: reduceSinglePass<256, p2><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 128: reduceSinglePass<128, p2><<<blocks, threads, smem>>>(d_in, d_out, n); break;
    case 64: reduceSinglePass<64, p2><<<blocks, threads, smem>>>(d_in, d_out, n); break;
  }
}

int main() {
  bool ok = true;
  const unsigned sizes[] = {1u << 18, 100003u, 4096u, 777u};
  const int threadsList[] = {512, 256, 128, 64};
  for (unsigned n : sizes) {
    std::vector<float> h(n);
    srand(n);
    for (unsigned i = 0; i < n; ++i) h[i] = (float)(rand() & 0x3F);  // integer sums below 2^24: exact in any order
    double ref = 0;
    for (unsigned i = 0; i < n; ++i) ref += h[i];
    float *d_in, *d_out;
    musaMalloc(&d_in, n * sizeof(float));
    musaMalloc(&d_out, 1024 * sizeof(float));
    musaMemcpy(d_in, h.data(), n * sizeof(float), musaMemcpyHostToDevice);
    for (int threads : threadsList) {
      int blocks = (n + threads * 2 - 1) / (threads * 2);
      if (blocks > 64) blocks = 64;
      // repeat: retirementCount must be reset by the last block each time
      for (int rep = 0; rep < 3; ++rep) {
        musaMemset(d_out, 0xff, 1024 * sizeof(float));
        bool p2 = (n & (n - 1)) == 0;
        if (p2) launch<true>(threads, blocks, d_in, d_out, n);
        else launch<false>(threads, blocks, d_in, d_out, n);
        musaError_t e = musaDeviceSynchronize();
        float got;
        musaMemcpy(&got, d_out, sizeof(float), musaMemcpyDeviceToHost);
        if (e != musaSuccess || got != (float)ref) {
          printf("n=%u threads=%d blocks=%d rep=%d: got %f want %f (%s)\n", n, threads, blocks, rep, got,
                 ref, musaGetErrorString(e));
          ok = false;
        }
      }
    }
    unsigned rc;
    musaMemcpyFromSymbol(&rc, retirementCount, sizeof(rc));
    if (rc != 0) { printf("retirementCount=%u not reset\n", rc); ok = false; }
    musaFree(d_in);
    musaFree(d_out);
  }
  printf("threadFenceReduction: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
