// Pre-Volta warp-synchronous code whose lanes diverge between exchanges through volatile shared
// memory. The GPU reconverges a warp at the post-dominator of a divergent branch, so a lane that
// skips a step waits there for the lanes that make it (checked on an H100 with the same kernels
// built as CUDA: tests/hardware/session17/):
//  - a Kogge-Stone warp scan guarded by `if (lane >= offset)`, in a loop, then every lane reads
//    the warp's total;
//  - a warp maximum by conditional update, `if (v[t + o] > v[t]) v[t] = v[t + o];`;
//  - CSR-vector SpMV (one warp per row, rows of different lengths, a strided loop over the row
//    and a guarded halving reduction), each warp looping over several rows;
//  - a __noinline__ reduction helper called by half of each warp only;
//  - lanes handing a running sum on to each other through volatile flags (legal since Volta),
//    in a divergent branch: reconvergence must not hold up a lane the others wait for.
// Legacy code means 32-lane warps by `threadIdx.x & 31`; on 128-lane profiles each 32-lane
// quarter runs in lockstep, which is what such code needs.
#include "check.h"

#include <vector>

__global__ void scanTotal(const int *in, int *prefix, int *total) {
  __shared__ int s[256];
  volatile int *v = s;
  unsigned lane = threadIdx.x & 31, i = blockIdx.x * blockDim.x + threadIdx.x;
  v[threadIdx.x] = in[i];
  for (unsigned o = 1; o < 32; o <<= 1)
    if (lane >= o)
      v[threadIdx.x] += v[threadIdx.x - o];
  prefix[i] = v[threadIdx.x];
  total[i] = v[threadIdx.x | 31]; // every lane reads the warp's last prefix
}

__global__ void warpMax(const int *in, int *out) {
  __shared__ int s[2 * 256];
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  volatile int *v = s + warp * 64;
  const int *src = in + (blockIdx.x * (blockDim.x / 32) + warp) * 64;
  v[lane] = src[lane];
  v[lane + 32] = src[lane + 32];
  for (unsigned o = 32; o > 0; o >>= 1)
    if (v[lane + o] > v[lane])
      v[lane] = v[lane + o];
  if (lane == 0)
    out[blockIdx.x * (blockDim.x / 32) + warp] = v[0];
}

__global__ void spmvCsrVector(const int *rowStart, const int *cols, const float *vals,
                              const float *x, float *y, int rows) {
  __shared__ float s[256];
  volatile float *v = s;
  unsigned lane = threadIdx.x & 31;
  int warps = int(gridDim.x * blockDim.x / 32);
  for (int row = int((blockIdx.x * blockDim.x + threadIdx.x) / 32); row < rows; row += warps) {
    float sum = 0;
    for (int j = rowStart[row] + int(lane); j < rowStart[row + 1]; j += 32)
      sum += vals[j] * x[cols[j]];
    v[threadIdx.x] = sum;
    if (lane < 16) v[threadIdx.x] = sum = sum + v[threadIdx.x + 16];
    if (lane < 8) v[threadIdx.x] = sum = sum + v[threadIdx.x + 8];
    if (lane < 4) v[threadIdx.x] = sum = sum + v[threadIdx.x + 4];
    if (lane < 2) v[threadIdx.x] = sum = sum + v[threadIdx.x + 2];
    if (lane < 1) v[threadIdx.x] = sum = sum + v[threadIdx.x + 1];
    if (lane == 0)
      y[row] = v[threadIdx.x];
  }
}

__device__ __noinline__ void halfReduce(volatile int *s, unsigned t) {
  s[t] += s[t + 8];
  s[t] += s[t + 4];
  s[t] += s[t + 2];
  s[t] += s[t + 1];
}

__global__ void halfWarps(const int *in, int *out) {
  __shared__ int s[256 + 16];
  unsigned lane = threadIdx.x & 31, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  if (lane < 16)
    halfReduce(s, threadIdx.x); // lanes 0-15 sum their half of the warp
  if (lane == 0)
    out[i / 32] = s[threadIdx.x];
}

__global__ void handOn(const int *in, int *out) {
  __shared__ volatile int val[256], ready[256];
  unsigned lane = threadIdx.x & 31, i = blockIdx.x * blockDim.x + threadIdx.x;
  ready[threadIdx.x] = 0;
  __syncthreads();
  int x = in[i];
  if (lane == 31) {
    val[threadIdx.x] = x;
  } else {
    while (ready[threadIdx.x + 1] == 0) {
    }
    val[threadIdx.x] = val[threadIdx.x + 1] + x;
  }
  __threadfence_block();
  ready[threadIdx.x] = 1;
  out[i] = val[threadIdx.x]; // the sum of this lane and those above it in its warp
}

int main() {
  const int blocks = 8, threads = 256, n = blocks * threads;
  std::vector<int> h(n);
  for (int i = 0; i < n; i++)
    h[i] = (i * 37) % 101 - 50;
  int *d, *o1, *o2;
  CHECK_MUSA(musaMalloc(&d, 2 * n * sizeof(int)));
  CHECK_MUSA(musaMalloc(&o1, n * sizeof(int)));
  CHECK_MUSA(musaMalloc(&o2, n * sizeof(int)));
  CHECK_MUSA(musaMemcpy(d, h.data(), n * sizeof(int), musaMemcpyHostToDevice));
  std::vector<int> r1(n), r2(n);

  scanTotal<<<blocks, threads>>>(d, o1, o2);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(r1.data(), o1, n * sizeof(int), musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(r2.data(), o2, n * sizeof(int), musaMemcpyDeviceToHost));
  int wrongPrefix = 0, wrongTotal = 0;
  for (int w = 0; w < n / 32; w++) {
    int acc = 0, total = 0;
    for (int l = 0; l < 32; l++)
      total += h[w * 32 + l];
    for (int l = 0; l < 32; l++) {
      acc += h[w * 32 + l];
      wrongPrefix += r1[w * 32 + l] != acc;
      wrongTotal += r2[w * 32 + l] != total;
    }
  }
  CHECK(wrongPrefix == 0, "scanTotal: %d of %d prefixes wrong", wrongPrefix, n);
  CHECK(wrongTotal == 0, "scanTotal: %d of %d lanes read a wrong warp total", wrongTotal, n);

  // warpMax: 64 values per warp; the maximum sits where a lane that does not update in the
  // first step reads it in the second (lane 16's partner in step 32).
  std::vector<int> hm(2 * n);
  for (int i = 0; i < 2 * n; i++)
    hm[i] = (i * 53) % 997;
  for (int w = 0; w < n / 32; w++)
    hm[w * 64 + 48] = 5000 + w, hm[w * 64] = 4000;
  CHECK_MUSA(musaMemcpy(d, hm.data(), 2 * n * sizeof(int), musaMemcpyHostToDevice));
  warpMax<<<blocks, threads>>>(d, o1);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(r1.data(), o1, n / 32 * sizeof(int), musaMemcpyDeviceToHost));
  int wrongMax = 0;
  for (int w = 0; w < n / 32; w++)
    wrongMax += r1[w] != 5000 + w;
  CHECK(wrongMax == 0, "warpMax: %d of %d warps wrong (first %d)", wrongMax, n / 32, r1[0]);

  // SpMV: 300 rows of 0 to 100 entries, 2 blocks of 128 threads (8 warps, ~38 rows each).
  const int rows = 300;
  std::vector<int> rowStart(rows + 1), cols;
  std::vector<float> vals, x(rows);
  for (int r = 0; r < rows; r++) {
    rowStart[r] = int(cols.size());
    int len = (r * 7919) % 101;
    for (int k = 0; k < len; k++) {
      cols.push_back((r * 31 + k * 17) % rows);
      vals.push_back(float((r + k) % 5 - 2));
    }
    x[r] = float(r % 9 - 4);
  }
  rowStart[rows] = int(cols.size());
  int *dStart, *dCols;
  float *dVals, *dx, *dy;
  CHECK_MUSA(musaMalloc(&dStart, rowStart.size() * sizeof(int)));
  CHECK_MUSA(musaMalloc(&dCols, cols.size() * sizeof(int)));
  CHECK_MUSA(musaMalloc(&dVals, vals.size() * sizeof(float)));
  CHECK_MUSA(musaMalloc(&dx, rows * sizeof(float)));
  CHECK_MUSA(musaMalloc(&dy, rows * sizeof(float)));
  CHECK_MUSA(musaMemcpy(dStart, rowStart.data(), rowStart.size() * sizeof(int), musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dCols, cols.data(), cols.size() * sizeof(int), musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dVals, vals.data(), vals.size() * sizeof(float), musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dx, x.data(), rows * sizeof(float), musaMemcpyHostToDevice));
  spmvCsrVector<<<2, 128>>>(dStart, dCols, dVals, dx, dy, rows);
  CHECK_MUSA(musaDeviceSynchronize());
  std::vector<float> y(rows);
  CHECK_MUSA(musaMemcpy(y.data(), dy, rows * sizeof(float), musaMemcpyDeviceToHost));
  int wrongRows = 0;
  for (int r = 0; r < rows; r++) {
    float want = 0; // small integers: every order of summation gives the same float
    for (int j = rowStart[r]; j < rowStart[r + 1]; j++)
      want += vals[j] * x[cols[j]];
    wrongRows += y[r] != want;
  }
  CHECK(wrongRows == 0, "spmvCsrVector: %d of %d rows wrong", wrongRows, rows);

  CHECK_MUSA(musaMemcpy(d, h.data(), n * sizeof(int), musaMemcpyHostToDevice));
  halfWarps<<<blocks, threads>>>(d, o1);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(r1.data(), o1, n / 32 * sizeof(int), musaMemcpyDeviceToHost));
  int wrongHalf = 0;
  for (int w = 0; w < n / 32; w++) {
    int want = 0;
    for (int l = 0; l < 16; l++)
      want += h[w * 32 + l];
    wrongHalf += r1[w] != want;
  }
  CHECK(wrongHalf == 0, "halfWarps: %d of %d warps wrong", wrongHalf, n / 32);

  handOn<<<blocks, threads>>>(d, o1);
  CHECK_MUSA(musaDeviceSynchronize());
  CHECK_MUSA(musaMemcpy(r1.data(), o1, n * sizeof(int), musaMemcpyDeviceToHost));
  int wrongHand = 0;
  for (int w = 0; w < n / 32; w++) {
    int acc = 0;
    for (int l = 31; l >= 0; l--) {
      acc += h[w * 32 + l];
      wrongHand += r1[w * 32 + l] != acc;
    }
  }
  CHECK(wrongHand == 0, "handOn: %d of %d sums wrong", wrongHand, n);
  return finish("warp_synchronous_divergent");
}
