// Negative cases: allocation, copies, memsets, host registration, managed memory, pointer
// queries and arrays.
#include "NegativeApiCases.h"

#include <cstdint>
#include <cstdlib>

namespace negative {

namespace {
constexpr size_t Huge = SIZE_MAX / 2;
char *at(void *p, size_t offset) { return static_cast<char *>(p) + offset; }
const int BadKinds[] = {5, 7, -1};
const char *const MemsetPitch =
    "musaMemset2D/3D with pitch < width return InvalidPitchValue; CUDA documents only "
    "InvalidValue for cudaMemset2D/3D (cuMemsetD2D* return CUDA_ERROR_INVALID_VALUE), and "
    "MemoryShapesTest expects InvalidPitchValue: to be settled on hardware";
} // namespace

void addMemoryCases() {
  constexpr size_t B = Ctx::Bytes;
  // musaMalloc / musaFree
  NEG(musaMalloc, "nullDevPtr", musaErrorInvalidValue, musaMalloc(nullptr, 16));
  NEG(musaMalloc, "hugeSize", musaErrorOutOfMemory, [&] {
    void *p;
    return musaMalloc(&p, Huge);
  }());
  NEG(musaMalloc, "sizeMax", musaErrorOutOfMemory, [&] {
    void *p;
    return musaMalloc(&p, SIZE_MAX);
  }());
  NEG(musaFree, "stackPointer", musaErrorInvalidValue, musaFree(c.host));
  NEG(musaFree, "pinnedHostPointer", musaErrorInvalidValue, musaFree(c.pinned));
  NEG(musaFree, "doubleFree", musaErrorInvalidValue, musaFree(c.freed));
  NEG(musaFree, "interiorPointer", musaErrorInvalidValue, musaFree(at(c.d, 16)));
  NEGB(musaFree, "heapPointer", musaErrorInvalidValue, {
    void *p = std::malloc(64);
    musaError_t e = musaFree(p);
    std::free(p);
    return e;
  });
  // pinned host memory
  NEG(musaMallocHost, "nullPtr", musaErrorInvalidValue, musaMallocHost(nullptr, 16));
  NEG(musaMallocHost, "hugeSize", musaErrorOutOfMemory, [&] {
    void *p;
    return musaMallocHost(&p, Huge);
  }());
  NEG(musaHostAlloc, "nullPtr", musaErrorInvalidValue, musaHostAlloc(nullptr, 16, 0));
  NEG(musaHostAlloc, "badFlags", musaErrorInvalidValue, [&] {
    void *p;
    return musaHostAlloc(&p, 16, 0x80);
  }());
  NEG(musaHostAlloc, "hugeSize", musaErrorOutOfMemory, [&] {
    void *p;
    return musaHostAlloc(&p, Huge, 0);
  }());
  NEG(musaFreeHost, "stackPointer", musaErrorInvalidValue, musaFreeHost(c.host));
  NEG(musaFreeHost, "devicePointer", musaErrorInvalidValue, musaFreeHost(c.d));
  NEGB(musaFreeHost, "doubleFree", musaErrorInvalidValue, {
    void *p;
    if (musaMallocHost(&p, 16) || musaFreeHost(p))
      return musaErrorUnknown;
    return musaFreeHost(p);
  });
  NEG(musaFreeHost, "interiorPointer", musaErrorInvalidValue, musaFreeHost(at(c.pinned, 8)));

  // musaMemcpy and musaMemcpyAsync
  for (bool async : {false, true}) {
    auto copy = [async](Ctx &c, void *dst, const void *src, size_t n, int kind) {
      return async ? musaMemcpyAsync(dst, src, n, musaMemcpyKind(kind), c.s)
                   : musaMemcpy(dst, src, n, musaMemcpyKind(kind));
    };
    const char *api = async ? "musaMemcpyAsync" : "musaMemcpy";
    add(api, "nullDst_HostToDevice", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, nullptr, c.host, 16, musaMemcpyHostToDevice); });
    add(api, "nullSrc_HostToDevice", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.d, nullptr, 16, musaMemcpyHostToDevice); });
    add(api, "nullDst_DeviceToHost", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, nullptr, c.d, 16, musaMemcpyDeviceToHost); });
    add(api, "nullSrc_DeviceToHost", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.host, nullptr, 16, musaMemcpyDeviceToHost); });
    add(api, "nullDst_DeviceToDevice", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, nullptr, c.d, 16, musaMemcpyDeviceToDevice); });
    add(api, "nullSrc_DeviceToDevice", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.d, nullptr, 16, musaMemcpyDeviceToDevice); });
    add(api, "nullDst_Default", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, nullptr, c.d, 16, musaMemcpyDefault); });
    add(api, "nullSrc_Default", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.d, nullptr, 16, musaMemcpyDefault); });
    for (int kind : BadKinds)
      add(api, "badKind" + std::to_string(kind), musaErrorInvalidMemcpyDirection,
          [=](Ctx &c) { return copy(c, c.d, c.host, 16, kind); });
    add(api, "countBeyondDst_HostToDevice", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, at(c.d, B - 8), c.host, 16, musaMemcpyHostToDevice); });
    add(api, "countBeyondSrc_DeviceToHost", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.host, at(c.d, B - 8), 16, musaMemcpyDeviceToHost); });
    add(api, "countBeyondDst_DeviceToDevice", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, at(c.d, 8), c.d, B, musaMemcpyDeviceToDevice); });
    add(api, "countBeyondSrc_DeviceToDevice", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.d, at(c.d, 8), B, musaMemcpyDeviceToDevice); });
    add(api, "countBeyond_Default", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.d, c.host, 2 * B, musaMemcpyDefault); });
    add(api, "freedDst_HostToDevice", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.freed, c.host, 16, musaMemcpyHostToDevice); });
    add(api, "freedSrc_DeviceToHost", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.host, c.freed, 16, musaMemcpyDeviceToHost); });
    add(api, "freedDst_DeviceToDevice", musaErrorInvalidValue,
        [=](Ctx &c) { return copy(c, c.freed, c.d, 16, musaMemcpyDeviceToDevice); });
  }
  NEG(musaMemcpyAsync, "destroyedStream", musaErrorInvalidResourceHandle,
      musaMemcpyAsync(c.d, c.host, 16, musaMemcpyHostToDevice, c.deadStream));
  NEG(musaMemcpyAsync, "foreignStream", musaErrorInvalidResourceHandle,
      musaMemcpyAsync(c.d, c.host, 16, musaMemcpyHostToDevice, foreign<musaStream_t>()));

  // musaMemset and musaMemsetAsync
  for (bool async : {false, true}) {
    auto set = [async](Ctx &c, void *p, size_t n) {
      return async ? musaMemsetAsync(p, 0, n, c.s) : musaMemset(p, 0, n);
    };
    const char *api = async ? "musaMemsetAsync" : "musaMemset";
    add(api, "nullDevPtr", musaErrorInvalidValue, [=](Ctx &c) { return set(c, nullptr, 16); });
    add(api, "freedDevPtr", musaErrorInvalidValue, [=](Ctx &c) { return set(c, c.freed, 16); });
    add(api, "countBeyondAllocation", musaErrorInvalidValue,
        [=](Ctx &c) { return set(c, c.d, B + 1); });
    add(api, "offsetCountBeyondAllocation", musaErrorInvalidValue,
        [=](Ctx &c) { return set(c, at(c.d, B - 4), 8); });
    add(api, "pageableHostPointer", musaErrorInvalidValue,
        [=](Ctx &c) { return set(c, c.host, 16); });
  }
  NEG(musaMemsetAsync, "destroyedStream", musaErrorInvalidResourceHandle,
      musaMemsetAsync(c.d, 0, 16, c.deadStream));
  NEG(musaMemsetAsync, "foreignStream", musaErrorInvalidResourceHandle,
      musaMemsetAsync(c.d, 0, 16, foreign<musaStream_t>()));

  // pitched and 3D allocation
  NEG(musaMallocPitch, "nullDevPtr", musaErrorInvalidValue, [&] {
    size_t pitch;
    return musaMallocPitch(nullptr, &pitch, 16, 16);
  }());
  NEG(musaMallocPitch, "nullPitch", musaErrorInvalidValue, [&] {
    void *p;
    return musaMallocPitch(&p, nullptr, 16, 16);
  }());
  NEG(musaMallocPitch, "hugeSize", musaErrorOutOfMemory, [&] {
    void *p;
    size_t pitch;
    return musaMallocPitch(&p, &pitch, size_t(1) << 30, size_t(1) << 30);
  }());
  NEG(musaMalloc3D, "nullPitchedPtr", musaErrorInvalidValue,
      musaMalloc3D(nullptr, make_musaExtent(16, 16, 16)));
  NEG(musaMalloc3D, "hugeExtent", musaErrorOutOfMemory, [&] {
    musaPitchedPtr p;
    return musaMalloc3D(&p, make_musaExtent(size_t(1) << 20, size_t(1) << 20, size_t(1) << 20));
  }());

  // 2D copies and memsets
  for (bool async : {false, true}) {
    auto copy2d = [async](Ctx &c, void *dst, size_t dpitch, const void *src, size_t spitch,
                          size_t w, size_t h, int kind) {
      return async ? musaMemcpy2DAsync(dst, dpitch, src, spitch, w, h, musaMemcpyKind(kind), c.s)
                   : musaMemcpy2D(dst, dpitch, src, spitch, w, h, musaMemcpyKind(kind));
    };
    const char *api = async ? "musaMemcpy2DAsync" : "musaMemcpy2D";
    add(api, "dpitchBelowWidth", musaErrorInvalidPitchValue, [=](Ctx &c) {
      return copy2d(c, c.d, 8, c.host, 16, 16, 4, musaMemcpyHostToDevice);
    });
    add(api, "spitchBelowWidth", musaErrorInvalidPitchValue, [=](Ctx &c) {
      return copy2d(c, c.d, 16, c.host, 8, 16, 4, musaMemcpyHostToDevice);
    });
    add(api, "nullDst", musaErrorInvalidValue, [=](Ctx &c) {
      return copy2d(c, nullptr, 16, c.host, 16, 16, 4, musaMemcpyHostToDevice);
    });
    add(api, "nullSrc", musaErrorInvalidValue, [=](Ctx &c) {
      return copy2d(c, c.d, 16, nullptr, 16, 16, 4, musaMemcpyHostToDevice);
    });
    for (int kind : BadKinds)
      add(api, "badKind" + std::to_string(kind), musaErrorInvalidMemcpyDirection,
          [=](Ctx &c) { return copy2d(c, c.d, 16, c.host, 16, 16, 4, kind); });
    add(api, "heightBeyondAllocation", musaErrorInvalidValue, [=](Ctx &c) {
      return copy2d(c, c.d, 64, c.host, 16, 16, 8, musaMemcpyHostToDevice);
    });
    auto set2d = [async](Ctx &c, void *p, size_t pitch, size_t w, size_t h) {
      return async ? musaMemset2DAsync(p, pitch, 0, w, h, c.s) : musaMemset2D(p, pitch, 0, w, h);
    };
    const char *setApi = async ? "musaMemset2DAsync" : "musaMemset2D";
    add(setApi, "pitchBelowWidth", musaErrorInvalidValue,
        [=](Ctx &c) { return set2d(c, c.d, 8, 16, 4); })
        .divergence = MemsetPitch;
    add(setApi, "nullDevPtr", musaErrorInvalidValue,
        [=](Ctx &c) { return set2d(c, nullptr, 16, 16, 4); });
    add(setApi, "freedDevPtr", musaErrorInvalidValue,
        [=](Ctx &c) { return set2d(c, c.freed, 16, 16, 4); });
    add(setApi, "heightBeyondAllocation", musaErrorInvalidValue,
        [=](Ctx &c) { return set2d(c, c.d, 64, 16, 8); });
    auto set3d = [async](Ctx &c, musaPitchedPtr p, musaExtent e) {
      return async ? musaMemset3DAsync(p, 0, e, c.s) : musaMemset3D(p, 0, e);
    };
    const char *set3Api = async ? "musaMemset3DAsync" : "musaMemset3D";
    add(set3Api, "nullDevPtr", musaErrorInvalidValue, [=](Ctx &c) {
      return set3d(c, make_musaPitchedPtr(nullptr, 16, 16, 4), make_musaExtent(16, 4, 1));
    });
    add(set3Api, "pitchBelowWidth", musaErrorInvalidValue, [=](Ctx &c) {
      return set3d(c, make_musaPitchedPtr(c.d, 8, 8, 4), make_musaExtent(16, 4, 1));
    }).divergence = MemsetPitch;
    add(set3Api, "beyondAllocation", musaErrorInvalidValue, [=](Ctx &c) {
      return set3d(c, make_musaPitchedPtr(c.d, 64, 64, 4), make_musaExtent(64, 4, 2));
    });
    auto copy3d = [async](Ctx &c, const musaMemcpy3DParms *p) {
      return async ? musaMemcpy3DAsync(p, c.s) : musaMemcpy3D(p);
    };
    const char *copy3Api = async ? "musaMemcpy3DAsync" : "musaMemcpy3D";
    add(copy3Api, "nullParams", musaErrorInvalidValue,
        [=](Ctx &c) { return copy3d(c, nullptr); });
    add(copy3Api, "srcArrayAndSrcPtr", musaErrorInvalidValue, [=](Ctx &c) {
      musaMemcpy3DParms p = {};
      p.srcArray = c.array;
      p.srcPtr = make_musaPitchedPtr(c.host, 64, 16, 4);
      p.dstPtr = make_musaPitchedPtr(c.d, 64, 16, 4);
      p.extent = make_musaExtent(16, 4, 1);
      p.kind = musaMemcpyDefault;
      return copy3d(c, &p);
    });
    add(copy3Api, "noSource", musaErrorInvalidValue, [=](Ctx &c) {
      musaMemcpy3DParms p = {};
      p.dstPtr = make_musaPitchedPtr(c.d, 64, 16, 4);
      p.extent = make_musaExtent(16, 4, 1);
      p.kind = musaMemcpyDefault;
      return copy3d(c, &p);
    });
    add(copy3Api, "badKind", musaErrorInvalidMemcpyDirection, [=](Ctx &c) {
      musaMemcpy3DParms p = {};
      p.srcPtr = make_musaPitchedPtr(c.host, 64, 16, 4);
      p.dstPtr = make_musaPitchedPtr(c.d, 64, 16, 4);
      p.extent = make_musaExtent(16, 4, 1);
      p.kind = musaMemcpyKind(7);
      return copy3d(c, &p);
    });
    add(copy3Api, "dstPitchBelowWidth", musaErrorInvalidPitchValue, [=](Ctx &c) {
      musaMemcpy3DParms p = {};
      p.srcPtr = make_musaPitchedPtr(c.host, 64, 16, 4);
      p.dstPtr = make_musaPitchedPtr(c.d, 8, 8, 4);
      p.extent = make_musaExtent(16, 4, 1);
      p.kind = musaMemcpyHostToDevice;
      return copy3d(c, &p);
    });
  }
  NEG(musaMemcpy2DAsync, "destroyedStream", musaErrorInvalidResourceHandle,
      musaMemcpy2DAsync(c.d, 16, c.host, 16, 16, 4, musaMemcpyHostToDevice, c.deadStream));
  NEG(musaMemset2DAsync, "destroyedStream", musaErrorInvalidResourceHandle,
      musaMemset2DAsync(c.d, 16, 0, 16, 4, c.deadStream));
  NEG(musaMemset3DAsync, "destroyedStream", musaErrorInvalidResourceHandle,
      musaMemset3DAsync(make_musaPitchedPtr(c.d, 16, 16, 4), 0, make_musaExtent(16, 4, 1),
                        c.deadStream));
  NEGB(musaMemcpy3DAsync, "destroyedStream", musaErrorInvalidResourceHandle, {
    musaMemcpy3DParms p = {};
    p.srcPtr = make_musaPitchedPtr(c.host, 64, 16, 4);
    p.dstPtr = make_musaPitchedPtr(c.d, 64, 16, 4);
    p.extent = make_musaExtent(16, 4, 1);
    p.kind = musaMemcpyHostToDevice;
    return musaMemcpy3DAsync(&p, c.deadStream);
  });
  NEG(musaMemcpyPeer, "nullDst", musaErrorInvalidValue, musaMemcpyPeer(nullptr, 0, c.d, 0, 16));
  NEG(musaMemcpyPeer, "nullSrc", musaErrorInvalidValue, musaMemcpyPeer(c.d, 0, nullptr, 0, 16));
  NEG(musaMemcpyPeer, "countBeyondAllocation", musaErrorInvalidValue,
      musaMemcpyPeer(c.d, 0, c.d, 0, 2 * B));
  NEG(musaMemcpyPeerAsync, "destroyedStream", musaErrorInvalidResourceHandle,
      musaMemcpyPeerAsync(c.d, 0, c.d, 0, 16, c.deadStream));
  NEG(musaMemcpyPeerAsync, "nullDst", musaErrorInvalidValue,
      musaMemcpyPeerAsync(nullptr, 0, c.d, 0, 16, c.s));

  // managed memory
  NEG(musaMallocManaged, "nullDevPtr", musaErrorInvalidValue,
      musaMallocManaged(nullptr, 16, musaMemAttachGlobal));
  // Zero bytes: CUDA's documentation says InvalidValue, but CUDA 13 on an H200 returns success
  // (tests/hardware/runtime_corner_cases.h200.txt), so it is no negative case.
  for (unsigned flags : {0u, 0x8u, 0x3u})
    NEG(musaMallocManaged, "badFlags" + std::to_string(flags), musaErrorInvalidValue, [&] {
      void *p;
      return musaMallocManaged(&p, 16, flags);
    }());
  NEG(musaMallocManaged, "hugeSize", musaErrorOutOfMemory, [&] {
    void *p;
    return musaMallocManaged(&p, Huge, musaMemAttachGlobal);
  }());
  NEG(musaMemPrefetchAsync, "nullPtr", musaErrorInvalidValue,
      musaMemPrefetchAsync(nullptr, 16, 0, c.s));
  NEG(musaMemPrefetchAsync, "countBeyondAllocation", musaErrorInvalidValue,
      musaMemPrefetchAsync(c.managed, 2 * B, 0, c.s));
  NEG(musaMemPrefetchAsync, "destroyedStream", musaErrorInvalidResourceHandle,
      musaMemPrefetchAsync(c.managed, B, 0, c.deadStream));
  NEG(musaMemPrefetchAsync, "pageableHostPointer", musaErrorInvalidValue,
      musaMemPrefetchAsync(c.host, B, 0, c.s));
  for (int advice : {0, 7, 99, -1})
    NEG(musaMemAdvise, "badAdvice" + std::to_string(advice), musaErrorInvalidValue,
        musaMemAdvise(c.managed, B, musaMemoryAdvise(advice), 0));
  NEG(musaMemAdvise, "nullPtr", musaErrorInvalidValue,
      musaMemAdvise(nullptr, 16, musaMemAdviseSetReadMostly, 0));
  NEG(musaMemAdvise, "countBeyondAllocation", musaErrorInvalidValue,
      musaMemAdvise(c.managed, 2 * B, musaMemAdviseSetReadMostly, 0));
  NEG(musaMemAdvise, "pageableHostPointer", musaErrorInvalidValue,
      musaMemAdvise(c.host, B, musaMemAdviseSetReadMostly, 0));

  // host registration
  NEG(musaHostRegister, "nullPtr", musaErrorInvalidValue, musaHostRegister(nullptr, 64, 0));
  NEG(musaHostRegister, "zeroSize", musaErrorInvalidValue, musaHostRegister(c.host, 0, 0));
  NEG(musaHostRegister, "badFlags", musaErrorInvalidValue, musaHostRegister(c.host, 64, 0x80));
  NEGB(musaHostRegister, "alreadyRegistered", musaErrorHostMemoryAlreadyRegistered, {
    if (musaHostRegister(c.host, 64, 0))
      return musaErrorUnknown;
    char *host = c.host;
    c.cleanups.push_back([host] { musaHostUnregister(host); });
    return musaHostRegister(c.host, 64, 0);
  });
  NEGB(musaHostRegister, "overlapsRegistered", musaErrorHostMemoryAlreadyRegistered, {
    if (musaHostRegister(c.host, 64, 0))
      return musaErrorUnknown;
    char *host = c.host;
    c.cleanups.push_back([host] { musaHostUnregister(host); });
    return musaHostRegister(c.host + 32, 64, 0);
  });
  NEG(musaHostRegister, "pinnedMemory", musaErrorHostMemoryAlreadyRegistered,
      musaHostRegister(c.pinned, 64, 0));
  NEG(musaHostUnregister, "notRegistered", musaErrorHostMemoryNotRegistered,
      musaHostUnregister(c.host));
  NEG(musaHostUnregister, "nullPtr", musaErrorInvalidValue, musaHostUnregister(nullptr));
  NEGB(musaHostUnregister, "twice", musaErrorHostMemoryNotRegistered, {
    if (musaHostRegister(c.host, 64, 0) || musaHostUnregister(c.host))
      return musaErrorUnknown;
    return musaHostUnregister(c.host);
  });
  NEG(musaHostUnregister, "devicePointer", musaErrorHostMemoryNotRegistered,
      musaHostUnregister(c.d));
  NEG(musaMemHostUnregister, "notRegistered", musaErrorHostMemoryNotRegistered,
      musaMemHostUnregister(c.host));
  NEG(musaMemHostUnregister, "nullPtr", musaErrorInvalidValue, musaMemHostUnregister(nullptr));
  NEG(musaHostGetDevicePointer, "nullDevPtr", musaErrorInvalidValue,
      musaHostGetDevicePointer(nullptr, c.pinned, 0));
  NEG(musaHostGetDevicePointer, "notRegistered", musaErrorInvalidValue, [&] {
    void *p;
    return musaHostGetDevicePointer(&p, c.host, 0);
  }());
  NEG(musaHostGetDevicePointer, "nonZeroFlags", musaErrorInvalidValue, [&] {
    void *p;
    return musaHostGetDevicePointer(&p, c.pinned, 1);
  }());
  NEG(musaHostGetDevicePointer, "nullHostPtr", musaErrorInvalidValue, [&] {
    void *p;
    return musaHostGetDevicePointer(&p, nullptr, 0);
  }());
  NEG(musaHostGetFlags, "nullFlags", musaErrorInvalidValue, musaHostGetFlags(nullptr, c.pinned));
  NEG(musaHostGetFlags, "notRegistered", musaErrorInvalidValue, [&] {
    unsigned f;
    return musaHostGetFlags(&f, c.host);
  }());
  NEG(musaHostGetFlags, "devicePointer", musaErrorInvalidValue, [&] {
    unsigned f;
    return musaHostGetFlags(&f, c.d);
  }());

  // pointer queries
  NEG(musaPointerGetAttributes, "nullAttributes", musaErrorInvalidValue,
      musaPointerGetAttributes(nullptr, c.d));
  NEG(musaPointerGetAttribute, "nullData", musaErrorInvalidValue,
      musaPointerGetAttribute(nullptr, MUSA_POINTER_ATTRIBUTE_MEMORY_TYPE, c.d));
  for (int attr : {0, 99})
    NEG(musaPointerGetAttribute, "badAttribute" + std::to_string(attr), musaErrorInvalidValue,
        [&] {
          unsigned long long v;
          return musaPointerGetAttribute(&v, musaPointer_attribute(attr), c.d);
        }());
  NEG(musaPointerGetMemoryType, "nullType", musaErrorInvalidValue,
      musaPointerGetMemoryType(nullptr, c.d));
  NEG(musaPointerGetDevice, "nullDevice", musaErrorInvalidValue,
      musaPointerGetDevice(nullptr, c.d));

  // arrays
  NEG(musaMallocArray, "nullArray", musaErrorInvalidValue, [&] {
    musaChannelFormatDesc desc = musaCreateChannelDesc<float>();
    return musaMallocArray(nullptr, &desc, 16, 16);
  }());
  NEG(musaMallocArray, "nullDesc", musaErrorInvalidValue, [&] {
    musaArray_t a;
    return musaMallocArray(&a, nullptr, 16, 16);
  }());
  // cudaMallocArray documents InvalidValue (and MemoryAllocation) only.
  NEG(musaMallocArray, "badChannelBits", musaErrorInvalidValue, [&] {
    musaArray_t a;
    musaChannelFormatDesc desc = {3, 0, 0, 0, musaChannelFormatKindFloat};
    return musaMallocArray(&a, &desc, 16, 16);
  }());
  NEG(musaMallocArray, "badChannelKind", musaErrorInvalidValue, [&] {
    musaArray_t a;
    musaChannelFormatDesc desc = {32, 0, 0, 0, musaChannelFormatKind(9)};
    return musaMallocArray(&a, &desc, 16, 16);
  }());
  NEG(musaMallocArray, "zeroWidth", musaErrorInvalidValue, [&] {
    musaArray_t a;
    musaChannelFormatDesc desc = musaCreateChannelDesc<float>();
    return musaMallocArray(&a, &desc, 0, 16);
  }());
  NEG(musaMalloc3DArray, "nullArray", musaErrorInvalidValue, [&] {
    musaChannelFormatDesc desc = musaCreateChannelDesc<float>();
    return musaMalloc3DArray(nullptr, &desc, make_musaExtent(8, 8, 8));
  }());
  NEG(musaMalloc3DArray, "nullDesc", musaErrorInvalidValue, [&] {
    musaArray_t a;
    return musaMalloc3DArray(&a, nullptr, make_musaExtent(8, 8, 8));
  }());
  NEG(musaFreeArray, "freedArray", musaErrorInvalidResourceHandle, musaFreeArray(c.deadArray));
  NEG(musaFreeArray, "foreignArray", musaErrorInvalidResourceHandle,
      musaFreeArray(foreign<musaArray_t>()));
  NEG(musaArrayGetInfo, "freedArray", musaErrorInvalidResourceHandle, [&] {
    musaChannelFormatDesc desc;
    musaExtent e;
    unsigned f;
    return musaArrayGetInfo(&desc, &e, &f, c.deadArray);
  }());
  NEG(musaMemcpy2DToArray, "freedArray", musaErrorInvalidResourceHandle,
      musaMemcpy2DToArray(c.deadArray, 0, 0, c.host, 64, 64, 2, musaMemcpyHostToDevice));
  NEG(musaMemcpy2DToArray, "nullSrc", musaErrorInvalidValue,
      musaMemcpy2DToArray(c.array, 0, 0, nullptr, 64, 64, 2, musaMemcpyHostToDevice));
  NEG(musaMemcpy2DToArray, "beyondArray", musaErrorInvalidValue,
      musaMemcpy2DToArray(c.array, 8, 0, c.host, 64, 64, 2, musaMemcpyHostToDevice));
  NEG(musaMemcpy2DToArray, "spitchBelowWidth", musaErrorInvalidPitchValue,
      musaMemcpy2DToArray(c.array, 0, 0, c.host, 16, 64, 2, musaMemcpyHostToDevice));
  NEG(musaMemcpy2DFromArray, "freedArray", musaErrorInvalidResourceHandle,
      musaMemcpy2DFromArray(c.host, 64, c.deadArray, 0, 0, 64, 2, musaMemcpyDeviceToHost));
  NEG(musaMemcpy2DFromArray, "nullDst", musaErrorInvalidValue,
      musaMemcpy2DFromArray(nullptr, 64, c.array, 0, 0, 64, 2, musaMemcpyDeviceToHost));
  NEG(musaMemcpy2DFromArray, "dpitchBelowWidth", musaErrorInvalidPitchValue,
      musaMemcpy2DFromArray(c.host, 16, c.array, 0, 0, 64, 2, musaMemcpyDeviceToHost));
  NEG(musaMemcpyToArray, "freedArray", musaErrorInvalidResourceHandle,
      musaMemcpyToArray(c.deadArray, 0, 0, c.host, 64, musaMemcpyHostToDevice));
  NEG(musaMemcpyToArray, "nullSrc", musaErrorInvalidValue,
      musaMemcpyToArray(c.array, 0, 0, nullptr, 64, musaMemcpyHostToDevice));
  NEG(musaMemcpyFromArray, "freedArray", musaErrorInvalidResourceHandle,
      musaMemcpyFromArray(c.host, c.deadArray, 0, 0, 64, musaMemcpyDeviceToHost));
  NEG(musaMemcpyFromArray, "nullDst", musaErrorInvalidValue,
      musaMemcpyFromArray(nullptr, c.array, 0, 0, 64, musaMemcpyDeviceToHost));
  NEG(musaMemcpy2DArrayToArray, "freedSrc", musaErrorInvalidResourceHandle,
      musaMemcpy2DArrayToArray(c.array, 0, 0, c.deadArray, 0, 0, 64, 2));
  NEG(musaMemcpy2DArrayToArray, "beyondDst", musaErrorInvalidValue,
      musaMemcpy2DArrayToArray(c.array, 8, 0, c.array, 0, 0, 64, 2));
  NEG(musaMemcpy2DArrayToArray, "hostToDevice", musaErrorInvalidMemcpyDirection,
      musaMemcpy2DArrayToArray(c.array, 0, 0, c.array, 0, 0, 64, 2, musaMemcpyHostToDevice));
  NEG(musaMemcpyArrayToArray, "freedDst", musaErrorInvalidResourceHandle,
      musaMemcpyArrayToArray(c.deadArray, 0, 0, c.array, 0, 0, 64));
  NEG(musaMemcpyArrayToArray, "beyondSrc", musaErrorInvalidValue,
      musaMemcpyArrayToArray(c.array, 0, 0, c.array, 0, 0, size_t(1) << 30));
  NEG(musaMallocMipmappedArray, "nullDesc", musaErrorInvalidValue, [&] {
    musaMipmappedArray_t m;
    return musaMallocMipmappedArray(&m, nullptr, make_musaExtent(8, 8, 0), 4);
  }());
  NEG(musaGetMipmappedArrayLevel, "foreignChain", musaErrorInvalidResourceHandle, [&] {
    musaArray_t level;
    return musaGetMipmappedArrayLevel(&level, foreign<musaMipmappedArray_t>(), 0);
  }());
  NEG(musaFreeMipmappedArray, "foreignChain", musaErrorInvalidResourceHandle,
      musaFreeMipmappedArray(foreign<musaMipmappedArray_t>()));
  NEG(musaMemcpy3DPeer, "nullParams", musaErrorInvalidValue, musaMemcpy3DPeer(nullptr));
  NEG(musaMemcpy3DPeer, "badDevice", musaErrorInvalidDevice, [&] {
    musaMemcpy3DPeerParms p = {};
    p.srcArray = c.array;
    p.dstArray = c.array;
    p.dstDevice = 99;
    p.extent = make_musaExtent(16, 1, 1);
    return musaMemcpy3DPeer(&p);
  }());

  // __device__ variables: none are registered here, so any address is an unknown symbol.
  NEG(musaMemcpyToSymbol, "unknownSymbol", musaErrorInvalidSymbol,
      musaMemcpyToSymbol(static_cast<const void *>(c.host + 8), c.host, 4, 0,
                         musaMemcpyHostToDevice));
  NEG(musaMemcpyToSymbol, "nullSymbol", musaErrorInvalidSymbol,
      musaMemcpyToSymbol(static_cast<const void *>(nullptr), c.host, 4, 0,
                         musaMemcpyHostToDevice));
  NEG(musaMemcpyToSymbolAsync, "unknownSymbol", musaErrorInvalidSymbol,
      musaMemcpyToSymbolAsync(static_cast<const void *>(c.host + 8), c.host, 4, 0,
                              musaMemcpyHostToDevice, c.s));
  NEG(musaMemcpyFromSymbol, "unknownSymbol", musaErrorInvalidSymbol,
      musaMemcpyFromSymbol(c.host, static_cast<const void *>(c.host + 8), 4, 0,
                           musaMemcpyDeviceToHost));
  NEG(musaMemcpyFromSymbol, "nullSymbol", musaErrorInvalidSymbol,
      musaMemcpyFromSymbol(c.host, static_cast<const void *>(nullptr), 4, 0,
                           musaMemcpyDeviceToHost));
  NEG(musaMemcpyFromSymbolAsync, "unknownSymbol", musaErrorInvalidSymbol,
      musaMemcpyFromSymbolAsync(c.host, static_cast<const void *>(c.host + 8), 4, 0,
                                musaMemcpyDeviceToHost, c.s));
  NEG(musaGetSymbolAddress, "unknownSymbol", musaErrorInvalidSymbol, [&] {
    void *p;
    return musaGetSymbolAddress(&p, static_cast<const void *>(c.host + 8));
  }());
  NEG(musaGetSymbolAddress, "deviceAllocation", musaErrorInvalidSymbol, [&] {
    void *p;
    return musaGetSymbolAddress(&p, static_cast<const void *>(c.d));
  }());
  NEG(musaGetSymbolSize, "unknownSymbol", musaErrorInvalidSymbol, [&] {
    size_t n;
    return musaGetSymbolSize(&n, static_cast<const void *>(c.host + 8));
  }());
  NEG(musaGetSymbolSize, "nullSymbol", musaErrorInvalidSymbol, [&] {
    size_t n;
    return musaGetSymbolSize(&n, static_cast<const void *>(nullptr));
  }());
}

} // namespace negative
