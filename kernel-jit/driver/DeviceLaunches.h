// Device-side launches (dynamic parallelism) for clang 19, which refuses `k<<<g, b>>>(args)`
// in device code ("reference to __global__ function 'k' in __global__ function"; clang 20
// lowers it to cudaLaunchDevice). The driver compiles the device pass, reads where clang
// refused a launch, and rewrites each one to the headers' device-side launch,
// `::__musa_sim_device_launch<&k>(g, b)(args)` (musa_device_runtime_api.h), in copies of the
// files that a VFS overlay puts in place of the originals (so includes, __FILE__ and
// diagnostics keep their paths), then compiles again with the overlay.
#pragma once

#include <string>

namespace musa::driver {

/// Writes rewritten copies of the files `diagnostics` names (at `stem`.dpN) and the overlay
/// (`stem`.overlay.yaml); returns the overlay's path, or empty if no refused launch could be
/// rewritten (a launch spelled through a macro, say).
std::string rewriteDeviceLaunches(const std::string &diagnostics, const std::string &stem);

/// Rewrites in place the launch whose callee starts at `offset` in `text` (at its name or a
/// qualifier before it): false, `text` unchanged, if the text there is not
/// `callee<<<config>>>(args)`. `templateArgs` (from clang's name of the callee, "<float>" or
/// empty) is added where the source leaves them to deduction.
bool rewriteLaunchAt(std::string &text, size_t offset, const std::string &templateArgs);

} // namespace musa::driver
