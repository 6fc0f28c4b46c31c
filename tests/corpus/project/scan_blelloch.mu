// Exclusive prefix sum of 2^18 ints in three phases: Blelloch up/down-sweep per block in shared memory, a scan of the block sums, and a uniform add.
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

#define BLOCK 512 // threads; each scans 2 elements
#define TILE (2 * BLOCK)

__global__ void scanBlock(const int *in, int *out, int *blockSums, int n) {
  __shared__ int temp[TILE];
  int tid = threadIdx.x, base = blockIdx.x * TILE;
  temp[2 * tid] = base + 2 * tid < n ? in[base + 2 * tid] : 0;
  temp[2 * tid + 1] = base + 2 * tid + 1 < n ? in[base + 2 * tid + 1] : 0;
  int offset = 1;
  for (int d = TILE >> 1; d > 0; d >>= 1) { // up-sweep
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0) {
    if (blockSums)
      blockSums[blockIdx.x] = temp[TILE - 1];
    temp[TILE - 1] = 0;
  }
  for (int d = 1; d < TILE; d *= 2) { // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
      int t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  if (base + 2 * tid < n)
    out[base + 2 * tid] = temp[2 * tid];
  if (base + 2 * tid + 1 < n)
    out[base + 2 * tid + 1] = temp[2 * tid + 1];
}

__global__ void addBlockOffsets(int *out, const int *offsets, int n) {
  int i = blockIdx.x * TILE + threadIdx.x;
  int add = offsets[blockIdx.x];
  if (i < n)
    out[i] += add;
  if (i + BLOCK < n)
    out[i + BLOCK] += add;
}

int main() {
  const int n = (1 << 18) - 100;
  const int blocks = (n + TILE - 1) / TILE; // 256: the block sums fit one more tile
  int *h = (int *)malloc(n * sizeof(int)), *res = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = (i * 31 + 7) % 13;
  int *din, *dout, *dsums, *dsumsScanned;
  CHECK(musaMalloc(&din, n * sizeof(int)));
  CHECK(musaMalloc(&dout, n * sizeof(int)));
  CHECK(musaMalloc(&dsums, blocks * sizeof(int)));
  CHECK(musaMalloc(&dsumsScanned, blocks * sizeof(int)));
  CHECK(musaMemcpy(din, h, n * sizeof(int), musaMemcpyHostToDevice));
  scanBlock<<<blocks, BLOCK>>>(din, dout, dsums, n);
  scanBlock<<<1, BLOCK>>>(dsums, dsumsScanned, nullptr, blocks);
  addBlockOffsets<<<blocks, BLOCK>>>(dout, dsumsScanned, n);
  CHECK(musaGetLastError());
  CHECK(musaMemcpy(res, dout, n * sizeof(int), musaMemcpyDeviceToHost));
  int bad = 0, acc = 0;
  for (int i = 0; i < n; ++i) {
    if (res[i] != acc && bad++ < 5)
      printf("mismatch at %d: %d != %d\n", i, res[i], acc);
    acc += h[i];
  }
  printf("scan_blelloch: %d elements, total %d, %s\n", n, acc, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
