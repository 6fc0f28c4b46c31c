// compare_listing EXPECTED [--known PREFIX]... [--close PREFIX]... -- PROGRAM [ARGS...]
//
// Runs PROGRAM and compares what it prints with a listing measured on hardware (the same
// source built with nvcc), line by line: words must be equal after CUDA's names become MUSA's
// (cudaErrorX -> musaErrorX), except numbers, which may differ by 4 units in the last place
// of a float (0.3 % on lines whose first word starts with a --close prefix: a documented
// approximation). Lines starting with a --known prefix may differ (a documented difference,
// reported but not failed). Exit status 0 when nothing else differs.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> words(std::string line) {
  for (char &c : line)
    if (c == '(' || c == ')')
      c = ' ';
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    out.push_back(w.rfind("cuda", 0) == 0 ? "musa" + w.substr(4) : w);
  return out;
}

bool number(const std::string &w, double &v) {
  char *end = nullptr;
  v = std::strtod(w.c_str(), &end);
  return !w.empty() && *end == '\0';
}

bool sameWord(const std::string &a, const std::string &b, double tolerance) {
  double x, y;
  if (a == b)
    return true;
  if (!number(a, x) || !number(b, y))
    return false;
  double scale = std::fmax(std::fabs(x), std::fabs(y));
  return std::fabs(x - y) <= tolerance * scale + 1e-38;
}

bool sameLine(const std::string &a, const std::string &b, double tolerance) {
  std::vector<std::string> x = words(a), y = words(b);
  if (x.size() != y.size())
    return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (!sameWord(x[i], y[i], tolerance))
      return false;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: compare_listing EXPECTED [--known PREFIX]... [--close PREFIX]... -- PROGRAM [ARGS...]\n");
    return 2;
  }
  std::vector<std::string> known, close;
  int i = 2;
  for (; i < argc && std::strcmp(argv[i], "--") != 0; ++i)
    if (std::strcmp(argv[i], "--known") == 0 && i + 1 < argc)
      known.push_back(argv[++i]);
    else if (std::strcmp(argv[i], "--close") == 0 && i + 1 < argc)
      close.push_back(argv[++i]);
  std::string command;
  for (++i; i < argc; ++i)
    command += std::string(command.empty() ? "" : " ") + "'" + argv[i] + "'";
  std::vector<std::string> expected, actual;
  std::ifstream file(argv[1]);
  for (std::string line; std::getline(file, line);)
    expected.push_back(line);
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe || expected.empty()) {
    std::fprintf(stderr, "FAIL: cannot run '%s' or read %s\n", command.c_str(), argv[1]);
    return 1;
  }
  std::string text;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    text.append(buffer, n);
  int status = pclose(pipe);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    actual.push_back(line);

  int differing = 0, knownDiffering = 0;
  for (size_t k = 0; k < std::max(expected.size(), actual.size()); ++k) {
    const std::string e = k < expected.size() ? expected[k] : "(no line)";
    const std::string a = k < actual.size() ? actual[k] : "(no line)";
    double tolerance = 4 * 0x1p-24; // 4 units in the last place of a float
    for (const std::string &prefix : close)
      if (e.rfind(prefix, 0) == 0)
        tolerance = 3e-3;
    if (sameLine(e, a, tolerance))
      continue;
    bool isKnown = false;
    for (const std::string &prefix : known)
      isKnown |= e.rfind(prefix, 0) == 0;
    (isKnown ? knownDiffering : differing)++;
    std::printf("%s line %zu\n  hardware:  %s\n  simulator: %s\n",
                isKnown ? "known difference," : "FAIL: differs,", k + 1, e.c_str(), a.c_str());
  }
  std::printf("%zu lines compared: %d differ, %d known differences, exit status %d\n",
              expected.size(), differing, knownDiffering, status);
  return differing == 0 && status == 0 ? 0 : 1;
}
