// What the driver API's source files (libmusa) share: the mapping of runtime errors to MUresult
// and the calling thread's current context, entered before a call does its work.
#pragma once

#include "musa.h"

namespace musa::drv {

MUresult toResult(musaError_t e);
/// The calling thread's current context, its device made the runtime's current device.
MUresult enter(MUctx_st *&ctx);
/// MUSA_ERROR_INVALID_DEVICE unless `dev` names a device (NOT_INITIALIZED before muInit).
MUresult checkDevice(MUdevice dev);
/// Device `dev`'s properties for a query answering into `out` (null: INVALID_VALUE).
MUresult deviceProperties(MUdevice dev, const void *out, musaDeviceProp &prop);

/// A runtime call made in the calling thread's current context: the context's error if it
/// has none (or a destroyed one), else the call's.
template <class Call> MUresult inContext(Call call) {
  MUctx_st *ctx = nullptr;
  if (MUresult r = enter(ctx))
    return r;
  return toResult(call());
}

} // namespace musa::drv
