// Benchmark: how much slower kernels run with the timing model on (instrumented, the
// default) than off (MUSA_SIM_TIMING=wall). Runs the sim_vs_cpp benchmark in each mode in
// turn, `rounds` times (default 3), and prints, per workload, the simulator's best time in
// both and their ratio: on a shared machine one run of each moves the ratio by 0.3 or more,
// the best of alternating runs much less. sim_vs_cpp times the best of three launches after
// a first, and repeated launches may reuse an earlier one's samples (SampleMemo.cpp), so the
// model is also run with MUSA_SIM_SAMPLE_REUSE=0: what a launch that samples costs (a
// kernel's first launches, or one whose behaviour changes from launch to launch).
// Usage: timing_overhead <path to sim_vs_cpp> [rounds]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

/// Workload name -> simulator milliseconds, from one run of sim_vs_cpp in `mode`.
std::map<std::string, double> run(const std::string &binary, const char *mode, bool &wrong,
                                  const char *extra = "") {
  std::map<std::string, double> times;
  std::string command =
      std::string(extra) + " MUSA_SIM_TIMING=" + mode + " '" + binary + "'";
  FILE *out = popen(command.c_str(), "r");
  if (!out)
    return times;
  char line[512];
  while (std::fgets(line, sizeof line, out)) {
    char name[64];
    double ms = 0;
    if (std::sscanf(line, "%63s %*s sim %lf ms", name, &ms) == 2)
      times[name] = ms;
    wrong |= std::string(line).find("WRONG") != std::string::npos;
  }
  wrong |= pclose(out) != 0;
  return times;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s <sim_vs_cpp binary> [rounds]\n", argv[0]);
    return 2;
  }
  int rounds = argc == 3 ? std::max(1, std::atoi(argv[2])) : 3;
  bool wrong = false;
  std::map<std::string, double> wall, model, sampling;
  auto keepBest = [](std::map<std::string, double> &best,
                     const std::map<std::string, double> &run) {
    for (const auto &[name, ms] : run)
      if (!best.count(name) || ms < best[name])
        best[name] = ms;
  };
  for (int r = 0; r < rounds; ++r) {
    keepBest(wall, run(argv[1], "wall", wrong));
    keepBest(model, run(argv[1], "model", wrong));
    keepBest(sampling, run(argv[1], "model", wrong, "MUSA_SIM_SAMPLE_REUSE=0"));
  }
  if (wall.empty() || wall.size() != model.size() || wall.size() != sampling.size()) {
    std::printf("WRONG RESULTS: could not run %s in both modes\n", argv[1]);
    return 1;
  }
  for (const auto &[name, ms] : wall)
    std::printf("%-14s timing model off %9.3f ms  on %9.3f ms  slowdown %6.2fx  "
                "(every launch sampled %9.3f ms, %6.2fx)\n",
                name.c_str(), ms, model[name], model[name] / ms, sampling[name],
                sampling[name] / ms);
  if (wrong)
    std::printf("WRONG RESULTS in one of the runs\n");
  return wrong ? 1 : 0;
}
