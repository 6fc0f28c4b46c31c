// Intrinsics of performance code and microbenchmarks: __fns, __dp4a and __dp2a_lo/hi in all
// their forms, the address-space tests (__isGlobal/__isShared/__isLocal/__isConstant) on each
// kind of pointer, and %smid/%nsmid read through inline PTX. Results are checked against host
// arithmetic written from the PTX ISA's definitions (the same program passes on the H200:
// tests/hardware/same_source_checks.h200.txt).
#include "check.h"

#define N 4096

__host__ __device__ unsigned mix(unsigned x) {
  x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
  return x;
}

__global__ void bitOps(unsigned *fns, int *dp4, unsigned *udp4, int *dp2, unsigned *udp2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned a = mix(i), b = mix(i + N), c = mix(i + 2 * N);
  // Sparse masks now and then, so that searches run off either end.
  unsigned mask = i % 4 == 0 ? a & b & c : a;
  fns[i] = __fns(mask, b % 34, int(c % 67) - 33);
  dp4[i] = __dp4a(int(a), int(b), int(c));
  udp4[i] = __dp4a(a, b, c);
  char4 ca = *reinterpret_cast<char4 *>(&a), cb = *reinterpret_cast<char4 *>(&b);
  uchar4 ua = *reinterpret_cast<uchar4 *>(&a), ub = *reinterpret_cast<uchar4 *>(&b);
  short2 sa = *reinterpret_cast<short2 *>(&a);
  ushort2 usa = *reinterpret_cast<ushort2 *>(&a);
  if (__dp4a(ca, cb, int(c)) != dp4[i] || __dp4a(ua, ub, c) != udp4[i])
    dp4[i] ^= 0x40000000; // the vector forms must agree with the scalar ones
  dp2[2 * i] = __dp2a_lo(int(a), int(b), int(c));
  dp2[2 * i + 1] = __dp2a_hi(int(a), int(b), int(c));
  udp2[2 * i] = __dp2a_lo(a, b, c);
  udp2[2 * i + 1] = __dp2a_hi(a, b, c);
  if (__dp2a_lo(sa, cb, int(c)) != dp2[2 * i] || __dp2a_hi(sa, cb, int(c)) != dp2[2 * i + 1] ||
      __dp2a_lo(usa, ub, c) != udp2[2 * i] || __dp2a_hi(usa, ub, c) != udp2[2 * i + 1])
    dp2[2 * i] ^= 0x40000000;
}

__constant__ float weights[8];
__device__ int deviceCounter;

// One row per pointer kind: {global, shared, local, constant} as the four tests answer.
__global__ void spaces(const int *global, int *out, int pick) {
  __shared__ int tile[64];
  int local[16];
  for (int k = 0; k < 16; ++k)
    local[k] = k * pick;
  tile[threadIdx.x] = local[threadIdx.x % 16];
  __syncthreads();
  const void *p[5] = {global + threadIdx.x, &tile[pick % 64], &local[pick % 16], &weights[pick % 8],
                      &deviceCounter};
  for (int k = 0; k < 5; ++k) {
    int *row = out + (threadIdx.x * 5 + k) * 4;
    row[0] = __isGlobal(p[k]), row[1] = __isShared(p[k]), row[2] = __isLocal(p[k]);
    row[3] = __isConstant(p[k]);
  }
  out[64 * 5 * 4 + threadIdx.x] = tile[(threadIdx.x + 1) % 64];
}

__global__ void smids(unsigned *ids, unsigned *counts) {
  unsigned id, count;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  asm("mov.u32 %0, %%nsmid;" : "=r"(count));
  if (threadIdx.x == 0)
    ids[blockIdx.x] = id, counts[blockIdx.x] = count;
}

// The PTX ISA's fns.b32, as specified.
unsigned hostFns(unsigned mask, unsigned base, int offset) {
  if (base > 31)
    return 0xffffffffu;
  if (offset == 0)
    return (mask >> base) & 1 ? base : 0xffffffffu;
  int count = (offset > 0 ? offset : -offset) - 1, inc = offset > 0 ? 1 : -1;
  for (int pos = int(base); pos >= 0 && pos < 32; pos += inc)
    if ((mask >> pos) & 1) {
      if (count == 0)
        return unsigned(pos);
      --count;
    }
  return 0xffffffffu;
}

int main() {
  unsigned *fns, *udp4, *udp2;
  int *dp4, *dp2;
  CHECK_MUSA(musaMallocManaged(&fns, N * sizeof(unsigned)));
  CHECK_MUSA(musaMallocManaged(&udp4, N * sizeof(unsigned)));
  CHECK_MUSA(musaMallocManaged(&udp2, 2 * N * sizeof(unsigned)));
  CHECK_MUSA(musaMallocManaged(&dp4, N * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&dp2, 2 * N * sizeof(int)));
  bitOps<<<N / 128, 128>>>(fns, dp4, udp4, dp2, udp2);
  CHECK_MUSA(musaDeviceSynchronize());
  int wrong[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i < N; ++i) {
    unsigned a = mix(i), b = mix(i + N), c = mix(i + 2 * N);
    unsigned mask = i % 4 == 0 ? a & b & c : a;
    unsigned want = hostFns(mask, b % 34, int(c % 67) - 33);
    if (fns[i] != want && wrong[0]++ < 5)
      printf("__fns(%#x, %u, %d) = %#x, want %#x\n", mask, b % 34, int(c % 67) - 33, fns[i], want);
    int s4 = int(c);
    unsigned u4 = c;
    for (int k = 0; k < 4; ++k) {
      s4 += (int)(signed char)(a >> (8 * k)) * (int)(signed char)(b >> (8 * k));
      u4 += ((a >> (8 * k)) & 255) * ((b >> (8 * k)) & 255);
    }
    if ((dp4[i] != s4 || udp4[i] != u4) && wrong[1]++ < 5)
      printf("__dp4a(%#x, %#x, %#x) = %d / %u, want %d / %u\n", a, b, c, dp4[i], udp4[i], s4, u4);
    for (int hi = 0; hi < 2; ++hi) {
      int s2 = int(c) + int(short(a)) * (int)(signed char)(b >> (16 * hi)) +
               int(short(a >> 16)) * (int)(signed char)(b >> (16 * hi + 8));
      unsigned u2 = c + (a & 0xffff) * ((b >> (16 * hi)) & 255) +
                    (a >> 16) * ((b >> (16 * hi + 8)) & 255);
      if ((dp2[2 * i + hi] != s2 || udp2[2 * i + hi] != u2) && wrong[2]++ < 5)
        printf("__dp2a_%s(%#x, %#x, %#x) = %d / %u, want %d / %u\n", hi ? "hi" : "lo", a, b, c,
               dp2[2 * i + hi], udp2[2 * i + hi], s2, u2);
    }
  }
  CHECK(wrong[0] == 0, "%d wrong __fns results", wrong[0]);
  CHECK(wrong[1] == 0, "%d wrong __dp4a results", wrong[1]);
  CHECK(wrong[2] == 0, "%d wrong __dp2a results", wrong[2]);

  int *global, *out;
  CHECK_MUSA(musaMalloc(&global, 64 * sizeof(int)));
  CHECK_MUSA(musaMallocManaged(&out, (64 * 5 * 4 + 64) * sizeof(int)));
  spaces<<<1, 64>>>(global, out, 7);
  CHECK_MUSA(musaDeviceSynchronize());
  const char *kinds[5] = {"global", "shared", "local", "constant", "__device__"};
  const int want[5][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}, {1, 0, 0, 0}};
  for (int t = 0; t < 64; ++t)
    for (int k = 0; k < 5; ++k) {
      const int *row = out + (t * 5 + k) * 4;
      bool same = true;
      for (int q = 0; q < 4; ++q)
        same &= (row[q] != 0) == (want[k][q] != 0);
      if (!same && wrong[3]++ < 5)
        printf("thread %d, %s pointer: global %d shared %d local %d constant %d\n", t, kinds[k],
               row[0], row[1], row[2], row[3]);
    }
  CHECK(wrong[3] == 0, "%d wrong address-space answers", wrong[3]);
  CHECK(out[64 * 5 * 4 + 3] == 4 * 7, "shared tile read back %d", out[64 * 5 * 4 + 3]);

  musaDeviceProp prop;
  CHECK_MUSA(musaGetDeviceProperties(&prop, 0));
  const int blocks = 3 * 132;
  unsigned *ids, *counts;
  CHECK_MUSA(musaMallocManaged(&ids, blocks * sizeof(unsigned)));
  CHECK_MUSA(musaMallocManaged(&counts, blocks * sizeof(unsigned)));
  smids<<<blocks, 64>>>(ids, counts);
  CHECK_MUSA(musaDeviceSynchronize());
  for (int b = 0; b < blocks; ++b)
    if ((counts[b] < unsigned(prop.multiProcessorCount) || ids[b] >= counts[b]) && wrong[4]++ < 5)
      printf("block %d: %%smid %u, %%nsmid %u, %d multiprocessors\n", b, ids[b], counts[b],
             prop.multiProcessorCount);
  CHECK(wrong[4] == 0, "%d blocks with an impossible %%smid/%%nsmid", wrong[4]);
  return finish("bit_intrinsics");
}
