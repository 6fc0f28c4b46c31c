// Dynamic programming row by row (Rodinia pathfinder style): the cheapest path from top to bottom of a 100x8192 cost grid, each row a kernel reading the previous row's minima of three neighbours.
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

__global__ void dpRow(const int *cost, const int *prev, int *next, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  int best = prev[c];
  if (c > 0)
    best = min(best, prev[c - 1]);
  if (c < cols - 1)
    best = min(best, prev[c + 1]);
  next[c] = best + cost[c];
}

int main() {
  const int rows = 100, cols = 8192;
  int *grid = (int *)malloc(rows * cols * sizeof(int));
  unsigned seed = 17;
  for (int i = 0; i < rows * cols; ++i) {
    seed = seed * 1103515245u + 12345u;
    grid[i] = (seed >> 16) % 10;
  }
  int *dGrid, *dA, *dB;
  CHECK(musaMalloc(&dGrid, rows * cols * sizeof(int)));
  CHECK(musaMalloc(&dA, cols * sizeof(int)));
  CHECK(musaMalloc(&dB, cols * sizeof(int)));
  CHECK(musaMemcpy(dGrid, grid, rows * cols * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dA, grid, cols * sizeof(int), musaMemcpyHostToDevice));
  for (int r = 1; r < rows; ++r) {
    dpRow<<<cols / 256, 256>>>(dGrid + r * cols, dA, dB, cols);
    int *t = dA;
    dA = dB;
    dB = t;
  }
  CHECK(musaGetLastError());
  int *res = (int *)malloc(cols * sizeof(int)), *prev = (int *)malloc(cols * sizeof(int));
  int *next = (int *)malloc(cols * sizeof(int));
  CHECK(musaMemcpy(res, dA, cols * sizeof(int), musaMemcpyDeviceToHost));
  for (int c = 0; c < cols; ++c)
    prev[c] = grid[c];
  for (int r = 1; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      int best = prev[c];
      if (c > 0 && prev[c - 1] < best)
        best = prev[c - 1];
      if (c < cols - 1 && prev[c + 1] < best)
        best = prev[c + 1];
      next[c] = best + grid[r * cols + c];
    }
    int *t = prev;
    prev = next;
    next = t;
  }
  int bad = 0, cheapest = 1 << 30;
  for (int c = 0; c < cols; ++c) {
    bad += res[c] != prev[c];
    cheapest = res[c] < cheapest ? res[c] : cheapest;
  }
  printf("pathfinder: %dx%d grid, cheapest path %d, %s\n", rows, cols, cheapest, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
