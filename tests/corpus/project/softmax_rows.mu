// Row-wise softmax (HeCBench softmax style): one block per row finds the row maximum and the sum of expf with shared-memory reductions, then normalises; rows of 1000 floats.
#include <musa_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_));  \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

__global__ void softmax(const float *in, float *out, int cols) {
  __shared__ float red[256];
  const float *row = in + blockIdx.x * cols;
  float *orow = out + blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m = fmaxf(m, row[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    sum += expf(row[c] - m);
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    orow[c] = expf(row[c] - m) * inv;
}

int main() {
  const int rows = 256, cols = 1000, n = rows * cols;
  float *h = (float *)malloc(n * sizeof(float)), *res = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = sinf(i * 0.001f) * 10.0f + (i % cols) * 0.01f;
  float *din, *dout;
  CHECK(musaMalloc(&din, n * sizeof(float)));
  CHECK(musaMalloc(&dout, n * sizeof(float)));
  CHECK(musaMemcpy(din, h, n * sizeof(float), musaMemcpyHostToDevice));
  softmax<<<rows, 256>>>(din, dout, cols);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dout, n * sizeof(float), musaMemcpyDeviceToHost));
  double maxErr = 0.0, maxRowErr = 0.0;
  for (int r = 0; r < rows; ++r) {
    double m = -1e30, s = 0.0, rowSum = 0.0;
    for (int c = 0; c < cols; ++c)
      m = fmax(m, h[r * cols + c]);
    for (int c = 0; c < cols; ++c)
      s += exp(h[r * cols + c] - m);
    for (int c = 0; c < cols; ++c) {
      double ref = exp(h[r * cols + c] - m) / s;
      maxErr = fmax(maxErr, fabs(res[r * cols + c] - ref));
      rowSum += res[r * cols + c];
    }
    maxRowErr = fmax(maxRowErr, fabs(rowSum - 1.0));
  }
  bool ok = maxErr < 1e-5 && maxRowErr < 1e-4;
  printf("softmax_rows: %dx%d, max error %.3g, row sums within %.3g of 1, %s\n", rows, cols, maxErr,
         maxRowErr, ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
