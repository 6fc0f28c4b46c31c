// __device__ and __constant__ variables: copies to and from them, their address and size.
#include "ApiShell.h"
#include "backend/Backend.h"
#include "FatBinaryRegistry.h"
#include "MemoryTransfer.h"
#include "Runtime.h"

using namespace musa::rt;

musaError_t musa::rt::symbolRange(const void *symbol, size_t offset, size_t count, char *&at) {
  if (!symbol)
    return musaErrorInvalidSymbol;
  void *address = nullptr;
  size_t size = 0;
  if (musaError_t e = FatBinaryRegistry::get().findVariable(symbol, address, size))
    return e;
  Runtime::registerSymbolRange(static_cast<char *>(address), size);
  if (offset > size || count > size - offset)
    return musaErrorInvalidValue;
  at = static_cast<char *>(address) + offset;
  return musaSuccess;
}

bool musa::rt::symbolKindAllowed(musaMemcpyKind kind, bool toSymbol) {
  return kind == (toSymbol ? musaMemcpyHostToDevice : musaMemcpyDeviceToHost) ||
         kind == musaMemcpyDeviceToDevice || kind == musaMemcpyDefault;
}

namespace {

musaError_t toSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                     musaMemcpyKind kind, musaStream_t stream, bool async) {
  if (!symbolKindAllowed(kind, true))
    return musaErrorInvalidMemcpyDirection;
  char *at;
  if (musaError_t e = symbolRange(symbol, offset, count, at))
    return e;
  return transferCopy(at, count, src, count, count, 1, kind, stream, async);
}

musaError_t fromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                       musaMemcpyKind kind, musaStream_t stream, bool async) {
  if (!symbolKindAllowed(kind, false))
    return musaErrorInvalidMemcpyDirection;
  char *at;
  if (musaError_t e = symbolRange(symbol, offset, count, at))
    return e;
  return transferCopy(dst, count, at, count, count, 1, kind, stream, async);
}

} // namespace

extern "C" {

musaError_t musaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset,
                               enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpyToSymbol, symbol, src, count, offset, kind);
  return apiCall([&] { return toSymbol(symbol, src, count, offset, kind, 0, false); });
}

musaError_t musaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                    size_t offset, enum musaMemcpyKind kind,
                                    musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpyToSymbolAsync, symbol, src, count, offset, kind, stream);
  return apiCall([&] { return toSymbol(symbol, src, count, offset, kind, stream, true); });
}

musaError_t musaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset,
                                 enum musaMemcpyKind kind) {
  MUSA_BACKEND_HOOK(musaMemcpyFromSymbol, dst, symbol, count, offset, kind);
  return apiCall([&] { return fromSymbol(dst, symbol, count, offset, kind, 0, false); });
}

musaError_t musaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      enum musaMemcpyKind kind, musaStream_t stream) {
  MUSA_BACKEND_HOOK(musaMemcpyFromSymbolAsync, dst, symbol, count, offset, kind, stream);
  return apiCall([&] { return fromSymbol(dst, symbol, count, offset, kind, stream, true); });
}

musaError_t musaGetSymbolAddress(void **devPtr, const void *symbol) {
  MUSA_BACKEND_HOOK(musaGetSymbolAddress, devPtr, symbol);
  return apiCall([&] {
    if (!devPtr)
      return musaErrorInvalidValue;
    char *at;
    if (musaError_t e = symbolRange(symbol, 0, 0, at))
      return e;
    *devPtr = at;
    return musaSuccess;
  });
}

musaError_t musaGetSymbolSize(size_t *size, const void *symbol) {
  MUSA_BACKEND_HOOK(musaGetSymbolSize, size, symbol);
  return apiCall([&] {
    if (!size)
      return musaErrorInvalidValue;
    if (!symbol)
      return musaErrorInvalidSymbol;
    void *address;
    return FatBinaryRegistry::get().findVariable(symbol, address, *size);
  });
}

} // extern "C"
