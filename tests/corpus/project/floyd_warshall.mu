// All-pairs shortest paths by Floyd-Warshall on 256 nodes: one kernel per intermediate vertex k over a 2D grid, integer distances compared exactly with the host.
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

#define INF 1000000000

__global__ void relax(int *dist, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    int viaK = dist[i * n + k] + dist[k * n + j];
    if (dist[i * n + k] < INF && dist[k * n + j] < INF && viaK < dist[i * n + j])
      dist[i * n + j] = viaK;
  }
}

int main() {
  const int n = 256;
  int *d0 = (int *)malloc(n * n * sizeof(int)), *res = (int *)malloc(n * n * sizeof(int));
  unsigned seed = 21;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      seed = seed * 1664525u + 1013904223u;
      d0[i * n + j] = i == j ? 0 : ((seed >> 24) < 20 ? 1 + (int)((seed >> 8) % 100) : INF);
    }
  int *dd;
  CHECK(musaMalloc(&dd, n * n * sizeof(int)));
  CHECK(musaMemcpy(dd, d0, n * n * sizeof(int), musaMemcpyHostToDevice));
  dim3 block(16, 16), grid(n / 16, n / 16);
  for (int k = 0; k < n; ++k)
    relax<<<grid, block>>>(dd, n, k);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dd, n * n * sizeof(int), musaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        if (d0[i * n + k] < INF && d0[k * n + j] < INF && d0[i * n + k] + d0[k * n + j] < d0[i * n + j])
          d0[i * n + j] = d0[i * n + k] + d0[k * n + j];
  int bad = 0, reachable = 0;
  for (int i = 0; i < n * n; ++i) {
    bad += res[i] != d0[i];
    reachable += d0[i] < INF;
  }
  printf("floyd_warshall: %d nodes, %d reachable pairs, %s\n", n, reachable, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
