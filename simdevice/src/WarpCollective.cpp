// Computing warp collectives and block reductions (see WarpCollective.h for lane semantics).
#include "musa/sim/WarpCollective.h"

#include "musa/sim/KernelAbi.h"

#include <algorithm>

namespace musa::sim {

static_assert(abi::WarpConvergeOp == WarpConverge, "KernelAbi.h and WarpCollective.h disagree");

namespace {

/// Bits of `lanes` that fall in the 32-lane quarter of `lane`.
uint32_t quarterMask(const std::vector<WarpLane *> &group, uint32_t lane,
                     bool (*take)(const WarpLane &, const WarpLane &), const WarpLane &self) {
  uint32_t bits = 0;
  for (const WarpLane *l : group)
    if (l->lane / 32 == lane / 32 && take(*l, self))
      bits |= 1u << (l->lane % 32);
  return bits;
}

/// The group's lanes by lane index (warps have at most MaxWarpSize lanes).
constexpr uint32_t MaxWarpSize = 128;

} // namespace

void computeWarpCollective(std::vector<WarpLane *> &group, int warpSize) {
  if (group.empty())
    return;
  const uint32_t op = warpOpOf(group.front()->op);
  if (op == WarpMma) {
    computeWarpMma(group);
    return;
  }
  const WarpLane *byLane[MaxWarpSize] = {};
  for (const WarpLane *l : group)
    if (l->lane < MaxWarpSize)
      byLane[l->lane] = l;
  auto laneAt = [&](uint32_t lane) { return lane < MaxWarpSize ? byLane[lane] : nullptr; };
  uint64_t sum = 0, andAll = ~0ull, orAll = 0, xorAll = 0;
  uint32_t minU = UINT32_MAX, maxU = 0;
  int32_t minS = INT32_MAX, maxS = INT32_MIN;
  bool any = false, all = true, allEqual = true;
  bool shuffle = op >= WarpShflIdx && op <= WarpShflXor; // needs none of the reductions
  // Per 32-lane quarter: the group's lanes and those with a non-zero value (ballot, converge
  // and match_all results, computed once rather than per lane).
  uint32_t members[MaxWarpSize / 32] = {}, nonZero[MaxWarpSize / 32] = {};
  for (size_t i = 0; i < (shuffle ? 0 : group.size()); ++i) {
    const WarpLane *l = group[i];
    if (l->lane < MaxWarpSize) {
      members[l->lane / 32] |= 1u << (l->lane % 32);
      nonZero[l->lane / 32] |= uint32_t(l->value != 0) << (l->lane % 32);
    }
    uint32_t v = uint32_t(l->value);
    sum += v, andAll &= v, orAll |= v, xorAll ^= v;
    minU = std::min(minU, v), maxU = std::max(maxU, v);
    minS = std::min(minS, int32_t(v)), maxS = std::max(maxS, int32_t(v));
    any |= l->value != 0, all &= l->value != 0;
    allEqual &= l->value == group.front()->value;
  }
  for (WarpLane *l : group) {
    uint32_t width = l->width > 0 && l->width <= warpSize ? uint32_t(l->width) : uint32_t(warpSize);
    uint32_t base = l->lane / width * width, offset = l->lane % width;
    int64_t src = -1;
    switch (op) {
    case WarpShflIdx:
      src = base + (uint32_t(l->arg) % width);
      break;
    case WarpShflUp:
      src = offset >= uint32_t(l->arg) ? int64_t(l->lane) - l->arg : l->lane;
      break;
    case WarpShflDown:
      src = offset + uint32_t(l->arg) < width ? int64_t(l->lane) + l->arg : l->lane;
      break;
    case WarpShflXor: {
      uint32_t x = l->lane ^ uint32_t(l->arg);
      src = x / width == l->lane / width ? x : l->lane;
      break;
    }
    default:
      break;
    }
    switch (op) {
    case WarpShflIdx: case WarpShflUp: case WarpShflDown: case WarpShflXor: {
      // A source lane outside the group has no defined value: the caller keeps its own.
      const WarpLane *from = laneAt(uint32_t(src));
      l->result = from ? from->value : l->value;
      break;
    }
    case WarpBallot:
      l->result = l->lane < MaxWarpSize ? nonZero[l->lane / 32] : 0;
      break;
    case WarpAny: l->result = any; break;
    case WarpAll: l->result = all; break;
    case WarpMatchAny:
      l->result = quarterMask(group, l->lane,
                              [](const WarpLane &x, const WarpLane &me) { return x.value == me.value; },
                              *l);
      break;
    case WarpMatchAll:
      l->result = allEqual && l->lane < MaxWarpSize ? members[l->lane / 32] : 0;
      break;
    case WarpReduceAdd: l->result = uint32_t(sum); break;
    case WarpReduceMinU: l->result = minU; break;
    case WarpReduceMaxU: l->result = maxU; break;
    case WarpReduceMinS: l->result = uint32_t(minS); break;
    case WarpReduceMaxS: l->result = uint32_t(maxS); break;
    case WarpReduceAnd: l->result = uint32_t(andAll); break;
    case WarpReduceOr: l->result = uint32_t(orAll); break;
    case WarpReduceXor: l->result = uint32_t(xorAll); break;
    case WarpConverge: // the group's lanes: those at this site (see WarpCollective.h)
      l->result = l->lane < MaxWarpSize ? members[l->lane / 32] : 0;
      break;
    default: l->result = 0; break; // WarpSync
    }
  }
}

int blockReduce(uint32_t op, const std::vector<int> &predicates) {
  int count = 0;
  for (int p : predicates)
    count += p != 0;
  switch (op) {
  case BlockAnd: return count == int(predicates.size());
  case BlockOr: return count != 0;
  default: return count;
  }
}

} // namespace musa::sim
