// timing_samples.mu, part 1: matrixMul, the reduction ladder, threadFenceReduction,
// histogram64, warp-aggregated and mixed atomics, scalarProd, a conjugate-gradient loop,
// zero-copy access and transposeDiagonal. Included by timing_samples.mu after the harness.
#pragma once

// ==================================== matrixMul ==============================================
// C = A * B, one BSxBS tile of C a block, the K loop staging BSxBS tiles of A and B in shared
// memory (the sample's loop over aBegin..aEnd with aStep / bStep).
template <int BS> __global__ void mm_tiled(float *C, const float *A, const float *B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BS * by, aEnd = aBegin + wA - 1, bBegin = BS * bx, bStep = BS * wB;
  float c = 0.f;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += BS, b += bStep) {
    __shared__ float As[BS][BS];
    __shared__ float Bs[BS][BS];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BS; ++k) c += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[wB * BS * by + BS * bx + wB * ty + tx] = c;
}

template <int BS> static void bench_matrixmul_one(int hA, int wA, int wB) {
  char cfg[80];
  std::snprintf(cfg, sizeof cfg, "block=%d,A=%dx%d,B=%dx%d", BS, hA, wA, wA, wB);
  std::vector<float> A(size_t(hA) * wA), B(size_t(wA) * wB);
  for (size_t i = 0; i < A.size(); ++i) A[i] = float(hash_u32(unsigned(i) + 17u) % 200) / 100.f - 1.f;
  for (size_t i = 0; i < B.size(); ++i) B[i] = float(hash_u32(unsigned(i) + 91u) % 200) / 100.f - 1.f;
  float *dA, *dB, *dC;
  CHECK(musaMalloc(&dA, A.size() * 4));
  CHECK(musaMalloc(&dB, B.size() * 4));
  CHECK(musaMalloc(&dC, size_t(hA) * wB * 4));
  CHECK(musaMemcpy(dA, A.data(), A.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), B.size() * 4, musaMemcpyHostToDevice));
  auto op = [&] { mm_tiled<BS><<<dim3(wB / BS, hA / BS), dim3(BS, BS)>>>(dC, dA, dB, wA, wB); };
  warm(op);
  std::vector<float> C(size_t(hA) * wB);
  CHECK(musaMemcpy(C.data(), dC, C.size() * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < C.size(); i += 997) {
    int r = int(i / wB), c = int(i % wB);
    double s = 0;
    for (int k = 0; k < wA; ++k) s += double(A[size_t(r) * wA + k]) * B[size_t(k) * wB + c];
    if (std::fabs(C[i] - s) > 1e-3 * std::sqrt(double(wA))) { fail("matrixMul", cfg, long(i), C[i], s); break; }
  }
  report("matrixMul", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  CHECK(musaFree(dC));
}

static void bench_matrixmul() {
  bench_matrixmul_one<16>(2048, 2048, 2048);
  bench_matrixmul_one<32>(320, 320, 640); // the sample's default sizes for block 32
}

// ==================================== reduction ==============================================
// The sample's kernel ladder on int sums, each pass writing one partial a block; the host
// relaunches the same kernel on the partials until one value is left (like the sample's
// GPU-final loop).
__global__ void reduce0(const int *in, int *out, unsigned n) { // interleaved, divergent modulo
  extern __shared__ int sd_red[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  sd_red[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if ((t % (2 * s)) == 0) sd_red[t] += sd_red[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sd_red[0];
}

__global__ void reduce3(const int *in, int *out, unsigned n) { // first add during load
  extern __shared__ int sd_red[];
  unsigned t = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + t;
  int sum = i < n ? in[i] : 0;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sd_red[t] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sd_red[t] = sum = sum + sd_red[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sum;
}

__global__ void reduce4(const int *in, int *out, unsigned n) { // + last warp by tile shuffles
  extern __shared__ int sd_red[];
  cg::thread_block cta = cg::this_thread_block();
  unsigned t = threadIdx.x, i = blockIdx.x * (blockDim.x * 2) + t;
  int sum = i < n ? in[i] : 0;
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sd_red[t] = sum;
  cg::sync(cta);
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (t < s) sd_red[t] = sum = sum + sd_red[t + s];
    cg::sync(cta);
  }
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  if (cta.thread_rank() < 32) {
    if (blockDim.x >= 64) sum += sd_red[t + 32];
    for (int off = tile.size() / 2; off > 0; off /= 2) sum += tile.shfl_down(sum, off);
  }
  if (t == 0) out[blockIdx.x] = sum;
}

// grid-stride, several elements a thread, then warp tiles and one shared slot a warp
__global__ void reduce6(const int *in, int *out, unsigned n) {
  __shared__ int warpsum[32];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  unsigned t = threadIdx.x, grid = 2 * blockDim.x * gridDim.x;
  int sum = 0;
  for (unsigned i = blockIdx.x * blockDim.x * 2 + t; i < n; i += grid) {
    sum += in[i];
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
  }
  for (int off = 16; off > 0; off /= 2) sum += tile.shfl_down(sum, off);
  if (tile.thread_rank() == 0) warpsum[tile.meta_group_rank()] = sum;
  cg::sync(cta);
  if (t < 32) {
    sum = t < blockDim.x / 32 ? warpsum[t] : 0;
    for (int off = 16; off > 0; off /= 2) sum += tile.shfl_down(sum, off);
    if (t == 0) out[blockIdx.x] = sum;
  }
}

static void bench_reduction() {
  const unsigned n = 1u << 22;
  std::vector<int> h(n);
  long long want = 0;
  for (unsigned i = 0; i < n; ++i) want += (h[i] = int(hash_u32(i + 5u) % 256) - 100);
  int *din, *dp0, *dp1;
  CHECK(musaMalloc(&din, size_t(n) * 4));
  CHECK(musaMalloc(&dp0, size_t(n) * 4));
  CHECK(musaMalloc(&dp1, size_t(n) * 4));
  CHECK(musaMemcpy(din, h.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  typedef void (*Kern)(const int *, int *, unsigned);
  struct V {
    const char *name;
    Kern k;
    int threads, perThread, maxBlocks;
  };
  const V vs[] = {{"reduce0", reduce0, 256, 1, 0}, {"reduce3", reduce3, 256, 2, 0},
                  {"reduce4", reduce4, 512, 2, 0}, {"reduce6", reduce6, 256, 2, 64}};
  for (const V &v : vs) {
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%u,threads=%d%s", n, v.threads, v.maxBlocks ? ",blocks=64" : "");
    int *result = nullptr;
    auto op = [&] {
      const int *src = din;
      int *bufs[2] = {dp0, dp1};
      unsigned s = n;
      int w = 0;
      do {
        unsigned per = unsigned(v.threads * v.perThread);
        unsigned blocks = (s + per - 1) / per;
        if (v.maxBlocks && blocks > unsigned(v.maxBlocks)) blocks = unsigned(v.maxBlocks);
        v.k<<<blocks, v.threads, v.threads * sizeof(int)>>>(src, bufs[w], s);
        src = bufs[w];
        result = bufs[w];
        w ^= 1;
        s = blocks;
      } while (s > 1);
    };
    warm(op);
    int got = 0;
    CHECK(musaMemcpy(&got, result, 4, musaMemcpyDeviceToHost));
    if (got != want) fail(v.name, cfg, 0, got, double(want));
    report(v.name, cfg, time_median(op));
  }
  CHECK(musaFree(din));
  CHECK(musaFree(dp0));
  CHECK(musaFree(dp1));
}

// ============================== threadFenceReduction =========================================
// One pass: every block writes its partial sum, fences, takes a ticket; the last block to
// finish sums the partials and resets the counter.
__device__ unsigned int g_retirement = 0;

__global__ void reduce_single_pass(const float *in, float *partial, float *out, unsigned n) {
  __shared__ float sd[128];
  __shared__ bool amLast;
  unsigned t = threadIdx.x, grid = 2 * blockDim.x * gridDim.x;
  float sum = 0.f;
  for (unsigned i = blockIdx.x * blockDim.x * 2 + t; i < n; i += grid) {
    sum += in[i];
    if (i + blockDim.x < n) sum += in[i + blockDim.x];
  }
  sd[t] = sum;
  __syncthreads();
  for (unsigned s = 64; s > 0; s >>= 1) {
    if (t < s) sd[t] = sum = sum + sd[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = sum;
  __threadfence();
  if (t == 0) {
    unsigned ticket = atomicInc(&g_retirement, gridDim.x);
    amLast = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (amLast) {
    float s2 = 0.f;
    for (unsigned i = t; i < gridDim.x; i += blockDim.x) s2 += partial[i];
    sd[t] = s2;
    __syncthreads();
    for (unsigned s = 64; s > 0; s >>= 1) {
      if (t < s) sd[t] = s2 = s2 + sd[t + s];
      __syncthreads();
    }
    if (t == 0) {
      out[0] = s2;
      g_retirement = 0;
    }
  }
}

static void bench_threadfence() {
  for (unsigned n : {1u << 22, 1u << 16}) {
    const int blocks = 64;
    char cfg[64];
    std::snprintf(cfg, sizeof cfg, "n=%u,blocks=64,threads=128", n);
    std::vector<float> h(n);
    double want = 0;
    for (unsigned i = 0; i < n; ++i) want += (h[i] = float(hash_u32(i + 77u) % 1024) / 1024.f);
    float *din, *dpart, *dout;
    CHECK(musaMalloc(&din, size_t(n) * 4));
    CHECK(musaMalloc(&dpart, blocks * 4));
    CHECK(musaMalloc(&dout, 4));
    CHECK(musaMemcpy(din, h.data(), size_t(n) * 4, musaMemcpyHostToDevice));
    auto op = [&] { reduce_single_pass<<<blocks, 128>>>(din, dpart, dout, n); };
    warm(op);
    float got = 0;
    CHECK(musaMemcpy(&got, dout, 4, musaMemcpyDeviceToHost));
    if (!near(got, want, 1e-5)) fail("threadFenceReduction", cfg, 0, got, want);
    report("threadFenceReduction", cfg, time_median(op));
    CHECK(musaFree(din));
    CHECK(musaFree(dpart));
    CHECK(musaFree(dout));
  }
}

// ==================================== histogram64 ============================================
// Per-thread 8-bit sub-histograms in shared memory (bin-major, 64 threads a block, each thread
// at most 63 words so no counter overflows), one 64-bin partial a block, then a merge kernel
// with one block a bin.
__global__ void histogram64_k(unsigned *partial, const unsigned *data, unsigned nwords) {
  __shared__ unsigned s_words[64 * 64 / 4];
  unsigned char *s_hist = (unsigned char *)s_words;
  unsigned t = threadIdx.x;
  unsigned pos = ((t & 15) << 2) | (t >> 4); // spread the threads' byte columns over banks
#pragma unroll
  for (int i = 0; i < 16; ++i) s_words[t + i * 64] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + t; i < nwords; i += blockDim.x * gridDim.x) {
    unsigned d = data[i];
    s_hist[((d >> 2) & 63u) * 64 + pos]++;
    s_hist[((d >> 10) & 63u) * 64 + pos]++;
    s_hist[((d >> 18) & 63u) * 64 + pos]++;
    s_hist[((d >> 26) & 63u) * 64 + pos]++;
  }
  __syncthreads();
  unsigned sum = 0;
  for (int i = 0; i < 64; ++i) sum += s_hist[t * 64 + ((i + t) & 63)];
  partial[blockIdx.x * 64 + t] = sum;
}

__global__ void merge_histogram64(unsigned *hist, const unsigned *partial, unsigned count) {
  __shared__ unsigned sd[256];
  unsigned sum = 0;
  for (unsigned i = threadIdx.x; i < count; i += 256) sum += partial[i * 64 + blockIdx.x];
  sd[threadIdx.x] = sum;
  for (unsigned s = 128; s > 0; s >>= 1) {
    __syncthreads();
    if (threadIdx.x < s) sd[threadIdx.x] += sd[threadIdx.x + s];
  }
  if (threadIdx.x == 0) hist[blockIdx.x] = sd[0];
}

static void bench_histogram64() {
  const unsigned nbytes = 1u << 24, nwords = nbytes / 4;
  const unsigned count = (nwords + 64 * 63 - 1) / (64 * 63);
  const char *cfg = "bytes=16777216,threads=64";
  std::vector<unsigned> h(nwords);
  std::vector<unsigned> want(64, 0);
  for (unsigned i = 0; i < nwords; ++i) {
    unsigned v = hash_u32(i * 13u + 1u);
    if (i % 7 == 0) v &= 0x3f3f3f3fu; // a skewed part: more hits on the low bins
    h[i] = v;
    for (int b = 0; b < 4; ++b) want[(v >> (8 * b + 2)) & 63u]++;
  }
  unsigned *dd, *dpart, *dhist;
  CHECK(musaMalloc(&dd, size_t(nwords) * 4));
  CHECK(musaMalloc(&dpart, size_t(count) * 64 * 4));
  CHECK(musaMalloc(&dhist, 64 * 4));
  CHECK(musaMemcpy(dd, h.data(), size_t(nwords) * 4, musaMemcpyHostToDevice));
  auto op = [&] {
    histogram64_k<<<count, 64>>>(dpart, dd, nwords);
    merge_histogram64<<<64, 256>>>(dhist, dpart, count);
  };
  warm(op);
  std::vector<unsigned> got(64);
  CHECK(musaMemcpy(got.data(), dhist, 64 * 4, musaMemcpyDeviceToHost));
  for (int b = 0; b < 64; ++b)
    if (got[b] != want[b]) { fail("histogram64", cfg, b, got[b], want[b]); break; }
  report("histogram64", cfg, time_median(op));
  CHECK(musaFree(dd));
  CHECK(musaFree(dpart));
  CHECK(musaFree(dhist));
}

// ============================ warpAggregatedAtomicsCG ========================================
// Stream filtering: keep the positive elements, each taking an output slot from one global
// counter; the aggregated form lets the leader of the coalesced group add the group's size.
__device__ int atomic_agg_inc(int *ctr) {
  cg::coalesced_group active = cg::coalesced_threads();
  int prev = 0;
  if (active.thread_rank() == 0) prev = atomicAdd(ctr, int(active.size()));
  return active.shfl(prev, 0) + int(active.thread_rank());
}

__global__ void filter_aggregated(int *dst, int *nres, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = src[i];
  if (v > 0) dst[atomic_agg_inc(nres)] = v;
}

__global__ void filter_naive(int *dst, int *nres, const int *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = src[i];
  if (v > 0) dst[atomicAdd(nres, 1)] = v;
}

static void bench_filter() {
  const int n = 1 << 22;
  std::vector<int> h(n);
  long long wantSum = 0, wantCount = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = int(hash_u32(unsigned(i) * 5u + 3u) % 200) - 99; // about half positive
    if (h[i] > 0) wantSum += h[i], ++wantCount;
  }
  int *dsrc, *ddst, *dn;
  CHECK(musaMalloc(&dsrc, size_t(n) * 4));
  CHECK(musaMalloc(&ddst, size_t(n) * 4));
  CHECK(musaMalloc(&dn, 4));
  CHECK(musaMemcpy(dsrc, h.data(), size_t(n) * 4, musaMemcpyHostToDevice));
  for (int agg = 1; agg >= 0; --agg) {
    const char *kname = agg ? "filter_warp_aggregated" : "filter_naive_atomic";
    const char *cfg = "n=4194304,threads=128";
    auto prep = [&] { CHECK(musaMemset(dn, 0, 4)); };
    auto op = [&] {
      if (agg) filter_aggregated<<<n / 128, 128>>>(ddst, dn, dsrc, n);
      else filter_naive<<<n / 128, 128>>>(ddst, dn, dsrc, n);
    };
    prep();
    warm(op);
    int cnt = 0;
    CHECK(musaMemcpy(&cnt, dn, 4, musaMemcpyDeviceToHost));
    if (cnt != wantCount) fail(kname, cfg, 0, cnt, double(wantCount));
    else {
      std::vector<int> out(cnt);
      CHECK(musaMemcpy(out.data(), ddst, size_t(cnt) * 4, musaMemcpyDeviceToHost));
      long long s = 0;
      for (int v : out) s += v;
      if (s != wantSum) fail(kname, cfg, 1, double(s), double(wantSum));
    }
    report(kname, cfg, time_median_prep(prep, op));
  }
  CHECK(musaFree(dsrc));
  CHECK(musaFree(ddst));
  CHECK(musaFree(dn));
}

// =============================== simpleAtomicIntrinsics ======================================
// Every thread applies ten different atomics to ten words (all threads on the same words).
__global__ void atomic_intrinsics(int *g) {
  int tid = blockDim.x * blockIdx.x + threadIdx.x;
  atomicAdd(&g[0], 10);
  atomicExch(&g[1], tid);
  atomicMax(&g[2], tid);
  atomicMin(&g[3], tid);
  atomicInc((unsigned *)&g[4], 17u);
  atomicDec((unsigned *)&g[5], 137u);
  atomicCAS(&g[6], tid - 1, tid);
  atomicAnd(&g[7], 2 * tid + 7);
  atomicOr(&g[8], 1 << (tid & 31));
  atomicXor(&g[9], tid);
}

static void bench_atomic_intrinsics() {
  const int blocks = 512, threads = 256, N = blocks * threads;
  const char *cfg = "blocks=512,threads=256,words=10";
  const int init[10] = {0, 0, -1, 0x7fffffff, 0, 0, 0, 0xff, 0, 0};
  int *dg;
  CHECK(musaMalloc(&dg, 10 * 4));
  auto prep = [&] { CHECK(musaMemcpy(dg, init, sizeof init, musaMemcpyHostToDevice)); };
  auto op = [&] { atomic_intrinsics<<<blocks, threads>>>(dg); };
  prep();
  warm(op);
  int g[10];
  CHECK(musaMemcpy(g, dg, sizeof g, musaMemcpyDeviceToHost));
  unsigned dec = 0;
  int andv = 0xff, xorv = 0;
  for (int t = 0; t < N; ++t) {
    dec = (dec == 0 || dec > 137u) ? 137u : dec - 1;
    andv &= 2 * t + 7;
    xorv ^= t;
  }
  const long long want[10] = {10LL * N, -1, N - 1, 0, N % 18, dec, -1, andv, -1, xorv};
  for (int w = 0; w < 10; ++w) {
    bool ok = (w == 1 || w == 6) ? (g[w] >= 0 && g[w] < N) : (w == 8 ? unsigned(g[w]) == 0xffffffffu : g[w] == want[w]);
    if (!ok) { fail("atomic_intrinsics", cfg, w, g[w], double(want[w])); break; }
  }
  report("atomic_intrinsics", cfg, time_median_prep(prep, op));
  CHECK(musaFree(dg));
}

// ==================================== scalarProd =============================================
// Many dot products, a block per vector pair (grid-stride over pairs): 1024 accumulators
// strided over the vector, then a shared tree.
#define SP_ACCUM 1024
__global__ void scalar_prod(float *C, const float *A, const float *B, int vecN, int elemN) {
  __shared__ float acc[SP_ACCUM];
  for (int vec = blockIdx.x; vec < vecN; vec += gridDim.x) {
    int base = vec * elemN, end = base + elemN;
    for (int ia = threadIdx.x; ia < SP_ACCUM; ia += blockDim.x) {
      float s = 0.f;
      for (int p = base + ia; p < end; p += SP_ACCUM) s += A[p] * B[p];
      acc[ia] = s;
    }
    for (int stride = SP_ACCUM / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      for (int ia = threadIdx.x; ia < stride; ia += blockDim.x) acc[ia] += acc[stride + ia];
    }
    if (threadIdx.x == 0) C[vec] = acc[0];
    __syncthreads();
  }
}

static void bench_scalarprod() {
  const int vecN = 512, elemN = 8192;
  const char *cfg = "vectors=512,elements=8192,blocks=128,threads=256";
  size_t n = size_t(vecN) * elemN;
  std::vector<float> A(n), B(n);
  for (size_t i = 0; i < n; ++i) {
    A[i] = float(hash_u32(unsigned(i) + 1000u) % 1000) / 1000.f;
    B[i] = float(hash_u32(unsigned(i) + 2000u) % 1000) / 1000.f;
  }
  float *dA, *dB, *dC;
  CHECK(musaMalloc(&dA, n * 4));
  CHECK(musaMalloc(&dB, n * 4));
  CHECK(musaMalloc(&dC, vecN * 4));
  CHECK(musaMemcpy(dA, A.data(), n * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dB, B.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { scalar_prod<<<128, 256>>>(dC, dA, dB, vecN, elemN); };
  warm(op);
  std::vector<float> C(vecN);
  CHECK(musaMemcpy(C.data(), dC, vecN * 4, musaMemcpyDeviceToHost));
  for (int v = 0; v < vecN; v += 7) {
    double s = 0;
    for (int e = 0; e < elemN; ++e) s += double(A[size_t(v) * elemN + e]) * B[size_t(v) * elemN + e];
    if (!near(C[v], s, 1e-5)) { fail("scalarProd", cfg, v, C[v], s); break; }
  }
  report("scalarProd", cfg, time_median(op));
  CHECK(musaFree(dA));
  CHECK(musaFree(dB));
  CHECK(musaFree(dC));
}

// ================================ conjugateGradient ==========================================
// CG on a random symmetric diagonally dominant tridiagonal CSR matrix, N = 2^20, all scalars
// kept on the device: per iteration an SpMV, two two-stage dot products, two AXPY kernels
// (7 launches an iteration, 10 iterations).
__global__ void cg_spmv(const int *rowPtr, const int *col, const float *val, const float *x, float *y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float s = 0.f;
  for (int k = rowPtr[r]; k < rowPtr[r + 1]; ++k) s += val[k] * x[col[k]];
  y[r] = s;
}

__global__ void cg_dot_partial(const float *a, const float *b, float *partial, int n) {
  __shared__ float sd[256];
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += a[i] * b[i];
  sd[threadIdx.x] = s;
  for (int st = 128; st > 0; st >>= 1) {
    __syncthreads();
    if (threadIdx.x < st) sd[threadIdx.x] += sd[threadIdx.x + st];
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sd[0];
}

// scal[0] = r.r, scal[1] = alpha, scal[2] = beta; mode 0: alpha = rr / pAp; mode 1: beta, rr
__global__ void cg_dot_final(const float *partial, int count, float *scal, int mode) {
  __shared__ float sd[256];
  float s = 0.f;
  for (int i = threadIdx.x; i < count; i += blockDim.x) s += partial[i];
  sd[threadIdx.x] = s;
  for (int st = 128; st > 0; st >>= 1) {
    __syncthreads();
    if (threadIdx.x < st) sd[threadIdx.x] += sd[threadIdx.x + st];
  }
  if (threadIdx.x == 0) {
    if (mode == 0) scal[1] = scal[0] / sd[0];
    else if (mode == 1) { scal[2] = sd[0] / scal[0]; scal[0] = sd[0]; }
    else scal[0] = sd[0];
  }
}

__global__ void cg_update_xr(float *x, float *r, const float *p, const float *Ap, const float *scal, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float alpha = scal[1];
  x[i] += alpha * p[i];
  r[i] -= alpha * Ap[i];
}

__global__ void cg_update_p(float *p, const float *r, const float *scal, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  p[i] = r[i] + scal[2] * p[i];
}

static void bench_cg() {
  const int n = 1 << 20, iters = 10, pb = 264;
  const char *cfg = "n=1048576,tridiagonal,iters=10";
  std::vector<int> rowPtr(n + 1), col;
  std::vector<float> val, b(n);
  std::vector<float> off(n);
  for (int i = 0; i < n; ++i) off[i] = float(hash_u32(unsigned(i) + 31u) % 1000) / 1000.f; // A[i][i+1]
  for (int i = 0; i < n; ++i) {
    rowPtr[i] = int(col.size());
    if (i > 0) { col.push_back(i - 1); val.push_back(off[i - 1]); }
    col.push_back(i);
    val.push_back(4.f + float(hash_u32(unsigned(i) + 77u) % 1000) / 1000.f);
    if (i < n - 1) { col.push_back(i + 1); val.push_back(off[i]); }
    b[i] = 1.f;
  }
  rowPtr[n] = int(col.size());
  int *drp, *dcol;
  float *dval, *dx, *dr, *dp, *dAp, *dpart, *dscal;
  CHECK(musaMalloc(&drp, size_t(n + 1) * 4));
  CHECK(musaMalloc(&dcol, col.size() * 4));
  CHECK(musaMalloc(&dval, val.size() * 4));
  for (float **p : {&dx, &dr, &dp, &dAp}) CHECK(musaMalloc(p, size_t(n) * 4));
  CHECK(musaMalloc(&dpart, pb * 4));
  CHECK(musaMalloc(&dscal, 4 * 4));
  CHECK(musaMemcpy(drp, rowPtr.data(), size_t(n + 1) * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dcol, col.data(), col.size() * 4, musaMemcpyHostToDevice));
  CHECK(musaMemcpy(dval, val.data(), val.size() * 4, musaMemcpyHostToDevice));
  auto prep = [&] { // x = 0, r = p = b, rr = b.b
    CHECK(musaMemset(dx, 0, size_t(n) * 4));
    CHECK(musaMemcpy(dr, b.data(), size_t(n) * 4, musaMemcpyHostToDevice));
    CHECK(musaMemcpy(dp, b.data(), size_t(n) * 4, musaMemcpyHostToDevice));
    cg_dot_partial<<<pb, 256>>>(dr, dr, dpart, n);
    cg_dot_final<<<1, 256>>>(dpart, pb, dscal, 2);
  };
  auto op = [&] {
    for (int k = 0; k < iters; ++k) {
      cg_spmv<<<n / 256, 256>>>(drp, dcol, dval, dp, dAp, n);
      cg_dot_partial<<<pb, 256>>>(dp, dAp, dpart, n);
      cg_dot_final<<<1, 256>>>(dpart, pb, dscal, 0);
      cg_update_xr<<<n / 256, 256>>>(dx, dr, dp, dAp, dscal, n);
      cg_dot_partial<<<pb, 256>>>(dr, dr, dpart, n);
      cg_dot_final<<<1, 256>>>(dpart, pb, dscal, 1);
      cg_update_p<<<n / 256, 256>>>(dp, dr, dscal, n);
    }
  };
  prep();
  warm(op);
  std::vector<float> x(n);
  CHECK(musaMemcpy(x.data(), dx, size_t(n) * 4, musaMemcpyDeviceToHost));
  // the residual of the device's x, on the host
  double rmax = 0;
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int k = rowPtr[i]; k < rowPtr[i + 1]; ++k) s += double(val[k]) * x[col[k]];
    rmax = std::max(rmax, std::fabs(b[i] - s));
  }
  if (!(rmax < 1e-4)) fail("conjugateGradient", cfg, 0, rmax, 0.0);
  report("conjugateGradient", cfg, time_median_prep(prep, op));
  CHECK(musaFree(drp));
  CHECK(musaFree(dcol));
  CHECK(musaFree(dval));
  for (float *p : {dx, dr, dp, dAp, dpart, dscal}) CHECK(musaFree(p));
}

// ==================================== simpleZeroCopy =========================================
// vectorAdd whose three arrays are mapped pinned host memory, read and written by the kernel
// through their device pointers (every access crosses the host link).
__global__ void vector_add_zc(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

static void bench_zerocopy() {
  const int n = 1 << 20;
  const char *cfg = "n=1048576,mapped_pinned";
  float *ha, *hb, *hc, *da, *db, *dc;
  CHECK(musaHostAlloc((void **)&ha, size_t(n) * 4, musaHostAllocMapped));
  CHECK(musaHostAlloc((void **)&hb, size_t(n) * 4, musaHostAllocMapped));
  CHECK(musaHostAlloc((void **)&hc, size_t(n) * 4, musaHostAllocMapped));
  for (int i = 0; i < n; ++i) {
    ha[i] = float(hash_u32(unsigned(i) + 5u) % 1000) / 10.f;
    hb[i] = float(hash_u32(unsigned(i) + 6u) % 1000) / 10.f;
    hc[i] = 0.f;
  }
  CHECK(musaHostGetDevicePointer((void **)&da, ha, 0));
  CHECK(musaHostGetDevicePointer((void **)&db, hb, 0));
  CHECK(musaHostGetDevicePointer((void **)&dc, hc, 0));
  auto op = [&] { vector_add_zc<<<n / 256, 256>>>(da, db, dc, n); };
  warm(op);
  for (int i = 0; i < n; i += 97)
    if (hc[i] != ha[i] + hb[i]) { fail("vectorAdd_zerocopy", cfg, i, hc[i], ha[i] + hb[i]); break; }
  report("vectorAdd_zerocopy", cfg, time_median(op));
  CHECK(musaFreeHost(ha));
  CHECK(musaFreeHost(hb));
  CHECK(musaFreeHost(hc));
}

// ===================================== transpose =============================================
#define TT 32
#define TROWS 8
__global__ void transpose_diagonal(float *out, const float *in, int width, int height) {
  __shared__ float tile[TT][TT + 1];
  int bx, by;
  if (width == height) {
    by = blockIdx.x;
    bx = (blockIdx.x + blockIdx.y) % gridDim.x;
  } else {
    int bid = blockIdx.x + gridDim.x * blockIdx.y;
    by = bid % gridDim.y;
    bx = ((bid / gridDim.y) + by) % gridDim.x;
  }
  int x = bx * TT + threadIdx.x, y = by * TT + threadIdx.y;
  for (int i = 0; i < TT; i += TROWS) tile[threadIdx.y + i][threadIdx.x] = in[size_t(y + i) * width + x];
  __syncthreads();
  x = by * TT + threadIdx.x;
  y = bx * TT + threadIdx.y;
  for (int i = 0; i < TT; i += TROWS) out[size_t(y + i) * height + x] = tile[threadIdx.x][threadIdx.y + i];
}

static void bench_transpose() {
  const int w = 4096, h = 1024;
  const char *cfg = "4096x1024,tile=32x8";
  size_t n = size_t(w) * h;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) a[i] = float(i % 1000003);
  float *din, *dout;
  CHECK(musaMalloc(&din, n * 4));
  CHECK(musaMalloc(&dout, n * 4));
  CHECK(musaMemcpy(din, a.data(), n * 4, musaMemcpyHostToDevice));
  auto op = [&] { transpose_diagonal<<<dim3(w / TT, h / TT), dim3(TT, TROWS)>>>(dout, din, w, h); };
  warm(op);
  CHECK(musaMemcpy(b.data(), dout, n * 4, musaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i += 61) { // out is h wide, w high
    size_t r = i / h, col = i % h;
    float want = a[col * w + r];
    if (b[i] != want) { fail("transposeDiagonal", cfg, long(i), b[i], want); break; }
  }
  report("transposeDiagonal", cfg, time_median(op));
  CHECK(musaFree(din));
  CHECK(musaFree(dout));
}
