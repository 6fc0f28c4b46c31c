// DeviceLibrary: links the embedded device library into device modules; the host allow-list.
#include "DeviceLibrary.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"

#include <vector>

// DeviceLibraryBitcode: devicelib/*.cpp compiled for NVPTX (kernel-jit/CMakeLists.txt).
#include "DeviceLibraryBitcode.inc"

using namespace llvm;

namespace musa::jit {

std::string linkDeviceLibrary(Module &M) {
  StringRef bytes(reinterpret_cast<const char *>(DeviceLibraryBitcode),
                  sizeof DeviceLibraryBitcode);
  auto library = parseBitcodeFile(MemoryBufferRef(bytes, "musa-device-library.bc"),
                                  M.getContext());
  if (!library)
    return "cannot read the device library: " + toString(library.takeError());
  std::vector<std::string> provided;
  for (Function &F : **library)
    if (!F.isDeclaration())
      provided.push_back(F.getName().str());
  for (const std::string &name : provided)
    if (Function *F = M.getFunction(name); F && !F->isDeclaration())
      return "device code defines '" + name + "', a helper the device library provides";
  // The library's triple and data layout are the device pass's (both NVPTX).
  if (Linker::linkModules(M, std::move(*library), Linker::LinkOnlyNeeded))
    return "cannot link the device library";
  for (const std::string &name : provided)
    if (Function *F = M.getFunction(name); F && !F->isDeclaration())
      F->setLinkage(GlobalValue::InternalLinkage);
  return {};
}

bool isHostCallable(StringRef name) {
  static const StringSet<> allowed = {
#define MUSA_HOST_CALLABLE(name) #name,
#include "HostCallables.def"
  };
  return allowed.contains(name);
}

} // namespace musa::jit
