// Region mode: a block of a kernel cut at its park points (kernel-jit FormBarrierRegions.cpp)
// runs as a sequence of loops over its threads, with no fiber and no stack per thread.
//
// Each thread's entry in `resume` names the region it enters next. The executor calls the
// kernel's region loop for each region some thread is ready to enter; the loop runs those
// threads until each parks at its next point or returns. Then the points are resolved as the
// fiber scheduler resolves them: a warp collective completes once every live lane its mask
// names waits at it with the same mask; a block barrier once every live thread waits at one
// (threads that exited no longer hold it up). Released threads become ready for the region
// after their point. Nothing to release while threads still wait is a deadlock: the block
// ends with a fault that names who waits where.
#include "BlockRun.h"

#include "musa/sim/FaultGuard.h"
#include "musa/sim/WarpCollective.h"

#include <cstdlib>
#include <memory>

namespace musa::sim {

enum class ParkKind : uint8_t { Barrier, Reduce, Warp };

struct RegionState {
  uint32_t threads = 0;
  std::vector<uint32_t> resume;
  std::vector<ParkKind> kind;
  std::vector<WarpLane> lanes;   // operands of a parked warp collective
  std::vector<int32_t> predicate; // of a parked __syncthreads_count/and/or
  std::vector<int> predicates;    // scratch: those of the threads a barrier releases
  std::vector<WarpLane *> group;  // scratch: the lanes of one warp collective
  std::vector<uint64_t> result;   // what the released point returns
  uint32_t reduceOp = 0;
  uint32_t warpParks = 0;         // threads parked at a warp collective
  uint32_t reduceParks = 0;       // threads parked at __syncthreads_count/and/or
  uint32_t *pending = nullptr;    // regions some thread is ready to enter: after the
                                  // threads' entries in `resume` (abi::KernelRegions)
  std::vector<uint32_t> ready;    // scratch: the regions one pass runs
  std::unique_ptr<char, decltype(&std::free)> frames{nullptr, &std::free};
  size_t frameCapacity = 0;

  char *frameBuffer(size_t bytes) {
    if (bytes > frameCapacity || !frames) {
      frameCapacity = (std::max<size_t>(bytes, 4096) + 63) / 64 * 64;
      frames.reset(static_cast<char *>(std::aligned_alloc(64, frameCapacity)));
    }
    return frames.get();
  }
  // Not inlined: GCC would otherwise look the thread-local's address up again after every
  // call in the caller's loops (__tls_get_addr, in a shared library).
  [[gnu::noinline]] static RegionState &forThisThread() {
    thread_local RegionState state;
    return state;
  }
};

namespace {

bool parked(uint32_t resume) { return resume != abi::RegionExited && (resume & abi::RegionParked); }

void release(RegionState &s, uint32_t t, uint64_t result) {
  s.resume[t] &= ~abi::RegionParked;
  s.pending[s.resume[t]] = 1;
  s.result[t] = result;
  if (s.kind[t] == ParkKind::Warp)
    --s.warpParks;
  s.kind[t] = ParkKind::Barrier;
}

/// The common case done without gathering groups: every lane of the warp waits at the same
/// shuffle point with the full mask (as in warp reductions). Returns false if the warp is not
/// in that case.
bool shuffleWholeWarp(RegionState &s, uint32_t first, uint32_t last, uint32_t warpSize) {
  const WarpLane &lead = s.lanes[first];
  if (last - first != warpSize || lead.op < WarpShflIdx || lead.op > WarpShflXor ||
      lead.mask != 0xffffffffu)
    return false;
  for (uint32_t j = first; j < last; ++j)
    if (s.resume[j] != s.resume[first] || s.kind[j] != ParkKind::Warp ||
        s.lanes[j].op != lead.op || s.lanes[j].mask != lead.mask)
      return false;
  for (uint32_t j = first; j < last; ++j) {
    const WarpLane &l = s.lanes[j];
    uint32_t lane = j - first;
    uint32_t width = l.width > 0 && uint32_t(l.width) <= warpSize ? uint32_t(l.width) : warpSize;
    uint32_t base = lane / width * width, offset = lane % width, arg = uint32_t(l.arg), src = lane;
    switch (l.op) {
    case WarpShflIdx: src = base + arg % width; break;
    case WarpShflUp: src = offset >= arg ? lane - arg : lane; break;
    case WarpShflDown: src = offset + arg < width ? lane + arg : lane; break;
    default: src = (lane ^ arg) / width == lane / width ? lane ^ arg : lane; break;
    }
    s.result[j] = s.lanes[first + src].value;
  }
  // Released together: they all wait at the same point, so one region is pending.
  for (uint32_t j = first; j < last; ++j) {
    s.resume[j] &= ~abi::RegionParked;
    s.kind[j] = ParkKind::Barrier;
  }
  s.pending[s.resume[first]] = 1;
  s.warpParks -= last - first;
  return true;
}

/// Completes every warp collective whose lanes have all arrived; true if any did.
bool resolveWarps(RegionState &s, uint32_t warpSize, std::string &problem) {
  bool progress = false;
  std::vector<WarpLane *> &group = s.group;
  for (uint32_t first = 0; first < s.threads; first += warpSize) {
    uint32_t last = std::min(s.threads, first + warpSize);
    if (parked(s.resume[first]) && s.kind[first] == ParkKind::Warp &&
        shuffleWholeWarp(s, first, last, warpSize)) {
      progress = true;
      continue;
    }
    for (uint32_t i = first; i < last; ++i) {
      if (!parked(s.resume[i]) || s.kind[i] != ParkKind::Warp)
        continue;
      int done = completeWarpGroup(
          first, last, s.lanes[i].mask,
          [&](size_t j) {
            return parked(s.resume[j]) && s.kind[j] == ParkKind::Warp ? &s.lanes[j] : nullptr;
          },
          [&](size_t j) { return s.resume[j] == abi::RegionExited; }, int(warpSize), group,
          problem);
      if (done < 0)
        return false;
      if (done == 0)
        continue;
      for (WarpLane *l : group)
        release(s, uint32_t(l - s.lanes.data()), l->result);
      progress = true;
    }
  }
  return progress;
}

/// With no thread at a warp collective, every live thread waits at a block barrier (each
/// region run takes its threads to a park point or to their return): releases them all, with
/// the block's reduction if they wait at __syncthreads_count/and/or. Returns the number of
/// threads released (0: all have returned).
uint32_t releaseBarrier(RegionState &s) {
  int result = 0;
  if (s.reduceParks) {
    std::vector<int> &predicates = s.predicates;
    predicates.clear();
    for (uint32_t t = 0; t < s.threads; ++t)
      if (parked(s.resume[t]) && s.kind[t] == ParkKind::Reduce)
        predicates.push_back(s.predicate[t]);
    result = blockReduce(s.reduceOp, predicates);
    s.reduceParks = 0;
    for (uint32_t t = 0; t < s.threads; ++t) {
      s.result[t] = uint64_t(uint32_t(result));
      s.kind[t] = ParkKind::Barrier;
    }
  }
  uint32_t live = 0, last = abi::RegionExited;
  uint32_t *resume = s.resume.data();
  uint32_t *pending = s.pending;
  for (uint32_t t = 0, n = s.threads; t < n; ++t) {
    uint32_t r = resume[t];
    if (r == abi::RegionExited)
      continue;
    r &= ~abi::RegionParked;
    resume[t] = r;
    if (r != last) // threads mostly wait at the same point
      pending[r] = 1, last = r;
    ++live;
  }
  return live;
}

/// Up to four thread indices matching `pick`, for a message.
template <class Pick> std::string listThreads(const RegionState &s, const GridLaunch &l,
                                              Pick pick, size_t &count) {
  std::string list;
  count = 0;
  for (uint32_t t = 0; t < s.threads; ++t) {
    if (!pick(t))
      continue;
    if (++count <= 4) {
      uint32_t v[3] = {t % l.block.x, t / l.block.x % l.block.y, t / (l.block.x * l.block.y)};
      list += (list.empty() ? "" : " ") + dims(v);
    }
  }
  if (count > 4)
    list += " ...";
  return list;
}

std::string deadlockMessage(const RegionState &s, const GridLaunch &l) {
  size_t nWarp = 0, nBar = 0;
  std::string w = listThreads(s, l, [&](uint32_t t) {
    return parked(s.resume[t]) && s.kind[t] == ParkKind::Warp;
  }, nWarp);
  std::string b = listThreads(s, l, [&](uint32_t t) {
    return parked(s.resume[t]) && s.kind[t] != ParkKind::Warp;
  }, nBar);
  return "deadlock: warp collective cannot complete: " + std::to_string(nWarp) +
         " thread(s) wait at a warp collective (" + w + ") for lanes its mask names, "
         "which wait at __syncthreads() (" + std::to_string(nBar) + ": " + b + ")";
}

RegionState &stateOf(ThreadContext *ctx, uint32_t &t) {
  auto *run = static_cast<BlockRun *>(ctx->block);
  if (run->mode != ExecMode::Regions)
    raiseDeviceFault(FaultKind::MisalignedBarrier,
                     "region park point outside region mode (simulator bug)");
  t = ctx->tid[0] + ctx->ntid[0] * (ctx->tid[1] + ctx->ntid[1] * ctx->tid[2]);
  return *run->regions;
}

} // namespace

void runRegionBlock(void *arg) {
  auto *run = static_cast<BlockRun *>(arg);
  const GridLaunch &launch = *run->launch;
  RegionState &s = RegionState::forThisThread();
  run->regions = &s;
  uint32_t n = uint32_t(launch.block.count()), warpSize = uint32_t(launch.warpSize);
  const RegionCode &code = *run->regionCode;
  uint32_t regions = code.parkPoints + 1;
  s.threads = n;
  s.resume.assign(size_t(n) + regions, 0);
  s.pending = s.resume.data() + n;
  s.kind.assign(n, ParkKind::Barrier);
  s.lanes.resize(n); // lane indices filled in when a thread parks at a collective
  s.predicate.resize(n);
  s.result.resize(n);
  s.warpParks = s.reduceParks = 0;
  s.pending[0] = 1;
  char *frames = s.frameBuffer(size_t(code.frameBytes) * n);
  bool parkedBefore = false; // threads still parked from an earlier pass
  for (;;) {
    // One pass runs the regions that were ready when it began; threads reaching a plain
    // __syncthreads flag the next region for the following pass.
    s.ready.clear();
    for (uint32_t r = 0; r < regions; ++r)
      if (s.pending[r])
        s.ready.push_back(r), s.pending[r] = 0;
    if (s.ready.empty()) {
      if (s.warpParks || s.reduceParks)
        return run->fail(FaultKind::BarrierDivergence, deadlockMessage(s, launch));
      return; // every thread returned
    }
    for (uint32_t r : s.ready)
      code.entry(launch.args, &run->loopContext, frames, s.resume.data(), r);
    if (!s.warpParks && !s.reduceParks && !parkedBefore)
      continue; // every live thread waits at a plain __syncthreads: already released
    // Some thread waits at a warp collective or a block reduction, or still waits from an
    // earlier pass: the plain barrier's optimistic release is undone (those threads wait
    // too), then the points are resolved.
    for (uint32_t t = 0; t < n; ++t)
      if (s.resume[t] != abi::RegionExited)
        s.resume[t] |= abi::RegionParked;
    std::fill(s.pending, s.pending + regions, 0);
    parkedBefore = true;
    if (s.warpParks) {
      std::string problem;
      bool progress = resolveWarps(s, warpSize, problem);
      if (!problem.empty())
        return run->fail(FaultKind::BarrierDivergence, problem);
      if (progress)
        continue;
      return run->fail(FaultKind::BarrierDivergence, deadlockMessage(s, launch));
    }
    releaseBarrier(s);
    parkedBefore = false;
  }
}

uint32_t regionActiveMask(ThreadContext *ctx) {
  uint32_t t = 0;
  RegionState &s = stateOf(ctx, t);
  uint32_t quarter = t - t % 32, bits = 0;
  for (uint32_t j = quarter; j < std::min(s.threads, quarter + 32); ++j)
    if (s.resume[j] != abi::RegionExited)
      bits |= 1u << (j - quarter);
  return bits;
}

} // namespace musa::sim

using musa::sim::RegionState;

extern "C" void __musa_sim_park_reduce(uint32_t op, int32_t predicate,
                                       musa::sim::ThreadContext *ctx) {
  uint32_t t = 0;
  RegionState &s = musa::sim::stateOf(ctx, t);
  s.kind[t] = musa::sim::ParkKind::Reduce;
  ++s.reduceParks;
  s.reduceOp = op;
  s.predicate[t] = predicate;
}

extern "C" void __musa_sim_park_warp(uint32_t op, uint32_t mask, uint64_t value, int32_t arg,
                                     int32_t width, musa::sim::ThreadContext *ctx) {
  uint32_t t = 0;
  RegionState &s = musa::sim::stateOf(ctx, t);
  musa::sim::WarpLane &lane = s.lanes[t];
  lane.lane = t % uint32_t(ctx->warpSize);
  if (!musa::sim::laneInMask(mask, lane.lane))
    musa::sim::raiseDeviceFault(musa::sim::FaultKind::BarrierDivergence,
                                "warp collective called by a lane its mask does not name");
  s.kind[t] = musa::sim::ParkKind::Warp;
  ++s.warpParks;
  lane.op = op, lane.mask = mask, lane.value = value, lane.arg = arg, lane.width = width;
}

extern "C" uint64_t __musa_sim_park_result(musa::sim::ThreadContext *ctx) {
  uint32_t t = 0;
  return musa::sim::stateOf(ctx, t).result[t];
}
