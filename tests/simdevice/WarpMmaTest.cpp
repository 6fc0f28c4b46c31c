// The warp matrix multiply (WarpMma): element layout across lanes, types, layouts, satf and
// the quarters of 128-lane warps.
#include "musa/sim/WarpCollective.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace musa::sim {
namespace {

uint16_t half(float f) { // exact for the small values used here
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if (f == 0)
    return 0;
  uint32_t exp = ((u >> 23) & 0xff) - 112;
  return uint16_t(((u >> 16) & 0x8000) | (exp << 10) | ((u >> 13) & 0x3ff));
}

/// One 32-lane group's fragments: lane j holds slot s of element 32 s + j.
template <class In, class Acc> struct Tiles {
  int m, n, k;
  bool aCol, bCol;
  std::vector<std::vector<In>> a, b;
  std::vector<std::vector<Acc>> c, d;
  std::vector<__musa_sim_mma_operands> ops;
  Tiles(int m, int n, int k, bool aCol = false, bool bCol = false)
      : m(m), n(n), k(k), aCol(aCol), bCol(bCol), a(32, std::vector<In>(m * k / 32)),
        b(32, std::vector<In>(k * n / 32)), c(32, std::vector<Acc>(m * n / 32)),
        d(32, std::vector<Acc>(m * n / 32)), ops(32) {
    for (int j = 0; j < 32; ++j)
      ops[j] = {a[j].data(), b[j].data(), c[j].data(), d[j].data()};
  }
  static int index(int r, int col, int rows, int cols, bool colMajor) {
    return colMajor ? col * rows + r : r * cols + col;
  }
  In &A(int r, int kk) {
    int e = index(r, kk, m, k, aCol);
    return a[e % 32][e / 32];
  }
  In &B(int kk, int col) {
    int e = index(kk, col, k, n, bCol);
    return b[e % 32][e / 32];
  }
  Acc &C(int r, int col) { return c[(r * n + col) % 32][(r * n + col) / 32]; }
  Acc &D(int r, int col) { return d[(r * n + col) % 32][(r * n + col) / 32]; }
  void run(uint32_t code, uint32_t firstLane = 0) {
    std::vector<WarpLane> lanes(32);
    std::vector<WarpLane *> group;
    for (uint32_t j = 0; j < 32; ++j) {
      lanes[j].lane = firstLane + j;
      lanes[j].op = __MUSA_SIM_WARP_MMA | __MUSA_SIM_WARP_QUARTER_LOCAL;
      lanes[j].mask = ~0u;
      lanes[j].value = reinterpret_cast<uint64_t>(&ops[j]);
      lanes[j].arg = int32_t(code);
      group.push_back(&lanes[j]);
    }
    computeWarpCollective(group, 32);
  }
};

uint32_t code(int shape, int ab, int c, int d, bool satf = false, bool aCol = false,
              bool bCol = false) {
  return uint32_t(shape | ab << 4 | c << 8 | d << 12) | (satf ? 1u << 16 : 0) |
         (aCol ? 1u << 17 : 0) | (bCol ? 1u << 18 : 0);
}

TEST(WarpMma, HalfInputsFloatAccumulatorsMultiplyTheTileTheLanesHold) {
  Tiles<uint16_t, float> t(16, 16, 16, false, true);
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < 16; ++k) {
      t.A(r, k) = half(float((r + 2 * k) % 5) - 2);
      t.B(k, r) = half(float((3 * r + k) % 7) - 3);
    }
  for (int r = 0; r < 16; ++r)
    for (int col = 0; col < 16; ++col)
      t.C(r, col) = float(r - col);
  t.run(code(__MUSA_SIM_MMA_16x16x16, __MUSA_SIM_MMA_F16, __MUSA_SIM_MMA_F32,
             __MUSA_SIM_MMA_F32, false, false, true));
  for (int r = 0; r < 16; ++r)
    for (int col = 0; col < 16; ++col) {
      float want = float(r - col);
      for (int k = 0; k < 16; ++k)
        want += (float((r + 2 * k) % 5) - 2) * (float((3 * col + k) % 7) - 3);
      EXPECT_EQ(t.D(r, col), want) << r << "," << col;
    }
}

TEST(WarpMma, AnAccumulatorMayBeItsOwnOutput) {
  Tiles<double, double> t(8, 8, 4);
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 4; ++k) {
      t.A(r, k) = r + k;
      t.B(k, r) = 1.5 * k - r;
    }
  for (int r = 0; r < 8; ++r)
    for (int col = 0; col < 8; ++col)
      t.C(r, col) = 100 + r;
  for (int j = 0; j < 32; ++j)
    t.ops[j].d = t.c[j].data(); // d is c
  t.run(code(__MUSA_SIM_MMA_8x8x4, __MUSA_SIM_MMA_F64, __MUSA_SIM_MMA_F64, __MUSA_SIM_MMA_F64));
  for (int r = 0; r < 8; ++r)
    for (int col = 0; col < 8; ++col) {
      double want = 100 + r;
      for (int k = 0; k < 4; ++k)
        want += double(r + k) * (1.5 * k - col);
      EXPECT_EQ(t.C(r, col), want);
    }
}

TEST(WarpMma, IntegerAccumulatorsWrapOrSaturate) {
  for (bool satf : {false, true}) {
    Tiles<int8_t, int32_t> t(16, 16, 16);
    for (int r = 0; r < 16; ++r)
      for (int k = 0; k < 16; ++k) {
        t.A(r, k) = 127;
        t.B(k, r) = 127;
      }
    for (int r = 0; r < 16; ++r)
      for (int col = 0; col < 16; ++col)
        t.C(r, col) = INT32_MAX - 10;
    t.run(code(__MUSA_SIM_MMA_16x16x16, __MUSA_SIM_MMA_S8, __MUSA_SIM_MMA_S32,
               __MUSA_SIM_MMA_S32, satf));
    int64_t exact = int64_t(INT32_MAX) - 10 + 16 * 127 * 127;
    int32_t want = satf ? INT32_MAX : int32_t(uint32_t(uint64_t(exact)));
    EXPECT_EQ(t.D(3, 5), want) << satf;
  }
}

TEST(WarpMma, EachQuarterOfAWideWarpMultipliesItsOwnTile) {
  // Lanes 64-95 of a 128-lane warp: a group of their own, the layout by lane % 32.
  Tiles<float, float> t(16, 16, 8);
  for (int r = 0; r < 16; ++r)
    for (int k = 0; k < 8; ++k) {
      t.A(r, k) = 1.0f + 1.0f / 4096; // rounds to 1 as tf32
      t.B(k, r) = float(k);
    }
  t.run(code(__MUSA_SIM_MMA_16x16x8, __MUSA_SIM_MMA_TF32, __MUSA_SIM_MMA_F32,
             __MUSA_SIM_MMA_F32),
        64);
  EXPECT_EQ(t.D(7, 2), 28.0f); // 0 + 1 + ... + 7, each product by 1
}

} // namespace
} // namespace musa::sim
