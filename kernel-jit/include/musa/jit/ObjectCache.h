// ObjectCache: compiled kernel objects on disk, keyed by a string the caller derives from
// everything that affects code generation. Writes are atomic (temporary file + rename), so
// concurrent processes never read a half-written object.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace musa::jit {

class ObjectCache {
public:
  /// Directory from MUSA_SIM_CACHE_DIR, else $XDG_CACHE_HOME/musa-sim, else
  /// $HOME/.cache/musa-sim. Disabled when MUSA_SIM_JIT_CACHE=0 or no directory is usable.
  static ObjectCache fromEnvironment();
  explicit ObjectCache(std::string directory) : dir_(std::move(directory)) {}

  bool enabled() const { return !dir_.empty(); }
  const std::string &directory() const { return dir_; }
  std::optional<std::string> get(std::string_view key) const;
  /// Whether an object is stored under `key` (without reading it).
  bool has(std::string_view key) const;
  /// Best effort: a failure to store only costs a recompile next time.
  void put(std::string_view key, std::string_view object) const;

private:
  std::string pathFor(std::string_view key) const;
  std::string dir_;
};

} // namespace musa::jit
