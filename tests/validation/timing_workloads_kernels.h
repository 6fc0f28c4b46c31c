// The kernels of timing_workloads.mu (suite 3), one per workload; the program's benchmarks
// launch them. Included by that program only (it defines hash_u32 first).
#pragma once

// A dependent chain of double-precision FMAs per thread.
__global__ void dfma_chain(double *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = double(i & 15);
  for (int k = 0; k < iters; ++k) v = fma(v, 0.999, 0.25);
  out[i] = v;
}

// IEEE float division and square root (no fast-math), eight rounds per element.
__global__ void div_sqrt(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float a = x[i], v = a;
  for (int k = 0; k < 8; ++k) v = sqrtf(v + a) / (v + 1.0f);
  out[i] = v;
}

// Quotient and remainder by a divisor known only at run time, 16 per element.
__global__ void int_divmod(const unsigned *in, unsigned *out, int n, unsigned d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = in[i], acc = 0;
  for (int k = 0; k < 16; ++k) {
    acc += x / d + x % d;
    x = x * 1664525u + 1013904223u;
  }
  out[i] = acc;
}

// A 64-bit linear congruential step with an xor-shift, `rounds` times per thread.
__global__ void hash64(unsigned long long *out, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = (unsigned long long)i;
  for (int k = 0; k < rounds; ++k) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    x ^= x >> 29;
  }
  out[i] = x;
}

// Sobel gradient magnitude (|gx| + |gy|, saturated) of an 8-bit image; border pixels are 0.
__global__ void sobel_u8(const unsigned char *in, unsigned char *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= nx || y >= ny) return;
  size_t c = (size_t)y * nx + x;
  if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
    out[c] = 0;
    return;
  }
  const unsigned char *p = in + c;
  int a = p[-nx - 1], b = p[-nx], d = p[-nx + 1];
  int l = p[-1], r = p[1];
  int e = p[nx - 1], f = p[nx], g = p[nx + 1];
  int gx = (d + 2 * r + g) - (a + 2 * l + e);
  int gy = (e + 2 * f + g) - (a + 2 * b + d);
  out[c] = (unsigned char)min(255, abs(gx) + abs(gy));
}

struct Vec3 {
  float x, y, z;
};

// Squared length of 3-vectors stored as an array of 12-byte structs ...
__global__ void aos_norm2(const Vec3 *p, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Vec3 v = p[i];
  out[i] = v.x * v.x + v.y * v.y + v.z * v.z;
}

// ... and as three separate arrays.
__global__ void soa_norm2(const float *x, const float *y, const float *z, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = x[i] * x[i] + y[i] * y[i] + z[i] * z[i];
}

// A plain copy; launched with `in` one float past an allocation's start.
__global__ void copy_f32(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__constant__ float c_table[1024];

// Every lane of a warp reads the same constant each step ...
__global__ void const_uniform(float *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int k = 0; k < iters; ++k) s += c_table[(k * 37 + blockIdx.x) & 1023];
  out[i] = s;
}

// ... or each lane its own.
__global__ void const_lane(float *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.f;
  for (int k = 0; k < iters; ++k) s += c_table[(k * 37 + threadIdx.x * 5) & 1023];
  out[i] = s;
}

// Tiled transpose without the usual padding column: the column reads of the tile conflict.
__global__ void transpose_nopad(const float *in, float *out, int n) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Hillis-Steele inclusive scan of each block's 256 elements (no carry between blocks).
__global__ void scan_block(const int *in, int *out, int n) {
  __shared__ int s[256];
  int tid = threadIdx.x, i = blockIdx.x * 256 + tid;
  s[tid] = i < n ? in[i] : 0;
  __syncthreads();
  for (int off = 1; off < 256; off *= 2) {
    int v = tid >= off ? s[tid - off] : 0;
    __syncthreads();
    s[tid] += v;
    __syncthreads();
  }
  if (i < n) out[i] = s[tid];
}

// Sorts each 1024-element segment ascending in shared memory; 1024 threads per block.
__global__ void bitonic_sort1024(const unsigned *in, unsigned *out) {
  __shared__ unsigned s[1024];
  unsigned tid = threadIdx.x;
  size_t base = (size_t)blockIdx.x * 1024;
  s[tid] = in[base + tid];
  __syncthreads();
  for (unsigned k = 2; k <= 1024; k *= 2)
    for (unsigned j = k / 2; j > 0; j /= 2) {
      unsigned ixj = tid ^ j;
      if (ixj > tid) {
        unsigned a = s[tid], b = s[ixj];
        bool up = (tid & k) == 0;
        if ((a > b) == up) {
          s[tid] = b;
          s[ixj] = a;
        }
      }
      __syncthreads();
    }
  out[base + tid] = s[tid];
}

// y = A x for a CSR matrix, one thread per row.
__global__ void spmv_csr(const int *row_ptr, const int *col, const float *val, const float *x,
                         float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += val[k] * x[col[k]];
  y[r] = s;
}

// One n-body step: every body's acceleration from all n (positions in xyz, mass in w),
// through tiles of blockDim.x bodies in shared memory; n a multiple of blockDim.x <= 256.
__global__ void nbody_step(const float4 *pos, const float4 *vel, float4 *vel_out, int n,
                           float dt, float eps2) {
  __shared__ float4 tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i];
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (int t = 0; t < n; t += blockDim.x) {
    tile[threadIdx.x] = pos[t + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < blockDim.x; ++j) {
      float4 q = tile[j];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
      float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  float4 v = vel[i];
  vel_out[i] = make_float4(v.x + ax * dt, v.y + ay * dt, v.z + az * dt, v.w);
}

// Escape-time iterations of each pixel of [-2, 0.5] x [-1.25, 1.25] (fmaf written out, so the
// host reproduces every iterate exactly).
__global__ void mandelbrot(int *out, int nx, int ny, int max_iter) {
  int px = blockIdx.x * blockDim.x + threadIdx.x;
  int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= nx || py >= ny) return;
  float cx = -2.0f + 2.5f * px / nx, cy = -1.25f + 2.5f * py / ny;
  float x = 0.f, y = 0.f;
  int it = 0;
  while (it < max_iter && fmaf(x, x, y * y) <= 4.0f) {
    float xn = fmaf(x, x, fmaf(-y, y, cx));
    y = fmaf(x + x, y, cy);
    x = xn;
    ++it;
  }
  out[py * nx + px] = it;
}

__device__ float normal_cdf(float d) { return 0.5f * erfcf(-d * 0.70710678f); }

// European call and put prices (Black-Scholes), rate r and volatility v.
__global__ void black_scholes(const float *S, const float *X, const float *T, float *call,
                              float *put, int n, float r, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = S[i], x = X[i], t = T[i];
  float sqrt_t = sqrtf(t);
  float d1 = (logf(s / x) + (r + 0.5f * v * v) * t) / (v * sqrt_t);
  float d2 = d1 - v * sqrt_t;
  float n1 = normal_cdf(d1), n2 = normal_cdf(d2);
  float xe = x * expf(-r * t);
  call[i] = s * n1 - xe * n2;
  put[i] = xe * (1.0f - n2) - s * (1.0f - n1);
}

// Each thread adds 1 to a hashed slot (slots a power of two).
__global__ void atomic_scatter(float *slots, unsigned mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&slots[hash_u32(i) & mask], 1.0f);
}

// Stream compaction of the even values: each warp counts its keepers with a ballot, reserves
// room with one atomicAdd, and each keeper writes at its rank within the warp.
__global__ void compact_even(const int *in, int *out, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int v = i < n ? in[i] : 1;
  bool keep = (v & 1) == 0;
  unsigned mask = __ballot_sync(0xffffffffu, keep);
  unsigned base = 0;
  if (lane == 0 && mask) base = atomicAdd(count, (unsigned)__popc(mask));
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep) out[base + __popc(mask & ((1u << lane) - 1))] = v;
}

// 7-point stencil on an nx x ny x nz grid; boundary points copied. Block 32x8, grid.z = nz.
__global__ void stencil3d_7pt(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= nx || y >= ny) return;
  size_t plane = (size_t)nx * ny, c = z * plane + (size_t)y * nx + x;
  if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
    out[c] = in[c];
    return;
  }
  out[c] = 0.25f * in[c] + 0.125f * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] +
                                     in[c - plane] + in[c + plane]);
}

// A short compute kernel for the stream tests: a dependent FMA chain per thread.
__global__ void fma_loop(float *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = float(threadIdx.x & 7);
  for (int k = 0; k < iters; ++k) v = fmaf(v, 0.999f, 0.5f);
  out[i] = v;
}

__global__ void bump(int *p) {
  if (threadIdx.x == 0) p[0] += 1;
}

// Each block copies `len` floats through dynamic shared memory, rotated by one within the
// block's chunk (out[base + j] = chunk[j + 1], the last from chunk[0]).
__global__ void smem_rotate_copy(const float *in, float *out, int n, int len) {
  extern __shared__ float buf[];
  size_t base = (size_t)blockIdx.x * len;
  for (int j = threadIdx.x; j < len; j += blockDim.x)
    buf[j] = base + j < (size_t)n ? in[base + j] : 0.f;
  __syncthreads();
  for (int j = threadIdx.x; j < len; j += blockDim.x)
    if (base + j < (size_t)n) out[base + j] = buf[j + 1 < len ? j + 1 : 0];
}

__global__ void half_roundtrip(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half2float(__float2half(in[i]));
}

// Per-thread sums over a grid-stride loop, one load in flight per thread ...
__global__ void sum_stride1(const float *in, float *out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
  float s = 0.f;
#pragma unroll 1
  for (int i = tid; i < n; i += nt) s += in[i];
  out[tid] = s;
}

// ... and with eight independent loads per step (n a multiple of 8 * threads).
__global__ void sum_ilp8(const float *in, float *out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
  float s[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
  for (int i = tid; i < n; i += 8 * nt) {
#pragma unroll
    for (int k = 0; k < 8; ++k) s[k] += in[i + k * nt];
  }
  out[tid] = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}
