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
#include "musa/sim/Timing.h"
#include "musa/sim/WarpCollective.h"

#include <cstdlib>
#include <cstring>
#include <memory>

namespace musa::sim {

enum class ParkKind : uint8_t { Barrier, Reduce, Warp };

struct RegionState {
  uint32_t threads = 0;
  uint32_t regions = 0;
  // The region loop's state block (abi::regionStateBytes): resume entries, pending flags,
  // the parked flag, then the park records the generated code writes.
  std::vector<uint64_t> block;
  uint32_t *resume = nullptr;
  uint32_t *pending = nullptr;    // regions some thread is ready to enter
  uint8_t *events = nullptr; // abi::RegionParkedByte, abi::RegionExitedByte: some thread
                             // parked at a reduction or warp collective, some thread returned
  uint64_t *value = nullptr, *result = nullptr;
  uint32_t *mask = nullptr, *op = nullptr;
  int32_t *arg = nullptr, *width = nullptr;
  const uint32_t *pointKinds = nullptr; // abi::RegionPoint of each park point
  std::vector<uint32_t> kinds;          // the same without abi::RegionPointUniform
  std::vector<uint32_t> uniformPoints;  // the points that have it
  const char *uniformRecords = nullptr; // abi::regionUniformRecordOffset
  std::vector<ParkKind> kind;     // of each parked thread's point (ingest)
  std::vector<WarpLane> lanes;    // a parked warp collective's operands (ingest)
  std::vector<int> predicates;    // scratch: those of the threads a barrier releases
  std::vector<WarpLane *> group;  // scratch: the lanes of one warp collective
  uint32_t reduceOp = 0;
  uint32_t warpParks = 0;         // threads parked at a warp collective
  uint32_t reduceParks = 0;       // threads parked at __syncthreads_count/and/or
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
  /// Lays the state block out for a block of `n` threads and `r` regions, every thread ready
  /// for region 0.
  void start(uint32_t n, uint32_t r, const uint32_t *facts) {
    threads = n, regions = r;
    kinds.assign(facts, facts + (r - 1));
    uniformPoints.clear();
    for (uint32_t j = 0; j + 1 < r; ++j)
      if (kinds[j] & abi::RegionPointUniform)
        kinds[j] &= ~abi::RegionPointUniform, uniformPoints.push_back(j);
    pointKinds = kinds.data();
    block.resize((abi::regionStateBytes(n, r) + 7) / 8);
    char *base = reinterpret_cast<char *>(block.data());
    uniformRecords = base + abi::regionUniformRecordOffset(n, r, 0);
    resume = reinterpret_cast<uint32_t *>(base);
    std::fill(resume, resume + abi::regionEventWord(n, r) + 1, 0u);
    pending = resume + n;
    events = reinterpret_cast<uint8_t *>(resume + abi::regionEventWord(n, r));
    char *records = base + abi::regionRecordsOffset(n, r);
    value = reinterpret_cast<uint64_t *>(records + size_t(n) * abi::ParkValueArray);
    result = reinterpret_cast<uint64_t *>(records + size_t(n) * abi::ParkResultArray);
    mask = reinterpret_cast<uint32_t *>(records + size_t(n) * abi::ParkMaskArray);
    arg = reinterpret_cast<int32_t *>(records + size_t(n) * abi::ParkArgArray);
    width = reinterpret_cast<int32_t *>(records + size_t(n) * abi::ParkWidthArray);
    op = reinterpret_cast<uint32_t *>(records + size_t(n) * abi::ParkOpArray);
    kind.assign(n, ParkKind::Barrier);
    lanes.resize(n);
    warpParks = reduceParks = 0;
    pending[0] = 1;
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

/// The park point a parked thread waits at.
uint32_t pointOf(uint32_t resume) { return (resume & ~abi::RegionParked) - 1; }

void release(RegionState &s, uint32_t t, uint64_t result) {
  s.resume[t] &= ~abi::RegionParked;
  s.pending[s.resume[t]] = 1;
  s.result[t] = result;
  if (s.kind[t] == ParkKind::Warp)
    --s.warpParks;
  s.kind[t] = ParkKind::Barrier;
}

/// Where lane `lane` of a whole-warp shuffle reads from.
uint32_t shuffleSource(uint32_t op, uint32_t lane, int32_t argument, int32_t segment,
                       uint32_t warpSize) {
  uint32_t width = segment > 0 && uint32_t(segment) <= warpSize ? uint32_t(segment) : warpSize;
  uint32_t base, offset, arg = uint32_t(argument);
  if ((width & (width - 1)) == 0) // CUDA's widths are powers of two: no division
    base = lane & ~(width - 1), offset = lane & (width - 1);
  else
    base = lane / width * width, offset = lane % width;
  switch (op) {
  case WarpShflIdx: return base + ((width & (width - 1)) == 0 ? arg & (width - 1) : arg % width);
  case WarpShflUp: return offset >= arg ? lane - arg : lane;
  case WarpShflDown: return offset + arg < width ? lane + arg : lane;
  default: return (lane ^ arg) - base < width ? lane ^ arg : lane;
  }
}

/// One shuffle of `n` lanes (a warp, or several back to back), all passing the same operation,
/// argument and segment width: copies of runs of lanes (they vectorise) instead of a source
/// lane each. False (nothing done) for a width that is not a power of two.
bool shuffleBlock(uint32_t op, int32_t argument, int32_t segment, uint32_t warpSize, uint32_t n,
                  const uint64_t *value, uint64_t *result) {
  uint32_t width = segment > 0 && uint32_t(segment) <= warpSize ? uint32_t(segment) : warpSize;
  if (width & (width - 1))
    return false;
  const uint32_t a = uint32_t(argument);
  if ((op == WarpShflUp || op == WarpShflDown) && a < width) {
    // One copy shifted by `a` lanes for all segments, then the lanes that would read across a
    // segment's edge keep their own value: a segment's first `a` (up) or last `a` (down).
    if (op == WarpShflDown)
      std::copy(value + a, value + n, result);
    else
      std::copy(value, value + n - a, result + a);
    const uint32_t kept = op == WarpShflDown ? width - a : 0;
    for (uint32_t base = kept; base < n; base += width)
      for (uint32_t l = base; l < base + a; ++l)
        result[l] = value[l];
    return true;
  }
  for (uint32_t base = 0; base < n; base += width) {
    const uint64_t *in = value + base;
    uint64_t *out = result + base;
    switch (op) {
    case WarpShflIdx:
      std::fill(out, out + width, in[a & (width - 1)]);
      break;
    case WarpShflUp:
    case WarpShflDown: // by a segment or more: every lane keeps its own value
      std::copy(in, in + width, out);
      break;
    default: // xor: within the segment only while the mask stays below its width
      for (uint32_t l = 0; l < width; ++l)
        out[l] = in[a < width ? l ^ a : l];
      break;
    }
  }
  return true;
}

/// The common case of a pass that parked threads at warp collectives, done straight on the
/// park records: every live thread waits at a shuffle, each warp whole at one point with the
/// full mask (warp reductions, butterfly exchanges), no thread at a barrier. Completes them all
/// and returns true; false (nothing changed) if the block is not in that case. `allAt` says
/// whether every thread of the block is then ready for one region.
bool shuffleConvergedWarps(RegionState &s, uint32_t warpSize, bool &allAt) {
  allAt = false;
  for (uint32_t r = 0; r < s.regions; ++r)
    if (s.pending[r])
      return false; // some thread waits at a plain __syncthreads
  const uint32_t n = s.threads;
  if (n % warpSize)
    return false;
  // Local copies: stores through the arrays below cannot then be taken to change them.
  uint32_t *const resume = s.resume, *const pending = s.pending;
  const uint32_t *const op = s.op, *const mask = s.mask, *const kinds = s.pointKinds;
  const int32_t *const arg = s.arg, *const width = s.width;
  const uint64_t *const value = s.value;
  uint64_t *const result = s.result;
  // Usually a warp's lanes all pass the same offset and width (a reduction's step): then the
  // warp's shuffle is copies of runs of lanes. Bit w of `alike` says so of warp w (a block
  // has at most 1024 threads: 32 warps of 32 lanes).
  if (n / warpSize > 64)
    return false;
  uint64_t alike = 0;
  bool blockAlike = true; // every warp live, at one point, shuffling as warp 0 does
  for (uint32_t first = 0; first < n; first += warpSize) {
    const uint32_t at = resume[first], warpOp = op[first];
    const uint32_t arg0 = uint32_t(arg[first]), width0 = uint32_t(width[first]);
    // Ors of xors, no branches: they vectorise.
    uint32_t differs = 0, live = 0, shape = 0;
    for (uint32_t j = first; j < first + warpSize; ++j) {
      differs |= (resume[j] ^ at) | (op[j] ^ warpOp) | ~mask[j];
      live |= resume[j] ^ abi::RegionExited;
      shape |= (uint32_t(arg[j]) ^ arg0) | (uint32_t(width[j]) ^ width0);
    }
    if (live == 0) { // the whole warp has returned
      blockAlike = false;
      continue;
    }
    if (differs || !parked(at) || kinds[pointOf(at)] != abi::RegionPointWarp ||
        warpOp < WarpShflIdx || warpOp > WarpShflXor)
      return false;
    if (shape == 0)
      alike |= uint64_t(1) << (first / warpSize);
    blockAlike &= shape == 0 && at == resume[0] && warpOp == op[0] &&
                  arg0 == uint32_t(arg[0]) && width0 == uint32_t(width[0]);
  }
  // The commonest case in one go (a per-warp call costs more than the copies of 32 lanes).
  if (blockAlike && shuffleBlock(op[0], arg[0], width[0], warpSize, n, value, result)) {
    std::fill(resume, resume + n, resume[0] & ~abi::RegionParked);
    pending[resume[0] & ~abi::RegionParked] = 1;
    allAt = true;
    return true;
  }
  for (uint32_t first = 0; first < n; first += warpSize) {
    const uint32_t at = resume[first];
    if (at == abi::RegionExited)
      continue;
    const uint32_t warpOp = op[first];
    const uint64_t *lanes = value + first;
    if (!(alike >> (first / warpSize) & 1) ||
        !shuffleBlock(warpOp, arg[first], width[first], warpSize, warpSize, lanes,
                      result + first))
      for (uint32_t lane = 0; lane < warpSize; ++lane)
        result[first + lane] =
            lanes[shuffleSource(warpOp, lane, arg[first + lane], width[first + lane], warpSize)];
    std::fill(resume + first, resume + first + warpSize, at & ~abi::RegionParked);
    pending[at & ~abi::RegionParked] = 1;
  }
  return true;
}

/// A uniform shuffle's operands as the region loop stored them (abi::ParkUniformBytes).
struct UniformRecord {
  uint32_t op, mask;
  int32_t arg, width;
  explicit UniformRecord(const char *record) {
    std::memcpy(&op, record + abi::ParkUniformOp, 4);
    std::memcpy(&mask, record + abi::ParkUniformMask, 4);
    std::memcpy(&arg, record + abi::ParkUniformArg, 4);
    std::memcpy(&width, record + abi::ParkUniformWidth, 4);
  }
};

/// After a call for every thread: the threads parked at a uniform shuffle wrote its operands
/// to the point's uniform record (FormBarrierRegions); copies them to their park records.
void expandUniformRecords(RegionState &s) {
  for (uint32_t j : s.uniformPoints) {
    const UniformRecord u(s.uniformRecords + size_t(j) * abi::ParkUniformBytes);
    const uint32_t at = (j + 1) | abi::RegionParked;
    for (uint32_t t = 0; t < s.threads; ++t)
      if (s.resume[t] == at)
        s.op[t] = u.op, s.mask[t] = u.mask, s.arg[t] = u.arg, s.width[t] = u.width;
  }
}

/// Whether every thread of the block is ready for region `r` (none returned or waits
/// elsewhere): the region loop may then skip reading their entries. No branch: it vectorises.
bool everyThreadAt(const RegionState &s, uint32_t r) {
  uint32_t differs = 0; // an or of xors: GCC vectorises it, not a chain of `bool &=`
  for (uint32_t t = 0; t < s.threads; ++t)
    differs |= s.resume[t] ^ r;
  return differs == 0;
}

/// The first thread parked at a warp collective whose mask does not name its lane, or
/// `threads` if there is none.
uint32_t laneOutsideMask(const RegionState &s, uint32_t warpSize) {
  for (uint32_t t = 0; t < s.threads; ++t)
    if (parked(s.resume[t]) && s.pointKinds[pointOf(s.resume[t])] == abi::RegionPointWarp &&
        !laneInMask(s.mask[t], t % warpSize))
      return t;
  return s.threads;
}

/// Reads what every parked thread waits at from its point and park record.
void ingestParks(RegionState &s, uint32_t warpSize) {
  s.warpParks = s.reduceParks = 0;
  for (uint32_t t = 0; t < s.threads; ++t) {
    s.kind[t] = ParkKind::Barrier;
    if (!parked(s.resume[t]))
      continue;
    uint32_t point = s.pointKinds[pointOf(s.resume[t])];
    if (point == abi::RegionPointReduce) {
      s.kind[t] = ParkKind::Reduce;
      s.reduceOp = s.op[t];
      ++s.reduceParks;
    } else if (point == abi::RegionPointWarp) {
      WarpLane &lane = s.lanes[t];
      lane.lane = t % warpSize;
      lane.op = s.op[t], lane.mask = s.mask[t], lane.value = s.value[t];
      lane.arg = s.arg[t], lane.width = s.width[t];
      s.kind[t] = ParkKind::Warp;
      ++s.warpParks;
    }
  }
}

/// Completes every warp collective whose lanes have all arrived; true if any did.
bool resolveWarps(RegionState &s, uint32_t warpSize, std::string &problem,
                  WarpPass pass = WarpPass::Strict) {
  bool progress = false;
  std::vector<WarpLane *> &group = s.group;
  for (uint32_t first = 0; first < s.threads; first += warpSize) {
    uint32_t last = std::min(s.threads, first + warpSize);
    for (uint32_t i = first; i < last; ++i) {
      if (!parked(s.resume[i]) || s.kind[i] != ParkKind::Warp)
        continue;
      int done = completeWarpGroup(
          first, last, s.lanes[i],
          [&](size_t j) {
            return parked(s.resume[j]) && s.kind[j] == ParkKind::Warp ? &s.lanes[j] : nullptr;
          },
          [&](size_t j) { return s.resume[j] == abi::RegionExited; }, int(warpSize), group,
          problem, pass);
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
        predicates.push_back(s.arg[t]);
    result = blockReduce(s.reduceOp, predicates);
    s.reduceParks = 0;
    for (uint32_t t = 0; t < s.threads; ++t) {
      s.result[t] = uint64_t(uint32_t(result));
      s.kind[t] = ParkKind::Barrier;
    }
  }
  uint32_t live = 0, last = abi::RegionExited;
  uint32_t *resume = s.resume;
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
  s.start(n, regions, code.pointKinds);
  char *frames = s.frameBuffer(size_t(code.frameBytes) * n);
  bool parkedBefore = false; // threads still parked from an earlier pass
  // Every thread is known to be ready for whichever single region is pending: all of them ran
  // the last pass's one region and reached plain barriers, none parked or returned (then one
  // pending region means they all wait at its barrier), or a shuffle released them all.
  bool allKnown = true;
  for (;;) {
    // One pass runs the regions that were ready when it began; threads reaching a plain
    // __syncthreads flag the next region for the following pass.
    s.ready.clear();
    for (uint32_t r = 0; r < regions; ++r)
      if (s.pending[r])
        s.ready.push_back(r), s.pending[r] = 0;
    if (s.ready.empty()) {
      if (parkedBefore)
        return run->fail(FaultKind::BarrierDivergence, deadlockMessage(s, launch));
      return; // every thread returned
    }
    const bool all = s.ready.size() == 1 && (allKnown || everyThreadAt(s, s.ready[0]));
    if (all)
      code.entry(launch.args, &run->loopContext, frames, s.resume,
                 s.ready[0] | abi::RegionAllThreads);
    else
      for (uint32_t r : s.ready)
        code.entry(launch.args, &run->loopContext, frames, s.resume, r);
    const bool someParked = s.events[abi::RegionParkedByte] != 0;
    if (all && someParked && !s.uniformPoints.empty())
      expandUniformRecords(s);
    allKnown = all && !someParked && !s.events[abi::RegionExitedByte];
    s.events[abi::RegionParkedByte] = s.events[abi::RegionExitedByte] = 0;
    if (!someParked && !parkedBefore) {
      // Every live thread waits at a plain __syncthreads: already released.
      if (run->sampledBlock)
        run->sampledBlock->foldSamples();
      continue;
    }
    if (!parkedBefore && shuffleConvergedWarps(s, warpSize, allKnown))
      continue;
    allKnown = false;
    // Some thread waits at a warp collective or a block reduction, or still waits from an
    // earlier pass: the plain barrier's optimistic release is undone (those threads wait
    // too), then the points are resolved.
    for (uint32_t t = 0; t < n; ++t)
      if (s.resume[t] != abi::RegionExited)
        s.resume[t] |= abi::RegionParked;
    std::fill(s.pending, s.pending + regions, 0);
    parkedBefore = true;
    if (uint32_t t = laneOutsideMask(s, warpSize); t < n) {
      // Reported as the fiber executor reports it, naming the thread (nothing in this frame
      // needs destroying: the fault unwinds past it).
      uint32_t *tid = run->loopContext.tid;
      tid[0] = t % launch.block.x, tid[1] = t / launch.block.x % launch.block.y;
      tid[2] = t / (launch.block.x * launch.block.y);
      raiseDeviceFault(FaultKind::BarrierDivergence,
                       "warp collective called by a lane its mask does not name");
    }
    ingestParks(s, warpSize);
    std::string problem;
    if (s.warpParks) {
      bool progress = resolveWarps(s, warpSize, problem);
      if (!progress && problem.empty())
        progress = resolveWarps(s, warpSize, problem, WarpPass::Converge);
      if (!progress && problem.empty() && warpSize > 32)
        progress = resolveWarps(s, warpSize, problem, WarpPass::ByQuarter);
      if (!problem.empty())
        return run->fail(FaultKind::BarrierDivergence, problem);
      if (progress)
        continue;
      return run->fail(FaultKind::BarrierDivergence, deadlockMessage(s, launch));
    }
    releaseBarrier(s);
    if (run->sampledBlock)
      run->sampledBlock->foldSamples();
    parkedBefore = false;
  }
}

namespace {

/// abi::RegionShuffleFn. The entry calls it after a region run for every thread, when that
/// region can reach no park point but one shuffle whose operands other than the value are
/// block-uniform: then no returned thread means every thread waits there with the operation,
/// mask, argument and width of the point's uniform record, and the block in whole warps with
/// the full mask is
/// the executor's commonest case (shuffleConvergedWarps), done here without its checks.
uint32_t completeUniformShuffle(ThreadContext *ctx, uint32_t *resume, uint32_t regions,
                                uint32_t point) {
  const uint32_t n = ctx->ntid[0] * ctx->ntid[1] * ctx->ntid[2], warpSize = ctx->warpSize;
  auto *events = reinterpret_cast<uint8_t *>(resume + abi::regionEventWord(n, regions));
  if (events[abi::RegionExitedByte] || n % warpSize)
    return 0;
  char *records = reinterpret_cast<char *>(resume) + abi::regionRecordsOffset(n, regions);
  auto array = [&](unsigned which) { return records + size_t(n) * which; };
  const UniformRecord u(reinterpret_cast<const char *>(resume) +
                        abi::regionUniformRecordOffset(n, regions, point));
  if (u.mask != ~0u || u.op < WarpShflIdx || u.op > WarpShflXor ||
      !shuffleBlock(u.op, u.arg, u.width, warpSize, n,
                    reinterpret_cast<const uint64_t *>(array(abi::ParkValueArray)),
                    reinterpret_cast<uint64_t *>(array(abi::ParkResultArray))))
    return 0;
  // The next region's run for every thread rewrites each resume entry and the flags.
  events[abi::RegionParkedByte] = 0;
  return 1;
}

} // namespace

bool regionFrameHolds(const ThreadContext *ctx, const void *p) {
  const auto *run = static_cast<const BlockRun *>(ctx->block);
  if (!run || run->mode != ExecMode::Regions || !run->regions || !run->regions->frames)
    return false;
  uintptr_t offset = uintptr_t(p) - uintptr_t(run->regions->frames.get());
  return offset < run->regions->frameCapacity;
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

extern "C" uint32_t __musa_sim_region_shuffle(musa::sim::ThreadContext *ctx, uint32_t *resume,
                                              uint32_t regions, uint32_t point) {
  return musa::sim::completeUniformShuffle(ctx, resume, regions, point);
}
