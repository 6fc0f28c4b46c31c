// Atomic corner semantics that counter/ring-buffer code relies on:
//  - atomicInc / atomicDec wrap-around: ((old >= limit) ? 0 : old + 1) and
//    ((old == 0 || old > limit) ? limit : old - 1), including a start value above the limit,
//    limit 0xffffffff (plain wrapping at 2^32) and shared-memory operands; returned values form
//    the exact multiset the sequence of updates implies;
//  - 64-bit: atomicAdd(unsigned long long) wrapping past 2^64, atomicAdd(double) of exactly
//    representable values, atomicMin/atomicMax on long long (negative) and unsigned long long
//    (above 2^63), atomicCAS loops on values with both halves used, atomicExch (a permutation of
//    old values), atomicAnd/Or/Xor on the high word, the _block and _system variants;
//  - atomicCAS on unsigned short (CUDA 12, sm_70+), atomicSub, atomicAdd of negative ints.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <map>

#define CK(x) do { musaError_t e = (x); if (e != musaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, musaGetErrorString(e)); exit(2);} } while (0)

constexpr int T = 64 * 128;   // threads

struct Slots {
  unsigned inc, inc_hi, inc_max, dec, dec_hi, dec_max;
  unsigned long long add64, cas64, exch64, and64, or64, xor64;
  unsigned long long umin, umax;
  long long smin, smax;
  double dsum;
  int isub, iadd;
  unsigned short u16[4];
  unsigned shared_inc_result[64], shared_dec_result[64];
};

__global__ void hammer(Slots *s, unsigned *incOld, unsigned *decOld, unsigned *incHiOld,
                       unsigned long long *exchOld, unsigned *u16Done, int L) {
  __shared__ unsigned sinc, sdec;
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) { sinc = 0; sdec = 0; }
  __syncthreads();
  incOld[tid] = atomicInc(&s->inc, (unsigned)L);
  decOld[tid] = atomicDec(&s->dec, (unsigned)L);
  incHiOld[tid] = atomicInc(&s->inc_hi, (unsigned)L);   // starts above the limit
  atomicDec(&s->dec_hi, (unsigned)L);                    // starts above the limit
  atomicInc_system(&s->inc_max, 0xffffffffu);
  atomicDec_block(&s->dec_max, 0xffffffffu);
  atomicInc(&sinc, 9u);
  atomicDec(&sdec, 9u);
  atomicAdd(&s->add64, 3ull);
  // CAS loop: add (1 << 33) + 1
  unsigned long long old = s->cas64, assumed;
  do {
    assumed = old;
    old = atomicCAS(&s->cas64, assumed, assumed + (1ull << 33) + 1);
  } while (old != assumed);
  exchOld[tid] = atomicExch(&s->exch64, 0x100000000ull * (tid + 1) + tid);
  atomicAnd(&s->and64, ~(1ull << (32 + tid % 32)) | (tid % 64 < 32 ? 0ull : ~0ull));
  atomicOr_block(&s->or64, 1ull << (32 + tid % 31));
  atomicXor_system(&s->xor64, 1ull << (63 - tid % 64));
  long long sv = (long long)((tid * 7919) % 20011) - 10000;
  atomicMin(&s->smin, sv * 1000000007ll);
  atomicMax(&s->smax, sv * 1000000007ll);
  unsigned long long uv = 0x8000000000000000ull + (unsigned long long)((tid * 104729) % 65521) * 0x100000001ull;
  atomicMin(&s->umin, uv);
  atomicMax(&s->umax, uv);
  atomicAdd(&s->dsum, (double)(tid % 17) * 0.25 - 1.0);
  atomicSub(&s->isub, tid % 5);
  atomicAdd(&s->iadd, -(tid % 3));
  // 16-bit CAS: threads 0..3 of each block bump one of four shorts by CAS loop
  if (threadIdx.x < 4) {
    unsigned short *p = &s->u16[threadIdx.x];
    unsigned short o = *p, a;
    do { a = o; o = atomicCAS(p, a, (unsigned short)(a + 1)); } while (o != a);
    atomicAdd(u16Done, 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    s->shared_inc_result[blockIdx.x] = sinc;
    s->shared_dec_result[blockIdx.x] = sdec;
  }
}

int main() {
  const int L = 37, blocks = 64, threads = T / blocks;
  Slots h = {};
  h.inc = 0; h.inc_hi = 1000; h.inc_max = 0xffffff00u; h.dec = 0; h.dec_hi = 5000; h.dec_max = 0x80u;
  h.add64 = 0xffffffffffff0000ull; h.cas64 = 0xfffffff0ull; h.exch64 = 7;
  h.and64 = ~0ull; h.or64 = 0; h.xor64 = 0;
  h.umin = ~0ull; h.umax = 0; h.smin = 0x7fffffffffffffffll; h.smax = (long long)0x8000000000000000ull;
  h.dsum = 0.0; h.isub = 0; h.iadd = 0;
  h.u16[0] = 65530; h.u16[1] = 0; h.u16[2] = 100; h.u16[3] = 0xffff;
  Slots *d; unsigned *incOld, *decOld, *incHiOld, *u16Done; unsigned long long *exchOld;
  CK(musaMalloc(&d, sizeof(Slots)));
  CK(musaMalloc(&incOld, T * 4)); CK(musaMalloc(&decOld, T * 4)); CK(musaMalloc(&incHiOld, T * 4));
  CK(musaMalloc(&exchOld, T * 8)); CK(musaMalloc(&u16Done, 4));
  CK(musaMemset(u16Done, 0, 4));
  CK(musaMemcpy(d, &h, sizeof h, musaMemcpyHostToDevice));
  hammer<<<blocks, threads>>>(d, incOld, decOld, incHiOld, exchOld, u16Done, L);
  CK(musaGetLastError());
  CK(musaDeviceSynchronize());
  Slots g;
  CK(musaMemcpy(&g, d, sizeof g, musaMemcpyDeviceToHost));
  std::vector<unsigned> io(T), dol(T), iho(T);
  std::vector<unsigned long long> eo(T);
  CK(musaMemcpy(io.data(), incOld, T * 4, musaMemcpyDeviceToHost));
  CK(musaMemcpy(dol.data(), decOld, T * 4, musaMemcpyDeviceToHost));
  CK(musaMemcpy(iho.data(), incHiOld, T * 4, musaMemcpyDeviceToHost));
  CK(musaMemcpy(eo.data(), exchOld, T * 8, musaMemcpyDeviceToHost));
  bool ok = true;
  auto fail = [&](const char *what, unsigned long long got, unsigned long long exp) {
    printf("%s: got %llu (0x%llx), expected %llu (0x%llx)\n", what, got, got, exp, exp); ok = false;
  };
  // host replay of the sequential semantics
  auto inc = [](unsigned o, unsigned l) { return o >= l ? 0u : o + 1; };
  auto dec = [](unsigned o, unsigned l) { return (o == 0 || o > l) ? l : o - 1; };
  std::map<unsigned, int> incRef, decRef, incHiRef, incGot, decGot, incHiGot;
  unsigned a = 0, b = 0, c = 1000, e = 5000, f = 0xffffff00u, gg = 0x80u;
  for (int i = 0; i < T; ++i) {
    incRef[a]++; a = inc(a, L);
    decRef[b]++; b = dec(b, L);
    incHiRef[c]++; c = inc(c, L);
    e = dec(e, L); f = inc(f, 0xffffffffu); gg = dec(gg, 0xffffffffu);
  }
  for (int i = 0; i < T; ++i) { incGot[io[i]]++; decGot[dol[i]]++; incHiGot[iho[i]]++; }
  if (g.inc != a) fail("atomicInc final", g.inc, a);
  if (incGot != incRef) { printf("atomicInc returned values are not the expected multiset\n"); ok = false; }
  if (g.dec != b) fail("atomicDec final", g.dec, b);
  if (decGot != decRef) { printf("atomicDec returned values are not the expected multiset\n"); ok = false; }
  if (g.inc_hi != c) fail("atomicInc from above the limit, final", g.inc_hi, c);
  if (incHiGot != incHiRef) { printf("atomicInc from above the limit: returned values differ\n"); ok = false; }
  if (g.dec_hi != e) fail("atomicDec from above the limit, final", g.dec_hi, e);
  if (g.inc_max != f) fail("atomicInc_system limit 0xffffffff", g.inc_max, f);
  if (g.dec_max != gg) fail("atomicDec_block limit 0xffffffff", g.dec_max, gg);
  unsigned si = 0, sd = 0;
  for (int i = 0; i < threads; ++i) { si = inc(si, 9); sd = dec(sd, 9); }
  for (int bl = 0; bl < blocks; ++bl) {
    if (g.shared_inc_result[bl] != si) { fail("shared atomicInc", g.shared_inc_result[bl], si); break; }
    if (g.shared_dec_result[bl] != sd) { fail("shared atomicDec", g.shared_dec_result[bl], sd); break; }
  }
  unsigned long long add64 = 0xffffffffffff0000ull + 3ull * T;
  if (g.add64 != add64) fail("atomicAdd u64 wrap", g.add64, add64);
  unsigned long long cas64 = 0xfffffff0ull + (unsigned long long)T * ((1ull << 33) + 1);
  if (g.cas64 != cas64) fail("atomicCAS u64 loop", g.cas64, cas64);
  // exchange: the olds plus the final value are the initial value and every thread's value
  std::vector<unsigned long long> all(eo);
  all.push_back(g.exch64);
  std::vector<unsigned long long> expect{7};
  for (int t = 0; t < T; ++t) expect.push_back(0x100000000ull * (t + 1) + t);
  std::sort(all.begin(), all.end()); std::sort(expect.begin(), expect.end());
  if (all != expect) { printf("atomicExch u64: old values are not a permutation\n"); ok = false; }
  unsigned long long and64 = ~0ull, or64 = 0, xor64 = 0, umin = ~0ull, umax = 0;
  long long smin = 0x7fffffffffffffffll, smax = (long long)0x8000000000000000ull;
  double dsum = 0; int isub = 0, iadd = 0;
  for (int t = 0; t < T; ++t) {
    and64 &= ~(1ull << (32 + t % 32)) | (t % 64 < 32 ? 0ull : ~0ull);
    or64 |= 1ull << (32 + t % 31);
    xor64 ^= 1ull << (63 - t % 64);
    long long sv = (long long)((t * 7919) % 20011) - 10000;
    smin = std::min(smin, sv * 1000000007ll); smax = std::max(smax, sv * 1000000007ll);
    unsigned long long uv = 0x8000000000000000ull + (unsigned long long)((t * 104729) % 65521) * 0x100000001ull;
    umin = std::min(umin, uv); umax = std::max(umax, uv);
    dsum += (double)(t % 17) * 0.25 - 1.0;
    isub -= t % 5; iadd -= t % 3;
  }
  if (g.and64 != and64) fail("atomicAnd u64", g.and64, and64);
  if (g.or64 != or64) fail("atomicOr_block u64", g.or64, or64);
  if (g.xor64 != xor64) fail("atomicXor_system u64", g.xor64, xor64);
  if (g.smin != smin) fail("atomicMin s64", g.smin, smin);
  if (g.smax != smax) fail("atomicMax s64", g.smax, smax);
  if (g.umin != umin) fail("atomicMin u64", g.umin, umin);
  if (g.umax != umax) fail("atomicMax u64", g.umax, umax);
  if (g.dsum != dsum) { printf("atomicAdd double: %.17g expected %.17g\n", g.dsum, dsum); ok = false; }
  if (g.isub != isub) fail("atomicSub", g.isub, isub);
  if (g.iadd != iadd) fail("atomicAdd negative", g.iadd, iadd);
  unsigned short u16e[4] = {(unsigned short)(65530 + blocks), (unsigned short)blocks, (unsigned short)(100 + blocks), (unsigned short)(0xffff + blocks)};
  for (int i = 0; i < 4; ++i) if (g.u16[i] != u16e[i]) fail("atomicCAS u16", g.u16[i], u16e[i]);
  printf("atomics_wrap_64bit %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
