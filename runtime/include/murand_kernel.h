/* murand_kernel.h - random numbers in device code (muRAND's device API, CUDA's curand_kernel.h
 * one-to-one; curand_kernel.h gives the same under the curand names).
 *
 * Three generators, with the sequences of their CUDA counterparts: XORWOW (murandState, the
 * default; Marsaglia's xorshift with a Weyl sequence, period 2^192 - 2^32, subsequences 2^67
 * draws apart), Philox4_32_10 (a counter-based generator; a subsequence is the counter's
 * upper 64 bits) and MRG32k3a (L'Ecuyer's combined recurrence; subsequences 2^76 apart,
 * skipahead_subsequence, and sequences 2^127 apart). murand_init(seed, subsequence, offset, &state) seeds either; a thread per
 * subsequence is the usual pattern. Distributions: murand (32 bits), murand4 (Philox),
 * murand_uniform[_double] in (0, 1], murand_uniform4 / uniform2_double (Philox),
 * murand_normal[_double] and murand_normal2/4[_double] (Box-Muller, the second value of a pair
 * kept in the state), murand_log_normal[2/4][_double], murand_poisson. skipahead(n, &state) and
 * skipahead_sequence(n, &state) jump ahead. The bit-exact sequences are those of the
 * generators and of the uniform and normal transforms; murand_poisson draws from the right
 * distribution but not CUDA's exact sequence. Not provided: MTGP32 and the Sobol quasi-random
 * generators.
 */
#ifndef MURAND_KERNEL_H_
#define MURAND_KERNEL_H_

#include "musa_runtime.h"

#define MURAND_QUALIFIERS static __host__ __device__ __forceinline__

/* Device code computes the Box-Muller sines and cosines as CUDA's device code does (__sincosf,
 * sincospi); with __MURAND_HOST_MATH defined (libmurand's generators) as its host code does. */

/* 2^-32 and friends, as the transforms use them (the float forms round to nearest). */
#define MURAND_2POW32_INV (2.3283064e-10f)
#define MURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define MURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define MURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define MURAND_2PI (6.2831855f)
#define MURAND_PI_DOUBLE (3.1415926535897932)

/* Which value a state keeps for the next call (the second of a Box-Muller pair). */
#define MURAND_EXTRA_NORMAL 1
#define MURAND_EXTRA_LOG_NORMAL 2

extern "C" __host__ __device__ void __musa_sim_xorwow_skip(unsigned int *v,
                                                           unsigned long long subsequence,
                                                           unsigned long long offset);
extern "C" __host__ __device__ void __musa_sim_mrg32k3a_skip(unsigned int *s1, unsigned int *s2,
                                                             unsigned long long n,
                                                             unsigned int shift);

struct murandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct murandStateXORWOW murandStateXORWOW_t;
typedef struct murandStateXORWOW murandState_t;
typedef struct murandStateXORWOW murandState;

struct murandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct murandStatePhilox4_32_10 murandStatePhilox4_32_10_t;

struct murandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef struct murandStateMRG32k3a murandStateMRG32k3a_t;

/* ---- XORWOW ---------------------------------------------------------------------------- */

MURAND_QUALIFIERS void skipahead(unsigned long long n, murandStateXORWOW_t *state) {
  __musa_sim_xorwow_skip(state->v, 0, n);
  state->d += 362437u * (unsigned int)n;
}

/* Subsequences are 2^67 draws apart: the Weyl counter moves by a multiple of 2^32. */
MURAND_QUALIFIERS void skipahead_sequence(unsigned long long n, murandStateXORWOW_t *state) {
  __musa_sim_xorwow_skip(state->v, n, 0);
}

MURAND_QUALIFIERS void murand_init(unsigned long long seed, unsigned long long subsequence,
                                   unsigned long long offset, murandStateXORWOW_t *state) {
  /* The seed's halves, salted and mixed by odd multipliers; seed 0 gives Marsaglia's
   * published starting state. */
  unsigned int s0 = (unsigned int)seed ^ 0xaad26b49u;
  unsigned int s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
  unsigned int t0 = 1099087573u * s0;
  unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  if (subsequence | offset)
    __musa_sim_xorwow_skip(state->v, subsequence, offset);
  state->d += 362437u * (unsigned int)offset;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

MURAND_QUALIFIERS unsigned int murand(murandStateXORWOW_t *state) {
  unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437u;
  return state->v[4] + state->d;
}

/* ---- Philox4_32_10 --------------------------------------------------------------------- */

/* The 128-bit counter advanced by n (its low 64 bits, carrying into the high ones). */
MURAND_QUALIFIERS void __murand_philox_advance(murandStatePhilox4_32_10_t *s,
                                                unsigned long long n) {
  unsigned long long low = ((unsigned long long)s->ctr.y << 32 | s->ctr.x) + n;
  bool carry = low < n;
  s->ctr.x = (unsigned int)low;
  s->ctr.y = (unsigned int)(low >> 32);
  if (carry && ++s->ctr.z == 0)
    ++s->ctr.w;
}

MURAND_QUALIFIERS uint4 __murand_philox_round(uint4 c, uint2 k) {
  unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
  unsigned int hi0 = (unsigned int)(p0 >> 32), lo0 = (unsigned int)p0;
  unsigned int hi1 = (unsigned int)(p1 >> 32), lo1 = (unsigned int)p1;
  return make_uint4(hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0);
}

/* Ten rounds, the key bumped by the Weyl constants between them. */
MURAND_QUALIFIERS uint4 __murand_philox4x32_10(uint4 c, uint2 k) {
  for (int round = 0; round < 9; ++round) {
    c = __murand_philox_round(c, k);
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return __murand_philox_round(c, k);
}

MURAND_QUALIFIERS void skipahead(unsigned long long n, murandStatePhilox4_32_10_t *state) {
  state->STATE += (unsigned int)(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  __murand_philox_advance(state, n);
  state->output = __murand_philox4x32_10(state->ctr, state->key);
}

MURAND_QUALIFIERS void skipahead_sequence(unsigned long long n,
                                          murandStatePhilox4_32_10_t *state) {
  unsigned long long high = ((unsigned long long)state->ctr.w << 32 | state->ctr.z) + n;
  state->ctr.z = (unsigned int)high;
  state->ctr.w = (unsigned int)(high >> 32);
  state->output = __murand_philox4x32_10(state->ctr, state->key);
}

MURAND_QUALIFIERS void murand_init(unsigned long long seed, unsigned long long subsequence,
                                   unsigned long long offset,
                                   murandStatePhilox4_32_10_t *state) {
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key = make_uint2((unsigned int)seed, (unsigned int)(seed >> 32));
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

/* output[STATE] is always the next value to hand out. */
MURAND_QUALIFIERS unsigned int murand(murandStatePhilox4_32_10_t *state) {
  unsigned int out[4] = {state->output.x, state->output.y, state->output.z, state->output.w};
  unsigned int ret = out[state->STATE & 3];
  if (++state->STATE == 4) {
    __murand_philox_advance(state, 1);
    state->output = __murand_philox4x32_10(state->ctr, state->key);
    state->STATE = 0;
  }
  return ret;
}

MURAND_QUALIFIERS uint4 murand4(murandStatePhilox4_32_10_t *state) {
  uint4 now = state->output;
  __murand_philox_advance(state, 1);
  state->output = __murand_philox4x32_10(state->ctr, state->key);
  unsigned int all[8] = {now.x, now.y, now.z, now.w, state->output.x, state->output.y,
                         state->output.z, state->output.w};
  unsigned int s = state->STATE & 3;
  return make_uint4(all[s], all[s + 1], all[s + 2], all[s + 3]);
}

/* ---- MRG32k3a ----------------------------------------------------------------------------
 * L'Ecuyer's combined recurrences s1' = 1403580 s1[1] - 810728 s1[0] (mod m1) and
 * s2' = 527612 s2[2] - 1370589 s2[0] (mod m2); subsequences 2^76 draws apart, sequences
 * 2^127. A draw is their difference in [1, m1]. */
#define MURAND_MRG_M1 4294967087ull
#define MURAND_MRG_M2 4294944443ull
#define MURAND_MRG_NORM (2.3283065498378288e-10)

MURAND_QUALIFIERS void skipahead(unsigned long long n, murandStateMRG32k3a_t *state) {
  __musa_sim_mrg32k3a_skip(state->s1, state->s2, n, 0);
}
MURAND_QUALIFIERS void skipahead_subsequence(unsigned long long n, murandStateMRG32k3a_t *state) {
  __musa_sim_mrg32k3a_skip(state->s1, state->s2, n, 76);
}
MURAND_QUALIFIERS void skipahead_sequence(unsigned long long n, murandStateMRG32k3a_t *state) {
  __musa_sim_mrg32k3a_skip(state->s1, state->s2, n, 127);
}

MURAND_QUALIFIERS void murand_init(unsigned long long seed, unsigned long long subsequence,
                                   unsigned long long offset, murandStateMRG32k3a_t *state) {
  for (int i = 0; i < 3; ++i)
    state->s1[i] = state->s2[i] = 12345u;
  if (seed != 0ull) {
    unsigned long long x1 = (unsigned int)seed ^ 0x55555555u;
    unsigned long long x2 = (unsigned int)(seed >> 32) ^ 0xAAAAAAAAu;
    state->s1[0] = (unsigned int)(x1 * 12345u % MURAND_MRG_M1);
    state->s1[1] = (unsigned int)(x2 * 12345u % MURAND_MRG_M1);
    state->s1[2] = (unsigned int)(x1 * 12345u % MURAND_MRG_M1);
    state->s2[0] = (unsigned int)(x2 * 12345u % MURAND_MRG_M2);
    state->s2[1] = (unsigned int)(x1 * 12345u % MURAND_MRG_M2);
    state->s2[2] = (unsigned int)(x2 * 12345u % MURAND_MRG_M2);
  }
  if (subsequence)
    skipahead_subsequence(subsequence, state);
  if (offset)
    skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

/* One step; the draw in [1, m1]. */
MURAND_QUALIFIERS double __murand_mrg32k3a(murandStateMRG32k3a_t *state) {
  unsigned long long p1 =
      (1403580ull * state->s1[1] + 810728ull * (MURAND_MRG_M1 - state->s1[0])) % MURAND_MRG_M1;
  state->s1[0] = state->s1[1];
  state->s1[1] = state->s1[2];
  state->s1[2] = (unsigned int)p1;
  unsigned long long p2 =
      (527612ull * state->s2[2] + 1370589ull * (MURAND_MRG_M2 - state->s2[0])) % MURAND_MRG_M2;
  state->s2[0] = state->s2[1];
  state->s2[1] = state->s2[2];
  state->s2[2] = (unsigned int)p2;
  return p1 <= p2 ? double(p1) - double(p2) + double(MURAND_MRG_M1) : double(p1 - p2);
}

MURAND_QUALIFIERS unsigned int murand(murandStateMRG32k3a_t *state) {
  return (unsigned int)(__murand_mrg32k3a(state) * 1.000000048662); /* (2^32 - 1) / m1 */
}

/* ---- Uniform ----------------------------------------------------------------------------- */

MURAND_QUALIFIERS float __murand_uniform(unsigned int x) {
  return x * MURAND_2POW32_INV + (MURAND_2POW32_INV / 2.0f);
}
MURAND_QUALIFIERS double __murand_uniform_double(unsigned int x) {
  return x * MURAND_2POW32_INV_DOUBLE + MURAND_2POW32_INV_DOUBLE;
}
/* 53 bits from two draws. */
MURAND_QUALIFIERS double __murand_uniform_double_hq(unsigned int x, unsigned int y) {
  unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
  return z * MURAND_2POW53_INV_DOUBLE + (MURAND_2POW53_INV_DOUBLE / 2.0);
}

MURAND_QUALIFIERS float murand_uniform(murandStateXORWOW_t *state) {
  return __murand_uniform(murand(state));
}
MURAND_QUALIFIERS float murand_uniform(murandStatePhilox4_32_10_t *state) {
  return __murand_uniform(murand(state));
}
MURAND_QUALIFIERS double murand_uniform_double(murandStateXORWOW_t *state) {
  unsigned int x = murand(state);
  unsigned int y = murand(state);
  return __murand_uniform_double_hq(x, y);
}
MURAND_QUALIFIERS float murand_uniform(murandStateMRG32k3a_t *state) {
  return (float)(__murand_mrg32k3a(state) * MURAND_MRG_NORM);
}
MURAND_QUALIFIERS double murand_uniform_double(murandStateMRG32k3a_t *state) {
  return __murand_mrg32k3a(state) * MURAND_MRG_NORM;
}
/* One draw (32 bits of randomness), as CUDA's Philox form. */
MURAND_QUALIFIERS double murand_uniform_double(murandStatePhilox4_32_10_t *state) {
  return __murand_uniform_double(murand(state));
}
MURAND_QUALIFIERS float4 murand_uniform4(murandStatePhilox4_32_10_t *state) {
  uint4 x = murand4(state);
  return make_float4(__murand_uniform(x.x), __murand_uniform(x.y), __murand_uniform(x.z),
                     __murand_uniform(x.w));
}
MURAND_QUALIFIERS double2 murand_uniform2_double(murandStatePhilox4_32_10_t *state) {
  uint4 x = murand4(state);
  return make_double2(__murand_uniform_double_hq(x.x, x.y), __murand_uniform_double_hq(x.z, x.w));
}

/* ---- Normal (Box-Muller) ----------------------------------------------------------------- */

/* (r sin a, r cos a): the fast sine and cosine in device code, as CUDA's transform; for a
 * double, of pi times `a`. */
MURAND_QUALIFIERS float2 __murand_polar(float r, float a) {
  float sn, cs;
#if (defined(__MUSA_ARCH__) || defined(__CUDA_ARCH__)) && !defined(__MURAND_HOST_MATH)
  __sincosf(a, &sn, &cs);
#else
  sn = sinf(a);
  cs = cosf(a);
#endif
  return make_float2(sn * r, cs * r);
}
MURAND_QUALIFIERS double2 __murand_polar_pi(double r, double a) {
  double sn, cs;
#if (defined(__MUSA_ARCH__) || defined(__CUDA_ARCH__)) && !defined(__MURAND_HOST_MATH)
  sincospi(a, &sn, &cs);
#else
  sn = sin(a * MURAND_PI_DOUBLE);
  cs = cos(a * MURAND_PI_DOUBLE);
#endif
  return make_double2(sn * r, cs * r);
}

MURAND_QUALIFIERS float2 __murand_box_muller(unsigned int x, unsigned int y) {
  float u = x * MURAND_2POW32_INV + (MURAND_2POW32_INV / 2);
  float v = y * MURAND_2POW32_INV_2PI + (MURAND_2POW32_INV_2PI / 2);
  return __murand_polar(sqrtf(-2.0f * logf(u)), v);
}

MURAND_QUALIFIERS double2 __murand_box_muller_double(unsigned int x0, unsigned int x1,
                                                     unsigned int y0, unsigned int y1) {
  unsigned long long zx = (unsigned long long)x0 ^ ((unsigned long long)x1 << (53 - 32));
  double u = zx * MURAND_2POW53_INV_DOUBLE + (MURAND_2POW53_INV_DOUBLE / 2.0);
  unsigned long long zy = (unsigned long long)y0 ^ ((unsigned long long)y1 << (53 - 32));
  double v = zy * (MURAND_2POW53_INV_DOUBLE * 2.0) + MURAND_2POW53_INV_DOUBLE;
  return __murand_polar_pi(sqrt(-2.0 * log(u)), v);
}

/* Four draws for a double pair: XORWOW draws one at a time, Philox takes a whole murand4. */
MURAND_QUALIFIERS double2 __murand_normal_pair_double(murandStateXORWOW_t *state) {
  unsigned int x0 = murand(state), x1 = murand(state), y0 = murand(state), y1 = murand(state);
  return __murand_box_muller_double(x0, x1, y0, y1);
}
MURAND_QUALIFIERS double2 __murand_normal_pair_double(murandStatePhilox4_32_10_t *state) {
  uint4 x = murand4(state);
  return __murand_box_muller_double(x.x, x.y, x.z, x.w);
}

/* MRG32k3a's pairs come from its uniforms. */
MURAND_QUALIFIERS float2 __murand_normal_pair(murandStateMRG32k3a_t *state) {
  float x = murand_uniform(state);
  float y = murand_uniform(state) * MURAND_2PI;
  return __murand_polar(sqrtf(-2.0f * logf(x)), y);
}
MURAND_QUALIFIERS double2 __murand_normal_pair_double(murandStateMRG32k3a_t *state) {
  double x = murand_uniform_double(state);
  double y = murand_uniform_double(state) * 2.0;
  return __murand_polar_pi(sqrt(-2.0 * log(x)), y);
}

template <class State> MURAND_QUALIFIERS float2 __murand_normal_pair(State *state) {
  unsigned int x = murand(state);
  unsigned int y = murand(state);
  return __murand_box_muller(x, y);
}

/* Pairs: the first now, the second (through `f`) kept in the state for the next call, flagged
 * with the kind of value it is. */
template <class T, class Pair, class F>
MURAND_QUALIFIERS T __murand_kept(int &flag, T &extra, int kind, Pair pair, F f) {
  if (flag != kind) {
    auto v = pair();
    extra = f(v.y);
    flag = kind;
    return f(v.x);
  }
  flag = 0;
  return extra;
}
template <class State> MURAND_QUALIFIERS float __murand_normal(State *s) {
  return __murand_kept(s->boxmuller_flag, s->boxmuller_extra, MURAND_EXTRA_NORMAL,
                       [&] { return __murand_normal_pair(s); }, [](float x) { return x; });
}
template <class State> MURAND_QUALIFIERS double __murand_normal_double(State *s) {
  return __murand_kept(s->boxmuller_flag_double, s->boxmuller_extra_double, MURAND_EXTRA_NORMAL,
                       [&] { return __murand_normal_pair_double(s); },
                       [](double x) { return x; });
}
template <class State>
MURAND_QUALIFIERS float __murand_log_normal(State *s, float mean, float stddev) {
  return __murand_kept(s->boxmuller_flag, s->boxmuller_extra, MURAND_EXTRA_LOG_NORMAL,
                       [&] { return __murand_normal_pair(s); },
                       [&](float x) { return expf(mean + stddev * x); });
}
template <class State>
MURAND_QUALIFIERS double __murand_log_normal_double(State *s, double mean, double stddev) {
  return __murand_kept(s->boxmuller_flag_double, s->boxmuller_extra_double,
                       MURAND_EXTRA_LOG_NORMAL, [&] { return __murand_normal_pair_double(s); },
                       [&](double x) { return exp(mean + stddev * x); });
}

#define __MURAND_DISTRIBUTIONS(State)                                                          \
  MURAND_QUALIFIERS float murand_normal(State *s) { return __murand_normal(s); }               \
  MURAND_QUALIFIERS double murand_normal_double(State *s) { return __murand_normal_double(s); } \
  MURAND_QUALIFIERS float2 murand_normal2(State *s) { return __murand_normal_pair(s); }        \
  MURAND_QUALIFIERS double2 murand_normal2_double(State *s) {                                  \
    return __murand_normal_pair_double(s);                                                     \
  }                                                                                            \
  MURAND_QUALIFIERS float murand_log_normal(State *s, float mean, float stddev) {              \
    return __murand_log_normal(s, mean, stddev);                                               \
  }                                                                                            \
  MURAND_QUALIFIERS double murand_log_normal_double(State *s, double mean, double stddev) {    \
    return __murand_log_normal_double(s, mean, stddev);                                        \
  }                                                                                            \
  MURAND_QUALIFIERS float2 murand_log_normal2(State *s, float mean, float stddev) {            \
    float2 v = __murand_normal_pair(s);                                                        \
    return make_float2(expf(mean + stddev * v.x), expf(mean + stddev * v.y));                  \
  }                                                                                            \
  MURAND_QUALIFIERS double2 murand_log_normal2_double(State *s, double mean, double stddev) {  \
    double2 v = __murand_normal_pair_double(s);                                                \
    return make_double2(exp(mean + stddev * v.x), exp(mean + stddev * v.y));                   \
  }
__MURAND_DISTRIBUTIONS(murandStateXORWOW_t)
__MURAND_DISTRIBUTIONS(murandStatePhilox4_32_10_t)
__MURAND_DISTRIBUTIONS(murandStateMRG32k3a_t)
#undef __MURAND_DISTRIBUTIONS

MURAND_QUALIFIERS float4 murand_normal4(murandStatePhilox4_32_10_t *state) {
  uint4 x = murand4(state);
  float2 a = __murand_box_muller(x.x, x.y), b = __murand_box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
MURAND_QUALIFIERS float4 murand_log_normal4(murandStatePhilox4_32_10_t *state, float mean,
                                            float stddev) {
  float4 v = murand_normal4(state);
  return make_float4(expf(mean + stddev * v.x), expf(mean + stddev * v.y),
                     expf(mean + stddev * v.z), expf(mean + stddev * v.w));
}

/* ---- Poisson ----------------------------------------------------------------------------- */

/* Small means: uniforms multiplied until their product falls below e^-lambda (Knuth); large:
 * the normal approximation with a continuity correction. */
template <class State>
MURAND_QUALIFIERS unsigned int __murand_poisson(State *state, double lambda) {
  if (lambda < 64.0) {
    double limit = exp(-lambda), product = murand_uniform_double(state);
    unsigned int k = 0;
    while (product > limit) {
      ++k;
      product *= murand_uniform_double(state);
    }
    return k;
  }
  double x = lambda + sqrt(lambda) * murand_normal_double(state) + 0.5;
  return x <= 0.0 ? 0u : (unsigned int)x;
}
MURAND_QUALIFIERS unsigned int murand_poisson(murandStateXORWOW_t *state, double lambda) {
  return __murand_poisson(state, lambda);
}
MURAND_QUALIFIERS unsigned int murand_poisson(murandStatePhilox4_32_10_t *state, double lambda) {
  return __murand_poisson(state, lambda);
}
MURAND_QUALIFIERS unsigned int murand_poisson(murandStateMRG32k3a_t *state, double lambda) {
  return __murand_poisson(state, lambda);
}
MURAND_QUALIFIERS uint4 murand_poisson4(murandStatePhilox4_32_10_t *state, double lambda) {
  unsigned int a = __murand_poisson(state, lambda), b = __murand_poisson(state, lambda);
  unsigned int c = __murand_poisson(state, lambda), d = __murand_poisson(state, lambda);
  return make_uint4(a, b, c, d);
}

#endif /* MURAND_KERNEL_H_ */
