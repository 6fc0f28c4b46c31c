// Libraries: device images loaded without a context (CUDA 12's cudaLibrary* calls), over the
// same registry as the driver API's modules: a library is a module the runtime loaded, its
// kernels are the module's function handles (musaLaunchKernel takes them as functions), its
// variables the module's. musaGetKernel gives the kernel handle of one of the program's own
// kernels, which is its host stub.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "FatBinaryRegistry.h"
#include "Runtime.h"

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace musa::rt;

namespace {

void **moduleOf(musaLibrary_t library) { return reinterpret_cast<void **>(library); }

/// Options are pairs of arrays: a count without its arrays is an invalid argument.
bool optionsWellFormed(const void *options, void **values, unsigned count) {
  return count == 0 || (options && values);
}

musaError_t load(musaLibrary_t *library, const void *code, uint64_t size, const void *jitOptions,
                 void **jitValues, unsigned numJit, const void *libOptions, void **libValues,
                 unsigned numLib) {
  if (!library || !code || !optionsWellFormed(jitOptions, jitValues, numJit) ||
      !optionsWellFormed(libOptions, libValues, numLib))
    return musaErrorInvalidValue;
  std::string error;
  void **handle = FatBinaryRegistry::get().loadModule(code, size, error);
  if (!handle) {
    std::fprintf(stderr, "musa-sim: musaLibraryLoad: %s\n", error.c_str());
    return musaErrorInvalidKernelImage;
  }
  *library = reinterpret_cast<musaLibrary_t>(handle);
  return musaSuccess;
}

/// A registry lookup's error as the library calls give it: an unknown name is not found.
musaError_t notFound(musaError_t e) { return e == musaErrorInvalidSymbol ? musaErrorSymbolNotFound : e; }

} // namespace

extern "C" {

musaError_t musaLibraryLoadData(musaLibrary_t *library, const void *code,
                                musaJitOption *jitOptions, void **jitOptionsValues,
                                unsigned int numJitOptions, musaLibraryOption *libraryOptions,
                                void **libraryOptionValues, unsigned int numLibraryOptions) {
  MUSA_BACKEND_HOOK(musaLibraryLoadData, library, code, jitOptions, jitOptionsValues,
                    numJitOptions, libraryOptions, libraryOptionValues, numLibraryOptions);
  return apiCall([&] {
    return load(library, code, UINT64_MAX, jitOptions, jitOptionsValues, numJitOptions,
                libraryOptions, libraryOptionValues, numLibraryOptions);
  });
}

musaError_t musaLibraryLoadFromFile(musaLibrary_t *library, const char *fileName,
                                    musaJitOption *jitOptions, void **jitOptionsValues,
                                    unsigned int numJitOptions, musaLibraryOption *libraryOptions,
                                    void **libraryOptionValues, unsigned int numLibraryOptions) {
  MUSA_BACKEND_HOOK(musaLibraryLoadFromFile, library, fileName, jitOptions, jitOptionsValues,
                    numJitOptions, libraryOptions, libraryOptionValues, numLibraryOptions);
  return apiCall([&] {
    if (!library || !fileName)
      return musaErrorInvalidValue;
    std::ifstream in(fileName, std::ios::binary);
    if (!in)
      return musaErrorFileNotFound;
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return load(library, bytes.data(), bytes.size(), jitOptions, jitOptionsValues, numJitOptions,
                libraryOptions, libraryOptionValues, numLibraryOptions);
  });
}

musaError_t musaLibraryUnload(musaLibrary_t library) {
  MUSA_BACKEND_HOOK(musaLibraryUnload, library);
  return apiCall([&] {
    if (!library)
      return musaErrorInvalidResourceHandle;
    // Kernels of it may still run: they finish first.
    if (Device *d = Runtime::get().currentDevice())
      d->synchronize();
    return FatBinaryRegistry::get().unloadModule(moduleOf(library));
  });
}

musaError_t musaLibraryGetKernel(musaKernel_t *pKernel, musaLibrary_t library, const char *name) {
  MUSA_BACKEND_HOOK(musaLibraryGetKernel, pKernel, library, name);
  return apiCall([&] {
    if (!pKernel || !name)
      return musaErrorInvalidValue;
    if (!library)
      return musaErrorInvalidResourceHandle;
    const void *function = nullptr;
    if (musaError_t e = FatBinaryRegistry::get().moduleFunction(moduleOf(library), name, function))
      return notFound(e);
    *pKernel = reinterpret_cast<musaKernel_t>(const_cast<void *>(function));
    return musaSuccess;
  });
}

musaError_t musaLibraryGetKernelCount(unsigned int *count, musaLibrary_t lib) {
  MUSA_BACKEND_HOOK(musaLibraryGetKernelCount, count, lib);
  return apiCall([&] {
    if (!count)
      return musaErrorInvalidValue;
    std::vector<std::string> names;
    if (musaError_t e = FatBinaryRegistry::get().moduleKernelNames(moduleOf(lib), names))
      return e;
    *count = unsigned(names.size());
    return musaSuccess;
  });
}

musaError_t musaLibraryEnumerateKernels(musaKernel_t *kernels, unsigned int numKernels,
                                        musaLibrary_t lib) {
  MUSA_BACKEND_HOOK(musaLibraryEnumerateKernels, kernels, numKernels, lib);
  return apiCall([&] {
    if (!kernels || numKernels == 0)
      return musaErrorInvalidValue;
    FatBinaryRegistry &registry = FatBinaryRegistry::get();
    std::vector<std::string> names;
    if (musaError_t e = registry.moduleKernelNames(moduleOf(lib), names))
      return e;
    // At most numKernels of them, in the order the image defines them.
    for (unsigned i = 0; i < numKernels && i < names.size(); ++i) {
      const void *function = nullptr;
      if (musaError_t e = registry.moduleFunction(moduleOf(lib), names[i].c_str(), function))
        return notFound(e);
      kernels[i] = reinterpret_cast<musaKernel_t>(const_cast<void *>(function));
    }
    return musaSuccess;
  });
}

musaError_t musaLibraryGetGlobal(void **dptr, size_t *bytes, musaLibrary_t library,
                                 const char *name) {
  MUSA_BACKEND_HOOK(musaLibraryGetGlobal, dptr, bytes, library, name);
  return apiCall([&] {
    if (!dptr && !bytes)
      return musaErrorInvalidValue;
    void *address = nullptr;
    size_t size = 0;
    if (musaError_t e = FatBinaryRegistry::get().moduleGlobal(moduleOf(library), name, address, size))
      return notFound(e);
    // Device memory to copies and memsets from now on, as a runtime symbol's is.
    Runtime::registerSymbolRange(static_cast<char *>(address), size);
    if (dptr)
      *dptr = address;
    if (bytes)
      *bytes = size;
    return musaSuccess;
  });
}

musaError_t musaLibraryGetManaged(void **dptr, size_t *bytes, musaLibrary_t library,
                                  const char *name) {
  MUSA_BACKEND_HOOK(musaLibraryGetManaged, dptr, bytes, library, name);
  return apiCall([&] {
    if (!dptr && !bytes)
      return musaErrorInvalidValue;
    void *address = nullptr;
    size_t size = 0;
    if (musaError_t e =
            FatBinaryRegistry::get().moduleManaged(moduleOf(library), name, address, size))
      return notFound(e);
    if (dptr)
      *dptr = address;
    if (bytes)
      *bytes = size;
    return musaSuccess;
  });
}

musaError_t musaLibraryGetUnifiedFunction(void **fptr, musaLibrary_t library, const char *symbol) {
  MUSA_BACKEND_HOOK(musaLibraryGetUnifiedFunction, fptr, library, symbol);
  return apiCall([&] {
    if (!fptr || !symbol)
      return musaErrorInvalidValue;
    std::vector<std::string> names;
    if (musaError_t e = FatBinaryRegistry::get().moduleKernelNames(moduleOf(library), names))
      return e;
    // No image here carries unified (host-callable) functions.
    return musaErrorSymbolNotFound;
  });
}

musaError_t musaGetKernel(musaKernel_t *kernelPtr, const void *entryFuncAddr) {
  MUSA_BACKEND_HOOK(musaGetKernel, kernelPtr, entryFuncAddr);
  return apiCall([&] {
    if (!kernelPtr || !entryFuncAddr)
      return musaErrorInvalidValue;
    if (musaError_t e = FatBinaryRegistry::get().knownFunction(entryFuncAddr))
      return e;
    *kernelPtr = reinterpret_cast<musaKernel_t>(const_cast<void *>(entryFuncAddr));
    return musaSuccess;
  });
}

musaError_t musaKernelSetAttributeForDevice(musaKernel_t kernel, musaFuncAttribute attr,
                                            int value, int device) {
  MUSA_BACKEND_HOOK(musaKernelSetAttributeForDevice, kernel, attr, value, device);
  return apiCall([&] {
    if (device < 0 || device >= Runtime::get().deviceCount())
      return musaErrorInvalidDevice;
    // The simulated devices share one compiled kernel: the attribute holds for each of them.
    return musaFuncSetAttribute(reinterpret_cast<const void *>(kernel), attr, value);
  });
}

} // extern "C"
