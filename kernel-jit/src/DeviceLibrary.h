// DeviceLibrary: what device code links against besides the simulator's builtins: our device
// library (devicelib/: compiler helpers written for the device's calling convention, compiled
// to NVPTX bitcode at build time and embedded) and the host functions of HostCallables.def.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace musa::jit {

/// Links into `M` the device library functions it calls, with internal linkage (each module
/// gets its own copy, which the optimiser may inline). Run before lowering: the library is
/// NVPTX device IR like `M`. Returns an error message, empty on success.
std::string linkDeviceLibrary(llvm::Module &M);

/// Whether device code may bind to the host process's definition of `name`.
bool isHostCallable(llvm::StringRef name);

} // namespace musa::jit
