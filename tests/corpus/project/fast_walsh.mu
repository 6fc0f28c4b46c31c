// fastWalshTransform-style dyadic convolution: global-memory radix-2 passes for large strides,
// a shared-memory radix-4 kernel for the last log2(N)-... stages, pointwise modulation, and the
// inverse transform; integer-valued floats keep everything exact. Checked against a direct
// O(N * K) dyadic convolution on the host.
#include <musa_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define ELEMENTARY_LOG2SIZE 11

__global__ void fwtBatch1Kernel(float *d_Output, float *d_Input, int log2N) {
  const int N = 1 << log2N;
  const int base = blockIdx.x << log2N;
  extern __shared__ float s_data[];
  float *d_Src = d_Input + base;
  float *d_Dst = d_Output + base;
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) s_data[pos] = d_Src[pos];
  int stride = N;
  // radix-4 passes
  for (; stride >= 4; stride >>= 2) {
    __syncthreads();
    for (int pos = threadIdx.x; pos < N / 4; pos += blockDim.x) {
      int lo = pos & (stride / 4 - 1);
      int i0 = ((pos - lo) << 2) + lo;
      int i1 = i0 + stride / 4, i2 = i1 + stride / 4, i3 = i2 + stride / 4;
      float D0 = s_data[i0], D1 = s_data[i1], D2 = s_data[i2], D3 = s_data[i3];
      float T;
      T = D0; D0 = D0 + D2; D2 = T - D2;
      T = D1; D1 = D1 + D3; D3 = T - D3;
      T = D0; s_data[i0] = D0 + D1; s_data[i1] = T - D1;
      T = D2; s_data[i2] = D2 + D3; s_data[i3] = T - D3;
    }
  }
  // odd log2N: one radix-2 pass
  if (log2N & 1) {
    __syncthreads();
    for (int pos = threadIdx.x; pos < N / 2; pos += blockDim.x) {
      int i0 = pos << 1, i1 = i0 + 1;
      float D0 = s_data[i0], D1 = s_data[i1];
      s_data[i0] = D0 + D1;
      s_data[i1] = D0 - D1;
    }
  }
  __syncthreads();
  for (int pos = threadIdx.x; pos < N; pos += blockDim.x) d_Dst[pos] = s_data[pos];
}

// single radix-4 pass in global memory over the whole array
__global__ void fwtBatch2Kernel(float *d_Output, float *d_Input, int stride) {
  const int pos = blockIdx.x * blockDim.x + threadIdx.x;
  const int N = blockDim.x * gridDim.x * 4;
  float *d_Src = d_Input + blockIdx.y * N;
  float *d_Dst = d_Output + blockIdx.y * N;
  int lo = pos & (stride - 1);
  int i0 = ((pos - lo) << 2) + lo;
  int i1 = i0 + stride, i2 = i1 + stride, i3 = i2 + stride;
  float D0 = d_Src[i0], D1 = d_Src[i1], D2 = d_Src[i2], D3 = d_Src[i3];
  float T;
  T = D0; D0 = D0 + D2; D2 = T - D2;
  T = D1; D1 = D1 + D3; D3 = T - D3;
  T = D0; d_Dst[i0] = D0 + D1; d_Dst[i1] = T - D1;
  T = D2; d_Dst[i2] = D2 + D3; d_Dst[i3] = T - D3;
}

void fwtGPU(float *d_Data, int M, int log2N) {
  const int THREAD_N = 256;
  int N = 1 << log2N;
  dim3 grid((1 << log2N) / (4 * THREAD_N), M, 1);
  for (; log2N > ELEMENTARY_LOG2SIZE; log2N -= 2, N >>= 2, M <<= 2) {
    fwtBatch2Kernel<<<grid, THREAD_N>>>(d_Data, d_Data, N / 4);
  }
  fwtBatch1Kernel<<<M, N / 4, N * sizeof(float)>>>(d_Data, d_Data, log2N);
}

__global__ void modulateKernel(float *d_A, float *d_B, int N) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int numThreads = blockDim.x * gridDim.x;
  float rcpN = 1.0f / (float)N;
  for (int pos = tid; pos < N; pos += numThreads) d_A[pos] *= d_B[pos] * rcpN;
}

int main() {
  bool ok = true;
  for (int log2Data : {12, 13, 11, 9}) {
    const int dataN = 1 << log2Data, kernelN = 64;
    std::vector<float> h_Data(dataN), h_Kernel(kernelN), h_Res(dataN);
    srand(log2Data);
    for (int i = 0; i < kernelN; ++i) h_Kernel[i] = (float)(rand() % 5 - 2);
    for (int i = 0; i < dataN; ++i) h_Data[i] = (float)(rand() % 7 - 3);
    float *d_Data, *d_Kernel;
    musaMalloc(&d_Data, dataN * sizeof(float));
    musaMalloc(&d_Kernel, dataN * sizeof(float));
    musaMemset(d_Kernel, 0, dataN * sizeof(float));
    musaMemcpy(d_Kernel, h_Kernel.data(), kernelN * sizeof(float), musaMemcpyHostToDevice);
    musaMemcpy(d_Data, h_Data.data(), dataN * sizeof(float), musaMemcpyHostToDevice);
    fwtGPU(d_Data, 1, log2Data);
    fwtGPU(d_Kernel, 1, log2Data);
    modulateKernel<<<128, 256>>>(d_Data, d_Kernel, dataN);
    fwtGPU(d_Data, 1, log2Data);
    musaError_t e = musaMemcpy(h_Res.data(), d_Data, dataN * sizeof(float), musaMemcpyDeviceToHost);
    if (e != musaSuccess || musaDeviceSynchronize() != musaSuccess) { printf("error %s\n", musaGetErrorString(musaGetLastError())); ok = false; }
    int bad = 0;
    for (int i = 0; i < dataN; ++i) {
      double sum = 0;
      for (int j = 0; j < kernelN; ++j) sum += (double)h_Data[i ^ j] * h_Kernel[j];
      if (h_Res[i] != (float)sum) { if (bad++ < 3) printf("log2N=%d [%d]: %f want %f\n", log2Data, i, h_Res[i], sum); }
    }
    if (bad) ok = false;
    musaFree(d_Data); musaFree(d_Kernel);
  }
  printf("fastWalshTransform: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
