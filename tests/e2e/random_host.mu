// CUDA's host random-number library (curand.h; murand.h is the same under muRAND's names):
// device and host generators of XORWOW, Philox4_32_10 and MRG32k3a give the values CUDA 13's
// cuRAND gives. The expected hashes below are what CUDA 13's libcurand produced with host
// generators (curandCreateGeneratorHost) for the same calls: this file renamed to CUDA,
// compiled with nvcc and run with --print --host-only (tests/hardware/probes/curand-oracle.sh);
// a CUDA build's device generators are compared with what an H200 gave (the normal and
// log-normal values differ from the host generators' there, in the last bits).
// Each scenario is a sequence of calls (seeds, offsets, distributions mixed) hashed over every
// value it produced. Then the library's error codes, stream order, and a graph captured from a
// generator's stream.
#include "check.h"
#include <curand.h>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

// A check whose message is its condition (CHECK prints the condition and line already).
#define EXPECT(cond) CHECK(cond, "%s", "")

static bool deviceGen = true;

// FNV-1a over the bytes of every value a scenario produced.
struct Hash {
  unsigned long long h = 1469598103934665603ull;
  void add(const void *p, size_t bytes) {
    const unsigned char *c = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < bytes; ++i)
      h = (h ^ c[i]) * 1099511628211ull;
  }
};

// Runs one call into a buffer of n values, on the device or the host, and hashes the result.
template <class T, class Call> void fill(Hash &h, size_t n, Call call) {
  std::vector<T> host(n);
  if (deviceGen) {
    T *d = nullptr;
    EXPECT(musaMalloc(&d, n * sizeof(T) + 1) == musaSuccess);
    EXPECT(call(d) == CURAND_STATUS_SUCCESS);
    EXPECT(musaMemcpy(host.data(), d, n * sizeof(T), musaMemcpyDeviceToHost) == musaSuccess);
    musaFree(d);
  } else {
    EXPECT(call(host.data()) == CURAND_STATUS_SUCCESS);
  }
  h.add(host.data(), n * sizeof(T));
}

struct Gen {
  curandGenerator_t g = nullptr;
  Hash h;
  Gen(curandRngType_t type, bool seed = true) {
    EXPECT((deviceGen ? curandCreateGenerator(&g, type) : curandCreateGeneratorHost(&g, type)) ==
          CURAND_STATUS_SUCCESS);
    if (seed)
      EXPECT(curandSetPseudoRandomGeneratorSeed(g, 1234) == CURAND_STATUS_SUCCESS);
  }
  ~Gen() { EXPECT(curandDestroyGenerator(g) == CURAND_STATUS_SUCCESS); }
  Gen &seed(unsigned long long s) {
    EXPECT(curandSetPseudoRandomGeneratorSeed(g, s) == CURAND_STATUS_SUCCESS);
    return *this;
  }
  Gen &offset(unsigned long long o) {
    EXPECT(curandSetGeneratorOffset(g, o) == CURAND_STATUS_SUCCESS);
    return *this;
  }
  Gen &u32(size_t n) {
    fill<unsigned>(h, n, [&](unsigned *p) { return curandGenerate(g, p, n); });
    return *this;
  }
  Gen &uniform(size_t n) {
    fill<float>(h, n, [&](float *p) { return curandGenerateUniform(g, p, n); });
    return *this;
  }
  Gen &udouble(size_t n) {
    fill<double>(h, n, [&](double *p) { return curandGenerateUniformDouble(g, p, n); });
    return *this;
  }
  Gen &normal(size_t n, float mean = 0.f, float sd = 1.f) {
    fill<float>(h, n, [&](float *p) { return curandGenerateNormal(g, p, n, mean, sd); });
    return *this;
  }
  Gen &ndouble(size_t n, double mean = 0., double sd = 1.) {
    fill<double>(h, n, [&](double *p) { return curandGenerateNormalDouble(g, p, n, mean, sd); });
    return *this;
  }
  Gen &lognormal(size_t n, float mean, float sd) {
    fill<float>(h, n, [&](float *p) { return curandGenerateLogNormal(g, p, n, mean, sd); });
    return *this;
  }
  Gen &lndouble(size_t n, double mean, double sd) {
    fill<double>(h, n,
                 [&](double *p) { return curandGenerateLogNormalDouble(g, p, n, mean, sd); });
    return *this;
  }
};

struct Expected {
  const char *name;
  unsigned long long hash;
};
#include "random_host_expected.h"
#include "random_host_gpu.h"

static std::vector<std::pair<std::string, unsigned long long>> runScenarios() {
  std::vector<std::pair<std::string, unsigned long long>> got;
  const struct {
    const char *name;
    curandRngType_t type;
  } types[] = {{"xorwow", CURAND_RNG_PSEUDO_XORWOW},
               {"philox", CURAND_RNG_PSEUDO_PHILOX4_32_10},
               {"mrg32k3a", CURAND_RNG_PSEUDO_MRG32K3A}};
  for (const auto &t : types) {
    auto add = [&](const char *what, Gen &g) {
      got.push_back({std::string(t.name) + " " + what, g.h.h});
    };
    { Gen g(t.type); g.u32(10000); add("u32", g); }
    { Gen g(t.type); g.uniform(10007); add("uniform", g); }
    { Gen g(t.type); g.normal(10000, 1.7f, 0.3f); add("normal", g); }
    { Gen g(t.type); g.udouble(5001); add("uniform double", g); }
    { Gen g(t.type); g.ndouble(5000, -2.0, 0.7); add("normal double", g); }
    { Gen g(t.type); g.lognormal(4096, 0.2f, 0.3f); add("log-normal", g); }
    { Gen g(t.type); g.lndouble(2048, 0.1, 0.5); add("log-normal double", g); }
    { Gen g(t.type); g.u32(5).normal(6).u32(4100).udouble(3).uniform(90000); add("mixed", g); }
    { Gen g(t.type); g.offset(3 * 4096 + 5).u32(100).normal(100).udouble(50); add("offset", g); }
    { Gen g(t.type); g.offset(3 * 81920 + 5).u32(100).normal(100); add("large offset", g); }
    { Gen g(t.type); g.offset(1).normal(4).u32(4); add("odd offset", g); }
    { Gen g(t.type); g.u32(8).seed(99).uniform(100); add("reseed", g); }
    { Gen g(t.type); g.normal(6).seed(1234).u32(4104); add("reseed after pairs", g); }
    { Gen g(t.type); g.normal(6).seed(99).u32(4104); add("new seed after pairs", g); }
    { Gen g(t.type); g.u32(3).seed(99).u32(10).seed(7).u32(10); add("new seeds", g); }
    { Gen g(t.type); g.offset(3).u32(2).seed(99).u32(10); add("offset, new seed", g); }
    {
      Gen g(t.type);
      g.u32(10).u32(2).seed(99).normal(6).seed(5).udouble(9);
      add("new seed, types", g);
    }
    { Gen g(t.type, false); g.u32(16); add("default seed", g); }
    { Gen g(t.type); g.seed(0x123456789abcdefull).u32(1000).normal(1000); add("64-bit seed", g); }
  }
  {
    Gen g(CURAND_RNG_PSEUDO_PHILOX4_32_10);
    g.normal(7).u32(5).udouble(3).u32(6);
    got.push_back({"philox odd lengths", g.h.h});
  }
  { Gen g(CURAND_RNG_PSEUDO_DEFAULT); g.u32(300); got.push_back({"default type", g.h.h}); }
  return got;
}

template <size_t N>
static void checkScenarios(const char *which, const Expected (&table)[N]) {
  auto got = runScenarios();
  size_t bad = 0;
  for (const auto &[name, hash] : got) {
    const Expected *e = nullptr;
    for (const Expected &x : table)
      if (name == x.name)
        e = &x;
    if (!e || e->hash != hash) {
      ++bad;
      std::printf("FAIL: %s generator, %s: hash %#llx, cuRAND's %#llx\n", which, name.c_str(),
                  hash, e ? e->hash : 0ull);
    }
  }
  std::printf("%s generators: %zu of %zu scenarios as cuRAND\n", which, got.size() - bad,
              got.size());
}

__global__ void scaleKernel(float *v, size_t n, float by) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n)
    v[i] *= by;
}

int main(int argc, char **argv) {
  bool print = false, hostOnly = false;
  for (int i = 1; i < argc; ++i) {
    print |= std::strcmp(argv[i], "--print") == 0;
    hostOnly |= std::strcmp(argv[i], "--host-only") == 0;
  }
  if (print) {
    deviceGen = !hostOnly;
    for (const auto &[name, hash] : runScenarios())
      std::printf("    {\"%s\", %#llxull},\n", name.c_str(), hash);
    return 0;
  }
#ifdef __MUSA_SIM_ARCH__
  checkScenarios("device", expected); // the simulator's device generators: the host's values
#else
  checkScenarios("device", expectedGpuDevice); // a GPU's: its own Box-Muller rounding
#endif
  deviceGen = false;
  checkScenarios("host", expected);

  // What a program sees: values in range, moments, and the default type being XORWOW.
  const size_t n = 1 << 20;
  float *d = nullptr;
  EXPECT(musaMalloc(&d, n * sizeof(float)) == musaSuccess);
  curandGenerator_t g;
  EXPECT(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT) == CURAND_STATUS_SUCCESS);
  EXPECT(curandSetPseudoRandomGeneratorSeed(g, 42) == CURAND_STATUS_SUCCESS);
  EXPECT(curandGenerateUniform(g, d, n) == CURAND_STATUS_SUCCESS);
  std::vector<float> h(n);
  EXPECT(musaMemcpy(h.data(), d, n * sizeof(float), musaMemcpyDeviceToHost) == musaSuccess);
  double sum = 0, lo = 1, hi = 0;
  for (float x : h) {
    sum += x;
    lo = std::fmin(lo, x);
    hi = std::fmax(hi, x);
  }
  EXPECT(lo > 0.0 && hi <= 1.0);
  EXPECT(std::fabs(sum / n - 0.5) < 0.002);
  EXPECT(curandGenerateNormal(g, d, n, 3.0f, 2.0f) == CURAND_STATUS_SUCCESS);
  EXPECT(musaMemcpy(h.data(), d, n * sizeof(float), musaMemcpyDeviceToHost) == musaSuccess);
  double s1 = 0, s2 = 0;
  for (float x : h)
    s1 += x, s2 += (double)x * x;
  double mean = s1 / n, var = s2 / n - mean * mean;
  EXPECT(std::fabs(mean - 3.0) < 0.01 && std::fabs(var - 4.0) < 0.05);
  unsigned *counts = nullptr;
  EXPECT(musaMalloc(&counts, n * sizeof(unsigned)) == musaSuccess);
  EXPECT(curandGeneratePoisson(g, counts, n, 4.5) == CURAND_STATUS_SUCCESS);
  std::vector<unsigned> c(n);
  EXPECT(musaMemcpy(c.data(), counts, n * sizeof(unsigned), musaMemcpyDeviceToHost) == musaSuccess);
  s1 = s2 = 0;
  for (unsigned x : c)
    s1 += x, s2 += (double)x * x;
  mean = s1 / n, var = s2 / n - mean * mean;
  EXPECT(std::fabs(mean - 4.5) < 0.02 && std::fabs(var - 4.5) < 0.05);

  // Stream order: generated on a stream, scaled by a kernel behind it, read back.
  musaStream_t s;
  EXPECT(musaStreamCreate(&s) == musaSuccess);
  EXPECT(curandSetStream(g, s) == CURAND_STATUS_SUCCESS);
  EXPECT(curandSetGeneratorOffset(g, 0) == CURAND_STATUS_SUCCESS);
  EXPECT(curandGenerateUniform(g, d, n) == CURAND_STATUS_SUCCESS);
  scaleKernel<<<(n + 255) / 256, 256, 0, s>>>(d, n, -1.f);
  EXPECT(musaMemcpyAsync(h.data(), d, n * sizeof(float), musaMemcpyDeviceToHost, s) == musaSuccess);
  EXPECT(musaStreamSynchronize(s) == musaSuccess);
  bool negative = true;
  for (float x : h)
    negative &= x < 0.f;
  EXPECT(negative);

  // Capture, as an H200 does it (tests/hardware/session22/libs_probe.h200.txt): right after
  // the offset changed a generate fails and ends the capture; after a generate one is captured,
  // and each launch of the graph draws the next values.
  const std::vector<float> negatedBefore = h; // offset 0's values, negated by scaleKernel
  EXPECT(curandSetGeneratorOffset(g, 0) == CURAND_STATUS_SUCCESS);
  EXPECT(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal) == musaSuccess);
  EXPECT(curandGenerateUniform(g, d, n) == CURAND_STATUS_LAUNCH_FAILURE);
  musaGraph_t graph = nullptr;
  EXPECT(musaStreamEndCapture(s, &graph) == musaErrorStreamCaptureInvalidated);
  musaGetLastError();
  EXPECT(curandGenerateUniform(g, d, n) == CURAND_STATUS_SUCCESS); // offset 0 again
  EXPECT(musaMemcpyAsync(h.data(), d, n * sizeof(float), musaMemcpyDeviceToHost, s) ==
         musaSuccess);
  EXPECT(musaStreamBeginCapture(s, musaStreamCaptureModeGlobal) == musaSuccess);
  EXPECT(curandGenerateUniform(g, d, n) == CURAND_STATUS_SUCCESS);
  EXPECT(musaStreamEndCapture(s, &graph) == musaSuccess);
  musaGraphExec_t exec;
  EXPECT(musaGraphInstantiate(&exec, graph, nullptr, nullptr, 0) == musaSuccess);
  std::vector<float> first(n), second(n);
  EXPECT(musaGraphLaunch(exec, s) == musaSuccess);
  EXPECT(musaMemcpyAsync(first.data(), d, n * sizeof(float), musaMemcpyDeviceToHost, s) ==
         musaSuccess);
  EXPECT(musaGraphLaunch(exec, s) == musaSuccess);
  EXPECT(musaMemcpyAsync(second.data(), d, n * sizeof(float), musaMemcpyDeviceToHost, s) ==
         musaSuccess);
  EXPECT(musaStreamSynchronize(s) == musaSuccess);
  size_t negated = 0, differ = 0;
  for (size_t i = 0; i < n; ++i)
    negated += h[i] == -negatedBefore[i], differ += first[i] != second[i];
  CHECK(negated == n, "offset 0 again: %zu of %zu values as before", negated, n);
  CHECK(differ > n / 2, "two launches of a captured generate: %zu of %zu values differ", differ,
        n);
#ifdef __MUSA_SIM_ARCH__
  // Here, exactly: the launches drew values n to 2n - 1 and 2n to 3n - 1 of the sequence.
  {
    curandGenerator_t ref;
    std::vector<float> want(2 * n);
    EXPECT(curandCreateGeneratorHost(&ref, CURAND_RNG_PSEUDO_DEFAULT) == CURAND_STATUS_SUCCESS);
    EXPECT(curandSetPseudoRandomGeneratorSeed(ref, 42) == CURAND_STATUS_SUCCESS);
    EXPECT(curandSetGeneratorOffset(ref, n) == CURAND_STATUS_SUCCESS);
    EXPECT(curandGenerateUniform(ref, want.data(), 2 * n) == CURAND_STATUS_SUCCESS);
    EXPECT(curandDestroyGenerator(ref) == CURAND_STATUS_SUCCESS);
    size_t same = 0;
    for (size_t i = 0; i < n; ++i)
      same += (first[i] == want[i]) + (second[i] == want[n + i]);
    CHECK(same == 2 * n, "replays: %zu of %zu values as the sequence goes on", same, 2 * n);
  }
#endif
  EXPECT(musaGraphExecDestroy(exec) == musaSuccess);
  EXPECT(musaGraphDestroy(graph) == musaSuccess);

  // Errors, as cuRAND gives them.
  float f[8];
  EXPECT(curandGenerateNormal(g, d, 7, 0.f, 1.f) == CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  EXPECT(curandGenerateLongLong(g, nullptr, 4) == CURAND_STATUS_TYPE_ERROR);
  EXPECT(curandSetQuasiRandomGeneratorDimensions(g, 2) == CURAND_STATUS_TYPE_ERROR);
  EXPECT(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_LEGACY) == CURAND_STATUS_SUCCESS);
  EXPECT(curandSetGeneratorOrdering(g, CURAND_ORDERING_QUASI_DEFAULT) ==
         CURAND_STATUS_OUT_OF_RANGE);
  EXPECT(curandGeneratePoisson(g, counts, 4, 0.0) == CURAND_STATUS_OUT_OF_RANGE);
  EXPECT(curandGenerateUniform(g, d, 0) == CURAND_STATUS_SUCCESS);
  EXPECT(curandGenerate(nullptr, counts, 4) == CURAND_STATUS_NOT_INITIALIZED);
  curandGenerator_t other;
  EXPECT(curandCreateGenerator(&other, (curandRngType_t)5) == CURAND_STATUS_TYPE_ERROR);
  EXPECT(curandCreateGeneratorHost(&other, CURAND_RNG_PSEUDO_PHILOX4_32_10) ==
        CURAND_STATUS_SUCCESS);
  EXPECT(curandGenerateNormal(other, f, 7, 0.f, 1.f) == CURAND_STATUS_SUCCESS); // Philox: any n
  EXPECT(curandSetGeneratorOrdering(other, CURAND_ORDERING_PSEUDO_DYNAMIC) ==
        CURAND_STATUS_OUT_OF_RANGE);
  EXPECT(curandDestroyGenerator(other) == CURAND_STATUS_SUCCESS);
  int version = 0;
  EXPECT(curandGetVersion(&version) == CURAND_STATUS_SUCCESS && version >= 10000);
#ifdef __MUSA_SIM_ARCH__
  // Not provided here (cuRAND has them): MTGP32, MT19937, Sobol, the SEEDED ordering.
  EXPECT(curandCreateGenerator(&other, CURAND_RNG_PSEUDO_MTGP32) == CURAND_STATUS_TYPE_ERROR);
  EXPECT(curandCreateGenerator(&other, CURAND_RNG_QUASI_SOBOL32) == CURAND_STATUS_TYPE_ERROR);
  EXPECT(curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_SEEDED) ==
         CURAND_STATUS_OUT_OF_RANGE);
#endif
  EXPECT(curandDestroyGenerator(g) == CURAND_STATUS_SUCCESS);
  musaFree(d);
  musaFree(counts);
  musaStreamDestroy(s);
  return finish("random_host");
}
