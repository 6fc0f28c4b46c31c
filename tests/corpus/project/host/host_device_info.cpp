// Plain C++ host code linking MUSA::musart (no kernels): device enumeration and selection,
// properties against attributes, versions, memory info, device flags and limits.
#include <musa_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    musaError_t err_ = (call);                                                               \
    if (err_ != musaSuccess) {                                                               \
      std::printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, musaGetErrorString(err_)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

int main() {
  int count = 0, runtime = 0, driver = 0;
  CHECK(musaGetDeviceCount(&count));
  CHECK(musaRuntimeGetVersion(&runtime));
  CHECK(musaDriverGetVersion(&driver));
  bool ok = count >= 1 && runtime > 0 && driver >= runtime;
  for (int dev = 0; dev < count; ++dev) {
    CHECK(musaSetDevice(dev));
    int current = -1;
    CHECK(musaGetDevice(&current));
    musaDeviceProp prop;
    CHECK(musaGetDeviceProperties(&prop, dev));
    int sms = 0, major = 0, shared = 0;
    CHECK(musaDeviceGetAttribute(&sms, musaDevAttrMultiProcessorCount, dev));
    CHECK(musaDeviceGetAttribute(&major, musaDevAttrComputeCapabilityMajor, dev));
    CHECK(musaDeviceGetAttribute(&shared, musaDevAttrMaxSharedMemoryPerBlock, dev));
    size_t freeMem = 0, total = 0, stack = 0;
    CHECK(musaMemGetInfo(&freeMem, &total));
    CHECK(musaDeviceGetLimit(&stack, musaLimitStackSize));
    std::printf("device %d: %s, %d SMs, capability %d.%d, %zu MiB free of %zu, stack %zu bytes\n",
                dev, prop.name, sms, prop.major, prop.minor, freeMem >> 20, total >> 20, stack);
    ok = ok && current == dev && sms == prop.multiProcessorCount && major == prop.major &&
         (size_t)shared == prop.sharedMemPerBlock && total == prop.totalGlobalMem && stack > 0;
  }
  CHECK(musaSetDevice(0));
  CHECK(musaSetDeviceFlags(musaDeviceScheduleBlockingSync));
  unsigned flags = 0;
  CHECK(musaGetDeviceFlags(&flags));
  ok = ok && (flags & musaDeviceScheduleBlockingSync) != 0;
  CHECK(musaDeviceSynchronize());
  std::printf("host_device_info: %d device(s), runtime %d, %s\n", count, runtime,
              ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
