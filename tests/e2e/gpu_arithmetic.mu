// Integer corner cases computed as a GPU computes them (kernel-jit/src/GpuArithmetic.cpp):
// C casts from float and double to integers saturate as the H200 does (NaN and char/short:
// see GpuArithmetic.cpp), shifts
// by the width or more give 0 (or the sign for a signed right shift) and integer division by
// zero never traps: the launch succeeds and every other thread's work is kept.
#include <musa_runtime.h>

#include <math.h>

#include "check.h"

struct Casts {
  int i;
  unsigned u;
  long long ll;
  unsigned long long ull;
  unsigned char uc;
  short s;
  int fromDouble;
};

__global__ void casts(const float *in, Casts *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float f = in[t];
  out[t] = {(int)f, (unsigned)f, (long long)f, (unsigned long long)f, (unsigned char)f,
            (short)f, (int)(double)f};
}

__global__ void shifts(const unsigned *amount, unsigned *mask, unsigned *right, int *sign,
                       unsigned long long *wide, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  unsigned k = amount[t];
  mask[t] = (1u << k) - 1u;
  right[t] = 0x80000000u >> k;
  sign[t] = int(0x80000000u) >> k;
  wide[t] = (1ull << (2 * k)) - 1ull;
}

__global__ void divide(const int *x, const int *d, int *q, int *r, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  q[t] = x[t] / d[t];
  r[t] = x[t] % d[t];
}

// __ffs(0) is 0 and abs() wraps at the least value, as on the H200 (inputs from memory).
__global__ void bitsAndAbs(const long long *in, long long *out) {
  int zero = int(in[0]), least = int(in[1]);
  out[0] = __ffs(zero);
  out[1] = __ffsll(in[0]);
  out[2] = __ffs(least);
  out[3] = abs(least);
  out[4] = llabs(in[2]);
  out[5] = abs(least + 1);
}

template <class T> T *deviceCopy(const T *host, int n) {
  T *p = nullptr;
  CHECK_MUSA(musaMalloc(&p, n * sizeof(T)));
  CHECK_MUSA(musaMemcpy(p, host, n * sizeof(T), musaMemcpyHostToDevice));
  return p;
}

int main() {
  {
    const float in[] = {1e10f, -1e10f, NAN, INFINITY, -INFINITY, -1.5f, 300.7f, 70000.f, 2.9f};
    const int n = sizeof in / sizeof in[0];
    float *dIn = deviceCopy(in, n);
    Casts *dOut = nullptr, out[n];
    CHECK_MUSA(musaMalloc(&dOut, sizeof out));
    casts<<<1, 32>>>(dIn, dOut, n);
    CHECK_MUSA(musaDeviceSynchronize());
    CHECK_MUSA(musaMemcpy(out, dOut, sizeof out, musaMemcpyDeviceToHost));
    // As the H200 gives them (tests/hardware/session11): char and short keep the low bits of
    // the saturated 32-bit conversion; NaN is 0 from float to 32 bits, only the top bit set
    // to 64 bits and from double.
    const Casts want[n] = {
        {2147483647, 4294967295u, 10000000000ll, 10000000000ull, 255, -1, 2147483647},
        {-2147483647 - 1, 0, -10000000000ll, 0, 0, 0, -2147483647 - 1},
        {0, 0, -9223372036854775807ll - 1, 9223372036854775808ull, 0, 0, 0}, // (int)(double)f
        // is (int)f once the optimiser has removed the exact widening, as nvcc's does
        {2147483647, 4294967295u, 9223372036854775807ll, 18446744073709551615ull, 255, -1,
         2147483647},
        {-2147483647 - 1, 0, -9223372036854775807ll - 1, 0, 0, 0, -2147483647 - 1},
        {-1, 0, -1, 0, 0, -1, -1},
        {300, 300, 300, 300, 44, 300, 300},
        {70000, 70000, 70000, 70000, 112, 4464, 70000},
        {2, 2, 2, 2, 2, 2, 2}};
    for (int t = 0; t < n; ++t) {
      const Casts &g = out[t], &w = want[t];
      CHECK(g.i == w.i && g.u == w.u && g.ll == w.ll && g.ull == w.ull && g.uc == w.uc &&
                g.s == w.s && g.fromDouble == w.fromDouble,
            "casts of %g: %d %u %lld %llu %u %d %d", in[t], g.i, g.u, g.ll, g.ull, g.uc, g.s,
            g.fromDouble);
    }
    CHECK_MUSA(musaFree(dIn));
    CHECK_MUSA(musaFree(dOut));
  }
  {
    const unsigned amount[] = {0, 4, 31, 32, 33, 40, 0xffffffffu};
    const int n = sizeof amount / sizeof amount[0];
    unsigned *dAmount = deviceCopy(amount, n), *dMask, *dRight;
    int *dSign;
    unsigned long long *dWide;
    CHECK_MUSA(musaMalloc(&dMask, n * sizeof(unsigned)));
    CHECK_MUSA(musaMalloc(&dRight, n * sizeof(unsigned)));
    CHECK_MUSA(musaMalloc(&dSign, n * sizeof(int)));
    CHECK_MUSA(musaMalloc(&dWide, n * sizeof(unsigned long long)));
    shifts<<<1, 32>>>(dAmount, dMask, dRight, dSign, dWide, n);
    CHECK_MUSA(musaDeviceSynchronize());
    unsigned mask[n], right[n];
    int sign[n];
    unsigned long long wide[n];
    CHECK_MUSA(musaMemcpy(mask, dMask, sizeof mask, musaMemcpyDeviceToHost));
    CHECK_MUSA(musaMemcpy(right, dRight, sizeof right, musaMemcpyDeviceToHost));
    CHECK_MUSA(musaMemcpy(sign, dSign, sizeof sign, musaMemcpyDeviceToHost));
    CHECK_MUSA(musaMemcpy(wide, dWide, sizeof wide, musaMemcpyDeviceToHost));
    for (int t = 0; t < n; ++t) {
      unsigned k = amount[t];
      unsigned long long k2 = 2ull * k; // (2 * k) in 32 bits wraps for the last amount
      k2 &= 0xffffffffull;
      CHECK(mask[t] == (k >= 32 ? 0xffffffffu : (1u << k) - 1u), "mask of %u: %x", k, mask[t]);
      CHECK(right[t] == (k >= 32 ? 0u : 0x80000000u >> k), "right shift by %u: %x", k, right[t]);
      CHECK(sign[t] == (k >= 32 ? -1 : int(0x80000000u) >> k), "signed shift by %u: %d", k,
            sign[t]);
      CHECK(wide[t] == (k2 >= 64 ? ~0ull : (1ull << k2) - 1ull), "64-bit mask of %llu: %llx", k2,
            wide[t]);
    }
    CHECK_MUSA(musaFree(dAmount));
    CHECK_MUSA(musaFree(dMask));
    CHECK_MUSA(musaFree(dRight));
    CHECK_MUSA(musaFree(dSign));
    CHECK_MUSA(musaFree(dWide));
  }
  {
    const int x[] = {7, -7, 100, -2147483647 - 1, -2147483647 - 1, 9};
    const int d[] = {2, 2, 0, -1, 0, -1};
    const int n = sizeof x / sizeof x[0];
    int *dx = deviceCopy(x, n), *dd = deviceCopy(d, n), *dq, *dr;
    CHECK_MUSA(musaMalloc(&dq, n * sizeof(int)));
    CHECK_MUSA(musaMalloc(&dr, n * sizeof(int)));
    divide<<<1, 32>>>(dx, dd, dq, dr, n);
    CHECK_MUSA(musaDeviceSynchronize()); // no arithmetic trap
    int q[n], r[n];
    CHECK_MUSA(musaMemcpy(q, dq, sizeof q, musaMemcpyDeviceToHost));
    CHECK_MUSA(musaMemcpy(r, dr, sizeof r, musaMemcpyDeviceToHost));
    // Ordinary quotients are kept; INT_MIN / -1 wraps as GPU arithmetic does.
    CHECK(q[0] == 3 && r[0] == 1 && q[1] == -3 && r[1] == -1, "7/2, -7/2: %d %d %d %d", q[0],
          r[0], q[1], r[1]);
    CHECK(q[3] == -2147483647 - 1 && r[3] == 0, "INT_MIN / -1: %d rem %d", q[3], r[3]);
    CHECK(q[5] == -9 && r[5] == 0, "9 / -1: %d rem %d", q[5], r[5]);
    // By zero, as the H200 gives it (tests/hardware/session11): all ones, and x % 0 is x.
    CHECK(q[2] == -1 && r[2] == 100 && q[4] == -1 && r[4] == -2147483647 - 1,
          "x / 0: %d %d %d %d", q[2], r[2], q[4], r[4]);
    CHECK_MUSA(musaFree(dx));
    CHECK_MUSA(musaFree(dd));
    CHECK_MUSA(musaFree(dq));
    CHECK_MUSA(musaFree(dr));
  }
  {
    const long long in[] = {0, -2147483647 - 1, -9223372036854775807ll - 1};
    long long *dIn = deviceCopy(in, 3), *dOut = nullptr, out[6];
    CHECK_MUSA(musaMalloc(&dOut, sizeof out));
    bitsAndAbs<<<1, 1>>>(dIn, dOut);
    CHECK_MUSA(musaMemcpy(out, dOut, sizeof out, musaMemcpyDeviceToHost));
    CHECK(out[0] == 0 && out[1] == 0 && out[2] == 32, "__ffs %lld %lld %lld", out[0], out[1],
          out[2]);
    CHECK(out[3] == -2147483647ll - 1 && out[4] == in[2] && out[5] == 2147483647,
          "abs %lld %lld %lld", out[3], out[4], out[5]);
    CHECK_MUSA(musaFree(dIn));
    CHECK_MUSA(musaFree(dOut));
  }
  return finish("gpu_arithmetic");
}
