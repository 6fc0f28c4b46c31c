// Simulated time: timelines, engines and what copies and memsets cost. The kernel counters
// are in KernelCounters.cpp, the kernel model in TimingModel.cpp.
#include "musa/sim/Timing.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace musa::sim {

bool timingModelOn() {
  static const bool on = [] {
    const char *mode = std::getenv("MUSA_SIM_TIMING");
    return !(mode && std::strcmp(mode, "wall") == 0);
  }();
  return on;
}

// ---------------------------------------------------------------------------------------
// Timelines and engines

namespace {
thread_local Timeline *current = nullptr;
} // namespace

Timeline *currentTimeline() { return current; }

TimelineScope::TimelineScope(Timeline *timeline) : previous_(current) { current = timeline; }
TimelineScope::~TimelineScope() { current = previous_; }

int DeviceClock::slot(Engine engine) const {
  if (engine == Engine::Compute || copyEngines_ <= 0)
    return 0;
  if (copyEngines_ == 1)
    return 1;
  return engine == Engine::CopyIn ? 1 : 2;
}

double DeviceClock::place(Engine engine, double readyNs, double durationNs, double *startNs,
                          double share) {
  std::lock_guard lock(mutex_);
  int k = slot(engine);
  // A copy engine is all or nothing; either kind of engine takes an operation into the first
  // gap from its ready time that holds it, so that two streams' operations interleave as their
  // ready times say, whichever of their workers reached the clock first.
  double start = place(k, readyNs, durationNs, k == 0 ? std::clamp(share, 1e-6, 1.0) : 1.0);
  if (startNs)
    *startNs = start;
  return start + durationNs;
}

double DeviceClock::place(int k, double readyNs, double durationNs, double share) {
  std::vector<Busy> &busy = busy_[k];
  // Candidate starts: the ready time and every later end of a recorded operation; the first
  // at which the shares in use, at every point of [start, start + duration), leave `share`.
  std::vector<double> candidates{std::max(readyNs, floor_[k])};
  for (const Busy &b : busy)
    if (b.end > candidates[0])
      candidates.push_back(b.end);
  std::sort(candidates.begin(), candidates.end());
  auto fits = [&](double t) {
    double end = t + durationNs;
    // The use only rises where an operation starts, so checking t and each start inside
    // (t, end) covers the interval.
    auto usedAt = [&](double x) {
      double used = 0;
      for (const Busy &b : busy)
        if (b.start <= x && x < b.end)
          used += b.share;
      return used;
    };
    if (usedAt(t) + share > 1 + 1e-9)
      return false;
    for (const Busy &b : busy)
      if (b.start > t && b.start < end && usedAt(b.start) + share > 1 + 1e-9)
        return false;
    return true;
  };
  double start = candidates.back();
  for (double t : candidates)
    if (fits(t)) {
      start = t;
      break;
    }
  if (durationNs > 0)
    busy.push_back({start, start + durationNs, share});
  if (busy.size() > kHistory) {
    // Forget the operation that ended first; nothing may start before it ended any more.
    auto first = std::min_element(busy.begin(), busy.end(),
                                  [](const Busy &a, const Busy &b) { return a.end < b.end; });
    floor_[k] = std::max(floor_[k], first->end);
    busy.erase(first);
  }
  return start;
}

double chargeCurrent(DeviceClock &clock, Engine engine, double durationNs, double share) {
  Timeline *t = currentTimeline();
  if (!t)
    return 0;
  double start = 0;
  t->readyNs = clock.place(engine, t->readyNs.load(), durationNs, &start, share);
  t->lastEngine = int(engine);
  return start;
}

namespace {
/// What of an isolated launch's kernel_launch_us is the device's, not the host's call.
double launchDeviceSideNs(const DeviceProfile &p) {
  return (p.kernelLaunchUs - p.hostLaunchUs - p.hostLaunchColdUs) * 1000;
}
} // namespace

double copyNs(const DeviceProfile &p, CopyRoute route, uint64_t bytes, uint64_t rows,
              CopyQueue queue, double aheadNs) {
  double gbs = p.hostLinkBandwidthGBs; // GB/s is bytes per nanosecond
  double latency = p.copyLatencyUs * 1000;
  if (route == CopyRoute::HostToDevicePinned || route == CopyRoute::DeviceToHostPinned) {
    // Queued, its start-up overlaps the work ahead for as long as that work ran on.
    if (queue == CopyQueue::SameEngine || queue == CopyQueue::GraphNode)
      latency = std::max(p.copyQueuedUs * 1000, latency - aheadNs);
    else if (queue == CopyQueue::OtherEngine)
      latency = std::max(p.copySwitchUs * 1000, latency - aheadNs);
  }
  switch (route) {
  case CopyRoute::HostToDevicePageable:
    gbs *= p.pageableCopyFactor;
    break;
  case CopyRoute::DeviceToHostPageable:
    // The host copies out of a bounce buffer once the GPU has filled it: the first one's
    // transfer comes before the staged stream (the H200: 1 MB in 133 us, 16 MB in 1.5 ms).
    latency += std::min(double(bytes), p.pageableStageBytes) / gbs;
    gbs *= p.pageableD2hFactor;
    break;
  case CopyRoute::DeviceToDevice:
    // Each byte is read, then written. On a stream each copy costs an isolated launch, even
    // queued behind others (the H200: four async copies of 4 KB to 16 MB back to back, 36 us:
    // timing_blind.mu); as a node of a graph, whose nodes the GPU has together, only the
    // launch's device-side part (a replayed graph of a copy, a memset and two kernels: 8 us).
    gbs = p.memoryBandwidthGBs / (1 / p.dramEfficiency + 1 / p.dramWriteEfficiency);
    latency = queue == CopyQueue::GraphNode
                  ? launchDeviceSideNs(p)
                  : p.kernelLaunchUs * 1000;
    break;
  case CopyRoute::Peer:
    gbs = p.peerBandwidthGBs;
    break;
  case CopyRoute::HostToHost:
    gbs = 10; // a host memcpy; about one core's bandwidth
    latency = 1000;
    break;
  default:
    break;
  }
  if (rows > 1 && route != CopyRoute::HostToHost) {
    // Measured on the H200 (tests/hardware/probes/mechanisms.h200.txt): a pitched
    // device-to-device copy reaches about a sixth of a linear one's rate and takes at least
    // 0.6 ns a row; host copies stay bound by the link.
    gbs = std::min(gbs, p.copy2dBandwidthGBs);
    return std::max(latency, p.copy2dLatencyUs * 1000) +
           std::max(double(bytes) / gbs, double(rows) * p.copy2dRowNs);
  }
  return latency + double(bytes) / gbs;
}

double memsetNs(const DeviceProfile &p, uint64_t bytes, uint64_t rows, double aheadNs) {
  // A memset streams writes with no reads between them: at the rate a read stream reaches
  // (the H200: 4.6 TB/s between a 64 KB and a 196 MB memset, memset2d_rows.h200.txt). A
  // pitched one goes row by row, at least copy_2d_row_ns a row as pitched copies do (64-byte
  // rows: 48 us for 65536, 0.63 ns each).
  double write = double(bytes) / (p.memoryBandwidthGBs * p.dramEfficiency);
  if (rows > 1)
    write = std::max(write, double(rows) * p.copy2dRowNs);
  if (double(bytes) <= p.memsetInlineBytes && rows <= 1)
    return p.memsetLatencyUs * 1000 + write;
  // Beyond a few KB the driver launches a memset kernel (the H200: 2-4 KB memsets 1.5-1.6 us
  // each back to back, 6 KB to 4 MB 4.1-4.8 us: memset_sizes.h200.txt). Alone it costs what
  // an isolated launch does before its writes (6.2-6.9 us for 64 KB to 4 MB, then 4.6 TB/s);
  // queued behind other work, what of it that work did not hide, at least the launch's
  // device-side part; and no less than the driver's rate of memset calls (64 MB back to back:
  // 17.7 us each).
  double startNs = std::max(launchDeviceSideNs(p), p.kernelLaunchUs * 1000 - aheadNs);
  return std::max(startNs + write, p.memsetKernelUs * 1000);
}

Engine engineFor(CopyRoute route) {
  switch (route) {
  case CopyRoute::HostToDevicePinned:
  case CopyRoute::HostToDevicePageable:
    return Engine::CopyIn;
  case CopyRoute::DeviceToHostPinned:
  case CopyRoute::DeviceToHostPageable:
  case CopyRoute::HostToHost:
    return Engine::CopyOut;
  default:
    return Engine::Compute;
  }
}

} // namespace musa::sim
