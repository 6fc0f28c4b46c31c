// MUSA arrays: allocation, queries and copies to and from them.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Arrays.h"
#include "MemoryTransfer.h"
#include "Runtime.h"

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
  static ArrayTable &get() {
    static ArrayTable *table = std::make_unique<ArrayTable>().release();
    return *table;
  }
};

musaError_t createArray(musaArray_t *out, const musaChannelFormatDesc *desc, size_t width,
                        size_t height, size_t depth, unsigned flags) {
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
                            char *host, size_t count, musaMemcpyKind kind, bool toArray) {
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
    musaError_t e = toArray ? transferCopy(at, n, host + done, n, n, 1, kind, 0, false)
                            : transferCopy(host + done, n, at, n, n, 1, kind, 0, false);
    if (e)
      return e;
    done += n;
    wOffset = 0;
    ++hOffset;
  }
  return musaSuccess;
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
    if (extent) // CUDA reports 0 for dimensions an array does not have
      *extent = {a->width, a->height == 1 && a->depth == 1 ? 0 : a->height,
                 a->depth == 1 ? 0 : a->depth};
    if (flags)
      *flags = a->flags;
    return musaSuccess;
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

musaError_t musaMemcpy2DToArray(musaArray_t dst, size_t wOffset, size_t hOffset,
                                const void *src, size_t spitch, size_t width, size_t height,
                                enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpy2DToArray, dst, wOffset, hOffset, src, spitch, width, height, kind);
  return apiCall([&] {
    if (!toDeviceKind(kind))
      return musaErrorInvalidMemcpyDirection;
    char *at;
    size_t pitch;
    if (musaError_t e = arrayRegion(dst, wOffset, hOffset, width, height, at, pitch))
      return e;
    return transferCopy(at, pitch, src, spitch, width, height, kind, 0, false);
  });
}

musaError_t musaMemcpy2DFromArray(void *dst, size_t dpitch, musaArray_const_t src,
                                  size_t wOffset, size_t hOffset, size_t width, size_t height,
                                  enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpy2DFromArray, dst, dpitch, src, wOffset, hOffset, width, height, kind);
  return apiCall([&] {
    if (!fromDeviceKind(kind))
      return musaErrorInvalidMemcpyDirection;
    char *at;
    size_t pitch;
    if (musaError_t e = arrayRegion(src, wOffset, hOffset, width, height, at, pitch))
      return e;
    return transferCopy(dst, dpitch, at, pitch, width, height, kind, 0, false);
  });
}

musaError_t musaMemcpyToArray(musaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                              size_t count, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpyToArray, dst, wOffset, hOffset, src, count, kind);
  return apiCall([&] {
    if (!toDeviceKind(kind))
      return musaErrorInvalidMemcpyDirection;
    if (!src)
      return musaErrorInvalidValue;
    return linearArrayCopy(dst, wOffset, hOffset, const_cast<char *>(static_cast<const char *>(src)),
                           count, kind, true);
  });
}

musaError_t musaMemcpyFromArray(void *dst, musaArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t count, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpyFromArray, dst, src, wOffset, hOffset, count, kind);
  return apiCall([&] {
    if (!fromDeviceKind(kind))
      return musaErrorInvalidMemcpyDirection;
    if (!dst)
      return musaErrorInvalidValue;
    return linearArrayCopy(src, wOffset, hOffset, static_cast<char *>(dst), count, kind, false);
  });
}

} // extern "C"
