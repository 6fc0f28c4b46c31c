// Warp collectives and block reductions: the value exchange once every lane has arrived.
//
// The executor gathers the lanes of one warp that wait at a collective with the same mask (a
// group), and calls computeWarpCollective when every lane the mask names (and that has not
// exited) is there. Masks are CUDA's 32-bit masks: on a 32-lane warp bit i is lane i; on wider
// warps (MUSA mp_21/mp_22 have 128 lanes) bit i names lanes i, i+32, i+64 and i+96, and the
// mask-valued results (ballot, match) report the caller's own 32-lane quarter, since a 32-bit
// result cannot name 128 lanes. Shuffles and reductions span the whole warp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace musa::sim {

enum WarpOp : uint32_t {
  WarpSync = 0,
  WarpShflIdx = 1,
  WarpShflUp = 2,
  WarpShflDown = 3,
  WarpShflXor = 4,
  WarpBallot = 5,
  WarpAny = 6,
  WarpAll = 7,
  WarpMatchAny = 8,
  WarpMatchAll = 9,
  WarpReduceAdd = 10,
  WarpReduceMinU = 11,
  WarpReduceMaxU = 12,
  WarpReduceMinS = 13,
  WarpReduceMaxS = 14,
  WarpReduceAnd = 15,
  WarpReduceOr = 16,
  WarpReduceXor = 17,
};

enum BlockReduceOp : uint32_t { BlockCount = 0, BlockAnd = 1, BlockOr = 2 };

struct WarpLane {
  uint32_t lane = 0; // lane index in the warp
  uint32_t op = 0;
  uint32_t mask = 0;
  uint64_t value = 0;
  int32_t arg = 0;   // source lane, delta or xor mask
  int32_t width = 0; // shuffle segment width
  uint64_t result = 0;
};

/// Whether `lane` of a `warpSize`-lane warp is named by a 32-bit mask.
inline bool laneInMask(uint32_t mask, uint32_t lane) { return (mask >> (lane % 32)) & 1u; }

/// Fills `result` of every lane of one complete group (same op and mask).
void computeWarpCollective(std::vector<WarpLane *> &group, int warpSize);

/// One warp's lanes [first, last) as both executors see them: `waiting(j)` is lane j's record
/// if it waits at a warp collective (null otherwise), `exited(j)` whether it has returned.
/// Completes the collective of the lanes waiting with `mask` if every live lane the mask names
/// waits with it: 1 if it did (the lanes are in `group`, results filled in), 0 if the group is
/// not complete yet, -1 if its lanes wait at different collectives (`problem` says so).
template <class Waiting, class Exited>
int completeWarpGroup(size_t first, size_t last, uint32_t mask, Waiting waiting, Exited exited,
                      int warpSize, std::vector<WarpLane *> &group, std::string &problem) {
  group.clear();
  for (size_t j = first; j < last; ++j) {
    if (!laneInMask(mask, uint32_t(j - first)) || exited(j))
      continue;
    WarpLane *lane = waiting(j);
    if (!lane || lane->mask != mask)
      return 0;
    group.push_back(lane);
  }
  for (WarpLane *l : group)
    if (l->op != group.front()->op) {
      problem = "lanes of one warp reached different warp collectives with the same mask";
      return -1;
    }
  computeWarpCollective(group, warpSize);
  return 1;
}

/// The value __syncthreads_count/and/or returns, given every thread's predicate.
int blockReduce(uint32_t op, const std::vector<int> &predicates);

} // namespace musa::sim
