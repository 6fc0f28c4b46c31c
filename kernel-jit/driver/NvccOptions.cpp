// The nvcc/mcc options the driver accepts and ignores (NvccOptions.h).
#include "NvccOptions.h"

#include <cstring>
#include <string_view>

namespace musa::driver {
namespace {

struct Spec {
  const char *shortName; // nvcc's short spelling, without dashes (or null)
  const char *longName;  // its long spelling, without dashes
  bool takesValue;
  const char *clangFlag = nullptr;
};

// nvcc's option table for what the simulator ignores (`nvcc --help`). Values are not checked:
// nvcc checks them against GPUs the simulator does not generate code for.
constexpr Spec Specs[] = {
    // Code generation for particular GPUs and the tools after the front end.
    {"gencode", "generate-code", true},
    {"code", "gpu-code", true},
    {"Xptxas", "ptxas-options", true},
    {"Xnvlink", "nvlink-options", true},
    {"Xfatbin", "fatbin-options", true},
    {"Xcudafe", "cudafe-options", true},
    {"Xarchive", "archive-options", true},
    {"maxrregcount", "maxrregcount", true},
    {"ccbin", "compiler-bindir", true},
    {"cudart", "cudart", true},
    {"cudadevrt", "cudadevrt", true},
    {"dopt", "dopt", true},
    {"split-compile", "split-compile", true},
    {"split-compile-extended", "split-compile-extended", true},
    {"t", "threads", true},
    {"keep-dir", "keep-dir", true},
    {"time", "time", true},
    {"static-global-template-stub", "static-global-template-stub", true},
    {"jump-table-density", "jump-table-density", true},
    {"ftz", "ftz", true},
    {"prec-div", "prec-div", true},
    {"prec-sqrt", "prec-sqrt", true},
    {"fmad", "fmad", true},
    {"Ofast-compile", "Ofast-compile", true},
    // nvcc's own diagnostics (front-end message numbers).
    {"diag-suppress", "diag-suppress", true},
    {"diag-warn", "diag-warn", true},
    {"diag-error", "diag-error", true},
    {"err-no", "display-error-number", false},
    {nullptr, "no-display-error-number", false},
    {"w", "disable-warnings", false, "-w"},
    {nullptr, "Wext-lambda-captures-this", false},
    {nullptr, "Wdefault-stream-launch", false},
    {nullptr, "Wmissing-launch-bounds", false},
    {nullptr, "Wno-deprecated-gpu-targets", false},
    // Language extensions clang has anyway, and flags that change no generated code here.
    {"expt-relaxed-constexpr", "expt-relaxed-constexpr", false},
    {"expt-extended-lambda", "extended-lambda", false},
    {"lineinfo", "generate-line-info", false},
    {"G", "device-debug", false},
    {"res-usage", "resource-usage", false},
    {"keep", "keep", false},
    {"restrict", "restrict", false},
    {"src-in-ptx", "source-in-ptx", false},
    {"extra-device-vectorization", "extra-device-vectorization", false},
    {"allow-unsupported-compiler", "allow-unsupported-compiler", false},
    {"forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler", false},
    {"forward-unknown-to-host-linker", "forward-unknown-to-host-linker", false},
    {"forward-unknown-opts", "forward-unknown-opts", false},
    {"dlto", "dlink-time-opt", false},
    {"no-host-device-initializer-list", "no-host-device-initializer-list", false},
    {"no-host-device-move-forward", "no-host-device-move-forward", false},
    {"no-compress", "no-compress", false},
};

/// nvcc's warning kinds (`-Werror all-warnings,reorder`): its own diagnostics, not clang's.
bool isNvccWarningKindList(std::string_view list) {
  static constexpr std::string_view Kinds[] = {
      "all-warnings", "cross-execution-space-call", "reorder", "default-stream-launch",
      "missing-launch-bounds", "ext-lambda-captures-this", "deprecated-declarations"};
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view kind = list.substr(0, comma);
    bool known = false;
    for (std::string_view k : Kinds)
      known |= k == kind;
    if (!known)
      return false;
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return true;
}

} // namespace

IgnoredOption classifyNvccOption(int argc, char **args, int i) {
  IgnoredOption out;
  std::string_view a = args[i];
  if (a.size() < 2 || a[0] != '-')
    return out;
  std::string_view bare = a.substr(a[1] == '-' ? 2 : 1);
  size_t eq = bare.find('=');
  std::string_view name = bare.substr(0, eq);
  bool hasValue = eq != std::string_view::npos;
  // -Werror: clang's own (no value), or nvcc's with a list of its warning kinds.
  if (name == "Werror") {
    if (hasValue ? isNvccWarningKindList(bare.substr(eq + 1))
                 : i + 1 < argc && isNvccWarningKindList(args[i + 1])) {
      out.kind = IgnoredOption::Ignored;
      out.valueInNext = !hasValue;
    }
    return out;
  }
  for (const Spec &s : Specs) {
    if (!((s.shortName && name == s.shortName) || name == s.longName))
      continue;
    if (hasValue && !s.takesValue)
      return out; // `-G=...`: not nvcc's
    out.kind = IgnoredOption::Ignored;
    if (s.takesValue && !hasValue) {
      if (i + 1 >= argc)
        out.kind = IgnoredOption::MissingValue;
      out.valueInNext = true;
    }
    if (s.clangFlag)
      out.clangFlag = s.clangFlag;
    return out;
  }
  return out;
}

} // namespace musa::driver
