// The warp matrix multiply-accumulate (mma.h's mma_sync, WarpMma): once every lane of a
// 32-lane group has arrived, the tile its lanes hold is multiplied (see
// musa_sim_collective_ops.h for the element layout and the operand code).
#include "musa/sim/WarpCollective.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace musa::sim {

namespace {

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  if (exp == 0x1f)
    return std::bit_cast<float>(sign | 0x7f800000u | (man << 13));
  if (exp == 0) // zero or subnormal: man * 2^-24
    return std::bit_cast<float>(sign) + (sign ? -1.0f : 1.0f) * std::ldexp(float(man), -24);
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (man << 13));
}

/// Round to nearest even, as __float2half.
uint16_t floatToHalf(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  uint16_t sign = uint16_t((u >> 16) & 0x8000);
  float a = std::fabs(f);
  if (std::isnan(f))
    return uint16_t(sign | 0x7e00);
  if (a >= 65520.0f) // rounds to infinity
    return uint16_t(sign | 0x7c00);
  if (a < 6.103515625e-05f) // subnormal: a multiple of 2^-24, rounded to nearest even
    return uint16_t(sign | uint16_t(std::nearbyint(std::ldexp(a, 24))));
  uint32_t bits = std::bit_cast<uint32_t>(a);
  uint32_t rounded = bits + 0xfff + ((bits >> 13) & 1);
  return uint16_t(sign | (((rounded >> 23) - 112) << 10) | ((rounded >> 13) & 0x3ff));
}

float bf16ToFloat(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

uint16_t floatToBf16(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  if (std::isnan(f))
    return uint16_t((u >> 16) | 0x40);
  return uint16_t((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

/// A float rounded to tf32 (10 mantissa bits, nearest), as the tensor cores read it.
float toTf32(float x) {
  uint32_t u = std::bit_cast<uint32_t>(x);
  if ((u & 0x7f800000u) != 0x7f800000u)
    u = (u + 0xfffu + ((u >> 13) & 1u)) & ~0x1fffu;
  return std::bit_cast<float>(u);
}

size_t elementBytes(uint32_t type) {
  switch (type) {
  case __MUSA_SIM_MMA_F16: case __MUSA_SIM_MMA_BF16: return 2;
  case __MUSA_SIM_MMA_S8: case __MUSA_SIM_MMA_U8: return 1;
  case __MUSA_SIM_MMA_F64: return 8;
  default: return 4;
  }
}

/// Slot `s` of a fragment's element array, as the multiply reads it.
double readElement(const void *x, uint32_t type, int s) {
  const char *p = static_cast<const char *>(x) + size_t(s) * elementBytes(type);
  uint16_t h;
  float f;
  int32_t i;
  double d;
  switch (type) {
  case __MUSA_SIM_MMA_F16: std::memcpy(&h, p, 2); return halfToFloat(h);
  case __MUSA_SIM_MMA_BF16: std::memcpy(&h, p, 2); return bf16ToFloat(h);
  case __MUSA_SIM_MMA_TF32: std::memcpy(&f, p, 4); return toTf32(f);
  case __MUSA_SIM_MMA_S8: return double(int8_t(*p));
  case __MUSA_SIM_MMA_U8: return double(uint8_t(*p));
  case __MUSA_SIM_MMA_S32: std::memcpy(&i, p, 4); return i;
  case __MUSA_SIM_MMA_F64: std::memcpy(&d, p, 8); return d;
  default: std::memcpy(&f, p, 4); return f;
  }
}

struct Shape {
  int m, n, k;
};

Shape shapeOf(uint32_t shape) {
  switch (shape) {
  case __MUSA_SIM_MMA_32x8x16: return {32, 8, 16};
  case __MUSA_SIM_MMA_8x32x16: return {8, 32, 16};
  case __MUSA_SIM_MMA_16x16x8: return {16, 16, 8};
  case __MUSA_SIM_MMA_8x8x4: return {8, 8, 4};
  default: return {16, 16, 16};
  }
}

/// The lane and slot holding element (r, c) of a rows x cols tile.
std::pair<int, int> holder(int r, int c, int rows, int cols, bool colMajor) {
  int e = colMajor ? c * rows + r : r * cols + c;
  return {e % 32, e / 32};
}

/// One 32-lane group's multiply: lanes[j] is lane j's record (null if it did not take part:
/// its elements read as zero, its outputs are not written).
void multiply(const WarpLane *const lanes[32], uint32_t code) {
  const Shape sh = shapeOf(code & 0xf);
  const uint32_t ab = (code >> 4) & 0xf, ct = (code >> 8) & 0xf, dt = (code >> 12) & 0xf;
  const bool satf = code & (1u << 16), aCol = code & (1u << 17), bCol = code & (1u << 18);
  auto ops = [&](int lane) {
    return lanes[lane] ? reinterpret_cast<const __musa_sim_mma_operands *>(lanes[lane]->value)
                       : nullptr;
  };
  auto input = [&](bool isA, int r, int c) {
    auto [lane, slot] = isA ? holder(r, c, sh.m, sh.k, aCol) : holder(r, c, sh.k, sh.n, bCol);
    const __musa_sim_mma_operands *o = ops(lane);
    return o ? readElement(isA ? o->a : o->b, ab, slot) : 0.0;
  };
  double a[32 * 16], b[16 * 32], out[256];
  for (int r = 0; r < sh.m; ++r)
    for (int k = 0; k < sh.k; ++k)
      a[r * sh.k + k] = input(true, r, k);
  for (int k = 0; k < sh.k; ++k)
    for (int c = 0; c < sh.n; ++c)
      b[k * sh.n + c] = input(false, k, c);
  for (int r = 0; r < sh.m; ++r)
    for (int c = 0; c < sh.n; ++c) {
      auto [lane, slot] = holder(r, c, sh.m, sh.n, false);
      const __musa_sim_mma_operands *o = ops(lane);
      double acc = o ? readElement(o->c, ct, slot) : 0.0;
      if (dt == __MUSA_SIM_MMA_S32) { // exact in 64 bits, clamped with satf
        int64_t sum = int64_t(acc);
        for (int k = 0; k < sh.k; ++k)
          sum += int64_t(a[r * sh.k + k]) * int64_t(b[k * sh.n + c]);
        if (satf)
          sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
        out[r * sh.n + c] = double(int32_t(uint32_t(uint64_t(sum))));
      } else if (dt == __MUSA_SIM_MMA_F64) {
        for (int k = 0; k < sh.k; ++k)
          acc += a[r * sh.k + k] * b[k * sh.n + c];
        out[r * sh.n + c] = acc;
      } else { // products summed in fp32, in k order
        float sum = float(acc);
        for (int k = 0; k < sh.k; ++k)
          sum += float(a[r * sh.k + k]) * float(b[k * sh.n + c]);
        if (satf) {
          const float big = dt == __MUSA_SIM_MMA_F16 ? 65504.0f : 3.40282347e38f;
          sum = std::isnan(sum) ? 0.0f : std::clamp(sum, -big, big);
        }
        out[r * sh.n + c] = sum;
      }
    }
  // Written after every input was read: d may be c.
  for (int r = 0; r < sh.m; ++r)
    for (int c = 0; c < sh.n; ++c) {
      auto [lane, slot] = holder(r, c, sh.m, sh.n, false);
      const __musa_sim_mma_operands *o = ops(lane);
      if (!o)
        continue;
      char *p = static_cast<char *>(o->d) + size_t(slot) * elementBytes(dt);
      double v = out[r * sh.n + c];
      if (dt == __MUSA_SIM_MMA_F16) {
        uint16_t h = floatToHalf(float(v));
        std::memcpy(p, &h, 2);
      } else if (dt == __MUSA_SIM_MMA_BF16) {
        uint16_t h = floatToBf16(float(v));
        std::memcpy(p, &h, 2);
      } else if (dt == __MUSA_SIM_MMA_S32) {
        int32_t i = int32_t(v);
        std::memcpy(p, &i, 4);
      } else if (dt == __MUSA_SIM_MMA_F64) {
        std::memcpy(p, &v, 8);
      } else {
        float f = float(v);
        std::memcpy(p, &f, 4);
      }
    }
}

} // namespace

void computeWarpMma(std::vector<WarpLane *> &group) {
  // Each 32-lane quarter multiplies its own tile (the op is quarter-local).
  constexpr int Quarters = 4;
  const WarpLane *byQuarter[Quarters][32] = {};
  bool present[Quarters] = {};
  for (WarpLane *l : group) {
    l->result = 0;
    if (l->lane < Quarters * 32) {
      byQuarter[l->lane / 32][l->lane % 32] = l;
      present[l->lane / 32] = true;
    }
  }
  const uint32_t code = uint32_t(group.front()->arg);
  for (int q = 0; q < Quarters; ++q)
    if (present[q])
      multiply(byQuarter[q], code);
}

} // namespace musa::sim
