// The backend seam: MUSA_SIM_BACKEND=sim (default) | hw | diff, read once.
//
// Every runtime entry point begins with MUSA_BACKEND_HOOK(name, its parameters...). With the
// simulator backend the hook is one load and a branch and the entry point runs as before. With
// `hw` the call goes to backend::fwd::name, which forwards it to a vendor runtime loaded with
// dlopen (Target.h: CUDA's libcudart + libcuda as a stand-in for hardware, or MUSA's libmusart
// + libmusa); with `diff` it goes to backend::diff::name where differential mode mirrors the
// call on both devices (Diff.cpp), and runs on the simulator only for every other call. Which
// call does what is one table: Forwarded.def.
#pragma once

#include "ApiShell.h"
#include "musa_runtime_api.h"
#include "musa_profiler_api.h"

#include <cstdint>
#include <optional>
#include <type_traits>

namespace musa::rt::backend {

enum class Mode { Sim, Hw, Diff };
/// MUSA_SIM_BACKEND, read on first use; an unknown value is reported and means `sim`.
Mode mode();

/// True on a thread that runs the simulator's side of a differential call (Diff.cpp).
bool inSimulatorScope();
/// While alive, entry points on this thread run the simulator (the hook steps aside).
struct SimulatorScope {
  SimulatorScope();
  ~SimulatorScope();
  SimulatorScope(const SimulatorScope &) = delete;
  bool previous;
};

/// Differential mode (Diff.cpp): the timing model's predicted time of a kernel the simulator
/// has just run (PreparedLaunch::run), and its profile report row (0: none).
void kernelPredicted(double ns, uint64_t reportId);

/// A driver-API module's variable at simulator address `address` (muModuleGetGlobal): with
/// `hw`, `address` becomes the target's address of it; with `diff`, the target's copy becomes
/// its hardware twin, so copies into it and kernels given it reach both.
musaError_t moduleGlobal(void **module, const char *name, void *&address, size_t size);

inline bool routing() {
  static const bool active = mode() != Mode::Sim;
  return active && !inSimulatorScope();
}

// fwd::name - the target-backend form of each entry point (Forward.h defines PASS and
// UNSUPPORTED objects; Forward.cpp defines CUSTOM functions).
template <auto F> struct Pass;
template <auto F> struct Unsupported;
} // namespace musa::rt::backend

#include "backend/Forward.h"

namespace musa::rt::backend {
namespace fwd {
#define MUSA_PASS(name) inline constexpr Pass<&::name> name{#name};
#define MUSA_CUSTOM(name) decltype(::name) name;
#define MUSA_UNSUPPORTED(name, why) inline constexpr Unsupported<&::name> name{#name, why};
#include "backend/Forwarded.def"
} // namespace fwd

namespace diff {
// Calls differential mode mirrors on both devices (Diff.cpp); the rest run on the simulator.
#define MUSA_DIFF(name) decltype(::name) name;
#include "backend/Forwarded.def"
} // namespace diff
template <auto F> struct DiffOf {
  static constexpr bool mirrored = false;
};
#define MUSA_DIFF(name)                                                                         \
  template <> struct DiffOf<&::name> {                                                         \
    static constexpr bool mirrored = true;                                                     \
    static constexpr auto call = &diff::name;                                                  \
  };
#include "backend/Forwarded.def"

template <auto F, class Forward, class... A>
std::optional<musaError_t> route(const Forward &forward, A... args) {
  if (mode() == Mode::Hw)
    return forward(args...);
  if constexpr (DiffOf<F>::mirrored)
    return DiffOf<F>::call(args...);
  else
    return std::nullopt;
}

} // namespace musa::rt::backend

#define MUSA_BACKEND_HOOK(name, ...)                                                           \
  if (::musa::rt::backend::routing())                                                          \
    if (std::optional<musaError_t> routed_ = ::musa::rt::backend::route<&::name>(           \
            ::musa::rt::backend::fwd::name __VA_OPT__(, ) __VA_ARGS__))                         \
  return ::musa::rt::recordError(*routed_)
