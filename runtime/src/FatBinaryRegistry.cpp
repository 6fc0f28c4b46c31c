// Fat-binary registration (the ABI clang's CUDA mode and mcc emit) and lazy kernel JIT.
#include "FatBinaryRegistry.h"
#include "Runtime.h"

#include "musa/jit/FatBinary.h"

#include <cstdio>
#include <cstring>

namespace musa::rt {

namespace {
struct ClangFatbinWrapper {
  int magic; // 0x466243b1
  int version;
  const void *data;
  const void *unused;
};
constexpr int WrapperMagic = 0x466243b1;
} // namespace

FatBinaryRegistry &FatBinaryRegistry::get() {
  // Never destroyed: host code unregisters from atexit handlers in unspecified order.
  static FatBinaryRegistry *registry = std::make_unique<FatBinaryRegistry>().release();
  return *registry;
}

/// The device-code sections of a container for the hardware backends.
void FatBinaryRegistry::setHardwareCode(Image &image, const void *data, uint64_t limit) {
  if (auto ptx = jit::findPtxSection(data, limit))
    image.ptx = ptx->text;
  if (auto musa = jit::findDeviceSection(data, jit::MusaImageSectionMagic, limit))
    image.musaImage = musa->bytes;
}

void **FatBinaryRegistry::registerFatBinary(const void *wrapper) {
  auto *w = static_cast<const ClangFatbinWrapper *>(wrapper);
  const void *data = w && w->magic == WrapperMagic ? w->data : wrapper;
  jit::FatBinaryParse parsed = jit::parseFatBinary(data);
  auto image = std::make_unique<Image>();
  if (parsed.view) {
    image->bitcode = parsed.view->payload;
    uint32_t flags = static_cast<const jit::FatBinaryHeader *>(data)->flags;
    image->arch = flags & jit::FatBinaryArchMask;
    image->relocatable = (flags & jit::FatBinaryRelocatable) != 0;
    setHardwareCode(*image, data, UINT64_MAX);
  } else {
    image->loaded = true;
    image->loadError = "invalid fat binary: " + parsed.error;
  }
  std::lock_guard lock(mutex_);
  images_.push_back(std::move(image));
  return reinterpret_cast<void **>(images_.back().get());
}

void FatBinaryRegistry::registerFunction(void **handle, const void *hostStub,
                                         const char *deviceName) {
  if (!handle || !hostStub || !deviceName)
    return;
  std::lock_guard lock(mutex_);
  functions_[hostStub] = {reinterpret_cast<Image *>(handle), deviceName};
}

void FatBinaryRegistry::unregisterFatBinary(void **handle) {
  // Kernels stay valid until exit: code may still run in other threads' atexit handlers.
  (void)handle;
}

unsigned FatBinaryRegistry::firstArch() const {
  std::lock_guard lock(mutex_);
  for (const auto &image : images_)
    if (image->arch)
      return image->arch;
  return 0;
}

void FatBinaryRegistry::registerVariables(const Image &image) {
  // Kernels may reach a variable through any pointer: MUSA_SIM_MEMCHECK's address test finds
  // them among the symbol ranges.
  for (auto &[host, var] : variables_) {
    void *address = nullptr;
    if (var.image == &image &&
        jit::KernelJit::instance().lookupSymbol(image.module, var.deviceName, address).ok())
      Runtime::registerSymbolRange(static_cast<char *>(address), var.size);
  }
}

const std::string &FatBinaryRegistry::ensureLoaded(Image &image) {
  if (image.loaded)
    return image.loadError;
  if (!image.relocatable) {
    image.loaded = true;
    jit::JitResult result =
        jit::KernelJit::instance().load(image.bitcode, image.module, image.managedStorage);
    if (!result.ok()) {
      image.loadError = result.error;
      std::fprintf(stderr, "musa-sim: cannot compile device code: %s\n", result.error.c_str());
    } else {
      registerVariables(image);
    }
    return image.loadError;
  }
  // Relocatable images (-rdc) are linked together: every one registered so far (all of a
  // program's images register before main) becomes one module.
  std::vector<std::string_view> parts;
  std::vector<Image *> members;
  jit::KernelJit::ManagedStorage managed;
  for (auto &other : images_)
    if (other->relocatable && !other->loaded) {
      parts.push_back(other->bitcode);
      members.push_back(other.get());
      managed.insert(other->managedStorage.begin(), other->managedStorage.end());
    }
  jit::JitModule linked;
  jit::JitResult result = jit::KernelJit::instance().loadLinked(parts, linked, managed);
  if (!result.ok())
    std::fprintf(stderr, "musa-sim: cannot compile device code: %s\n", result.error.c_str());
  for (Image *member : members) {
    member->loaded = true;
    member->module = linked;
    member->loadError = result.error;
    if (result.ok())
      registerVariables(*member);
  }
  return image.loadError;
}

void FatBinaryRegistry::registerVariable(void **handle, const void *hostVar,
                                         const char *deviceName, size_t size, bool constant) {
  if (!handle || !hostVar || !deviceName)
    return;
  std::lock_guard lock(mutex_);
  Image *image = reinterpret_cast<Image *>(handle);
  variables_[hostVar] = {image, deviceName, size, constant};
  // A __managed__ variable lives in its host shadow: it gets the initial value here, before
  // main, and device code is bound to it when the image loads.
  if (!image->managedScanned) {
    image->managedScanned = true;
    if (jit::JitResult r = jit::KernelJit::instance().managedVariables(image->bitcode,
                                                                       image->managed);
        !r.ok())
      std::fprintf(stderr, "musa-sim: %s\n", r.error.c_str());
  }
  for (const jit::KernelJit::ManagedVariable &var : image->managed)
    if (var.name == deviceName) {
      std::memcpy(const_cast<void *>(hostVar), var.initial.data(),
                  std::min(size, var.initial.size()));
      image->managedStorage[var.name] = const_cast<void *>(hostVar);
    }
}

musaError_t FatBinaryRegistry::findVariable(const void *hostVar, void *&address, size_t &size) {
  std::lock_guard lock(mutex_);
  auto var = variables_.find(hostVar);
  if (var == variables_.end())
    return musaErrorInvalidSymbol;
  Image &image = *var->second.image;
  if (!ensureLoaded(image).empty())
    return musaErrorInvalidKernel;
  jit::JitResult result =
      jit::KernelJit::instance().lookupSymbol(image.module, var->second.deviceName, address);
  if (!result.ok()) {
    std::fprintf(stderr, "musa-sim: %s\n", result.error.c_str());
    return musaErrorInvalidSymbol;
  }
  size = var->second.size;
  return musaSuccess;
}

musaError_t FatBinaryRegistry::findKernel(const void *hostStub,
                                          const sim::KernelEntry *&out) {
  std::lock_guard lock(mutex_);
  auto fn = functions_.find(hostStub);
  if (fn == functions_.end())
    return musaErrorInvalidDeviceFunction;
  Image &image = *fn->second.image;
  if (!ensureLoaded(image).empty())
    return musaErrorInvalidKernel;
  return kernelOf(image, fn->second.deviceName, out);
}

musaError_t FatBinaryRegistry::knownFunction(const void *hostStub) const {
  std::lock_guard lock(mutex_);
  return functions_.count(hostStub) ? musaSuccess : musaErrorInvalidDeviceFunction;
}

musaError_t FatBinaryRegistry::kernelOf(Image &image, const std::string &name,
                                        const sim::KernelEntry *&out) {
  auto it = image.kernels.find(name);
  if (it == image.kernels.end()) {
    auto entry = std::make_unique<sim::KernelEntry>();
    jit::JitResult result = jit::KernelJit::instance().lookup(image.module, name, *entry);
    if (!result.ok()) {
      std::fprintf(stderr, "musa-sim: %s\n", result.error.c_str());
      return musaErrorInvalidDeviceFunction;
    }
    it = image.kernels.emplace(name, std::move(entry)).first;
  }
  out = it->second.get();
  return musaSuccess;
}

musaError_t FatBinaryRegistry::findSiblingKernel(const sim::KernelEntry &sibling,
                                                 const std::string &name,
                                                 const sim::KernelEntry *&out,
                                                 const void *&hostStub) {
  std::lock_guard lock(mutex_);
  for (auto &image : images_) {
    auto own = image->kernels.find(sibling.name);
    if (own == image->kernels.end() || own->second.get() != &sibling)
      continue;
    if (musaError_t e = kernelOf(*image, name, out))
      return e;
    hostStub = nullptr;
    for (const auto &[stub, fn] : functions_)
      if (fn.image == image.get() && fn.deviceName == name)
        hostStub = stub;
    return musaSuccess;
  }
  return musaErrorInvalidDeviceFunction;
}

musaError_t FatBinaryRegistry::hardwareKernel(const void *hostStub, HardwareCode &out) const {
  std::lock_guard lock(mutex_);
  auto fn = functions_.find(hostStub);
  if (fn == functions_.end())
    return musaErrorInvalidDeviceFunction;
  out = {fn->second.image, fn->second.image->ptx, fn->second.image->musaImage,
         fn->second.deviceName};
  return musaSuccess;
}

musaError_t FatBinaryRegistry::hardwareVariable(const void *hostVar, HardwareCode &out,
                                                size_t &size) const {
  std::lock_guard lock(mutex_);
  auto var = variables_.find(hostVar);
  if (var == variables_.end())
    return musaErrorInvalidSymbol;
  out = {var->second.image, var->second.image->ptx, var->second.image->musaImage,
         var->second.deviceName};
  size = var->second.size;
  return musaSuccess;
}

musaError_t FatBinaryRegistry::kernelParamSizes(const void *hostStub,
                                                std::vector<uint32_t> &sizes) {
  const sim::KernelEntry *kernel = nullptr;
  if (musaError_t e = findKernel(hostStub, kernel))
    return e;
  sizes = kernel->paramSizes;
  return musaSuccess;
}

void **FatBinaryRegistry::loadModule(const void *bytes, uint64_t size, std::string &error) {
  if (!bytes) {
    error = "no image";
    return nullptr;
  }
  jit::FatBinaryParse parsed = jit::parseFatBinary(bytes, size);
  if (!parsed.view) {
    error = "not a musa-sim device image: " + parsed.error;
    return nullptr;
  }
  auto image = std::make_unique<Image>();
  const auto *header = static_cast<const jit::FatBinaryHeader *>(bytes);
  // The whole container: the hardware backends load a module's PTX or MUSA image too.
  image->owned.assign(static_cast<const char *>(bytes), jit::fatBinaryLength(bytes, size));
  image->bitcode = std::string_view(image->owned).substr(sizeof(jit::FatBinaryHeader),
                                                         header->payloadSize);
  setHardwareCode(*image, image->owned.data(), image->owned.size());
  image->arch = header->flags & jit::FatBinaryArchMask;
  image->isModule = true;
  // Relocatable or not, a module is linked on its own (as cuModuleLoadData links one image).
  image->loaded = true;
  // Its __managed__ variables get managed memory of their own, freed when it is unloaded.
  image->managedScanned = true;
  jit::JitResult result =
      jit::KernelJit::instance().managedVariables(image->bitcode, image->managed);
  for (size_t i = 0; result.ok() && i < image->managed.size(); ++i) {
    const auto &var = image->managed[i];
    void *storage = nullptr;
    if (musaMallocManaged(&storage, std::max<size_t>(var.initial.size(), 1)) != musaSuccess) {
      result.error = "no memory for __managed__ variable '" + var.name + "'";
      break;
    }
    std::memcpy(storage, var.initial.data(), var.initial.size());
    image->managedStorage[var.name] = storage;
  }
  if (result.ok())
    result = jit::KernelJit::instance().load(image->bitcode, image->module, image->managedStorage);
  if (!result.ok()) {
    for (auto &[name, storage] : image->managedStorage)
      musaFree(storage);
    error = "device code does not compile: " + result.error;
    return nullptr;
  }
  std::lock_guard lock(mutex_);
  images_.push_back(std::move(image));
  return reinterpret_cast<void **>(images_.back().get());
}

FatBinaryRegistry::Image *FatBinaryRegistry::liveModule(void **handle) {
  for (auto &image : images_)
    if (reinterpret_cast<void **>(image.get()) == handle)
      return image->isModule && !image->unloaded ? image.get() : nullptr;
  return nullptr;
}

musaError_t FatBinaryRegistry::moduleFunction(void **handle, const char *name,
                                              const void *&function) {
  if (!name)
    return musaErrorInvalidValue;
  std::lock_guard lock(mutex_);
  Image *image = liveModule(handle);
  if (!image)
    return musaErrorInvalidResourceHandle;
  if (auto known = image->functionHandles.find(name); known != image->functionHandles.end()) {
    function = known->second.get();
    return musaSuccess;
  }
  auto entry = std::make_unique<sim::KernelEntry>();
  if (!jit::KernelJit::instance().lookup(image->module, name, *entry).ok())
    return musaErrorInvalidSymbol;
  image->kernels.emplace(name, std::move(entry));
  auto token = std::make_unique<char>();
  function = token.get();
  functions_[function] = {image, name};
  image->functionHandles.emplace(name, std::move(token));
  return musaSuccess;
}

musaError_t FatBinaryRegistry::moduleKernelNames(void **handle, std::vector<std::string> &names) {
  std::lock_guard lock(mutex_);
  Image *image = liveModule(handle);
  if (!image)
    return musaErrorInvalidResourceHandle;
  return jit::KernelJit::instance().kernelNames(image->bitcode, names).ok()
             ? musaSuccess
             : musaErrorInvalidKernelImage;
}

musaError_t FatBinaryRegistry::moduleManaged(void **handle, const char *name, void *&address,
                                             size_t &size) {
  std::lock_guard lock(mutex_);
  Image *image = nullptr;
  if (musaError_t e = namedInModule(handle, name, image))
    return e;
  for (const auto &var : image->managed)
    if (var.name == name) {
      address = image->managedStorage.at(var.name);
      size = var.initial.size();
      return musaSuccess;
    }
  return musaErrorInvalidValue;
}

musaError_t FatBinaryRegistry::moduleGlobal(void **handle, const char *name, void *&address,
                                            size_t &size) {
  std::lock_guard lock(mutex_);
  Image *image = nullptr;
  if (musaError_t e = namedInModule(handle, name, image))
    return e;
  if (!jit::KernelJit::instance().lookupSymbol(image->module, name, address).ok() ||
      !jit::KernelJit::instance().globalSize(image->bitcode, name, size).ok())
    return musaErrorInvalidSymbol;
  return musaSuccess;
}

musaError_t FatBinaryRegistry::moduleHardwareCode(void **handle, const char *name,
                                                  HardwareCode &out) {
  std::lock_guard lock(mutex_);
  Image *image = nullptr;
  if (musaError_t e = namedInModule(handle, name, image))
    return e;
  out = {image, image->ptx, image->musaImage, name};
  return musaSuccess;
}

musaError_t FatBinaryRegistry::namedInModule(void **handle, const char *name, Image *&image) {
  if (!name)
    return musaErrorInvalidValue;
  image = liveModule(handle);
  return image ? musaSuccess : musaErrorInvalidResourceHandle;
}

musaError_t FatBinaryRegistry::unloadModule(void **handle) {
  std::lock_guard lock(mutex_);
  Image *image = liveModule(handle);
  if (!image)
    return musaErrorInvalidResourceHandle;
  image->unloaded = true;
  for (auto &[name, token] : image->functionHandles)
    functions_.erase(token.get());
  for (auto &[name, storage] : image->managedStorage)
    musaFree(storage); // waits for kernels still using it
  image->managedStorage.clear();
  return musaSuccess;
}

} // namespace musa::rt

using musa::rt::FatBinaryRegistry;

extern "C" {
void **__cudaRegisterFatBinary(const void *wrapper) {
  return FatBinaryRegistry::get().registerFatBinary(wrapper);
}
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **handle) {
  FatBinaryRegistry::get().unregisterFatBinary(handle);
}
int __cudaRegisterFunction(void **handle, const void *hostStub, char *deviceFun,
                           const char *deviceName, int, void *, void *, void *, void *, int *) {
  FatBinaryRegistry::get().registerFunction(handle, hostStub, deviceName ? deviceName : deviceFun);
  return 0;
}
void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global) {
  FatBinaryRegistry::get().registerVariable(handle, hostVar, deviceName ? deviceName : deviceAddress,
                                            size, constant != 0);
}
void __musaRegisterVar(void **handle, char *hostVar, char *deviceAddress, const char *deviceName,
                       int ext, size_t size, int constant, int global) {
  __cudaRegisterVar(handle, hostVar, deviceAddress, deviceName, ext, size, constant, global);
}

// The MUSA spellings real mcc emits.
void **__musaRegisterFatBinary(const void *wrapper) { return __cudaRegisterFatBinary(wrapper); }
void __musaRegisterFatBinaryEnd(void **handle) { __cudaRegisterFatBinaryEnd(handle); }
void __musaUnregisterFatBinary(void **handle) { __cudaUnregisterFatBinary(handle); }
int __musaRegisterFunction(void **handle, const void *hostStub, char *deviceFun,
                           const char *deviceName, int limit, void *a, void *b, void *c,
                           void *d, int *e) {
  return __cudaRegisterFunction(handle, hostStub, deviceFun, deviceName, limit, a, b, c, d, e);
}
}
