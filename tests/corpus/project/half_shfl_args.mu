// __half, __half2 and __nv_bfloat16 values moved around the way real kernels move them:
// warp shuffles of each type (xor butterfly reductions in half2, __shfl_sync broadcast,
// __shfl_up_sync scan, width 16 sub-groups), kernel arguments by value (__half, __half2,
// __nv_bfloat162 and a struct of halves), a __constant__ __half table, __ldg of __half2,
// adjacent 16-bit stores by neighbouring threads into shared and global memory, and a half
// array in musaMallocManaged memory written by the host, updated by a kernel, read back.
#include <musa_runtime.h>
#include <musa_fp16.h>
#include <musa_bf16.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define CHECK(call) do { musaError_t e_ = (call); if (e_ != musaSuccess) { \
  printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(e_)); exit(1); } } while (0)

struct Params { __half alpha; __half beta; int n; __half2 shift; __nv_bfloat16 gain; };
__constant__ __half cTable[16];

// each thread: value i (small ints, exact in half); results are exact
__global__ void shuffles(float *out, const __half2 *in2, __half alpha, __half2 beta, __nv_bfloat162 bb, Params p) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % warpSize;
  __half2 v = __ldg(in2 + tid);
  // butterfly sum over the whole warp in half2
  __half2 s = v;
  for (int o = warpSize / 2; o > 0; o /= 2) s = __hadd2(s, __shfl_xor_sync(0xffffffffu, s, o));
  // broadcast lane 3's half, bf16 from lane 5
  __half h = __shfl_sync(0xffffffffu, __low2half(v), 3);
  __nv_bfloat16 b = __float2bfloat16((float)lane);
  __nv_bfloat16 b5 = __shfl_sync(0xffffffffu, b, 5);
  // inclusive scan of the lane id in half within groups of 16
  __half sc = __int2half_rn(lane % 16);
  for (int o = 1; o < 16; o *= 2) {
    __half t = __shfl_up_sync(0xffffffffu, sc, o, 16);
    if (lane % 16 >= o) sc = __hadd(sc, t);
  }
  // bf16x2 shuffle down
  __nv_bfloat162 b2 = __floats2bfloat162_rn((float)lane, (float)-lane);
  __nv_bfloat162 bd = __shfl_down_sync(0xffffffffu, b2, 1);
  float *o = out + (size_t)tid * 10;
  o[0] = __low2float(s); o[1] = __high2float(s);
  o[2] = __half2float(h); o[3] = __bfloat162float(b5); o[4] = __half2float(sc);
  o[5] = __low2float(bd) + __high2float(bd) * 1000.f;
  o[6] = __half2float(alpha) + __half2float(__high2half(beta)) + __bfloat162float(__low2bfloat16(bb));
  o[7] = __half2float(p.alpha) * 100.f + __half2float(p.beta) + (float)p.n + __low2float(p.shift) + __high2float(p.shift) + __bfloat162float(p.gain);
  o[8] = __half2float(cTable[lane % 16]);
  o[9] = 0;
}
__global__ void adjacentStores(__half *g, int n) {
  __shared__ __half sh[1024];
  __shared__ __nv_bfloat16 sb[1024];
  int t = threadIdx.x;
  sh[t] = __int2half_rn(t);
  sb[t] = __float2bfloat16((float)-t);
  __syncthreads();
  int i = blockIdx.x * blockDim.x + t;
  if (i < n) g[i] = __hadd(sh[blockDim.x - 1 - t], __float2half(__bfloat162float(sb[t]) * 0.f + 0.5f));
}
__global__ void managedScale(__half *m, int n, __half s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) m[i] = __hmul(m[i], s);
}

int main() {
  int dev; musaDeviceProp prop; CHECK(musaGetDevice(&dev)); CHECK(musaGetDeviceProperties(&prop, dev));
  const int ws = prop.warpSize, blocks = 3, threads = 2 * ws, nt = blocks * threads;
  int bad = 0;
  std::vector<__half2> in(nt);
  for (int i = 0; i < nt; i++) in[i] = __floats2half2_rn((float)(i % ws), 1.0f);
  __half table[16];
  for (int i = 0; i < 16; i++) table[i] = __float2half(i * 0.25f);
  CHECK(musaMemcpyToSymbol(cTable, table, sizeof table));
  __half2 *dIn; float *dOut;
  CHECK(musaMalloc(&dIn, nt * 4)); CHECK(musaMalloc(&dOut, nt * 10 * 4));
  CHECK(musaMemcpy(dIn, in.data(), nt * 4, musaMemcpyHostToDevice));
  Params p; p.alpha = __float2half(2.0f); p.beta = __float2half(0.5f); p.n = 7; p.shift = __floats2half2_rn(0.25f, 0.125f); p.gain = __float2bfloat16(3.0f);
  shuffles<<<blocks, threads>>>(dOut, dIn, __float2half(1.5f), __floats2half2_rn(9.f, 2.5f), __floats2bfloat162_rn(4.f, 8.f), p);
  CHECK(musaGetLastError());
  std::vector<float> o(nt * 10);
  CHECK(musaMemcpy(o.data(), dOut, o.size() * 4, musaMemcpyDeviceToHost));
  for (int t = 0; t < nt; t++) {
    int lane = t % ws;
    float sc = 0; for (int j = 0; j <= lane % 16; j++) sc += j;
    float want[9] = {(float)(ws * (ws - 1) / 2), (float)ws, 3.f, 5.f, sc,
                     lane + 1 < ws ? (float)(lane + 1) - (lane + 1) * 1000.f : (float)lane - lane * 1000.f,
                     1.5f + 2.5f + 4.f, 200.f + 0.5f + 7 + 0.25f + 0.125f + 3.f, (lane % 16) * 0.25f};
    // shfl_down from past the end returns the caller's own value
    for (int j = 0; j < 9; j++)
      if (o[t * 10 + j] != want[j] && bad++ < 10) printf("thread %d item %d: %g want %g\n", t, j, o[t * 10 + j], want[j]);
  }
  // adjacent 16-bit stores
  const int n = 4 * 1000 + 7;
  __half *dG; CHECK(musaMalloc(&dG, n * 2));
  adjacentStores<<<(n + 999) / 1000, 1000>>>(dG, n);
  CHECK(musaGetLastError());
  std::vector<__half> g(n);
  CHECK(musaMemcpy(g.data(), dG, n * 2, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    float want = (999 - i % 1000) + 0.5f;
    if (__half2float(g[i]) != __half2float(__float2half(want)) && bad++ < 20) printf("store %d: %g want %g\n", i, __half2float(g[i]), want);
  }
  // managed memory
  const int m = 1000;
  __half *mm; CHECK(musaMallocManaged(&mm, m * sizeof(__half)));
  for (int i = 0; i < m; i++) mm[i] = __float2half(i * 0.5f);
  managedScale<<<(m + 255) / 256, 256>>>(mm, m, __float2half(-2.0f));
  CHECK(musaDeviceSynchronize());
  for (int i = 0; i < m; i++)
    if (__half2float(mm[i]) != __half2float(__float2half(-(float)i)) && bad++ < 30) printf("managed %d: %g\n", i, __half2float(mm[i]));
  printf("half_shfl_args: %d threads, %d mismatches %s\n", nt, bad, bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
