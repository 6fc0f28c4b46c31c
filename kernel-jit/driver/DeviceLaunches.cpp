// Rewriting device-side launches (see DeviceLaunches.h).
#include "DeviceLaunches.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace musa::driver {

namespace {

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skipSpace(const std::string &t, size_t i) {
  while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i])))
    ++i;
  return i;
}

/// Past a string or character literal starting at `i` (its quote).
size_t skipLiteral(const std::string &t, size_t i) {
  char quote = t[i++];
  while (i < t.size() && t[i] != quote)
    i += t[i] == '\\' ? 2 : 1;
  return std::min(i + 1, t.size());
}

/// The position of `close` that ends the bracket opened just before `i`, at nesting depth 0 of
/// (), [] and {} (and of <> when `angles`), or npos.
size_t findClose(const std::string &t, size_t i, const std::string &close, bool angles) {
  int depth = 0;
  while (i < t.size()) {
    char c = t[i];
    if (depth == 0 && t.compare(i, close.size(), close) == 0)
      return i;
    if (c == '"' || c == '\'') {
      i = skipLiteral(t, i);
      continue;
    }
    if (c == '(' || c == '[' || c == '{' || (angles && c == '<'))
      ++depth;
    else if (c == ')' || c == ']' || c == '}' || (angles && c == '>'))
      if (--depth < 0)
        return std::string::npos;
    ++i;
  }
  return std::string::npos;
}

struct Site {
  unsigned line = 0, column = 0;
  std::string templateArgs;
};

/// Byte offset of 1-based (line, column), or npos.
size_t offsetOf(const std::string &t, unsigned line, unsigned column) {
  size_t at = 0;
  for (unsigned l = 1; l < line; ++l) {
    at = t.find('\n', at);
    if (at == std::string::npos)
      return at;
    ++at;
  }
  at += column - 1;
  return at < t.size() ? at : std::string::npos;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

} // namespace

bool rewriteLaunchAt(std::string &text, size_t offset, const std::string &templateArgs) {
  if (offset >= text.size() || !identifierChar(text[offset]))
    return false;
  // Back over a qualifier (`ns::`, `::`) in front of the name clang points at.
  size_t start = offset;
  for (;;) {
    size_t i = start;
    while (i > 0 && std::isspace(static_cast<unsigned char>(text[i - 1])))
      --i;
    if (i < 2 || text.compare(i - 2, 2, "::") != 0)
      break;
    i -= 2;
    size_t colons = i;
    while (i > 0 && std::isspace(static_cast<unsigned char>(text[i - 1])))
      --i;
    size_t name = i;
    while (name > 0 && identifierChar(text[name - 1]))
      --name;
    start = name < i ? name : colons;
    if (name == i)
      break; // `::k`, the global namespace
  }
  // Forward over the name and any qualified parts after the point (`ns::k`).
  size_t i = offset, afterName;
  for (;;) {
    while (i < text.size() && identifierChar(text[i]))
      ++i;
    afterName = i;
    i = skipSpace(text, i);
    if (text.compare(i, 2, "::") != 0)
      break;
    i = skipSpace(text, i + 2);
  }
  bool spelledArgs = false;
  if (text.compare(i, 1, "<") == 0 && text.compare(i, 3, "<<<") != 0) {
    size_t close = findClose(text, i + 1, ">", true);
    if (close == std::string::npos)
      return false;
    i = close + 1;
    spelledArgs = true;
  }
  size_t calleeEnd = spelledArgs ? i : afterName;
  // `open` after spaces from `from`, then its `close`: where the contents start and end.
  auto enclosed = [&text](size_t from, const char *open, const char *close, size_t &start) {
    size_t at = skipSpace(text, from);
    if (text.compare(at, std::strlen(open), open) != 0)
      return std::string::npos;
    start = at + std::strlen(open);
    return findClose(text, start, close, false);
  };
  size_t configStart = 0, argsStart = 0;
  size_t configEnd = enclosed(i, "<<<", ">>>", configStart);
  if (configEnd == std::string::npos)
    return false;
  size_t argsEnd = enclosed(configEnd + 3, "(", ")", argsStart);
  if (argsEnd == std::string::npos)
    return false;
  std::string callee = text.substr(start, calleeEnd - start);
  if (!spelledArgs)
    callee += templateArgs;
  std::string replacement = "::__musa_sim_device_launch<&" + callee + ">(" +
                            text.substr(configStart, configEnd - configStart) + ")(" +
                            text.substr(argsStart, argsEnd - argsStart) + ")";
  // The lines stay where they were: newlines dropped between the pieces go at the end.
  auto newlines = [&](size_t from, size_t to) {
    return std::count(text.begin() + long(from), text.begin() + long(to), '\n');
  };
  long dropped = newlines(start, argsEnd + 1) - std::count(replacement.begin(),
                                                            replacement.end(), '\n');
  replacement.append(size_t(std::max(0L, dropped)), '\n');
  text.replace(start, argsEnd + 1 - start, replacement);
  return true;
}

std::string rewriteDeviceLaunches(const std::string &diagnostics, const std::string &stem) {
  // A kernel found by name: "reference to __global__ function 'k' in __global__ function" at
  // the name. A template or overloaded kernel: "no matching function for call to 'k'" at the
  // callee, with the note "candidate function not viable: call to __global__ function from
  // __device__ function".
  static const std::regex refused(
      R"(^(.+):([0-9]+):([0-9]+): error: reference to __global__ function '([^']+)' in )"
      R"(__(global|device|host__ __device)__ function)");
  static const std::regex noMatch(
      R"(^(.+):([0-9]+):([0-9]+): error: no matching function for call to '([^']+)')");
  std::map<std::string, std::map<std::pair<unsigned, unsigned>, Site>> files;
  auto add = [&](const std::smatch &m) {
    Site site{unsigned(std::stoul(m[2])), unsigned(std::stoul(m[3])), ""};
    std::string name = m[4];
    if (size_t angle = name.find('<'); angle != std::string::npos && name.back() == '>')
      site.templateArgs = name.substr(angle);
    files[m[1]].emplace(std::pair(site.line, site.column), site);
  };
  std::istringstream lines(diagnostics);
  std::string candidate; // a "no matching function" error waiting for its note
  bool waiting = false;
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, refused)) {
      add(m);
      waiting = false;
    } else if (std::regex_search(line, m, noMatch)) {
      candidate = line;
      waiting = true;
    } else if (line.find(": error: ") != std::string::npos) {
      waiting = false;
    } else if (waiting && line.find("note: candidate function not viable: call to __global__ "
                                    "function from __") != std::string::npos) {
      std::regex_search(candidate, m, noMatch);
      add(m);
      waiting = false;
    }
  }
  std::string overlay;
  unsigned index = 0;
  for (auto &[file, sites] : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    if (!in)
      continue;
    std::string text = bytes.str();
    bool changed = false;
    // From the last launch to the first, so earlier offsets stay valid.
    for (auto it = sites.rbegin(); it != sites.rend(); ++it) {
      size_t at = offsetOf(text, it->second.line, it->second.column);
      if (at != std::string::npos)
        changed |= rewriteLaunchAt(text, at, it->second.templateArgs);
    }
    if (!changed)
      continue;
    std::string copy = stem + ".dp" + std::to_string(index++) + fs::path(file).extension().string();
    std::ofstream out(copy, std::ios::binary);
    out << text;
    if (!out)
      return "";
    fs::path original = fs::absolute(file).lexically_normal();
    overlay += std::string(overlay.empty() ? "" : ",\n") + "    {\"type\": \"directory\", " +
               "\"name\": " + jsonString(original.parent_path().string()) +
               ", \"contents\": [{\"type\": \"file\", \"name\": " +
               jsonString(original.filename().string()) +
               ", \"external-contents\": " + jsonString(fs::absolute(copy).string()) + "}]}";
  }
  if (overlay.empty())
    return "";
  std::string path = stem + ".overlay.yaml";
  std::ofstream out(path);
  out << "{\"version\": 0, \"use-external-names\": false, \"roots\": [\n" << overlay << "\n]}\n";
  return out ? path : "";
}

} // namespace musa::driver
