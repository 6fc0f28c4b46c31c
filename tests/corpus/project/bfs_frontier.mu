// Level-synchronous breadth-first search (Rodinia bfs style) on a CSR graph: frontier masks, a visited array and a 'changed' flag read back after each level.
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

__global__ void expandFrontier(int nodes, const int *rowPtr, const int *adj, const char *frontier,
                               char *next, int *level, int depth, int *changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= nodes || !frontier[v])
    return;
  for (int k = rowPtr[v]; k < rowPtr[v + 1]; ++k) {
    int u = adj[k];
    if (atomicCAS(&level[u], -1, depth + 1) == -1) {
      next[u] = 1;
      *changed = 1;
    }
  }
}

int main() {
  // A 2D grid graph of 128x128 nodes with 4-neighbour edges plus some long "shortcut" edges.
  const int W = 128, nodes = W * W;
  int *rowPtr = (int *)malloc((nodes + 1) * sizeof(int)), *adj = (int *)malloc(nodes * 6 * sizeof(int));
  int m = 0;
  for (int v = 0; v < nodes; ++v) {
    rowPtr[v] = m;
    int x = v % W, y = v / W;
    if (x > 0) adj[m++] = v - 1;
    if (x < W - 1) adj[m++] = v + 1;
    if (y > 0) adj[m++] = v - W;
    if (y < W - 1) adj[m++] = v + W;
    if (v % 97 == 0) adj[m++] = (v * 31) % nodes;
  }
  rowPtr[nodes] = m;
  int *ref = (int *)malloc(nodes * sizeof(int)), *queue = (int *)malloc(nodes * sizeof(int));
  for (int v = 0; v < nodes; ++v)
    ref[v] = -1;
  int head = 0, tail = 0;
  ref[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    int v = queue[head++];
    for (int k = rowPtr[v]; k < rowPtr[v + 1]; ++k)
      if (ref[adj[k]] < 0) {
        ref[adj[k]] = ref[v] + 1;
        queue[tail++] = adj[k];
      }
  }
  int *dRow, *dAdj, *dLevel, *dChanged;
  char *dF, *dN;
  CHECK(musaMalloc(&dRow, (nodes + 1) * sizeof(int)));
  CHECK(musaMalloc(&dAdj, m * sizeof(int)));
  CHECK(musaMalloc(&dLevel, nodes * sizeof(int)));
  CHECK(musaMalloc(&dChanged, sizeof(int)));
  CHECK(musaMalloc(&dF, nodes));
  CHECK(musaMalloc(&dN, nodes));
  CHECK(musaMemcpy(dRow, rowPtr, (nodes + 1) * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dAdj, adj, m * sizeof(int), musaMemcpyHostToDevice));
  CHECK(musaMemset(dLevel, 0xff, nodes * sizeof(int))); // -1 everywhere
  CHECK(musaMemset(dLevel, 0, sizeof(int)));            // the source
  CHECK(musaMemset(dF, 0, nodes));
  CHECK(musaMemset(dF, 1, 1));
  int depth = 0, changed = 1;
  while (changed) {
    CHECK(musaMemset(dN, 0, nodes));
    CHECK(musaMemset(dChanged, 0, sizeof(int)));
    expandFrontier<<<(nodes + 255) / 256, 256>>>(nodes, dRow, dAdj, dF, dN, dLevel, depth, dChanged);
    CHECK(musaGetLastError());
    CHECK(musaMemcpy(&changed, dChanged, sizeof(int), musaMemcpyDeviceToHost));
    char *t = dF;
    dF = dN;
    dN = t;
    ++depth;
  }
  int *level = (int *)malloc(nodes * sizeof(int));
  CHECK(musaMemcpy(level, dLevel, nodes * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0, maxLevel = 0;
  for (int v = 0; v < nodes; ++v) {
    maxLevel = level[v] > maxLevel ? level[v] : maxLevel;
    if (level[v] != ref[v] && bad++ < 5)
      printf("node %d: level %d, expected %d\n", v, level[v], ref[v]);
  }
  printf("bfs_frontier: %d nodes, %d edges, depth %d, %s\n", nodes, m, maxLevel, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
