// The one path every copy and memset takes: validate a rectangular region (rows of `width`
// bytes, `pitch` apart), then enqueue the row operations on a stream.
#pragma once

#include "musa_runtime_api.h"

#include <cstddef>

namespace musa::rt {

class Device;

/// The device one of whose live allocations holds the whole region, or null.
Device *deviceHolding(const void *p, size_t pitch, size_t width, size_t height);

/// Pitched copy. 1D copies are width = count, height = 1. Returns the error hardware gives
/// for bad pointers, pitches, kinds and handles; sync copies wait for completion.
musaError_t transferCopy(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, musaMemcpyKind kind, musaStream_t stream,
                         bool async);

/// Pitched memset of device memory.
musaError_t transferSet(void *dst, size_t pitch, int value, size_t width, size_t height,
                        musaStream_t stream, bool async);

} // namespace musa::rt
