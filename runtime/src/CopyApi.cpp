// Copy and memset entry points: 1D, 2D, 3D (linear memory and arrays), peer, async forms.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Arrays.h"
#include "MemoryTransfer.h"
#include "Runtime.h"

#include <memory>
#include <vector>

using namespace musa::rt;

namespace {

/// One side of a 3D copy resolved to a pitched base address.
struct Side {
  char *base = nullptr;
  size_t pitch = 0, slicePitch = 0;
  std::shared_ptr<musaArray> array;
};

musaError_t resolveSide(musaArray_t arrayHandle, musaPos pos, musaPitchedPtr ptr,
                        const musaExtent &extent, size_t elementSize, Side &side) {
  if (arrayHandle) {
    if (ptr.ptr)
      return musaErrorInvalidValue; // an array and a pointer on the same side
    std::shared_ptr<musaArray> a = resolveArray(arrayHandle);
    if (!a)
      return musaErrorInvalidResourceHandle;
    if (pos.x + extent.width > a->width || pos.y + extent.height > a->height ||
        pos.z + extent.depth > a->depth)
      return musaErrorInvalidValue;
    side.array = a;
    side.pitch = a->pitch;
    side.slicePitch = a->slicePitch();
    side.base = a->data + pos.z * side.slicePitch + pos.y * a->pitch + pos.x * a->elementSize;
    return musaSuccess;
  }
  if (!ptr.ptr)
    return musaErrorInvalidValue;
  if (extent.depth > 1 && ptr.ysize < extent.height + pos.y)
    return musaErrorInvalidValue;
  side.pitch = ptr.pitch;
  side.slicePitch = ptr.pitch * ptr.ysize;
  side.base = static_cast<char *>(ptr.ptr) + pos.z * side.slicePitch + pos.y * ptr.pitch +
              pos.x * elementSize;
  return musaSuccess;
}

} // namespace

musaError_t musa::rt::prepareCopy3D(const musaMemcpy3DParms *p, std::function<void()> &work) {
  work = nullptr;
  if (!p)
    return musaErrorInvalidValue;
  const musaExtent &e = p->extent;
  if (e.width == 0 || e.height == 0 || e.depth == 0)
    return musaSuccess;
  // With an array on either side the extent counts elements, else bytes.
  size_t elementSize = 1;
  std::shared_ptr<musaArray> src = p->srcArray ? resolveArray(p->srcArray) : nullptr;
  std::shared_ptr<musaArray> dst = p->dstArray ? resolveArray(p->dstArray) : nullptr;
  if ((p->srcArray && !src) || (p->dstArray && !dst))
    return musaErrorInvalidResourceHandle;
  if (src && dst && src->elementSize != dst->elementSize)
    return musaErrorInvalidValue;
  if (src || dst)
    elementSize = (src ? src : dst)->elementSize;
  Side s, d;
  if (musaError_t err = resolveSide(p->srcArray, p->srcPos, p->srcPtr, e, elementSize, s))
    return err;
  if (musaError_t err = resolveSide(p->dstArray, p->dstPos, p->dstPtr, e, elementSize, d))
    return err;
  size_t rowBytes = e.width * elementSize;
  if (rowBytes > s.pitch || rowBytes > d.pitch)
    return musaErrorInvalidPitchValue;
  // Validate every slice before any is queued, so a bad slice leaves nothing half done.
  musaMemcpyKind kind = p->kind;
  for (size_t z = 0; z < e.depth; ++z) {
    bool dstDev = kind == musaMemcpyHostToDevice || kind == musaMemcpyDeviceToDevice;
    bool srcDev = kind == musaMemcpyDeviceToHost || kind == musaMemcpyDeviceToDevice;
    if (dstDev && !deviceHolding(d.base + z * d.slicePitch, d.pitch, rowBytes, e.height))
      return musaErrorInvalidValue;
    if (srcDev && !deviceHolding(s.base + z * s.slicePitch, s.pitch, rowBytes, e.height))
      return musaErrorInvalidValue;
  }
  std::vector<std::function<void()>> slices(e.depth);
  for (size_t z = 0; z < e.depth; ++z)
    if (musaError_t err = prepareCopy(d.base + z * d.slicePitch, d.pitch,
                                      s.base + z * s.slicePitch, s.pitch, rowBytes, e.height,
                                      kind, slices[z], z == 0 ? e.depth : 0))
      return err;
  work = [slices = std::move(slices)] {
    for (auto &slice : slices)
      if (slice)
        slice();
  };
  return musaSuccess;
}

namespace {

musaError_t copy3D(const musaMemcpy3DParms *p, musaStream_t stream, bool async) {
  std::function<void()> work;
  if (musaError_t e = prepareCopy3D(p, work))
    return e;
  bool hostWaits = p->kind != musaMemcpyDeviceToDevice &&
                   (p->srcArray || p->dstArray ||
                    hostWaitsForCopy(p->dstPtr.ptr, p->srcPtr.ptr, p->kind));
  return work ? submitWork(std::move(work), stream, async, true, "memcpy", hostWaits)
              : musaSuccess;
}

musaError_t copyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                     musaStream_t stream, bool async) {
  Runtime &rt = Runtime::get();
  Device *dd = rt.device(dstDevice), *sd = rt.device(srcDevice);
  if (!dd || !sd)
    return musaErrorInvalidDevice;
  if (count == 0)
    return musaSuccess;
  if (!dst || !src)
    return musaErrorInvalidValue;
  if (deviceHolding(dst, count, count, 1) != dd || deviceHolding(src, count, count, 1) != sd)
    return musaErrorInvalidValue;
  return transferCopy(dst, count, src, count, count, 1, musaMemcpyDeviceToDevice, stream, async);
}

/// A 3D copy between devices: each side's array or pointer must be on the device it names.
musaError_t copy3DPeer(const musaMemcpy3DPeerParms *p, musaStream_t stream, bool async) {
  if (!p)
    return musaErrorInvalidValue;
  Runtime &rt = Runtime::get();
  Device *dd = rt.device(p->dstDevice), *sd = rt.device(p->srcDevice);
  if (!dd || !sd)
    return musaErrorInvalidDevice;
  auto on = [](Device *d, musaArray_t array, const musaPitchedPtr &ptr) {
    if (array) {
      std::shared_ptr<musaArray> a = resolveArray(array);
      return !a || a->device == d; // a stale handle: copy3D gives its error
    }
    return !ptr.ptr || deviceHolding(ptr.ptr, 1, 1, 1) == d;
  };
  if (!on(dd, p->dstArray, p->dstPtr) || !on(sd, p->srcArray, p->srcPtr))
    return musaErrorInvalidValue;
  musaMemcpy3DParms same{};
  same.srcArray = p->srcArray;
  same.srcPos = p->srcPos;
  same.srcPtr = p->srcPtr;
  same.dstArray = p->dstArray;
  same.dstPos = p->dstPos;
  same.dstPtr = p->dstPtr;
  same.extent = p->extent;
  same.kind = musaMemcpyDeviceToDevice;
  return copy3D(&same, stream, async);
}

musaError_t set3D(musaPitchedPtr p, int value, musaExtent e, musaStream_t stream, bool async) {
  if (e.width == 0 || e.height == 0 || e.depth == 0)
    return musaSuccess;
  if (!p.ptr)
    return musaErrorInvalidValue;
  if (e.depth > 1 && p.ysize < e.height)
    return musaErrorInvalidValue;
  auto *base = static_cast<char *>(p.ptr);
  size_t slice = p.pitch * p.ysize;
  for (size_t z = 0; z < e.depth; ++z)
    if (!deviceHolding(base + z * slice, p.pitch, e.width, e.height))
      return musaErrorInvalidValue;
  for (size_t z = 0; z < e.depth; ++z)
    if (musaError_t err =
            transferSet(base + z * slice, p.pitch, value, e.width, e.height, stream, async))
      return err;
  return musaSuccess;
}

} // namespace

extern "C" {

musaError_t musaMemcpy(void *dst, const void *src, size_t count, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpy, dst, src, count, kind);
  return apiCall([&] { return transferCopy(dst, count, src, count, count, 1, kind, 0, false); });
}

musaError_t musaMemcpyAsync(void *dst, const void *src, size_t count, enum musaMemcpyKind kind,
                            musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpyAsync, dst, src, count, kind, stream);
  return apiCall(
      [&] { return transferCopy(dst, count, src, count, count, 1, kind, stream, true); });
}

musaError_t musaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpy2D, dst, dpitch, src, spitch, width, height, kind);
  return apiCall(
      [&] { return transferCopy(dst, dpitch, src, spitch, width, height, kind, 0, false); });
}

musaError_t musaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum musaMemcpyKind kind,
                              musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpy2DAsync, dst, dpitch, src, spitch, width, height, kind, stream);
  return apiCall(
      [&] { return transferCopy(dst, dpitch, src, spitch, width, height, kind, stream, true); });
}

musaError_t musaMemcpy3D(const struct musaMemcpy3DParms *p) {
  MUSA_BACKEND_HOOK(musaMemcpy3D, p);
  return apiCall([&] { return copy3D(p, 0, false); });
}

musaError_t musaMemcpy3DAsync(const struct musaMemcpy3DParms *p, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpy3DAsync, p, stream);
  return apiCall([&] { return copy3D(p, stream, true); });
}

musaError_t musaMemcpy3DPeer(const struct musaMemcpy3DPeerParms *p) {
  MUSA_BACKEND_HOOK(musaMemcpy3DPeer, p);
  return apiCall([&] { return copy3DPeer(p, 0, false); });
}

musaError_t musaMemcpy3DPeerAsync(const struct musaMemcpy3DPeerParms *p, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpy3DPeerAsync, p, stream);
  return apiCall([&] { return copy3DPeer(p, stream, true); });
}

musaError_t musaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                           size_t count) {
  MUSA_BACKEND_HOOK(musaMemcpyPeer, dst, dstDevice, src, srcDevice, count);
  return apiCall([&] { return copyPeer(dst, dstDevice, src, srcDevice, count, 0, false); });
}

musaError_t musaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice,
                                size_t count, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpyPeerAsync, dst, dstDevice, src, srcDevice, count, stream);
  return apiCall([&] { return copyPeer(dst, dstDevice, src, srcDevice, count, stream, true); });
}

musaError_t musaMemset(void *devPtr, int value, size_t count) {
  MUSA_BACKEND_HOOK(musaMemset, devPtr, value, count);
  return apiCall([&] { return transferSet(devPtr, count, value, count, 1, 0, false); });
}

musaError_t musaMemsetAsync(void *devPtr, int value, size_t count, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemsetAsync, devPtr, value, count, stream);
  return apiCall([&] { return transferSet(devPtr, count, value, count, 1, stream, true); });
}

musaError_t musaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
  MUSA_BACKEND_HOOK(musaMemset2D, devPtr, pitch, value, width, height);
  return apiCall([&] { return transferSet(devPtr, pitch, value, width, height, 0, false); });
}

musaError_t musaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                              size_t height, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemset2DAsync, devPtr, pitch, value, width, height, stream);
  return apiCall([&] { return transferSet(devPtr, pitch, value, width, height, stream, true); });
}

musaError_t musaMemset3D(struct musaPitchedPtr p, int value, struct musaExtent extent) {
  MUSA_BACKEND_HOOK(musaMemset3D, p, value, extent);
  return apiCall([&] { return set3D(p, value, extent, 0, false); });
}

musaError_t musaMemset3DAsync(struct musaPitchedPtr p, int value, struct musaExtent extent,
                              musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemset3DAsync, p, value, extent, stream);
  return apiCall([&] { return set3D(p, value, extent, stream, true); });
}

} // extern "C"
