// The one path every copy and memset takes: validate a rectangular region (rows of `width`
// bytes, `pitch` apart), then enqueue the row operations on a stream. The work touches memory
// fault-guarded, as kernels do: memory freed after validation (a graph node's buffer freed
// before the launch, a musaFreeAsync or musaDeviceReset racing the copy) ends the operation
// with the device's sticky musaErrorIllegalAddress and a message naming it, not a crash.
#pragma once

#include "musa_runtime_api.h"

#include <cstddef>
#include <functional>
#include <string>

namespace musa::rt {

class Device;

/// The device one of whose live allocations holds the whole region, or null.
/// The device whose live allocation wholly holds the rows at `p`, or null. Memory kernels took
/// from the device heap (malloc in device code) is no allocation copies may name (the H100
/// refuses musaMemcpy from it with musaErrorInvalidValue) but memsets may (`heapToo`: the H100
/// sets it; tests/hardware/probes/limits_rounding.h100.txt).
Device *deviceHolding(const void *p, size_t pitch, size_t width, size_t height,
                      bool heapToo = false);

/// Validates a pitched copy and returns the work that performs it (null work for nothing to
/// do), without enqueueing it: graphs run such work as nodes. In simulated time the work
/// costs one copy of `slices` times its bytes and rows (a 3D copy is one operation: its first
/// slice stands for all, the others pass 0 and cost nothing).
musaError_t prepareCopy(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                        size_t height, musaMemcpyKind kind, std::function<void()> &work,
                        size_t slices = 1);
/// Validates a pitched memset of `elementSize`-byte elements (1, 2 or 4; `width` counts
/// elements) and returns its work.
musaError_t prepareSet(void *dst, size_t pitch, unsigned value, size_t elementSize, size_t width,
                       size_t height, std::function<void()> &work);

/// Validates a 3D copy (linear memory or arrays) and returns its work.
musaError_t prepareCopy3D(const musaMemcpy3DParms *p, std::function<void()> &work);

/// While alive on the calling thread, names the graph node whose copy or memset runs there:
/// a fault in it is reported as the node's.
class TransferNodeScope {
public:
  explicit TransferNodeScope(const std::string &label);
  ~TransferNodeScope();
  TransferNodeScope(const TransferNodeScope &) = delete;
  TransferNodeScope &operator=(const TransferNodeScope &) = delete;

private:
  const std::string *outer_;
};

/// Whether a synchronous copy holds the host until it ends: not from device memory to device
/// memory (CUDA performs no host-side synchronisation there; the simulator still waits for
/// the bytes, which nothing can tell apart, but the host goes on at once in simulated time).
bool hostWaitsForCopy(const void *dst, const void *src, musaMemcpyKind kind);

/// Enqueues prepared work on a stream (waiting for it unless `async`), or records it as a
/// node of `type` labelled `label` if the stream captures (synchronous calls are refused
/// there: they would wait for work that does not run). `hostWaits`: a synchronous call's
/// host thread is held until the work ends in simulated time as well.
musaError_t submitWork(std::function<void()> work, musaStream_t stream, bool async,
                       bool isCopy = true, const std::string &label = "memcpy",
                       bool hostWaits = true);

/// Pitched copy. 1D copies are width = count, height = 1. Returns the error hardware gives
/// for bad pointers, pitches, kinds and handles; sync copies wait for completion.
musaError_t transferCopy(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, musaMemcpyKind kind, musaStream_t stream,
                         bool async);

/// The device address of `offset` bytes into __device__/__constant__ variable `symbol`,
/// checked against `count` (SymbolApi.cpp).
musaError_t symbolRange(const void *symbol, size_t offset, size_t count, char *&at);
/// The copy direction a copy to (`toSymbol`) or from a symbol may take.
bool symbolKindAllowed(musaMemcpyKind kind, bool toSymbol);

/// Pitched memset of device memory.
musaError_t transferSet(void *dst, size_t pitch, int value, size_t width, size_t height,
                        musaStream_t stream, bool async);

} // namespace musa::rt
