// Loading the target runtime and driver libraries, translating their error codes, and the
// kernels' modules (PTX from our fat binaries, loaded through the driver API).
#include "backend/Backend.h"

#include "FatBinaryRegistry.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace musa::rt::backend {

namespace {

thread_local bool simulatorScope = false;

Mode readMode() {
  const char *env = std::getenv("MUSA_SIM_BACKEND");
  if (!env || !*env || !std::strcmp(env, "sim"))
    return Mode::Sim;
  if (!std::strcmp(env, "hw"))
    return Mode::Hw;
  if (!std::strcmp(env, "diff"))
    return Mode::Diff;
  std::fprintf(stderr, "musa-sim: MUSA_SIM_BACKEND=%s is not sim, hw or diff: using sim\n", env);
  return Mode::Sim;
}

/// Our error codes by name, aliases included ("musaErrorInvalidValue" -> 1).
const std::map<std::string, musaError_t> &errorsByName() {
  static const std::map<std::string, musaError_t> table = [] {
    std::map<std::string, musaError_t> t;
#undef MUSA_ERROR_ALIAS
#define MUSA_ERROR_CODE(name, value, text) t[#name] = name;
#define MUSA_ERROR_ALIAS(alias, primary) t[#alias] = primary;
#include "musa_error_codes.def"
#undef MUSA_ERROR_CODE
#undef MUSA_ERROR_ALIAS
    return t;
  }();
  return table;
}

/// "CUDA_ERROR_INVALID_VALUE" (after the prefix: "INVALID_VALUE") -> "InvalidValue".
std::string camel(const char *upper) {
  std::string out;
  bool start = true;
  for (const char *c = upper; *c; ++c) {
    if (*c == '_') {
      start = true;
      continue;
    }
    out.push_back(start ? char(std::toupper(*c)) : char(std::tolower(*c)));
    start = false;
  }
  return out;
}

std::mutex saidMutex;
std::set<std::string> said;
/// Prints a message once per key.
void sayOnce(const std::string &key, const std::string &message) {
  std::lock_guard lock(saidMutex);
  if (said.insert(key).second)
    std::fprintf(stderr, "musa-sim: %s\n", message.c_str());
}

} // namespace

Mode mode() {
  static const Mode m = readMode();
  return m;
}
bool inSimulatorScope() { return simulatorScope; }
SimulatorScope::SimulatorScope() : previous(simulatorScope) { simulatorScope = true; }
SimulatorScope::~SimulatorScope() { simulatorScope = previous; }

musaError_t notForwarded(const char *name, const char *why) {
  sayOnce(std::string("unsupported ") + name,
          std::string(name) + " is not forwarded to " + Target::get().name() + ": " + why);
  return musaErrorNotSupported;
}

Target &Target::get() {
  static Target *target = new Target(); // never destroyed: calls may come from atexit handlers
  return *target;
}

namespace {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool SanitizerBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool SanitizerBuild = true;
#else
constexpr bool SanitizerBuild = false;
#endif
#else
constexpr bool SanitizerBuild = false;
#endif

void *openFirst(const std::vector<std::string> &candidates, bool deepBind, std::string &tried) {
  // The sanitizers' runtimes refuse RTLD_DEEPBIND (google/sanitizers#611). Without it a MUSA
  // runtime's calls to its own musa* entry points could bind to ours; the fake library the
  // sanitizer test runs use makes no such calls.
  deepBind &= !SanitizerBuild;
  for (const std::string &path : candidates) {
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | (deepBind ? RTLD_DEEPBIND : 0));
    if (handle)
      return handle;
    const char *why = dlerror();
    tried += "\n    " + path + ": " + (why ? why : "not found");
  }
  return nullptr;
}

std::string envOr(const char *name) {
  const char *v = std::getenv(name);
  return v && *v ? v : "";
}
} // namespace

Target::Target() {
  musa_ = envOr("MUSA_SIM_HW_TARGET") == "musa";
  name_ = musa_ ? "the MUSA runtime" : "the CUDA runtime";
  runtimePrefix_ = musa_ ? "musa" : "cuda";
  driverPrefix_ = musa_ ? "mu" : "cu";
  std::vector<std::string> runtimes, drivers;
  if (std::string explicitLib = envOr("MUSA_SIM_HW_RUNTIME_LIB"); !explicitLib.empty()) {
    runtimes.push_back(explicitLib);
  } else if (musa_) {
    // Not the loader path: "libmusart.so" there is this library itself.
    for (std::string root : {envOr("MUSA_HOME"), std::string("/usr/local/musa")})
      if (!root.empty())
        runtimes.push_back(root + "/lib/libmusart.so");
  } else {
    for (std::string root : {envOr("CUDA_HOME"), envOr("CUDA_PATH"), std::string("/usr/local/cuda")})
      if (!root.empty())
        for (const char *file : {"libcudart.so", "libcudart.so.13", "libcudart.so.12"})
          runtimes.push_back(root + "/lib64/" + file);
    for (const char *file : {"libcudart.so", "libcudart.so.13", "libcudart.so.12"})
      runtimes.push_back(file);
  }
  if (std::string explicitLib = envOr("MUSA_SIM_HW_DRIVER_LIB"); !explicitLib.empty()) {
    drivers.push_back(explicitLib);
  } else if (musa_) {
    for (std::string root : {envOr("MUSA_HOME"), std::string("/usr/local/musa")})
      if (!root.empty())
        drivers.push_back(root + "/lib/libmusa.so");
  } else {
    drivers = {"libcuda.so.1", "libcuda.so"};
  }
  const char *backend = mode() == Mode::Diff ? "diff" : "hw";
  std::string tried;
  runtime_ = openFirst(runtimes, musa_, tried);
  if (!runtime_) {
    std::fprintf(stderr, "musa-sim: MUSA_SIM_BACKEND=%s: cannot load %s library; tried:%s\n"
                 "musa-sim: set %s or MUSA_SIM_HW_RUNTIME_LIB; every call fails with "
                 "musaErrorNoDevice\n", backend, name_.c_str(), tried.c_str(),
                 musa_ ? "MUSA_HOME" : "CUDA_HOME");
    return;
  }
  if (musa_) {
    // A MUSA runtime found by mistake that is this library would forward to itself.
    Dl_info ours{}, theirs{};
    void *their = dlsym(runtime_, "musaMalloc");
    if (their && dladdr(their, &theirs) && dladdr(reinterpret_cast<void *>(&::musaMalloc), &ours) &&
        ours.dli_fbase == theirs.dli_fbase) {
      std::fprintf(stderr, "musa-sim: MUSA_SIM_BACKEND=%s: the MUSA runtime found is musa-sim's "
                   "own libmusart; set MUSA_HOME to the real one\n", backend);
      return;
    }
  }
  tried.clear();
  driver_ = openFirst(drivers, musa_, tried);
  if (!driver_) {
    std::fprintf(stderr, "musa-sim: MUSA_SIM_BACKEND=%s: cannot load the %s driver library; "
                 "tried:%s\nmusa-sim: every call fails with musaErrorNoDevice\n", backend,
                 musa_ ? "MUSA" : "CUDA", tried.c_str());
    return;
  }
  if (auto init = reinterpret_cast<int (*)(unsigned)>(driverSymbol("Init"))) {
    if (int rc = init(0)) {
      const char *text = "unknown";
      if (auto getName = reinterpret_cast<int (*)(int, const char **)>(driverSymbol("GetErrorName")))
        getName(rc, &text);
      std::fprintf(stderr, "musa-sim: MUSA_SIM_BACKEND=%s: %sInit failed: %s (%d); every call "
                   "fails with musaErrorNoDevice\n", backend, driverPrefix_.c_str(), text, rc);
      return;
    }
  }
  auto count = reinterpret_cast<int (*)(int *)>(runtimeSymbol("GetDeviceCount"));
  int devices = 0;
  int rc = count ? count(&devices) : -1;
  if (rc != 0 || devices == 0) {
    const char *text = "no such function";
    if (auto getName = reinterpret_cast<const char *(*)(int)>(runtimeSymbol("GetErrorName")))
      text = rc == 0 ? "0 devices" : getName(rc);
    std::fprintf(stderr, "musa-sim: MUSA_SIM_BACKEND=%s: %sGetDeviceCount: %s: no device; every "
                 "call fails with musaErrorNoDevice\n", backend, runtimePrefix_.c_str(), text);
    return;
  }
  if (auto getVersion = reinterpret_cast<int (*)(int *)>(runtimeSymbol("RuntimeGetVersion")))
    getVersion(&version_);
  ready_ = true;
}

void *Target::runtimeSymbol(const char *suffix) const {
  return runtime_ ? dlsym(runtime_, (runtimePrefix_ + suffix).c_str()) : nullptr;
}

void *Target::driverSymbol(const char *suffix) const {
  if (!driver_)
    return nullptr;
  if (void *v2 = dlsym(driver_, (driverPrefix_ + suffix + "_v2").c_str()))
    return v2;
  return dlsym(driver_, (driverPrefix_ + suffix).c_str());
}

musaError_t Target::missing(const char *what) const {
  sayOnce(std::string("missing ") + what,
          std::string(what) + ": " + name_ + " has no such call; musaErrorNotSupported");
  return musaErrorNotSupported;
}

musaError_t Target::runtimeError(int code) const {
  if (code == 0)
    return musaSuccess;
  auto getName = reinterpret_cast<const char *(*)(int)>(runtimeSymbol("GetErrorName"));
  const char *name = getName ? getName(code) : nullptr;
  if (name && std::strncmp(name, runtimePrefix_.c_str(), runtimePrefix_.size()) == 0) {
    auto &table = errorsByName();
    if (auto it = table.find("musa" + std::string(name + runtimePrefix_.size()));
        it != table.end())
      return it->second;
  }
  sayOnce("error " + std::to_string(code),
          name_ + " error " + std::to_string(code) + " (" + (name ? name : "unnamed") +
              ") has no MUSA equivalent: reported as musaErrorUnknown");
  return musaErrorUnknown;
}

musaError_t Target::driverError(int code) const {
  if (code == 0)
    return musaSuccess;
  const char *name = nullptr;
  if (auto getName = reinterpret_cast<int (*)(int, const char **)>(driverSymbol("GetErrorName")))
    getName(code, &name);
  // CUDA_ERROR_X / MUSA_ERROR_X -> musaErrorX, with the names that differ between the APIs.
  static const std::map<std::string, musaError_t> renamed = {
      {"NotInitialized", musaErrorNotInitialized}, {"LaunchFailed", musaErrorLaunchFailure},
      {"InvalidHandle", musaErrorInvalidResourceHandle}, {"NotFound", musaErrorSymbolNotFound},
      {"OutOfMemory", musaErrorOutOfMemory}, {"InvalidImage", musaErrorInvalidKernelImage},
      {"NoBinaryForGpu", musaErrorNoKernelImageForDevice}};
  if (name) {
    const char *rest = std::strstr(name, "_ERROR_");
    std::string key = camel(rest ? rest + 7 : name);
    if (auto it = renamed.find(key); it != renamed.end())
      return it->second;
    auto &table = errorsByName();
    if (auto it = table.find("musaError" + key); it != table.end())
      return it->second;
  }
  sayOnce("driver error " + std::to_string(code),
          name_ + " driver error " + std::to_string(code) + " (" + (name ? name : "unnamed") +
              ") has no MUSA equivalent: reported as musaErrorUnknown");
  return musaErrorUnknown;
}

// ---- contexts, modules and kernels ---------------------------------------------------------

namespace {
std::mutex moduleMutex;
struct Loaded {
  std::map<std::pair<const void *, void *>, void *> modules;    // (image, context) -> module
  std::map<std::pair<const void *, void *>, void *> functions;  // (stub, context) -> function
  std::map<void *, const void *> stubs;                         // function -> stub
};
Loaded &loaded() {
  static Loaded *l = new Loaded();
  return *l;
}
} // namespace

musaError_t Target::bindContext() {
  auto getCurrent = reinterpret_cast<int (*)(void **)>(driverSymbol("CtxGetCurrent"));
  auto retain = reinterpret_cast<int (*)(void **, int)>(driverSymbol("DevicePrimaryCtxRetain"));
  auto setCurrent = reinterpret_cast<int (*)(void *)>(driverSymbol("CtxSetCurrent"));
  auto getDevice = reinterpret_cast<int (*)(int *)>(runtimeSymbol("GetDevice"));
  if (!getCurrent || !retain || !setCurrent || !getDevice)
    return missing("the driver's context calls (CtxGetCurrent, DevicePrimaryCtxRetain)");
  void *context = nullptr;
  if (int rc = getCurrent(&context))
    return driverError(rc);
  if (context)
    return musaSuccess;
  int device = 0;
  if (int rc = getDevice(&device))
    return runtimeError(rc);
  if (int rc = retain(&context, device))
    return driverError(rc);
  return driverError(setCurrent(context));
}

namespace {
void *currentContext(Target &t) {
  void *context = nullptr;
  if (auto getCurrent = reinterpret_cast<int (*)(void **)>(t.driverSymbol("CtxGetCurrent")))
    getCurrent(&context);
  return context;
}

/// The module of `code`'s image in the current context, loaded on first use from its PTX
/// (CUDA) or from the device image the real mcc wrote (MUSA).
musaError_t moduleFor(Target &t, const FatBinaryRegistry::HardwareCode &code, void *&module) {
  std::string_view deviceCode = t.musa() ? code.musaImage : code.ptx;
  if (deviceCode.empty()) {
    sayOnce("no code " + code.name,
            "'" + code.name + "' has no device code for " + t.name() +
                (t.musa() ? ": its fat binary holds no MUSA device image; build the program "
                            "with --mcc=PATH (the real toolkit's mcc; MUSA_SIM_MCC, or mcc on "
                            "PATH) so the driver adds one"
                          : ": its fat binary holds no PTX; build the program with -arch=sm_90 "
                            "(or MUSA_SIM_PTX_ARCH=sm_90) so the driver adds it"));
    return musaErrorNoKernelImageForDevice;
  }
  if (musaError_t e = t.bindContext())
    return e;
  void *context = currentContext(t);
  std::lock_guard lock(moduleMutex);
  auto key = std::make_pair(code.image, context);
  if (auto it = loaded().modules.find(key); it != loaded().modules.end()) {
    module = it->second;
    return musaSuccess;
  }
  using LoadEx = int (*)(void **, const void *, unsigned, int *, void **);
  auto load = reinterpret_cast<LoadEx>(t.driverSymbol("ModuleLoadDataEx"));
  if (!load)
    return t.missing("ModuleLoadDataEx");
  static char log[8192];
  log[0] = 0;
  int options[] = {5 /* ERROR_LOG_BUFFER */, 6 /* ERROR_LOG_BUFFER_SIZE_BYTES */};
  void *values[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof log))};
  if (int rc = load(&module, deviceCode.data(), 2, options, values)) {
    musaError_t e = t.driverError(rc);
    sayOnce("load " + code.name, std::string("loading the ") +
                                     (t.musa() ? "device image" : "PTX") + " of '" + code.name +
                                     "' failed (" + musaGetErrorName(e) + "): " + log);
    return e;
  }
  loaded().modules[key] = module;
  return musaSuccess;
}
} // namespace

musaError_t Target::kernel(const void *hostStub, void *&function) {
  if (!hostStub)
    return musaErrorInvalidDeviceFunction;
  FatBinaryRegistry::HardwareCode code;
  if (musaError_t e = FatBinaryRegistry::get().hardwareKernel(hostStub, code))
    return e;
  void *module = nullptr;
  if (musaError_t e = moduleFor(*this, code, module))
    return e;
  void *context = currentContext(*this);
  std::lock_guard lock(moduleMutex);
  auto key = std::make_pair(hostStub, context);
  if (auto it = loaded().functions.find(key); it != loaded().functions.end()) {
    function = it->second;
    return musaSuccess;
  }
  auto get = reinterpret_cast<int (*)(void **, void *, const char *)>(
      driverSymbol("ModuleGetFunction"));
  if (!get)
    return missing("ModuleGetFunction");
  if (int rc = get(&function, module, code.name.c_str()))
    return driverError(rc) == musaErrorSymbolNotFound ? musaErrorInvalidDeviceFunction
                                                      : driverError(rc);
  loaded().functions[key] = function;
  loaded().stubs[function] = hostStub;
  return musaSuccess;
}

const void *Target::hostStubOf(void *function) {
  std::lock_guard lock(moduleMutex);
  auto it = loaded().stubs.find(function);
  return it == loaded().stubs.end() ? nullptr : it->second;
}

musaError_t Target::variable(const void *hostVar, void *&address, size_t &size) {
  FatBinaryRegistry::HardwareCode code;
  size_t registered = 0;
  if (musaError_t e = FatBinaryRegistry::get().hardwareVariable(hostVar, code, registered))
    return e;
  return global(code, address, size);
}

musaError_t Target::global(const FatBinaryRegistry::HardwareCode &code, void *&address,
                           size_t &size) {
  void *module = nullptr;
  if (musaError_t e = moduleFor(*this, code, module))
    return e;
  auto get = reinterpret_cast<int (*)(unsigned long long *, size_t *, void *, const char *)>(
      driverSymbol("ModuleGetGlobal"));
  if (!get)
    return missing("ModuleGetGlobal");
  unsigned long long pointer = 0;
  if (int rc = get(&pointer, &size, module, code.name.c_str()))
    return driverError(rc) == musaErrorSymbolNotFound ? musaErrorInvalidSymbol : driverError(rc);
  address = reinterpret_cast<void *>(uintptr_t(pointer));
  return musaSuccess;
}

void Target::forgetModules() {
  std::lock_guard lock(moduleMutex);
  loaded() = Loaded();
}

} // namespace musa::rt::backend
