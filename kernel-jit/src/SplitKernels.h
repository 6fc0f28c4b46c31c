// SplitKernels: a lowered module -> one module per kernel and a common one (SplitKernels.cpp).
#pragma once

#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace musa::jit {

struct KernelPartitions {
  /// Every global variable, and the functions a variable's initializer names.
  std::string common;
  struct Kernel {
    std::string name;    // the kernel's device (mangled) name
    std::string bitcode; // its entry points and private copies of what they call
  };
  std::vector<Kernel> kernels;
};

/// Cuts lowered module `M` (changing linkage in place) into bitcode modules that load into
/// one JITDylib together: the common one first, each kernel's whenever it is needed.
KernelPartitions splitByKernel(llvm::Module &M);

} // namespace musa::jit
