// Compares the simulator's predicted times with measured ones, config by config.
//
//   compare_timings <measured.txt> <predicted.txt> <accuracy.txt>
//
// Both inputs hold `RESULT <kernel> <config> <ms>` lines (other lines are ignored). Prints one
// row per config, then the mean absolute percentage error (MAPE) and the Spearman rank
// correlation over the configs both files have. accuracy.txt stores the figures reached so
// far (`mape_max = ...`, `spearman_min = ...`); the program fails if either got worse, so the
// model's accuracy can only go up. A config missing from the prediction is a failure too.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Times = std::vector<std::pair<std::string, double>>; // "kernel config" -> ms, in order

bool readTimes(const char *path, Times &out) {
  std::ifstream in(path);
  if (!in)
    return false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string tag, kernel, config;
    double ms = 0;
    if (words >> tag >> kernel >> config >> ms && tag == "RESULT")
      out.push_back({kernel + " " + config, ms});
  }
  return true;
}

/// Ranks (1-based, ties share their mean rank).
std::vector<double> ranks(const std::vector<double> &v) {
  std::vector<size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
  std::vector<double> r(v.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
      ++j;
    for (size_t k = i; k <= j; ++k)
      r[order[k]] = (double(i) + double(j)) / 2 + 1;
    i = j + 1;
  }
  return r;
}

double pearson(const std::vector<double> &a, const std::vector<double> &b) {
  double ma = std::accumulate(a.begin(), a.end(), 0.0) / double(a.size());
  double mb = std::accumulate(b.begin(), b.end(), 0.0) / double(b.size());
  double cov = 0, va = 0, vb = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    cov += (a[i] - ma) * (b[i] - mb);
    va += (a[i] - ma) * (a[i] - ma);
    vb += (b[i] - mb) * (b[i] - mb);
  }
  return va > 0 && vb > 0 ? cov / std::sqrt(va * vb) : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s measured.txt predicted.txt accuracy.txt\n", argv[0]);
    return 2;
  }
  Times measured, predicted;
  if (!readTimes(argv[1], measured) || !readTimes(argv[2], predicted)) {
    std::fprintf(stderr, "cannot read %s or %s\n", argv[1], argv[2]);
    return 2;
  }
  std::map<std::string, double> limits;
  std::ifstream accuracy(argv[3]);
  for (std::string line; std::getline(accuracy, line);) {
    std::istringstream words(line);
    std::string key, eq;
    double value = 0;
    if (line.empty() || line[0] == '#')
      continue;
    if (words >> key >> eq >> value && eq == "=")
      limits[key] = value;
  }
  if (!limits.count("mape_max") || !limits.count("spearman_min")) {
    std::fprintf(stderr, "%s must set mape_max and spearman_min\n", argv[3]);
    return 2;
  }

  std::map<std::string, double> predictedBy(predicted.begin(), predicted.end());
  std::vector<double> m, p;
  double errorSum = 0;
  int missing = 0;
  std::printf("%-52s %12s %12s %8s\n", "kernel config", "measured us", "predicted us", "error");
  for (const auto &[name, ms] : measured) {
    auto it = predictedBy.find(name);
    if (it == predictedBy.end()) {
      std::printf("%-52s %12.2f %12s\n", name.c_str(), ms * 1000, "MISSING");
      ++missing;
      continue;
    }
    double error = (it->second - ms) / ms;
    errorSum += std::fabs(error);
    m.push_back(ms);
    p.push_back(it->second);
    std::printf("%-52s %12.2f %12.2f %+7.1f%%\n", name.c_str(), ms * 1000, it->second * 1000,
                error * 100);
  }
  if (m.size() < 2) {
    std::printf("FAIL: fewer than two configs to compare\n");
    return 1;
  }
  double mape = 100 * errorSum / double(m.size());
  double spearman = pearson(ranks(m), ranks(p));
  std::printf("\nconfigs %zu  MAPE %.2f%% (stored limit %.2f%%)  Spearman %.4f (stored limit "
              "%.4f)\n", m.size(), mape, limits["mape_max"], spearman, limits["spearman_min"]);
  bool ok = missing == 0 && mape <= limits["mape_max"] && spearman >= limits["spearman_min"];
  if (missing)
    std::printf("FAIL: %d measured configs have no prediction\n", missing);
  if (mape > limits["mape_max"])
    std::printf("FAIL: MAPE got worse than the stored figure\n");
  if (spearman < limits["spearman_min"])
    std::printf("FAIL: Spearman correlation got worse than the stored figure\n");
  if (ok && (mape < limits["mape_max"] - 1 || spearman > limits["spearman_min"] + 0.01))
    std::printf("The model got better: lower the figures in %s to lock it in.\n", argv[3]);
  return ok ? 0 : 1;
}
