// K-means (Rodinia kmeans style): the device assigns each of 2^14 points to the nearest of 8 centroids held in __constant__ memory and accumulates per-cluster sums with float atomics; the host updates centroids for 5 iterations.
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

#define K 8
#define DIM 4

__constant__ float c_centroids[K * DIM];

__global__ void assign(const float *pts, int n, int *membership, float *sums, int *counts) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int best = 0;
  float bestD = 3.0e38f;
  for (int k = 0; k < K; ++k) {
    float d = 0.0f;
    for (int j = 0; j < DIM; ++j) {
      float t = pts[i * DIM + j] - c_centroids[k * DIM + j];
      d += t * t;
    }
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  membership[i] = best;
  for (int j = 0; j < DIM; ++j)
    atomicAdd(&sums[best * DIM + j], pts[i * DIM + j]);
  atomicAdd(&counts[best], 1);
}

int main() {
  const int n = 1 << 14, iters = 5;
  float *pts = (float *)malloc(n * DIM * sizeof(float)), cent[K * DIM];
  unsigned seed = 3;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < DIM; ++j) {
      seed = seed * 1664525u + 1013904223u;
      // Clustered data: 8 well-separated blobs, coordinates on a 1/64 grid.
      pts[i * DIM + j] = (float)((i % K) * 10 + ((seed >> 20) % 128) / 64.0f);
    }
  for (int k = 0; k < K * DIM; ++k)
    cent[k] = pts[k]; // the first K points
  float *dPts, *dSums;
  int *dMem, *dCounts;
  CHECK(musaMalloc(&dPts, n * DIM * sizeof(float)));
  CHECK(musaMalloc(&dSums, K * DIM * sizeof(float)));
  CHECK(musaMalloc(&dMem, n * sizeof(int)));
  CHECK(musaMalloc(&dCounts, K * sizeof(int)));
  CHECK(musaMemcpy(dPts, pts, n * DIM * sizeof(float), musaMemcpyHostToDevice));
  int *mem = (int *)malloc(n * sizeof(int)), counts[K];
  float sums[K * DIM];
  int bad = 0;
  for (int it = 0; it < iters; ++it) {
    CHECK(musaMemcpyToSymbol(c_centroids, cent, sizeof cent));
    CHECK(musaMemset(dSums, 0, sizeof sums));
    CHECK(musaMemset(dCounts, 0, sizeof counts));
    assign<<<n / 256, 256>>>(dPts, n, dMem, dSums, dCounts);
    CHECK(musaGetLastError());
    CHECK(musaMemcpy(mem, dMem, n * sizeof(int), musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(sums, dSums, sizeof sums, musaMemcpyDeviceToHost));
    CHECK(musaMemcpy(counts, dCounts, sizeof counts, musaMemcpyDeviceToHost));
    // Host check of this iteration: same assignment rule, exact sums (multiples of 1/64).
    float refSums[K * DIM] = {0};
    int refCounts[K] = {0};
    for (int i = 0; i < n; ++i) {
      int best = 0;
      float bestD = 3.0e38f;
      for (int k = 0; k < K; ++k) {
        float d = 0.0f;
        for (int j = 0; j < DIM; ++j) {
          float t = pts[i * DIM + j] - cent[k * DIM + j];
          d += t * t;
        }
        if (d < bestD) {
          bestD = d;
          best = k;
        }
      }
      bad += mem[i] != best;
      ++refCounts[best];
      for (int j = 0; j < DIM; ++j)
        refSums[best * DIM + j] += pts[i * DIM + j];
    }
    for (int k = 0; k < K; ++k) {
      bad += counts[k] != refCounts[k];
      for (int j = 0; j < DIM; ++j) {
        bad += sums[k * DIM + j] != refSums[k * DIM + j];
        if (counts[k])
          cent[k * DIM + j] = sums[k * DIM + j] / counts[k];
      }
    }
  }
  printf("kmeans_assign: %d points, %d clusters, %d iterations, cluster 0 has %d, %s\n", n, K, iters,
         counts[0], bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
