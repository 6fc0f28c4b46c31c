// Differential mode's word comparison: when a word the simulator wrote and the hardware's
// copy of it count as the same result (Diff.cpp compares buffers with it).
#include "backend/DiffTwins.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace musa::rt::backend {

namespace {

int ulpTolerance() {
  static const int ulp = [] {
    const char *v = std::getenv("MUSA_SIM_DIFF_ULP");
    return v && *v ? std::atoi(v) : 2;
  }();
  return ulp;
}

bool halfNaN(uint32_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }

} // namespace

/// Equal words, two normal floats within the ulp tolerance, or NaNs on both sides whatever
/// their payloads (as two floats, or as two pairs of halves): the GPU's default NaN is
/// 0x7fffffff (0x7fff as a half), the host's 0xffc00000 (0xfe00).
bool sameWord(uint32_t a, uint32_t b) {
  if (a == b)
    return true;
  float fa, fb;
  std::memcpy(&fa, &a, 4);
  std::memcpy(&fb, &b, 4);
  if (std::isnan(fa) && std::isnan(fb))
    return true;
  auto halfSame = [](uint32_t x, uint32_t y) { return x == y || (halfNaN(x) && halfNaN(y)); };
  if ((halfNaN(a & 0xffff) || halfNaN(a >> 16)) && halfSame(a & 0xffff, b & 0xffff) &&
      halfSame(a >> 16, b >> 16))
    return true;
  if (!std::isnormal(fa) || !std::isnormal(fb) || std::fabs(fa) < 0x1p-100f ||
      std::fabs(fb) < 0x1p-100f || (a >> 31) != (b >> 31))
    return false;
  uint32_t d = a > b ? a - b : b - a;
  return d <= uint32_t(ulpTolerance());
}

/// Words w and its neighbour read as one double (8-byte aligned in the buffer) on each side:
/// both NaN, or two normal doubles within the ulp tolerance (the GPU contracts a*b+c into an
/// fma where the host may not, which moves a double's low word by far more than its value).
bool sameDouble(const std::vector<uint32_t> &sim, const std::vector<uint32_t> &hw, size_t w) {
  size_t lo = w & ~size_t(1);
  if (lo + 1 >= sim.size())
    return false;
  uint64_t a = uint64_t(sim[lo + 1]) << 32 | sim[lo], b = uint64_t(hw[lo + 1]) << 32 | hw[lo];
  double da, db;
  std::memcpy(&da, &a, 8);
  std::memcpy(&db, &b, 8);
  if (std::isnan(da) && std::isnan(db))
    return true;
  if (!std::isnormal(da) || !std::isnormal(db) || std::fabs(da) < 0x1p-1000 ||
      std::fabs(db) < 0x1p-1000 || (a >> 63) != (b >> 63))
    return false;
  uint64_t d = a > b ? a - b : b - a;
  return d <= uint64_t(ulpTolerance());
}

} // namespace musa::rt::backend
