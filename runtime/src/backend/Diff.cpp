// Differential mode (MUSA_SIM_BACKEND=diff): allocations, copies, memsets, symbol writes and
// kernel launches run on the simulator and on the hardware backend from the same inputs; after
// each kernel the allocations its pointer parameters point into are read back from both and
// compared. The program sees the simulator's results. Every other call (streams, events,
// graphs, ...) runs on the simulator only: memory a graph writes is not mirrored.
//
// Comparison, per 32-bit word: bit-exact, except that two words that both read as normal
// floats (|x| >= 2^-100) may differ by MUSA_SIM_DIFF_ULP units in the last place (default 2;
// device math libraries differ). Integers below 2^23 read as denormals, so they compare exact.
// The first mismatch of each kernel is reported with kernel, parameter, index and both values
// (as int and as float). MUSA_SIM_DIFF=report (default) goes on; stop exits with status 3.
#include "backend/Backend.h"

#include "FatBinaryRegistry.h"
#include "musa/sim/GridLauncher.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace musa::rt::backend {

namespace {

struct Allocation {
  char *hw;
  size_t size;
};
std::mutex diffMutex;
std::map<const char *, Allocation> allocations; // simulator base -> hardware copy

/// The hardware address for a simulator address inside a mirrored allocation, or null.
void *hwAddress(const void *sim, const char **base = nullptr) {
  auto p = static_cast<const char *>(sim);
  auto it = allocations.upper_bound(p);
  if (it == allocations.begin())
    return nullptr;
  --it;
  if (p >= it->first + it->second.size)
    return nullptr;
  if (base)
    *base = it->first;
  return it->second.hw + (p - it->first);
}
/// Device pointers translated; host pointers unchanged.
const void *translate(const void *p) {
  std::lock_guard lock(diffMutex);
  void *hw = hwAddress(p);
  return hw ? hw : p;
}

bool stopOnMismatch() {
  static const bool stop = [] {
    const char *v = std::getenv("MUSA_SIM_DIFF");
    return v && !std::strcmp(v, "stop");
  }();
  return stop;
}
int ulpTolerance() {
  static const int ulp = [] {
    const char *v = std::getenv("MUSA_SIM_DIFF_ULP");
    return v && *v ? std::atoi(v) : 2;
  }();
  return ulp;
}

/// One line per kernel in MUSA_SIM_DIFF_REPORT (tab-separated, for musa-sim-diff), and the
/// mismatches on stderr.
FILE *report() {
  static FILE *file = [] {
    const char *path = std::getenv("MUSA_SIM_DIFF_REPORT");
    FILE *f = path && *path ? std::fopen(path, "w") : nullptr;
    if (f)
      std::fprintf(f, "# kernel\tsim_us\thw_us\tmismatches\tfirst_mismatch\n");
    return f;
  }();
  return file;
}

bool sameWord(uint32_t a, uint32_t b) {
  if (a == b)
    return true;
  float fa, fb;
  std::memcpy(&fa, &a, 4);
  std::memcpy(&fb, &b, 4);
  if (!std::isnormal(fa) || !std::isnormal(fb) || std::fabs(fa) < 0x1p-100f ||
      std::fabs(fb) < 0x1p-100f || (a >> 31) != (b >> 31))
    return false;
  uint32_t d = a > b ? a - b : b - a;
  return d <= uint32_t(ulpTolerance());
}

/// Elapsed time of `work` on the simulator's default stream, in microseconds (simulated time
/// under the timing model), or -1.
template <class Work> float simTimed(musaStream_t stream, Work &&work, musaError_t &result) {
  SimulatorScope scope;
  musaEvent_t a = nullptr, b = nullptr;
  bool timed = ::musaEventCreate(&a) == musaSuccess && ::musaEventCreate(&b) == musaSuccess;
  if (timed)
    ::musaEventRecord(a, stream);
  result = work();
  float ms = -1;
  if (timed) {
    ::musaEventRecord(b, stream);
    ::musaEventSynchronize(b);
    if (::musaEventElapsedTime(&ms, a, b) != musaSuccess)
      ms = -1;
  }
  if (a)
    ::musaEventDestroy(a);
  if (b)
    ::musaEventDestroy(b);
  ::musaGetLastError();
  return ms < 0 ? -1 : ms * 1000;
}
template <class Work> float hwTimed(Work &&work, musaError_t &result) {
  musaEvent_t a = nullptr, b = nullptr;
  bool timed = fwd::musaEventCreate(&a) == musaSuccess && fwd::musaEventCreate(&b) == musaSuccess;
  if (timed)
    fwd::musaEventRecord(a, nullptr);
  result = work();
  float ms = -1;
  if (timed) {
    fwd::musaEventRecord(b, nullptr);
    fwd::musaEventSynchronize(b);
    if (fwd::musaEventElapsedTime(&ms, a, b) != musaSuccess)
      ms = -1;
  }
  if (a)
    fwd::musaEventDestroy(a);
  if (b)
    fwd::musaEventDestroy(b);
  return ms < 0 ? -1 : ms * 1000;
}

void mismatchedResult(const char *call, musaError_t sim, musaError_t hw) {
  if (sim != hw)
    std::fprintf(stderr, "musa-sim diff: %s: simulator %s, hardware %s\n", call,
                 musaGetErrorName(sim), musaGetErrorName(hw));
}

} // namespace

namespace diff {

musaError_t musaMalloc(void **devPtr, size_t size) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMalloc(devPtr, size);
  }
  if (e || !devPtr || !*devPtr)
    return e;
  void *hw = nullptr;
  musaError_t h = fwd::musaMalloc(&hw, size);
  mismatchedResult("musaMalloc", e, h);
  if (!h) {
    std::lock_guard lock(diffMutex);
    allocations[static_cast<const char *>(*devPtr)] = {static_cast<char *>(hw), size};
  }
  return e;
}

musaError_t musaFree(void *devPtr) {
  void *hw = nullptr;
  {
    std::lock_guard lock(diffMutex);
    if (auto it = allocations.find(static_cast<const char *>(devPtr)); it != allocations.end()) {
      hw = it->second.hw;
      allocations.erase(it);
    }
  }
  if (hw)
    fwd::musaFree(hw);
  SimulatorScope scope;
  return ::musaFree(devPtr);
}

musaError_t musaMemcpy(void *dst, const void *src, size_t count, musaMemcpyKind kind) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemcpy(dst, src, count, kind);
  }
  // A copy to the host lands once (the simulator's); copies into device memory go to both.
  if (!e && kind != musaMemcpyDeviceToHost && kind != musaMemcpyHostToHost) {
    void *hwDst = const_cast<void *>(translate(dst));
    if (hwDst != dst)
      mismatchedResult("musaMemcpy", e, fwd::musaMemcpy(hwDst, translate(src), count, kind));
  }
  return e;
}

musaError_t musaMemcpyAsync(void *dst, const void *src, size_t count, musaMemcpyKind kind,
                            musaStream_t stream) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemcpyAsync(dst, src, count, kind, stream);
    if (!e && kind != musaMemcpyDeviceToHost && kind != musaMemcpyHostToHost)
      ::musaStreamSynchronize(stream); // the hardware copy reads the same host bytes now
  }
  if (!e && kind != musaMemcpyDeviceToHost && kind != musaMemcpyHostToHost) {
    void *hwDst = const_cast<void *>(translate(dst));
    if (hwDst != dst)
      mismatchedResult("musaMemcpyAsync", e,
                       fwd::musaMemcpy(hwDst, translate(src), count, kind));
  }
  return e;
}

musaError_t musaMemset(void *devPtr, int value, size_t count) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemset(devPtr, value, count);
  }
  if (void *hw = const_cast<void *>(translate(devPtr)); !e && hw != devPtr)
    mismatchedResult("musaMemset", e, fwd::musaMemset(hw, value, count));
  return e;
}

musaError_t musaMemsetAsync(void *devPtr, int value, size_t count, musaStream_t stream) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemsetAsync(devPtr, value, count, stream);
  }
  if (void *hw = const_cast<void *>(translate(devPtr)); !e && hw != devPtr)
    mismatchedResult("musaMemsetAsync", e, fwd::musaMemset(hw, value, count));
  return e;
}

musaError_t musaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               musaMemcpyKind kind) {
  musaError_t e;
  {
    SimulatorScope scope;
    e = ::musaMemcpyToSymbol(symbol, src, count, offset, kind);
  }
  if (!e)
    mismatchedResult("musaMemcpyToSymbol", e,
                     fwd::musaMemcpyToSymbol(symbol, translate(src), count, offset, kind));
  return e;
}

musaError_t musaDeviceSynchronize(void) {
  fwd::musaDeviceSynchronize();
  SimulatorScope scope;
  return ::musaDeviceSynchronize();
}

musaError_t musaStreamSynchronize(musaStream_t stream) {
  fwd::musaDeviceSynchronize(); // hardware work of diff mode all runs on its default stream
  SimulatorScope scope;
  return ::musaStreamSynchronize(stream);
}

musaError_t musaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                             size_t sharedMem, musaStream_t stream) {
  std::vector<uint32_t> sizes;
  musaStreamCaptureStatus capture = musaStreamCaptureStatusNone;
  {
    SimulatorScope scope;
    ::musaStreamGetCaptureInfo(stream, &capture);
    ::musaGetLastError();
  }
  // Captured launches belong to the simulator's graph (graphs are not mirrored).
  if (capture != musaStreamCaptureStatusNone ||
      FatBinaryRegistry::get().kernelParamSizes(func, sizes)) {
    SimulatorScope scope;
    return ::musaLaunchKernel(func, grid, block, args, sharedMem, stream);
  }
  FatBinaryRegistry::HardwareCode code;
  FatBinaryRegistry::get().hardwareKernel(func, code);
  std::string name = sim::demangle(code.name);
  // The hardware's arguments: pointer-sized values inside a mirrored allocation translated.
  std::vector<std::vector<char>> hwValues(sizes.size());
  std::vector<void *> hwArgs(sizes.size());
  struct Buffer {
    unsigned param;
    const char *simBase;
    size_t size;
    char *hwBase;
  };
  std::vector<Buffer> buffers;
  for (size_t i = 0; i < sizes.size(); ++i) {
    hwValues[i].assign(static_cast<char *>(args[i]), static_cast<char *>(args[i]) + sizes[i]);
    if (sizes[i] == sizeof(void *)) {
      const void *value;
      std::memcpy(&value, args[i], sizeof value);
      std::lock_guard lock(diffMutex);
      const char *base = nullptr;
      if (void *hw = hwAddress(value, &base)) {
        std::memcpy(hwValues[i].data(), &hw, sizeof hw);
        Allocation &a = allocations[base];
        buffers.push_back({unsigned(i), base, a.size, a.hw});
      }
    }
    hwArgs[i] = hwValues[i].data();
  }
  musaError_t simResult, hwResult;
  float simUs = simTimed(
      stream, [&] { return ::musaLaunchKernel(func, grid, block, args, sharedMem, stream); }, simResult);
  float hwUs = hwTimed(
      [&] {
        return fwd::musaLaunchKernel(func, grid, block, hwArgs.data(), sharedMem, nullptr);
      },
      hwResult);
  mismatchedResult(("launch of " + name).c_str(), simResult, hwResult);
  if (simResult || hwResult)
    return simResult;
  {
    SimulatorScope scope;
    ::musaStreamSynchronize(stream);
  }
  fwd::musaDeviceSynchronize();
  // Compare every buffer the kernel could reach through its parameters.
  unsigned mismatches = 0;
  std::string first;
  for (const Buffer &b : buffers) {
    std::vector<uint32_t> simWords((b.size + 3) / 4), hwWords((b.size + 3) / 4);
    {
      SimulatorScope scope;
      ::musaMemcpy(simWords.data(), b.simBase, b.size, musaMemcpyDeviceToHost);
    }
    fwd::musaMemcpy(hwWords.data(), b.hwBase, b.size, musaMemcpyDeviceToHost);
    for (size_t w = 0; w < simWords.size(); ++w)
      if (!sameWord(simWords[w], hwWords[w])) {
        if (mismatches++ == 0) {
          float fs, fh;
          std::memcpy(&fs, &simWords[w], 4);
          std::memcpy(&fh, &hwWords[w], 4);
          char line[512];
          std::snprintf(line, sizeof line,
                        "kernel '%s': parameter %u (buffer %p, %zu bytes) word %zu (byte %zu): "
                        "simulator %d (%g), hardware %d (%g)",
                        name.c_str(), b.param, static_cast<const void *>(b.simBase), b.size, w,
                        w * 4, int(simWords[w]), double(fs), int(hwWords[w]), double(fh));
          first = line;
        }
      }
  }
  if (mismatches)
    std::fprintf(stderr, "musa-sim diff: MISMATCH %s (%u words differ)\n", first.c_str(),
                 mismatches);
  if (FILE *f = report()) {
    std::lock_guard lock(diffMutex);
    std::fprintf(f, "%s\t%.3f\t%.3f\t%u\t%s\n", name.c_str(), double(simUs), double(hwUs),
                 mismatches, first.c_str());
    std::fflush(f);
  }
  if (mismatches && stopOnMismatch()) {
    std::fprintf(stderr, "musa-sim diff: stopping (MUSA_SIM_DIFF=stop)\n");
    std::exit(3);
  }
  return simResult;
}

} // namespace diff
} // namespace musa::rt::backend
