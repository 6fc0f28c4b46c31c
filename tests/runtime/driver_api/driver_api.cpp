// The driver API as a program uses it: muInit, devices, a created context, a module loaded
// from a device image our driver wrote, launches through kernelParams and through `extra`,
// module globals, streams and events, and CUDA's errors for bad images, unknown names and
// stale contexts. Usage: driver_api_test KERNELS.fatbin
#include <musa.h>

#include <cstdio>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static int failures = 0;
#define EXPECT(cond)                                                                         \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                            \
      ++failures;                                                                            \
    }                                                                                        \
  } while (0)
#define OK(call) EXPECT((call) == MUSA_SUCCESS)

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  // Before muInit: only the version and error names work.
  MUdevice dev = -1;
  EXPECT(muDeviceGet(&dev, 0) == MUSA_ERROR_NOT_INITIALIZED);
  int version = 0;
  OK(muDriverGetVersion(&version));
  EXPECT(version == MUSA_VERSION);
  const char *name = nullptr;
  OK(muGetErrorName(MUSA_ERROR_INVALID_IMAGE, &name));
  EXPECT(name && std::strcmp(name, "MUSA_ERROR_INVALID_IMAGE") == 0);
  EXPECT(muGetErrorName(MUresult(12345), &name) == MUSA_ERROR_INVALID_VALUE);

  OK(muInit(0));
  int count = 0;
  OK(muDeviceGetCount(&count));
  EXPECT(count >= 1);
  EXPECT(muDeviceGet(&dev, count) == MUSA_ERROR_INVALID_DEVICE);
  OK(muDeviceGet(&dev, 0));
  char deviceName[128] = {};
  OK(muDeviceGetName(deviceName, sizeof deviceName, dev));
  EXPECT(deviceName[0] != 0);
  int warp = 0, major = 0, minor = 0;
  OK(muDeviceGetAttribute(&warp, MU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
  EXPECT(warp == 32 || warp == 128);
  OK(muDeviceComputeCapability(&major, &minor, dev));
  size_t total = 0;
  OK(muDeviceTotalMem(&total, dev));
  EXPECT(total > 0);

  // No context yet: calls that need one say so.
  MUdeviceptr none = 0;
  EXPECT(muMemAlloc(&none, 16) == MUSA_ERROR_INVALID_CONTEXT);
  MUcontext ctx = nullptr, current = nullptr;
  OK(muCtxCreate(&ctx, 0, dev));
  OK(muCtxGetCurrent(&current));
  EXPECT(current == ctx);

  // A module from the image our driver wrote.
  MUmodule module = nullptr;
  OK(muModuleLoad(&module, argv[1]));
  MUfunction saxpy = nullptr, mixed = nullptr, missing = nullptr;
  OK(muModuleGetFunction(&saxpy, module, "saxpy"));
  OK(muModuleGetFunction(&mixed, module, "mixed"));
  EXPECT(muModuleGetFunction(&missing, module, "no_such_kernel") == MUSA_ERROR_NOT_FOUND);

  // Globals: set the __constant__ bias, read the __device__ counter back.
  MUdeviceptr bias = 0, counter = 0;
  size_t biasBytes = 0, counterBytes = 0;
  OK(muModuleGetGlobal(&bias, &biasBytes, module, "bias"));
  OK(muModuleGetGlobal(&counter, &counterBytes, module, "counter"));
  EXPECT(biasBytes == 4 * sizeof(float));
  EXPECT(counterBytes == sizeof(int));
  EXPECT(muModuleGetGlobal(&bias, &biasBytes, module, "nothing") == MUSA_ERROR_NOT_FOUND);
  float biasValues[4] = {0.0f, 0.25f, 0.5f, 0.75f};
  OK(muMemcpyHtoD(bias, biasValues, sizeof biasValues));
  OK(muMemsetD32(counter, 0, 1));

  // saxpy through kernelParams, on a stream, timed with events.
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = float(i), y[i] = 1.0f;
  MUdeviceptr dx = 0, dy = 0;
  OK(muMemAlloc(&dx, n * sizeof(float)));
  OK(muMemAlloc(&dy, n * sizeof(float)));
  OK(muMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  OK(muMemcpyHtoD(dy, y.data(), n * sizeof(float)));
  MUstream stream = nullptr;
  MUevent start = nullptr, stop = nullptr;
  OK(muStreamCreate(&stream, 0));
  OK(muEventCreate(&start, 0));
  OK(muEventCreate(&stop, 0));
  float a = 2.0f;
  int elements = n;
  void *params[] = {&a, &dx, &dy, &elements};
  OK(muEventRecord(start, stream));
  OK(muLaunchKernel(saxpy, (n + 127) / 128, 1, 1, 128, 1, 1, 0, stream, params, nullptr));
  OK(muEventRecord(stop, stream));
  OK(muStreamSynchronize(stream));
  float ms = -1.0f;
  OK(muEventElapsedTime(&ms, start, stop));
  EXPECT(ms >= 0.0f);
  OK(muMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    if (y[i] != 2.0f * float(i) + 1.0f + biasValues[i % 4]) {
      std::printf("FAIL saxpy element %d: %f\n", i, y[i]);
      ++failures;
      break;
    }

  // mixed through `extra`: char at 0, double at 8, pointer at 16.
  MUdeviceptr dout = 0;
  OK(muMemAlloc(&dout, 2 * sizeof(int)));
  alignas(8) unsigned char buffer[24] = {};
  char tag = 'Q';
  double scale = 4.2;
  std::memcpy(buffer, &tag, 1);
  std::memcpy(buffer + 8, &scale, 8);
  std::memcpy(buffer + 16, &dout, 8);
  size_t bufferSize = sizeof buffer;
  void *extra[] = {MU_LAUNCH_PARAM_BUFFER_POINTER, buffer, MU_LAUNCH_PARAM_BUFFER_SIZE,
                   &bufferSize, MU_LAUNCH_PARAM_END};
  OK(muLaunchKernel(mixed, 3, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra));
  OK(muCtxSynchronize());
  int out[2] = {};
  OK(muMemcpyDtoH(out, dout, sizeof out));
  EXPECT(out[0] == 'Q' && out[1] == 42);
  int launched = 0;
  OK(muMemcpyDtoH(&launched, counter, sizeof launched));
  EXPECT(launched == 3);
  EXPECT(muLaunchKernel(mixed, 1, 1, 1, 1, 1, 1, 0, nullptr, params, extra) ==
         MUSA_ERROR_INVALID_VALUE);

  // Bad images and files.
  MUmodule bad = nullptr;
  const char garbage[64] = "definitely not a device image";
  EXPECT(muModuleLoadData(&bad, garbage) == MUSA_ERROR_INVALID_IMAGE);
  EXPECT(muModuleLoad(&bad, "/nonexistent/kernels.fatbin") == MUSA_ERROR_FILE_NOT_FOUND);
  // The same image from memory works as from the file.
  std::ifstream file(argv[1], std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  MUmodule again = nullptr;
  OK(muModuleLoadData(&again, bytes.data()));
  MUfunction saxpy2 = nullptr;
  OK(muModuleGetFunction(&saxpy2, again, "saxpy"));
  OK(muModuleUnload(again));
  EXPECT(muLaunchKernel(saxpy2, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr) ==
         MUSA_ERROR_INVALID_HANDLE);
  EXPECT(muModuleGetFunction(&saxpy2, again, "saxpy") == MUSA_ERROR_INVALID_HANDLE);

  // Interoperability: the runtime API sees driver allocations and streams.
  float first = 0.0f;
  EXPECT(musaMemcpy(&first, reinterpret_cast<void *>(dy), sizeof first,
                    musaMemcpyDeviceToHost) == musaSuccess);
  EXPECT(first == 1.0f);
  EXPECT(musaStreamSynchronize(stream) == musaSuccess);

  // The rest of the memory, stream, event and context calls a program reaches for.
  MUdevice ctxDevice = -1;
  OK(muCtxGetDevice(&ctxDevice));
  EXPECT(ctxDevice == dev);
  unsigned ctxFlags = ~0u;
  OK(muCtxGetFlags(&ctxFlags));
  EXPECT((ctxFlags & 0x7) == 0); // created with 0: MU_CTX_SCHED_AUTO
  EXPECT(muCtxGetFlags(nullptr) == MUSA_ERROR_INVALID_VALUE);
  {
    // A context created with a scheduling flag reports it while current.
    MUcontext blocking = nullptr, popped = nullptr;
    OK(muCtxCreate(&blocking, MU_CTX_SCHED_BLOCKING_SYNC, dev));
    OK(muCtxGetFlags(&ctxFlags));
    EXPECT((ctxFlags & 0x7) == MU_CTX_SCHED_BLOCKING_SYNC);
    OK(muCtxPopCurrent(&popped));
    EXPECT(popped == blocking);
    OK(muCtxGetFlags(&ctxFlags));
    EXPECT((ctxFlags & 0x7) == 0); // the first context is current again
    OK(muCtxDestroy(blocking));
  }
  size_t freeBytes = 0, totalBytes = 0;
  OK(muMemGetInfo(&freeBytes, &totalBytes));
  EXPECT(totalBytes == total && freeBytes > 0 && freeBytes <= totalBytes);
  float *pinned = nullptr;
  OK(muMemAllocHost(reinterpret_cast<void **>(&pinned), n * sizeof(float)));
  for (int i = 0; i < n; ++i)
    pinned[i] = float(3 * i);
  MUdeviceptr dz = 0, dw = 0;
  OK(muMemAlloc(&dz, n * sizeof(float)));
  OK(muMemAlloc(&dw, n * sizeof(float)));
  OK(muMemcpyHtoDAsync(dz, pinned, n * sizeof(float), stream));
  OK(muMemcpyDtoD(dw, dz, n * sizeof(float)));     // legacy stream: after the async copy
  OK(muMemcpy(dz, dy, n * sizeof(float)));         // unified addressing: device to device
  OK(muMemsetD16(dw, 0x3c00, 2));                  // the first float becomes 1.0f16 twice
  std::fill(pinned, pinned + n, -1.0f);
  OK(muMemcpyDtoHAsync(pinned, dw, n * sizeof(float), stream));
  MUevent copied = nullptr;
  OK(muEventCreate(&copied, 0));
  OK(muEventRecord(copied, stream));
  OK(muEventSynchronize(copied));
  OK(muEventQuery(copied));
  // Once its last event has completed, the stream is idle (CUDA answers success at once).
  OK(muStreamQuery(stream));
  unsigned short half[2];
  std::memcpy(half, pinned, sizeof half);
  EXPECT(half[0] == 0x3c00 && half[1] == 0x3c00);
  EXPECT(pinned[1] == 3.0f && pinned[n - 1] == float(3 * (n - 1)));
  float moved = 0.0f;
  OK(muMemcpyDtoH(&moved, dz + 5 * sizeof(float), sizeof moved));
  EXPECT(moved == 2.0f * 5.0f + 1.0f + biasValues[1]);
  OK(muEventDestroy(copied));
  EXPECT(muEventQuery(copied) == MUSA_ERROR_INVALID_HANDLE);
  OK(muMemFreeHost(pinned));
  OK(muMemFree(dz));
  OK(muMemFree(dw));
  const char *text = nullptr;
  OK(muGetErrorString(MUSA_ERROR_NOT_FOUND, &text));
  EXPECT(text && text[0] != 0);
  // The image as a fat binary and through the options form.
  MUmodule fat = nullptr, withOptions = nullptr;
  OK(muModuleLoadFatBinary(&fat, bytes.data()));
  OK(muModuleLoadDataEx(&withOptions, bytes.data(), 0, nullptr, nullptr));
  MUfunction fromFat = nullptr;
  OK(muModuleGetFunction(&fromFat, fat, "saxpy"));
  OK(muModuleGetFunction(&fromFat, withOptions, "saxpy"));
  EXPECT(muModuleLoadFatBinary(&bad, garbage) == MUSA_ERROR_INVALID_IMAGE);
  OK(muModuleUnload(fat));
  OK(muModuleUnload(withOptions));

  // Stale contexts: destroyed, the context is gone for every call.
  OK(muStreamDestroy(stream));
  OK(muCtxDestroy(ctx));
  EXPECT(muCtxDestroy(ctx) == MUSA_ERROR_INVALID_CONTEXT);
  EXPECT(muCtxSetCurrent(ctx) == MUSA_ERROR_INVALID_CONTEXT);
  EXPECT(muCtxPushCurrent(ctx) == MUSA_ERROR_INVALID_CONTEXT);
  OK(muCtxGetCurrent(&current));
  EXPECT(current == nullptr);
  EXPECT(muMemAlloc(&none, 16) == MUSA_ERROR_INVALID_CONTEXT);

  // The primary context works like the runtime's.
  MUcontext primary = nullptr;
  OK(muDevicePrimaryCtxRetain(&primary, dev));
  unsigned flags = 1;
  int active = 0;
  OK(muDevicePrimaryCtxGetState(dev, &flags, &active));
  EXPECT(active == 1);
  OK(muCtxPushCurrent(primary));
  MUdeviceptr p = 0;
  OK(muMemAlloc(&p, 64));
  OK(muMemsetD8(p, 0x5a, 64));
  unsigned char check[64];
  OK(muMemcpyDtoH(check, p, 64));
  EXPECT(check[0] == 0x5a && check[63] == 0x5a);
  OK(muMemFree(p));
  MUcontext popped = nullptr;
  OK(muCtxPopCurrent(&popped));
  EXPECT(popped == primary);
  EXPECT(muCtxDestroy(primary) == MUSA_ERROR_INVALID_CONTEXT); // primaries are released
  OK(muDevicePrimaryCtxRelease(dev));
  // Flags for the primary context, then a reset that frees what it held.
  OK(muDevicePrimaryCtxSetFlags(dev, MU_CTX_SCHED_BLOCKING_SYNC));
  OK(muDevicePrimaryCtxGetState(dev, &flags, &active));
  EXPECT(flags == MU_CTX_SCHED_BLOCKING_SYNC);
  OK(muDevicePrimaryCtxRetain(&primary, dev));
  OK(muCtxPushCurrent(primary));
  MUdeviceptr held = 0;
  OK(muMemAlloc(&held, 64));
  OK(muCtxPopCurrent(&popped));
  OK(muDevicePrimaryCtxReset(dev));
  // As on the H200 (tests/hardware/probes/primary_reset.h200.txt): flags back to 0, inactive,
  // and the retain taken before the reset can still be released.
  OK(muDevicePrimaryCtxGetState(dev, &flags, &active));
  EXPECT(active == 0 && flags == 0);
  OK(muDevicePrimaryCtxRelease(dev));

  if (failures) {
    std::printf("driver_api: %d check(s) failed\n", failures);
    return 1;
  }
  std::printf("driver_api: all checks passed\n");
  return 0;
}
