// Repro (timing model): a kernel whose grid is one full block plus a block with a single live thread is timed as if
// every thread made the tail block's uncoalesced accesses: n = 257 with 256-thread blocks takes ~50x longer in
// simulated time than n = 256 or n = 512 or n = 1025, although it does half the work of n = 512.
// (Found with SHOC md's neighbour-list kernel at 257 atoms; this is the same access pattern: column-major
// neighbour list neighList[j*n + i], one thread per atom, 32 neighbours.)
#include <musa_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void gather(const float4 *pos, const int *neigh, int nneigh, int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float4 p = pos[i];
  float acc = 0.f;
  for (int j = 0; j < nneigh; j++) {
    float4 q = pos[neigh[j * n + i]];
    float dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z;
    acc += dx * dx + dy * dy + dz * dz;
  }
  out[i] = acc;
}

static float timeIt(int n, int block) {
  const int nneigh = 32;
  float4 *hp = (float4 *)malloc(n * sizeof(float4));
  int *hn = (int *)malloc(n * nneigh * sizeof(int));
  for (int i = 0; i < n; i++)
    hp[i] = make_float4(i * 0.5f, i * 0.25f, i * 0.125f, 0.f);
  for (int j = 0; j < nneigh; j++)
    for (int i = 0; i < n; i++)
      hn[j * n + i] = (i + j + 1) % n;
  float4 *dp;
  int *dn;
  float *dout;
  musaMalloc(&dp, n * sizeof(float4));
  musaMalloc(&dn, n * nneigh * sizeof(int));
  musaMalloc(&dout, n * sizeof(float));
  musaMemcpy(dp, hp, n * sizeof(float4), musaMemcpyHostToDevice);
  musaMemcpy(dn, hn, n * nneigh * sizeof(int), musaMemcpyHostToDevice);
  musaEvent_t e0, e1;
  musaEventCreate(&e0);
  musaEventCreate(&e1);
  gather<<<(n + block - 1) / block, block>>>(dp, dn, nneigh, n, dout);  // warm-up
  musaEventRecord(e0);
  gather<<<(n + block - 1) / block, block>>>(dp, dn, nneigh, n, dout);
  musaEventRecord(e1);
  musaEventSynchronize(e1);
  float ms;
  musaEventElapsedTime(&ms, e0, e1);
  musaFree(dp); musaFree(dn); musaFree(dout); musaEventDestroy(e0); musaEventDestroy(e1);
  free(hp); free(hn);
  return ms;
}

int main() {
  int ns[5] = {256, 257, 300, 512, 1025};
  float t[5];
  for (int k = 0; k < 5; k++) {
    t[k] = timeIt(ns[k], 256);
    printf("n=%4d, 256-thread blocks: %.4f ms\n", ns[k], t[k]);
  }
  int bad = t[1] > 4 * t[3];  // 257 atoms should not cost several times 512 atoms
  printf("repro_timing_tail_block: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
