// Idioms of newer public samples: cg::memcpy_async / cg::wait into shared memory (the
// globalToShmemAsyncCopy shape, with cuda::aligned_size_t), the type-casting intrinsics with
// every rounding mode (checked against exact host arithmetic), and musaChooseDevice.
#include "check.h"
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#if defined(__NVCC__)
#include <cuda/barrier> // cuda::aligned_size_t (our memcpy_async.h defines it)
#endif
#include <cmath>
namespace cg = cooperative_groups;

__global__ void stagedSum(const float *in, float *out) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof tile));
  cg::wait(block);
  float v = tile[threadIdx.x] + tile[255 - threadIdx.x];
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(block);
  __shared__ float part[256];
  cg::memcpy_async(tile32, part + tile32.meta_group_rank() * 32, 32, tile + tile32.meta_group_rank() * 32, 32);
  cg::wait_prior<0>(tile32);
  out[blockIdx.x * 256 + threadIdx.x] = v + part[threadIdx.x];
}

struct Casts {
  int f2i[4];
  unsigned f2u[4];
  long long d2ll[4];
  float i2f[4], ll2f[4], ull2f[4], d2f[4];
  double ll2d[4];
};

__global__ void casts(float f, double d, int i, long long ll, unsigned long long ull, Casts *c) {
  c->f2i[0] = __float2int_rn(f), c->f2i[1] = __float2int_rz(f), c->f2i[2] = __float2int_rd(f), c->f2i[3] = __float2int_ru(f);
  c->f2u[0] = __float2uint_rn(-f), c->f2u[1] = __float2uint_rz(1e10f), c->f2u[2] = __float2uint_rd(f), c->f2u[3] = __float2uint_ru(f);
  c->d2ll[0] = __double2ll_rn(d), c->d2ll[1] = __double2ll_rz(d), c->d2ll[2] = __double2ll_rd(d), c->d2ll[3] = __double2ll_ru(d);
  c->i2f[0] = __int2float_rn(i), c->i2f[1] = __int2float_rz(i), c->i2f[2] = __int2float_rd(i), c->i2f[3] = __int2float_ru(i);
  c->ll2f[0] = __ll2float_rn(ll), c->ll2f[1] = __ll2float_rz(ll), c->ll2f[2] = __ll2float_rd(ll), c->ll2f[3] = __ll2float_ru(ll);
  c->ull2f[0] = __ull2float_rn(ull), c->ull2f[1] = __ull2float_rz(ull), c->ull2f[2] = __ull2float_rd(ull), c->ull2f[3] = __ull2float_ru(ull);
  c->d2f[0] = __double2float_rn(d), c->d2f[1] = __double2float_rz(d), c->d2f[2] = __double2float_rd(d), c->d2f[3] = __double2float_ru(d);
  c->ll2d[0] = __ll2double_rn(ll * 1000), c->ll2d[1] = __ll2double_rz(ll * 1000), c->ll2d[2] = __ll2double_rd(ll * 1000), c->ll2d[3] = __ll2double_ru(ll * 1000);
}

int main() {
  const int blocks = 4;
  float h[blocks * 256], *in, *out;
  for (int i = 0; i < blocks * 256; ++i)
    h[i] = float(i % 97) * 0.5f;
  CHECK_MUSA(musaMalloc(&in, sizeof h));
  CHECK_MUSA(musaMalloc(&out, sizeof h));
  CHECK_MUSA(musaMemcpy(in, h, sizeof h, musaMemcpyHostToDevice));
  stagedSum<<<blocks, 256>>>(in, out);
  float r[blocks * 256];
  CHECK_MUSA(musaMemcpy(r, out, sizeof r, musaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 256; ++t) {
      const float *x = h + b * 256;
      float want = x[t] + x[255 - t] + x[t];
      CHECK(r[b * 256 + t] == want, "memcpy_async block %d thread %d: %g vs %g", b, t, r[b * 256 + t], want);
    }

  Casts *dc, c;
  CHECK_MUSA(musaMalloc(&dc, sizeof c));
  const float f = -2.5f;
  const double d = 12345678.75;
  const int i = 16777217;                    // 2^24 + 1: between two floats
  const long long ll = 9007199254740993LL;   // 2^53 + 1
  const unsigned long long ull = 18446744073709551615ULL;
  casts<<<1, 1>>>(f, d, i, ll, ull, dc);
  CHECK_MUSA(musaMemcpy(&c, dc, sizeof c, musaMemcpyDeviceToHost));
  CHECK(c.f2i[0] == -2 && c.f2i[1] == -2 && c.f2i[2] == -3 && c.f2i[3] == -2, "float2int %d %d %d %d", c.f2i[0], c.f2i[1], c.f2i[2], c.f2i[3]);
  CHECK(c.f2u[0] == 2 && c.f2u[1] == 4294967295u && c.f2u[2] == 0 && c.f2u[3] == 0, "float2uint saturates %u %u %u %u", c.f2u[0], c.f2u[1], c.f2u[2], c.f2u[3]);
  CHECK(c.d2ll[0] == 12345679 && c.d2ll[1] == 12345678 && c.d2ll[2] == 12345678 && c.d2ll[3] == 12345679, "double2ll");
  CHECK(c.i2f[0] == 16777216.0f && c.i2f[1] == 16777216.0f && c.i2f[2] == 16777216.0f && c.i2f[3] == 16777218.0f, "int2float %.1f %.1f %.1f %.1f", c.i2f[0], c.i2f[1], c.i2f[2], c.i2f[3]);
  float below = 9007199254740992.0f, above = std::nextafter(below, 1e30f);
  CHECK(c.ll2f[0] == below && c.ll2f[1] == below && c.ll2f[2] == below && c.ll2f[3] == above, "ll2float");
  float top = 18446744073709551616.0f, under = std::nextafter(top, 0.0f);
  CHECK(c.ull2f[0] == top && c.ull2f[1] == under && c.ull2f[2] == under && c.ull2f[3] == top, "ull2float %g %g %g %g", c.ull2f[0], c.ull2f[1], c.ull2f[2], c.ull2f[3]);
  float dn = float(d), lo = double(dn) > d ? std::nextafter(dn, 0.0f) : dn, hi = double(dn) < d ? std::nextafter(dn, 1e30f) : dn;
  CHECK(c.d2f[0] == dn && c.d2f[1] == lo && c.d2f[2] == lo && c.d2f[3] == hi, "double2float %.9g %.9g %.9g %.9g", c.d2f[0], c.d2f[1], c.d2f[2], c.d2f[3]);
  long long big = ll * 1000; // not a double: lies between two
  double dd = double(big), dlo = (long long)dd > big ? std::nextafter(dd, 0.0) : dd, dhi = (long long)dd < big ? std::nextafter(dd, 1e300) : dd;
  CHECK(c.ll2d[0] == dd && c.ll2d[1] == dlo && c.ll2d[2] == dlo && c.ll2d[3] == dhi && dlo != dhi, "ll2double");

  int count = 0, chosen = -1;
  CHECK_MUSA(musaGetDeviceCount(&count));
  musaDeviceProp want{}, got{};
  CHECK_MUSA(musaGetDeviceProperties(&got, count - 1));
  want.major = got.major;
  want.minor = got.minor;
  CHECK_MUSA(musaChooseDevice(&chosen, &want));
  CHECK(chosen >= 0 && chosen < count, "musaChooseDevice gave %d", chosen);
  CHECK(musaChooseDevice(nullptr, &want) == musaErrorInvalidValue, "musaChooseDevice(null)");
  return finish("sample_idioms");
}
