// FatBinaryRegistry: the fat binaries and kernels a program registers at start-up, and their
// compiled code (JIT'd on the first launch of any kernel of a fat binary).
#pragma once

#include "musa_runtime_api.h"

#include "musa/jit/KernelJit.h"
#include "musa/sim/GridLauncher.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace musa::rt {

class FatBinaryRegistry {
public:
  /// Lives for the whole process (registration runs before main, unregistration at exit).
  static FatBinaryRegistry &get();

  /// `wrapper` is clang's {magic, version, data, unused}. Returns the handle the host code
  /// passes to registerFunction, or null if the image is not ours.
  void **registerFatBinary(const void *wrapper);
  void registerFunction(void **handle, const void *hostStub, const char *deviceName);
  void unregisterFatBinary(void **handle);

  void registerVariable(void **handle, const void *hostVar, const char *deviceName, size_t size,
                        bool constant);
  /// The device copy of a __device__/__constant__ variable, given its host shadow's address.
  /// Errors: musaErrorInvalidSymbol (not a registered variable), musaErrorInvalidKernel
  /// (device code failed to compile).
  musaError_t findVariable(const void *hostVar, void *&address, size_t &size);

  /// Architecture number (22 for mp_22, 31 for mp_31) of the first registered image, or 0.
  unsigned firstArch() const;

  /// The runnable kernel for a host stub. Errors: musaErrorInvalidDeviceFunction (unknown
  /// stub), musaErrorInvalidKernel (device code failed to compile; message printed once).
  musaError_t findKernel(const void *hostStub, const sim::KernelEntry *&out);
  /// Whether `hostStub` is a registered kernel (or a module function's handle), without
  /// compiling it. Error: musaErrorInvalidDeviceFunction.
  musaError_t knownFunction(const void *hostStub) const;
  /// Kernel `name` of the image `sibling` belongs to (a device-side launch names its child
  /// so), compiling it if needed, and its host stub (null if the host registered none).
  /// Error: musaErrorInvalidDeviceFunction (no such kernel, or it does not compile).
  musaError_t findSiblingKernel(const sim::KernelEntry &sibling, const std::string &name,
                                const sim::KernelEntry *&out, const void *&hostStub);

  /// Driver API modules. loadModule copies a device image (our fat binary, as
  /// `musa-sim-cc --cuda-device-only` writes it; `size` bounds reads when known) and compiles
  /// it now; returns the module handle, or null with `error` set (bad image or device code
  /// that does not compile).
  void **loadModule(const void *image, uint64_t size, std::string &error);
  /// A handle for kernel `name` of a module that launches wherever a host stub does.
  /// Errors: musaErrorInvalidResourceHandle (unknown or unloaded module), musaErrorInvalidSymbol
  /// (no kernel of that name).
  musaError_t moduleFunction(void **module, const char *name, const void *&function);
  /// A __device__/__constant__ variable of a module (same errors as moduleFunction).
  musaError_t moduleGlobal(void **module, const char *name, void *&address, size_t &size);
  /// The names of the kernels a live module defines (musaLibraryEnumerateKernels).
  musaError_t moduleKernelNames(void **module, std::vector<std::string> &names);
  /// A live module's __managed__ variable `name` (musaErrorInvalidValue if it is not one).
  musaError_t moduleManaged(void **module, const char *name, void *&address, size_t &size);
  /// Its function handles stop working (code stays loaded: launches may still run it).
  musaError_t unloadModule(void **module);

  /// What a hardware backend needs to run a kernel or reach a variable: the PTX of its fat
  /// binary (empty when the program was built without -arch=sm_NN) or the MUSA device image
  /// (empty without --mcc), the device name, and a
  /// key naming the image (one module per image). Error: musaErrorInvalidDeviceFunction /
  /// musaErrorInvalidSymbol for an unregistered stub / variable.
  struct HardwareCode {
    const void *image = nullptr;
    std::string_view ptx;
    std::string_view musaImage; // from the real mcc (musa-sim-cc --mcc=PATH), if any
    std::string name;
  };
  musaError_t hardwareKernel(const void *hostStub, HardwareCode &out) const;
  musaError_t hardwareVariable(const void *hostVar, HardwareCode &out, size_t &size) const;
  /// The same for a variable of a live driver-API module (errors as moduleGlobal).
  musaError_t moduleHardwareCode(void **module, const char *name, HardwareCode &out);
  /// The parameter sizes of a kernel (compiling its image for the simulator if needed).
  musaError_t kernelParamSizes(const void *hostStub, std::vector<uint32_t> &sizes);

private:
  struct Image {
    std::string_view ptx; // the PTX section for hardware backends, if the driver wrote one
    std::string_view musaImage; // the real mcc's device image, if the driver wrote one
    std::string owned;      // driver API modules: the image's bytes
    bool isModule = false;  // loaded through the driver API
    bool unloaded = false;
    std::map<std::string, std::unique_ptr<char>, std::less<>> functionHandles;
    std::string_view bitcode;
    unsigned arch = 0;
    bool relocatable = false;
    bool loaded = false;
    std::string loadError;
    jit::JitModule module; // relocatable images share the module of the linked whole
    std::map<std::string, std::unique_ptr<sim::KernelEntry>, std::less<>> kernels;
    /// Its __managed__ variables (found at its first variable registration) and the host
    /// storage each was given (the registered shadow, which device code then uses).
    bool managedScanned = false;
    std::vector<jit::KernelJit::ManagedVariable> managed;
    jit::KernelJit::ManagedStorage managedStorage;
  };
  struct Function {
    Image *image;
    std::string deviceName;
  };
  struct Variable {
    Image *image;
    std::string deviceName;
    size_t size;
    bool constant;
  };
  static void setHardwareCode(Image &image, const void *data, uint64_t limit);
  /// Registers the device addresses of `image`'s variables with the runtime (symbol ranges).
  void registerVariables(const Image &image);
  /// Compiles an image on first use; returns its load error (empty when loaded).
  const std::string &ensureLoaded(Image &image);
  /// Kernel `name` of a loaded `image` (mutex_ held), compiled at its first lookup.
  musaError_t kernelOf(Image &image, const std::string &name, const sim::KernelEntry *&out);
  /// The live driver-API module `handle` names, or null.
  Image *liveModule(void **handle);
  /// liveModule for a lookup of `name` (mutex_ held): musaErrorInvalidValue for a null name,
  /// musaErrorInvalidResourceHandle for no live module.
  musaError_t namedInModule(void **handle, const char *name, Image *&image);

  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<Image>> images_;
  std::map<const void *, Function> functions_;
  std::map<const void *, Variable> variables_;
};

} // namespace musa::rt
