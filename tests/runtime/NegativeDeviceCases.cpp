// Negative cases: device management, versions, limits, peer access and error names.
#include "NegativeApiCases.h"

#include <climits>
#include <cstring>
#include <vector>

namespace negative {

namespace {
const char *const BadDeviceNames[] = {"minus1", "deviceCount", "1000"};

/// musaGetErrorName/String never fail: a string for any code, known or not.
musaError_t nonNull(const char *text) {
  return text && std::strlen(text) ? musaSuccess : musaErrorInvalidValue;
}
} // namespace

void addDeviceCases() {
  NEG(musaGetDeviceCount, "nullCount", musaErrorInvalidValue, musaGetDeviceCount(nullptr));
  NEG(musaGetDevice, "nullDevice", musaErrorInvalidValue, musaGetDevice(nullptr));
  NEG(musaGetDeviceProperties, "nullProp", musaErrorInvalidValue,
      musaGetDeviceProperties(nullptr, 0));
  NEG(musaDeviceGetAttribute, "nullValue", musaErrorInvalidValue,
      musaDeviceGetAttribute(nullptr, musaDevAttrWarpSize, 0));
  for (int attr : {0, 21, 9999, -1})
    NEG(musaDeviceGetAttribute, "badAttr" + std::to_string(attr), musaErrorInvalidValue,
        [&] {
          int v;
          return musaDeviceGetAttribute(&v, musaDeviceAttr(attr), 0);
        }());
  NEG(musaDeviceGetPCIBusId, "nullBuffer", musaErrorInvalidValue,
      musaDeviceGetPCIBusId(nullptr, 16, 0));
  for (int len : {0, -1})
    NEG(musaDeviceGetPCIBusId, "len" + std::to_string(len), musaErrorInvalidValue, [&] {
      char buf[32];
      return musaDeviceGetPCIBusId(buf, len, 0);
    }());
  NEG(musaDeviceGetByPCIBusId, "nullDevice", musaErrorInvalidValue,
      musaDeviceGetByPCIBusId(nullptr, "0000:00:00.0"));
  NEG(musaDeviceGetByPCIBusId, "nullBusId", musaErrorInvalidValue, [&] {
    int dev;
    return musaDeviceGetByPCIBusId(&dev, nullptr);
  }());
  for (const char *id : {"", "garbage", "zz:zz.z", "0000:00", ":::", "0000:xx:00.0"})
    NEG(musaDeviceGetByPCIBusId, std::string("garbage_") + id, musaErrorInvalidValue, [&] {
      int dev;
      return musaDeviceGetByPCIBusId(&dev, id);
    }());
  NEG(musaDeviceGetByPCIBusId, "noSuchBus", musaErrorInvalidDevice, [&] {
    int dev;
    return musaDeviceGetByPCIBusId(&dev, "0000:fe:1f.7");
  }());
  NEG(musaDeviceGetUuid, "nullUuid", musaErrorInvalidValue, musaDeviceGetUuid(nullptr, 0));
  NEG(musaDeviceCanAccessPeer, "nullResult", musaErrorInvalidValue,
      musaDeviceCanAccessPeer(nullptr, 0, 1));
  NEG(musaDeviceEnablePeerAccess, "self", musaErrorInvalidDevice,
      musaDeviceEnablePeerAccess(0, 0));
  NEG(musaDeviceEnablePeerAccess, "flags1", musaErrorInvalidValue,
      musaDeviceEnablePeerAccess(1, 1));
  NEGB(musaDeviceEnablePeerAccess, "alreadyEnabled", musaErrorPeerAccessAlreadyEnabled, {
    if (musaDeviceEnablePeerAccess(1, 0) != musaSuccess)
      return musaErrorUnknown;
    c.cleanups.push_back([] { musaDeviceDisablePeerAccess(1); });
    return musaDeviceEnablePeerAccess(1, 0);
  });
  NEG(musaDeviceDisablePeerAccess, "notEnabled", musaErrorPeerAccessNotEnabled,
      musaDeviceDisablePeerAccess(1));
  for (unsigned flags : {0x100u, 0x3u, 0x6u, 0xffffffffu})
    NEG(musaSetDeviceFlags, "badFlags" + std::to_string(flags), musaErrorInvalidValue,
        musaSetDeviceFlags(flags));
  NEG(musaGetDeviceFlags, "nullFlags", musaErrorInvalidValue, musaGetDeviceFlags(nullptr));
  NEG(musaSetValidDevices, "negativeLen", musaErrorInvalidValue, [&] {
    int list[1] = {0};
    return musaSetValidDevices(list, -1);
  }());
  NEG(musaSetValidDevices, "nullList", musaErrorInvalidValue, musaSetValidDevices(nullptr, 1));
  NEG(musaSetValidDevices, "longerThanDeviceCount", musaErrorInvalidValue, [&] {
    std::vector<int> list(size_t(c.count) + 1, 0);
    return musaSetValidDevices(list.data(), c.count + 1);
  }());
  NEG(musaDriverGetVersion, "nullVersion", musaErrorInvalidValue, musaDriverGetVersion(nullptr));
  NEG(musaRuntimeGetVersion, "nullVersion", musaErrorInvalidValue,
      musaRuntimeGetVersion(nullptr));
  NEG(musaMemGetInfo, "nullFree", musaErrorInvalidValue, [&] {
    size_t total;
    return musaMemGetInfo(nullptr, &total);
  }());
  NEG(musaMemGetInfo, "nullTotal", musaErrorInvalidValue, [&] {
    size_t free;
    return musaMemGetInfo(&free, nullptr);
  }());
  NEG(musaMemGetInfo, "nullBoth", musaErrorInvalidValue, musaMemGetInfo(nullptr, nullptr));
  for (int limit : {7, 99, -1}) {
    NEG(musaDeviceSetLimit, "badLimit" + std::to_string(limit), musaErrorUnsupportedLimit,
        musaDeviceSetLimit(musaLimit(limit), 1024));
    NEG(musaDeviceGetLimit, "badLimit" + std::to_string(limit), musaErrorUnsupportedLimit, [&] {
      size_t v;
      return musaDeviceGetLimit(&v, musaLimit(limit));
    }());
  }
  NEG(musaDeviceGetLimit, "nullValue", musaErrorInvalidValue,
      musaDeviceGetLimit(nullptr, musaLimitStackSize));
  NEG(musaDeviceGetDefaultMemPool, "nullPool", musaErrorInvalidValue,
      musaDeviceGetDefaultMemPool(nullptr, 0));
  NEG(musaDeviceGetMemPool, "nullPool", musaErrorInvalidValue, musaDeviceGetMemPool(nullptr, 0));
  NEG(musaDeviceSetMemPool, "nullPool", musaErrorInvalidValue, musaDeviceSetMemPool(0, nullptr));
  NEG(musaDeviceGetGraphMemAttribute, "nullValue", musaErrorInvalidValue,
      musaDeviceGetGraphMemAttribute(0, musaGraphMemAttrUsedMemCurrent, nullptr));
  NEG(musaDeviceSetGraphMemAttribute, "nullValue", musaErrorInvalidValue,
      musaDeviceSetGraphMemAttribute(0, musaGraphMemAttrUsedMemHigh, nullptr));
  for (int attr : {0, 5, 99}) {
    NEG(musaDeviceGetGraphMemAttribute, "badAttr" + std::to_string(attr), musaErrorInvalidValue,
        [&] {
          unsigned long long v;
          return musaDeviceGetGraphMemAttribute(0, musaGraphMemAttributeType(attr), &v);
        }());
    NEG(musaDeviceSetGraphMemAttribute, "badAttr" + std::to_string(attr), musaErrorInvalidValue,
        [&] {
          unsigned long long v = 0;
          return musaDeviceSetGraphMemAttribute(0, musaGraphMemAttributeType(attr), &v);
        }());
  }
  NEG(musaDeviceSetGraphMemAttribute, "readOnlyUsedMemCurrent", musaErrorInvalidValue, [&] {
    unsigned long long v = 0;
    return musaDeviceSetGraphMemAttribute(0, musaGraphMemAttrUsedMemCurrent, &v);
  }());
  NEG(musaDeviceSetGraphMemAttribute, "highWatermarkNonZero", musaErrorInvalidValue, [&] {
    unsigned long long v = 4096;
    return musaDeviceSetGraphMemAttribute(0, musaGraphMemAttrUsedMemHigh, &v);
  }());

  // Every call that takes a device ordinal, with each kind of bad ordinal.
  for (int which = 0; which < 3; ++which) {
    std::string bad = std::string("badDevice_") + BadDeviceNames[which];
    NEG(musaSetDevice, bad, musaErrorInvalidDevice, musaSetDevice(c.badDevice(which)));
    NEG(musaSetValidDevices, bad, musaErrorInvalidDevice, [&] {
      int list[1] = {c.badDevice(which)};
      return musaSetValidDevices(list, 1);
    }());
    NEG(musaGetDeviceProperties, bad, musaErrorInvalidDevice, [&] {
      musaDeviceProp p;
      return musaGetDeviceProperties(&p, c.badDevice(which));
    }());
    NEG(musaDeviceGetAttribute, bad, musaErrorInvalidDevice, [&] {
      int v;
      return musaDeviceGetAttribute(&v, musaDevAttrWarpSize, c.badDevice(which));
    }());
    NEG(musaDeviceGetPCIBusId, bad, musaErrorInvalidDevice, [&] {
      char buf[32];
      return musaDeviceGetPCIBusId(buf, sizeof buf, c.badDevice(which));
    }());
    NEG(musaDeviceGetUuid, bad, musaErrorInvalidDevice, [&] {
      musaUuid_t u;
      return musaDeviceGetUuid(&u, c.badDevice(which));
    }());
    NEG(musaDeviceCanAccessPeer, bad + "_device", musaErrorInvalidDevice, [&] {
      int r;
      return musaDeviceCanAccessPeer(&r, c.badDevice(which), 0);
    }());
    NEG(musaDeviceCanAccessPeer, bad + "_peer", musaErrorInvalidDevice, [&] {
      int r;
      return musaDeviceCanAccessPeer(&r, 0, c.badDevice(which));
    }());
    NEG(musaDeviceEnablePeerAccess, bad, musaErrorInvalidDevice,
        musaDeviceEnablePeerAccess(c.badDevice(which), 0));
    NEG(musaDeviceDisablePeerAccess, bad, musaErrorInvalidDevice,
        musaDeviceDisablePeerAccess(c.badDevice(which)));
    NEG(musaDeviceGetDefaultMemPool, bad, musaErrorInvalidDevice, [&] {
      musaMemPool_t p;
      return musaDeviceGetDefaultMemPool(&p, c.badDevice(which));
    }());
    NEG(musaDeviceGetMemPool, bad, musaErrorInvalidDevice, [&] {
      musaMemPool_t p;
      return musaDeviceGetMemPool(&p, c.badDevice(which));
    }());
    NEG(musaDeviceSetMemPool, bad, musaErrorInvalidDevice,
        musaDeviceSetMemPool(c.badDevice(which), c.pool));
    NEG(musaDeviceGetGraphMemAttribute, bad, musaErrorInvalidDevice, [&] {
      unsigned long long v;
      return musaDeviceGetGraphMemAttribute(c.badDevice(which), musaGraphMemAttrUsedMemCurrent,
                                            &v);
    }());
    NEG(musaDeviceSetGraphMemAttribute, bad, musaErrorInvalidDevice, [&] {
      unsigned long long v = 0;
      return musaDeviceSetGraphMemAttribute(c.badDevice(which), musaGraphMemAttrUsedMemHigh,
                                            &v);
    }());
    NEG(musaDeviceGraphMemTrim, bad, musaErrorInvalidDevice,
        musaDeviceGraphMemTrim(c.badDevice(which)));
    NEG(musaMemPrefetchAsync, bad, musaErrorInvalidDevice,
        musaMemPrefetchAsync(c.managed, Ctx::Bytes, c.badDevice(which) == -1 ? -3
                                                                               : c.badDevice(which),
                             c.s));
    NEG(musaMemAdvise, bad + "_preferredLocation", musaErrorInvalidDevice,
        musaMemAdvise(c.managed, Ctx::Bytes, musaMemAdviseSetPreferredLocation,
                      c.badDevice(which) == -1 ? -3 : c.badDevice(which)));
    NEG(musaMemAdvise, bad + "_accessedBy", musaErrorInvalidDevice,
        musaMemAdvise(c.managed, Ctx::Bytes, musaMemAdviseSetAccessedBy,
                      c.badDevice(which) == -1 ? -3 : c.badDevice(which)));
    NEG(musaMemcpyPeer, bad + "_dstDevice", musaErrorInvalidDevice,
        musaMemcpyPeer(c.d, c.badDevice(which), c.d, 0, 16));
    NEG(musaMemcpyPeer, bad + "_srcDevice", musaErrorInvalidDevice,
        musaMemcpyPeer(c.d, 0, c.d, c.badDevice(which), 16));
    NEG(musaMemcpyPeerAsync, bad + "_dstDevice", musaErrorInvalidDevice,
        musaMemcpyPeerAsync(c.d, c.badDevice(which), c.d, 0, 16, c.s));
    NEG(musaMemcpyPeerAsync, bad + "_srcDevice", musaErrorInvalidDevice,
        musaMemcpyPeerAsync(c.d, 0, c.d, c.badDevice(which), 16, c.s));
  }

  // Error names and strings: any code gets a string; none of these calls fail.
  for (int code : {-1, 11, 99, 12345, 99999, INT_MAX, INT_MIN}) {
    NEG(musaGetErrorName, "unknownCode" + std::to_string(code), musaSuccess,
        nonNull(musaGetErrorName(musaError_t(code))));
    NEG(musaGetErrorString, "unknownCode" + std::to_string(code), musaSuccess,
        nonNull(musaGetErrorString(musaError_t(code))));
  }
  NEG(musaGetErrorName, "guideForm_nullName", musaErrorInvalidValue,
      musaGetErrorName(nullptr, musaErrorInvalidValue))
      .divergence = "the guide's out-parameter musaGetErrorName is an inline in musa_runtime.h "
                    "and does not record the last error, as every other failing call does";
}

} // namespace negative
