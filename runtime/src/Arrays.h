// MUSA arrays (musaArray_t): element-typed 1D/2D/3D storage with a channel descriptor. The
// simulator keeps an array as a pitched device allocation, so copies to and from arrays are
// pitched copies.
#pragma once

#include "musa_runtime_api.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace musa::rt {
class Device;
}

struct musaArray {
  musa::rt::Device *device = nullptr;
  musaChannelFormatDesc desc{};
  size_t elementSize = 0;      // bytes of one element (all channels)
  size_t width = 0;            // elements per row
  size_t height = 1;           // rows per slice
  size_t depth = 1;            // slices
  unsigned flags = 0;
  char *data = nullptr;        // device allocation
  size_t pitch = 0;            // bytes between rows
  bool mipmapLevel = false;    // a level of a mipmapped array: freed with it, not by itself
  int dimensions = 0;          // a level's (its chain's): musaArrayGetInfo reports the others 0
  size_t rowBytes() const { return width * elementSize; }
  size_t slicePitch() const { return pitch * height; }
};

/// A mipmapped array: level 0 has the extent asked for, each further level half of the one
/// before in every dimension it has (at least 1). Each level is an ordinary array (in the
/// array table, so copies, surfaces and queries take it) that only its chain may free.
struct musaMipmappedArray {
  musa::rt::Device *device = nullptr;
  std::vector<musaArray *> levels;
};

namespace musa::rt {
/// A live array, or null for a stale or foreign handle. Shared: a call using an array keeps
/// it while another thread frees it (musaFreeArray, musaDeviceReset).
std::shared_ptr<musaArray> resolveArray(musaArray_const_t handle);
/// Forgets (and frees) the arrays and mipmapped arrays of a device being reset.
void dropArraysOf(Device *device);
/// A live mipmapped array's levels (shared like arrays), or empty for a stale handle.
std::vector<std::shared_ptr<musaArray>> resolveMipmappedArray(musaMipmappedArray_const_t handle);
/// A channel format arrays and textures accept: 1, 2 or 4 channels of one size (8, 16 or 32
/// bits; float channels 16 or 32) and a known kind. The H200 refuses the rest with
/// musaErrorInvalidChannelDescriptor.
bool usableChannelFormat(const musaChannelFormatDesc &d);
/// Forgets the texture and surface objects of a device being reset (TextureApi.cpp).
void dropTexturesOf(Device *device);
/// The texture and surface size limits a device reports (musaDeviceProp).
void describeTextureLimits(musaDeviceProp &p);
} // namespace musa::rt
