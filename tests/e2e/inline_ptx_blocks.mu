// Inline PTX as bignum, hashing and conversion code writes it: statement sequences in braces
// with .reg declarations, predicates (setp, selp, @p guards, p|q pairs, .and), multi-word
// arithmetic through the carry flag (in one asm statement and split over several), cvt with
// its rounding and saturation modes, prmt, mov.b64 packing, "+r" operands. Every result is
// compared with host arithmetic written from the PTX ISA's definitions.
#include "check.h"
#include <math.h>
#include <stdint.h>

#define N 1024
#define OUTS 24

__host__ __device__ unsigned mix(unsigned x) {
  x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
  return x;
}

__host__ __device__ void inputs(int i, unsigned &a, unsigned &b, float &f) {
  a = mix(i), b = mix(i + N);
  if (i % 8 == 1) a = 0xffffffffu; // carries all the way up
  if (i % 8 == 2) b = 0xffffffffu, a = 1;
  if (i % 8 == 3) b = a;          // equal operands, zero differences
  f = (float)((int)(mix(i + 2 * N) % 2000001) - 1000000) / 997.0f;
  if (i % 8 == 4) f = 2.5f + (float)(i % 3); // ties of the round-to-nearest-even conversion
  if (i % 8 == 5) f = -300.0f;               // saturation below 0
}

__global__ void blocks(unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N)
    return;
  unsigned a, b;
  float f;
  inputs(i, a, b, f);
  unsigned *o = out + i * OUTS;
  // 1. 96-bit addition in one statement: {a, b, a} + {b, a, 1}.
  asm("add.cc.u32 %0, %3, %4;\n\t"
      "addc.cc.u32 %1, %4, %3;\n\t"
      "addc.u32 %2, %3, 1;"
      : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]) : "r"(a), "r"(b));
  // 2. The same chain split over separate statements.
  unsigned lo, hi;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(lo) : "r"(a), "r"(b));
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(hi) : "r"(b), "r"(a));
  o[3] = lo, o[4] = hi;
  // 3. 64-bit subtraction from 32-bit halves: {a, b} - {b, a}.
  asm("sub.cc.u32 %0, %2, %3;\n\tsubc.u32 %1, %3, %2;" : "=r"(o[5]), "=r"(o[6]) : "r"(a), "r"(b));
  // 4. a * b + {b, a} as 64 bits: mad.lo.cc then madc.hi.
  asm("mad.lo.cc.u32 %0, %2, %3, %3;\n\tmadc.hi.u32 %1, %2, %3, %2;"
      : "=r"(o[7]), "=r"(o[8]) : "r"(a), "r"(b));
  // 5. A block with a predicate: the signed minimum, and a guarded move.
  asm("{\n\t.reg .pred p;\n\tsetp.lt.s32 p, %1, %2;\n\tselp.s32 %0, %1, %2, p;\n\t}"
      : "=r"(o[9]) : "r"(a), "r"(b));
  unsigned guarded = 7;
  asm("{\n\t.reg .pred q;\n\tsetp.hi.u32 q, %1, %2;\n\t@q mov.u32 %0, %1;\n\t@!q add.u32 %0, %0, 1;\n\t}"
      : "+r"(guarded) : "r"(a), "r"(b));
  o[10] = guarded;
  // 6. p|q with .and: p = (a == b) and (a != 0) as 1/0, q = (a != b) and (a != 0) as 2/0.
  asm("{\n\t.reg .pred p, q, z;\n\tsetp.ne.u32 z, %2, 0;\n\tsetp.eq.and.u32 p|q, %2, %3, z;\n\t"
      "selp.u32 %0, 1, 0, p;\n\tselp.u32 %1, 2, 0, q;\n\t}"
      : "=r"(o[11]), "=r"(o[12]) : "r"(a), "r"(b));
  // 7. Conversions.
  int r;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(r) : "f"(f));
  o[13] = (unsigned)r;
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(r) : "f"(f));
  o[14] = (unsigned)r;
  asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(r) : "f"(f));
  o[15] = (unsigned)r;
  asm("cvt.rpi.s32.f32 %0, %1;" : "=r"(r) : "f"(f));
  o[16] = (unsigned)r;
  asm("{\n\t.reg .s32 t;\n\tcvt.rzi.s32.f32 t, %1;\n\tcvt.sat.u8.s32 %0, t;\n\t}" : "=r"(o[17]) : "f"(f));
  long long wide;
  asm("cvt.s64.s32 %0, %1;" : "=l"(wide) : "r"((int)a));
  o[18] = (unsigned)(wide >> 32);
  float g;
  asm("cvt.rn.f32.s32 %0, %1;" : "=f"(g) : "r"((int)b));
  o[19] = __float_as_uint(g);
  // 8. prmt: bytes of {b, a} picked by a selector, one with its sign replicated.
  asm("prmt.b32 %0, %1, %2, 0x8e25;" : "=r"(o[20]) : "r"(a), "r"(b));
  // 9. mov.b64 packing and unpacking.
  unsigned long long packed;
  asm("mov.b64 %0, {%1, %2};" : "=l"(packed) : "r"(a), "r"(b));
  unsigned x, y;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(x), "=r"(y) : "l"(packed + 1));
  o[21] = (unsigned)(packed >> 32), o[22] = x, o[23] = y;
}

// Warp votes and shuffles written in PTX: ballot of odd lanes, any/all/uni, a butterfly sum.
__global__ void warpPtx(unsigned *out) {
  unsigned lane = threadIdx.x % 32, ballot, any, all, uni, sum = lane + 1;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
               "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}"
               : "=r"(ballot) : "r"(lane & 1));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.lt.u32 p, %1, 32;\n\t"
               "vote.sync.all.pred q, p, 0xffffffff;\n\tselp.u32 %0, 1, 0, q;\n\t}"
               : "=r"(all) : "r"(lane));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.eq.u32 p, %1, 7;\n\t"
               "vote.sync.any.pred q, p, 0xffffffff;\n\tselp.u32 %0, 1, 0, q;\n\t}"
               : "=r"(any) : "r"(lane));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.eq.u32 p, %1, 7;\n\t"
               "vote.sync.uni.pred q, p, 0xffffffff;\n\tselp.u32 %0, 1, 0, q;\n\t}"
               : "=r"(uni) : "r"(lane));
  for (int offset = 16; offset > 0; offset /= 2) {
    unsigned other;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;"
                 : "=r"(other) : "r"(sum), "r"(offset));
    sum += other;
  }
  unsigned down;
  asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x1f, 0xffffffff;" : "=r"(down) : "r"(lane));
  unsigned *o = out + threadIdx.x * 6;
  o[0] = ballot, o[1] = all, o[2] = any, o[3] = uni, o[4] = sum, o[5] = down;
}

// cp.async into shared memory through __cvta_generic_to_shared's 32-bit .shared addresses
// (a whole 16-byte copy, and one of 4 bytes zero-filled to 16), ld.shared with such an
// address, and the way back with __cvta_shared_to_generic.
__global__ void asyncCopy(const float4 *in, float *out) {
  __shared__ __align__(16) float tile[128 * 4], part[128 * 4];
  unsigned t = threadIdx.x;
  unsigned smem = (unsigned)__cvta_generic_to_shared(&tile[t * 4]);
  unsigned psmem = (unsigned)__cvta_generic_to_shared(&part[t * 4]);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(smem), "l"(in + t));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, 4;" ::"r"(psmem), "l"(in + t));
  asm volatile("cp.async.commit_group;");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  float second;
  asm volatile("ld.shared.f32 %0, [%1+4];" : "=f"(second) : "r"(smem));
  float *back = (float *)__cvta_shared_to_generic(smem);
  out[t * 4 + 0] = tile[(127 - t) * 4 + 2]; // another thread's copy
  out[t * 4 + 1] = second;
  out[t * 4 + 2] = back[3];
  out[t * 4 + 3] = part[t * 4] + part[t * 4 + 1] + part[t * 4 + 2] + part[t * 4 + 3];
}

// The launch's dynamic shared memory as inline PTX reads it.
__global__ void smemSizes(unsigned *out) {
  __shared__ int fixed[16];
  extern __shared__ int dynamic[];
  dynamic[threadIdx.x] = (int)threadIdx.x;
  if (threadIdx.x < 16)
    fixed[threadIdx.x] = (int)threadIdx.x;
  __syncthreads();
  unsigned dyn, total;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
  asm("mov.u32 %0, %%total_smem_size;" : "=r"(total));
  if (threadIdx.x == 0)
    out[0] = dyn, out[1] = total, out[2] = (unsigned)(fixed[3] + dynamic[5]);
}

int main() {
  unsigned *d;
  CHECK_MUSA(musaMalloc(&d, N * OUTS * sizeof(unsigned)));
  blocks<<<N / 128, 128>>>(d);
  CHECK_MUSA(musaGetLastError());
  unsigned *h = (unsigned *)malloc(N * OUTS * sizeof(unsigned));
  CHECK_MUSA(musaMemcpy(h, d, N * OUTS * sizeof(unsigned), musaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N && bad < 10; ++i) {
    unsigned a, b;
    float f;
    inputs(i, a, b, f);
    unsigned want[OUTS];
    uint64_t s0 = (uint64_t)a + b, s1 = (uint64_t)b + a + (s0 >> 32);
    want[0] = (unsigned)s0, want[1] = (unsigned)s1, want[2] = a + 1 + (unsigned)(s1 >> 32);
    want[3] = (unsigned)s0, want[4] = b + a + (unsigned)(s0 >> 32);
    uint64_t d64 = (((uint64_t)b << 32) | a) - (((uint64_t)a << 32) | b);
    want[5] = (unsigned)d64, want[6] = (unsigned)(d64 >> 32);
    uint64_t m = (uint64_t)a * b + (((uint64_t)a << 32) | b);
    want[7] = (unsigned)m, want[8] = (unsigned)(m >> 32);
    want[9] = (int)a < (int)b ? a : b;
    want[10] = a > b ? a : 8;
    want[11] = a == b && a != 0, want[12] = (a != b && a != 0) ? 2 : 0;
    want[13] = (unsigned)(int)nearbyintf(f), want[14] = (unsigned)(int)truncf(f);
    want[15] = (unsigned)(int)floorf(f), want[16] = (unsigned)(int)ceilf(f);
    int t = (int)truncf(f);
    want[17] = t < 0 ? 0 : t > 255 ? 255 : t;
    want[18] = (int)a < 0 ? 0xffffffffu : 0;
    float g = (float)(int)b;
    memcpy(&want[19], &g, 4);
    uint64_t pool = ((uint64_t)b << 32) | a;
    unsigned sel = 0x8e25, p = 0;
    for (int k = 0; k < 4; ++k) {
      unsigned nib = (sel >> (4 * k)) & 15;
      unsigned byte = (unsigned)(pool >> (8 * (nib & 7))) & 255;
      if (nib & 8)
        byte = (byte & 0x80) ? 255 : 0;
      p |= byte << (8 * k);
    }
    want[20] = p;
    uint64_t packed = ((uint64_t)b << 32) | a;
    want[21] = b, want[22] = (unsigned)(packed + 1), want[23] = (unsigned)((packed + 1) >> 32);
    for (int k = 0; k < OUTS; ++k)
      if (h[i * OUTS + k] != want[k]) {
        CHECK(false, "input %d (a %#x b %#x f %g) result %d: %#x, expected %#x", i, a, b, f, k,
              h[i * OUTS + k], want[k]);
        ++bad;
      }
  }
  free(h);
  float hin[512], hout[512];
  for (int k = 0; k < 512; ++k)
    hin[k] = (float)(k * 3 + 1);
  float *fin, *fout;
  CHECK_MUSA(musaMalloc(&fin, sizeof hin));
  CHECK_MUSA(musaMalloc(&fout, sizeof hout));
  CHECK_MUSA(musaMemcpy(fin, hin, sizeof hin, musaMemcpyHostToDevice));
  asyncCopy<<<1, 128>>>((const float4 *)fin, fout);
  CHECK_MUSA(musaMemcpy(hout, fout, sizeof hout, musaMemcpyDeviceToHost));
  for (int t = 0; t < 128; ++t) {
    float want[4] = {hin[(127 - t) * 4 + 2], hin[t * 4 + 1], hin[t * 4 + 3], hin[t * 4]};
    for (int k = 0; k < 4; ++k)
      CHECK(hout[t * 4 + k] == want[k], "cp.async thread %d result %d: %g, expected %g", t, k,
            hout[t * 4 + k], want[k]);
  }
  CHECK_MUSA(musaFree(fin));
  CHECK_MUSA(musaFree(fout));
  warpPtx<<<1, 64>>>(d);
  unsigned w[64 * 6];
  CHECK_MUSA(musaMemcpy(w, d, sizeof w, musaMemcpyDeviceToHost));
  for (int t = 0; t < 64; ++t) {
    unsigned lane = t % 32, *o = w + t * 6;
    unsigned want[6] = {0xaaaaaaaau, 1, 1, 0, 528, lane < 31 ? lane + 1 : lane};
    for (int k = 0; k < 6; ++k)
      CHECK(o[k] == want[k], "warp thread %d result %d: %u, expected %u", t, k, o[k], want[k]);
  }
  smemSizes<<<1, 32, 1000>>>(d);
  unsigned sizes[3];
  CHECK_MUSA(musaMemcpy(sizes, d, sizeof sizes, musaMemcpyDeviceToHost));
  CHECK(sizes[0] == 1000, "%%dynamic_smem_size %u, expected 1000", sizes[0]);
  CHECK(sizes[1] >= 1000 + 16 * sizeof(int), "%%total_smem_size %u, below static + dynamic",
        sizes[1]);
  CHECK(sizes[2] == 8, "shared values %u", sizes[2]);
  CHECK_MUSA(musaFree(d));
  return finish("inline_ptx_blocks");
}
