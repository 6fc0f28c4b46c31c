// extern __shared__ arrays sized by the launch's third parameter, next to static shared data.
#include "check.h"

extern __shared__ float dynamicBuf[];

__global__ void reverseBlock(const float *in, float *out) {
  __shared__ int marker; // static shared memory before the dynamic area
  if (threadIdx.x == 0)
    marker = 42;
  dynamicBuf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      dynamicBuf[blockDim.x - 1 - threadIdx.x] + (marker == 42 ? 0.0f : 1000.0f);
}

template <class T> __global__ void typedScratch(T *out) {
  extern __shared__ double raw[]; // alignment of the widest type
  T *scratch = reinterpret_cast<T *>(raw);
  scratch[threadIdx.x] = T(threadIdx.x) * T(2);
  __syncthreads();
  out[threadIdx.x] = scratch[(threadIdx.x + 1) % blockDim.x];
}

int main() {
  const int threads = 200, blocks = 3, n = threads * blocks;
  float h[n], r[n];
  for (int i = 0; i < n; ++i)
    h[i] = float(i);
  float *din, *dout;
  CHECK_MUSA(musaMalloc(&din, sizeof h));
  CHECK_MUSA(musaMalloc(&dout, sizeof h));
  CHECK_MUSA(musaMemcpy(din, h, sizeof h, musaMemcpyHostToDevice));
  reverseBlock<<<blocks, threads, threads * sizeof(float)>>>(din, dout);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(r, dout, sizeof r, musaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t)
      CHECK(r[b * threads + t] == h[b * threads + threads - 1 - t], "block %d thread %d: %f", b,
            t, r[b * threads + t]);

  double *dd;
  CHECK_MUSA(musaMalloc(&dd, 64 * sizeof(double)));
  typedScratch<double><<<1, 64, 64 * sizeof(double)>>>(dd);
  CHECK_MUSA(musaGetLastError());
  double hd[64];
  CHECK_MUSA(musaMemcpy(hd, dd, sizeof hd, musaMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t)
    CHECK(hd[t] == double((t + 1) % 64) * 2, "typedScratch[%d] = %f", t, hd[t]);
  return finish("dynamic_shared");
}
