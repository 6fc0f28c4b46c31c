// The harness the validation suites timing_fresh.mu and timing_blind.mu share (the older
// suites carry their own copy of it): CHECK, a warm-up, the median of g_repeats event-timed
// runs on stream 0, the RESULT and FAIL lines, and a hash for test data.
#pragma once

#include <musa_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(expr)                                                                          \
  do {                                                                                       \
    musaError_t e_ = (expr);                                                                 \
    if (e_ != musaSuccess) {                                                                 \
      std::printf("ERROR %s:%d %s: %s\n", __FILE__, __LINE__, #expr, musaGetErrorString(e_)); \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)

static int g_repeats = 1;
static int g_failures = 0;
static musaEvent_t g_start, g_stop;

template <class F> static void warm(F op) {
  op();
  CHECK(musaGetLastError());
  CHECK(musaDeviceSynchronize());
}

template <class F> static float time_median(F op) {
  std::vector<float> t;
  for (int r = 0; r < g_repeats; ++r) {
    CHECK(musaEventRecord(g_start, 0));
    op();
    CHECK(musaEventRecord(g_stop, 0));
    CHECK(musaEventSynchronize(g_stop));
    CHECK(musaGetLastError());
    float ms = 0.f;
    CHECK(musaEventElapsedTime(&ms, g_start, g_stop));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  size_t m = t.size() / 2;
  return t.size() % 2 ? t[m] : 0.5f * (t[m - 1] + t[m]);
}

static void report(const char *kernel, const char *config, float ms) {
  std::printf("RESULT %s %s %.6f\n", kernel, config, ms);
  std::fflush(stdout);
}

static void fail(const char *kernel, const char *config, long idx, double got, double want) {
  std::printf("FAIL %s %s at %ld: got %g want %g\n", kernel, config, idx, got, want);
  ++g_failures;
}

static bool near(double got, double want, double tol) {
  return std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want));
}

// Host and device code both use it (test data made on the device, checked on the host).
static __host__ __device__ unsigned hash_u32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}
