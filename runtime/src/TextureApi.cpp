// Texture and surface objects: the creation checks (each answer is the H200's where the probe
// asked it: tests/e2e/textures.mu, listing in tests/e2e/textures.h200.txt), the records device
// code reads (musa_texture_functions.h), and their lifetime.
//
// An object's handle is the address of its record. Records are never returned to the heap: a
// destroyed one has its magic cleared and waits on a free list, so a kernel that still holds a
// stale handle faults (illegal address) instead of reading freed memory.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Arrays.h"
#include "Runtime.h"

#include "musa_texture_functions.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace musa::rt;

namespace {

/// Figures of CUDA's compute capability 9.0 (measured on the H200 where the probe printed
/// them: maxTexture1D/2D/3D, the alignments); the simulated devices report the same.
constexpr int MaxTexture1D = 131072, MaxTexture1DLinear = 1 << 28;
constexpr int MaxTexture2D[2] = {131072, 65536}, MaxTexture2DLinear[3] = {131072, 65000, 2097120};
constexpr int MaxTexture3D[3] = {16384, 16384, 16384};
constexpr int MaxTexture1DLayered[2] = {32768, 2048}, MaxTexture2DLayered[3] = {32768, 32768, 2048};
constexpr int MaxTextureCubemap = 32768, MaxTextureCubemapLayered[2] = {32768, 2046};

struct Slot {
  __musa_sim_texture record{}; // first: the handle is its address
  Device *device = nullptr;
  bool surface = false;
  musaResourceDesc resource{};
  musaTextureDesc texture{};
  musaResourceViewDesc view{};
};

/// Every record ever made (stable addresses), the live ones by handle, and the free ones.
struct SlotTable {
  std::mutex mutex;
  // Slots in chunks of stable addresses, each registered as memory kernels may read (the
  // records are what device code reads; MUSA_SIM_MEMCHECK's host-memory test accepts them).
  static constexpr size_t ChunkSlots = 256;
  std::vector<std::unique_ptr<Slot[]>> chunks;
  size_t used = 0; // slots handed out from the last chunk
  std::unordered_map<unsigned long long, Slot *> live;
  std::vector<Slot *> free;
  static SlotTable &get() {
    static SlotTable *table = new SlotTable; // used by exit-time API calls: never destroyed
    return *table;
  }
  unsigned long long add(const Slot &filled) {
    std::lock_guard lock(mutex);
    Slot *s;
    if (free.empty()) {
      if (chunks.empty() || used == ChunkSlots) {
        chunks.push_back(std::make_unique<Slot[]>(ChunkSlots));
        used = 0;
        Runtime::registerKernelReadable(chunks.back().get(), ChunkSlots * sizeof(Slot));
      }
      s = &chunks.back()[used++];
    } else {
      s = free.back();
      free.pop_back();
    }
    // The magic last, so a concurrent reader of a recycled record never sees it half made.
    Slot copy = filled;
    copy.record.magic = 0;
    *s = copy;
    __atomic_store_n(&s->record.magic, filled.record.magic, __ATOMIC_RELEASE);
    unsigned long long handle = reinterpret_cast<unsigned long long>(&s->record);
    live[handle] = s;
    return handle;
  }
  /// The live object `handle` names of the kind asked for, copied (null if none).
  bool find(unsigned long long handle, bool surface, Slot &out) {
    std::lock_guard lock(mutex);
    auto it = live.find(handle);
    if (it == live.end() || it->second->surface != surface)
      return false;
    out = *it->second;
    return true;
  }
  void remove(unsigned long long handle) {
    std::lock_guard lock(mutex);
    auto it = live.find(handle);
    if (it == live.end())
      return;
    retire(it->second);
    live.erase(it);
  }
  void removeAllOf(Device *device) {
    std::lock_guard lock(mutex);
    std::erase_if(live, [&](const auto &entry) {
      if (entry.second->device != device)
        return false;
      retire(entry.second);
      return true;
    });
  }

private:
  void retire(Slot *s) {
    __atomic_store_n(&s->record.magic, 0u, __ATOMIC_RELEASE);
    free.push_back(s);
  }
};

int channelCount(const musaChannelFormatDesc &d) {
  return (d.x != 0) + (d.y != 0) + (d.z != 0) + (d.w != 0);
}

/// The format part of a record from a channel descriptor (checked by the caller).
void setFormat(__musa_sim_texture &r, const musaChannelFormatDesc &d) {
  r.channels = channelCount(d);
  r.channelBytes = d.x / 8;
  r.kind = d.f;
  r.elementBytes = r.channels * r.channelBytes;
}

/// The resource part of a record (array, linear or pitched memory).
musaError_t describeResource(const musaResourceDesc &rd, Slot &slot) {
  __musa_sim_texture &r = slot.record;
  Device *current = Runtime::get().currentDevice();
  if (!current)
    return musaErrorNoDevice;
  slot.device = current;
  const musa::sim::DeviceProfile &p = current->profile();
  switch (rd.resType) {
  case musaResourceTypeArray: {
    std::shared_ptr<musaArray> a = resolveArray(rd.res.array.array);
    if (!a) // the H200's answer for a freed array
      return musaErrorContextIsDestroyed;
    setFormat(r, a->desc);
    r.data = a->data;
    r.pitch = a->pitch;
    r.slicePitch = a->slicePitch();
    r.width = int(a->width);
    r.height = int(a->height);
    r.depth = int(a->depth);
    if (a->flags & (musaArrayLayered | musaArrayCubemap))
      r.flags |= __MUSA_SIM_TEX_LAYERED;
    if (a->flags & musaArrayCubemap)
      r.flags |= __MUSA_SIM_TEX_CUBEMAP | __MUSA_SIM_TEX_NORMALIZED_COORDS;
    slot.device = a->device;
    return musaSuccess;
  }
  case musaResourceTypeLinear: {
    const auto &l = rd.res.linear;
    if (!l.devPtr || !usableChannelFormat(l.desc) ||
        reinterpret_cast<uintptr_t>(l.devPtr) % p.textureAlignment != 0)
      return musaErrorInvalidValue;
    setFormat(r, l.desc);
    size_t elements = l.sizeInBytes / size_t(r.elementBytes);
    if (elements > size_t(MaxTexture1DLinear))
      return musaErrorInvalidValue;
    r.data = static_cast<char *>(l.devPtr);
    r.width = int(elements);
    r.height = r.depth = 1;
    r.pitch = r.slicePitch = l.sizeInBytes;
    return musaSuccess;
  }
  case musaResourceTypePitch2D: {
    const auto &l = rd.res.pitch2D;
    if (!l.devPtr || !usableChannelFormat(l.desc) || l.width == 0 || l.height == 0 ||
        reinterpret_cast<uintptr_t>(l.devPtr) % p.textureAlignment != 0 ||
        l.pitchInBytes % p.texturePitchAlignment != 0 ||
        l.width > size_t(MaxTexture2DLinear[0]) || l.height > size_t(MaxTexture2DLinear[1]) ||
        l.pitchInBytes > size_t(MaxTexture2DLinear[2]))
      return musaErrorInvalidValue;
    setFormat(r, l.desc);
    r.data = static_cast<char *>(l.devPtr);
    r.width = int(l.width);
    r.height = int(l.height);
    r.depth = 1;
    r.pitch = l.pitchInBytes;
    r.slicePitch = l.pitchInBytes * l.height;
    return musaSuccess;
  }
  case musaResourceTypeMipmappedArray: {
    std::vector<std::shared_ptr<musaArray>> levels = resolveMipmappedArray(rd.res.mipmap.mipmap);
    if (levels.empty())
      return musaErrorInvalidResourceHandle;
    if (levels.size() > __MUSA_SIM_TEX_MAX_LEVELS)
      return musaErrorInvalidValue;
    const musaArray &a = *levels[0];
    setFormat(r, a.desc);
    r.levels = int(levels.size());
    for (size_t l = 0; l < levels.size(); ++l) {
      const musaArray &v = *levels[l];
      r.level[l] = {v.data, v.pitch, v.slicePitch(), int(v.width), int(v.height), int(v.depth), 0};
    }
    r.data = a.data;
    r.pitch = a.pitch;
    r.slicePitch = a.slicePitch();
    r.width = int(a.width);
    r.height = int(a.height);
    r.depth = int(a.depth);
    if (a.flags & (musaArrayLayered | musaArrayCubemap))
      r.flags |= __MUSA_SIM_TEX_LAYERED;
    if (a.flags & musaArrayCubemap)
      r.flags |= __MUSA_SIM_TEX_CUBEMAP | __MUSA_SIM_TEX_NORMALIZED_COORDS;
    slot.device = a.device;
    return musaSuccess;
  }
  default:
    return musaErrorInvalidValue;
  }
}

bool validMode(int m) { return m >= musaAddressModeWrap && m <= musaAddressModeBorder; }

/// The sampling part of a texture's record.
musaError_t describeSampling(const musaTextureDesc &td, Slot &slot) {
  __musa_sim_texture &r = slot.record;
  for (int d = 0; d < 3; ++d)
    if (!validMode(td.addressMode[d]))
      return musaErrorInvalidValue;
  // The mipmap fields are read for mipmapped resources only (programs that fill a descriptor
  // field by field for an array may leave them unset).
  bool mipmapped = r.levels > 1;
  if ((td.filterMode != musaFilterModePoint && td.filterMode != musaFilterModeLinear) ||
      (mipmapped && td.mipmapFilterMode != musaFilterModePoint &&
       td.mipmapFilterMode != musaFilterModeLinear) ||
      (td.readMode != musaReadModeElementType && td.readMode != musaReadModeNormalizedFloat))
    return musaErrorInvalidValue;
  bool integer = r.kind != musaChannelFormatKindFloat;
  bool normalizedRead = integer && td.readMode == musaReadModeNormalizedFloat;
  // Filtering needs float results; 32-bit integers are never read as normalized floats.
  bool blends = td.filterMode == musaFilterModeLinear ||
                (mipmapped && td.mipmapFilterMode == musaFilterModeLinear);
  if (blends && integer && (!normalizedRead || r.channelBytes == 4))
    return musaErrorInvalidFilterSetting;
  if (normalizedRead && r.channelBytes == 4)
    return musaErrorInvalidNormSetting;
  for (int d = 0; d < 3; ++d)
    r.addressMode[d] = td.addressMode[d];
  for (int c = 0; c < 4; ++c)
    r.borderColor[c] = td.borderColor[c];
  if (td.filterMode == musaFilterModeLinear)
    r.flags |= __MUSA_SIM_TEX_LINEAR_FILTER;
  if (mipmapped) {
    if (td.mipmapFilterMode == musaFilterModeLinear)
      r.flags |= __MUSA_SIM_TEX_MIPMAP_LINEAR;
    r.lodBias = td.mipmapLevelBias;
    r.minLod = td.minMipmapLevelClamp;
    r.maxLod = td.maxMipmapLevelClamp;
  }
  if (normalizedRead)
    r.flags |= __MUSA_SIM_TEX_NORMALIZED_READ;
  if (td.normalizedCoords)
    r.flags |= __MUSA_SIM_TEX_NORMALIZED_COORDS;
  if (r.flags & __MUSA_SIM_TEX_CUBEMAP) // cubemaps are addressed by direction, clamped
    r.addressMode[0] = r.addressMode[1] = r.addressMode[2] = musaAddressModeClamp;
  return musaSuccess;
}

/// A view may only restate the whole resource: the simulator keeps no sub-views.
bool wholeResourceView(const musaResourceViewDesc &v, const Slot &slot) {
  const __musa_sim_texture &r = slot.record;
  bool layered = r.flags & __MUSA_SIM_TEX_LAYERED;
  bool mipmapped = slot.resource.resType == musaResourceTypeMipmappedArray;
  return (slot.resource.resType == musaResourceTypeArray || mipmapped) &&
         (v.width == 0 || v.width == size_t(r.width)) &&
         (v.height == 0 || v.height == size_t(r.height)) &&
         (v.depth == 0 || layered || v.depth == size_t(r.depth)) && v.firstMipmapLevel == 0 &&
         (v.lastMipmapLevel == 0 || (mipmapped && v.lastMipmapLevel == unsigned(r.levels - 1))) &&
         v.firstLayer == 0 &&
         (!layered || v.lastLayer == 0 || v.lastLayer == unsigned(r.depth - 1));
}

/// Copies one part of a live object's description out (the getters).
template <class Part>
musaError_t describe(unsigned long long handle, bool surface, Part *out, Part Slot::*part) {
  Slot s;
  if (!out || !SlotTable::get().find(handle, surface, s))
    return musaErrorInvalidValue;
  *out = s.*part;
  return musaSuccess;
}

} // namespace

namespace musa::rt {
void dropTexturesOf(Device *device) { SlotTable::get().removeAllOf(device); }

void describeTextureLimits(musaDeviceProp &p) {
  p.maxTexture1D = MaxTexture1D;
  p.maxTexture1DLinear = MaxTexture1DLinear;
  std::copy_n(MaxTexture2D, 2, p.maxTexture2D);
  std::copy_n(MaxTexture2DLinear, 3, p.maxTexture2DLinear);
  std::copy_n(MaxTexture2D, 2, p.maxTexture2DGather);
  std::copy_n(MaxTexture3D, 3, p.maxTexture3D);
  std::copy_n(MaxTexture1DLayered, 2, p.maxTexture1DLayered);
  std::copy_n(MaxTexture2DLayered, 3, p.maxTexture2DLayered);
  p.maxTextureCubemap = MaxTextureCubemap;
  std::copy_n(MaxTextureCubemapLayered, 2, p.maxTextureCubemapLayered);
  // Surfaces: the same limits as textures of their shape (CUDA's table for 9.0), 1D at 32768.
  p.maxSurface1D = MaxTexture1DLayered[0];
  std::copy_n(MaxTexture2D, 2, p.maxSurface2D);
  std::copy_n(MaxTexture3D, 3, p.maxSurface3D);
  std::copy_n(MaxTexture1DLayered, 2, p.maxSurface1DLayered);
  std::copy_n(MaxTexture2DLayered, 3, p.maxSurface2DLayered);
  p.maxSurfaceCubemap = MaxTextureCubemap;
  std::copy_n(MaxTextureCubemapLayered, 2, p.maxSurfaceCubemapLayered);
  p.surfaceAlignment = p.textureAlignment;
}
} // namespace musa::rt

extern "C" {

// The widest 1D texture over linear memory of `fmtDesc`'s elements: 2^30 elements, or 4 GiB
// of wider ones (the H100: 2^30 for 1- to 4-byte, 2^29 for 8-byte, 2^28 for 16-byte elements;
// tests/hardware/session19).
musaError_t musaDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
                                                 const musaChannelFormatDesc *fmtDesc,
                                                 int device) {
  MUSA_BACKEND_HOOK(musaDeviceGetTexture1DLinearMaxWidth, maxWidthInElements, fmtDesc, device);
  return apiCall([&] {
    if (!maxWidthInElements || !fmtDesc || !usableChannelFormat(*fmtDesc))
      return musaErrorInvalidValue;
    if (!Runtime::get().device(device))
      return musaErrorInvalidDevice;
    size_t bytes = size_t(fmtDesc->x + fmtDesc->y + fmtDesc->z + fmtDesc->w) / 8;
    *maxWidthInElements = std::min<size_t>(size_t(1) << 30, (size_t(1) << 32) / bytes);
    return musaSuccess;
  });
}

musaError_t musaCreateTextureObject(musaTextureObject_t *pTexObject,
                                    const musaResourceDesc *pResDesc,
                                    const musaTextureDesc *pTexDesc,
                                    const musaResourceViewDesc *pResViewDesc) {
  MUSA_BACKEND_HOOK(musaCreateTextureObject, pTexObject, pResDesc, pTexDesc, pResViewDesc);
  return apiCall([&] {
    if (!pTexObject || !pResDesc)
      return musaErrorInvalidValue;
    if (!pTexDesc) // the H200's answer
      return musaErrorInvalidResourceHandle;
    Slot slot;
    slot.resource = *pResDesc;
    slot.texture = *pTexDesc;
    slot.record.magic = __MUSA_SIM_TEXTURE_MAGIC;
    if (musaError_t e = describeResource(*pResDesc, slot))
      return e;
    if (musaError_t e = describeSampling(*pTexDesc, slot))
      return e;
    if (pResViewDesc) {
      if (!wholeResourceView(*pResViewDesc, slot))
        return musaErrorInvalidValue;
      slot.view = *pResViewDesc;
    }
    *pTexObject = SlotTable::get().add(slot);
    return musaSuccess;
  });
}

// Destroying succeeds whatever the handle (the H200 answers musaSuccess for 0, a destroyed
// object, a value never made and a surface object, which it destroys).
musaError_t musaDestroyTextureObject(musaTextureObject_t texObject) {
  MUSA_BACKEND_HOOK(musaDestroyTextureObject, texObject);
  return apiCall([&] {
    SlotTable::get().remove(texObject);
    return musaSuccess;
  });
}

musaError_t musaGetTextureObjectResourceDesc(musaResourceDesc *pResDesc,
                                             musaTextureObject_t texObject) {
  MUSA_BACKEND_HOOK(musaGetTextureObjectResourceDesc, pResDesc, texObject);
  return apiCall([&] {
    return describe(texObject, false, pResDesc, &Slot::resource);
  });
}

musaError_t musaGetTextureObjectTextureDesc(musaTextureDesc *pTexDesc,
                                            musaTextureObject_t texObject) {
  MUSA_BACKEND_HOOK(musaGetTextureObjectTextureDesc, pTexDesc, texObject);
  return apiCall([&] {
    return describe(texObject, false, pTexDesc, &Slot::texture);
  });
}

musaError_t musaGetTextureObjectResourceViewDesc(musaResourceViewDesc *pResViewDesc,
                                                 musaTextureObject_t texObject) {
  MUSA_BACKEND_HOOK(musaGetTextureObjectResourceViewDesc, pResViewDesc, texObject);
  return apiCall([&] {
    return describe(texObject, false, pResViewDesc, &Slot::view);
  });
}

musaError_t musaCreateSurfaceObject(musaSurfaceObject_t *pSurfObject,
                                    const musaResourceDesc *pResDesc) {
  MUSA_BACKEND_HOOK(musaCreateSurfaceObject, pSurfObject, pResDesc);
  return apiCall([&] {
    if (!pSurfObject || !pResDesc)
      return musaErrorInvalidValue;
    // Only arrays back surfaces (the H200 accepts one made without musaArraySurfaceLoadStore).
    if (pResDesc->resType != musaResourceTypeArray)
      return musaErrorInvalidValue;
    Slot slot;
    slot.surface = true;
    slot.resource = *pResDesc;
    slot.record.magic = __MUSA_SIM_SURFACE_MAGIC;
    if (musaError_t e = describeResource(*pResDesc, slot))
      return e;
    *pSurfObject = SlotTable::get().add(slot);
    return musaSuccess;
  });
}

musaError_t musaDestroySurfaceObject(musaSurfaceObject_t surfObject) {
  MUSA_BACKEND_HOOK(musaDestroySurfaceObject, surfObject);
  return apiCall([&] {
    SlotTable::get().remove(surfObject);
    return musaSuccess;
  });
}

musaError_t musaGetSurfaceObjectResourceDesc(musaResourceDesc *pResDesc,
                                             musaSurfaceObject_t surfObject) {
  MUSA_BACKEND_HOOK(musaGetSurfaceObjectResourceDesc, pResDesc, surfObject);
  return apiCall([&] {
    return describe(surfObject, true, pResDesc, &Slot::resource);
  });
}

} // extern "C"
