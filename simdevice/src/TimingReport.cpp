// The profile report: one row per kernel and copy, printed (or written as JSON) at exit.
#include "musa/sim/Timing.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace musa::sim {

namespace {

const char *const ClassNames[abi::ClassCount] = {"int",    "fp32",    "fp64", "special",
                                                 "branch", "barrier", "warp", "int_mul",
                                                 "tensor"};

std::string dim(const Dim3 &d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      continue;
    out += c;
  }
  return out + "\"";
}

class Report {
public:
  static Report &get() {
    // Never destroyed (launches may still report while the process exits); an exit handler
    // writes it.
    static Report *report = [] {
      auto *r = new Report;
      std::atexit([] { get().write(); });
      return r;
    }();
    return *report;
  }
  const char *target() const { return target_; }
  uint64_t add(ReportRow row) {
    std::lock_guard lock(mutex_);
    rows_.push_back(std::move(row));
    return rows_.size();
  }
  void measured(uint64_t id, double ns) {
    std::lock_guard lock(mutex_);
    if (id && id <= rows_.size())
      rows_[id - 1].measuredNs = ns;
  }
  void write() {
    std::lock_guard lock(mutex_);
    if (!target_)
      return;
    if (std::strstr(target_, ".json"))
      writeJson();
    else
      printTable();
  }

private:
  Report() {
    const char *env = std::getenv("MUSA_SIM_REPORT");
    target_ = env && *env && std::strcmp(env, "0") != 0 ? env : nullptr;
  }

  bool anyMeasured() const {
    for (const ReportRow &r : rows_)
      if (r.measuredNs >= 0)
        return true;
    return false;
  }

  void printTable() const {
    std::FILE *out = stderr;
    // Differential mode adds the hardware's event time of each kernel and the model's ratio.
    const bool hw = anyMeasured();
    std::fprintf(out, "\nmusa-sim profile report (simulated time; MUSA_SIM_TIMING=%s)\n",
                 timingModelOn() ? "model" : "wall");
    std::fprintf(out, "%-3s %-12s %-28s %-16s %-12s %-7s %5s %12s %12s %14s %12s", "dev",
                 "kind", "name", "grid", "block", "exec", "occ", "warp instr", "sectors",
                 "DRAM bytes", "time (us)");
    if (hw)
      std::fprintf(out, " %12s %9s", "hw (us)", "model/hw");
    std::fprintf(out, "  %s\n", "limited by");
    for (const ReportRow &r : rows_) {
      const KernelEstimate &e = r.estimate;
      bool kernel = r.kind == "kernel";
      double instr = 0;
      for (double x : e.warpInstructions)
        instr += x;
      instr += e.globalWarpAccesses + e.sharedWarpAccesses;
      std::string name = r.name.size() > 28 ? r.name.substr(0, 25) + "..." : r.name;
      std::fprintf(out, "%-3d %-12s %-28s %-16s %-12s %-7s %5.2f %12.0f %12.0f %14.0f %12.3f",
                   r.device, r.kind.c_str(), name.c_str(), kernel ? dim(r.grid).c_str() : "-",
                   kernel ? dim(r.block).c_str() : "-", kernel ? r.exec.c_str() : "-",
                   e.occupancy, instr, e.sectors,
                   kernel ? e.dramBytes : double(r.bytes), r.ns / 1000);
      if (hw && r.measuredNs > 0)
        std::fprintf(out, " %12.3f %9.3f", r.measuredNs / 1000, r.ns / r.measuredNs);
      else if (hw)
        std::fprintf(out, " %12s %9s", "-", "-");
      std::fprintf(out, "  %s\n", kernel ? e.limiter.c_str() : "copy engine");
    }
  }

  void writeJson() const {
    std::FILE *out = std::fopen(target_, "w");
    if (!out) {
      std::fprintf(stderr, "musa-sim: cannot write the profile report to %s\n", target_);
      return;
    }
    std::fprintf(out, "{\"timing\": \"%s\", \"operations\": [", timingModelOn() ? "model" : "wall");
    for (size_t i = 0; i < rows_.size(); ++i) {
      const ReportRow &r = rows_[i];
      const KernelEstimate &e = r.estimate;
      std::fprintf(out, "%s\n  {\"kind\": %s, \"name\": %s, \"device\": %d, \"start_us\": %.3f, "
                   "\"time_us\": %.3f, \"bytes\": %llu", i ? "," : "", jsonString(r.kind).c_str(),
                   jsonString(r.name).c_str(), r.device, r.startNs / 1000, r.ns / 1000,
                   (unsigned long long)r.bytes);
      if (r.kind == "kernel") {
        std::fprintf(out, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], "
                     "\"exec\": %s, \"samples\": \"%s\", \"occupancy\": %.4f, "
                     "\"blocks_per_sm\": %d, \"instructions\": {",
                     r.grid.x, r.grid.y, r.grid.z, r.block.x, r.block.y, r.block.z,
                     jsonString(r.exec).c_str(), r.samplesReused ? "reused" : "measured",
                     e.occupancy, e.blocksPerSM);
        for (unsigned c = 0; c < abi::ClassCount; ++c)
          std::fprintf(out, "\"%s\": %.0f, ", ClassNames[c], e.warpInstructions[c]);
        std::fprintf(out, "\"global_ldst\": %.0f, \"shared_ldst\": %.0f}, \"sectors\": %.0f, "
                     "\"dram_bytes\": %.0f, \"shared_wavefronts\": %.0f, \"atomics\": %.0f, "
                     "\"cycles\": {\"compute\": %.0f, \"shared\": %.0f, \"dram\": %.0f, "
                     "\"l2\": %.0f, \"latency\": %.0f, \"barrier\": %.0f, \"atomics\": %.0f, "
                     "\"block_launch\": %.0f, \"host_link\": %.0f, \"total\": %.0f}, "
                     "\"limiter\": %s",
                     e.globalWarpAccesses, e.sharedWarpAccesses, e.sectors, e.dramBytes,
                     e.wavefronts, e.atomics, e.computeCycles, e.sharedCycles, e.dramCycles,
                     e.l2Cycles, e.latencyCycles, e.barrierCycles, e.atomicCycles, e.dispatchCycles,
                     e.hostLinkCycles, e.cycles, jsonString(e.limiter).c_str());
        if (r.measuredNs >= 0) // differential mode: the hardware's event time, and the ratio
          std::fprintf(out, ", \"hw_time_us\": %.3f, \"model_over_hw\": %.4f",
                       r.measuredNs / 1000, r.measuredNs > 0 ? r.ns / r.measuredNs : 0.0);
      }
      std::fputs("}", out);
    }
    std::fputs("\n]}\n", out);
    std::fclose(out);
  }

  const char *target_ = nullptr;
  std::mutex mutex_;
  std::vector<ReportRow> rows_;
};

} // namespace

namespace {
/// Deliberate process-wide state: the profiler range (musaProfilerStart/Stop), like the
/// profiling tool's collection switch it stands for.
std::atomic<bool> &collecting() {
  static std::atomic<bool> on{[] {
    const char *fromStart = std::getenv("MUSA_SIM_REPORT_FROM_START");
    return !(fromStart && std::strcmp(fromStart, "0") == 0);
  }()};
  return on;
}
} // namespace

bool reportEnabled() { return Report::get().target() != nullptr; }

void setReportCollecting(bool on) { collecting().store(on); }

bool reportCollecting() { return collecting().load(); }

uint64_t reportOperation(ReportRow row) {
  if (reportEnabled() && reportCollecting())
    return Report::get().add(std::move(row));
  return 0;
}

void reportMeasured(uint64_t id, double ns) {
  if (id)
    Report::get().measured(id, ns);
}

} // namespace musa::sim
