// The generic forms of a forwarded call (Forwarded.def's PASS and UNSUPPORTED) and the target
// library they forward to (Target.cpp).
#pragma once

#include "FatBinaryRegistry.h"
#include "musa_runtime_api.h"

#include <cstddef>
#include <string>

namespace musa::rt::backend {

/// The vendor runtime and driver libraries a non-simulator backend forwards to, loaded with
/// dlopen on first use. MUSA_SIM_HW_TARGET=cuda (default: libcudart + libcuda, prefixes
/// cuda/cu) or musa (libmusart + libmusa from MUSA_HOME, prefixes musa/mu);
/// MUSA_SIM_HW_RUNTIME_LIB and MUSA_SIM_HW_DRIVER_LIB name the files outright.
class Target {
public:
  static Target &get();

  /// Loaded, initialised, and at least one device present. When not, the reason was printed
  /// once and every call fails with musaErrorNoDevice.
  bool ready() const { return ready_; }
  musaError_t unavailable() const { return musaErrorNoDevice; }

  /// `<runtime prefix><suffix>` / `<driver prefix><suffix>` (e.g. "Malloc" -> cudaMalloc,
  /// "ModuleLoadData" -> cuModuleLoadData), or null. Driver names try `<name>_v2` first.
  void *runtimeSymbol(const char *suffix) const;
  void *driverSymbol(const char *suffix) const;
  /// The call has no counterpart in the target: musaErrorNotSupported, said once per name.
  musaError_t missing(const char *what) const;
  /// A target error code as ours, by name (cudaErrorX -> musaErrorX; CUDA_ERROR_X -> by the
  /// driver's name); codes without a MUSA name become musaErrorUnknown, said once.
  musaError_t runtimeError(int code) const;
  musaError_t driverError(int code) const;
  /// The target's runtime version (CUDA: 12080 for 12.8); CUDA 13 changed some signatures.
  int version() const { return version_; }
  bool edgeDataInBaseNames() const { return !musa_ && version_ >= 13000; }
  const std::string &name() const { return name_; }
  /// MUSA_SIM_HW_TARGET=musa (device code: mcc's images) rather than CUDA (PTX).
  bool musa() const { return musa_; }

  /// Makes the current device's primary context current on this thread (driver calls need it).
  musaError_t bindContext();
  /// The target's kernel handle (CUfunction) for a host stub: the PTX (CUDA) or mcc's image
  /// (MUSA) of its fat binary is loaded once per context.
  musaError_t kernel(const void *hostStub, void *&function);
  /// The host stub of a kernel handle kernel() returned, or null.
  const void *hostStubOf(void *function);
  /// The target's address of a __device__/__constant__ variable, given its host shadow.
  musaError_t variable(const void *hostVar, void *&address, size_t &size);
  /// The target's address of variable `code.name` of the module of `code`'s image.
  musaError_t global(const FatBinaryRegistry::HardwareCode &code, void *&address, size_t &size);
  /// Modules die with the context (musaDeviceReset): load them again when next needed.
  void forgetModules();

private:
  Target();
  bool ready_ = false;
  bool musa_ = false;
  int version_ = 0;
  std::string name_, runtimePrefix_, driverPrefix_;
  void *runtime_ = nullptr, *driver_ = nullptr;
};

/// Whether the program was built with --default-stream per-thread (Runtime.cpp).
bool perThreadDefaultStream();

/// Arguments as the target spells them: musaStreamPerThread (-1 here) is CUDA's 0x2, and so is
/// stream 0 in a program built with --default-stream per-thread (synchronous calls, which
/// name no stream, still reach the target's legacy stream).
template <class T> T toTarget(T value) { return value; }
inline musaStream_t toTarget(musaStream_t stream) {
  if (stream == nullptr && perThreadDefaultStream())
    stream = musaStreamPerThread;
  return stream == musaStreamPerThread ? reinterpret_cast<musaStream_t>(0x2) : stream;
}

template <class... P, musaError_t (*F)(P...)> struct Pass<F> {
  const char *name; // "musaMalloc": the target's symbol is its prefix + "Malloc"
  musaError_t operator()(P... args) const {
    Target &target = Target::get();
    if (!target.ready())
      return target.unavailable();
    static void *const symbol = target.runtimeSymbol(name + 4);
    if (!symbol)
      return target.missing(name);
    using Function = int (*)(decltype(toTarget(args))...);
    return target.runtimeError(reinterpret_cast<Function>(symbol)(toTarget(args)...));
  }
};

/// Says once that `name` does not forward (and why), then musaErrorNotSupported.
musaError_t notForwarded(const char *name, const char *why);

template <class... P, musaError_t (*F)(P...)> struct Unsupported<F> {
  const char *name;
  const char *why;
  musaError_t operator()(P...) const {
    if (!Target::get().ready())
      return Target::get().unavailable();
    return notForwarded(name, why);
  }
};

} // namespace musa::rt::backend
