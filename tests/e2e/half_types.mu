// __half, __half2 and bfloat16: device results against known bit patterns and the host.
#include "check.h"
#include <musa_bf16.h>
#include <musa_fp16.h>

__global__ void halves(const float *in, unsigned short *bits, float *out) {
  int i = threadIdx.x;
  __half a = __float2half(in[i]), b = __float2half(in[i] * 0.5f + 1.0f);
  __half s = a + b, p = __hmul(a, b), q = a / b, f = __hfma(a, b, s);
  bits[i * 6 + 0] = __half_as_ushort(a);
  bits[i * 6 + 1] = __half_as_ushort(s);
  bits[i * 6 + 2] = __half_as_ushort(p);
  bits[i * 6 + 3] = __half_as_ushort(q);
  bits[i * 6 + 4] = __half_as_ushort(f);
  __half2 v = __floats2half2_rn(in[i], 2.0f), w = __half2half2(__float2half(0.25f));
  __half2 r = __hfma2(v, w, v);
  out[i * 4 + 0] = __low2float(r);
  out[i * 4 + 1] = __high2float(r);
  __mt_bfloat16 c = __float2bfloat16(in[i]);
  __mt_bfloat16 d = __hadd(c, __float2bfloat16(1.0f));
  bits[i * 6 + 5] = __bfloat16_as_ushort(c);
  out[i * 4 + 2] = __bfloat162float(d);
  out[i * 4 + 3] = __half2float(hsqrt(a)) + (a < b ? 1.0f : 0.0f) + (__hisnan(a) ? 100.0f : 0.0f);
}

int main() {
  const int n = 32;
  float in[n], out[n * 4];
  unsigned short bits[n * 6];
  for (int i = 0; i < n; ++i)
    in[i] = (i - 10) * 0.3333333f + (i == 31 ? 70000.0f : 0.0f);
  float *din, *dout;
  unsigned short *dbits;
  CHECK_MUSA(musaMalloc(&din, sizeof in));
  CHECK_MUSA(musaMalloc(&dout, sizeof out));
  CHECK_MUSA(musaMalloc(&dbits, sizeof bits));
  CHECK_MUSA(musaMemcpy(din, in, sizeof in, musaMemcpyHostToDevice));
  halves<<<1, n>>>(din, dbits, dout);
  CHECK_MUSA(musaGetLastError());
  CHECK_MUSA(musaMemcpy(bits, dbits, sizeof bits, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(out, dout, sizeof out, musaMemcpyDeviceToHost));
  // Known encodings: 1/3 rounds to 0x3555 in binary16 and 0x3eab in bfloat16; 70000 overflows
  // binary16 to +inf (0x7c00).
  CHECK(__half_as_ushort(__float2half(1.0f / 3.0f)) == 0x3555, "host 1/3 encoding");
  CHECK(__bfloat16_as_ushort(__float2bfloat16(1.0f / 3.0f)) == 0x3eab, "host bf16 1/3");
  CHECK(bits[11 * 6 + 0] == 0x3555, "device 1/3 encoding %#x", bits[11 * 6]);
  CHECK(bits[11 * 6 + 5] == 0x3eab, "device bf16 encoding %#x", bits[11 * 6 + 5]);
  CHECK(bits[31 * 6 + 0] == 0x7c00, "overflow to infinity %#x", bits[31 * 6]);
  for (int i = 0; i < n; ++i) {
    // The host evaluates the same operations through the same header: results must agree bit
    // for bit, since both round the exact float result to nearest-even.
    __half a = __float2half(in[i]), b = __float2half(in[i] * 0.5f + 1.0f);
    __half s = a + b;
    CHECK(bits[i * 6 + 1] == __half_as_ushort(s), "add %d", i);
    CHECK(bits[i * 6 + 2] == __half_as_ushort(__hmul(a, b)), "mul %d", i);
    CHECK(bits[i * 6 + 3] == __half_as_ushort(a / b), "div %d", i);
    CHECK(bits[i * 6 + 4] == __half_as_ushort(__hfma(a, b, s)), "fma %d", i);
    float lo = __half2float(__float2half(in[i])) * 1.25f;
    CHECK(out[i * 4 + 0] == __half2float(__float2half(lo)), "half2 fma low %d: %f", i, out[i * 4]);
    CHECK(out[i * 4 + 1] == 2.5f, "half2 fma high %f", out[i * 4 + 1]);
    float bf = __bfloat162float(__float2bfloat16(__bfloat162float(__float2bfloat16(in[i])) + 1.0f));
    CHECK(out[i * 4 + 2] == bf, "bf16 add %d: %f vs %f", i, out[i * 4 + 2], bf);
  }
  return finish("half_types");
}
