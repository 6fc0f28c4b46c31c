// Warp matrix multiply-accumulate (nvcuda::wmma) as the tensor-core samples use it: a 64x64x64
// GEMM with half inputs and float accumulators, one warp per 16x16 output tile, with an
// element-wise scale of the accumulator fragment and a column-major store; then tf32
// (16x16x8), 8-bit integers (16x16x16, int32 accumulators) and double (8x8x4) on one tile,
// each against a host product. Written for 32- and 128-lane warps (one tile per warp).
#include "check.h"
#include <mma.h>
#include <cmath>
using namespace nvcuda;

constexpr int Dim = 64;

__global__ void gemmHalf(const __half *a, const __half *b, float *c, float scale) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int tileRow = warp / (Dim / 16), tileCol = warp % (Dim / 16);
  if (tileRow >= Dim / 16)
    return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < Dim; k += 16) {
    wmma::load_matrix_sync(fa, a + tileRow * 16 * Dim + k, Dim);  // a row-major
    wmma::load_matrix_sync(fb, b + tileCol * 16 * Dim + k, Dim);  // b column-major
    wmma::mma_sync(acc, fa, fb, acc);
  }
  for (int i = 0; i < acc.num_elements; ++i)
    acc.x[i] *= scale;
  // c column-major
  wmma::store_matrix_sync(c + tileCol * 16 * Dim + tileRow * 16, acc, Dim, wmma::mem_col_major);
}

__global__ void otherTypes(const float *af, const float *bf, float *ctf, const signed char *ai,
                           const signed char *bi, int *ci, const double *ad, const double *bd,
                           double *cd) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> tb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc;
  wmma::load_matrix_sync(ta, af, 8);
  wmma::load_matrix_sync(tb, bf, 16);
  wmma::fill_fragment(tc, 1.0f);
  wmma::mma_sync(tc, ta, tb, tc);
  wmma::store_matrix_sync(ctf, tc, 16, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> ia;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> ib;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> ic;
  wmma::load_matrix_sync(ia, ai, 16);
  wmma::load_matrix_sync(ib, bi, 16);
  wmma::load_matrix_sync(ic, ci, 16, wmma::mem_row_major);
  wmma::mma_sync(ic, ia, ib, ic);
  wmma::store_matrix_sync(ci, ic, 16, wmma::mem_row_major);

  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> da;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> db;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> dc;
  wmma::load_matrix_sync(da, ad, 4);
  wmma::load_matrix_sync(db, bd, 4);
  wmma::fill_fragment(dc, 0.5);
  wmma::mma_sync(dc, da, db, dc);
  wmma::store_matrix_sync(cd, dc, 8, wmma::mem_row_major);
}

int main() {
  int warpSize = 0;
  CHECK_MUSA(musaDeviceGetAttribute(&warpSize, musaDevAttrWarpSize, 0));
  __half ha[Dim * Dim], hb[Dim * Dim];
  float fa[Dim * Dim], fb[Dim * Dim]; // the halves' values
  for (int i = 0; i < Dim * Dim; ++i) {
    ha[i] = __half(float((i * 7) % 13 - 6) * 0.25f);
    hb[i] = __half(float((i * 5) % 11 - 5) * 0.5f);
    fa[i] = float(ha[i]);
    fb[i] = float(hb[i]);
  }
  __half *da, *db;
  float *dc;
  CHECK_MUSA(musaMalloc(&da, sizeof ha));
  CHECK_MUSA(musaMalloc(&db, sizeof hb));
  CHECK_MUSA(musaMalloc(&dc, Dim * Dim * sizeof(float)));
  CHECK_MUSA(musaMemcpy(da, ha, sizeof ha, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(db, hb, sizeof hb, musaMemcpyHostToDevice));
  int tiles = (Dim / 16) * (Dim / 16);
  gemmHalf<<<tiles, warpSize>>>(da, db, dc, 0.5f);
  float c[Dim * Dim];
  CHECK_MUSA(musaMemcpy(c, dc, sizeof c, musaMemcpyDeviceToHost));
  for (int i = 0; i < Dim; ++i)
    for (int j = 0; j < Dim; ++j) {
      double want = 0;
      for (int k = 0; k < Dim; ++k)
        want += double(fa[i * Dim + k]) * fb[j * Dim + k]; // b is column-major
      want *= 0.5;
      float got = c[j * Dim + i];
      CHECK(std::fabs(got - want) <= 1e-3 * std::fabs(want) + 1e-3, "half gemm (%d,%d): %g vs %g", i, j, got, want);
    }

  float af[16 * 8], bf[8 * 16];
  signed char ai[256], bi[256];
  int ci[256];
  double ad[8 * 4], bd[4 * 8];
  for (int i = 0; i < 128; ++i) {
    af[i] = 1.0f + float(i) / 3.0f; // not tf32 values: mma rounds them
    bf[i] = float(i % 9) - 4.0f;
  }
  for (int i = 0; i < 256; ++i) {
    ai[i] = (signed char)((i * 37) % 255 - 127);
    bi[i] = (signed char)((i * 91) % 255 - 127);
    ci[i] = i - 100;
  }
  for (int i = 0; i < 32; ++i) {
    ad[i] = 1.0 / (i + 1);
    bd[i] = std::sqrt(double(i + 2));
  }
  float *daf, *dbf, *dctf;
  signed char *dai, *dbi;
  int *dci;
  double *dad, *dbd, *dcd;
  CHECK_MUSA(musaMalloc(&daf, sizeof af));
  CHECK_MUSA(musaMalloc(&dbf, sizeof bf));
  CHECK_MUSA(musaMalloc(&dctf, 256 * sizeof(float)));
  CHECK_MUSA(musaMalloc(&dai, sizeof ai));
  CHECK_MUSA(musaMalloc(&dbi, sizeof bi));
  CHECK_MUSA(musaMalloc(&dci, sizeof ci));
  CHECK_MUSA(musaMalloc(&dad, sizeof ad));
  CHECK_MUSA(musaMalloc(&dbd, sizeof bd));
  CHECK_MUSA(musaMalloc(&dcd, 64 * sizeof(double)));
  CHECK_MUSA(musaMemcpy(daf, af, sizeof af, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dbf, bf, sizeof bf, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dai, ai, sizeof ai, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dbi, bi, sizeof bi, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dci, ci, sizeof ci, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dad, ad, sizeof ad, musaMemcpyHostToDevice));
  CHECK_MUSA(musaMemcpy(dbd, bd, sizeof bd, musaMemcpyHostToDevice));
  otherTypes<<<1, warpSize>>>(daf, dbf, dctf, dai, dbi, dci, dad, dbd, dcd);
  float ctf[256];
  int cio[256];
  double cd[64];
  CHECK_MUSA(musaMemcpy(ctf, dctf, sizeof ctf, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(cio, dci, sizeof cio, musaMemcpyDeviceToHost));
  CHECK_MUSA(musaMemcpy(cd, dcd, sizeof cd, musaMemcpyDeviceToHost));
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double want = 1.0;
      for (int k = 0; k < 8; ++k)
        want += double(af[i * 8 + k]) * bf[k * 16 + j];
      // tf32 keeps 10 mantissa bits of each input: a relative error up to about 2^-11 each.
      CHECK(std::fabs(ctf[i * 16 + j] - want) <= 2e-3 * (std::fabs(want) + 40), "tf32 (%d,%d): %g vs %g", i, j, ctf[i * 16 + j], want);
      long long iwant = ci[i * 16 + j];
      for (int k = 0; k < 16; ++k)
        iwant += int(ai[i * 16 + k]) * int(bi[k * 16 + j]);
      CHECK(cio[i * 16 + j] == iwant, "int8 (%d,%d): %d vs %lld", i, j, cio[i * 16 + j], iwant);
    }
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      double want = 0.5;
      for (int k = 0; k < 4; ++k)
        want += ad[i * 4 + k] * bd[j * 4 + k]; // b column-major
      CHECK(std::fabs(cd[i * 8 + j] - want) <= 1e-14 * std::fabs(want), "double (%d,%d): %.17g vs %.17g", i, j, cd[i * 8 + j], want);
    }
  return finish("wmma");
}
