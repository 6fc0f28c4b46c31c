// Occupancy: how many blocks of a kernel one multiprocessor holds at once, from the profile.
//
// The occupancy API (musaOccupancy*), the cooperative-launch limit and the timing model all
// ask this one function, so a grid sized from musaOccupancyMaxActiveBlocksPerMultiprocessor is
// exactly what a cooperative launch accepts. The limits are the profile's: blocks per
// multiprocessor; threads per multiprocessor, counted in whole warps; shared memory (the
// kernel's static bytes plus the launch's dynamic bytes); and registers. Register use per
// thread is not known (device code is compiled for the host, not register-allocated for the
// GPU): the profile's `regs_per_thread` is assumed for every kernel, allocated per whole warp.
// A block the device accepts is always resident at least once: the simulator does not refuse
// a launch for registers it cannot count.
#pragma once

#include "musa/sim/DeviceProfile.h"

#include <cstdint>

namespace musa::sim {

/// Resident blocks per multiprocessor for blocks of `threads` threads using `sharedBytes` of
/// shared memory each; 0 if the device cannot run such a block at all (no threads, more
/// threads than a block may have, more shared memory than a block may use).
int residentBlocksPerMultiprocessor(const DeviceProfile &p, uint64_t threads,
                                    uint64_t sharedBytes);

/// The most dynamic shared memory each of `blocks` resident blocks of `threads` threads can
/// have alongside `staticBytes` of static shared memory, within the per-block and
/// per-multiprocessor limits; 0 if that many such blocks cannot be resident at all.
uint64_t availableDynamicSharedPerBlock(const DeviceProfile &p, uint64_t threads,
                                        uint64_t blocks, uint64_t staticBytes);

} // namespace musa::sim
