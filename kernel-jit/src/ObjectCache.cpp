// On-disk cache of compiled kernel objects.
#include "musa/jit/ObjectCache.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

namespace musa::jit {

namespace fs = std::filesystem;

ObjectCache ObjectCache::fromEnvironment() {
  if (const char *off = std::getenv("MUSA_SIM_JIT_CACHE"); off && std::string(off) == "0")
    return ObjectCache("");
  std::string dir;
  if (const char *d = std::getenv("MUSA_SIM_CACHE_DIR"); d && *d)
    dir = d;
  else if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    dir = std::string(x) + "/musa-sim";
  else if (const char *h = std::getenv("HOME"); h && *h)
    dir = std::string(h) + "/.cache/musa-sim";
  std::error_code ec;
  if (!dir.empty())
    fs::create_directories(dir, ec);
  if (dir.empty() || ec)
    return ObjectCache("");
  return ObjectCache(dir);
}

std::string ObjectCache::pathFor(std::string_view key) const {
  return dir_ + "/" + std::string(key) + ".o";
}

std::optional<std::string> ObjectCache::get(std::string_view key) const {
  if (!enabled())
    return std::nullopt;
  std::ifstream in(pathFor(key), std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in.good() && !in.eof())
    return std::nullopt;
  return bytes.str();
}

bool ObjectCache::has(std::string_view key) const {
  std::error_code ec;
  return enabled() && fs::exists(pathFor(key), ec);
}

void ObjectCache::put(std::string_view key, std::string_view object) const {
  if (!enabled())
    return;
  std::random_device rd;
  std::string tmp = pathFor(key) + ".tmp." + std::to_string(getpid()) + "." +
                    std::to_string(rd());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(object.data(), std::streamsize(object.size()));
    if (!out.good()) {
      std::error_code ec;
      fs::remove(tmp, ec);
      return;
    }
  }
  std::error_code ec;
  fs::rename(tmp, pathFor(key), ec);
  if (ec)
    fs::remove(tmp, ec);
}

} // namespace musa::jit
