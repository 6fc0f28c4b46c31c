// Warp collectives and block reductions: the value exchange once every lane has arrived.
//
// The executor gathers the lanes of one warp that wait at a collective with the same mask (a
// group), and calls computeWarpCollective when every lane the mask names (and that has not
// exited) is there. Masks are CUDA's 32-bit masks: on a 32-lane warp bit i is lane i; on wider
// warps (MUSA mp_21/mp_22 have 128 lanes) bit i names lanes i, i+32, i+64 and i+96, and the
// mask-valued results (ballot, match) report the caller's own 32-lane quarter, since a 32-bit
// result cannot name 128 lanes. Shuffles and reductions span the whole warp.
//
// Two additions serve coalesced groups (cooperative_groups::coalesced_threads()):
//  - WarpConverge asks which lanes of the caller's 32-lane quarter run together: every round of
//    either executor runs each ready thread until it parks or exits, so when collectives are
//    resolved every live lane waits somewhere. Converge sites are resolved last (WarpPass):
//    lanes still on their way, such as the larger group of a labeled partition taking more
//    shuffle rounds of a reduction, get there first, as the hardware reconverges a warp after
//    a divergent loop. Then the lanes waiting at the same converge site (`arg`, a per-call-site
//    number the kernel compiler assigns) are the ones that reach that instruction together,
//    the set the hardware's active mask reports. It never waits for lanes that wait elsewhere
//    (a barrier, another site), so divergent branches get their own groups.
//  - WarpQuarterLocal, or'ed into any other op, makes the mask name lanes of the caller's own
//    quarter only (a coalesced group is a set of lanes of one quarter); on 32-lane warps it
//    changes nothing.
#pragma once

#include "musa_sim_collective_ops.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace musa::sim {

enum WarpOp : uint32_t {
  WarpSync = __MUSA_SIM_WARP_SYNC,
  WarpShflIdx = __MUSA_SIM_WARP_SHFL_IDX,
  WarpShflUp = __MUSA_SIM_WARP_SHFL_UP,
  WarpShflDown = __MUSA_SIM_WARP_SHFL_DOWN,
  WarpShflXor = __MUSA_SIM_WARP_SHFL_XOR,
  WarpBallot = __MUSA_SIM_WARP_BALLOT,
  WarpAny = __MUSA_SIM_WARP_ANY,
  WarpAll = __MUSA_SIM_WARP_ALL,
  WarpMatchAny = __MUSA_SIM_WARP_MATCH_ANY,
  WarpMatchAll = __MUSA_SIM_WARP_MATCH_ALL,
  WarpReduceAdd = __MUSA_SIM_WARP_REDUCE_ADD,
  WarpReduceMinU = __MUSA_SIM_WARP_REDUCE_MIN_U,
  WarpReduceMaxU = __MUSA_SIM_WARP_REDUCE_MAX_U,
  WarpReduceMinS = __MUSA_SIM_WARP_REDUCE_MIN_S,
  WarpReduceMaxS = __MUSA_SIM_WARP_REDUCE_MAX_S,
  WarpReduceAnd = __MUSA_SIM_WARP_REDUCE_AND,
  WarpReduceOr = __MUSA_SIM_WARP_REDUCE_OR,
  WarpReduceXor = __MUSA_SIM_WARP_REDUCE_XOR,
  WarpConverge = __MUSA_SIM_WARP_CONVERGE,
  WarpMma = __MUSA_SIM_WARP_MMA, // mma.h's mma_sync (WarpMma.cpp)
  WarpQuarterLocal = __MUSA_SIM_WARP_QUARTER_LOCAL, // a flag, see above
};

/// The operation of a lane's op field, without WarpQuarterLocal.
inline uint32_t warpOpOf(uint32_t op) { return op & ~uint32_t(WarpQuarterLocal); }

enum BlockReduceOp : uint32_t {
  BlockCount = __MUSA_SIM_BLOCK_COUNT,
  BlockAnd = __MUSA_SIM_BLOCK_AND,
  BlockOr = __MUSA_SIM_BLOCK_OR
};

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
/// WarpMma: multiplies the tile each 32-lane quarter's lanes hold (their `value`s point at
/// their __musa_sim_mma_operands, `arg` is the operand code) and writes each lane's d.
void computeWarpMma(std::vector<WarpLane *> &group);

/// One warp's lanes [first, last) as both executors see them: `waiting(j)` is lane j's record
/// if it waits at a warp collective (null otherwise), `exited(j)` whether it has returned.
/// Completes the collective `caller` (a waiting lane) waits at if every live lane its mask
/// names waits with the same mask: 1 if it did (the lanes are in `group`, results filled in), 0
/// if the group is not complete yet, -1 if its lanes wait at different collectives (`problem`
/// says so). Call only when no lane of the warp is ready to run (WarpConverge relies on it).
///
/// On warps wider than 32 lanes a 32-bit mask names lanes in every 32-lane quarter, while
/// CUDA code means one 32-lane warp by it: a tile<32> reduction that only tile 0 runs, a
/// ballot-derived mask whose bits differ between quarters. `byQuarter` (the executors' second
/// try, when no collective of the block completes otherwise) leaves out a quarter none of whose
/// named lanes waits at this collective (they wait at a barrier or another collective, which
/// cannot release before this one does): the collective completes among the quarters there.
///
/// The executors try three passes, each only when the one before completes nothing.
enum class WarpPass {
  Strict,   // every collective but converge sites
  Converge, // converge sites: no other collective can complete
  ByQuarter // as Strict, with the quarters rule above (warps wider than 32 lanes)
};
template <class Waiting, class Exited>
int completeWarpGroup(size_t first, size_t last, const WarpLane &caller, Waiting waiting,
                      Exited exited, int warpSize, std::vector<WarpLane *> &group,
                      std::string &problem, WarpPass pass = WarpPass::Strict) {
  group.clear();
  const uint32_t mask = caller.mask, op = caller.op;
  if ((op == WarpConverge) != (pass == WarpPass::Converge))
    return 0;
  const bool byQuarter = pass == WarpPass::ByQuarter;
  if (op & WarpQuarterLocal || op == WarpConverge) { // lanes of the caller's quarter only
    first += caller.lane / 32 * 32;
    last = std::min(last, first + 32);
  }
  if (op == WarpConverge) {
    for (size_t j = first; j < last; ++j)
      if (WarpLane *lane = waiting(j); lane && lane->op == WarpConverge && lane->arg == caller.arg)
        group.push_back(lane);
    computeWarpCollective(group, warpSize);
    return 1;
  }
  const bool wide = last - first > 32;
  for (size_t quarter = first; quarter < last; quarter += 32) {
    const size_t before = group.size();
    bool missing = false;
    for (size_t j = quarter; j < std::min(last, quarter + 32); ++j) {
      if (!laneInMask(mask, uint32_t(j - first)) || exited(j))
        continue;
      WarpLane *lane = waiting(j);
      // A lane at a convergence point (__activemask) is not at this collective yet: it joins
      // after its own group of lanes at that point has gone on (a loop's last iterations).
      if (lane && lane->op == WarpConverge)
        return 0;
      if (!lane || lane->mask != mask ||
          (lane->op & WarpQuarterLocal) != (op & WarpQuarterLocal) || (wide && lane->op != op)) {
        missing = true;
        continue;
      }
      group.push_back(lane);
    }
    if (!missing)
      continue;
    if (!(byQuarter && wide && group.size() == before))
      return 0;
    group.resize(before); // the whole quarter waits elsewhere: it takes no part
  }
  for (WarpLane *l : group)
    if (l->op != op) {
      problem = "lanes of one warp reached different warp collectives with the same mask";
      return -1;
    }
  computeWarpCollective(group, warpSize);
  return 1;
}

/// The value __syncthreads_count/and/or returns, given every thread's predicate.
int blockReduce(uint32_t op, const std::vector<int> &predicates);

} // namespace musa::sim
