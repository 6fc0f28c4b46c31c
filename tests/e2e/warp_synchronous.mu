// Pre-Volta warp-synchronous code: lanes exchange values through volatile shared memory with no
// __syncwarp, relying on the warp running in lockstep (a race by CUDA's rules since Volta, but
// it gives the intended result on the GPU, and old samples and benchmarks are full of it).
//  - the tail of the classic reduction (reduce5/reduce6), inline and in a __noinline__ helper
//    taking a volatile pointer;
//  - the old CUDA samples' warp scan: zero-padded, one `s[pos] += s[pos - offset]` per step;
//  - a Kogge-Stone warp scan guarded by `if (lane >= offset)`;
//  - a kernel whose volatile shared accesses stay in each thread's own slot (no lockstep
//    needed) still computes what it did.
#include "check.h"

#include <vector>

template <unsigned blockSize> __global__ void reduceTail(const int *in, int *out, int n) {
  extern __shared__ int sdata[];
  unsigned tid = threadIdx.x, i = blockIdx.x * blockSize * 2 + tid;
  int mySum = (i < n) ? in[i] : 0;
  if (i + blockSize < n)
    mySum += in[i + blockSize];
  sdata[tid] = mySum;
  __syncthreads();
  if (blockSize >= 256 && tid < 128)
    sdata[tid] = mySum = mySum + sdata[tid + 128];
  __syncthreads();
  if (blockSize >= 128 && tid < 64)
    sdata[tid] = mySum = mySum + sdata[tid + 64];
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
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__device__ __noinline__ void warpReduce(volatile float *sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global__ void reduceHelper(const float *in, float *out) {
  __shared__ float sdata[128];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 128 + tid];
  __syncthreads();
  if (tid < 64)
    sdata[tid] += sdata[tid + 64];
  __syncthreads();
  if (tid < 32)
    warpReduce(sdata, tid);
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// The old samples' scan: each warp scans 32 values in a zero-padded 64-word window.
__device__ unsigned warpScanInclusive(unsigned idata, volatile unsigned *s, unsigned size) {
  unsigned pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
  s[pos] = 0;
  pos += size;
  s[pos] = idata;
  for (unsigned offset = 1; offset < size; offset <<= 1)
    s[pos] += s[pos - offset];
  return s[pos];
}

__global__ void scanPadded(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[2 * 256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = warpScanInclusive(in[i], s, 32);
}

__global__ void scanGuarded(const int *in, int *out) {
  __shared__ int s[256];
  volatile int *v = s;
  unsigned lane = threadIdx.x & 31, i = blockIdx.x * blockDim.x + threadIdx.x;
  v[threadIdx.x] = in[i];
  if (lane >= 1) v[threadIdx.x] += v[threadIdx.x - 1];
  if (lane >= 2) v[threadIdx.x] += v[threadIdx.x - 2];
  if (lane >= 4) v[threadIdx.x] += v[threadIdx.x - 4];
  if (lane >= 8) v[threadIdx.x] += v[threadIdx.x - 8];
  if (lane >= 16) v[threadIdx.x] += v[threadIdx.x - 16];
  out[i] = v[threadIdx.x];
}

// Volatile shared memory only at each thread's own slot: no exchange between lanes.
__global__ void ownSlot(float *out, int iters) {
  __shared__ float s[256];
  volatile float *vs = s;
  unsigned tid = threadIdx.x;
  vs[tid] = float(tid);
  float v = 0.f;
  for (int it = 0; it < iters; ++it) {
    v += vs[tid];
    vs[tid] = v;
  }
  out[blockIdx.x * blockDim.x + tid] = v;
}

int main() {
  const int n = 1 << 14, blocks = 32;
  std::vector<int> h(n);
  long long ref = 0;
  for (int i = 0; i < n; i++) {
    h[i] = i % 7 + 1;
    ref += h[i];
  }
  int *d, *o;
  CHECK_MUSA(musaMalloc(&d, n * sizeof(int)));
  CHECK_MUSA(musaMalloc(&o, 1024 * sizeof(int)));
  CHECK_MUSA(musaMemcpy(d, h.data(), n * sizeof(int), musaMemcpyHostToDevice));
  auto reduce = [&](auto kernel, int threads, const char *what) {
    int grid = n / (2 * threads);
    kernel<<<grid, threads, threads * sizeof(int)>>>(d, o, n);
    CHECK_MUSA(musaDeviceSynchronize());
    std::vector<int> r(grid);
    CHECK_MUSA(musaMemcpy(r.data(), o, grid * sizeof(int), musaMemcpyDeviceToHost));
    long long s = 0;
    for (int v : r)
      s += v;
    CHECK(s == ref, "%s: sum %lld, expected %lld", what, s, ref);
  };
  reduce(reduceTail<256>, 256, "reduceTail<256>");
  reduce(reduceTail<128>, 128, "reduceTail<128>");
  reduce(reduceTail<64>, 64, "reduceTail<64>");

  std::vector<float> hf(blocks * 128);
  for (size_t i = 0; i < hf.size(); i++)
    hf[i] = float(i % 13);
  float *df, *of;
  CHECK_MUSA(musaMalloc(&df, hf.size() * sizeof(float)));
  CHECK_MUSA(musaMalloc(&of, 256 * sizeof(float)));
  CHECK_MUSA(musaMemcpy(df, hf.data(), hf.size() * sizeof(float), musaMemcpyHostToDevice));
  reduceHelper<<<blocks, 128>>>(df, of);
  std::vector<float> rf(blocks);
  CHECK_MUSA(musaMemcpy(rf.data(), of, blocks * sizeof(float), musaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    float want = 0;
    for (int t = 0; t < 128; t++)
      want += hf[b * 128 + t];
    CHECK(rf[b] == want, "reduceHelper block %d: %g, expected %g", b, rf[b], want);
  }

  const int m = 4 * 256;
  std::vector<unsigned> hu(m);
  for (int i = 0; i < m; i++)
    hu[i] = unsigned(i * 7 % 11);
  unsigned *du, *ou;
  CHECK_MUSA(musaMalloc(&du, m * sizeof(unsigned)));
  CHECK_MUSA(musaMalloc(&ou, m * sizeof(unsigned)));
  CHECK_MUSA(musaMemcpy(du, hu.data(), m * sizeof(unsigned), musaMemcpyHostToDevice));
  auto checkScan = [&](const char *what) {
    std::vector<unsigned> r(m);
    CHECK_MUSA(musaMemcpy(r.data(), ou, m * sizeof(unsigned), musaMemcpyDeviceToHost));
    int wrong = 0;
    for (int w = 0; w < m; w += 32) {
      unsigned run = 0;
      for (int l = 0; l < 32; l++) {
        run += hu[w + l];
        wrong += r[w + l] != run;
      }
    }
    CHECK(wrong == 0, "%s: %d of %d prefix sums wrong", what, wrong, m);
  };
  scanPadded<<<m / 256, 256>>>(du, ou);
  checkScan("scanPadded");
  CHECK_MUSA(musaMemset(ou, 0, m * sizeof(unsigned)));
  scanGuarded<<<m / 256, 256>>>((const int *)du, (int *)ou);
  checkScan("scanGuarded");

  ownSlot<<<4, 256>>>(df, 5);
  std::vector<float> ro(4 * 256);
  CHECK_MUSA(musaMemcpy(ro.data(), df, ro.size() * sizeof(float), musaMemcpyDeviceToHost));
  int wrongOwn = 0;
  for (int i = 0; i < 4 * 256; i++) {
    float t = float(i % 256), v = 0, s = t;
    for (int it = 0; it < 5; it++) {
      v += s;
      s = v;
    }
    wrongOwn += ro[i] != v;
  }
  CHECK(wrongOwn == 0, "ownSlot: %d wrong", wrongOwn);
  return finish("warp_synchronous");
}
