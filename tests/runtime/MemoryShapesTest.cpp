// Pitched, 3D, array, managed, registered memory and pointer queries.
#include "musa_runtime.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

TEST(MemoryShapes, PitchedAllocationAnd2DCopiesRoundTrip) {
  const size_t width = 100, height = 7; // bytes per row, rows
  char *d = nullptr;
  size_t pitch = 0;
  ASSERT_EQ(musaMallocPitch(&d, &pitch, width, height), musaSuccess);
  EXPECT_GE(pitch, width);
  EXPECT_EQ(pitch % 512, 0u); // the profile's texture alignment
  std::vector<char> in(width * height), out(width * height, 0);
  std::iota(in.begin(), in.end(), char(1));
  ASSERT_EQ(musaMemcpy2D(d, pitch, in.data(), width, width, height, musaMemcpyHostToDevice),
            musaSuccess);
  ASSERT_EQ(musaMemset2D(d + 10, pitch, 0x55, 5, height), musaSuccess);
  ASSERT_EQ(musaMemcpy2D(out.data(), width, d, pitch, width, height, musaMemcpyDeviceToHost),
            musaSuccess);
  for (size_t r = 0; r < height; ++r)
    for (size_t c = 0; c < width; ++c)
      ASSERT_EQ(out[r * width + c], c >= 10 && c < 15 ? char(0x55) : in[r * width + c]);
  // Width wider than a pitch, and a region running past the allocation, are refused.
  EXPECT_EQ(musaMemcpy2D(d, pitch, in.data(), 50, width, height, musaMemcpyHostToDevice),
            musaErrorInvalidPitchValue);
  EXPECT_EQ(musaMemcpy2D(d, pitch, in.data(), width, width, height + 1, musaMemcpyHostToDevice),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemset2D(d, pitch, 0, pitch + 1, 2), musaErrorInvalidPitchValue);
  EXPECT_EQ(musaFree(d), musaSuccess);
  musaGetLastError();
}

TEST(MemoryShapes, ThreeDimensionalCopyAndMemset) {
  const size_t w = 24, h = 5, depth = 3; // bytes, rows, slices
  musaPitchedPtr p;
  ASSERT_EQ(musaMalloc3D(&p, make_musaExtent(w, h, depth)), musaSuccess);
  EXPECT_GE(p.pitch, w);
  EXPECT_EQ(p.xsize, w);
  EXPECT_EQ(p.ysize, h);
  std::vector<char> in(w * h * depth), out(w * h * depth, 0);
  std::iota(in.begin(), in.end(), char(3));
  musaMemcpy3DParms up = {};
  up.srcPtr = make_musaPitchedPtr(in.data(), w, w, h);
  up.dstPtr = p;
  up.extent = make_musaExtent(w, h, depth);
  up.kind = musaMemcpyHostToDevice;
  ASSERT_EQ(musaMemcpy3D(&up), musaSuccess);
  ASSERT_EQ(musaMemset3D(p, 0, make_musaExtent(4, h, 1)), musaSuccess); // first slice, 4 bytes
  musaMemcpy3DParms down = {};
  down.srcPtr = p;
  down.dstPtr = make_musaPitchedPtr(out.data(), w, w, h);
  down.extent = up.extent;
  down.kind = musaMemcpyDeviceToHost;
  ASSERT_EQ(musaMemcpy3D(&down), musaSuccess);
  for (size_t z = 0; z < depth; ++z)
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x) {
        size_t i = (z * h + y) * w + x;
        ASSERT_EQ(out[i], z == 0 && x < 4 ? 0 : in[i]) << z << "," << y << "," << x;
      }
  musaMemcpy3DParms bad = up;
  bad.extent.depth = depth + 1;
  EXPECT_EQ(musaMemcpy3D(&bad), musaErrorInvalidValue);
  EXPECT_EQ(musaMemcpy3D(nullptr), musaErrorInvalidValue);
  EXPECT_EQ(musaFree(p.ptr), musaSuccess);
  musaGetLastError();
}

TEST(MemoryShapes, ArraysHoldElementsAndRefuseBadUse) {
  musaChannelFormatDesc desc = musaCreateChannelDesc(32, 0, 0, 0, musaChannelFormatKindFloat);
  EXPECT_EQ(desc.x, 32);
  musaChannelFormatDesc same = musaCreateChannelDesc<float>();
  EXPECT_EQ(same.f, musaChannelFormatKindFloat);
  musaArray_t a;
  ASSERT_EQ(musaMallocArray(&a, &desc, 16, 4, 0), musaSuccess);
  std::vector<float> in(64), out(64, 0);
  std::iota(in.begin(), in.end(), 0.5f);
  ASSERT_EQ(musaMemcpy2DToArray(a, 0, 0, in.data(), 16 * sizeof(float), 16 * sizeof(float), 4,
                                musaMemcpyHostToDevice),
            musaSuccess);
  ASSERT_EQ(musaMemcpy2DFromArray(out.data(), 16 * sizeof(float), a, 0, 0, 16 * sizeof(float),
                                  4, musaMemcpyDeviceToHost),
            musaSuccess);
  EXPECT_EQ(in, out);
  float tail[20];
  ASSERT_EQ(musaMemcpyFromArray(tail, a, 8 * sizeof(float), 1, sizeof tail,
                                musaMemcpyDeviceToHost),
            musaSuccess);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(tail[i], in[size_t(24 + i)]);
  musaChannelFormatDesc got;
  musaExtent extent;
  unsigned flags = 7;
  ASSERT_EQ(musaArrayGetInfo(&got, &extent, &flags, a), musaSuccess);
  EXPECT_EQ(extent.width, 16u);
  EXPECT_EQ(extent.height, 4u);
  EXPECT_EQ(extent.depth, 0u);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(musaMemcpy2DToArray(a, 0, 3, in.data(), 64, 64, 2, musaMemcpyHostToDevice),
            musaErrorInvalidValue); // rows past the end
  EXPECT_EQ(musaMemcpy2DToArray(a, 0, 0, in.data(), 64, 64, 1, musaMemcpyDeviceToHost),
            musaErrorInvalidMemcpyDirection);
  musaChannelFormatDesc odd = musaCreateChannelDesc(12, 0, 0, 0, musaChannelFormatKindSigned);
  musaArray_t b;
  EXPECT_EQ(musaMallocArray(&b, &odd, 4, 4, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaMallocArray(&b, &desc, 0, 4, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaMallocArray(nullptr, &desc, 4, 4, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaFreeArray(a), musaSuccess);
  EXPECT_EQ(musaFreeArray(a), musaErrorInvalidResourceHandle);
  EXPECT_EQ(musaArrayGetInfo(&got, &extent, &flags, a), musaErrorInvalidResourceHandle);
  musaGetLastError();
}

TEST(MemoryShapes, ThreeDimensionalArrayThroughMemcpy3D) {
  musaChannelFormatDesc desc = musaCreateChannelDesc<int>();
  musaArray_t a;
  ASSERT_EQ(musaMalloc3DArray(&a, &desc, make_musaExtent(8, 3, 2), 0), musaSuccess);
  std::vector<int> in(48), out(48, 0);
  std::iota(in.begin(), in.end(), 100);
  musaMemcpy3DParms up = {};
  up.srcPtr = make_musaPitchedPtr(in.data(), 8 * sizeof(int), 8, 3);
  up.dstArray = a;
  up.extent = make_musaExtent(8, 3, 2); // elements when an array is involved
  up.kind = musaMemcpyHostToDevice;
  ASSERT_EQ(musaMemcpy3D(&up), musaSuccess);
  musaMemcpy3DParms down = {};
  down.srcArray = a;
  down.dstPtr = make_musaPitchedPtr(out.data(), 8 * sizeof(int), 8, 3);
  down.extent = up.extent;
  down.kind = musaMemcpyDeviceToHost;
  ASSERT_EQ(musaMemcpy3D(&down), musaSuccess);
  EXPECT_EQ(in, out);
  EXPECT_EQ(musaFreeArray(a), musaSuccess);
}

TEST(MemoryShapes, ManagedMemoryIsUsableFromTheHost) {
  int *m = nullptr;
  ASSERT_EQ(musaMallocManaged(&m, 1024 * sizeof(int)), musaSuccess);
  for (int i = 0; i < 1024; ++i)
    m[i] = i;
  ASSERT_EQ(musaMemPrefetchAsync(m, 1024 * sizeof(int), 0, 0), musaSuccess);
  ASSERT_EQ(musaMemAdvise(m, 4096, musaMemAdviseSetPreferredLocation, 0), musaSuccess);
  ASSERT_EQ(musaDeviceSynchronize(), musaSuccess);
  EXPECT_EQ(m[1023], 1023);
  int *single = nullptr;
  EXPECT_EQ(musaMallocManaged(&single, 64, musaMemAttachSingle), musaSuccess);
  EXPECT_EQ(musaMallocManaged(&single, 64, 0x10), musaErrorInvalidValue);
  int *none = single;
  EXPECT_EQ(musaMallocManaged(&none, 0), musaSuccess);
  EXPECT_EQ(none, nullptr);
  int *plain;
  ASSERT_EQ(musaMalloc(&plain, 64), musaSuccess);
  EXPECT_EQ(musaMemPrefetchAsync(plain, 64, 0, 0), musaErrorInvalidValue); // not managed
  EXPECT_EQ(musaMemPrefetchAsync(m, 8, 9, 0), musaErrorInvalidDevice);
  EXPECT_EQ(musaMemAdvise(m, 8, musaMemoryAdvise(99), 0), musaErrorInvalidValue);
  EXPECT_EQ(musaMemPrefetchAsync(m, 1024 * sizeof(int) + 1, 0, 0), musaErrorInvalidValue);
  musaMemoryType type;
  EXPECT_EQ(musaPointerGetMemoryType(&type, m + 5), musaSuccess);
  EXPECT_EQ(type, musaMemoryTypeManaged);
  musaFree(m);
  musaFree(single);
  musaFree(plain);
  musaGetLastError();
}

// musaMemRangeGetAttribute(s) read back advice and prefetches page by page: a value when every
// page of the range agrees, musaInvalidDeviceId (or 0, for read-mostly) when they do not.
TEST(MemoryShapes, ManagedRangeAttributesReadBackAdvicePerPage) {
  const size_t page = 4096, bytes = 8 * page;
  char *m = nullptr;
  ASSERT_EQ(musaMallocManaged(&m, bytes), musaSuccess);
  auto attribute = [&](musaMemRangeAttribute which, size_t offset, size_t count) {
    int value = 12345;
    EXPECT_EQ(musaMemRangeGetAttribute(&value, 4, which, m + offset, count), musaSuccess);
    return value;
  };
  // Nothing advised yet.
  EXPECT_EQ(attribute(musaMemRangeAttributeReadMostly, 0, bytes), 0);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocation, 0, bytes), musaInvalidDeviceId);
  EXPECT_EQ(attribute(musaMemRangeAttributeLastPrefetchLocation, 0, bytes), musaInvalidDeviceId);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocationType, 0, bytes),
            musaMemLocationTypeInvalid);
  // Read-mostly on the first two pages (a range inside a page advises the whole page).
  ASSERT_EQ(musaMemAdvise(m + 10, page + 20, musaMemAdviseSetReadMostly, 0), musaSuccess);
  EXPECT_EQ(attribute(musaMemRangeAttributeReadMostly, 0, 2 * page), 1);
  EXPECT_EQ(attribute(musaMemRangeAttributeReadMostly, 0, 3 * page), 0);
  // Preferred location: the device on pages 0-3, the host on 4-7.
  ASSERT_EQ(musaMemAdvise(m, 4 * page, musaMemAdviseSetPreferredLocation, 0), musaSuccess);
  ASSERT_EQ(musaMemAdvise(m + 4 * page, 4 * page, musaMemAdviseSetPreferredLocation,
                          musaCpuDeviceId),
            musaSuccess);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocation, page, 2 * page), 0);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocationType, 0, page),
            musaMemLocationTypeDevice);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocationId, 0, page), 0);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocation, 5 * page, page), musaCpuDeviceId);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocationType, 5 * page, page),
            musaMemLocationTypeHost);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocation, 0, bytes), musaInvalidDeviceId);
  ASSERT_EQ(musaMemAdvise(m, page, musaMemAdviseUnsetPreferredLocation, 0), musaSuccess);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocation, 0, page), musaInvalidDeviceId);
  EXPECT_EQ(attribute(musaMemRangeAttributePreferredLocation, page, page), 0);
  // Accessed-by: the devices set on every page of the range, the rest of the list invalid.
  ASSERT_EQ(musaMemAdvise(m, bytes, musaMemAdviseSetAccessedBy, 0), musaSuccess);
  ASSERT_EQ(musaMemAdvise(m, page, musaMemAdviseSetAccessedBy, musaCpuDeviceId), musaSuccess);
  int ids[3] = {7, 7, 7};
  ASSERT_EQ(musaMemRangeGetAttribute(ids, sizeof ids, musaMemRangeAttributeAccessedBy, m, page),
            musaSuccess);
  EXPECT_EQ(ids[0], musaCpuDeviceId);
  EXPECT_EQ(ids[1], 0);
  EXPECT_EQ(ids[2], musaInvalidDeviceId);
  ASSERT_EQ(musaMemRangeGetAttribute(ids, sizeof ids, musaMemRangeAttributeAccessedBy, m, bytes),
            musaSuccess);
  EXPECT_EQ(ids[0], 0);
  EXPECT_EQ(ids[1], musaInvalidDeviceId);
  // The last prefetch asked for, per page.
  ASSERT_EQ(musaMemPrefetchAsync(m, 2 * page, 0, 0), musaSuccess);
  ASSERT_EQ(musaMemPrefetchAsync(m + page, page, musaCpuDeviceId, 0), musaSuccess);
  EXPECT_EQ(attribute(musaMemRangeAttributeLastPrefetchLocation, 0, page), 0);
  EXPECT_EQ(attribute(musaMemRangeAttributeLastPrefetchLocation, page, page), musaCpuDeviceId);
  EXPECT_EQ(attribute(musaMemRangeAttributeLastPrefetchLocation, 0, 2 * page), musaInvalidDeviceId);
  EXPECT_EQ(attribute(musaMemRangeAttributeLastPrefetchLocationType, page, page),
            musaMemLocationTypeHost);
  // Several at once.
  int mostly = -1, preferred = -1;
  void *data[] = {&mostly, &preferred};
  size_t sizes[] = {4, 4};
  musaMemRangeAttribute which[] = {musaMemRangeAttributeReadMostly,
                                   musaMemRangeAttributePreferredLocation};
  ASSERT_EQ(musaMemRangeGetAttributes(data, sizes, which, 2, m + page, page), musaSuccess);
  EXPECT_EQ(mostly, 1);
  EXPECT_EQ(preferred, 0);
  // Bad input.
  int value = 0;
  EXPECT_EQ(musaMemRangeGetAttribute(&value, 8, musaMemRangeAttributeReadMostly, m, page),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemRangeGetAttribute(&value, 6, musaMemRangeAttributeAccessedBy, m, page),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemRangeGetAttribute(nullptr, 4, musaMemRangeAttributeReadMostly, m, page),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttribute(42), m, page),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttributeReadMostly, m, bytes + 1),
            musaErrorInvalidValue);
  EXPECT_EQ(musaMemRangeGetAttributes(data, sizes, which, 0, m, page), musaErrorInvalidValue);
  int *plain = nullptr;
  ASSERT_EQ(musaMalloc(&plain, 64), musaSuccess);
  EXPECT_EQ(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttributeReadMostly, plain, 64),
            musaErrorInvalidValue);
  // Freed memory forgets its advice: a new allocation starts from none.
  ASSERT_EQ(musaFree(m), musaSuccess);
  EXPECT_EQ(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttributeReadMostly, m, page),
            musaErrorInvalidValue);
  char *again = nullptr;
  ASSERT_EQ(musaMallocManaged(&again, bytes), musaSuccess);
  ASSERT_EQ(musaMemRangeGetAttribute(&value, 4, musaMemRangeAttributeReadMostly, again, page),
            musaSuccess);
  EXPECT_EQ(value, 0);
  musaFree(again);
  musaFree(plain);
  musaGetLastError();
}

TEST(MemoryShapes, RegisteredAndMappedHostMemory) {
  std::vector<char> buffer(8192);
  ASSERT_EQ(musaHostRegister(buffer.data(), buffer.size(), musaHostRegisterMapped), musaSuccess);
  EXPECT_EQ(musaHostRegister(buffer.data() + 100, 10, 0), musaErrorHostMemoryAlreadyRegistered);
  void *dev = nullptr;
  ASSERT_EQ(musaHostGetDevicePointer(&dev, buffer.data(), 0), musaSuccess);
  EXPECT_EQ(dev, buffer.data());
  musaPointerAttributes attr;
  ASSERT_EQ(musaPointerGetAttributes(&attr, buffer.data() + 10), musaSuccess);
  EXPECT_EQ(attr.type, musaMemoryTypeHost);
  EXPECT_EQ(musaMemHostUnregister(buffer.data()), musaSuccess);
  EXPECT_EQ(musaHostUnregister(buffer.data()), musaErrorHostMemoryNotRegistered);
  EXPECT_EQ(musaHostGetDevicePointer(&dev, buffer.data(), 0), musaErrorInvalidValue);
  EXPECT_EQ(musaHostRegister(nullptr, 10, 0), musaErrorInvalidValue);
  EXPECT_EQ(musaHostRegister(buffer.data(), 10, 0x100), musaErrorInvalidValue);
  musaGetLastError();
}

TEST(MemoryShapes, PointerQueriesDescribeEachKindOfMemory) {
  char *d;
  ASSERT_EQ(musaMalloc(&d, 1000), musaSuccess);
  musaPointerAttributes attr;
  ASSERT_EQ(musaPointerGetAttributes(&attr, d + 10), musaSuccess);
  EXPECT_EQ(attr.type, musaMemoryTypeDevice);
  EXPECT_EQ(attr.device, 0);
  EXPECT_EQ(attr.devicePointer, d + 10);
  EXPECT_EQ(attr.hostPointer, nullptr);
  int device = -1;
  EXPECT_EQ(musaPointerGetDevice(&device, d), musaSuccess);
  EXPECT_EQ(device, 0);
  void *start = nullptr;
  size_t size = 0;
  EXPECT_EQ(musaPointerGetAttribute(&start, MUSA_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 999),
            musaSuccess);
  EXPECT_EQ(start, d);
  EXPECT_EQ(musaPointerGetAttribute(&size, MUSA_POINTER_ATTRIBUTE_RANGE_SIZE, d), musaSuccess);
  EXPECT_EQ(size, 1000u);
  unsigned type = 0;
  EXPECT_EQ(musaPointerGetAttribute(&type, MUSA_POINTER_ATTRIBUTE_MEMORY_TYPE, d), musaSuccess);
  EXPECT_EQ(type, unsigned(musaMemoryTypeDevice));
  int stackVar;
  ASSERT_EQ(musaPointerGetAttributes(&attr, &stackVar), musaSuccess);
  EXPECT_EQ(attr.type, musaMemoryTypeUnregistered);
  EXPECT_EQ(musaPointerGetDevice(&device, &stackVar), musaErrorInvalidValue);
  EXPECT_EQ(musaPointerGetAttribute(&type, MUSA_POINTER_ATTRIBUTE_MEMORY_TYPE, &stackVar),
            musaErrorInvalidValue);
  ASSERT_EQ(musaPointerGetAttributes(&attr, &stackVar), musaSuccess);
  EXPECT_EQ(attr.device, musaInvalidDeviceId);
  EXPECT_EQ(attr.devicePointer, nullptr);
  EXPECT_EQ(attr.hostPointer, &stackVar);
  EXPECT_EQ(musaPointerGetAttributes(&attr, nullptr), musaSuccess);
  EXPECT_EQ(attr.type, musaMemoryTypeUnregistered);
  EXPECT_EQ(musaPointerGetAttributes(nullptr, d), musaErrorInvalidValue);
  musaFree(d);
  ASSERT_EQ(musaPointerGetAttributes(&attr, d), musaSuccess);
  EXPECT_EQ(attr.type, musaMemoryTypeUnregistered); // freed
  musaGetLastError();
}

TEST(MemoryShapes, PeerCopiesBetweenTwoDevices) {
  int count = 0;
  ASSERT_EQ(musaGetDeviceCount(&count), musaSuccess);
  ASSERT_EQ(count, 2);
  int can = -1;
  EXPECT_EQ(musaDeviceCanAccessPeer(&can, 0, 1), musaSuccess);
  EXPECT_EQ(can, 1);
  EXPECT_EQ(musaDeviceCanAccessPeer(&can, 0, 0), musaSuccess);
  EXPECT_EQ(can, 0);
  int attr = -1;
  EXPECT_EQ(musaDeviceGetP2PAttribute(&attr, musaDevP2PAttrAccessSupported, 0, 1), musaSuccess);
  EXPECT_EQ(attr, 1);
  EXPECT_EQ(musaDeviceGetP2PAttribute(&attr, musaDevP2PAttrPerformanceRank, 1, 0), musaSuccess);
  EXPECT_EQ(attr, 0);
  EXPECT_EQ(musaDeviceGetP2PAttribute(&attr, musaDevP2PAttrNativeAtomicSupported, 0, 0),
            musaErrorInvalidDevice);
  EXPECT_EQ(musaDeviceGetP2PAttribute(&attr, musaDevP2PAttrAccessSupported, 0, 7),
            musaErrorInvalidDevice);
  EXPECT_EQ(musaDeviceGetP2PAttribute(nullptr, musaDevP2PAttrAccessSupported, 0, 1),
            musaErrorInvalidValue);
  EXPECT_EQ(musaDeviceFlushGPUDirectRDMAWrites(musaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                               musaFlushGPUDirectRDMAWritesToOwner),
            musaSuccess);
  EXPECT_EQ(musaDeviceFlushGPUDirectRDMAWrites(musaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                               musaFlushGPUDirectRDMAWritesScope(5)),
            musaErrorInvalidValue);
  int *a, *b;
  ASSERT_EQ(musaSetDevice(0), musaSuccess);
  ASSERT_EQ(musaMalloc(&a, 400), musaSuccess);
  ASSERT_EQ(musaSetDevice(1), musaSuccess);
  ASSERT_EQ(musaMalloc(&b, 400), musaSuccess);
  int device = -1;
  EXPECT_EQ(musaPointerGetDevice(&device, b), musaSuccess);
  EXPECT_EQ(device, 1);
  EXPECT_EQ(musaDeviceEnablePeerAccess(0, 0), musaSuccess);
  EXPECT_EQ(musaDeviceEnablePeerAccess(0, 0), musaErrorPeerAccessAlreadyEnabled);
  EXPECT_EQ(musaDeviceEnablePeerAccess(1, 0), musaErrorInvalidDevice);
  EXPECT_EQ(musaDeviceDisablePeerAccess(0), musaSuccess);
  EXPECT_EQ(musaDeviceDisablePeerAccess(0), musaErrorPeerAccessNotEnabled);
  std::vector<int> in(100), out(100, 0);
  std::iota(in.begin(), in.end(), 7);
  ASSERT_EQ(musaMemcpy(a, in.data(), 400, musaMemcpyHostToDevice), musaSuccess);
  ASSERT_EQ(musaMemcpyPeer(b, 1, a, 0, 400), musaSuccess);
  ASSERT_EQ(musaMemcpyPeerAsync(a, 0, b, 1, 200, 0), musaSuccess);
  ASSERT_EQ(musaMemcpy(out.data(), b, 400, musaMemcpyDefault), musaSuccess);
  EXPECT_EQ(in, out);
  EXPECT_EQ(musaMemcpyPeer(b, 0, a, 0, 400), musaErrorInvalidValue); // b is not on device 0
  EXPECT_EQ(musaMemcpyPeer(b, 5, a, 0, 400), musaErrorInvalidDevice);
  musaFree(b);
  ASSERT_EQ(musaSetDevice(0), musaSuccess);
  musaFree(a);
  musaGetLastError();
}

TEST(MemoryShapes, ArrayCopiesOnAStream) {
  musaChannelFormatDesc desc = musaCreateChannelDesc<float>();
  musaArray_t a;
  ASSERT_EQ(musaMallocArray(&a, &desc, 16, 4, 0), musaSuccess);
  musaStream_t s;
  ASSERT_EQ(musaStreamCreate(&s), musaSuccess);
  std::vector<float> in(64), row(16, -1.0f), out(64, 0), tail(20, 0);
  std::iota(in.begin(), in.end(), 0.5f);
  ASSERT_EQ(musaMemcpy2DToArrayAsync(a, 0, 0, in.data(), 16 * sizeof(float), 16 * sizeof(float),
                                     4, musaMemcpyHostToDevice, s),
            musaSuccess);
  // In stream order: row 2 overwritten after the whole array was written.
  ASSERT_EQ(musaMemcpyToArrayAsync(a, 0, 2, row.data(), 16 * sizeof(float),
                                   musaMemcpyHostToDevice, s),
            musaSuccess);
  ASSERT_EQ(musaMemcpy2DFromArrayAsync(out.data(), 16 * sizeof(float), a, 0, 0,
                                       16 * sizeof(float), 4, musaMemcpyDeviceToHost, s),
            musaSuccess);
  ASSERT_EQ(musaMemcpyFromArrayAsync(tail.data(), a, 8 * sizeof(float), 1, 20 * sizeof(float),
                                     musaMemcpyDeviceToHost, s),
            musaSuccess);
  ASSERT_EQ(musaStreamSynchronize(s), musaSuccess);
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(out[size_t(i)], i / 16 == 2 ? -1.0f : in[size_t(i)]) << i;
  for (int i = 0; i < 20; ++i) // row 1 from column 8, then row 2 (overwritten)
    EXPECT_EQ(tail[size_t(i)], i < 8 ? in[size_t(24 + i)] : -1.0f) << i;
  EXPECT_EQ(musaMemcpy2DToArrayAsync(a, 0, 3, in.data(), 64, 64, 2, musaMemcpyHostToDevice, s),
            musaErrorInvalidValue); // rows past the end
  EXPECT_EQ(musaMemcpyFromArrayAsync(out.data(), a, 0, 0, 16, musaMemcpyHostToDevice, s),
            musaErrorInvalidMemcpyDirection);
  musaGetLastError();
  EXPECT_EQ(musaStreamDestroy(s), musaSuccess);
  EXPECT_EQ(musaFreeArray(a), musaSuccess);
}
