// Repro: plain C casts from float/double to integer types in device code. On NVIDIA GPUs these compile to
// cvt.rzi.{s32,u32,s64,u8,...}.f32, which clamp to the destination range and turn NaN into 0 (PTX ISA: "for
// float-to-integer conversions, the result is clamped to the destination range by default"), the same results the
// simulator gives for __float2int_rz and friends. The simulator gives x86's results instead: INT_MIN for any
// out-of-range or NaN value, wrap-around for unsigned/char targets.
#include <musa_runtime.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>

__global__ void casts(const float *f, const double *d, int *oi, unsigned *ou, long long *ol, unsigned char *oc,
                      int *odi, int *ointr) {
  int t = threadIdx.x;
  oi[t] = (int)f[t];
  ou[t] = (unsigned)f[t];
  ol[t] = (long long)f[t];
  oc[t] = (unsigned char)f[t];
  odi[t] = (int)d[t];
  ointr[t] = __float2int_rz(f[t]);
}

int main() {
  const int n = 6;
  float hf[n] = {1e10f, -1e10f, NAN, INFINITY, -1.5f, 300.0f};
  double hd[n] = {1e10, -1e10, NAN, INFINITY, -1.5, 300.0};
  // what cvt.rzi gives on the GPU
  int wi[n] = {INT_MAX, INT_MIN, 0, INT_MAX, -1, 300};
  unsigned wu[n] = {UINT_MAX, 0, 0, UINT_MAX, 0, 300};
  long long wl[n] = {10000000000LL, -10000000000LL, 0, LLONG_MAX, -1, 300};
  unsigned char wc[n] = {255, 0, 0, 255, 0, 255};  // 300: 255 by cvt.rzi.u8, 44 by cvt.rzi.u16 + byte store
  float *df;
  double *dd;
  int *oi, *odi, *ointr;
  unsigned *ou;
  long long *ol;
  unsigned char *oc;
  musaMalloc(&df, sizeof(hf));
  musaMalloc(&dd, sizeof(hd));
  musaMalloc(&oi, n * 4);
  musaMalloc(&odi, n * 4);
  musaMalloc(&ointr, n * 4);
  musaMalloc(&ou, n * 4);
  musaMalloc(&ol, n * 8);
  musaMalloc(&oc, n);
  musaMemcpy(df, hf, sizeof(hf), musaMemcpyHostToDevice);
  musaMemcpy(dd, hd, sizeof(hd), musaMemcpyHostToDevice);
  casts<<<1, n>>>(df, dd, oi, ou, ol, oc, odi, ointr);
  int ri[n], rdi[n], rintr[n];
  unsigned ru[n];
  long long rl[n];
  unsigned char rc[n];
  musaMemcpy(ri, oi, n * 4, musaMemcpyDeviceToHost);
  musaMemcpy(rdi, odi, n * 4, musaMemcpyDeviceToHost);
  musaMemcpy(rintr, ointr, n * 4, musaMemcpyDeviceToHost);
  musaMemcpy(ru, ou, n * 4, musaMemcpyDeviceToHost);
  musaMemcpy(rl, ol, n * 8, musaMemcpyDeviceToHost);
  musaMemcpy(rc, oc, n, musaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int ok = ri[i] == wi[i] && rdi[i] == wi[i] && ru[i] == wu[i] && rl[i] == wl[i] &&
             (rc[i] == wc[i] || (i == 5 && rc[i] == 44));
    printf("%-6g (int) %d  (double->int) %d  (unsigned) %u  (long long) %lld  (uchar) %u  __float2int_rz %d%s\n",
           hf[i], ri[i], rdi[i], ru[i], rl[i], rc[i], rintr[i], ok ? "" : "   <- GPU: differs");
    bad += !ok;
  }
  printf("repro_cast_saturation: %s\n", bad ? "FAILED" : "PASSED");
  return bad ? 1 : 0;
}
