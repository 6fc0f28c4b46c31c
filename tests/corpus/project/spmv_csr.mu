// Sparse matrix-vector product in CSR form: a scalar kernel (one thread per row) and a vector kernel (one warp per row, shuffle reduction), on a banded random matrix.
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

__global__ void spmvScalar(int rows, const int *rowPtr, const int *cols, const float *vals,
                           const float *x, float *y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int k = rowPtr[r]; k < rowPtr[r + 1]; ++k)
      s += vals[k] * x[cols[k]];
    y[r] = s;
  }
}

__global__ void spmvVector(int rows, const int *rowPtr, const int *cols, const float *vals,
                           const float *x, float *y) {
  int lane = threadIdx.x % warpSize;
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  float s = 0.0f;
  if (r < rows)
    for (int k = rowPtr[r] + lane; k < rowPtr[r + 1]; k += warpSize)
      s += vals[k] * x[cols[k]];
  for (int o = warpSize / 2; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if (r < rows && lane == 0)
    y[r] = s;
}

int main() {
  const int rows = 8192;
  int *rowPtr = (int *)malloc((rows + 1) * sizeof(int));
  int cap = rows * 40, nnz = 0;
  int *cols = (int *)malloc(cap * sizeof(int));
  float *vals = (float *)malloc(cap * sizeof(float));
  unsigned seed = 5;
  for (int r = 0; r < rows; ++r) {
    rowPtr[r] = nnz;
    seed = seed * 1664525u + 1013904223u;
    int len = 1 + (seed >> 24) % 32;
    for (int k = 0; k < len; ++k) {
      int c = (r + k * 37) % rows;
      cols[nnz] = c;
      vals[nnz++] = (float)((r + c) % 9 - 4) * 0.5f;
    }
  }
  rowPtr[rows] = nnz;
  float *x = (float *)malloc(rows * sizeof(float)), *y = (float *)malloc(rows * sizeof(float));
  for (int i = 0; i < rows; ++i)
    x[i] = (float)(i % 13) * 0.25f;
  int *dRow, *dCol;
  float *dVal, *dx, *dy;
  CHECK(musaMalloc(&dRow, (rows + 1) * sizeof(int)));
  CHECK(musaMalloc(&dCol, nnz * sizeof(int)));
  CHECK(musaMalloc(&dVal, nnz * sizeof(float)));
  CHECK(musaMalloc(&dx, rows * sizeof(float)));
  CHECK(musaMalloc(&dy, rows * sizeof(float)));
  CHECK(musaMemcpy(dRow, rowPtr, (rows + 1) * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dCol, cols, nnz * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dVal, vals, nnz * sizeof(float), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dx, x, rows * sizeof(float), musaMemcpyHostToDevice));
  int ws = 0;
  CHECK(musaDeviceGetAttribute(&ws, musaDevAttrWarpSize, 0));
  int bad = 0;
  for (int variant = 0; variant < 2; ++variant) {
    CHECK(musaMemset(dy, 0, rows * sizeof(float)));
    if (variant == 0)
      spmvScalar<<<(rows + 255) / 256, 256>>>(rows, dRow, dCol, dVal, dx, dy);
    else
      spmvVector<<<(rows * ws + 255) / 256, 256>>>(rows, dRow, dCol, dVal, dx, dy);
    CHECK(musaGetLastError());
    CHECK(musaMemcpy(y, dy, rows * sizeof(float), musaMemcpyDeviceToHost));
    for (int r = 0; r < rows; ++r) {
      float ref = 0.0f; // products are multiples of 1/8 below 2^10: sums are exact
      for (int k = rowPtr[r]; k < rowPtr[r + 1]; ++k)
        ref += vals[k] * x[cols[k]];
      if (y[r] != ref && bad++ < 5)
        printf("variant %d row %d: %f != %f\n", variant, r, y[r], ref);
    }
  }
  printf("spmv_csr: %d rows, %d nonzeros, scalar and vector kernels, %s\n", rows, nnz,
         bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
