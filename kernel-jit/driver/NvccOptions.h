// nvcc's and mcc's options that mean nothing to the simulator's compile: code generation for a
// particular GPU (-gencode, -code, -Xptxas, -maxrregcount), the tool chain's other stages
// (-Xnvlink, -Xfatbin, -Xcudafe, -ccbin, --cudart), nvcc's own diagnostics (--diag-suppress,
// -Werror all-warnings) and build housekeeping (--keep-dir, --threads, -split-compile). Build
// scripts and CMake pass them; the driver accepts them in every spelling nvcc does: one or two
// leading dashes, and a value after `=` or as the next argument.
#pragma once

#include <string>

namespace musa::driver {

/// What `args[i]` is, as an nvcc option the simulator has no use for.
struct IgnoredOption {
  enum Kind {
    NotIgnored, ///< not such an option: the driver (or clang) handles it
    Ignored,    ///< skip it, and its value if `valueInNext`
    MissingValue
  } kind = NotIgnored;
  bool valueInNext = false;
  /// A clang flag the option maps to (`--disable-warnings` is `-w`), or empty.
  std::string clangFlag;
};

/// Classifies `args[i]` (`argc` arguments in all).
IgnoredOption classifyNvccOption(int argc, char **args, int i);

} // namespace musa::driver
