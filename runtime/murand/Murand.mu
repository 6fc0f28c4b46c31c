// Murand.mu - libmurand, muRAND's host API (murand.h): generators that fill memory with the
// sequences of murand_kernel.h's device generators, in the order CUDA's cuRAND gives them.
//
// The order, read off CUDA 13's library (tests/e2e/random_host.mu checks it against values
// that library produced): XORWOW and MRG32k3a keep one state per subsequence (4096 and 81920
// of them), and value (or Box-Muller pair) number k of the generator's life comes from state
// k % S, which then moves on by what that value consumed; Philox4_32_10 keeps no state: value
// k comes from block k / 4 (one Philox block of four 32-bit words, two for doubles) of
// subsequence (k / 4) % 65536, counted from the start. The offset counts values (pairs for the
// Box-Muller distributions of XORWOW and MRG32k3a); a new seed or offset re-derives the states
// from (seed, offset) and keeps the offset.
//
// A device generator does its work as kernels of the virtual GPU on its stream (so stream
// order, graphs captured from the stream, faults on bad pointers and the timing model all come
// as they do for a user's kernel); a host generator runs the same code on the calling thread.
// As on an H200: a captured generate's graph draws new values at each launch (the offset lives
// in device memory), and a generate that must first set the generator up (new seed or offset)
// fails while its stream is captured, ending the capture.
// No fused multiply-adds anywhere here (the Box-Muller transforms in murand_kernel.h included),
// and the host's sines and cosines in device code too: a device generator gives what a host
// generator gives, the values of cuRAND's host generators.
#pragma clang fp contract(off)
#define __MURAND_HOST_MATH 1
#include <murand.h>
#include <murand_kernel.h>

#include <new>
#include <vector>

namespace {

enum class Kind {
  Bits,
  Uniform,
  UniformDouble,
  Normal,
  NormalDouble,
  LogNormal,
  LogNormalDouble,
  Poisson
};

// One generate call: where its values go and the distribution's parameters (mean is lambda
// for Poisson).
struct Request {
  Kind kind;
  void *out;
  size_t n;
  double mean, stddev;
};

__host__ __device__ bool isPair(Kind k) {
  return k == Kind::Normal || k == Kind::NormalDouble || k == Kind::LogNormal ||
         k == Kind::LogNormalDouble;
}
__host__ __device__ bool isDouble(Kind k) {
  return k == Kind::UniformDouble || k == Kind::NormalDouble || k == Kind::LogNormalDouble;
}

// mean + stddev * x, rounded twice as cuRAND rounds it.
__host__ __device__ float scaleF(float x, const Request &r) {
  return (float)r.mean + (float)r.stddev * x;
}
__host__ __device__ double scaleD(double x, const Request &r) { return r.mean + r.stddev * x; }
__host__ __device__ float logF(float x, const Request &r) { return expf(scaleF(x, r)); }
__host__ __device__ double logD(double x, const Request &r) { return exp(scaleD(x, r)); }

template <class T> __host__ __device__ void put(const Request &r, size_t i, T v) {
  if (i < r.n)
    static_cast<T *>(r.out)[i] = v;
}

// Value (or pair) number `at` of a stateful generator (XORWOW, MRG32k3a), from its state.
template <class State> __host__ __device__ void produce(State *s, const Request &r, size_t at) {
  switch (r.kind) {
  case Kind::Bits: put(r, at, murand(s)); break;
  case Kind::Uniform: put(r, at, murand_uniform(s)); break;
  case Kind::UniformDouble: put(r, at, murand_uniform_double(s)); break;
  case Kind::Poisson: put(r, at, murand_poisson(s, r.mean)); break;
  case Kind::Normal:
  case Kind::LogNormal: {
    float2 v = murand_normal2(s);
    bool log = r.kind == Kind::LogNormal;
    put(r, 2 * at, log ? logF(v.x, r) : scaleF(v.x, r));
    put(r, 2 * at + 1, log ? logF(v.y, r) : scaleF(v.y, r));
    break;
  }
  case Kind::NormalDouble:
  case Kind::LogNormalDouble: {
    double2 v = murand_normal2_double(s);
    bool log = r.kind == Kind::LogNormalDouble;
    put(r, 2 * at, log ? logD(v.x, r) : scaleD(v.x, r));
    put(r, 2 * at + 1, log ? logD(v.y, r) : scaleD(v.y, r));
    break;
  }
  }
}

// Philox: the four values of block `group` (counted over the generator's life), those of them
// in [first, first + r.n) written.
constexpr unsigned long long PhiloxStreams = 65536;
__host__ __device__ void producePhilox(unsigned long long seed, unsigned long long group,
                                       unsigned long long first, const Request &r) {
  murandStatePhilox4_32_10_t s;
  unsigned long long blocks = isDouble(r.kind) ? 2 : 1;
  murand_init(seed, group % PhiloxStreams, group / PhiloxStreams * 4 * blocks, &s);
  unsigned int bits[4];
  float f[4];
  double d[4];
  switch (r.kind) {
  case Kind::Bits: {
    uint4 v = murand4(&s);
    bits[0] = v.x, bits[1] = v.y, bits[2] = v.z, bits[3] = v.w;
    break;
  }
  case Kind::Poisson:
    for (unsigned int &b : bits)
      b = murand_poisson(&s, r.mean);
    break;
  case Kind::Uniform:
  case Kind::Normal:
  case Kind::LogNormal: {
    float4 v = r.kind == Kind::Uniform ? murand_uniform4(&s) : murand_normal4(&s);
    f[0] = v.x, f[1] = v.y, f[2] = v.z, f[3] = v.w;
    if (r.kind != Kind::Uniform)
      for (float &x : f)
        x = r.kind == Kind::LogNormal ? logF(x, r) : scaleF(x, r);
    break;
  }
  default: {
    for (int half = 0; half < 2; ++half) {
      double2 v = r.kind == Kind::UniformDouble ? murand_uniform2_double(&s)
                                                : murand_normal2_double(&s);
      d[2 * half] = v.x, d[2 * half + 1] = v.y;
    }
    if (r.kind != Kind::UniformDouble)
      for (double &x : d)
        x = r.kind == Kind::LogNormalDouble ? logD(x, r) : scaleD(x, r);
  }
  }
  for (int e = 0; e < 4; ++e) {
    unsigned long long at = group * 4 + e;
    if (at < first || at - first >= r.n)
      continue;
    size_t i = at - first;
    if (r.kind == Kind::Bits || r.kind == Kind::Poisson)
      put(r, i, bits[e]);
    else if (isDouble(r.kind))
      put(r, i, d[e]);
    else
      put(r, i, f[e]);
  }
}

// State t's position: the values before `offset` that fell to it.
template <class State>
__host__ __device__ void seedState(State *s, unsigned long long seed, unsigned long long t,
                                   unsigned long long offset, unsigned long long streams) {
  murand_init(seed, t, offset / streams + (t < offset % streams ? 1 : 0), s);
}

// A device generator keeps its offset in device memory, where its kernels read it and the
// last one of each generate advances it: a graph captured from a generate draws new values at
// each launch, as cuRAND's do (an H200: two replays differ, libs_probe.h200.txt).
template <class State>
__global__ void seedKernel(State *states, unsigned long long *deviceOffset,
                           unsigned long long seed, unsigned long long offset,
                           unsigned long long streams) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (t < streams)
    seedState(&states[t], seed, t, offset, streams);
  if (t == 0)
    *deviceOffset = offset;
}

__global__ void setOffsetKernel(unsigned long long *deviceOffset, unsigned long long offset) {
  *deviceOffset = offset;
}

__global__ void advanceKernel(unsigned long long *deviceOffset, unsigned long long count) {
  *deviceOffset += count;
}

// State t produces values t - offset (mod streams), then every streams-th one.
template <class State>
__global__ void stateKernel(State *states, const unsigned long long *deviceOffset,
                            unsigned long long streams, unsigned long long count, Request r) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (t >= streams)
    return;
  unsigned long long offset = *deviceOffset;
  State s = states[t];
  for (unsigned long long k = (t + streams - offset % streams) % streams; k < count; k += streams)
    produce(&s, r, k);
  states[t] = s;
}

// A thread a Philox block of the values [offset, offset + r.n): r.n / 4 + 2 threads cover them.
__global__ void philoxKernel(unsigned long long seed, const unsigned long long *deviceOffset,
                             Request r) {
  unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  unsigned long long offset = *deviceOffset;
  unsigned long long firstGroup = offset / 4, groups = (offset + r.n + 3) / 4 - firstGroup;
  if (g < groups)
    producePhilox(seed, firstGroup + g, offset, r);
}

constexpr unsigned int BlockSize = 256;
unsigned int blocksFor(unsigned long long threads) {
  return (unsigned int)((threads + BlockSize - 1) / BlockSize);
}

} // namespace

struct murandGenerator_st {
  murandRngType_t type;
  bool host;
  unsigned long long seed = 0;
  unsigned long long offset = 0;    // values (pairs) handed out, or set
  unsigned long long offsetSet = 0; // the offset last set (Philox's new seeds count from it)
  musaStream_t stream = nullptr;
  void *states = nullptr; // XORWOW and MRG32k3a: one state per subsequence
  unsigned long long *deviceOffset = nullptr; // a device generator's offset, as its kernels see it
  bool statesCurrent = false; // set up for the seed and offset (device: states and offset)
  std::vector<unsigned char> hostStates;

  bool philox() const { return type == MURAND_RNG_PSEUDO_PHILOX4_32_10; }
  bool mrg() const { return type == MURAND_RNG_PSEUDO_MRG32K3A; }
  unsigned long long streams() const { return mrg() ? 81920 : 4096; }
  size_t stateBytes() const {
    return streams() * (mrg() ? sizeof(murandStateMRG32k3a_t) : sizeof(murandStateXORWOW_t));
  }
};

namespace {

murandStatus_t launched() {
  return musaGetLastError() == musaSuccess ? MURAND_STATUS_SUCCESS
                                           : MURAND_STATUS_LAUNCH_FAILURE;
}

template <class State> murandStatus_t runStates(murandGenerator_st *g, const Request &r,
                                                unsigned long long count) {
  unsigned long long streams = g->streams();
  if (g->host) {
    if (g->hostStates.empty())
      g->hostStates.resize(g->stateBytes());
    State *states = reinterpret_cast<State *>(g->hostStates.data());
    if (!g->statesCurrent)
      for (unsigned long long t = 0; t < streams; ++t)
        seedState(&states[t], g->seed, t, g->offset, streams);
    for (unsigned long long k = 0; k < count; ++k)
      produce(&states[(g->offset + k) % streams], r, k);
    return MURAND_STATUS_SUCCESS;
  }
  if (!g->states && musaMalloc(&g->states, g->stateBytes()) != musaSuccess) {
    musaGetLastError();
    return MURAND_STATUS_ALLOCATION_FAILED;
  }
  State *states = static_cast<State *>(g->states);
  if (!g->statesCurrent)
    seedKernel<<<blocksFor(streams), BlockSize, 0, g->stream>>>(states, g->deviceOffset,
                                                                g->seed, g->offset, streams);
  if (count) {
    stateKernel<<<blocksFor(streams), BlockSize, 0, g->stream>>>(states, g->deviceOffset,
                                                                 streams, count, r);
    advanceKernel<<<1, 1, 0, g->stream>>>(g->deviceOffset, count);
  }
  return launched();
}

// r.n values (none: only the set-up murandGenerateSeeds asks for).
murandStatus_t runPhilox(murandGenerator_st *g, const Request &r) {
  if (g->host) {
    unsigned long long firstGroup = g->offset / 4;
    unsigned long long groups = r.n ? (g->offset + r.n + 3) / 4 - firstGroup : 0;
    for (unsigned long long k = 0; k < groups; ++k)
      producePhilox(g->seed, firstGroup + k, g->offset, r);
    return MURAND_STATUS_SUCCESS;
  }
  if (!g->statesCurrent)
    setOffsetKernel<<<1, 1, 0, g->stream>>>(g->deviceOffset, g->offset);
  if (r.n) {
    philoxKernel<<<blocksFor(r.n / 4 + 2), BlockSize, 0, g->stream>>>(g->seed, g->deviceOffset,
                                                                       r);
    advanceKernel<<<1, 1, 0, g->stream>>>(g->deviceOffset, r.n);
  }
  return launched();
}

// cuRAND sets a generator up (after a new seed or offset) with work a stream capture cannot
// hold: a generate then fails and ends the capture (an H200: LAUNCH_FAILURE, and the capture
// invalidated, libs_probe.h200.txt). Synchronizing the capturing stream does the same here.
bool refuseSetUpInCapture(murandGenerator_st *g) {
  musaStreamCaptureStatus capture = musaStreamCaptureStatusNone;
  if (g->host || g->statesCurrent || musaStreamIsCapturing(g->stream, &capture) != musaSuccess) {
    musaGetLastError();
    return false;
  }
  if (capture != musaStreamCaptureStatusActive)
    return false;
  musaStreamSynchronize(g->stream); // invalidates the capture
  musaGetLastError();
  return true;
}

// One generate (count values or pairs; 0: only the set-up murandGenerateSeeds asks for).
murandStatus_t run(murandGenerator_st *g, const Request &r, unsigned long long count) {
  if (!g->host && !g->deviceOffset &&
      musaMalloc(reinterpret_cast<void **>(&g->deviceOffset), sizeof *g->deviceOffset) !=
          musaSuccess) {
    musaGetLastError();
    return MURAND_STATUS_ALLOCATION_FAILED;
  }
  if (refuseSetUpInCapture(g))
    return MURAND_STATUS_LAUNCH_FAILURE;
  murandStatus_t status = g->philox() ? runPhilox(g, r)
                          : g->mrg()  ? runStates<murandStateMRG32k3a_t>(g, r, count)
                                      : runStates<murandStateXORWOW_t>(g, r, count);
  if (status == MURAND_STATUS_SUCCESS)
    g->statesCurrent = true;
  return status;
}

murandStatus_t generate(murandGenerator_t g, Request r) {
  if (!g)
    return MURAND_STATUS_NOT_INITIALIZED;
  if (r.n == 0)
    return MURAND_STATUS_SUCCESS;
  if (!r.out)
    return g->host ? MURAND_STATUS_OUT_OF_RANGE : MURAND_STATUS_LAUNCH_FAILURE;
  if (r.kind == Kind::Poisson && !(r.mean > 0.0))
    return MURAND_STATUS_OUT_OF_RANGE;
  bool pairs = isPair(r.kind) && !g->philox();
  if (pairs && r.n % 2)
    return MURAND_STATUS_LENGTH_NOT_MULTIPLE;
  unsigned long long count = pairs ? r.n / 2 : r.n;
  murandStatus_t status = run(g, r, count);
  if (status == MURAND_STATUS_SUCCESS)
    g->offset += count;
  return status;
}

murandStatus_t create(murandGenerator_t *out, murandRngType_t type, bool host) {
  if (!out)
    return MURAND_STATUS_NOT_INITIALIZED;
  switch (type) {
  case MURAND_RNG_PSEUDO_DEFAULT:
  case MURAND_RNG_PSEUDO_XORWOW:
  case MURAND_RNG_PSEUDO_MRG32K3A:
  case MURAND_RNG_PSEUDO_PHILOX4_32_10:
    break;
  default:
    return MURAND_STATUS_TYPE_ERROR; // MTGP32, MT19937 and Sobol are not provided
  }
  if (!host) {
    int device = 0;
    if (musaGetDevice(&device) != musaSuccess || musaFree(nullptr) != musaSuccess) {
      musaGetLastError();
      return MURAND_STATUS_INITIALIZATION_FAILED;
    }
  }
  murandGenerator_st *g = new (std::nothrow) murandGenerator_st{};
  if (!g)
    return MURAND_STATUS_ALLOCATION_FAILED;
  g->type = type == MURAND_RNG_PSEUDO_DEFAULT ? MURAND_RNG_PSEUDO_XORWOW : type;
  g->host = host;
  *out = g;
  return MURAND_STATUS_SUCCESS;
}

} // namespace

extern "C" {

murandStatus_t murandCreateGenerator(murandGenerator_t *generator, murandRngType_t rng_type) {
  return create(generator, rng_type, false);
}

murandStatus_t murandCreateGeneratorHost(murandGenerator_t *generator, murandRngType_t rng_type) {
  return create(generator, rng_type, true);
}

murandStatus_t murandDestroyGenerator(murandGenerator_t generator) {
  if (!generator)
    return MURAND_STATUS_NOT_INITIALIZED;
  if (generator->states || generator->deviceOffset) {
    // The generator's kernels may still be running: wait for them as cuRAND's free does.
    musaStreamSynchronize(generator->stream);
    musaFree(generator->states);
    musaFree(generator->deviceOffset);
    musaGetLastError();
  }
  delete generator;
  return MURAND_STATUS_SUCCESS;
}

murandStatus_t murandGetVersion(int *version) {
  if (!version)
    return MURAND_STATUS_OUT_OF_RANGE;
  *version = MURAND_VERSION;
  return MURAND_STATUS_SUCCESS;
}

murandStatus_t murandSetStream(murandGenerator_t generator, musaStream_t stream) {
  if (!generator)
    return MURAND_STATUS_NOT_INITIALIZED;
  generator->stream = stream;
  return MURAND_STATUS_SUCCESS;
}

murandStatus_t murandSetPseudoRandomGeneratorSeed(murandGenerator_t generator,
                                                  unsigned long long seed) {
  if (!generator)
    return MURAND_STATUS_NOT_INITIALIZED;
  if (seed == generator->seed)
    return MURAND_STATUS_SUCCESS; // cuRAND keeps its states (and their positions) then
  generator->seed = seed;
  generator->statesCurrent = false;
  if (generator->philox()) {
    // cuRAND's Philox generator, given a new seed, goes on from the offset last set plus the
    // number of block boundaries (every fourth value) passed since, not of values: read off
    // CUDA 13's library (random_host.mu's "new seed" scenarios), undocumented. Short of the
    // first boundary from an offset of 0 it keeps its place.
    unsigned long long base = generator->offsetSet, at = generator->offset;
    if (base != 0 || at >= 4)
      generator->offset = generator->offsetSet = base + at / 4 - base / 4;
  }
  return MURAND_STATUS_SUCCESS;
}

murandStatus_t murandSetGeneratorOffset(murandGenerator_t generator, unsigned long long offset) {
  if (!generator)
    return MURAND_STATUS_NOT_INITIALIZED;
  generator->offset = generator->offsetSet = offset;
  generator->statesCurrent = false;
  return MURAND_STATUS_SUCCESS;
}

murandStatus_t murandSetGeneratorOrdering(murandGenerator_t generator, murandOrdering_t order) {
  if (!generator)
    return MURAND_STATUS_NOT_INITIALIZED;
  switch (order) {
  case MURAND_ORDERING_PSEUDO_BEST:
  case MURAND_ORDERING_PSEUDO_DEFAULT:
  case MURAND_ORDERING_PSEUDO_LEGACY:
    return MURAND_STATUS_SUCCESS; // one ordering: these three are the same sequence in cuRAND
  case MURAND_ORDERING_PSEUDO_DYNAMIC:
    // "adjusted to the device": any ordering the device likes; cuRAND's host generators refuse it
    return generator->host ? MURAND_STATUS_OUT_OF_RANGE : MURAND_STATUS_SUCCESS;
  default:
    return MURAND_STATUS_OUT_OF_RANGE; // PSEUDO_SEEDED is not provided; QUASI_ is for Sobol
  }
}

murandStatus_t murandSetQuasiRandomGeneratorDimensions(murandGenerator_t generator,
                                                       unsigned int) {
  return generator ? MURAND_STATUS_TYPE_ERROR : MURAND_STATUS_NOT_INITIALIZED;
}

murandStatus_t murandGenerateSeeds(murandGenerator_t generator) {
  if (!generator)
    return MURAND_STATUS_NOT_INITIALIZED;
  return run(generator, Request{Kind::Bits, nullptr, 0, 0, 0}, 0);
}

murandStatus_t murandGenerate(murandGenerator_t generator, unsigned int *outputPtr, size_t num) {
  return generate(generator, {Kind::Bits, outputPtr, num, 0, 0});
}

murandStatus_t murandGenerateLongLong(murandGenerator_t generator, unsigned long long *, size_t) {
  // 64-bit values come from the 64-bit Sobol generators only
  return generator ? MURAND_STATUS_TYPE_ERROR : MURAND_STATUS_NOT_INITIALIZED;
}

murandStatus_t murandGenerateUniform(murandGenerator_t generator, float *outputPtr, size_t num) {
  return generate(generator, {Kind::Uniform, outputPtr, num, 0, 0});
}

murandStatus_t murandGenerateUniformDouble(murandGenerator_t generator, double *outputPtr,
                                           size_t num) {
  return generate(generator, {Kind::UniformDouble, outputPtr, num, 0, 0});
}

murandStatus_t murandGenerateNormal(murandGenerator_t generator, float *outputPtr, size_t n,
                                    float mean, float stddev) {
  return generate(generator, {Kind::Normal, outputPtr, n, mean, stddev});
}

murandStatus_t murandGenerateNormalDouble(murandGenerator_t generator, double *outputPtr,
                                          size_t n, double mean, double stddev) {
  return generate(generator, {Kind::NormalDouble, outputPtr, n, mean, stddev});
}

murandStatus_t murandGenerateLogNormal(murandGenerator_t generator, float *outputPtr, size_t n,
                                       float mean, float stddev) {
  return generate(generator, {Kind::LogNormal, outputPtr, n, mean, stddev});
}

murandStatus_t murandGenerateLogNormalDouble(murandGenerator_t generator, double *outputPtr,
                                             size_t n, double mean, double stddev) {
  return generate(generator, {Kind::LogNormalDouble, outputPtr, n, mean, stddev});
}

murandStatus_t murandGeneratePoisson(murandGenerator_t generator, unsigned int *outputPtr,
                                     size_t n, double lambda) {
  return generate(generator, {Kind::Poisson, outputPtr, n, lambda, 0});
}

} // extern "C"
