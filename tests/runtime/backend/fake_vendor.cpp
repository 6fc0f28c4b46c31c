// A stand-in for a vendor runtime + driver library (CUDA's libcudart/libcuda, or MUSA's
// libmusart/libmusa with -DFAKE_MUSA), for testing the hw backend's forwarding layer without a
// GPU. Device memory is host memory; the one "kernel" it knows, addOne(int*, int), runs on the
// host over the launch's grid. Every call appends a line to the file FAKE_VENDOR_LOG names.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#ifdef FAKE_MUSA
#define RT(name) musa##name
#define DRV(name) mu##name
#define RT_PREFIX "musa"
#define DRV_ERR "MUSA_ERROR_"
#else
#define RT(name) cuda##name
#define DRV(name) cu##name
#define RT_PREFIX "cuda"
#define DRV_ERR "CUDA_ERROR_"
#endif
#define EXPORT extern "C" __attribute__((visibility("default")))

namespace {
// The target's own numbering (CUDA's), deliberately unlike musa-sim's where CUDA's differs.
enum : int { Success = 0, InvalidValue = 1, InvalidMemcpyDirection = 21, InvalidDevice = 101 };
int context = 0; // its address is the one context

void note(const char *format, ...) {
  const char *path = std::getenv("FAKE_VENDOR_LOG");
  if (!path)
    return;
  FILE *log = std::fopen(path, "a");
  if (!log)
    return;
  va_list args;
  va_start(args, format);
  std::vfprintf(log, format, args);
  va_end(args);
  std::fputc('\n', log);
  std::fclose(log);
}

struct Module {
  std::string ptx; // or, for a MUSA image from fake-mcc.sh, the kernel's source
  bool musaImage = false;
};
struct Function {
  std::string name;
};
std::map<std::string, int> constants; // __constant__ storage by name
alignas(16) char constantBank[4096];
} // namespace

EXPORT const char *RT(GetErrorName)(int e) {
  switch (e) {
  case Success: return RT_PREFIX "Success";
  case InvalidValue: return RT_PREFIX "ErrorInvalidValue";
  case InvalidMemcpyDirection: return RT_PREFIX "ErrorInvalidMemcpyDirection";
  case InvalidDevice: return RT_PREFIX "ErrorInvalidDevice";
  default: return RT_PREFIX "ErrorSomethingMusaHasNot";
  }
}
EXPORT int RT(GetDeviceCount)(int *n) {
  note(RT_PREFIX "GetDeviceCount");
  *n = 1;
  return Success;
}
EXPORT int RT(RuntimeGetVersion)(int *v) {
  *v = 12080;
  return Success;
}
EXPORT int RT(GetDevice)(int *d) {
  *d = 0;
  return Success;
}
EXPORT int RT(SetDevice)(int d) {
  note(RT_PREFIX "SetDevice %d", d);
  return d == 0 ? Success : InvalidDevice;
}
EXPORT int RT(Malloc)(void **p, size_t n) {
  note(RT_PREFIX "Malloc %zu", n);
  *p = std::calloc(1, n);
  return *p ? Success : 2;
}
EXPORT int RT(Free)(void *p) {
  note(RT_PREFIX "Free");
  std::free(p);
  return Success;
}
EXPORT int RT(Memcpy)(void *dst, const void *src, size_t n, int kind) {
  note(RT_PREFIX "Memcpy %zu kind %d", n, kind);
  if (kind < 0 || kind > 4)
    return InvalidMemcpyDirection;
  std::memcpy(dst, src, n);
  return Success;
}
EXPORT int RT(MemcpyAsync)(void *dst, const void *src, size_t n, int kind, void *stream) {
  note(RT_PREFIX "MemcpyAsync %zu kind %d stream %p", n, kind, stream);
  std::memcpy(dst, src, n);
  return Success;
}
EXPORT int RT(Memset)(void *p, int value, size_t n) {
  note(RT_PREFIX "Memset %zu", n);
  std::memset(p, value, n);
  return Success;
}
EXPORT int RT(StreamCreate)(void **s) {
  static int streams;
  *s = &streams;
  note(RT_PREFIX "StreamCreate");
  return Success;
}
EXPORT int RT(StreamCreateWithFlags)(void **s, unsigned flags) {
  static int streams[64];
  static int next;
  *s = &streams[next++ % 64];
  note(RT_PREFIX "StreamCreateWithFlags %u", flags);
  return Success;
}
EXPORT int RT(StreamWaitEvent)(void *s, void *e, unsigned) {
  note(RT_PREFIX "StreamWaitEvent %s", e ? "event" : "null");
  return e ? Success : InvalidValue;
}
EXPORT int RT(MemsetAsync)(void *p, int value, size_t n, void *) {
  note(RT_PREFIX "MemsetAsync %zu", n);
  std::memset(p, value, n);
  return Success;
}
EXPORT int RT(Memset2DAsync)(void *p, size_t pitch, int value, size_t width, size_t height,
                             void *) {
  note(RT_PREFIX "Memset2DAsync %zu x %zu", width, height);
  for (size_t y = 0; y < height; ++y)
    std::memset(static_cast<char *>(p) + y * pitch, value, width);
  return Success;
}
// Events: the work is done when it is issued, so every event is complete; the elapsed time
// between two is FAKE_VENDOR_ELAPSED_MS (the hardware's measured time in differential mode).
struct Event {
  bool recorded = false;
};
EXPORT int RT(EventCreate)(void **e) {
  *e = new Event;
  note(RT_PREFIX "EventCreate");
  return Success;
}
EXPORT int RT(EventCreateWithFlags)(void **e, unsigned flags) {
  *e = new Event;
  note(RT_PREFIX "EventCreateWithFlags %u", flags);
  return Success;
}
EXPORT int RT(EventDestroy)(void *e) {
  delete static_cast<Event *>(e);
  return Success;
}
EXPORT int RT(EventRecord)(void *e, void *) {
  if (!e)
    return InvalidValue;
  static_cast<Event *>(e)->recorded = true;
  return Success;
}
EXPORT int RT(EventSynchronize)(void *e) { return e ? Success : InvalidValue; }
EXPORT int RT(EventElapsedTime)(float *ms, void *a, void *b) {
  if (!a || !b || !static_cast<Event *>(a)->recorded || !static_cast<Event *>(b)->recorded)
    return InvalidValue;
  const char *fixed = std::getenv("FAKE_VENDOR_ELAPSED_MS");
  *ms = fixed ? float(std::atof(fixed)) : 0.001f;
  note(RT_PREFIX "EventElapsedTime");
  return Success;
}
EXPORT int RT(StreamSynchronize)(void *s) {
  note(RT_PREFIX "StreamSynchronize %p", s);
  return Success;
}
EXPORT int RT(StreamDestroy)(void *) {
  note(RT_PREFIX "StreamDestroy");
  return Success;
}
EXPORT int RT(DeviceSynchronize)() {
  note(RT_PREFIX "DeviceSynchronize");
  return Success;
}
EXPORT int RT(DeviceGetAttribute)(int *v, int attr, int device) {
  note(RT_PREFIX "DeviceGetAttribute %d", attr);
  *v = attr == 16 ? 132 : attr == 75 ? 9 : attr == 10 ? 32 : 1; // SMs, major, warp size
  return device == 0 ? Success : InvalidDevice;
}

EXPORT int DRV(Init)(unsigned) { return 0; }
EXPORT int DRV(GetErrorName)(int e, const char **name) {
  *name = e == 1 ? DRV_ERR "INVALID_VALUE" : e == 500 ? DRV_ERR "NOT_FOUND" : DRV_ERR "UNKNOWN";
  return 0;
}
EXPORT int DRV(CtxGetCurrent)(void **c) {
  *c = context ? &context : nullptr;
  return 0;
}
EXPORT int DRV(DevicePrimaryCtxRetain)(void **c, int) {
  note("%sDevicePrimaryCtxRetain", RT_PREFIX[0] == 'c' ? "cu" : "mu");
  *c = &context;
  return 0;
}
EXPORT int DRV(CtxSetCurrent)(void *c) {
  context = c ? 1 : 0;
  return 0;
}
EXPORT int DRV(DeviceGet)(int *d, int ordinal) {
  *d = ordinal;
  return 0;
}
EXPORT int DRV(DeviceGetName)(char *name, int len, int) {
  std::snprintf(name, size_t(len), "Fake %s GPU", RT_PREFIX);
  return 0;
}
EXPORT int DRV(DeviceTotalMem_v2)(size_t *bytes, int) {
  *bytes = size_t(80) << 30;
  return 0;
}
EXPORT int DRV(ModuleLoadDataEx)(void **module, const void *image, unsigned, int *, void **) {
  const char *ptx = static_cast<const char *>(image);
  if (std::strncmp(ptx, "FAKE-MUSA-IMAGE", 15) == 0) { // fake-mcc.sh's output, NUL-free text
    note("%sModuleLoadDataEx mubin", RT_PREFIX[0] == 'c' ? "cu" : "mu");
    *module = new Module{ptx, true};
    return 0;
  }
  bool isPtx = std::strstr(ptx, ".target sm_") && std::strstr(ptx, ".entry");
  note("%sModuleLoadDataEx %s", RT_PREFIX[0] == 'c' ? "cu" : "mu", isPtx ? "ptx" : "not-ptx");
  if (!isPtx)
    return 200; // CUDA_ERROR_INVALID_IMAGE
  *module = new Module{ptx};
  return 0;
}
EXPORT int DRV(ModuleGetFunction)(void **f, void *module, const char *name) {
  note("%sModuleGetFunction %s", RT_PREFIX[0] == 'c' ? "cu" : "mu", name);
  std::string entry = std::string(".entry ") + name + "(";
  auto *m = static_cast<Module *>(module);
  if (m->musaImage) { // the source holds the unmangled name: _Z6addOnePii -> addOne
    const char *p = name + (std::strncmp(name, "_Z", 2) == 0 ? 2 : 0);
    size_t length = std::strtoul(p, const_cast<char **>(&p), 10);
    entry = std::string(p, std::min(length, std::strlen(p))) + "(";
  }
  if (m->ptx.find(entry) == std::string::npos)
    return 500;
  *f = new Function{name};
  return 0;
}
EXPORT int DRV(ModuleGetGlobal_v2)(unsigned long long *ptr, size_t *size, void *module,
                                    const char *name) {
  note("%sModuleGetGlobal %s", RT_PREFIX[0] == 'c' ? "cu" : "mu", name);
  if (static_cast<Module *>(module)->ptx.find(name) == std::string::npos)
    return 500;
  auto [it, added] = constants.emplace(name, int(constants.size()) * 256);
  *ptr = reinterpret_cast<unsigned long long>(constantBank + it->second);
  *size = 256;
  return 0;
}
EXPORT int DRV(LaunchKernel)(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                             unsigned by, unsigned bz, unsigned shared, void *stream,
                             void **params, void **extra) {
  const std::string &name = static_cast<Function *>(f)->name;
  note("%sLaunchKernel %s grid %u block %u stream %p", RT_PREFIX[0] == 'c' ? "cu" : "mu",
       name.c_str(), gx, bx, stream);
  unsigned long threads = (unsigned long)gx * bx;
  if (name == "_Z7copyOutPiPKii") { // copyOut(int *out, const int *in, int n): out[i] = in[i]
    int *out = *static_cast<int **>(params[0]);
    const int *in = *static_cast<const int **>(params[1]);
    int n = *static_cast<int *>(params[2]);
    for (unsigned long i = 0; i < threads && long(i) < n; ++i)
      out[i] = in[i];
    return 0;
  }
  if (name == "_Z10readSharedPi") { // readShared(int *out): unwritten shared memory reads 0 here
    int *out = *static_cast<int **>(params[0]);
    for (unsigned long i = 0; i < threads; ++i)
      out[i] = i % bx < 32 ? 7 : 0;
    return 0;
  }
  if (name != "_Z6addOnePii")
    return 1;
  int *data = *static_cast<int **>(params[0]);
  int n = *static_cast<int *>(params[1]);
  // addOne: data[i] += 1 + the __constant__ bias (first int of the bank) for i < n.
  int bias = 0;
  std::memcpy(&bias, constantBank, sizeof bias);
  for (unsigned long i = 0; i < (unsigned long)gx * bx; ++i)
    if (long(i) < n)
      data[i] += 1 + bias;
  // A wrong element on request: differential mode must report it.
  if (const char *wrong = std::getenv("FAKE_VENDOR_WRONG"); wrong && std::atoi(wrong) < n)
    data[std::atoi(wrong)] += 100;
  return 0;
}
