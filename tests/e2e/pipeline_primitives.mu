// The asynchronous-copy primitives as double-buffered kernels use them (the CUDA samples'
// globalToShmemAsyncCopy style): __pipeline_memcpy_async into two shared-memory stages with
// __pipeline_commit / __pipeline_wait_prior(1), a zero-filled tail, and the C++ pipeline
// object of musa_pipeline.h copying single objects and arrays.
#include "check.h"
#include <musa_pipeline.h>

constexpr int kTile = 256;

// Each block sums its share of `in` in tiles of kTile floats, fetching tile t+1 while it adds
// tile t. The last tile is partial: the lanes past the end copy zero bytes and zero-fill 4.
__global__ void stagedSum(const float *in, int n, int tilesPerBlock, float *out) {
  __shared__ float stage[2][kTile];
  int first = blockIdx.x * tilesPerBlock;
  auto fetch = [&](int tile, int buf) {
    int i = tile * kTile + threadIdx.x;
    bool inside = i < n;
    __pipeline_memcpy_async(&stage[buf][threadIdx.x], inside ? &in[i] : in, 4, inside ? 0 : 4);
    __pipeline_commit();
  };
  float acc = 0;
  fetch(first, 0);
  for (int t = 0; t < tilesPerBlock; ++t) {
    if (t + 1 < tilesPerBlock)
      fetch(first + t + 1, (t + 1) & 1);
    else
      __pipeline_commit(); // an empty batch keeps the wait_prior(1) arithmetic uniform
    __pipeline_wait_prior(1);
    __syncthreads();
    for (int k = 0; k < kTile; ++k)
      acc += stage[t & 1][(k + threadIdx.x) % kTile];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

struct Pair {
  int a, b;
};

// The C++ form: one 16-byte object, one 8-byte struct, and a 3-int array into a 4-int array
// (its last int zero-filled). The copy is 16 bytes, so the source arrays start 16 bytes apart.
__global__ void objectCopies(const float4 *v, const Pair *p, const int *tri16, int *out) {
  __shared__ float4 sv[32];
  __shared__ Pair sp[32];
  __shared__ int quad[32][4];
  int t = threadIdx.x;
  quad[t][3] = -1;
  nvcuda::experimental::pipeline pipe;
  nvcuda::experimental::memcpy_async(sv[t], v[t], pipe);
  nvcuda::experimental::memcpy_async(sp[t], p[t], pipe);
  nvcuda::experimental::memcpy_async(&quad[t], (const int(*)[3])(tri16 + 4 * t), pipe);
  pipe.commit_and_wait();
  __syncthreads();
  int o = 31 - t; // read another lane's copies after the barrier
  out[t * 8 + 0] = int(sv[o].x + sv[o].y + sv[o].z + sv[o].w);
  out[t * 8 + 1] = sp[o].a;
  out[t * 8 + 2] = sp[o].b;
  for (int k = 0; k < 4; ++k)
    out[t * 8 + 3 + k] = quad[o][k];
  out[t * 8 + 7] = 0;
}

int main() {
  const int blocks = 8, tilesPerBlock = 5, n = blocks * tilesPerBlock * kTile - 37;
  float *in, *out;
  CHECK_MUSA(musaMalloc(&in, blocks * tilesPerBlock * kTile * sizeof(float)));
  CHECK_MUSA(musaMalloc(&out, blocks * kTile * sizeof(float)));
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = float(i % 7);
  CHECK_MUSA(musaMemcpy(in, h, n * sizeof(float), musaMemcpyHostToDevice));
  stagedSum<<<blocks, kTile>>>(in, n, tilesPerBlock, out);
  CHECK_MUSA(musaDeviceSynchronize());
  float got[blocks * kTile];
  CHECK_MUSA(musaMemcpy(got, out, sizeof got, musaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    float want = 0;
    for (int t = 0; t < tilesPerBlock; ++t)
      for (int k = 0; k < kTile; ++k) {
        int i = (b * tilesPerBlock + t) * kTile + k;
        want += i < n ? h[i] : 0.f;
      }
    for (int x = 0; x < kTile; x += 51)
      CHECK(got[b * kTile + x] == want, "block %d thread %d: %g, want %g", b, x,
            got[b * kTile + x], want);
  }

  float4 hv[32];
  Pair hp[32];
  int ht[32][4];
  for (int t = 0; t < 32; ++t) {
    hv[t] = make_float4(t, 1, 2, 3);
    hp[t] = {t * 10, -t};
    ht[t][0] = t, ht[t][1] = t + 100, ht[t][2] = t + 200;
  }
  float4 *dv;
  Pair *dp;
  int *dt;
  int *dout;
  CHECK_MUSA(musaMalloc(&dv, sizeof hv));
  CHECK_MUSA(musaMalloc(&dp, sizeof hp));
  CHECK_MUSA(musaMalloc(&dt, sizeof ht));
  CHECK_MUSA(musaMalloc(&dout, 32 * 8 * sizeof(int)));
  CHECK_MUSA(musaMemcpy(dv, hv, sizeof hv, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dp, hp, sizeof hp, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dt, ht, sizeof ht, musaMemcpyHostToDevice));
  objectCopies<<<1, 32>>>(dv, dp, dt, dout);
  CHECK_MUSA(musaDeviceSynchronize());
  int ho[32 * 8];
  CHECK_MUSA(musaMemcpy(ho, dout, sizeof ho, musaMemcpyDeviceToHost));
  for (int t = 0; t < 32; ++t) {
    int o = 31 - t, *r = &ho[t * 8];
    CHECK(r[0] == o + 6 && r[1] == o * 10 && r[2] == -o, "lane %d: object copies %d %d %d", t,
          r[0], r[1], r[2]);
    CHECK(r[3] == o && r[4] == o + 100 && r[5] == o + 200 && r[6] == 0,
          "lane %d: array copy %d %d %d %d", t, r[3], r[4], r[5], r[6]);
  }
  free(h);
  musaFree(in), musaFree(out), musaFree(dv), musaFree(dp), musaFree(dt), musaFree(dout);
  return finish("pipeline_primitives");
}
