// Batches (CUDA 12.8 and 13): many copies, prefetches or discards in one call. The batch as a
// whole runs in stream order; within it there is no order (here they run in the order given).
// Each copy is the runtime's own copy, so its checks, routes and timing are the same; a copy
// whose source is read "during the API call" (musaMemcpySrcAccessOrderDuringApiCall, for
// sources on the caller's stack) is staged before the call returns. Discards give whole pages
// of managed memory back to the host in stream order.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "Runtime.h"

#include <cstdlib>
#include <cstring>
#include <vector>

using namespace musa::rt;

namespace {

bool legacyStream(musaStream_t s) {
  return (s == nullptr && !Runtime::perThreadDefault()) || s == musaStreamLegacy;
}

/// attrsIdxs / prefetchLocIdxs: the first 0, each above the one before, the last below
/// `count`, and no more entries than operations.
bool validIndices(const size_t *idxs, size_t n, size_t count) {
  if (!idxs || n == 0 || n > count || idxs[0] != 0)
    return false;
  for (size_t i = 1; i < n; ++i)
    if (idxs[i] <= idxs[i - 1])
      return false;
  return idxs[n - 1] < count;
}

/// Which entry of an index array applies to operation `op`.
size_t entryFor(const size_t *idxs, size_t n, size_t op) {
  size_t k = 0;
  while (k + 1 < n && idxs[k + 1] <= op)
    ++k;
  return k;
}

bool validOrder(musaMemcpySrcAccessOrder order) {
  return order >= musaMemcpySrcAccessOrderStream && order <= musaMemcpySrcAccessOrderAny;
}

/// Frees what a batch staged once the stream reaches this point.
void MUSART_CB freeStaged(void *data) { std::free(data); }

musaError_t prefetchAll(void **dptrs, size_t *sizes, size_t count, musaMemLocation *locs,
                        size_t *idxs, size_t numLocs, musaStream_t stream) {
  for (size_t i = 0; i < count; ++i)
    if (musaError_t e = musaMemPrefetchAsync_v2(dptrs[i], sizes[i],
                                                locs[entryFor(idxs, numLocs, i)], 0, stream))
      return e;
  return musaSuccess;
}

bool validPrefetches(void **dptrs, size_t *sizes, size_t count, musaMemLocation *locs,
                     size_t *idxs, size_t numLocs, unsigned long long flags,
                     musaStream_t stream) {
  return dptrs && sizes && count && locs && !flags && !legacyStream(stream) &&
         validIndices(idxs, numLocs, count);
}

struct Discard {
  std::vector<std::pair<void *, size_t>> ranges;
};

void MUSART_CB runDiscard(void *data) {
  auto *d = static_cast<Discard *>(data);
  for (auto [p, size] : d->ranges)
    if (Device *device = Runtime::get().deviceOwning(p))
      device->memory().discard(p, size);
  delete d;
}

/// Checks that every range is managed memory and queues the discard of all of them.
musaError_t discardAll(void **dptrs, size_t *sizes, size_t count, musaStream_t stream) {
  auto d = std::make_unique<Discard>();
  for (size_t i = 0; i < count; ++i) {
    auto where = Runtime::get().findDevicePointer(dptrs[i]);
    if (!dptrs[i] || !sizes[i] || !where || where->range.tag != ManagedAllocation ||
        static_cast<char *>(dptrs[i]) + sizes[i] > where->range.base + where->range.size)
      return musaErrorInvalidValue;
    d->ranges.emplace_back(dptrs[i], sizes[i]);
  }
  musaError_t e = musaLaunchHostFunc(stream, runDiscard, d.get());
  if (e == musaSuccess)
    d.release();
  return e;
}

/// One operand of a 3D batch copy as musaMemcpy3D takes it. `elem` is the copy's element
/// size (1 between pointers, else the array's).
void operand(const musaMemcpy3DOperand &o, const musaExtent &extent, size_t elem,
             musaArray_t &array, musaPos &pos, musaPitchedPtr &ptr) {
  if (o.type == musaMemcpyOperandTypeArray) {
    array = o.op.array.array;
    pos = musaPos{o.op.array.offset.x, o.op.array.offset.y, o.op.array.offset.z};
    return;
  }
  size_t row = o.op.ptr.rowLength ? o.op.ptr.rowLength : extent.width;
  size_t layer = o.op.ptr.layerHeight ? o.op.ptr.layerHeight : extent.height;
  ptr = musaPitchedPtr{o.op.ptr.ptr, row * elem, extent.width * elem, layer};
}

size_t elementBytes(musaArray_t a) {
  musaChannelFormatDesc desc{};
  musaExtent extent{};
  unsigned flags = 0;
  if (!a || musaArrayGetInfo(&desc, &extent, &flags, a) != musaSuccess)
    return 0;
  return size_t(desc.x + desc.y + desc.z + desc.w) / 8;
}

} // namespace

extern "C" {

musaError_t musaMemcpyBatchAsync(void *const *dsts, const void *const *srcs, const size_t *sizes,
                                 size_t count, musaMemcpyAttributes *attrs, size_t *attrsIdxs,
                                 size_t numAttrs, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpyBatchAsync, dsts, srcs, sizes, count, attrs, attrsIdxs, numAttrs,
                    stream);
  return apiCall([&] {
    if (!dsts || !srcs || !sizes || !count || !attrs || legacyStream(stream) ||
        !validIndices(attrsIdxs, numAttrs, count))
      return musaErrorInvalidValue;
    for (size_t k = 0; k < numAttrs; ++k)
      if (!validOrder(attrs[k].srcAccessOrder) ||
          (attrs[k].flags & ~unsigned(musaMemcpyFlagPreferOverlapWithCompute)))
        return musaErrorInvalidValue;
    for (size_t i = 0; i < count; ++i)
      if (!dsts[i] || !srcs[i] || !sizes[i])
        return musaErrorInvalidValue;
    // Sources read during the call are staged now, into one buffer freed in stream order.
    size_t staged = 0;
    for (size_t i = 0; i < count; ++i)
      if (attrs[entryFor(attrsIdxs, numAttrs, i)].srcAccessOrder ==
          musaMemcpySrcAccessOrderDuringApiCall)
        staged += sizes[i];
    char *stage = staged ? static_cast<char *>(std::malloc(staged)) : nullptr;
    if (staged && !stage)
      return musaErrorMemoryAllocation;
    size_t at = 0;
    for (size_t i = 0; i < count; ++i) {
      const void *src = srcs[i];
      if (attrs[entryFor(attrsIdxs, numAttrs, i)].srcAccessOrder ==
          musaMemcpySrcAccessOrderDuringApiCall) {
        // Device memory here is host memory the simulator can read at once.
        std::memcpy(stage + at, src, sizes[i]);
        src = stage + at;
        at += sizes[i];
      }
      if (musaError_t e = musaMemcpyAsync(dsts[i], src, sizes[i], musaMemcpyDefault, stream)) {
        if (stage && musaLaunchHostFunc(stream, freeStaged, stage) != musaSuccess)
          std::free(stage);
        return e;
      }
    }
    if (stage)
      if (musaError_t e = musaLaunchHostFunc(stream, freeStaged, stage)) {
        musaStreamSynchronize(stream);
        std::free(stage);
        return e;
      }
    return musaSuccess;
  });
}

musaError_t musaMemcpy3DBatchAsync(size_t numOps, musaMemcpy3DBatchOp *opList,
                                   unsigned long long flags, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpy3DBatchAsync, numOps, opList, flags, stream);
  return apiCall([&] {
    if (!numOps || !opList || flags || legacyStream(stream))
      return musaErrorInvalidValue;
    std::vector<musaMemcpy3DParms> copies(numOps);
    for (size_t i = 0; i < numOps; ++i) {
      const musaMemcpy3DBatchOp &op = opList[i];
      bool srcArray = op.src.type == musaMemcpyOperandTypeArray,
           dstArray = op.dst.type == musaMemcpyOperandTypeArray;
      bool known = (op.src.type == musaMemcpyOperandTypePointer || srcArray) &&
                   (op.dst.type == musaMemcpyOperandTypePointer || dstArray);
      if (!known || !validOrder(op.srcAccessOrder) ||
          (op.flags & ~unsigned(musaMemcpyFlagPreferOverlapWithCompute)) || !op.extent.width ||
          !op.extent.height || !op.extent.depth)
        return musaErrorInvalidValue;
      size_t elem = srcArray ? elementBytes(op.src.op.array.array)
                             : dstArray ? elementBytes(op.dst.op.array.array) : 1;
      if (!elem || (srcArray && dstArray && elementBytes(op.dst.op.array.array) != elem))
        return musaErrorInvalidValue;
      musaMemcpy3DParms &p = copies[i];
      p = musaMemcpy3DParms{};
      operand(op.src, op.extent, elem, p.srcArray, p.srcPos, p.srcPtr);
      operand(op.dst, op.extent, elem, p.dstArray, p.dstPos, p.dstPtr);
      p.extent = op.extent; // elements: bytes between pointers, the array's otherwise
      p.kind = musaMemcpyDefault;
    }
    for (const musaMemcpy3DParms &p : copies)
      if (musaError_t e = musaMemcpy3DAsync(&p, stream))
        return e;
    return musaSuccess;
  });
}

musaError_t musaMemPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                      musaMemLocation *prefetchLocs, size_t *prefetchLocIdxs,
                                      size_t numPrefetchLocs, unsigned long long flags,
                                      musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemPrefetchBatchAsync, dptrs, sizes, count, prefetchLocs,
                    prefetchLocIdxs, numPrefetchLocs, flags, stream);
  return apiCall([&] {
    if (!validPrefetches(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                         flags, stream))
      return musaErrorInvalidValue;
    return prefetchAll(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                       stream);
  });
}

musaError_t musaMemDiscardBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                     unsigned long long flags, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemDiscardBatchAsync, dptrs, sizes, count, flags, stream);
  return apiCall([&] {
    if (!dptrs || !sizes || !count || flags || legacyStream(stream))
      return musaErrorInvalidValue;
    return discardAll(dptrs, sizes, count, stream);
  });
}

musaError_t musaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes, size_t count,
                                                musaMemLocation *prefetchLocs,
                                                size_t *prefetchLocIdxs, size_t numPrefetchLocs,
                                                unsigned long long flags, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemDiscardAndPrefetchBatchAsync, dptrs, sizes, count, prefetchLocs,
                    prefetchLocIdxs, numPrefetchLocs, flags, stream);
  return apiCall([&] {
    if (!validPrefetches(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                         flags, stream))
      return musaErrorInvalidValue;
    if (musaError_t e = discardAll(dptrs, sizes, count, stream))
      return e;
    return prefetchAll(dptrs, sizes, count, prefetchLocs, prefetchLocIdxs, numPrefetchLocs,
                       stream);
  });
}

} // extern "C"
