// Repro (fixed 2026-12-06, see repros/README.md): pre-Volta warp-synchronous tail of the classic reduce5
// (volatile shared memory, no __syncwarp) as Rodinia/SHOC/old CUDA samples ports have it. The simulator ran the
// 32 threads of the tail one after another, so thread 0 reads smem[16] etc. before they are updated: each block
// returns the sum of 7 of its 64 partial sums (7168 instead of 65530). Works on hardware (a race by CUDA's rules).
#include <musa_runtime.h>
#include <stdio.h>
template <unsigned blockSize>
__global__ void reduce5_legacy(const int *in, int *out, int n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x, i = blockIdx.x * blockSize * 2 + tid;
  int mySum = (i < n) ? in[i] : 0;
  if (i + blockSize < n) mySum += in[i + blockSize];
  sdata[tid] = mySum;
  __syncthreads();
  if (blockSize >= 256 && tid < 128) sdata[tid] = mySum = mySum + sdata[tid + 128];
  __syncthreads();
  if (blockSize >= 128 && tid < 64) sdata[tid] = mySum = mySum + sdata[tid + 64];
  __syncthreads();
  if (tid < 32) {
    volatile int *smem = sdata;
    if (blockSize >= 64) smem[tid] = mySum = mySum + smem[tid + 32];
    if (blockSize >= 32) smem[tid] = mySum = mySum + smem[tid + 16];
    if (blockSize >= 16) smem[tid] = mySum = mySum + smem[tid + 8];
    if (blockSize >= 8) smem[tid] = mySum = mySum + smem[tid + 4];
    if (blockSize >= 4) smem[tid] = mySum = mySum + smem[tid + 2];
    if (blockSize >= 2) smem[tid] = mySum = mySum + smem[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
int main() {
  const int n = 1 << 14; int h[n]; long long ref = 0;
  for (int i = 0; i < n; i++) { h[i] = i % 7 + 1; ref += h[i]; }
  int *d, *o; musaMalloc(&d, n * 4); musaMalloc(&o, 64 * 4);
  musaMemcpy(d, h, n * 4, musaMemcpyHostToDevice);
  reduce5_legacy<256><<<32, 256, 256 * 4>>>(d, o, n);
  int r[32]; musaMemcpy(r, o, 32 * 4, musaMemcpyDeviceToHost);
  long long s = 0; for (int i = 0; i < 32; i++) s += r[i];
  printf("sum %lld ref %lld\nrepro_warp_synchronous_legacy: %s\n", s, ref, s == ref ? "PASSED" : "FAILED");
  return s != ref;
}
