// Fat-binary registration (the ABI clang's CUDA mode and mcc emit) and lazy kernel JIT.
#include "FatBinaryRegistry.h"

#include "musa/jit/FatBinary.h"

#include <cstdio>

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

void **FatBinaryRegistry::registerFatBinary(const void *wrapper) {
  auto *w = static_cast<const ClangFatbinWrapper *>(wrapper);
  const void *data = w && w->magic == WrapperMagic ? w->data : wrapper;
  jit::FatBinaryParse parsed = jit::parseFatBinary(data);
  auto image = std::make_unique<Image>();
  if (parsed.view) {
    image->bitcode = parsed.view->payload;
    image->arch = static_cast<const jit::FatBinaryHeader *>(data)->flags;
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

musaError_t FatBinaryRegistry::findKernel(const void *hostStub,
                                          const sim::KernelEntry *&out) {
  std::lock_guard lock(mutex_);
  auto fn = functions_.find(hostStub);
  if (fn == functions_.end())
    return musaErrorInvalidDeviceFunction;
  Image &image = *fn->second.image;
  if (!image.loaded) {
    image.loaded = true;
    jit::JitResult result = jit::KernelJit::instance().load(image.bitcode, image.module);
    if (!result.ok()) {
      image.loadError = result.error;
      std::fprintf(stderr, "musa-sim: cannot compile device code: %s\n", result.error.c_str());
    }
  }
  if (!image.loadError.empty())
    return musaErrorInvalidKernel;
  const std::string &name = fn->second.deviceName;
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
// Variables are JIT-module globals; symbol copies arrive with the kernel-language issue.
void __cudaRegisterVar(void **, char *, char *, const char *, int, size_t, int, int) {}

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
