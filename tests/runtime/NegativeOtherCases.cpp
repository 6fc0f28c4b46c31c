// Negative cases: memory pools and stream-ordered allocation, IPC handles, external
// semaphores, kernel launches and occupancy.
#include "NegativeApiCases.h"

#include <climits>
#include <cstring>

namespace negative {

namespace {
musaMemPoolProps poolProps() {
  musaMemPoolProps p = {};
  p.allocType = musaMemAllocationTypePinned;
  p.location.type = musaMemLocationTypeDevice;
  p.location.id = 0;
  return p;
}
} // namespace

void addOtherCases() {
  constexpr musaError_t V = musaErrorInvalidValue;
  // memory pools
  NEG(musaMemPoolCreate, "nullPool", V, [&] {
    musaMemPoolProps p = poolProps();
    return musaMemPoolCreate(nullptr, &p);
  }());
  NEG(musaMemPoolCreate, "nullProps", V, [&] {
    musaMemPool_t pool;
    return musaMemPoolCreate(&pool, nullptr);
  }());
  NEG(musaMemPoolCreate, "badLocationType", V, [&] {
    musaMemPool_t pool;
    musaMemPoolProps p = poolProps();
    p.location.type = musaMemLocationTypeInvalid;
    return musaMemPoolCreate(&pool, &p);
  }());
  for (int id : {-1, 2, 1000})
    NEG(musaMemPoolCreate, "badLocationId" + std::to_string(id),
        musaErrorInvalidDevice, [&] {
          musaMemPool_t pool;
          musaMemPoolProps p = poolProps();
          p.location.id = id == 2 ? c.count : id;
          return musaMemPoolCreate(&pool, &p);
        }());
  NEG(musaMemPoolCreate, "badAllocType", V, [&] {
    musaMemPool_t pool;
    musaMemPoolProps p = poolProps();
    p.allocType = musaMemAllocationTypeInvalid;
    return musaMemPoolCreate(&pool, &p);
  }());
  NEG(musaMemPoolCreate, "badHandleType", V, [&] {
    musaMemPool_t pool;
    musaMemPoolProps p = poolProps();
    p.handleTypes = musaMemAllocationHandleType(0x80);
    return musaMemPoolCreate(&pool, &p);
  }());
  struct BadPool {
    const char *name;
    musaMemPool_t (*get)(Ctx &);
  };
  const BadPool badPools[] = {
      {"nullPool", [](Ctx &) { return musaMemPool_t(nullptr); }},
      {"foreignPool", [](Ctx &) { return foreign<musaMemPool_t>(); }},
  };
  for (const BadPool &bp : badPools) {
    std::string arg = bp.name;
    auto get = bp.get;
    NEG(musaMemPoolDestroy, arg, V, musaMemPoolDestroy(get(c)));
    NEG(musaMemPoolSetAttribute, arg, V, [&] {
      int v = 0;
      return musaMemPoolSetAttribute(get(c), musaMemPoolReuseAllowOpportunistic, &v);
    }());
    NEG(musaMemPoolGetAttribute, arg, V, [&] {
      int v;
      return musaMemPoolGetAttribute(get(c), musaMemPoolReuseAllowOpportunistic, &v);
    }());
    NEG(musaMemPoolTrimTo, arg, V, musaMemPoolTrimTo(get(c), 0));
    NEG(musaMemPoolSetAccess, arg, V, [&] {
      musaMemAccessDesc d = {{musaMemLocationTypeDevice, 0}, musaMemAccessFlagsProtReadWrite};
      return musaMemPoolSetAccess(get(c), &d, 1);
    }());
    NEG(musaMemPoolGetAccess, arg, V, [&] {
      musaMemAccessFlags f;
      musaMemLocation loc = {musaMemLocationTypeDevice, 0};
      return musaMemPoolGetAccess(&f, get(c), &loc);
    }());
    NEG(musaMallocFromPoolAsync, arg, V, [&] {
      void *p;
      return musaMallocFromPoolAsync(&p, 64, get(c), c.s);
    }());
    NEG(musaDeviceSetMemPool, arg == "nullPool" ? "foreignPool_" : arg, V,
        musaDeviceSetMemPool(0, get(c)));
  }
  NEG(musaMemPoolDestroy, "defaultPool", V, musaMemPoolDestroy(c.pool));
  for (int attr : {0, 9, 99})
    NEG(musaMemPoolSetAttribute, "badAttr" + std::to_string(attr), V, [&] {
      unsigned long long v = 0;
      return musaMemPoolSetAttribute(c.pool, musaMemPoolAttr(attr), &v);
    }());
  for (int attr : {0, 9, 99})
    NEG(musaMemPoolGetAttribute, "badAttr" + std::to_string(attr), V, [&] {
      unsigned long long v;
      return musaMemPoolGetAttribute(c.pool, musaMemPoolAttr(attr), &v);
    }());
  NEG(musaMemPoolSetAttribute, "nullValue", V,
      musaMemPoolSetAttribute(c.pool, musaMemPoolAttrReleaseThreshold, nullptr));
  NEG(musaMemPoolGetAttribute, "nullValue", V,
      musaMemPoolGetAttribute(c.pool, musaMemPoolAttrReleaseThreshold, nullptr));
  for (musaMemPoolAttr attr : {musaMemPoolAttrReservedMemCurrent, musaMemPoolAttrUsedMemCurrent})
    NEG(musaMemPoolSetAttribute, "readOnlyAttr" + std::to_string(int(attr)), V, [&] {
      unsigned long long v = 0;
      return musaMemPoolSetAttribute(c.pool, attr, &v);
    }());
  for (musaMemPoolAttr attr : {musaMemPoolAttrReservedMemHigh, musaMemPoolAttrUsedMemHigh})
    NEG(musaMemPoolSetAttribute, "highWatermarkNonZero" + std::to_string(int(attr)), V, [&] {
      unsigned long long v = 1;
      return musaMemPoolSetAttribute(c.pool, attr, &v);
    }());
  NEG(musaMemPoolSetAccess, "nullDescsWithCount", V, musaMemPoolSetAccess(c.pool, nullptr, 1));
  NEG(musaMemPoolSetAccess, "badLocationDevice", musaErrorInvalidDevice, [&] {
    musaMemAccessDesc d = {{musaMemLocationTypeDevice, 1000}, musaMemAccessFlagsProtReadWrite};
    return musaMemPoolSetAccess(c.pool, &d, 1);
  }());
  NEG(musaMemPoolSetAccess, "badLocationType", V, [&] {
    musaMemAccessDesc d = {{musaMemLocationTypeInvalid, 0}, musaMemAccessFlagsProtReadWrite};
    return musaMemPoolSetAccess(c.pool, &d, 1);
  }());
  NEG(musaMemPoolSetAccess, "badFlags", V, [&] {
    musaMemAccessDesc d = {{musaMemLocationTypeDevice, 1}, musaMemAccessFlags(7)};
    return musaMemPoolSetAccess(c.pool, &d, 1);
  }());
  NEG(musaMemPoolSetAccess, "revokeOwningDevice", V, [&] {
    musaMemAccessDesc d = {{musaMemLocationTypeDevice, 0}, musaMemAccessFlagsProtNone};
    return musaMemPoolSetAccess(c.pool, &d, 1);
  }());
  NEG(musaMemPoolGetAccess, "nullFlags", V, [&] {
    musaMemLocation loc = {musaMemLocationTypeDevice, 0};
    return musaMemPoolGetAccess(nullptr, c.pool, &loc);
  }());
  NEG(musaMemPoolGetAccess, "nullLocation", V, [&] {
    musaMemAccessFlags f;
    return musaMemPoolGetAccess(&f, c.pool, nullptr);
  }());
  NEG(musaMemPoolGetAccess, "badLocationType", V, [&] {
    musaMemAccessFlags f;
    musaMemLocation loc = {musaMemLocationTypeInvalid, 0};
    return musaMemPoolGetAccess(&f, c.pool, &loc);
  }());
  NEG(musaMallocAsync, "nullDevPtr", V, musaMallocAsync(nullptr, 64, c.s));
  NEG(musaMallocAsync, "hugeSize", musaErrorOutOfMemory, [&] {
    void *p;
    return musaMallocAsync(&p, SIZE_MAX / 2, c.s);
  }());
  NEG(musaMallocFromPoolAsync, "nullDevPtr", V,
      musaMallocFromPoolAsync(nullptr, 64, c.pool, c.s));
  NEG(musaFreeAsync, "stackPointer", V, musaFreeAsync(c.host, c.s));
  NEG(musaFreeAsync, "freedPointer", V, musaFreeAsync(c.freed, c.s));
  NEG(musaFreeAsync, "interiorPointer", V,
      musaFreeAsync(static_cast<char *>(c.d) + 8, c.s));

  // IPC
  NEG(musaIpcGetMemHandle, "nullHandle", V, musaIpcGetMemHandle(nullptr, c.d));
  NEG(musaIpcGetMemHandle, "nullDevPtr", V, [&] {
    musaIpcMemHandle_t h;
    return musaIpcGetMemHandle(&h, nullptr);
  }());
  NEG(musaIpcGetMemHandle, "hostPointer", V, [&] {
    musaIpcMemHandle_t h;
    return musaIpcGetMemHandle(&h, c.host);
  }());
  NEG(musaIpcGetMemHandle, "freedPointer", V, [&] {
    musaIpcMemHandle_t h;
    return musaIpcGetMemHandle(&h, c.freed);
  }());
  NEG(musaIpcOpenMemHandle, "nullDevPtr", V, [&] {
    musaIpcMemHandle_t h;
    std::memset(&h, 0, sizeof h);
    return musaIpcOpenMemHandle(nullptr, h, musaIpcMemLazyEnablePeerAccess);
  }());
  NEG(musaIpcOpenMemHandle, "zeroedHandle", V, [&] {
    musaIpcMemHandle_t h;
    std::memset(&h, 0, sizeof h);
    void *p;
    return musaIpcOpenMemHandle(&p, h, musaIpcMemLazyEnablePeerAccess);
  }());
  NEG(musaIpcOpenMemHandle, "garbageHandle", V, [&] {
    musaIpcMemHandle_t h;
    std::memset(&h, 0x5c, sizeof h);
    void *p;
    return musaIpcOpenMemHandle(&p, h, musaIpcMemLazyEnablePeerAccess);
  }());
  NEG(musaIpcOpenMemHandle, "badFlags", V, [&] {
    musaIpcMemHandle_t h;
    if (musaIpcGetMemHandle(&h, c.d))
      return musaErrorUnknown;
    void *p;
    return musaIpcOpenMemHandle(&p, h, 0x80);
  }());
  NEG(musaIpcCloseMemHandle, "notOpened", V, musaIpcCloseMemHandle(c.d));
  NEG(musaIpcCloseMemHandle, "nullDevPtr", V, musaIpcCloseMemHandle(nullptr));
  NEG(musaIpcGetEventHandle, "nullHandle", V, [&] {
    musaEvent_t ev;
    if (musaEventCreateWithFlags(&ev, musaEventInterprocess | musaEventDisableTiming))
      return musaErrorUnknown;
    c.cleanups.push_back([ev] { musaEventDestroy(ev); });
    return musaIpcGetEventHandle(nullptr, ev);
  }());
  NEG(musaIpcGetEventHandle, "notInterprocessEvent", musaErrorInvalidResourceHandle, [&] {
    musaIpcEventHandle_t h;
    return musaIpcGetEventHandle(&h, c.untimed);
  }());
  NEG(musaIpcOpenEventHandle, "nullEvent", V, [&] {
    musaIpcEventHandle_t h;
    std::memset(&h, 0, sizeof h);
    return musaIpcOpenEventHandle(nullptr, h);
  }());
  NEG(musaIpcOpenEventHandle, "zeroedHandle", V, [&] {
    musaIpcEventHandle_t h;
    std::memset(&h, 0, sizeof h);
    musaEvent_t ev;
    return musaIpcOpenEventHandle(&ev, h);
  }());

  // external semaphores
  NEG(musaImportExternalSemaphore, "nullSem", V, [&] {
    musaExternalSemaphoreHandleDesc d = {};
    d.type = musaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = 0;
    return musaImportExternalSemaphore(nullptr, &d);
  }());
  NEG(musaImportExternalSemaphore, "nullDesc", V, [&] {
    musaExternalSemaphore_t s;
    return musaImportExternalSemaphore(&s, nullptr);
  }());
  for (int type : {0, 99})
    NEG(musaImportExternalSemaphore, "badType" + std::to_string(type), V, [&] {
      musaExternalSemaphore_t s;
      musaExternalSemaphoreHandleDesc d = {};
      d.type = musaExternalSemaphoreHandleType(type);
      d.handle.fd = 0;
      return musaImportExternalSemaphore(&s, &d);
    }());
  NEG(musaImportExternalSemaphore, "badFd", V, [&] {
    musaExternalSemaphore_t s;
    musaExternalSemaphoreHandleDesc d = {};
    d.type = musaExternalSemaphoreHandleTypeOpaqueFd;
    d.handle.fd = -1;
    return musaImportExternalSemaphore(&s, &d);
  }());
  // CUDA documents InvalidResourceHandle for a bad semaphore handle.
  constexpr musaError_t H = musaErrorInvalidResourceHandle;
  NEG(musaDestroyExternalSemaphore, "nullSem", H, musaDestroyExternalSemaphore(nullptr));
  NEG(musaDestroyExternalSemaphore, "foreignSem", H,
      musaDestroyExternalSemaphore(foreign<musaExternalSemaphore_t>()));
  NEG(musaSignalExternalSemaphoresAsync, "nullSems", V, [&] {
    musaExternalSemaphoreSignalParams p = {};
    return musaSignalExternalSemaphoresAsync(nullptr, &p, 1, c.s);
  }());
  NEG(musaSignalExternalSemaphoresAsync, "foreignSem", H, [&] {
    musaExternalSemaphoreSignalParams p = {};
    musaExternalSemaphore_t sem = foreign<musaExternalSemaphore_t>();
    return musaSignalExternalSemaphoresAsync(&sem, &p, 1, c.s);
  }());
  NEG(musaWaitExternalSemaphoresAsync, "nullSems", V, [&] {
    musaExternalSemaphoreWaitParams p = {};
    return musaWaitExternalSemaphoresAsync(nullptr, &p, 1, c.s);
  }());
  NEG(musaWaitExternalSemaphoresAsync, "foreignSem", H, [&] {
    musaExternalSemaphoreWaitParams p = {};
    musaExternalSemaphore_t sem = foreign<musaExternalSemaphore_t>();
    return musaWaitExternalSemaphoresAsync(&sem, &p, 1, c.s);
  }());
  NEG(musaSimCreateSemaphoreFd, "nullFd", V, musaSimCreateSemaphoreFd(nullptr, 0));
  NEG(musaSimCreateSemaphoreFd, "badTimeline", V, [&] {
    int fd;
    return musaSimCreateSemaphoreFd(&fd, 7);
  }());

  // kernel launches: no kernel is registered in this test, so any function is unknown.
  NEG(musaLaunchKernel, "nullFunc", musaErrorInvalidDeviceFunction,
      musaLaunchKernel(static_cast<const void *>(nullptr), dim3(1), dim3(32), nullptr, 0, c.s));
  NEG(musaLaunchKernel, "notAKernel", musaErrorInvalidDeviceFunction,
      musaLaunchKernel(static_cast<const void *>(c.host), dim3(1), dim3(32), nullptr, 0, c.s));
  NEG(musaLaunchKernel, "notAKernel_legacyStream", musaErrorInvalidDeviceFunction,
      musaLaunchKernel(static_cast<const void *>(c.host), dim3(1), dim3(32), nullptr, 0,
                       nullptr));
  NEG(musaGetFuncBySymbol, "nullFunctionPtr", musaErrorInvalidValue,
      musaGetFuncBySymbol(nullptr, static_cast<const void *>(c.host)));
  NEG(musaGetFuncBySymbol, "nullSymbol", musaErrorInvalidDeviceFunction, [&] {
    musaFunction_t f;
    return musaGetFuncBySymbol(&f, nullptr);
  }());
  NEG(musaGetFuncBySymbol, "notAKernel", musaErrorInvalidDeviceFunction, [&] {
    musaFunction_t f;
    return musaGetFuncBySymbol(&f, static_cast<const void *>(c.host));
  }());
  NEG(cudaLaunchKernel, "nullFunc", musaErrorInvalidDeviceFunction,
      cudaLaunchKernel(nullptr, dim3(1), dim3(32), nullptr, 0, c.s));
  NEG(musaLaunchCooperativeKernel, "nullFunc", musaErrorInvalidDeviceFunction,
      musaLaunchCooperativeKernel(static_cast<const void *>(nullptr), dim3(1), dim3(32), nullptr,
                                  0, c.s));
  NEG(musaLaunchCooperativeKernel, "notAKernel", musaErrorInvalidDeviceFunction,
      musaLaunchCooperativeKernel(static_cast<const void *>(c.host), dim3(1), dim3(32), nullptr,
                                  0, c.s));
  NEG(musaOccupancyMaxActiveBlocksPerMultiprocessor, "nullNumBlocks", V,
      musaOccupancyMaxActiveBlocksPerMultiprocessor(nullptr, static_cast<const void *>(c.host),
                                                    32, 0));
  NEG(musaOccupancyMaxActiveBlocksPerMultiprocessor, "notAKernel",
      musaErrorInvalidDeviceFunction, [&] {
        int n;
        return musaOccupancyMaxActiveBlocksPerMultiprocessor(
            &n, static_cast<const void *>(c.host), 32, 0);
      }());
  NEG(musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, "nullNumBlocks", V,
      musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
          nullptr, static_cast<const void *>(c.host), 32, 0, 0));
  NEG(musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, "notAKernel",
      musaErrorInvalidDeviceFunction, [&] {
        int n;
        return musaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &n, static_cast<const void *>(c.host), 32, 0, 0);
      }());
  NEG(musaOccupancyAvailableDynamicSMemPerBlock, "nullSize", V,
      musaOccupancyAvailableDynamicSMemPerBlock(nullptr, static_cast<const void *>(c.host), 1,
                                                32));
  NEG(musaOccupancyAvailableDynamicSMemPerBlock, "notAKernel", musaErrorInvalidDeviceFunction,
      [&] {
        size_t n;
        return musaOccupancyAvailableDynamicSMemPerBlock(&n, static_cast<const void *>(c.host),
                                                         1, 32);
      }());
}

} // namespace negative
