// semantics_probe2.mu: the conversions and divisions semantics_probe.mu left open (session 11):
// NaN and out-of-range values converted from float and double to every integer width, narrow
// destinations (char, short) from both, and 64-bit division and remainder by zero with
// dividends of both signs and beyond 32 bits. Inputs come from device memory. Each line is
// `name value`, compared line by line between the GPU and the simulator.
#include <cstdio>
#include <cstdint>
#include <cmath>

struct In {
  float fnan, f300, fm300, f1e6, fm1e6, fm5, f1e10, fm1e10, finf;
  double dnan, d300, dm300, d1e6, dm1e6, d1e20, dm1e20, dinf;
  long long l[6];
  long long zero;
};

__global__ void probe(const In *p, long long *o) {
  In v = *p;
  int k = 0;
  // float -> every width, NaN and out of range
  o[k++] = (int)v.fnan; o[k++] = (long long)(unsigned)v.fnan; o[k++] = (long long)v.fnan;
  o[k++] = (long long)(unsigned long long)v.fnan; o[k++] = (signed char)v.fnan;
  o[k++] = (unsigned char)v.fnan; o[k++] = (short)v.fnan; o[k++] = (unsigned short)v.fnan;
  // double -> every width, NaN
  o[k++] = (int)v.dnan; o[k++] = (long long)(unsigned)v.dnan; o[k++] = (long long)v.dnan;
  o[k++] = (long long)(unsigned long long)v.dnan; o[k++] = (signed char)v.dnan;
  o[k++] = (unsigned char)v.dnan; o[k++] = (short)v.dnan; o[k++] = (unsigned short)v.dnan;
  // narrow destinations
  o[k++] = (signed char)v.f300; o[k++] = (signed char)v.fm300; o[k++] = (unsigned char)v.fm300;
  o[k++] = (short)v.fm1e6; o[k++] = (unsigned short)v.f1e6; o[k++] = (unsigned short)v.fm5;
  o[k++] = (short)v.f1e10; o[k++] = (short)v.fm1e10; o[k++] = (unsigned char)v.f1e10;
  o[k++] = (signed char)v.finf; o[k++] = (short)v.finf;
  o[k++] = (signed char)v.d300; o[k++] = (unsigned char)v.d300; o[k++] = (unsigned char)v.dm300;
  o[k++] = (short)v.d1e6; o[k++] = (short)v.dm1e6; o[k++] = (unsigned short)v.d1e6;
  o[k++] = (short)v.d1e20; o[k++] = (unsigned char)v.dm1e20; o[k++] = (short)v.dinf;
  // double -> 32/64 out of range
  o[k++] = (long long)(unsigned)v.d1e20; o[k++] = (long long)(unsigned)v.dm1e20;
  o[k++] = (long long)v.d1e20; o[k++] = (long long)(unsigned long long)v.dm1e20;
  // 64-bit division and remainder by zero
  for (int i = 0; i < 6; ++i) {
    o[k++] = v.l[i] / v.zero;
    o[k++] = v.l[i] % v.zero;
    o[k++] = (long long)((unsigned long long)v.l[i] / (unsigned long long)v.zero);
    o[k++] = (long long)((unsigned long long)v.l[i] % (unsigned long long)v.zero);
  }
  o[79] = k;
}

int main() {
  In in{NAN, 300.f, -300.f, 1e6f, -1e6f, -5.f, 1e10f, -1e10f, INFINITY,
        NAN, 300.0, -300.0, 1e6, -1e6, 1e20, -1e20, INFINITY,
        {7, -7, 1ll << 40, -(1ll << 40), INT64_MIN, INT64_MAX}, 0};
  In *dIn;
  long long *dOut;
  musaMalloc(&dIn, sizeof in);
  musaMalloc(&dOut, 80 * sizeof(long long));
  musaMemcpy(dIn, &in, sizeof in, musaMemcpyHostToDevice);
  probe<<<1, 1>>>(dIn, dOut);
  long long out[80] = {};
  musaError_t e = musaMemcpy(out, dOut, sizeof out, musaMemcpyDeviceToHost);
  printf("status %s count %lld\n", musaGetErrorName(e), out[79]);
  for (int i = 0; i < out[79]; ++i)
    printf("c%02d %lld\n", i, out[i]);
}
