// KernelJit: device bitcode in, runnable kernels out (lowering, optimisation, object cache, ORC).
#pragma once

#include "musa/sim/GridLauncher.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace llvm::orc {
class LLJIT;
class JITDylib;
} // namespace llvm::orc

namespace musa::jit {

struct LazyKernels;

/// One fat binary's code, loaded into its own symbol namespace: its variables at once, each
/// kernel at its first lookup.
struct JitModule {
  llvm::orc::JITDylib *dylib = nullptr;
  std::shared_ptr<LazyKernels> lazy; // the kernels not compiled yet
};

struct JitResult {
  bool ok() const { return error.empty(); }
  std::string error;
};

class KernelJit {
public:
  /// The process-wide JIT. Initialises LLVM's native target once.
  static KernelJit &instance();
  ~KernelJit();

  /// A __managed__ variable's host storage by device name: device code uses it in place of a
  /// copy of its own, so host and device share the variable as on a GPU.
  using ManagedStorage = std::map<std::string, void *, std::less<>>;
  /// Lowers `bitcode` and loads its variables (compiled, or from the disk cache); each kernel
  /// is optimised and compiled at its first lookup(). Every __managed__ variable of the
  /// bitcode must have its storage in `managed`. Thread-safe.
  JitResult load(std::string_view bitcode, JitModule &out, const ManagedStorage &managed = {});
  /// Links several relocatable images into one module (a kernel of one may call device
  /// functions of another), then compiles and loads it like load().
  JitResult loadLinked(const std::vector<std::string_view> &bitcodes, JitModule &out,
                       const ManagedStorage &managed = {});

  /// The __managed__ variables of device bitcode (the device headers mark them with the
  /// annotation "musa.managed"): device name and initial bytes.
  struct ManagedVariable {
    std::string name;
    std::string initial;
  };
  JitResult managedVariables(std::string_view bitcode, std::vector<ManagedVariable> &out);

  /// Looks up a kernel by its device (mangled) name in a loaded module, compiling it (or
  /// reading it from the disk cache) the first time.
  JitResult lookup(const JitModule &module, std::string_view name, sim::KernelEntry &out);

  /// The address of a __device__ / __constant__ variable (by device name) in a loaded module.
  JitResult lookupSymbol(const JitModule &module, std::string_view name, void *&address);

  /// The size in bytes of the __device__ / __constant__ variable `name` of device bitcode.
  JitResult globalSize(std::string_view bitcode, std::string_view name, size_t &size);
  /// The names of the kernels a device image defines, in the order it defines them.
  JitResult kernelNames(std::string_view bitcode, std::vector<std::string> &out);
  /// Cache statistics of this process (objects: a module's variables, each kernel), for tests
  /// and the benchmark.
  unsigned compiledCount() const { return compiled_; }
  unsigned cacheHitCount() const { return cacheHits_; }

private:
  KernelJit();
  std::string cacheKey(std::string_view bitcode) const;
  /// Lowers a module's bitcode and cuts it (SplitKernels.h) into `lazy`'s pending kernels;
  /// the common part goes to `common` if asked for.
  std::string lower(LazyKernels &lazy, std::string *common = nullptr);
  /// Compiles (or reads from the cache) and loads kernel `name` of `lazy`'s module, once.
  JitResult loadKernel(LazyKernels &lazy, std::string_view name);
  /// MUSA_SIM_PERF_MAP: names the loaded object's functions in /tmp/perf-PID.map for `perf`.
  void writePerfMap(std::string_view object, llvm::orc::JITDylib &dylib);

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::mutex mutex_;
  std::string hostCpu_;
  std::string hostFeatures_;
  unsigned nextDylib_ = 0;
  unsigned compiled_ = 0;
  unsigned cacheHits_ = 0;
};

} // namespace musa::jit
