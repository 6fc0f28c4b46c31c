// MUSA arrays: allocation, queries and copies to and from them.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Arrays.h"
#include "MemoryTransfer.h"
#include "Runtime.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

using namespace musa::rt;

namespace {

/// Live arrays. Process-wide like every runtime table; guarded by its mutex.
struct ArrayTable {
  std::mutex mutex;
  std::map<const musaArray *, std::shared_ptr<musaArray>> live;
  std::map<const musaMipmappedArray *, std::unique_ptr<musaMipmappedArray>> mipmaps;
  static ArrayTable &get() {
    static ArrayTable *table = std::make_unique<ArrayTable>().release();
    return *table;
  }
};

musaError_t createArray(musaArray_t *out, const musaChannelFormatDesc *desc, size_t width,
                        size_t height, size_t depth, unsigned flags, bool mipmapLevel = false) {
  if (!out || !desc || width == 0)
    return musaErrorInvalidValue;
  // Sizes other than 8/16/32 bits and unknown kinds: InvalidValue, as cudaMallocArray
  // documents; three channels or channels of mixed sizes: what the H200 answers.
  for (int bits : {desc->x, desc->y, desc->z, desc->w})
    if (bits != 0 && bits != 8 && bits != 16 && bits != 32)
      return musaErrorInvalidValue;
  if (desc->f < musaChannelFormatKindSigned || desc->f > musaChannelFormatKindFloat)
    return musaErrorInvalidValue;
  if (!usableChannelFormat(*desc))
    return musaErrorInvalidChannelDescriptor;
  if (flags & ~unsigned(musaArrayLayered | musaArraySurfaceLoadStore | musaArrayCubemap |
                        musaArrayTextureGather))
    return musaErrorInvalidValue;
  Device *device = Runtime::get().currentDevice();
  if (!device)
    return musaErrorNoDevice;
  auto a = std::make_unique<musaArray>();
  a->device = device;
  a->desc = *desc;
  a->elementSize = size_t(desc->x + desc->y + desc->z + desc->w) / 8;
  a->width = width;
  a->height = height ? height : 1;
  a->depth = depth ? depth : 1;
  a->flags = flags;
  a->mipmapLevel = mipmapLevel;
  size_t align = size_t(device->profile().texturePitchAlignment);
  a->pitch = (a->rowBytes() + align - 1) / align * align;
  a->data = static_cast<char *>(
      device->memory().allocate(a->slicePitch() * a->depth, ArrayAllocation));
  if (!a->data)
    return musaErrorOutOfMemory;
  ArrayTable &table = ArrayTable::get();
  std::lock_guard lock(table.mutex);
  *out = a.get();
  table.live[a.get()] = std::move(a);
  return musaSuccess;
}

/// A region of an array addressed by byte column and row, checked against its bounds.
musaError_t arrayRegion(musaArray_const_t handle, size_t wOffset, size_t hOffset, size_t width,
                        size_t height, char *&at, size_t &pitch) {
  std::shared_ptr<musaArray> a = resolveArray(handle);
  if (!a)
    return musaErrorInvalidResourceHandle;
  if (wOffset + width > a->rowBytes() || hOffset + height > a->height * a->depth)
    return musaErrorInvalidValue;
  at = a->data + hOffset * a->pitch + wOffset;
  pitch = a->pitch;
  return musaSuccess;
}

bool toDeviceKind(musaMemcpyKind k) {
  return k == musaMemcpyHostToDevice || k == musaMemcpyDeviceToDevice || k == musaMemcpyDefault;
}
bool fromDeviceKind(musaMemcpyKind k) {
  return k == musaMemcpyDeviceToHost || k == musaMemcpyDeviceToDevice || k == musaMemcpyDefault;
}

/// The deprecated linear forms: `count` bytes from (wOffset, hOffset), row after row.
musaError_t linearArrayCopy(musaArray_const_t handle, size_t wOffset, size_t hOffset,
                            char *host, size_t count, musaMemcpyKind kind, bool toArray,
                            musaStream_t stream = nullptr, bool async = false) {
  std::shared_ptr<musaArray> a = resolveArray(handle);
  if (!a)
    return musaErrorInvalidResourceHandle;
  size_t row = a->rowBytes(), rows = a->height * a->depth;
  if (wOffset >= row || hOffset >= rows || count > (rows - hOffset) * row - wOffset)
    return musaErrorInvalidValue;
  size_t done = 0;
  while (done < count) {
    size_t n = std::min(count - done, row - wOffset);
    char *at = a->data + hOffset * a->pitch + wOffset;
    musaError_t e = toArray ? transferCopy(at, n, host + done, n, n, 1, kind, stream, async)
                            : transferCopy(host + done, n, at, n, n, 1, kind, stream, async);
    if (e)
      return e;
    done += n;
    wOffset = 0;
    ++hOffset;
  }
  return musaSuccess;
}

/// `count` bytes from one array to another, each read or written row after row from its
/// (column, row) position (the deprecated linear form): runs up to the nearer row's end.
musaError_t linearArrayToArray(musaArray_const_t dst, size_t dw, size_t dh, musaArray_const_t src,
                               size_t sw, size_t sh, size_t count) {
  std::shared_ptr<musaArray> d = resolveArray(dst), s = resolveArray(src);
  if (!d || !s)
    return musaErrorInvalidResourceHandle;
  auto room = [](const musaArray &a, size_t w, size_t h) {
    size_t rows = a.height * a.depth;
    return w < a.rowBytes() && h < rows ? (rows - h) * a.rowBytes() - w : 0;
  };
  if (count > room(*d, dw, dh) || count > room(*s, sw, sh))
    return musaErrorInvalidValue;
  while (count) {
    size_t n = std::min({count, d->rowBytes() - dw, s->rowBytes() - sw});
    if (musaError_t e = transferCopy(d->data + dh * d->pitch + dw, n, s->data + sh * s->pitch + sw,
                                     n, n, 1, musaMemcpyDeviceToDevice, 0, false))
      return e;
    count -= n;
    if ((dw += n) == d->rowBytes())
      dw = 0, ++dh;
    if ((sw += n) == s->rowBytes())
      sw = 0, ++sh;
  }
  return musaSuccess;
}

/// The levels a mipmapped array of this extent can have: until every dimension is 1.
unsigned fullChainLevels(size_t width, size_t height, size_t depth) {
  size_t largest = std::max({width, height, depth});
  unsigned levels = 1;
  while (largest >>= 1)
    ++levels;
  return levels;
}

} // namespace

namespace musa::rt {

bool usableChannelFormat(const musaChannelFormatDesc &d) {
  int n = (d.x != 0) + (d.y != 0) + (d.z != 0) + (d.w != 0);
  if (n == 0 || n == 3 || (d.x != 8 && d.x != 16 && d.x != 32))
    return false;
  if ((n >= 2 && d.y != d.x) || (n == 4 && (d.z != d.x || d.w != d.x)))
    return false; // channels in order x, y, z, w, all of one size
  if (d.f == musaChannelFormatKindFloat && d.x == 8)
    return false;
  return d.f >= musaChannelFormatKindSigned && d.f <= musaChannelFormatKindFloat;
}

std::shared_ptr<musaArray> resolveArray(musaArray_const_t handle) {
  ArrayTable &table = ArrayTable::get();
  std::lock_guard lock(table.mutex);
  auto it = table.live.find(handle);
  return it == table.live.end() ? nullptr : it->second;
}

void dropArraysOf(Device *device) {
  ArrayTable &table = ArrayTable::get();
  std::vector<std::shared_ptr<musaArray>> dropped; // freed outside the lock
  std::lock_guard lock(table.mutex);
  std::erase_if(table.live, [&](const auto &entry) {
    if (entry.second->device != device)
      return false;
    dropped.push_back(entry.second);
    return true;
  });
  std::erase_if(table.mipmaps, [&](const auto &entry) { return entry.second->device == device; });
}

std::vector<std::shared_ptr<musaArray>> resolveMipmappedArray(musaMipmappedArray_const_t handle) {
  ArrayTable &table = ArrayTable::get();
  std::lock_guard lock(table.mutex);
  std::vector<std::shared_ptr<musaArray>> levels;
  auto it = table.mipmaps.find(handle);
  if (it == table.mipmaps.end())
    return levels;
  for (musaArray *level : it->second->levels)
    levels.push_back(table.live.at(level));
  return levels;
}

} // namespace musa::rt

extern "C" {

musaChannelFormatDesc musaCreateChannelDesc(int x, int y, int z, int w,
                                            enum musaChannelFormatKind f) {
  return musaChannelFormatDesc{x, y, z, w, f};
}

musaError_t musaMallocArray(musaArray_t *array, const musaChannelFormatDesc *desc, size_t width,
                            size_t height, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaMallocArray, array, desc, width, height, flags);
  return apiCall([&] { return createArray(array, desc, width, height, 1, flags); });
}

musaError_t musaMalloc3DArray(musaArray_t *array, const musaChannelFormatDesc *desc,
                              musaExtent extent, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaMalloc3DArray, array, desc, extent, flags);
  return apiCall([&] {
    return createArray(array, desc, extent.width, extent.height, extent.depth, flags);
  });
}

musaError_t musaFreeArray(musaArray_t handle) {
  MUSA_BACKEND_HOOK(musaFreeArray, handle);
  return apiCall([&] {
    if (!handle)
      return musaSuccess;
    ArrayTable &table = ArrayTable::get();
    std::shared_ptr<musaArray> a;
    {
      std::lock_guard lock(table.mutex);
      auto it = table.live.find(handle);
      if (it == table.live.end())
        return musaErrorInvalidResourceHandle;
      if (it->second->mipmapLevel) // its chain frees it (the H100 answers success too)
        return musaSuccess;
      a = std::move(it->second);
      table.live.erase(it);
    }
    a->device->synchronize();
    a->device->memory().free(a->data);
    return musaSuccess;
  });
}

musaError_t musaArrayGetInfo(musaChannelFormatDesc *desc, musaExtent *extent,
                             unsigned int *flags, musaArray_t handle) {
  MUSA_BACKEND_HOOK(musaArrayGetInfo, desc, extent, flags, handle);
  return apiCall([&] {
    std::shared_ptr<musaArray> a = resolveArray(handle);
    if (!a)
      return musaErrorInvalidResourceHandle;
    if (desc)
      *desc = a->desc;
    // CUDA reports 0 for dimensions an array does not have; a mipmapped array's levels have
    // its dimensions, down to 1 x 1 (the H100: tests/hardware/session18/mipmaps.txt).
    if (extent && a->mipmapLevel)
      *extent = {a->width, a->dimensions >= 2 ? a->height : 0, a->dimensions >= 3 ? a->depth : 0};
    else if (extent)
      *extent = {a->width, a->height == 1 && a->depth == 1 ? 0 : a->height,
                 a->depth == 1 ? 0 : a->depth};
    if (flags)
      *flags = a->flags;
    return musaSuccess;
  });
}

// No array here has a multi-planar format (NV12 and the like): every plane index is
// InvalidValue, as the H100 answers for a float array.
musaError_t musaArrayGetPlane(musaArray_t *pPlaneArray, musaArray_t hArray, unsigned int planeIdx) {
  MUSA_BACKEND_HOOK(musaArrayGetPlane, pPlaneArray, hArray, planeIdx);
  return apiCall([&] {
    if (!pPlaneArray)
      return musaErrorInvalidValue;
    if (!resolveArray(hArray))
      return musaErrorInvalidResourceHandle;
    (void)planeIdx;
    return musaErrorInvalidValue;
  });
}

musaError_t musaGetChannelDesc(musaChannelFormatDesc *desc, musaArray_const_t handle) {
  MUSA_BACKEND_HOOK(musaGetChannelDesc, desc, handle);
  return apiCall([&] {
    if (!desc)
      return musaErrorInvalidValue;
    std::shared_ptr<musaArray> a = resolveArray(handle);
    if (!a)
      return musaErrorInvalidResourceHandle;
    *desc = a->desc;
    return musaSuccess;
  });
}

namespace {
// The array copies, synchronous (stream null, `async` false) or on a stream.
musaError_t toArray2D(musaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                      size_t spitch, size_t width, size_t height, musaMemcpyKind kind,
                      musaStream_t stream, bool async) {
  if (!toDeviceKind(kind))
    return musaErrorInvalidMemcpyDirection;
  char *at;
  size_t pitch;
  if (musaError_t e = arrayRegion(dst, wOffset, hOffset, width, height, at, pitch))
    return e;
  return transferCopy(at, pitch, src, spitch, width, height, kind, stream, async);
}

musaError_t fromArray2D(void *dst, size_t dpitch, musaArray_const_t src, size_t wOffset,
                        size_t hOffset, size_t width, size_t height, musaMemcpyKind kind,
                        musaStream_t stream, bool async) {
  if (!fromDeviceKind(kind))
    return musaErrorInvalidMemcpyDirection;
  char *at;
  size_t pitch;
  if (musaError_t e = arrayRegion(src, wOffset, hOffset, width, height, at, pitch))
    return e;
  return transferCopy(dst, dpitch, at, pitch, width, height, kind, stream, async);
}

musaError_t toArrayLinear(musaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                          size_t count, musaMemcpyKind kind, musaStream_t stream, bool async) {
  if (!toDeviceKind(kind))
    return musaErrorInvalidMemcpyDirection;
  if (!src)
    return musaErrorInvalidValue;
  return linearArrayCopy(dst, wOffset, hOffset, const_cast<char *>(static_cast<const char *>(src)),
                         count, kind, true, stream, async);
}

musaError_t fromArrayLinear(void *dst, musaArray_const_t src, size_t wOffset, size_t hOffset,
                            size_t count, musaMemcpyKind kind, musaStream_t stream, bool async) {
  if (!fromDeviceKind(kind))
    return musaErrorInvalidMemcpyDirection;
  if (!dst)
    return musaErrorInvalidValue;
  return linearArrayCopy(src, wOffset, hOffset, static_cast<char *>(dst), count, kind, false,
                         stream, async);
}
} // namespace

musaError_t musaMemcpy2DToArray(musaArray_t dst, size_t wOffset, size_t hOffset,
                                const void *src, size_t spitch, size_t width, size_t height,
                                enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpy2DToArray, dst, wOffset, hOffset, src, spitch, width, height, kind);
  return apiCall([&] {
    return toArray2D(dst, wOffset, hOffset, src, spitch, width, height, kind, nullptr, false);
  });
}

musaError_t musaMemcpy2DToArrayAsync(musaArray_t dst, size_t wOffset, size_t hOffset,
                                     const void *src, size_t spitch, size_t width, size_t height,
                                     enum musaMemcpyKind kind, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpy2DToArrayAsync, dst, wOffset, hOffset, src, spitch, width, height,
                    kind, stream);
  return apiCall([&] {
    return toArray2D(dst, wOffset, hOffset, src, spitch, width, height, kind, stream, true);
  });
}

musaError_t musaMemcpy2DFromArray(void *dst, size_t dpitch, musaArray_const_t src,
                                  size_t wOffset, size_t hOffset, size_t width, size_t height,
                                  enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpy2DFromArray, dst, dpitch, src, wOffset, hOffset, width, height, kind);
  return apiCall([&] {
    return fromArray2D(dst, dpitch, src, wOffset, hOffset, width, height, kind, nullptr, false);
  });
}

musaError_t musaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, musaArray_const_t src,
                                       size_t wOffset, size_t hOffset, size_t width,
                                       size_t height, enum musaMemcpyKind kind,
                                       musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpy2DFromArrayAsync, dst, dpitch, src, wOffset, hOffset, width, height,
                    kind, stream);
  return apiCall([&] {
    return fromArray2D(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream, true);
  });
}

musaError_t musaMemcpyToArray(musaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpyToArray, dst, wOffset, hOffset, src, count, kind);
  return apiCall([&] { return toArrayLinear(dst, wOffset, hOffset, src, count, kind, nullptr, false); });
}

musaError_t musaMemcpyToArrayAsync(musaArray_t dst, size_t wOffset, size_t hOffset,
                                   const void *src, size_t count, enum musaMemcpyKind kind,
                                   musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpyToArrayAsync, dst, wOffset, hOffset, src, count, kind, stream);
  return apiCall([&] { return toArrayLinear(dst, wOffset, hOffset, src, count, kind, stream, true); });
}

musaError_t musaMemcpyFromArray(void *dst, musaArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t count, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpyFromArray, dst, src, wOffset, hOffset, count, kind);
  return apiCall([&] { return fromArrayLinear(dst, src, wOffset, hOffset, count, kind, nullptr, false); });
}

musaError_t musaMemcpyFromArrayAsync(void *dst, musaArray_const_t src, size_t wOffset,
                                     size_t hOffset, size_t count, enum musaMemcpyKind kind,
                                     musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpyFromArrayAsync, dst, src, wOffset, hOffset, count, kind, stream);
  return apiCall([&] { return fromArrayLinear(dst, src, wOffset, hOffset, count, kind, stream, true); });
}

musaError_t musaMemcpy2DArrayToArray(musaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                     musaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                     size_t width, size_t height, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpy2DArrayToArray, dst, wOffsetDst, hOffsetDst, src, wOffsetSrc,
                    hOffsetSrc, width, height, kind);
  return apiCall([&] {
    if (kind != musaMemcpyDeviceToDevice && kind != musaMemcpyDefault)
      return musaErrorInvalidMemcpyDirection;
    char *to, *from;
    size_t toPitch, fromPitch;
    if (musaError_t e = arrayRegion(dst, wOffsetDst, hOffsetDst, width, height, to, toPitch))
      return e;
    if (musaError_t e = arrayRegion(src, wOffsetSrc, hOffsetSrc, width, height, from, fromPitch))
      return e;
    return transferCopy(to, toPitch, from, fromPitch, width, height, musaMemcpyDeviceToDevice, 0,
                        false);
  });
}

musaError_t musaMemcpyArrayToArray(musaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
                                   musaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc,
                                   size_t count, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpyArrayToArray, dst, wOffsetDst, hOffsetDst, src, wOffsetSrc,
                    hOffsetSrc, count, kind);
  return apiCall([&] {
    if (kind != musaMemcpyDeviceToDevice && kind != musaMemcpyDefault)
      return musaErrorInvalidMemcpyDirection;
    return linearArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count);
  });
}

// numLevels past the full chain is cut to it; 0 is taken as 1 (the H100 answers success for 0;
// how many levels it then makes was not asked).
musaError_t musaMallocMipmappedArray(musaMipmappedArray_t *mipmappedArray,
                                     const musaChannelFormatDesc *desc, musaExtent extent,
                                     unsigned int numLevels, unsigned int flags) {
  MUSA_BACKEND_HOOK(musaMallocMipmappedArray, mipmappedArray, desc, extent, numLevels, flags);
  return apiCall([&] {
    if (!mipmappedArray || !desc || extent.width == 0)
      return musaErrorInvalidValue;
    numLevels = std::max(numLevels, 1u);
    // Layers (and a cubemap's faces) are not a dimension: every level has all of them.
    bool layered = flags & (musaArrayLayered | musaArrayCubemap);
    size_t levelDepth = layered ? 0 : extent.depth;
    numLevels = std::min(numLevels, fullChainLevels(extent.width, extent.height, levelDepth));
    auto chain = std::make_unique<musaMipmappedArray>();
    chain->device = Runtime::get().currentDevice();
    int dimensions = extent.depth ? 3 : extent.height ? 2 : 1;
    musaError_t e = musaSuccess;
    for (unsigned l = 0; l < numLevels && !e; ++l) {
      auto shrink = [l](size_t n) { return n ? std::max<size_t>(1, n >> l) : 0; };
      musaArray_t level = nullptr;
      e = createArray(&level, desc, shrink(extent.width), shrink(extent.height),
                      layered ? extent.depth : shrink(extent.depth), flags, true);
      if (level) {
        level->dimensions = dimensions;
        chain->levels.push_back(level);
      }
    }
    ArrayTable &table = ArrayTable::get();
    std::vector<std::shared_ptr<musaArray>> made; // freed outside the lock on failure
    std::lock_guard lock(table.mutex);
    if (e) {
      for (musaArray *level : chain->levels) {
        made.push_back(std::move(table.live.at(level)));
        table.live.erase(level);
      }
      for (auto &level : made)
        level->device->memory().free(level->data);
      return e;
    }
    *mipmappedArray = chain.get();
    table.mipmaps[chain.get()] = std::move(chain);
    return musaSuccess;
  });
}

musaError_t musaGetMipmappedArrayLevel(musaArray_t *levelArray,
                                       musaMipmappedArray_const_t mipmappedArray,
                                       unsigned int level) {
  MUSA_BACKEND_HOOK(musaGetMipmappedArrayLevel, levelArray, mipmappedArray, level);
  return apiCall([&] {
    if (!levelArray)
      return musaErrorInvalidValue;
    ArrayTable &table = ArrayTable::get();
    std::lock_guard lock(table.mutex);
    auto it = table.mipmaps.find(mipmappedArray);
    if (it == table.mipmaps.end())
      return musaErrorInvalidResourceHandle;
    if (level >= it->second->levels.size())
      return musaErrorInvalidValue;
    *levelArray = it->second->levels[level];
    return musaSuccess;
  });
}

musaError_t musaFreeMipmappedArray(musaMipmappedArray_t mipmappedArray) {
  MUSA_BACKEND_HOOK(musaFreeMipmappedArray, mipmappedArray);
  return apiCall([&] {
    if (!mipmappedArray)
      return musaSuccess;
    ArrayTable &table = ArrayTable::get();
    std::vector<std::shared_ptr<musaArray>> levels;
    {
      std::lock_guard lock(table.mutex);
      auto it = table.mipmaps.find(mipmappedArray);
      if (it == table.mipmaps.end())
        return musaErrorInvalidResourceHandle;
      for (musaArray *level : it->second->levels) {
        levels.push_back(std::move(table.live.at(level)));
        table.live.erase(level);
      }
      table.mipmaps.erase(it);
    }
    for (auto &level : levels) {
      level->device->synchronize();
      level->device->memory().free(level->data);
    }
    return musaSuccess;
  });
}

} // extern "C"
