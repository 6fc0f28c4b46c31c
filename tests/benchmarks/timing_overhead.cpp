// Benchmark: how much slower kernels run with the timing model on (instrumented, the
// default) than off (MUSA_SIM_TIMING=wall). Runs the sim_vs_cpp benchmark (vector add and
// tiled matmul) once in each mode and prints, per workload, the simulator's time in both and
// their ratio. Usage: timing_overhead <path to sim_vs_cpp>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

/// Workload name -> simulator milliseconds, from one run of sim_vs_cpp in `mode`.
std::map<std::string, double> run(const std::string &binary, const char *mode, bool &wrong) {
  std::map<std::string, double> times;
  std::string command = std::string("MUSA_SIM_TIMING=") + mode + " '" + binary + "'";
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
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <sim_vs_cpp binary>\n", argv[0]);
    return 2;
  }
  bool wrong = false;
  auto wall = run(argv[1], "wall", wrong);
  auto model = run(argv[1], "model", wrong);
  if (wall.empty() || wall.size() != model.size()) {
    std::printf("WRONG RESULTS: could not run %s in both modes\n", argv[1]);
    return 1;
  }
  for (const auto &[name, ms] : wall)
    std::printf("%-14s timing model off %9.3f ms  on %9.3f ms  slowdown %6.2fx\n", name.c_str(),
                ms, model[name], model[name] / ms);
  if (wrong)
    std::printf("WRONG RESULTS in one of the runs\n");
  return wrong ? 1 : 0;
}
